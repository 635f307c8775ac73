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
// Semantics are CPython's (tests/test_conditions_oracle.py checks them against
// CPython): strings are sequences of code points (len, indexing, ordering), ints
// are exact however big, an int and a float stay apart (2 / 1 is 2.0, xs[2.0]
// raises), // and % floor as Python does.
//
// Values are previews, so some answers are unknowable (an item left out of a
// capped list, a truncated string, which NaN object a NaN is, whether an
// object's class is hashable). Those raise an EvaluationError instead of
// guessing, and so does comparing two containers (==, <), which the engine does not do
// from previews. A failed evaluation stops the run at that line with the error shown (as
// bdb does), never passes silently (breakpoints.js).

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
      const digits = text.replaceAll('_', '');
      const float = Number(digits);
      if (Number.isNaN(float)) throw new ConditionError(`invalid number '${text}'`, start, src);
      // An int literal stays exact however long (BigInt past 2**53); 2.0 and 1e3 are floats, as in Python.
      const value = /^[0-9]+$/.test(digits) ? toIntValue(BigInt(digits)) : toFloatValue(float);
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
// exact: numbers (below), string, boolean, null (None). Anything else
// (containers, truncated strings, objects, ints too big to print) stays a Box
// around the preview, and operations on it consult the preview's
// items/entries/len.
//
// Numbers. Python tells an int from a float (2 / 1 is 2.0, xs[2.0] raises,
// ints are exact however big) and a JS number does not, so:
//   - a JS number that is a safe integer is an int, any other JS number
//     (2.5, nan, inf, 1e300) a float;
//   - an int beyond ±(2**53 - 1) is a BigInt (exact, as in Python);
//   - a float whose value is a safe integer (2.0, -0.0, 1e15) is a PyFloat.
// A number the lookup hands over raw is read the same way; the recorder keeps
// ints raw only within ±2**53, and a raw float with an integral value (2.0) would
// read as the int 2, so the value table's runtime() hands such floats over as
// their previews (trace-columns.js).

class Box {
  /** @param {any} preview */
  constructor(preview) { this.p = preview; }
}

/** A float whose value is a safe integer (2.0, -0.0): a bare JS number that is one means an int. */
class PyFloat {
  /** @param {number} x */
  constructor(x) { this.x = x; }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** A float result as a runtime value. @param {number} x */
const toFloatValue = (x) => (Number.isSafeInteger(x) ? new PyFloat(x) : x);
/** An int result (a bigint) as a runtime value: a plain number while it is exact. @param {bigint} n */
const toIntValue = (n) => (n >= -MAX_SAFE && n <= MAX_SAFE ? Number(n) : n);
const isInt = (x) => typeof x === 'boolean' || typeof x === 'bigint' || (typeof x === 'number' && Number.isSafeInteger(x));
const isNum = (x) => typeof x === 'number' || typeof x === 'boolean' || typeof x === 'bigint' || x instanceof PyFloat;
/** The exact value of a number: JS compares a bigint with a number exactly (==, <), as Python does int with float. */
const exact = (x) => (typeof x === 'boolean' ? (x ? 1 : 0) : x instanceof PyFloat ? x.x : x);

/** Python's float(x) of an int or float. */
function asFloat(x) {
  const v = exact(x);
  if (typeof v !== 'bigint') return v;
  const f = Number(v); // rounds to nearest, as Python does
  if (!Number.isFinite(f)) throw new EvaluationError('OverflowError: int too large to convert to float');
  return f;
}

/** @param {string} r */
function parseFloatRepr(r) {
  if (r === 'inf') return Infinity;
  if (r === '-inf') return -Infinity;
  if (r === 'nan') return NaN;
  return Number(r);
}

/** Does the text hold a code point above U+FFFF (two UTF-16 units)? */
function hasAstral(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xD800 && c <= 0xDBFF) return true;
  }
  return false;
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
    case 'int':
      // Exact digits (the recorder writes them up to 10**60; a bigger int is "<int with N bits>", and
      // digits past the float range are kept opaque too). Up to 15 digits is always a safe integer;
      // longer ones go through BigInt, so none is rounded.
      if (v.r.length < 16) return Number(v.r);
      if (!Number.isFinite(Number(v.r))) return new Box(v);
      return toIntValue(BigInt(v.r));
    case 'float': return toFloatValue(parseFloatRepr(v.r));
    case 'str':
      // Whole only when the kept text has the full length in code points, which is what `len` counts:
      // its UTF-16 length is no proof (a cut text of emoji can have as many units as the whole has code points).
      if (typeof v.v === 'string' && (v.len === undefined
        || (v.v.length === v.len ? !hasAstral(v.v) : v.v.length > v.len && pyLen(v.v) === v.len))) return v.v;
      return new Box(v);
    default: return new Box(v);
  }
}

