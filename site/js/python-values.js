// Python values for the expression language of conditions.js: what a recorded Value preview
// (docs/trace-format.md "Value") is at run time, and CPython's semantics of the operations on it
// (numbers, ==, <, in, subscripts and slices, +, -, *, /, //, %), its repr, and the way back to a
// preview (toPreview) for the page's renderer.
//
// Runtime values:
//   - null (None), boolean, string (a whole str), numbers (below);
//   - Box: a recorded preview that is not exact as a plain value: a container, an object, a cut
//     string, an int too big to print. Operations read the preview's items/entries/fields/len;
//   - Seq (list, tuple, set, frozenset, dict_keys/values/items) and PyDict: values the evaluator
//     built (a slice, a comprehension, sorted(...)), their items runtime values. A Seq may be a
//     prefix (`len` > items shown) when it is a view of a capped dict;
//   - PyRange, PyType (int, list, type(x)), PyFunc (len, a lambda), PyGen (a generator
//     expression), PyIter (enumerate, zip, reversed), PySlice.
//
// Numbers. Python tells an int from a float (2 / 1 is 2.0, xs[2.0] raises, ints are exact however
// big) and a JS number does not, so:
//   - a JS number that is a safe integer is an int, any other JS number (2.5, nan, inf, 1e300) a float;
//   - an int beyond ±(2**53 - 1) is a BigInt (exact, as in Python);
//   - a float whose value is a safe integer (2.0, -0.0, 1e15) is a PyFloat.
// A number the lookup hands over raw is read the same way; the recorder keeps ints raw only within
// ±2**53, and a raw float with an integral value (2.0) would read as the int 2, so the value table's
// runtime() hands such floats over as their previews (trace-columns.js).
//
// What a preview does not hold is never guessed: an EvaluationError says what is missing ("not all
// of 'list' is in the preview", "string value was truncated in the trace") or which fact no
// preview records (which NaN object a NaN is, a set's iteration order, a class's __eq__).

/** A condition that parsed but cannot be evaluated at some event. */
export class EvaluationError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'EvaluationError';
  }
}

// ---------------------------------------------------------------------------
// Work budget: one evaluation takes at most MAX_STEPS steps (an item iterated, compared, built).

export const MAX_STEPS = 100_000;
let steps = 0;
/** Start a new evaluation's budget. */
export function resetBudget() { steps = 0; }
/** Count n steps of work; throws when the evaluation's budget is spent. @param {number} [n] */
export function tick(n = 1) {
  steps += n;
  if (steps > MAX_STEPS) {
    throw new EvaluationError(`evaluation stopped after more than ${MAX_STEPS} steps: too much work for the debugger`);
  }
}

// ---------------------------------------------------------------------------
// Runtime value classes.

export class Box {
  /** @param {any} preview */
  constructor(preview) { this.p = preview; }
}

/** A float whose value is a safe integer (2.0, -0.0): a bare JS number that is one means an int. */
export class PyFloat {
  /** @param {number} x */
  constructor(x) { this.x = x; }
}

const SEQ_KINDS = {
  list: 'list', tuple: 'tuple', set: 'set', frozenset: 'frozenset',
  dict_keys: 'keys', dict_items: 'keys', dict_values: 'values',
};

/** A list, tuple, set, frozenset or dict view the evaluator made. */
export class Seq {
  /** @param {string} t type name @param {any[]} items @param {number} [len] more than items: a prefix */
  constructor(t, items, len = items.length) {
    this.t = t;
    this.kind = SEQ_KINDS[t];
    this.items = items;
    this.len = len;
  }
}

/** A dict the evaluator made: entries in insertion order, keys distinct. */
export class PyDict {
  /** @param {any[][]} entries */
  constructor(entries) { this.entries = entries; }
}

export class PyRange {
  /** @param {bigint} start @param {bigint} stop @param {bigint} step */
  constructor(start, stop, step) {
    this.start = start;
    this.stop = stop;
    this.step = step;
    const n = step > 0n ? (stop - start + step - 1n) / step : (start - stop - step - 1n) / -step;
    this.length = n > 0n ? n : 0n;
  }
  /** @param {bigint} i */
  at(i) { return toIntValue(this.start + i * this.step); }
}

/** A type: the builtin ones are singletons (typeObject), `construct` set by python-builtins.js. */
export class PyType {
  /** @param {string} name */
  constructor(name) {
    this.name = name;
    /** @type {((args: any[], kw: Map<string, any>) => any)|null} */
    this.construct = null;
  }
}

const TYPES = new Map();
/** The type object of a name (one per name). @param {string} name @returns {PyType} */
export function typeObject(name) {
  let t = TYPES.get(name);
  if (!t) TYPES.set(name, (t = new PyType(name)));
  return t;
}

/** A function the evaluator can call: a builtin, or a lambda of the expression. */
export class PyFunc {
  /** @param {string} name @param {(args: any[], kw: Map<string, any>) => any} call @param {boolean} [builtin] */
  constructor(name, call, builtin = true) {
    this.name = name;
    this.call = call;
    this.builtin = builtin;
  }
}

/**
 * A generator expression, run lazily once: `iter(mode)`. mode 'ordered': in CPython's order (a set
 * of two or more items cannot say it); 'any': the consumer's answer does not depend on the order
 * (sum, sorted, set), and `sawUnordered` tells whether it iterated such a set.
 */
export class PyGen {
  /** @param {(mode: 'ordered'|'any', gen: PyGen) => IterableIterator<any>} start */
  constructor(start) {
    this.start = start;
    this.used = false;
    this.sawUnordered = false;
  }
  /** @param {'ordered'|'any'} mode @returns {IterableIterator<any>} */
  iter(mode) {
    if (this.used) return [][Symbol.iterator]();
    this.used = true;
    return this.start(mode, this);
  }
}

/** An iterator made by enumerate/zip/reversed: its items, already made. */
export class PyIter {
  /** @param {string} t @param {any[]} items */
  constructor(t, items) { this.t = t; this.items = items; }
}

export class PySlice {
  constructor(start, stop, step) { this.start = start; this.stop = stop; this.step = step; }
}

// ---------------------------------------------------------------------------
// Numbers.

export const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** A float result as a runtime value. @param {number} x */
export const toFloatValue = (x) => (Number.isSafeInteger(x) ? new PyFloat(x) : x);
/** An int result (a bigint) as a runtime value: a plain number while it is exact. @param {bigint} n */
export const toIntValue = (n) => (n >= -MAX_SAFE && n <= MAX_SAFE ? Number(n) : n);
export const isInt = (x) => typeof x === 'boolean' || typeof x === 'bigint' || (typeof x === 'number' && Number.isSafeInteger(x));
export const isNum = (x) => typeof x === 'number' || typeof x === 'boolean' || typeof x === 'bigint' || x instanceof PyFloat;
export const isFloat = (x) => x instanceof PyFloat || (typeof x === 'number' && !Number.isSafeInteger(x));
/** The exact value of a number: JS compares a bigint with a number exactly (==, <), as Python does int with float. */
export const exact = (x) => (typeof x === 'boolean' ? (x ? 1 : 0) : x instanceof PyFloat ? x.x : x);
/** An int's exact value as a bigint. */
export const bigOf = (x) => BigInt(exact(x));

