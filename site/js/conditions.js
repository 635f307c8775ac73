// Breakpoint conditions: a small, safe subset of Python expressions evaluated
// over the recorded Value previews of a trace. The page runs under a strict CSP
// (no 'unsafe-eval'), and a condition must never run code anyway, so this is a
// hand-written tokenizer + recursive-descent parser that compiles to closures.
//
// Supported: names, int/float/str literals, None/True/False, unary - + not,
// + - * / // % (numbers; + and * also on str), comparisons == != < <= > >=,
// chained like Python (a < b < c), in / not in, is / is not (with None, True,
// False), and / or (Python semantics: they return an operand), len(x),
// subscripts x[0], x[-1], d['k'] on previewed list/tuple/str/dict values, and
// attributes x.name on previewed objects (their recorded fields: an instance's
// attributes, a dataclass's or named tuple's fields, an exception's args).
//
// Values are previews, so some answers are unknowable (an item left out of a
// capped list, a truncated string). Those raise an EvaluationError instead of
// guessing; the engine treats a failed evaluation as "condition false".

/** A condition that does not parse. `position` is the 0-based offset. */
export class ConditionError extends Error {
  /** @param {string} message @param {number} position @param {string} source */
  constructor(message, position, source) {
    super(`Condition syntax error at column ${position + 1}: ${message}`);
    this.name = 'ConditionError';
    this.position = position;
    this.source = source;
  }
}

/** A condition that parsed but cannot be evaluated at some event. */
export class EvaluationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'EvaluationError';
  }
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'None', 'True', 'False']);
// Longest first, so '//' wins over '/' and '<=' over '<'.
const OPERATORS = ['//', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '(', ')', '[', ']', ','];
const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}_]/u;

/**
 * @typedef {{type: 'num'|'str'|'name'|'kw'|'op'|'eof', value: any, pos: number}} Token
 */

/** @param {string} src @returns {Token[]} */
function tokenize(src) {
  /** @type {Token[]} */
  const out = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === ' ' || ch === '\t') { i++; continue; }
    const start = i;
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][+-]?[0-9]+)?/.exec(src.slice(i));
      const text = m[0];
      if (/[\p{L}_]/u.test(src[i + text.length] ?? '')) {
        throw new ConditionError(`invalid number '${src.slice(i, i + text.length + 1)}'`, start, src);
      }
      const value = Number(text.replaceAll('_', ''));
      if (Number.isNaN(value)) throw new ConditionError(`invalid number '${text}'`, start, src);
      out.push({ type: 'num', value, pos: start });
      i += text.length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= src.length) throw new ConditionError('unterminated string', start, src);
        const c = src[j];
        if (c === ch) { j++; break; }
        if (c === '\\') {
          const e = src[j + 1];
          const map = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', 0: '\0' };
          if (e === undefined || !(e in map)) throw new ConditionError(`unsupported escape '\\${e ?? ''}'`, j, src);
          text += map[e];
          j += 2;
          continue;
        }
        text += c;
        j++;
      }
      out.push({ type: 'str', value: text, pos: start });
      i = j;
      continue;
    }
    if (NAME_START.test(ch)) {
      let j = i + 1;
      while (j < src.length && NAME_PART.test(src[j])) j++;
      const word = src.slice(i, j);
      out.push({ type: KEYWORDS.has(word) ? 'kw' : 'name', value: word, pos: start });
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      out.push({ type: 'op', value: op, pos: start });
      i += op.length;
      continue;
    }
    if (ch === ':') throw new ConditionError('slices are not supported', start, src);
    if (ch === '.') {
      if (!NAME_START.test(src[i + 1] ?? '')) throw new ConditionError("expected an attribute name after '.'", start, src);
      out.push({ type: 'op', value: '.', pos: start });
      i++;
      continue;
    }
    if (ch === '=') throw new ConditionError("assignment is not allowed; use '==' to compare", start, src);
    throw new ConditionError(`unexpected character '${ch}'`, start, src);
  }
  out.push({ type: 'eof', value: null, pos: src.length });
  return out;
}