function typeName(x) {
  if (x === null) return 'NoneType';
  if (typeof x === 'boolean') return 'bool';
  if (typeof x === 'number') return Number.isSafeInteger(x) ? 'int' : 'float';
  if (typeof x === 'bigint') return 'int';
  if (x instanceof PyFloat) return 'float';
  if (typeof x === 'string') return 'str';
  if (x instanceof Box) return x.p.t;
  return typeof x;
}

function truthy(x) {
  if (x === null) return false;
  if (typeof x === 'boolean') return x;
  if (typeof x === 'number') return x !== 0; // NaN is truthy in Python too
  if (typeof x === 'bigint') return x !== 0n;
  if (x instanceof PyFloat) return x.x !== 0;
  if (typeof x === 'string') return x.length > 0;
  if (typeof x.p.len === 'number') return x.p.len > 0;
  return true; // an object without len: truthy unless it defines __bool__, which we cannot know
}

const BUILTIN = new Set(['list', 'tuple', 'dict', 'set', 'frozenset', 'deque', 'bytes', 'bytearray', 'int']);
const isCutStr = (x) => x instanceof Box && x.p.t === 'str' && typeof x.p.v === 'string';
const isBigIntBox = (x) => x instanceof Box && x.p.t === 'int';

/** Throw what the preview lacks, when an operand is a truncated string or an int too big to print. */
function opaque(...xs) {
  for (const x of xs) {
    if (isCutStr(x)) throw new EvaluationError('string value was truncated in the trace');
    if (isBigIntBox(x)) throw new EvaluationError('integer too large: its digits are not in the preview');
  }
}

/** Python ==; throws when the preview cannot decide. */
function pyEq(a, b) {
  if (typeof a === typeof b && (typeof a === 'number' || typeof a === 'string')) return a === b; // the common cases first
  if (a instanceof Box || b instanceof Box) {
    const box = a instanceof Box ? a : b;
    const other = a instanceof Box ? b : a;
    if (isCutStr(box) && (typeof other === 'string' || isCutStr(other))) {
      // Truncated string: a mismatch within the kept prefixes, or another length, is a sure "no".
      const kept = box.p.v, len = box.p.len;
      const otherKept = typeof other === 'string' ? other : other.p.v;
      const otherLen = typeof other === 'string' ? pyLen(other) : other.p.len;
      const n = Math.min(kept.length, otherKept.length);
      if (kept.slice(0, n) !== otherKept.slice(0, n) || (typeof len === 'number' && len !== otherLen)) return false;
      throw new EvaluationError('string value was truncated in the trace');
    }
    if (isCutStr(box) ? other instanceof Box && BUILTIN.has(other.p.t) : isCutStr(other) && BUILTIN.has(box.p.t)) {
      return false; // a str never equals a builtin container or an int
    }
    if (a instanceof Box && b instanceof Box) throw new EvaluationError('cannot compare two container values from previews');
    if (box.p.t === 'int' && isNum(other)) throw new EvaluationError('integer too large to compare exactly');
    return false; // a container never equals a scalar
  }
  // A bigint and a number compare exactly with == (2**53 + 1 != 2.0**53, as in Python).
  if (isNum(a) && isNum(b)) return exact(a) == exact(b); // == (not ===): a bigint and a number compare by value
  return a === b;
}

/**
 * Python's order of two texts, by code point, either of which may be only the kept prefix of a
 * truncated string (`whole` false): -1, 0 or 1, or undefined when the cut hides the answer.
 * @param {string} x @param {boolean} xWhole @param {string} y @param {boolean} yWhole
 */
