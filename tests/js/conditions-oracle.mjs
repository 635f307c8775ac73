// Evaluate generated breakpoint conditions with the page's engine; run by tests/test_conditions_oracle.py.
//
// Input (the JSON file named by argv[2]): {envs: [{name: spec}], cases: [[env index, expression]]}, where a
// spec is {"p": Value preview} (as the recorder wrote it) or {"raw": x, "kind": "int"|"float"|"bool"|"none"}:
// a number the recorder kept raw, put into a ValueTable with its kind and handed to the condition by
// ValueTable.runtime, as the page does (JSON has no NaN, infinities or -0, so those come as the strings
// "nan", "inf", "-inf", "-0").
// Output (stdout): one JSON list, an answer per case: {"a": true|false, "r"?: repr} the condition's truth
// and, when the engine can say it exactly, the CPython repr text of its value (pythonRepr, strict),
// {"e": message} an EvaluationError (the engine cannot tell, or Python would raise), {"c": message} a
// ConditionError (the text did not parse), {"x": message} anything else thrown (always a bug).
import { readFileSync } from 'node:fs';
import { parseCondition, pythonRepr, ConditionError, EvaluationError } from '../../site/js/conditions.js';
import { ValueTable, INT, FLOAT, BOOL, NONE } from '../../site/js/trace-columns.js';

const SPECIAL = { nan: NaN, inf: Infinity, '-inf': -Infinity, '-0': -0 };
const KINDS = { int: INT, float: FLOAT, bool: BOOL, none: NONE };

/** A one-value table holding a raw number, as the page's ValueTable would. */
function rawTable(spec) {
  const x = typeof spec.raw === 'string' ? SPECIAL[spec.raw] : spec.raw;
  return new ValueTable(Uint8Array.of(KINDS[spec.kind]), Float64Array.of(x === null ? 0 : Number(x)), { list: [] });
}
const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));

// Per environment: what a condition gets for each name (ValueTable.runtime, as the page does), and the
// number the breakpoint's fast path for `name OP int` reads (ValueTable.number).
const envs = input.envs.map((env) => {
  const values = new Map();
  const numbers = new Map();
  for (const [name, spec] of Object.entries(env)) {
    if ('p' in spec) {
      values.set(name, spec.p);
      continue;
    }
    const table = rawTable(spec);
    values.set(name, table.runtime(0));
    numbers.set(name, table.number(0));
  }
  return { get: (name) => values.get(name), numbers };
});

const answers = input.cases.map(([env, source]) => {
  try {
    const condition = parseCondition(source);
    const answer = condition.test(envs[env].get);
    // Breakpoints answer `name OP int` from the number alone when there is one: it must agree.
    const x = condition.numeric && envs[env].numbers.get(condition.numeric.name);
    if (x !== undefined && x !== null && condition.numeric.test(x) !== answer) {
      return { x: `the numeric fast path answers ${!answer} for ${x}` };
    }
    const out = { a: answer };
    try {
      out.r = pythonRepr(condition.value(envs[env].get), { strict: true });
    } catch (e) {
      if (!(e instanceof EvaluationError)) return { x: `repr: ${e?.name}: ${e?.message}` };
    }
    return out;
  } catch (e) {
    if (e instanceof EvaluationError) return { e: e.message };
    if (e instanceof ConditionError) return { c: e.message };
    return { x: `${e?.name}: ${e?.message}` };
  }
});
process.stdout.write(JSON.stringify(answers));