/** Python's float(x) of an int or float. */
export function asFloat(x) {
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

// ---------------------------------------------------------------------------
// Text.

/** Does the text hold a code point above U+FFFF (two UTF-16 units)? */
export function hasAstral(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xD800 && c <= 0xDBFF) return true;
  }
  return false;
}

/** Code point length, which is what Python's len() counts. */
export function pyLen(s) {
  if (!hasAstral(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The code points of a text (one string each). */
export const codePoints = (s) => (hasAstral(s) ? Array.from(s) : s.split(''));

// ---------------------------------------------------------------------------
// Previews to runtime values.

/** A named tuple's preview: its items are its fields, in order (and it has a len). */
export const isNamedTuple = (p) => Array.isArray(p.fields) && typeof p.len === 'number';

/**
 * Convert a trace Value preview into a runtime value.
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

/** The value a name's lookup gave: a preview, or a number, boolean or null standing for itself. */
export const fromLookup = (v) => (v !== null && typeof v === 'object' ? fromPreview(v) : v);

export const isCutStr = (x) => x instanceof Box && x.p.t === 'str' && typeof x.p.v === 'string';
export const isBigIntBox = (x) => x instanceof Box && x.p.t === 'int';

export function typeName(x) {
  if (x === null) return 'NoneType';
  if (typeof x === 'boolean') return 'bool';
  if (typeof x === 'number') return Number.isSafeInteger(x) ? 'int' : 'float';
  if (typeof x === 'bigint') return 'int';
  if (x instanceof PyFloat) return 'float';
  if (typeof x === 'string') return 'str';
  if (x instanceof Box) return x.p.t;
  if (x instanceof Seq || x instanceof PyIter) return x.t;
  if (x instanceof PyDict) return 'dict';
  if (x instanceof PyRange) return 'range';
  if (x instanceof PyType) return 'type';
  if (x instanceof PyFunc) return x.builtin ? 'builtin_function_or_method' : 'function';
  if (x instanceof PyGen) return 'generator';
  if (x instanceof PySlice) return 'slice';
  return typeof x;
}

export function truthy(x) {
  if (x === null) return false;
  if (typeof x === 'boolean') return x;
  if (typeof x === 'number') return x !== 0; // NaN is truthy in Python too
  if (typeof x === 'bigint') return x !== 0n;
  if (x instanceof PyFloat) return x.x !== 0;
  if (typeof x === 'string') return x.length > 0;
  if (x instanceof Seq) return x.len > 0;
  if (x instanceof PyDict) return x.entries.length > 0;
  if (x instanceof PyRange) return x.length > 0n;
  if (x instanceof Box && typeof x.p.len === 'number') return x.p.len > 0;
  return true; // an object without len: truthy unless it defines __bool__, which we cannot know
}

// ---------------------------------------------------------------------------
// Containers, whatever made them: one view of their contents.

const ITEM_KINDS = { list: 'list', tuple: 'tuple', set: 'set', frozenset: 'frozenset', deque: 'deque' };
const DICT_TYPES = new Set(['dict', 'OrderedDict', 'defaultdict', 'Counter']);

/**
 * @typedef {object} Contents
 * @property {string} t  the type name
 * @property {string} kind  list, tuple, set, frozenset, deque, dict, keys (dict_keys/items), values,
 *   range, or other (a subclass of a builtin container the preview does not name)
 * @property {any[]|null} items  the shown items (null: none shown, a cycle or a cap stub)
 * @property {any[][]|null} entries  a dict's shown [key, value] pairs
 * @property {number} len
 * @property {boolean} whole  every item is shown
 */

/** @param {any} x @returns {Contents|null} */
export function contents(x) {
  if (x instanceof Seq) {
    return { t: x.t, kind: x.kind, items: x.items, entries: null, len: x.len, whole: x.items.length === x.len };
  }
  if (x instanceof PyDict) return { t: 'dict', kind: 'dict', items: null, entries: x.entries, len: x.entries.length, whole: true };
  if (x instanceof PyRange) {
    if (x.length > BigInt(MAX_STEPS)) tick(MAX_STEPS + 1);
    const n = Number(x.length);
    tick(n);
    const items = [];
    for (let i = 0; i < n; i++) items.push(x.at(BigInt(i)));
    return { t: 'range', kind: 'range', items, entries: null, len: n, whole: true };
  }
  if (!(x instanceof Box) || x.p.err !== undefined) return null;
  const p = x.p;
  const more = p.more > 0 || p.cycle === true;
  if (Array.isArray(p.entries) || DICT_TYPES.has(p.t)) {
    const entries = Array.isArray(p.entries) && !p.cycle ? p.entries.map(([k, v]) => [fromPreview(k), fromPreview(v)]) : null;
    const len = typeof p.len === 'number' ? p.len : entries?.length ?? 0;
    return { t: p.t, kind: 'dict', items: null, entries, len, whole: entries !== null && !more && entries.length === len };
  }
  if (isNamedTuple(p)) {
    const items = p.fields.map((f) => fromPreview(f[1]));
    return { t: p.t, kind: 'tuple', items, entries: null, len: p.len, whole: !more && items.length === p.len };
  }
  const kind = ITEM_KINDS[p.t] ?? (Array.isArray(p.items) ? 'other' : null);
  if (kind === null) return null;
  const items = Array.isArray(p.items) && !p.cycle ? p.items.map(fromPreview) : null;
  const len = typeof p.len === 'number' ? p.len : items?.length ?? 0;
  return { t: p.t, kind, items, entries: null, len, whole: items !== null && !more && items.length === len };
}

/** The error for what a cut container leaves out. @param {Contents} c */
export const notAll = (c) => new EvaluationError(`not all of '${c.t}' is in the preview`);
const orderUnknown = (t) => new EvaluationError(
  `cannot tell: the order a '${t}' iterates in is not in the preview (its items are shown sorted); try sorted(...)`);
const identityUnknown = () => new EvaluationError('cannot tell whether it is the same NaN object (identity is not in the preview)');
const methodsUnknown = (t, what) => new EvaluationError(`cannot tell ${what.replace('%', `a '${t}' object`)}: its type's methods are not in the preview`);
const basesUnknown = (t) => new EvaluationError(`cannot tell what a '${t}' object is: its type's bases are not in the preview`);

/**
 * The items of an iterable, in CPython's order (mode 'ordered') or in any order (mode 'any': the
 * caller's answer does not depend on it). Throws a TypeError for what is not iterable, and says so
 * when the preview lacks items or their order.
 * @param {any} x @param {'ordered'|'any'} [mode]
 * @returns {any[]}
 */
export function iterate(x, mode = 'ordered') {
  if (typeof x === 'string') {
    tick(x.length);
    return codePoints(x);
  }
  if (isCutStr(x)) throw new EvaluationError('string value was truncated in the trace');
  if (x instanceof PyGen) return [...x.iter(mode)];
  if (x instanceof PyIter) {
    const items = x.items;
    x.items = [];            // an iterator is used up
    return items;
  }
  const c = contents(x);
  if (c === null) {
    if (x instanceof Box && !Array.isArray(x.p.fields)) throw new EvaluationError(`contents of '${x.p.t}' are not in the preview`);
    throw new EvaluationError(`TypeError: '${typeName(x)}' object is not iterable`);
  }
  if (c.kind === 'other') throw basesUnknown(c.t);
  if (!c.whole) throw notAll(c);
  const items = c.kind === 'dict' ? c.entries.map((e) => e[0]) : c.items;
  if (mode === 'ordered' && (c.kind === 'set' || c.kind === 'frozenset') && items.length > 1) throw orderUnknown(c.t);
  tick(items.length);
  return items;
}

/** Is this an unordered collection whose CPython order is unknown (a set of two or more)? */
export function unordered(x) {
  const c = x instanceof Seq || x instanceof Box ? contents(x) : null;
  return c !== null && (c.kind === 'set' || c.kind === 'frozenset') && c.len > 1;
}

// ---------------------------------------------------------------------------
// Equality.

/** Python ==; throws when the preview cannot decide. */
export function pyEq(a, b) {
  if (typeof a === typeof b && (typeof a === 'number' || typeof a === 'string')) return a === b; // the common cases first
  // One builtin container compared with itself: CPython's item-wise identity makes it equal (even with a NaN in it).
  const na = objectNumber(a);
  if (na !== null && na === objectNumber(b) && SELF_EQUAL.has(a.p.t)) return true;
  // A bigint and a number compare exactly with == (2**53 + 1 != 2.0**53, as in Python).
  if (isNum(a) && isNum(b)) return exact(a) == exact(b); // == (not ===): a bigint and a number compare by value
  if (isCutStr(a) || isCutStr(b)) {
    const box = isCutStr(a) ? a : b;
    const other = box === a ? b : a;
    if (typeof other !== 'string' && !isCutStr(other)) return false; // a str never equals anything but a str
    // Truncated string: a mismatch within the kept prefixes, or another length, is a sure "no".
    const kept = box.p.v, len = box.p.len;
    const otherKept = typeof other === 'string' ? other : other.p.v;
    const otherLen = typeof other === 'string' ? pyLen(other) : other.p.len;
    const n = Math.min(kept.length, otherKept.length);
    if (kept.slice(0, n) !== otherKept.slice(0, n) || (typeof len === 'number' && len !== otherLen)) return false;
    throw new EvaluationError('string value was truncated in the trace');
  }
  if (isBigIntBox(a) || isBigIntBox(b)) {
    const other = isBigIntBox(a) ? b : a;
    if (isNum(other) || isBigIntBox(other)) throw new EvaluationError('integer too large to compare exactly');
    return false;
  }
  const ca = contents(a), cb = contents(b);
  if (ca && cb) return containerEq(ca, cb);
  if (ca || cb) return false; // a container never equals a scalar
  if (a instanceof PyType && b instanceof PyType) return a.name === b.name;
  if (a instanceof Box && b instanceof Box) throw methodsUnknown(a.p.t, 'how % compares');
  if (a instanceof PyRange || b instanceof PyRange) return false;
  return a === b; // None, bools, functions, generators: by identity
}

/**
 * Is `m` (a member or key) `item` by CPython's `in`, list == and dict lookup, which try identity before ==?
 * NaN is the one value where that differs, and a preview does not record identity: undefined.
 */
export function sameMember(m, item) {
  if (typeof m === 'number' && typeof item === 'number' && m !== m && item !== item) return undefined;
  return pyEq(m, item);
}

/** sameMember, with an EvaluationError as undefined too (and kept in `why`). */
function sameOrUnknown(m, item, why) {
  try {
    const same = sameMember(m, item);
    if (same === undefined) why.error ??= identityUnknown();
    return same;
  } catch (e) {
    if (!(e instanceof EvaluationError)) throw e;
    why.error ??= e;
    return undefined;
  }
}

const EQ_GROUP = { list: 'list', tuple: 'tuple', deque: 'deque', range: 'range', set: 'set', frozenset: 'set', keys: 'set', dict: 'dict', values: 'values', other: 'other' };

/** == of two containers, CPython's way: lengths first, then items in order until one differs. */
function containerEq(ca, cb) {
  const ga = EQ_GROUP[ca.kind], gb = EQ_GROUP[cb.kind];
  if (ga === 'other' || gb === 'other') throw basesUnknown(ga === 'other' ? ca.t : cb.t);
  if (ga !== gb || ga === 'values') return false;   // dict.values() equals no other object
  if (ga === 'dict' && (ca.t === 'Counter' || cb.t === 'Counter')) throw methodsUnknown('Counter', 'how % compares');
  if (ca.len !== cb.len) return false;
  const why = { error: null };
  if (ga === 'set') {
    if (!ca.whole || !cb.whole) throw notAll(ca.whole ? cb : ca);
    for (const item of ca.items) {
      if (cb.t !== 'dict_items') needHashable(item); // looked up by hash in a set or dict_keys
      if (!memberOf(cb.items, item, why)) {
        if (why.error === null) return false;
      }
    }
    if (why.error) throw why.error;
    return true;
  }
  if (ga === 'dict') {
    if (!ca.whole || !cb.whole) throw notAll(ca.whole ? cb : ca);
    for (const [key, value] of ca.entries) {
      tick();
      const found = { error: null };
      const at = cb.entries.findIndex(([k]) => sameOrUnknown(k, key, found) === true);
      if (at < 0) {
        if (found.error === null) return false;
        why.error ??= found.error;
      } else if (sameOrUnknown(value, cb.entries[at][1], why) === false) {
        return false;
      }
    }
    if (why.error) throw why.error;
    if (ca.t === 'OrderedDict' && cb.t === 'OrderedDict') {
      for (let i = 0; i < ca.entries.length; i++) if (!sameMember(ca.entries[i][0], cb.entries[i][0])) return false;
    }
    return true;
  }
  // Sequences: a sure difference anywhere in the shown items decides.
  const n = Math.min(ca.items?.length ?? 0, cb.items?.length ?? 0);
  for (let i = 0; i < n; i++) {
    tick();
    if (sameOrUnknown(ca.items[i], cb.items[i], why) === false) return false;
  }
  if (!ca.whole || !cb.whole) throw why.error ?? notAll(ca.whole ? cb : ca);
  if (why.error) throw why.error;
  return true;
}

/** Is `item` among `members` (linear, identity-or-==)? Undecidable members are noted in `why`. */
function memberOf(members, item, why) {
  for (const m of members) {
    tick();
    if (sameOrUnknown(m, item, why) === true) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Order.

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

/** Throw what the preview lacks, when an operand is a truncated string or an int too big to print. */
export function opaque(...xs) {
  for (const x of xs) {
    if (isCutStr(x)) throw new EvaluationError('string value was truncated in the trace');
    if (isBigIntBox(x)) throw new EvaluationError('integer too large: its digits are not in the preview');
  }
}

const byOp = (op, c) => (op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0);

/** Python's a OP b for OP one of < <= > >=. */
export function pyCompare(op, a, b) {
  if (typeof a === 'number' && typeof b === 'number') { // the common case first
    return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
  }
  if (isNum(a) && isNum(b)) {
    const x = exact(a), y = exact(b); // exact across bigint and number; NaN is unordered
    return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
  }
  if ((typeof a === 'string' || isCutStr(a)) && (typeof b === 'string' || isCutStr(b))) {
    const c = typeof a === 'string' && typeof b === 'string'
      ? (a === b ? 0 : strOrder(a, true, b, true))
      : strOrder(typeof a === 'string' ? a : a.p.v, typeof a === 'string', typeof b === 'string' ? b : b.p.v, typeof b === 'string');
    if (c === undefined) throw new EvaluationError('string value was truncated in the trace');
    return byOp(op, c);
  }
  const ca = contents(a), cb = contents(b);
  if (ca && cb) {
    const ga = EQ_GROUP[ca.kind], gb = EQ_GROUP[cb.kind];
    if (ga === 'other' || gb === 'other') throw basesUnknown(ga === 'other' ? ca.t : cb.t);
    if (ga === gb && (ga === 'list' || ga === 'tuple' || ga === 'deque')) return sequenceOrder(op, ca, cb);
    if (ga === 'set' && gb === 'set') {
      if (op === '<') return ca.len < cb.len && subset(ca, cb);
      if (op === '<=') return ca.len <= cb.len && subset(ca, cb);
      if (op === '>') return ca.len > cb.len && subset(cb, ca);
      return ca.len >= cb.len && subset(cb, ca);
    }
  } else if (a instanceof Box && b instanceof Box && !ca && !cb && !isBigIntBox(a) && !isBigIntBox(b) && !isCutStr(a) && !isCutStr(b)) {
    throw methodsUnknown(a.p.t, 'how % orders');
  }
  if (isNum(a) || isNum(b)) opaque(a, b);
  throw new EvaluationError(`TypeError: '${op}' not supported between '${typeName(a)}' and '${typeName(b)}'`);
}

/** Lexicographic order of two sequences: the first items that differ decide, else the lengths. */
function sequenceOrder(op, ca, cb) {
  const n = Math.min(ca.items?.length ?? 0, cb.items?.length ?? 0);
  for (let i = 0; i < n; i++) {
    tick();
    const same = sameMember(ca.items[i], cb.items[i]);
    if (same === undefined) throw identityUnknown();
    if (!same) return truthy(pyCompare(op, ca.items[i], cb.items[i]));
  }
  if (n < Math.min(ca.len, cb.len)) throw notAll((ca.items?.length ?? 0) === n ? ca : cb);
  return byOp(op, ca.len - cb.len);
}

/** Is every item of x in y? (Set order: <=.) */
function subset(cx, cy) {
  if (!cx.whole) throw notAll(cx);
  const why = { error: null };
  for (const item of cx.items) {
    if (cy.t !== 'dict_items') needHashable(item); // looked up by hash in a set or dict_keys
    if (memberOf(cy.items ?? [], item, why)) continue;
    if (cy.whole && why.error === null) return false;
    why.error ??= notAll(cy);
  }
  if (why.error) throw why.error;
  return true;
}

/** `is`: None, True and False are single objects, and so is a type. */
/** The program object's number in the trace, or null (a value without one, or made by the expression). */
export const objectNumber = (x) => (x instanceof Box && typeof x.p.id === 'number' ? x.p.id : null);
/** Types whose `x == x` CPython answers True whatever they hold (no __eq__ of the program's runs). */
const SELF_EQUAL = new Set(['list', 'dict', 'set', 'frozenset', 'tuple', 'deque']);

export function pyIs(a, b) {
  const special = (x) => x === null || typeof x === 'boolean';
  if (special(a) || special(b)) return a === b;
  // The recorder numbers the program's containers and objects (docs/trace-format.md "Object numbers"):
  // one number, one object. Such an object is never a number, a text or a value the expression made.
  const na = objectNumber(a), nb = objectNumber(b);
  if (na !== null && nb !== null) return na === nb;
  if ((na !== null && !(b instanceof Box)) || (nb !== null && !(a instanceof Box))) return false;
  if (a instanceof PyType && b instanceof PyType) return a.name === b.name;
  if (a instanceof PyType || b instanceof PyType) return false;
  if (a instanceof PyFunc && b instanceof PyFunc) return a === b;
  throw new EvaluationError("'is' is only supported with None, True, False or a type (identity is not in the preview)");
}

// ---------------------------------------------------------------------------
// Hashing and membership.

const UNHASHABLE = new Set(['list', 'dict', 'set', 'bytearray', 'deque', 'OrderedDict', 'defaultdict', 'Counter']);
const HASHABLE = new Set(['int', 'str', 'float', 'bool', 'NoneType', 'bytes', 'frozenset', 'complex', 'range', 'type']);

/**
 * Can the value be a dict key or set member? true, false, or the EvaluationError to throw when the
 * preview does not show: a tuple cut short, or an object (a dataclass has no __hash__, a plain
 * instance does, and the preview does not say which).
 */
export function hashable(x) {
  if (x instanceof Seq) {
    if (x.kind !== 'tuple') return x.kind === 'frozenset' || x.kind === 'values'; // dict_values hashes by identity
    let unknown = null;
    for (const item of x.items) {
      const h = hashable(item);
      if (h === false) return false;
      if (h !== true) unknown ??= h;
    }
    return unknown ?? true;
  }
  if (x instanceof PyDict || x instanceof PySlice) return false;
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

/** Throw CPython's TypeError for an unhashable key, or what the preview lacks to tell. */
export function needHashable(x) {
  const h = hashable(x);
  if (h === false) throw new EvaluationError(`TypeError: unhashable type: '${typeName(x)}'`);
  if (h !== true) throw h;
}

export function pyIn(item, container) {
  if (typeof container === 'string' || isCutStr(container)) {
    if (typeof item !== 'string' && !isCutStr(item)) {
      throw new EvaluationError(`TypeError: 'in <string>' requires string as left operand, not ${typeName(item)}`);
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
  if (container instanceof PyRange && isInt(item)) {
    const n = bigOf(item), { start, stop, step } = container;
    if (step > 0n ? n < start || n >= stop : n > start || n <= stop) return false;
    return (n - start) % step === 0n;
  }
  if (container instanceof PyGen || container instanceof PyIter) {
    const why = { error: null };
    const members = container instanceof PyGen ? container.iter('ordered') : iterate(container);
    for (const m of members) if (sameOrUnknown(m, item, why) === true) return true;
    if (why.error) throw why.error;
    return false;
  }
  const c = contents(container);
  if (c === null) {
    if (container instanceof Box) throw new EvaluationError(`contents of '${container.p.t}' are not in the preview`);
    throw new EvaluationError(`TypeError: argument of type '${typeName(container)}' is not iterable`);
  }
  const members = c.kind === 'dict' ? c.entries?.map((e) => e[0]) ?? [] : c.items ?? [];
  if (c.kind === 'dict' || c.kind === 'set' || c.kind === 'frozenset' || c.t === 'dict_keys') {
    // (A set is looked for in a set as the frozenset of its items, as CPython's set.__contains__ does.)
    const isSet = contents(item)?.kind === 'set';
    if (!(isSet && (c.kind === 'set' || c.kind === 'frozenset'))) needHashable(item);
  }
  const why = { error: null };
  if (memberOf(members, item, why)) return true;
  if (why.error) throw why.error;
  if (!c.whole) throw notAll(c);
  return false;
}

// ---------------------------------------------------------------------------
// len, subscripts, slices, attributes.

export function pyLenOf(x) {
  if (typeof x === 'string') return pyLen(x);
  if (x instanceof Seq) return x.len;
  if (x instanceof PyDict) return x.entries.length;
  if (x instanceof PyRange) return toIntValue(x.length);
  if (x instanceof Box && typeof x.p.len === 'number') return x.p.len;
  throw new EvaluationError(`TypeError: object of type '${typeName(x)}' has no len()`);
}

export function normIndex(k, len) {
  if (!isInt(k)) {
    if (isBigIntBox(k)) throw new EvaluationError('IndexError: cannot fit \'int\' into an index-sized integer');
    throw new EvaluationError(`TypeError: indices must be integers, not ${typeName(k)}`);
  }
  let i = Number(exact(k)); // a bigint index is out of any range anyway
  if (i < 0) i += len;
  if (i < 0 || i >= len) throw new EvaluationError('IndexError: index out of range');
  return i;
}

/** Python's slice.indices(len) and the slice's length. @returns {[number, number, number, number]} */
function sliceIndices(s, len) {
  const part = (v, name) => {
    if (v === null) return null;
    if (isInt(v)) {
      const n = exact(v);
      return typeof n === 'bigint' ? (n < 0n ? -(2 ** 62) : 2 ** 62) : n;
    }
    opaque(v);
    throw new EvaluationError(`TypeError: slice ${name} must be integers or None or have an __index__ method`);
  };
  const step = part(s.step, 'indices') ?? 1;
  if (step === 0) throw new EvaluationError('ValueError: slice step cannot be zero');
  const clamp = (v, dflt) => {
    if (v === null) return dflt;
    if (v < 0) { v += len; if (v < 0) v = step < 0 ? -1 : 0; } else if (v >= len) v = step < 0 ? len - 1 : len;
    return v;
  };
  const start = clamp(part(s.start, 'indices'), step < 0 ? len - 1 : 0);
  const stop = clamp(part(s.stop, 'indices'), step < 0 ? -1 : len);
  const n = step < 0 ? (stop < start ? Math.floor((start - stop - 1) / -step) + 1 : 0)
    : (start < stop ? Math.floor((stop - start - 1) / step) + 1 : 0);
  return [start, stop, step, n];
}

/** x[a:b:c] on a str, list, tuple or range. */
function pySlice(x, s) {
  if (x instanceof PyRange) {
    const [start, , step, n] = sliceIndices(s, Number(x.length));
    const first = x.start + BigInt(start) * x.step, by = x.step * BigInt(step);
    return new PyRange(first, first + BigInt(n) * by, by);
  }
  if (typeof x === 'string' || isCutStr(x)) {
    const items = codePoints(typeof x === 'string' ? x : x.p.v);
    const len = typeof x === 'string' ? items.length : x.p.len;
    const [start, , step, n] = sliceIndices(s, len);
    tick(n);
    let out = '';
    for (let i = 0, k = start; i < n; i++, k += step) {
      if (k >= items.length) throw new EvaluationError('string value was truncated in the trace');
      out += items[k];
    }
    return out;
  }
  const c = contents(x);
  if (c === null || c.kind === 'set' || c.kind === 'frozenset' || c.kind === 'keys' || c.kind === 'values') {
    if (x instanceof Box && c === null && !Array.isArray(x.p.fields)) {
      throw new EvaluationError(`'${x.p.t}' object is not subscriptable in the preview`);
    }
    throw new EvaluationError(`TypeError: '${typeName(x)}' object is not subscriptable`);
  }
  if (c.kind === 'dict') throw new EvaluationError("TypeError: unhashable type: 'slice'");
  if (c.kind === 'deque') throw new EvaluationError("TypeError: sequence index must be integer, not 'slice'");
  if (c.kind === 'other') throw basesUnknown(c.t);
  const kind = c.kind, items = c.items ?? [];
  const [start, , step, n] = sliceIndices(s, c.len);
  tick(n);
  const out = [];
  for (let i = 0, k = start; i < n; i++, k += step) {
    if (k >= items.length) throw notAll(c);
    out.push(items[k]);
  }
  return new Seq(kind === 'tuple' ? 'tuple' : 'list', out);
}

export function pySubscript(x, k) {
  if (k instanceof PySlice) return pySlice(x, k);
  if (typeof x === 'string') {
    const chars = codePoints(x);
    return chars[normIndex(k, chars.length)];
  }
  if (x instanceof PyRange) {
    if (x.length > MAX_SAFE) throw new EvaluationError('OverflowError: range too long for the debugger');
    return x.at(BigInt(normIndex(k, Number(x.length))));
  }
  if (isCutStr(x)) {
    const idx = normIndex(k, x.p.len);
    const chars = codePoints(x.p.v);
    if (idx < chars.length) return chars[idx];
    throw new EvaluationError('string value was truncated in the trace');
  }
  const c = contents(x);
  if (c === null) {
    if (x instanceof Box && !Array.isArray(x.p.fields) && !isBigIntBox(x)) {
      throw new EvaluationError(`'${x.p.t}' object is not subscriptable in the preview`);
    }
    throw new EvaluationError(`TypeError: '${typeName(x)}' object is not subscriptable`);
  }
  if (c.kind === 'dict') return dictGet(c, k, true);
  if (c.kind === 'set' || c.kind === 'frozenset' || c.kind === 'keys' || c.kind === 'values') {
    throw new EvaluationError(`TypeError: '${c.t}' object is not subscriptable`);
  }
  const idx = normIndex(k, c.len);
  if (c.items !== null && idx < c.items.length) return c.items[idx];
  throw new EvaluationError(`item ${idx} is not in the preview (${c.t} was capped)`);
}

/** d[k] (missing: KeyError), or d.get(k) (missing: undefined). */
export function dictGet(c, k, raise) {
  const h = hashable(k);
  if (h === false) throw new EvaluationError(`TypeError: unhashable type: '${typeName(k)}'`);
  if (c.entries === null) throw new EvaluationError('dict entries are not in the preview');
  const why = { error: h === true ? null : h };
  for (const [key, val] of c.entries) {
    tick();
    if (sameOrUnknown(key, k, why) === true) return val;
  }
  if (why.error) throw why.error; // it may be one of the keys we could not compare
  if (!c.whole) throw new EvaluationError('key not in the preview (dict was capped)');
  if (!raise) return undefined;
  if (c.t === 'Counter') return 0;
  if (c.t === 'defaultdict') throw new EvaluationError("a defaultdict would make the missing key (and change the program's value)");
  throw new EvaluationError(`KeyError: ${pythonRepr(k)}`);
}

/** x.name: a field the recorder stored for an object (never a method, a property or a computed value). */
export function pyAttribute(x, name) {
  if (x instanceof PyType && name === '__name__') return x.name;
  if (!(x instanceof Box) || !Array.isArray(x.p.fields)) {
    throw new EvaluationError(`'${typeName(x)}' object has no recorded attribute '${name}'`);
  }
  const p = x.p;
  for (const [field, value] of p.fields) if (field === name) return fromPreview(value);
  if (p.more > 0) throw new EvaluationError(`attribute '${name}' is not in the preview (fields were capped)`);
  // Methods, class attributes and properties are not recorded: the field list does not prove it missing.
  throw new EvaluationError(`cannot tell '${name}' of a '${p.t}' object: only its recorded fields are in the trace`);
}

// ---------------------------------------------------------------------------
// Arithmetic.

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

/** The count of a repetition (str * int, list * int): never more than the budget allows. */
function repeatCount(n, unit) {
  const count = Number(exact(n));
  if (count > 2 ** 63 - 1) throw new EvaluationError("OverflowError: cannot fit 'int' into an index-sized integer");
  if (count <= 0 || unit === 0) return 0;
  if (unit * count > 2 ** 26) throw new EvaluationError('MemoryError: the repeated value would be too large');
  return count;
}

/** str * int, as Python repeats (never building a huge text: that would be a MemoryError there). */
function repeat(s, n) {
  const count = repeatCount(n, s.length);
  return count ? s.repeat(count) : '';
}

const concatKind = (c) => (c && (c.kind === 'list' || c.kind === 'tuple') ? c.kind : null);

/** Python's a OP b for OP one of + - * / // %. */
export function arith(op, a, b) {
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
  const ca = a instanceof Box || a instanceof Seq ? contents(a) : null;
  const cb = b instanceof Box || b instanceof Seq ? contents(b) : null;
  if (op === '+' && concatKind(ca) && concatKind(ca) === concatKind(cb)) {
    if (!ca.whole || !cb.whole) throw notAll(ca.whole ? cb : ca);
    tick(ca.len + cb.len);
    return new Seq(ca.kind, [...ca.items, ...cb.items]);
  }
  if (op === '*' && ((concatKind(ca) && isInt(b)) || (concatKind(cb) && isInt(a)))) {
    const c = concatKind(ca) ? ca : cb, n = concatKind(ca) ? b : a;
    if (!c.whole) throw notAll(c);
    const count = repeatCount(n, c.len);
    tick(count * c.len);
    const out = [];
    for (let i = 0; i < count; i++) out.push(...c.items);
    return new Seq(c.kind, out);
  }
  if (op === '-' && ca && cb && (ca.kind === 'set' || ca.kind === 'frozenset') && (cb.kind === 'set' || cb.kind === 'frozenset')) {
    return new Seq(ca.kind, setDifference(ca, cb));
  }
  if (op === '-' && (ca?.kind === 'keys' || (b instanceof Seq && b.kind === 'keys'))) {
    // A dict view minus any iterable (or any iterable minus a view): the set of the one less the other's items.
    const left = contents(makeSet(iterate(a, 'any'))), right = contents(makeSet(iterate(b, 'any')));
    return new Seq('set', setDifference(left, right));
  }
  if (op === '+' && concatKind(ca) && concatKind(cb)) {
    throw new EvaluationError(`TypeError: can only concatenate ${ca.kind} (not "${typeName(b)}") to ${ca.kind}`);
  }
  if (op === '%' && (typeof a === 'string' || isCutStr(a))) throw new EvaluationError('str % formatting is not supported here');
  throw new EvaluationError(`TypeError: unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

/** The items of set x not in set y. */
export function setDifference(cx, cy) {
  if (!cx.whole || !cy.whole) throw notAll(cx.whole ? cy : cx);
  const why = { error: null };
  const out = cx.items.filter((item) => !memberOf(cy.items, item, why));
  if (why.error) throw why.error;
  return out;
}

/** Python's -x, +x. */
export function unary(op, x) {
  if (!isNum(x)) {
    opaque(x);
    throw new EvaluationError(`TypeError: bad operand type for unary ${op}: '${typeName(x)}'`);
  }
  if (op === '+') return typeof x === 'boolean' ? exact(x) : x;
  if (typeof x === 'number') return Number.isSafeInteger(x) ? 0 - x : -x; // 0 - x: no -0 among ints
  if (x instanceof PyFloat) return toFloatValue(-x.x);
  return toIntValue(-BigInt(exact(x))); // a bigint or a bool
}

// ---------------------------------------------------------------------------
// Building sets and dicts: members distinct by hash and ==.

/** A key that equal hashable scalars share (1, 1.0 and True; a text), or null: compare by ==. */
function quickKey(x) {
  if (typeof x === 'string') return `s${x}`;
  if (isNum(x)) {
    const v = exact(x);
    if (typeof v === 'bigint') return `n${v}`;
    if (Number.isInteger(v)) return `n${BigInt(v)}`;
    return v === v ? `f${v}` : null;
  }
  if (x === null) return 'None';
  return null;
}

/**
 * Positions of the distinct items, as a set or dict keeps them (the first of equal items stays).
 * @param {any[]} items @returns {number[]}
 */
export function distinct(items) {
  const seen = new Map();
  /** @type {number[]} */
  const kept = [];
  /** @type {number[]} */
  const slow = []; // positions in `kept` of items with no quick key
  items.forEach((item, i) => {
    tick();
    needHashable(item);
    const key = quickKey(item);
    let at = key === null ? undefined : seen.get(key);
    if (at === undefined) {
      for (const n of key === null ? kept.keys() : slow) {
        tick();
        const same = sameMember(items[kept[n]], item);
        if (same === undefined) throw identityUnknown();
        if (same) { at = n; break; }
      }
    }
    if (at !== undefined) return;
    if (key !== null) seen.set(key, kept.length);
    else slow.push(kept.length);
    kept.push(i);
  });
  return kept;
}

/** A set (or frozenset) of the items. @param {any[]} items @param {string} [t] */
export function makeSet(items, t = 'set') {
  return new Seq(t, distinct(items).map((i) => items[i]));
}

/** A dict of [key, value] pairs, a later value for an equal key replacing the earlier (the first key stays). */
export function makeDict(pairs) {
  const keys = pairs.map((e) => e[0]);
  const firsts = distinct(keys);
  const byKey = new Map(firsts.map((i, n) => [i, n]));
  const entries = firsts.map((i) => [keys[i], pairs[i][1]]);
  // Each later pair with an equal key replaces the value.
  pairs.forEach(([key, value], i) => {
    if (byKey.has(i)) return;
    const n = entries.findIndex(([k]) => sameMember(k, key) === true);
    entries[n][1] = value;
  });
  return new PyDict(entries);
}

// ---------------------------------------------------------------------------
// repr, str, and the way back to a preview.

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** CPython's repr of a str. @param {string} s */
export function strRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c < 0x7f || ch === ' ' || !NOT_PRINTABLE.test(ch)) out += ch;
    else if (c <= 0xff) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c <= 0xffff) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += '\\U' + c.toString(16).padStart(8, '0');
  }
  return out + quote;
}

/** CPython's repr of a float: the shortest text that reads back, in its format. @param {number} x */
export function floatRepr(x) {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(expText), point = exp + 1;
  let s;
  if (point > 16 || point <= -4) {
    s = digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') + 'e' + (exp < 0 ? '-' : '+') + String(Math.abs(exp)).padStart(2, '0');
  } else if (point <= 0) {
    s = '0.' + '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    s = digits + '0'.repeat(point - digits.length) + '.0';
  } else {
    s = digits.slice(0, point) + '.' + digits.slice(point);
  }
  return (x < 0 ? '-' : '') + s;
}

const BUILTIN_TYPE_NAMES = new Set(['int', 'float', 'bool', 'str', 'NoneType', 'list', 'tuple', 'dict', 'set',
  'frozenset', 'range', 'type', 'bytes', 'bytearray', 'complex', 'function', 'builtin_function_or_method', 'generator',
  'dict_keys', 'dict_values', 'dict_items', 'enumerate', 'zip', 'reversed', 'list_reverseiterator', 'slice', 'object']);

/** str(int): CPython (3.11+) refuses more than 4300 digits. @param {bigint|number} n */
function intText(n) {
  const text = String(n);
  if (text.length - (text[0] === '-' ? 1 : 0) > 4300) {
    throw new EvaluationError('ValueError: Exceeds the limit (4300 digits) for integer string conversion');
  }
  return text;
}

/** Items of a set in the order the recorder shows them: by value when all are numbers or all texts, else by repr. */
function displayOrder(items, texts) {
  const order = items.map((_, i) => i);
  const allNum = items.every((x) => isNum(x) && !(typeof x === 'number' && x !== x));
  const allStr = items.every((x) => typeof x === 'string');
  if (items.length && (allNum || allStr)) {
    return order.sort((i, j) => (pyCompare('<', items[i], items[j]) ? -1 : pyCompare('<', items[j], items[i]) ? 1 : i - j));
  }
  return order.sort((i, j) => (texts[i] < texts[j] ? -1 : texts[i] > texts[j] ? 1 : i - j));
}

/**
 * CPython's repr of a value. Strict: only what CPython would print (else an EvaluationError: a cut
 * value, a set's order, an object's own __repr__); not strict: the preview's own short text stands in.
 * @param {any} x @param {boolean} strict
 */
function reprOf(x, strict) {
  tick();
  if (x === null) return 'None';
  if (typeof x === 'boolean') return x ? 'True' : 'False';
  if (typeof x === 'number') return Number.isSafeInteger(x) ? String(x) : floatRepr(x);
  if (typeof x === 'bigint') return intText(x);
  if (x instanceof PyFloat) return floatRepr(x.x);
  if (typeof x === 'string') return strRepr(x);
  if (x instanceof PyType) {
    if (strict && !TYPES.get(x.name)?.construct && !BUILTIN_TYPE_NAMES.has(x.name)) {
      throw new EvaluationError(`cannot tell the repr of the class '${x.name}': its module is not in the preview`);
    }
    return `<class '${x.name}'>`;
  }
  if (x instanceof PyRange) return `range(${x.start}, ${x.stop}${x.step === 1n ? '' : `, ${x.step}`})`;
  if (x instanceof PySlice) return `slice(${reprOf(x.start, strict)}, ${reprOf(x.stop, strict)}, ${reprOf(x.step, strict)})`;
  if (x instanceof PyFunc && x.builtin) return `<built-in function ${x.name}>`;
  if (x instanceof PyFunc || x instanceof PyGen || x instanceof PyIter) {
    const text = x instanceof PyFunc ? '<function <lambda>>' : x instanceof PyGen ? '<generator object <genexpr>>' : `<${x.t} object>`;
    if (strict) throw new EvaluationError(`cannot tell the repr of a '${typeName(x)}': it shows an address`);
    return text;
  }
  const c = contents(x);
  const own = () => {
    if (strict) {
      opaque(x);
      throw methodsUnknown(x.p.t, 'the repr of %');
    }
    // A cut text says so: its kept head and an ellipsis where the quote would close.
    if (isCutStr(x)) return `${strRepr(x.p.v).slice(0, -1)}…`;
    return x.p.r ?? `<${x.p.t}>`;
  };
  if (c === null) return own();
  if (!c.whole) {
    if (strict) throw notAll(c);
    if (x instanceof Box) return x.p.r;
  }
  const items = c.kind === 'dict' ? c.entries ?? [] : c.items ?? [];
  const part = (item) => (c.kind === 'dict' ? `${reprOf(item[0], strict)}: ${reprOf(item[1], strict)}` : reprOf(item, strict));
  let texts = items.map(part);
  if (c.kind === 'set' || c.kind === 'frozenset') {
    if (strict && items.length > 1) throw orderUnknown(c.t);
    texts = displayOrder(items, texts).map((i) => texts[i]);
  }
  let inner = texts.join(', ');
  if (!c.whole) inner += texts.length ? ', …' : '…';
  switch (x instanceof Box && c.kind !== 'range' && c.t !== c.kind && !(c.kind === 'dict' && c.t === 'dict') ? 'own' : c.kind) {
    case 'list': return `[${inner}]`;
    case 'tuple': return `(${inner}${c.len === 1 ? ',' : ''})`;
    case 'set': return texts.length ? `{${inner}}` : 'set()';
    case 'frozenset': return texts.length ? `frozenset({${inner}})` : 'frozenset()';
    case 'dict': return `{${inner}}`;
    case 'keys': case 'values': return `${c.t}([${inner}])`;
    default: return own();
  }
}

/**
 * CPython's repr text of a runtime value, as a one-line summary. `strict`: throw an EvaluationError
 * rather than show anything but CPython's text (a cut value's preview text, a set in display order).
 * @param {any} x @param {{strict?: boolean}} [options]
 * @returns {string}
 */
export function pythonRepr(x, { strict = false } = {}) {
  return reprOf(x, strict);
}

/** str(x): a text as itself, anything else its repr (a class's own __str__ is not in the preview). */
export function pyStr(x) {
  if (typeof x === 'string') return x;
  if (x instanceof Box && Array.isArray(x.p.fields) && !isNamedTuple(x.p)) throw methodsUnknown(x.p.t, 'the str() of %');
  return reprOf(x, true);
}

// toPreview: the recorder's caps (py/steptrace/previews.py).
const REPR_CAP = 120, STR_CAP = 200, NESTED_STR_CAP = 60, ITEMS_CAP = 16, DEPTH_CAP = 5, NODES_CAP = 400;
const BIG_INT = 10n ** 60n;

/** cut(text): at most REPR_CAP code points, the last one '…'. */
function cut(text, cap = REPR_CAP) {
  const cps = codePoints(text);
  return cps.length <= cap ? text : cps.slice(0, cap - 1).join('') + '…';
}
function capShape(text, closing) {
  const cps = codePoints(text);
  return cps.length <= REPR_CAP ? text : cps.slice(0, REPR_CAP - 1 - closing.length).join('') + '…' + closing;
}
const SHAPES = { list: ['[', ']'], tuple: ['(', ')'], set: ['{', '}'], frozenset: ['frozenset({', '})'], dict: ['{', '}'] };
function shaped(t, inner) {
  const shape = SHAPES[t];
  if (!shape) return inner ? cut(`${t}([${inner}])`) : `${t}()`;
  if (!inner && (t === 'set' || t === 'frozenset')) return `${t}()`;
  return capShape(shape[0] + inner + shape[1], shape[1]);
}

/**
 * A runtime value as a trace Value preview (docs/trace-format.md "Value"), the shape the recorder
 * writes, so values-view.js can draw it: a recorded value is its own preview; a value the
 * evaluator made is previewed within the recorder's caps (16 items, 5 levels, 400 nodes, texts cut).
 * @param {any} x
 * @returns {object}
 */
/** An item's text in its container's: a text the recorder cut ends open, with an ellipsis (its own `r` does not say). */
function shownRepr(p) {
  return p.t === 'str' && typeof p.v === 'string' && typeof p.len === 'number' && pyLen(p.v) < p.len
    ? `${strRepr(p.v).slice(0, -1)}…` : p.r;
}

export function toPreview(x) {
  return previewOf(x, 0, { nodes: 0 });
}

function previewOf(x, depth, state) {
  state.nodes++;
  if (x instanceof Box) return x.p;
  if (x === null) return { t: 'NoneType', r: 'None' };
  if (typeof x === 'boolean') return { t: 'bool', r: x ? 'True' : 'False' };
  if (typeof x === 'bigint') {
    const abs = x < 0n ? -x : x;
    return { t: 'int', r: abs >= BIG_INT ? `<int with ${bitLength(abs)} bits>` : String(x) };
  }
  if (typeof x === 'number') return Number.isSafeInteger(x) ? { t: 'int', r: String(x) } : { t: 'float', r: floatRepr(x) };
  if (x instanceof PyFloat) return { t: 'float', r: floatRepr(x.x) };
  if (typeof x === 'string') {
    const cps = codePoints(x);
    const cap = depth ? NESTED_STR_CAP : STR_CAP;
    const head = cps.length <= cap ? x : cps.slice(0, cap).join('');
    const short = cps.length <= REPR_CAP ? head : cps.slice(0, Math.min(cap, REPR_CAP)).join('');
    return { t: 'str', r: cut(strRepr(short)), v: head, len: cps.length };
  }
  if (x instanceof PyType) return { t: 'type', r: `<class '${x.name}'>` };
  if (x instanceof PyFunc) return x.builtin ? { t: 'builtin_function_or_method', r: `<built-in ${x.name}>` } : { t: 'function', r: '<function <lambda>>' };
  if (x instanceof PyRange || x instanceof PySlice) return { t: typeName(x), r: reprOf(x, false) };
  if (x instanceof PyGen) return { t: 'generator', r: '<generator object <genexpr>>' };
  if (x instanceof PyIter) return { t: x.t, r: `<${x.t} object>` };
  const isDict = x instanceof PyDict;
  const t = typeName(x);
  const len = isDict ? x.entries.length : x.len;
  if (depth >= DEPTH_CAP || state.nodes >= NODES_CAP) return { t, r: shaped(t, len ? '…' : ''), len };
  const kept = (isDict ? x.entries : x.items).slice(0, ITEMS_CAP);
  if (isDict) {
    const entries = kept.map(([k, v]) => [previewOf(k, depth + 1, state), previewOf(v, depth + 1, state)]);
    const more = len - entries.length;
    let inner = entries.map(([k, v]) => `${shownRepr(k)}: ${shownRepr(v)}`).join(', ');
    if (more) inner += entries.length ? ', …' : '…';
    return { t: 'dict', r: capShape(`{${inner}}`, '}'), len, entries, more };
  }
  let items = kept.map((item) => previewOf(item, depth + 1, state));
  if (x.kind === 'set' || x.kind === 'frozenset') {
    items = displayOrder(kept, items.map((p) => p.r)).map((i) => items[i]);
  }
  const more = len - items.length;
  let inner = items.map(shownRepr).join(', ');
  if (x.t === 'tuple' && len === 1) inner += ',';
  if (more) inner += items.length ? ', …' : '…';
  return { t, r: shaped(t, inner), len, items, more };
}