function strOrder(x, xWhole, y, yWhole) {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    let c = x.charCodeAt(i), d = y.charCodeAt(i);
    if (c !== d) {
      // JS's < compares UTF-16 units, where a surrogate (half of a code point above U+FFFF) sorts
      // below U+E000–U+FFFF; Python compares code points, where it sorts above. Lift surrogates past U+FFFF.
      if (c >= 0xD800 && c <= 0xDFFF) c += 0x10000;
      if (d >= 0xD800 && d <= 0xDFFF) d += 0x10000;
      return c < d ? -1 : 1;
    }
  }
  // One text is a prefix of the other: the shorter value is the lesser, if we know which is shorter.
  if (x.length === y.length) return xWhole && yWhole ? 0 : xWhole ? -1 : yWhole ? 1 : undefined;
  if (x.length < y.length) return xWhole ? -1 : undefined;
  return yWhole ? 1 : undefined;
}

function pyCompare(op, a, b) {
  let c;
  if (typeof a === 'number' && typeof b === 'number') { // the common case first
    return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  if (isNum(a) && isNum(b)) {
    const x = exact(a), y = exact(b); // exact across bigint and number; NaN is unordered
    return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
  }
  if ((typeof a === 'string' || isCutStr(a)) && (typeof b === 'string' || isCutStr(b))) {
    c = typeof a === 'string' && typeof b === 'string'
      ? (a === b ? 0 : strOrder(a, true, b, true))
      : strOrder(typeof a === 'string' ? a : a.p.v, typeof a === 'string', typeof b === 'string' ? b : b.p.v, typeof b === 'string');
    if (c === undefined) throw new EvaluationError('string value was truncated in the trace');
    return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  }
  if (a instanceof Box && b instanceof Box) throw new EvaluationError('cannot compare two container values from previews');
  if (isNum(a) || isNum(b)) opaque(a, b);
  throw new EvaluationError(`'${op}' not supported between '${typeName(a)}' and '${typeName(b)}'`);
}

function pyIs(a, b) {
  const special = (x) => x === null || typeof x === 'boolean';
  if (special(a) || special(b)) return a === b;
  throw new EvaluationError("'is' is only supported with None, True or False");
}

const UNHASHABLE = new Set(['list', 'dict', 'set', 'bytearray', 'deque']);
const HASHABLE = new Set(['int', 'str', 'float', 'bool', 'NoneType', 'bytes', 'frozenset', 'complex', 'range']);

/**
 * Can the value be a dict key or set member? true, false, or the EvaluationError to throw when the
 * preview does not show: a tuple cut short, or an object (a dataclass has no __hash__, a plain
 * instance does, and the preview does not say which).
 */
function hashable(x) {
  if (!(x instanceof Box)) return true;
  const p = x.p;
  if (UNHASHABLE.has(p.t)) return false;
  if (HASHABLE.has(p.t)) return true;
  const items = p.t === 'tuple' ? p.items : isNamedTuple(p) ? p.fields.map((f) => f[1]) : null;
  if (items === null) return new EvaluationError(`cannot tell whether a '${p.t}' object is hashable: its type's __hash__ is not in the preview`);
  let unknown = p.more > 0 || p.cycle || !Array.isArray(items)
    ? new EvaluationError('not all of the tuple is in the preview (is it hashable?)') : null;
  for (const item of items ?? []) {
    const h = hashable(fromPreview(item));
    if (h === false) return false;
    if (h !== true) unknown ??= h;
  }
  return unknown ?? true;
}

/** A named tuple's preview: its items are its fields, in order (and it has a len). */
const isNamedTuple = (p) => Array.isArray(p.fields) && typeof p.len === 'number';

/**
 * Is `m` (a member or key) `item` by CPython's `in` and dict lookup, which try identity before ==?
 * NaN is the one value where that differs, and a preview does not record identity: undefined.
 */
function sameMember(m, item) {
  if (typeof m === 'number' && typeof item === 'number' && m !== m && item !== item) return undefined;
  return pyEq(m, item);
}

function pyIn(item, container) {
  if (typeof container === 'string' || isCutStr(container)) {
    if (typeof item !== 'string' && !isCutStr(item)) {
      throw new EvaluationError(`'in <string>' requires string as left operand, not ${typeName(item)}`);
    }
    const [text, whole] = typeof container === 'string' ? [container, true] : [container.p.v, false];
    if (typeof item === 'string') {
      if (text.includes(item)) return true;
      if (whole || pyLen(item) > container.p.len) return false; // too long to be in it
    } else if (!text.includes(item.p.v) && whole) {
      return false; // not even the kept prefix of item is in it
    } else if (whole && item.p.len > pyLen(text)) {
      return false;
    }
    throw new EvaluationError('string value was truncated in the trace');
  }
  if (!(container instanceof Box)) throw new EvaluationError(`argument of type '${typeName(container)}' is not iterable`);
  const p = container.p;
  let members;
  if (Array.isArray(p.entries)) members = p.entries.map((e) => e[0]);
  else if (Array.isArray(p.items)) members = p.items;
  else if (isNamedTuple(p)) members = p.fields.map((f) => f[1]);
  else throw new EvaluationError(`contents of '${p.t}' are not in the preview`);
  const inSet = p.t === 'set' || p.t === 'frozenset';
  if (Array.isArray(p.entries) || inSet) {
    // (A set is looked for in a set as the frozenset of its items, as CPython's set.__contains__ does.)
    const h = inSet && item instanceof Box && item.p.t === 'set' ? true : hashable(item);
    if (h === false) throw new EvaluationError(`TypeError: unhashable type: '${typeName(item)}'`);
    if (h !== true) throw h;
  }
  let undecided = null;
  for (const m of members) {
    try {
      const same = sameMember(fromPreview(m), item);
      if (same) return true;
      if (same === undefined) undecided ??= new EvaluationError('cannot tell whether it is the same NaN object (identity is not in the preview)');
    } catch (e) {
      undecided ??= e;
    }
  }
  if (undecided) throw undecided;
  if (p.more > 0 || p.cycle || (typeof p.len === 'number' && p.len > members.length)) {
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
    const h = hashable(k);
    if (h === false) throw new EvaluationError(`TypeError: unhashable type: '${typeName(k)}'`);
    if (!Array.isArray(p.entries)) throw new EvaluationError('dict entries are not in the preview');
    let undecided = h === true ? null : h;
    for (const [key, val] of p.entries) {
      let same = false;
      try {
        same = sameMember(fromPreview(key), k);
      } catch (e) {
        undecided ??= e; // undecidable key: keep looking
      }
      if (same) return fromPreview(val);
      if (same === undefined) undecided ??= new EvaluationError('cannot tell whether it is the same NaN object (identity is not in the preview)');
    }
    if (undecided) throw undecided; // it may be one of the keys we could not compare
    if (p.more > 0 || p.cycle || (typeof p.len === 'number' && p.len > p.entries.length)) {
      throw new EvaluationError('key not in the preview (dict was capped)');
    }
    throw new EvaluationError(`KeyError: ${k === null ? 'None' : typeof k === 'string' ? `'${k}'` : String(exact(k))}`);
  }
  if (p.t === 'str') {
    const idx = normIndex(k, p.len);
    const chars = Array.from(p.v ?? '');
    if (idx < chars.length) return chars[idx];
    throw new EvaluationError('string value was truncated in the trace');
  }
  if (isNamedTuple(p)) {   // a named tuple: its fields in order
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
  if (!isInt(k)) {
    if (isBigIntBox(k)) throw new EvaluationError('IndexError: cannot fit \'int\' into an index-sized integer');
    throw new EvaluationError(`indices must be integers, not ${typeName(k)}`);
  }
  let i = Number(exact(k)); // a bigint index is out of any range anyway
  if (i < 0) i += len;
  if (i < 0 || i >= len) throw new EvaluationError('IndexError: index out of range');
  return i;
}

/** Number of bits of a positive bigint. @param {bigint} n */
const bitLength = (n) => n.toString(2).length;

/** Python's int / int: the exact quotient rounded once to a float. @param {bigint} x @param {bigint} y */
function intTrueDivide(x, y) {
  if (y === 0n) throw new EvaluationError('ZeroDivisionError: division by zero');
  const neg = (x < 0n) !== (y < 0n);
  const a = x < 0n ? -x : x, b = y < 0n ? -y : y;
  if (a <= MAX_SAFE && b <= MAX_SAFE) return toFloatValue(Number(x) / Number(y)); // both exact: IEEE rounds once
  if (a === 0n) return toFloatValue(neg ? -0 : 0);
  // A quotient of 64-65 bits, its last bit set when the division was inexact (a sticky bit), so
  // Number() rounds it once, to the same double as the exact quotient; then scale by 2**-shift.
  const shift = 64 - (bitLength(a) - bitLength(b));
  const num = shift >= 0 ? a << BigInt(shift) : a, den = shift >= 0 ? b : b << BigInt(-shift);
  let q = num / den;
  if (num % den !== 0n) q |= 1n;
  const exponent = bitLength(q) - 1 - shift;
  if (exponent > 1023) throw new EvaluationError('OverflowError: integer division result too large for a float');
  if (exponent < -1022) throw new EvaluationError('cannot tell: the quotient is subnormal'); // would round twice
  const half = Math.trunc(-shift / 2);
  const r = Number(q) * 2 ** half * 2 ** (-shift - half);
  return toFloatValue(neg ? -r : r);
}

/** Python int arithmetic, exact: plain numbers while the result is a safe integer, else BigInt. */
function intArith(op, a, b) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (op === '+' || op === '-' || op === '*') {
      const r = op === '+' ? a + b : op === '-' ? a - b : a * b;
      if (Number.isSafeInteger(r)) return r + 0; // exact (an inexact result is beyond 2**53); + 0: no -0 among ints
    } else if (op === '/') {
      if (b !== 0) return toFloatValue(a / b); // both exact: IEEE rounds the quotient once, as Python does
    } else if (b !== 0) {
      // Floor division and modulo of safe integers: fmod and the sign fix are exact, and so is the
      // quotient while a - m (below |a| + |b| in size) is below 2**53; past that, BigInt.
      let m = a % b;
      if (m !== 0 && (m < 0) !== (b < 0)) m += b;
      if (op === '%') return m + 0;
      if (Math.abs(a) + Math.abs(b) <= 2 ** 53) return (a - m) / b + 0;
    }
  }
  const x = BigInt(exact(a)), y = BigInt(exact(b));
  switch (op) {
    case '+': return toIntValue(x + y);
    case '-': return toIntValue(x - y);
    case '*': return toIntValue(x * y);
    case '/': return intTrueDivide(x, y);
    default: {
      if (y === 0n) throw new EvaluationError(`ZeroDivisionError: integer ${op === '%' ? 'modulo' : 'division'} by zero`);
      let r = x % y; // BigInt's % truncates; Python's takes the sign of the divisor
      if (r !== 0n && (r < 0n) !== (y < 0n)) r += y;
      return toIntValue(op === '%' ? r : (x - r) / y);
    }
  }
}