// ---------------------------------------------------------------------------
// Runtime values. Conditions work on plain JS values where the preview is
// exact: number (int/float; bool stays boolean), string, boolean, null (None).
// Anything else (containers, truncated strings, objects) stays a Box around the
// preview, and operations on it consult the preview's items/entries/len.

class Box {
  /** @param {any} preview */
  constructor(preview) { this.p = preview; }
}

/** @param {string} r */
function parseFloatRepr(r) {
  if (r === 'inf') return Infinity;
  if (r === '-inf') return -Infinity;
  if (r === 'nan') return NaN;
  return Number(r);
}

/** Code point length, which is what Python's len() counts. */
function pyLen(s) {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Convert a trace Value preview into a condition runtime value.
 * @param {any} v
 */
export function fromPreview(v) {
  if (v === null || typeof v !== 'object') throw new EvaluationError('malformed value in trace');
  if (v.err !== undefined) return new Box(v);
  switch (v.t) {
    case 'NoneType': return null;
    case 'bool': return v.r === 'True';
    case 'int': {
      const x = Number(v.r);
      if (!Number.isFinite(x)) return new Box(v);
      return x;
    }
    case 'float': return parseFloatRepr(v.r);
    case 'str':
      if (typeof v.v === 'string' && (v.len === undefined || v.len === v.v.length || v.len === pyLen(v.v))) return v.v;
      return new Box(v);
    default: return new Box(v);
  }
}

function typeName(x) {
  if (x === null) return 'NoneType';
  if (typeof x === 'boolean') return 'bool';
  if (typeof x === 'number') return Number.isInteger(x) ? 'int' : 'float';
  if (typeof x === 'string') return 'str';
  if (x instanceof Box) return x.p.t;
  return typeof x;
}

const isNum = (x) => typeof x === 'number' || typeof x === 'boolean';
const num = (x) => (typeof x === 'boolean' ? (x ? 1 : 0) : x);

function truthy(x) {
  if (x === null) return false;
  if (typeof x === 'boolean') return x;
  if (typeof x === 'number') return x !== 0; // NaN is truthy in Python too
  if (typeof x === 'string') return x.length > 0;
  if (typeof x.p.len === 'number') return x.p.len > 0;
  return true; // an object without len: truthy unless it defines __bool__, which we cannot know
}

/** Python ==; throws when the preview cannot decide. */
function pyEq(a, b) {
  if (a instanceof Box || b instanceof Box) {
    if (a instanceof Box && b instanceof Box) throw new EvaluationError('cannot compare two container values from previews');
    const box = a instanceof Box ? a : b;
    const other = a instanceof Box ? b : a;
    if (box.p.t === 'str' && typeof other === 'string') {
      // Truncated string: a mismatch within the kept prefix is a sure "no".
      const kept = typeof box.p.v === 'string' ? box.p.v : '';
      if (!other.startsWith(kept) || (typeof box.p.len === 'number' && pyLen(other) !== box.p.len)) return false;
      throw new EvaluationError('string value was truncated in the trace');
    }
    if (box.p.t === 'int' && isNum(other)) throw new EvaluationError('integer too large to compare exactly');
    return false; // a container never equals a scalar
  }
  if (isNum(a) && isNum(b)) return num(a) === num(b);
  return a === b;
}

function pyCompare(op, a, b) {
  if (isNum(a) && isNum(b)) {
    const x = num(a), y = num(b);
    return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
  }
  if (typeof a === 'string' && typeof b === 'string') {
    return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  throw new EvaluationError(`'${op}' not supported between '${typeName(a)}' and '${typeName(b)}'`);
}

function pyIs(a, b) {
  const special = (x) => x === null || typeof x === 'boolean';
  if (special(a) || special(b)) return a === b;
  throw new EvaluationError("'is' is only supported with None, True or False");
}

function pyIn(item, container) {
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new EvaluationError(`'in <string>' requires string as left operand, not ${typeName(item)}`);
    return container.includes(item);
  }
  if (!(container instanceof Box)) throw new EvaluationError(`argument of type '${typeName(container)}' is not iterable`);
  const p = container.p;
  if (p.t === 'str') {
    if (typeof item === 'string' && typeof p.v === 'string' && p.v.includes(item)) return true;
    throw new EvaluationError('string value was truncated in the trace');
  }
  let members;
  if (Array.isArray(p.entries)) members = p.entries.map((e) => e[0]);
  else if (Array.isArray(p.items)) members = p.items;
  else throw new EvaluationError(`contents of '${p.t}' are not in the preview`);
  let undecided = false;
  for (const m of members) {
    try {
      if (pyEq(fromPreview(m), item)) return true;
    } catch {
      undecided = true;
    }
  }
  if (undecided || p.more > 0 || p.cycle || (typeof p.len === 'number' && p.len > members.length)) {
    throw new EvaluationError(`not all of '${p.t}' is in the preview`);
  }
  return false;
}

function pyLenOf(x) {
  if (typeof x === 'string') return pyLen(x);
  if (x instanceof Box && typeof x.p.len === 'number') return x.p.len;
  throw new EvaluationError(`object of type '${typeName(x)}' has no len()`);
}

function pySubscript(x, k) {
  if (typeof x === 'string') {
    const chars = Array.from(x);
    const idx = normIndex(k, chars.length);
    return chars[idx];
  }
  if (!(x instanceof Box)) throw new EvaluationError(`'${typeName(x)}' object is not subscriptable`);
  const p = x.p;
  if (Array.isArray(p.entries) || p.t === 'dict') {
    if (!Array.isArray(p.entries)) throw new EvaluationError('dict entries are not in the preview');
    for (const [key, val] of p.entries) {
      let same = false;
      try { same = pyEq(fromPreview(key), k); } catch { /* undecidable key: keep looking */ }
      if (same) return fromPreview(val);
    }
    if (p.more > 0 || p.cycle || (typeof p.len === 'number' && p.len > p.entries.length)) {
      throw new EvaluationError('key not in the preview (dict was capped)');
    }
    throw new EvaluationError(`KeyError: ${k === null ? 'None' : typeof k === 'string' ? `'${k}'` : String(k)}`);
  }
  if (p.t === 'str') {
    const idx = normIndex(k, p.len);
    const chars = Array.from(p.v ?? '');
    if (idx < chars.length) return chars[idx];
    throw new EvaluationError('string value was truncated in the trace');
  }
  if (Array.isArray(p.fields) && typeof p.len === 'number') {   // a named tuple: its fields in order
    const idx = normIndex(k, p.len);
    if (idx < p.fields.length) return fromPreview(p.fields[idx][1]);
    throw new EvaluationError(`item ${idx} is not in the preview (tuple was capped)`);
  }
  if (Array.isArray(p.items) && (p.t === 'list' || p.t === 'tuple' || typeof p.len === 'number')) {
    if (p.t === 'set' || p.t === 'frozenset') throw new EvaluationError(`'${p.t}' object is not subscriptable`);
    const len = typeof p.len === 'number' ? p.len : p.items.length;
    const idx = normIndex(k, len);
    if (idx < p.items.length) return fromPreview(p.items[idx]);
    throw new EvaluationError(`item ${idx} is not in the preview (list was capped)`);
  }
  throw new EvaluationError(`'${p.t}' object is not subscriptable in the preview`);
}

/** x.name: a field the recorder stored for an object (never a method, a property or a computed value). */
function pyAttribute(x, name) {
  if (!(x instanceof Box) || !Array.isArray(x.p.fields)) {
    throw new EvaluationError(`'${typeName(x)}' object has no recorded attribute '${name}'`);
  }
  const p = x.p;
  for (const [field, value] of p.fields) if (field === name) return fromPreview(value);
  if (p.more > 0) throw new EvaluationError(`attribute '${name}' is not in the preview (fields were capped)`);
  throw new EvaluationError(`'${p.t}' object has no attribute '${name}'`);
}

function normIndex(k, len) {
  if (!(typeof k === 'boolean' || (typeof k === 'number' && Number.isInteger(k)))) {
    throw new EvaluationError(`indices must be integers, not ${typeName(k)}`);
  }
  let i = num(k);
  if (i < 0) i += len;
  if (i < 0 || i >= len) throw new EvaluationError('IndexError: index out of range');
  return i;
}

function arith(op, a, b) {
  if (isNum(a) && isNum(b)) {
    const x = num(a), y = num(b);
    switch (op) {
      case '+': return x + y;
      case '-': return x - y;
      case '*': return x * y;
      case '/':
        if (y === 0) throw new EvaluationError('ZeroDivisionError: division by zero');
        return x / y;
      case '//':
        if (y === 0) throw new EvaluationError('ZeroDivisionError: integer division by zero');
        return Math.floor(x / y);
      case '%':
        if (y === 0) throw new EvaluationError('ZeroDivisionError: modulo by zero');
        return x - y * Math.floor(x / y); // Python's sign-of-divisor modulo
    }
  }
  if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
  if (op === '*' && typeof a === 'string' && typeof b === 'number' && Number.isInteger(b)) return a.repeat(Math.max(0, b));
  if (op === '*' && typeof b === 'string' && typeof a === 'number' && Number.isInteger(a)) return b.repeat(Math.max(0, a));
  throw new EvaluationError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

// ---------------------------------------------------------------------------
// Parser: compiles straight to closures `(lookup) => value`, where lookup(name)
// returns a Value preview or undefined.

/**
 * @typedef {(lookup: (name: string) => any) => any} Compiled
 */

class Parser {
  /** @param {string} src */
  constructor(src) {
    this.src = src;
    this.toks = tokenize(src);
    this.k = 0;
    /** @type {Set<string>} */
    this.names = new Set();
  }
  get tok() { return this.toks[this.k]; }
  fail(msg, tok = this.tok) { throw new ConditionError(msg, tok.pos, this.src); }
  isOp(v) { return this.tok.type === 'op' && this.tok.value === v; }
  isKw(v) { return this.tok.type === 'kw' && this.tok.value === v; }
  expectOp(v) {
    if (!this.isOp(v)) this.fail(`expected '${v}'${this.tok.type === 'eof' ? ' before end' : ''}`);
    this.k++;
  }

  parse() {
    if (this.tok.type === 'eof') this.fail('empty condition');
    const e = this.orExpr();
    if (this.tok.type !== 'eof') this.fail(`unexpected '${this.tok.value}'`);
    return e;
  }
  orExpr() {
    let left = this.andExpr();
    while (this.isKw('or')) {
      this.k++;
      const l = left, r = this.andExpr();
      left = (env) => { const a = l(env); return truthy(a) ? a : r(env); };
    }
    return left;
  }
  andExpr() {
    let left = this.notExpr();
    while (this.isKw('and')) {
      this.k++;
      const l = left, r = this.notExpr();
      left = (env) => { const a = l(env); return truthy(a) ? r(env) : a; };
    }
    return left;
  }
  notExpr() {
    if (this.isKw('not')) {
      this.k++;
      const e = this.notExpr();
      return (env) => !truthy(e(env));
    }
    return this.comparison();
  }
  compOp() {
    const t = this.tok;
    if (t.type === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.value)) { this.k++; return t.value; }
    if (this.isKw('in')) { this.k++; return 'in'; }
    if (this.isKw('not')) {
      if (this.toks[this.k + 1].type === 'kw' && this.toks[this.k + 1].value === 'in') { this.k += 2; return 'not in'; }
      this.fail("expected 'in' after 'not'", this.toks[this.k + 1]);
    }
    if (this.isKw('is')) {
      this.k++;
      if (this.isKw('not')) { this.k++; return 'is not'; }
      return 'is';
    }
    return null;
  }
  comparison() {
    const first = this.arith();
    /** @type {{op: string, e: Compiled}[]} */
    const rest = [];
    for (let op = this.compOp(); op; op = this.compOp()) rest.push({ op, e: this.arith() });
    if (rest.length === 0) return first;
    return (env) => {
      let a = first(env);
      for (const { op, e } of rest) {
        const b = e(env);
        let ok;
        switch (op) {
          case '==': ok = pyEq(a, b); break;
          case '!=': ok = !pyEq(a, b); break;
          case 'in': ok = pyIn(a, b); break;
          case 'not in': ok = !pyIn(a, b); break;
          case 'is': ok = pyIs(a, b); break;
          case 'is not': ok = !pyIs(a, b); break;
          default: ok = pyCompare(op, a, b);
        }
        if (!ok) return false; // chained comparisons short-circuit like Python
        a = b;
      }
      return true;
    };
  }
  arith() {
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.tok.value;
      this.k++;
      const l = left, r = this.term();
      left = (env) => arith(op, l(env), r(env));
    }
    return left;
  }
  term() {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('//') || this.isOp('%')) {
      const op = this.tok.value;
      this.k++;
      const l = left, r = this.unary();
      left = (env) => arith(op, l(env), r(env));
    }
    return left;
  }
  unary() {
    if (this.isOp('-') || this.isOp('+')) {
      const op = this.tok.value;
      this.k++;
      const e = this.unary();
      return (env) => {
        const x = e(env);
        if (!isNum(x)) throw new EvaluationError(`bad operand type for unary ${op}: '${typeName(x)}'`);
        return op === '-' ? -num(x) : num(x);
      };
    }
    return this.postfix();
  }
  postfix() {
    let e = this.atom();
    while (this.isOp('[') || this.isOp('.')) {
      if (this.isOp('.')) {
        this.k++;
        const name = this.tok;
        if (name.type !== 'name') this.fail("expected an attribute name after '.'", name);
        this.k++;
        const target = e;
        e = (env) => pyAttribute(target(env), name.value);
        continue;
      }
      const open = this.tok;
      this.k++;
      if (this.isOp(']')) this.fail('empty subscript');
      const idx = this.orExpr();
      if (!this.isOp(']')) this.fail(`expected ']' to close '[' at column ${open.pos + 1}`);
      this.k++;
      const target = e;
      e = (env) => pySubscript(target(env), idx(env));
    }
    return e;
  }
  atom() {
    const t = this.tok;
    switch (t.type) {
      case 'num': this.k++; return () => t.value;
      case 'str': this.k++; return () => t.value;
      case 'kw':
        if (t.value === 'None') { this.k++; return () => null; }
        if (t.value === 'True') { this.k++; return () => true; }
        if (t.value === 'False') { this.k++; return () => false; }
        return this.fail(`unexpected '${t.value}'`);
      case 'name': {
        this.k++;
        if (this.isOp('(')) {
          if (t.value !== 'len') this.fail(`only len() can be called, not ${t.value}()`, t);
          this.k++;
          if (this.isOp(')')) this.fail('len() takes exactly one argument');
          const arg = this.orExpr();
          if (this.isOp(',')) this.fail('len() takes exactly one argument');
          this.expectOp(')');
          return (env) => pyLenOf(arg(env));
        }
        const name = t.value;
        this.names.add(name);
        return (lookup) => {
          const v = lookup(name);
          if (v === undefined) throw new EvaluationError(`name '${name}' is not defined here`);
          return v !== null && typeof v === 'object' ? fromPreview(v) : v; // a number, bool or None as itself
        };
      }
      case 'op':
        if (t.value === '(') {
          this.k++;
          if (this.isOp(')')) this.fail('empty parentheses');
          const e = this.orExpr();
          if (this.isOp(',')) this.fail('tuples are not supported');
          this.expectOp(')');
          return e;
        }
        return this.fail(`unexpected '${t.value}'`);
      case 'eof':
        return this.fail('unexpected end of condition');
    }
    return this.fail('unexpected token');
  }
}

/**
 * @typedef {object} Condition
 * @property {string} source  the text as given
 * @property {Set<string>} names  local names the condition reads
 * @property {(lookup: (name: string) => any) => boolean} test
 *   evaluate with `lookup(name)` returning a trace Value preview, or a number, boolean or null
 *   standing for itself (or undefined
 *   when the name is not a local there); throws EvaluationError when undecidable
 */

/**
 * Parse a breakpoint condition. Throws ConditionError (with `.position`) when
 * the text is not in the supported language.
 * @param {string} source
 * @returns {Condition}
 */
export function parseCondition(source) {
  if (typeof source !== 'string') throw new TypeError('condition must be a string');
  const p = new Parser(source);
  const compiled = p.parse();
  return {
    source,
    names: p.names,
    test: (lookup) => truthy(compiled(lookup)),
  };
}
