// Do the two forms of one trace replay alike? Reads {json, packed} documents (the packed columns
// base64-encoded) as JSON lines on stdin, one run each, and answers one JSON line per run:
// {events, mismatches: [...first few]}. Run by tests/test_packed.py.
//
// At every event (every few, in a long run) it compares what the page asks (eventAt, localsAt, stackAt, returnAt,
// exceptionAt, stdoutUntil) between: the JSON document; the packed form; and the packed form
// built, taken apart with parts(), structured-cloned (what postMessage does) and revived; and whether
// conditional breakpoints of the form `name OP int` stop where the general evaluator does.
import { createInterface } from "node:readline";
import { Replay } from "../../site/js/replay.js";
import { fromPacked } from "../../site/js/trace-columns.js";

function packedOf(message) {
  const columns = {};
  for (const [name, text] of Object.entries(message.columns)) columns[name] = new Uint8Array(Buffer.from(text, "base64"));
  return { header: message.header, previews: message.previews, columns };
}

function view(replay, i) {
  const locals = replay.localsAt(i);
  return JSON.stringify({
    event: replay.eventAt(i),
    frame: locals.frame,
    vars: [...locals.vars],
    changed: [...locals.changed].sort(),
    stack: replay.stackAt(i),
    ret: replay.returnAt(i),
    exc: replay.exceptionAt(i),
    out: replay.stdoutUntil(i),
  });
}

/** Every stop of a breakpoint on `line` with `condition`, from the start (at most 300). */
function hits(replay, line, condition) {
  replay.clearBreakpoints();
  replay.setBreakpoint(line, { condition });
  replay.start();
  const out = [];
  for (let move = replay.continue(); move.reason === "breakpoint" && out.length < 300; move = replay.continue()) {
    out.push([move.index, replay.conditionError?.message ?? null]);
  }
  replay.clearBreakpoints();
  return JSON.stringify(out);
}

/**
 * `name OP int` is answered from the raw number (breakpoints.js's fast path); `(name) OP int` goes
 * through the evaluator. Over the lines and number-holding names of a real run, both must stop at
 * the same events with the same errors.
 */
function numericConditionsAgree(replay, mismatches) {
  const pairs = new Map(); // "line name" -> numbers seen there
  for (let i = 0; i < replay.eventCount && pairs.size < 12; i += Math.max(1, Math.floor(replay.eventCount / 400))) {
    const event = replay.eventAt(i);
    if (event.kind !== "l") continue;
    for (const [name, value] of replay.localsAt(i).vars) {
      if (!["int", "float", "bool"].includes(value.t) || !/^[A-Za-z_]\w*$/.test(name)) continue;
      const seen = pairs.get(`${event.line} ${name}`) ?? new Set();
      if (value.t === "int" && Number.isSafeInteger(Number(value.r))) seen.add(Number(value.r));
      pairs.set(`${event.line} ${name}`, seen);
    }
  }
  for (const [key, seen] of pairs) {
    const [line, name] = key.split(" ");
    const k = [...seen][Math.floor(seen.size / 2)] ?? 1;
    for (const op of ["==", "!=", "<", ">="]) {
      for (const [fast, slow] of [[`${name} ${op} ${k}`, `(${name}) ${op} ${k}`], [`${k} ${op} ${name}`, `${k} ${op} (${name})`]]) {
        const want = hits(replay, Number(line), slow);
        const got = hits(replay, Number(line), fast);
        if (got !== want && mismatches.length < 5) mismatches.push({ condition: fast, line, want, got });
      }
    }
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const run = JSON.parse(line);
  const fromJson = new Replay(JSON.parse(run.json));
  const built = new Replay(fromPacked(packedOf(run.packed)));
  const { parts, transfer } = new Replay(fromPacked(packedOf(run.packed))).parts();
  const revived = Replay.fromParts(structuredClone(parts, { transfer }));
  const mismatches = [];
  const n = fromJson.eventCount;
  if (built.eventCount !== n || revived.eventCount !== n) mismatches.push({ eventCount: [n, built.eventCount, revived.eventCount] });
  // Every event of a small run; a long one (deep stacks make each view costly) at ~1,500 places.
  const stride = Math.max(1, Math.ceil(n / 1500));
  for (let i = -1; i <= n && mismatches.length < 5; i += i < 200 || i > n - 200 ? 1 : stride) {
    const want = view(fromJson, i);
    for (const [form, replay] of [["packed", built], ["revived", revived]]) {
      const got = view(replay, i);
      if (got !== want) mismatches.push({ form, event: i, want: JSON.parse(want), got: JSON.parse(got) });
    }
  }
  numericConditionsAgree(revived, mismatches);
  numericConditionsAgree(fromJson, mismatches);
  const top = [fromJson.returnedAtTop(), built.returnedAtTop(), revived.returnedAtTop()];
  if (new Set(top).size !== 1) mismatches.push({ returnedAtTop: top });
  const header = (r) => JSON.stringify({ end: r.trace.end, files: r.trace.files, out: r.trace.stdout_text, gap: r.gapInfo() });
  if (header(built) !== header(fromJson) || header(revived) !== header(fromJson)) mismatches.push({ header: [header(fromJson), header(built)] });
  const last = Object.fromEntries(revived.localsAt(n - 2).vars);   // the values the run ended with, rebuilt
  process.stdout.write(JSON.stringify({ events: n, values: built.valueCount, mismatches, last }) + "\n");
}