/** Python float arithmetic (an int operand converted first, as Python does). @param {number} x @param {number} y */
function floatArith(op, x, y) {
  switch (op) {
    case '+': return toFloatValue(x + y);
    case '-': return toFloatValue(x - y);
    case '*': return toFloatValue(x * y);
    case '/':
      if (y === 0) throw new EvaluationError('ZeroDivisionError: float division by zero');
      return toFloatValue(x / y);
    default: {
      if (y === 0) throw new EvaluationError(`ZeroDivisionError: float ${op === '%' ? 'modulo' : 'floor division'} by zero`);
      // CPython's float_divmod (Objects/floatobject.c), step by step: not Math.floor(x / y), which
      // rounds first (1 // 0.1 is 9.0 in Python, floor(1 / 0.1) is 10).
      let mod = x % y;
      let div = (x - mod) / y;
      if (mod !== 0) { // NaN included, as C's `if (mod)`
        if ((y < 0) !== (mod < 0)) { mod += y; div -= 1; }
      } else {
        mod = y < 0 ? -0 : 0;
      }
      if (op === '%') return toFloatValue(mod);
      let floordiv;
      if (div !== 0) {
        floordiv = Math.floor(div);
        if (div - floordiv > 0.5) floordiv += 1;
      } else {
        floordiv = x / y < 0 || Object.is(x / y, -0) ? -0 : 0;
      }
      return toFloatValue(floordiv);
    }
  }
}

/** str * int, as Python repeats (never building a huge text: that would be a MemoryError there). */
function repeat(s, n) {
  const count = Number(exact(n));
  if (count > 2 ** 63 - 1) throw new EvaluationError("OverflowError: cannot fit 'int' into an index-sized integer");
  if (count <= 0 || s === '') return '';
  if (s.length * count > 2 ** 26) throw new EvaluationError('MemoryError: the repeated string would be too large');
  return s.repeat(count);
}

function arith(op, a, b) {
  if (typeof a === 'number' && typeof b === 'number') { // the common case first
    return Number.isSafeInteger(a) && Number.isSafeInteger(b) ? intArith(op, a, b) : floatArith(op, a, b);
  }
  if (isNum(a) && isNum(b)) return isInt(a) && isInt(b) ? intArith(op, a, b) : floatArith(op, asFloat(a), asFloat(b));
  if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
  if (op === '*' && typeof a === 'string' && isInt(b)) return repeat(a, b);
  if (op === '*' && typeof b === 'string' && isInt(a)) return repeat(b, a);
  // What the preview lacks decides before a type error: a truncated text is still a str.
  if ((op === '+' && (typeof a === 'string' || isCutStr(a)) && (typeof b === 'string' || isCutStr(b)))
    || (op === '*' && ((isCutStr(a) && (isInt(b) || isBigIntBox(b))) || (isCutStr(b) && (isInt(a) || isBigIntBox(a)))))
    || ((isNum(a) || isBigIntBox(a)) && (isNum(b) || isBigIntBox(b)))) opaque(a, b);
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
        if (!isNum(x)) {
          opaque(x);
          throw new EvaluationError(`bad operand type for unary ${op}: '${typeName(x)}'`);
        }
        if (op === '+') return typeof x === 'boolean' ? exact(x) : x;
        if (typeof x === 'number') return Number.isSafeInteger(x) ? 0 - x : -x; // 0 - x: no -0 among ints
        if (x instanceof PyFloat) return toFloatValue(-x.x);
        return toIntValue(-BigInt(exact(x))); // a bigint or a bool
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
 * @property {{name: string, test: (x: number) => boolean}|null} numeric  for `name OP int`: the
 *   answer when the name holds an int, float or bool (its number), without `test`
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
    numeric: numericComparison(p.toks),
  };
}

const FLIPPED = { '==': '==', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/**
 * For `name OP int` or `int OP name` (OP a comparison, the int exact in a JS number): the name and
 * a test of the number the name holds, which is what Python answers when it holds an int, float
 * or bool (an int literal compares with a float exactly, True is 1, NaN is unequal to all).
 * Any other value goes through the evaluator. A conditional continue over a loop asks this at
 * every hit it passes. null for every other condition.
 * @param {Token[]} toks
 * @returns {{name: string, test: (x: number) => boolean}|null}
 */
function numericComparison(toks) {
  if (toks.length !== 4 || toks[1].type !== 'op' || !(toks[1].value in FLIPPED)) return null;
  const [a, , b] = toks;
  const named = a.type === 'name' ? a : b.type === 'name' ? b : null;
  const literal = named === a ? b : a;
  if (named === null || literal.type !== 'num' || !Number.isSafeInteger(literal.value)) return null;
  const k = literal.value;
  switch (named === a ? toks[1].value : FLIPPED[toks[1].value]) {
    case '==': return { name: named.value, test: (x) => x === k };
    case '!=': return { name: named.value, test: (x) => x !== k };
    case '<': return { name: named.value, test: (x) => x < k };
    case '<=': return { name: named.value, test: (x) => x <= k };
    case '>': return { name: named.value, test: (x) => x > k };
    default: return { name: named.value, test: (x) => x >= k };
  }
}
