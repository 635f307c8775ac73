// Builtin functions and the non-mutating methods of str, list, tuple, dict and set, for the
// expression language of conditions.js, with CPython's semantics (3.11, as the oracle test runs:
// tests/test_conditions_oracle.py) over the runtime values of python-values.js.
//
// Nothing here changes a value: the methods that would (append, pop, sort, update, ...) are refused
// when the expression is parsed (MUTATING, used by conditions.js). A function of the program is
// never called; neither is a method of one of its objects.

import {
  Box, EvaluationError, PyDict, PyFloat, PyFunc, PyGen, PyIter, PyRange, PyType, Seq, arith, asFloat, bigOf,
  codePoints, contents, dictGet, exact, needHashable, isBigIntBox, isCutStr, isFloat, isInt, isNum, iterate, makeDict, makeSet,
  notAll, opaque, pyCompare, pyEq, pyLenOf, pyStr, pythonRepr, sameMember, setDifference, strRepr, tick, toFloatValue,
  toIntValue, truthy, typeName, typeObject, unordered,
} from './python-values.js';

/** Methods that change their object: an expression may not call them. */
export const MUTATING = new Set(['append', 'extend', 'insert', 'remove', 'pop', 'clear', 'sort', 'reverse', 'update',
  'setdefault', 'popitem', 'add', 'discard', 'difference_update', 'intersection_update',
  'symmetric_difference_update', 'appendleft', 'extendleft', 'popleft', 'rotate', '__setitem__', '__delitem__',
  '__iadd__']);

/** @type {Map<string, any>} */
const NO_KW = new Map();

const typeError = (message) => new EvaluationError(`TypeError: ${message}`);
const valueError = (message) => new EvaluationError(`ValueError: ${message}`);
const orderUnknown = (what) => new EvaluationError(
  `cannot tell: the order a set iterates in is not in the preview, and ${what} depends on it`);

/** Call a function or type with positional and keyword arguments. */
export function callValue(f, args, kw = NO_KW) {
  if (f instanceof PyFunc) return f.call(args, kw);
  if (f instanceof PyType) {
    if (f.construct) return f.construct(args, kw);
    throw new EvaluationError(`cannot make a '${f.name}' object in an expression`);
  }
  if (f instanceof Box) throw new EvaluationError(`cannot call a '${f.p.t}' object: the debugger never runs the program's code`);
  throw typeError(`'${typeName(f)}' object is not callable`);
}

/** Check the argument count and keywords of a builtin. */
function check(name, args, kw, min, max, keywords = []) {
  for (const key of kw.keys()) {
    if (!keywords.includes(key)) {
      throw typeError(keywords.length ? `${name}() got an unexpected keyword argument '${key}'` : `${name}() takes no keyword arguments`);
    }
  }
  if (args.length < min || args.length > max) {
    const expected = min === max ? `exactly ${min === 1 ? 'one argument' : `${min} arguments`}`
      : args.length < min ? `at least ${min} argument${min === 1 ? '' : 's'}` : `at most ${max} argument${max === 1 ? '' : 's'}`;
    throw typeError(`${name}() takes ${expected} (${args.length} given)`);
  }
}

/** An index-sized int argument (bool too), or null for None when allowed. */
function intArg(x, allowNone = false) {
  if (x === null && allowNone) return null;
  if (isInt(x)) return Number(exact(x));
  opaque(x);
  throw typeError(`'${typeName(x)}' object cannot be interpreted as an integer`);
}

function strArg(x, what) {
  if (typeof x === 'string') return x;
  if (isCutStr(x)) throw new EvaluationError('string value was truncated in the trace');
  throw typeError(`${what} must be str, not ${typeName(x)}`);
}

/**
 * The items of an iterable for a consumer whose answer does not depend on their order unless the
 * comparisons do (sorted, min, max, sum, set): and whether CPython's order was unknown.
 */
function anyOrder(x) {
  if (x instanceof PyGen) {
    const items = iterate(x, 'any');
    return { items, unorderedSource: x.sawUnordered };
  }
  return { items: iterate(x, 'any'), unorderedSource: unordered(x) };
}

/** Do these keys have a total order (all numbers without a NaN, or all texts)? Then any stable sort
 * gives CPython's result, equal items keeping their order in both. */
function totalOrder(keys) {
  return keys.every((k) => isNum(k) && exact(k) === exact(k)) || keys.every((k) => typeof k === 'string');
}

/** Do these keys order the same in every arrangement (a set's items, whose order is unknown): a total
 * order with no two equal? */
function surelyOrdered(keys) {
  if (!totalOrder(keys)) return false;
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      tick();
      if (pyEq(keys[i], keys[j])) return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// Numbers and text conversions.

/** str.isspace of one character: CPython's whitespace (bidirectional WS, B, S or category Zs). */
const SPACE = /[\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
const isSpace = (ch) => {
  const c = ch.codePointAt(0);
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c === 0x85 || c === 0xa0 || SPACE.test(ch);
};
const isAscii = (s) => { for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false; return true; };

function stripSpace(s) {
  const cps = codePoints(s);
  let i = 0, j = cps.length;
  while (i < j && isSpace(cps[i])) i++;
  while (j > i && isSpace(cps[j - 1])) j--;
  return cps.slice(i, j).join('');
}

function intFromText(s) {
  const text = stripSpace(s);
  const m = /^([+-]?)([0-9](?:_?[0-9])*)$/.exec(text);
  if (!m) {
    if (/\p{Nd}/u.test(text) && !isAscii(text)) throw new EvaluationError('int() of non-ASCII digits is not supported');
    throw valueError(`invalid literal for int() with base 10: ${strRepr(s)}`);
  }
  const digits = m[2].replaceAll('_', '');
  if (digits.length > 4300) throw valueError('Exceeds the limit (4300 digits) for integer string conversion');
  const n = BigInt(digits);
  return toIntValue(m[1] === '-' ? -n : n);
}

function floatFromText(s) {
  const text = stripSpace(s);
  const m = /^([+-]?)(?:(inf|infinity|nan)|((?:[0-9](?:_?[0-9])*)?(?:\.(?:[0-9](?:_?[0-9])*)?)?)((?:[eE][+-]?[0-9](?:_?[0-9])*)?))$/i.exec(text);
  if (!m || (m[3] !== undefined && !/[0-9]/.test(m[3]))) throw valueError(`could not convert string to float: ${strRepr(s)}`);
  const sign = m[1] === '-' ? -1 : 1;
  if (m[2]) return sign * (m[2].toLowerCase() === 'nan' ? NaN : Infinity);
  return toFloatValue(sign * Number((m[3] + m[4]).replaceAll('_', '')));
}

function toInt(args, kw) {
  check('int', args, kw, 0, 1);
  if (!args.length) return 0;
  const x = args[0];
  if (isInt(x)) return typeof x === 'boolean' ? exact(x) : x;
  if (isFloat(x)) {
    const f = exact(x);
    if (Number.isNaN(f)) throw valueError('cannot convert float NaN to integer');
    if (!Number.isFinite(f)) throw new EvaluationError('OverflowError: cannot convert float infinity to integer');
    return toIntValue(BigInt(Math.trunc(f)));
  }
  if (typeof x === 'string') return intFromText(x);
  opaque(x);
  throw typeError(`int() argument must be a string, a bytes-like object or a real number, not '${typeName(x)}'`);
}

function toFloat(args, kw) {
  check('float', args, kw, 0, 1);
  if (!args.length) return new PyFloat(0);
  const x = args[0];
  if (isNum(x)) return toFloatValue(asFloat(x));
  if (typeof x === 'string') return floatFromText(x);
  opaque(x);
  throw typeError(`float() argument must be a string or a real number, not '${typeName(x)}'`);
}

function pyAbs(args, kw) {
  check('abs', args, kw, 1, 1);
  const x = args[0];
  if (typeof x === 'number') return Number.isSafeInteger(x) ? Math.abs(x) + 0 : Math.abs(x);
  if (x instanceof PyFloat) return new PyFloat(Math.abs(x.x));
  if (isInt(x)) return toIntValue((v => (v < 0n ? -v : v))(bigOf(x)));
  opaque(x);
  throw typeError(`bad operand type for abs(): '${typeName(x)}'`);
}

/** The exact binary value of a finite positive double: [mantissa, exponent]. @param {number} x @returns {[bigint, number]} */
function decompose(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0), lo = view.getUint32(4);
  const e = (hi >>> 20) & 0x7ff;
  const mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return e === 0 ? [mantissa, -1074] : [mantissa | (1n << 52n), e - 1075];
}

/** num / den rounded half to even (both positive). @param {bigint} num @param {bigint} den @returns {bigint} */
function roundHalfEven(num, den) {
  const q = num / den, r = num % den;
  return 2n * r < den ? q : 2n * r > den ? q + 1n : q % 2n === 0n ? q : q + 1n;
}

function pyRound(args, kw) {
  check('round', args, kw, 1, 2, ['ndigits']);
  const x = args[0];
  const nd = args.length > 1 ? args[1] : kw.has('ndigits') ? kw.get('ndigits') : null;
  if (!isNum(x)) {
    opaque(x);
    throw typeError(`type ${typeName(x)} doesn't define __round__ method`);
  }
  if (nd === null) {
    if (isInt(x)) return typeof x === 'boolean' ? exact(x) : x;
    const f = exact(x);
    if (Number.isNaN(f)) throw valueError('cannot convert float NaN to integer');
    if (!Number.isFinite(f)) throw new EvaluationError('OverflowError: cannot convert float infinity to integer');
    const fl = Math.floor(f), d = f - fl;
    const r = d < 0.5 ? fl : d > 0.5 ? fl + 1 : fl % 2 === 0 ? fl : fl + 1;
    return toIntValue(BigInt(r));
  }
  if (!isInt(nd)) {
    opaque(nd);
    throw typeError(`'${typeName(nd)}' object cannot be interpreted as an integer`);
  }
  const n = Number(exact(nd));
  if (isInt(x)) {
    const v = bigOf(x);
    if (n >= 0) return toIntValue(v);
    if (n < -5000) return 0;
    const p = 10n ** BigInt(-n);
    const q = roundHalfEven(v < 0n ? -v : v, p) * p;
    return toIntValue(v < 0n ? -q : q);
  }
  const f = exact(x);
  if (!Number.isFinite(f) || f === 0) return toFloatValue(f);
  if (n > 323) return toFloatValue(f);
  if (n < -308) return toFloatValue(0 * f);
  const [m, e] = decompose(Math.abs(f));
  let num = n >= 0 ? m * 10n ** BigInt(n) : m, den = n >= 0 ? 1n : 10n ** BigInt(-n);
  if (e >= 0) num <<= BigInt(e); else den <<= BigInt(-e);
  const q = roundHalfEven(num, den);
  const y = Number(n >= 0 ? `${q}e-${n}` : `${q}e${-n}`);
  if (!Number.isFinite(y)) throw new EvaluationError('OverflowError: rounded value too large to represent');
  return toFloatValue(f < 0 ? -y : y);
}

// ---------------------------------------------------------------------------
// Iterables.

function minMax(name, args, kw) {
  check(name, args, kw, 1, Infinity, ['key', 'default']);
  let items, unorderedSource = false;
  if (args.length === 1) ({ items, unorderedSource } = anyOrder(args[0]));
  else {
    if (kw.has('default')) throw typeError(`Cannot specify a default for ${name}() with multiple positional arguments`);
    items = args;
  }
  if (!items.length) {
    if (kw.has('default')) return kw.get('default');
    throw valueError(`${name}() arg is an empty sequence`);
  }
  const key = kw.get('key') ?? null;
  const keys = key === null ? items : items.map((x) => callValue(key, [x]));
  if (unorderedSource && items.length > 1 && !surelyOrdered(keys)) throw orderUnknown(`${name}()`);
  let best = 0;
  for (let i = 1; i < items.length; i++) {
    tick();
    if (truthy(pyCompare(name === 'min' ? '<' : '>', keys[i], keys[best]))) best = i;
  }
  return items[best];
}

/**
 * CPython's list.sort: reversed first when `reverse` (stability), then for fewer than 64 items its
 * count_run and binary insertion exactly (so even NaN's inconsistent order sorts as CPython's does),
 * else a stable merge sort (the same result whenever the order is consistent).
 */
function listSort(items, keys, reverse) {
  const n = items.length;
  let idx = [...Array(n).keys()];
  if (reverse) idx.reverse();
  const lt = (i, j) => { tick(); return truthy(pyCompare('<', keys[i], keys[j])); };
  if (n < 64) {
    if (n >= 2) {
      let run = 2;
      if (lt(idx[1], idx[0])) {
        while (run < n && lt(idx[run], idx[run - 1])) run++;
        idx = [...idx.slice(0, run).reverse(), ...idx.slice(run)];
      } else {
        while (run < n && !lt(idx[run], idx[run - 1])) run++;
      }
      for (let start = run; start < n; start++) {
        const pivot = idx[start];
        let l = 0, r = start;
        while (l < r) {
          const p = l + ((r - l) >> 1);
          if (lt(pivot, idx[p])) r = p; else l = p + 1;
        }
        idx.splice(start, 1);
        idx.splice(l, 0, pivot);
      }
    }
  } else {
    if (!totalOrder(keys) && !keys.every((k) => contents(k) !== null || typeof k === 'string')) {
      throw new EvaluationError('cannot tell how 64 or more items without a consistent order would sort');
    }
    idx.sort((i, j) => (lt(i, j) ? -1 : lt(j, i) ? 1 : 0));
  }
  if (reverse) idx.reverse();
  return idx.map((i) => items[i]);
}

function pySorted(args, kw) {
  if (args.length !== 1) throw typeError(`sorted expected 1 argument, got ${args.length}`);
  check('sorted', args, kw, 1, 1, ['key', 'reverse']);
  const { items, unorderedSource } = anyOrder(args[0]);
  const key = kw.get('key') ?? null;
  const keys = key === null ? items : items.map((x) => callValue(key, [x]));
  if (unorderedSource && items.length > 1 && !surelyOrdered(keys)) throw orderUnknown('sorted()');
  return new Seq('list', listSort(items, keys, truthy(kw.get('reverse') ?? false)));
}

function pySum(args, kw) {
  check('sum', args, kw, 1, 2, ['start']);
  const start = args.length > 1 ? args[1] : kw.has('start') ? kw.get('start') : 0;
  if (typeof start === 'string' || isCutStr(start)) throw typeError("sum() can't sum strings [use ''.join(seq) instead]");
  if (start instanceof Box && (start.p.t === 'bytes' || start.p.t === 'bytearray')) {
    throw typeError(`sum() can't sum ${start.p.t} [use b''.join(seq) instead]`);
  }
  const { items, unorderedSource } = anyOrder(args[0]);
  // Float additions round, so their order counts (CPython 3.11 adds left to right, as here).
  if (unorderedSource && items.length > 1 && items.every(isNum) && (items.some(isFloat) || isFloat(start))) {
    throw orderUnknown('a sum of floats');
  }
  let total = start;
  for (const x of items) {
    tick();
    total = arith('+', total, x);
  }
  return total;
}

/** any() (want true) or all() (want false): lazy, as CPython stops at the first deciding item. */
function anyAll(name, want, args, kw) {
  check(name, args, kw, 1, 1);
  const x = args[0];
  if (x instanceof PyGen) {
    // Lazy: CPython stops at the first deciding item, so a later item that would fail never runs.
    // Over a set of two or more, every item is looked at: which one CPython meets first is unknown.
    let decided = false;
    try {
      for (const v of x.iter('any')) {
        if (truthy(v) === want) {
          decided = true;
          if (!x.sawUnordered) return want;
        }
      }
    } catch (e) {
      if (x.sawUnordered && e instanceof EvaluationError) throw orderUnknown(`${name}() (an item fails)`);
      throw e;
    }
    return decided ? want : !want;
  }
  for (const v of iterate(x, 'any')) if (truthy(v) === want) return want;
  return !want;
}

function pyRange(args, kw) {
  check('range', args, kw, 1, 3);
  const ints = args.map((a) => {
    if (isInt(a)) return bigOf(a);
    opaque(a);
    throw typeError(`'${typeName(a)}' object cannot be interpreted as an integer`);
  });
  const [start, stop, step] = ints.length === 1 ? [0n, ints[0], 1n] : [ints[0], ints[1], ints[2] ?? 1n];
  if (step === 0n) throw valueError('range() arg 3 must not be zero');
  return new PyRange(start, stop, step);
}

function pyEnumerate(args, kw) {
  check('enumerate', args, kw, 1, 2, ['start']);
  const start = args.length > 1 ? args[1] : kw.get('start') ?? 0;
  if (!isInt(start)) throw typeError(`'${typeName(start)}' object cannot be interpreted as an integer`);
  const first = bigOf(start);
  return new PyIter('enumerate', iterate(args[0]).map((x, i) => new Seq('tuple', [toIntValue(first + BigInt(i)), x])));
}

function pyZip(args, kw) {
  check('zip', args, kw, 0, Infinity);
  if (!args.length) return new PyIter('zip', []);
  const lists = args.map((a) => iterate(a));
  const n = Math.min(...lists.map((l) => l.length));
  tick(n);
  return new PyIter('zip', Array.from({ length: n }, (_, i) => new Seq('tuple', lists.map((l) => l[i]))));
}

function pyReversed(args, kw) {
  check('reversed', args, kw, 1, 1);
  const x = args[0];
  const c = contents(x);
  if (typeof x === 'string' || isCutStr(x) || (c && ['list', 'tuple', 'range', 'deque'].includes(c.kind)) || x instanceof PyRange) {
    const t = c?.kind === 'list' ? 'list_reverseiterator' : x instanceof PyRange ? 'range_iterator' : 'reversed';
    return new PyIter(t, iterate(x).slice().reverse());
  }
  if (c?.kind === 'dict') return new PyIter('dict_reversekeyiterator', iterate(x).slice().reverse());
  throw typeError(`'${typeName(x)}' object is not reversible`);
}

function pyIsinstance(args, kw) {
  check('isinstance', args, kw, 2, 2);
  const [x, spec] = args;
  const c = contents(spec);
  const types = spec instanceof PyType ? [spec] : c?.kind === 'tuple' ? (c.whole ? c.items : null) : undefined;
  if (types === undefined) throw typeError('isinstance() arg 2 must be a type, a tuple of types, or a union');
  if (types === null) throw notAll(c);
  let unknown = null;
  for (const t of types) {
    if (!(t instanceof PyType)) throw typeError('isinstance() arg 2 must be a type, a tuple of types, or a union');
    const r = instanceOf(x, t.name);
    if (r === true) return true;
    if (r !== false) unknown ??= r;
  }
  if (unknown) throw unknown;
  return false;
}

/** Names the engine knows to be builtin types, neither subclassed nor a program's class. */
const KNOWN_TYPES = new Set(['int', 'float', 'bool', 'str', 'NoneType', 'list', 'tuple', 'dict', 'set', 'frozenset',
  'range', 'type', 'bytes', 'bytearray', 'complex', 'function', 'builtin_function_or_method', 'generator', 'module',
  'method', 'deque', 'slice', 'dict_keys', 'dict_values', 'dict_items', 'enumerate', 'zip']);
const DATA_BASES = new Set(['int', 'float', 'str', 'bytes', 'list', 'tuple', 'dict', 'set', 'frozenset', 'deque']);

/** isinstance(x, the type named `name`): true, false, or the EvaluationError saying what is unknown. */
function instanceOf(x, name) {
  if (name === 'object') return true;
  const own = typeName(x);
  if (own === name || (own === 'bool' && name === 'int')) return true;
  if (!(x instanceof Box) || KNOWN_TYPES.has(own)) return false;
  const p = x.p;
  if (Array.isArray(p.entries)) return name === 'dict';             // a dict subclass (Counter, OrderedDict, ...)
  if (Array.isArray(p.fields) && typeof p.len === 'number') return name === 'tuple'; // a named tuple
  if (Array.isArray(p.fields)) return false;                          // an instance: not a builtin data type
  if (!DATA_BASES.has(name) && KNOWN_TYPES.has(name)) return false;
  return new EvaluationError(`cannot tell whether a '${p.t}' object is a '${name}': its type's bases are not in the preview`);
}

function pyType(args, kw) {
  if (args.length !== 1 || kw.size) throw typeError('type() takes 1 or 3 arguments');
  return typeObject(typeName(args[0]));
}

function pyLen(args, kw) {
  check('len', args, kw, 1, 1);
  return pyLenOf(args[0]);
}

function pyRepr(args, kw) {
  check('repr', args, kw, 1, 1);
  return pythonRepr(args[0], { strict: true });
}

function pyStrCall(args, kw) {
  check('str', args, kw, 0, 1);
  return args.length ? pyStr(args[0]) : '';
}

function pyBool(args, kw) {
  check('bool', args, kw, 0, 1);
  return args.length ? truthy(args[0]) : false;
}

function makeList(t) {
  return (args, kw) => {
    check(t, args, kw, 0, 1);
    return new Seq(t, args.length ? iterate(args[0]).slice() : []);
  };
}

function makeSetType(t) {
  return (args, kw) => {
    check(t, args, kw, 0, 1);
    return makeSet(args.length ? iterate(args[0], 'any') : [], t);
  };
}

function pyDict(args, kw) {
  check('dict', args, kw, 0, 1, [...kw.keys()]);
  let pairs = [];
  if (args.length) {
    const c = contents(args[0]);
    if (c?.kind === 'dict') {
      if (!c.whole) throw notAll(c);
      pairs = c.entries.map((e) => e.slice());
    } else {
      pairs = iterate(args[0]).map((item, i) => {
        const pair = iterate(item);
        if (pair.length !== 2) throw valueError(`dictionary update sequence element #${i} has length ${pair.length}; 2 is required`);
        return pair;
      });
    }
  }
  for (const [key, value] of kw) pairs.push([key, value]);
  return makeDict(pairs);
}

/** A builtin function value. */
const fn = (name, call) => new PyFunc(name, call);

/** @type {Map<string, any>} the builtin names an expression can use */
export const BUILTINS = new Map();
for (const [name, call] of /** @type {[string, (args: any[], kw: Map<string, any>) => any][]} */ ([
  ['len', pyLen], ['abs', pyAbs], ['round', pyRound], ['sum', pySum], ['sorted', pySorted],
  ['min', (a, k) => minMax('min', a, k)], ['max', (a, k) => minMax('max', a, k)],
  ['any', (a, k) => anyAll('any', true, a, k)], ['all', (a, k) => anyAll('all', false, a, k)],
  ['isinstance', pyIsinstance], ['repr', pyRepr],
])) BUILTINS.set(name, fn(name, call));
for (const [name, construct] of /** @type {[string, ((args: any[], kw: Map<string, any>) => any)|null][]} */ ([
  ['int', toInt], ['float', toFloat], ['str', pyStrCall], ['bool', pyBool], ['list', makeList('list')],
  ['tuple', makeList('tuple')], ['set', makeSetType('set')], ['frozenset', makeSetType('frozenset')], ['dict', pyDict],
  ['range', pyRange], ['enumerate', pyEnumerate], ['zip', pyZip], ['reversed', pyReversed], ['type', pyType],
  ['object', null],
])) {
  const t = typeObject(name);
  t.construct = construct;
  BUILTINS.set(name, t);
}

// ---------------------------------------------------------------------------
// Methods.

/** CPython's ADJUST_INDICES for str.find and friends. */
function adjust(start, end, len) {
  let s = start ?? 0, e = end ?? len;
  if (e > len) e = len;
  else if (e < 0) { e += len; if (e < 0) e = 0; }
  if (s < 0) { s += len; if (s < 0) s = 0; }
  return [s, e];
}

const matchAt = (cps, sub, i) => {
  for (let k = 0; k < sub.length; k++) if (cps[i + k] !== sub[k]) return false;
  return true;
};

function findIn(s, args, name, reverse) {
  const sub = codePoints(strArg(args[0], `${name}() argument 1`)), cps = codePoints(s);
  const [st, en] = adjust(intArg(args[1] ?? null, true), intArg(args[2] ?? null, true), cps.length);
  if (en - st < sub.length) return -1;
  tick(en - st);
  if (reverse) {
    for (let i = en - sub.length; i >= st; i--) if (matchAt(cps, sub, i)) return i;
  } else {
    for (let i = st; i <= en - sub.length; i++) if (matchAt(cps, sub, i)) return i;
  }
  return -1;
}

/** s.startswith / s.endswith, CPython's tailmatch. */
function tailMatch(s, args, name, end) {
  const prefixes = typeof args[0] === 'string' ? [args[0]] : contents(args[0])?.kind === 'tuple' ? iterate(args[0]) : null;
  if (prefixes === null || !prefixes.every((p) => typeof p === 'string')) {
    if (prefixes !== null || isCutStr(args[0])) opaque(...(prefixes ?? [args[0]]));
    throw typeError(`${name} first arg must be str or a tuple of str, not ${typeName(args[0])}`);
  }
  const cps = codePoints(s);
  const [st, en0] = adjust(intArg(args[1] ?? null, true), intArg(args[2] ?? null, true), cps.length);
  return prefixes.some((p) => {
    const sub = codePoints(p);
    const en = en0 - sub.length;
    if (en < st) return false;
    if (!sub.length) return true;
    return matchAt(cps, sub, end ? en : st);
  });
}

function split(s, args, kw) {
  const sep = args.length ? args[0] : kw.has('sep') ? kw.get('sep') : null;
  const maxsplit = intArg(args.length > 1 ? args[1] : kw.has('maxsplit') ? kw.get('maxsplit') : -1);
  let count = maxsplit < 0 ? Infinity : maxsplit;
  const cps = codePoints(s), out = [];
  tick(cps.length);
  if (sep === null) {
    let i = 0;
    while (count-- > 0) {
      while (i < cps.length && isSpace(cps[i])) i++;
      if (i === cps.length) break;
      const j = i++;
      while (i < cps.length && !isSpace(cps[i])) i++;
      out.push(cps.slice(j, i).join(''));
    }
    if (i < cps.length) {
      while (i < cps.length && isSpace(cps[i])) i++;
      if (i !== cps.length) out.push(cps.slice(i).join(''));
    }
  } else {
    if (typeof sep !== 'string') {
      opaque(sep);
      throw typeError(`must be str or None, not ${typeName(sep)}`);
    }
    const sub = codePoints(sep);
    if (!sub.length) throw valueError('empty separator');
    let j = 0;
    for (let i = 0; i + sub.length <= cps.length && count > 0;) {
      if (matchAt(cps, sub, i)) {
        out.push(cps.slice(j, i).join(''));
        i += sub.length;
        j = i;
        count--;
      } else {
        i++;
      }
    }
    out.push(cps.slice(j).join(''));
  }
  return new Seq('list', out);
}

function strip(s, args, name) {
  const chars = args.length && args[0] !== null ? new Set(codePoints(strArg(args[0], `${name} arg`))) : null;
  const strippable = (ch) => (chars ? chars.has(ch) : isSpace(ch));
  const cps = codePoints(s);
  let i = 0, j = cps.length;
  if (name !== 'rstrip') while (i < j && strippable(cps[i])) i++;
  if (name !== 'lstrip') while (j > i && strippable(cps[j - 1])) j--;
  return cps.slice(i, j).join('');
}

function replace(s, args) {
  const old = strArg(args[0], 'replace() argument 1'), by = strArg(args[1], 'replace() argument 2');
  let count = args.length > 2 ? intArg(args[2]) : -1;
  if (count < 0) count = Infinity;
  const cps = codePoints(s), sub = codePoints(old);
  tick(cps.length);
  let out = '';
  if (!sub.length) {
    let n = 0;
    for (const ch of cps) {
      if (n++ < count) out += by;
      out += ch;
    }
    if (n < count) out += by;
    if (out.length > 2 ** 26) throw new EvaluationError('MemoryError: the string would be too large');
    return out;
  }
  let j = 0;
  for (let i = 0; i + sub.length <= cps.length && count > 0;) {
    if (matchAt(cps, sub, i)) {
      out += cps.slice(j, i).join('') + by;
      i += sub.length;
      j = i;
      count--;
    } else {
      i++;
    }
  }
  return out + cps.slice(j).join('');
}

const DIGIT = /[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u1369-\u1371\u19da]/u;
const NUMERIC = /[\p{N}〇一二三四五六七八九十百千万億兆零壹贰貳叁參肆伍陆陸柒捌玖拾佰仟萬亿]/u;
const every = (s, test) => s.length > 0 && codePoints(s).every(test);
const is = (re) => (ch) => re.test(ch);
const UPPER = /\p{Uppercase}/u, LOWER = /\p{Lowercase}/u, TITLE = /\p{Lt}/u, CASED = /\p{Cased}/u;

function caseTest(s, upper) {
  let cased = false;
  for (const ch of s) {
    if (TITLE.test(ch) || (upper ? LOWER : UPPER).test(ch)) return false;
    if ((upper ? UPPER : LOWER).test(ch)) cased = true;
  }
  return cased;
}

function isTitle(s) {
  let cased = false, previous = false;
  for (const ch of s) {
    if (UPPER.test(ch) || TITLE.test(ch)) {
      if (previous) return false;
      previous = cased = true;
    } else if (LOWER.test(ch)) {
      if (!previous) return false;
      previous = cased = true;
    } else {
      previous = false;
    }
  }
  return cased;
}

function title(s) {
  let out = '', previous = false;
  for (const ch of s) {
    out += previous ? ch.toLowerCase() : ch.toUpperCase();
    previous = CASED.test(ch);
  }
  return out;
}

/** The str methods: [min args, max args, keywords, implementation]. */
const STR_METHODS = {
  startswith: [1, 3, [], (s, a) => tailMatch(s, a, 'startswith', false)],
  endswith: [1, 3, [], (s, a) => tailMatch(s, a, 'endswith', true)],
  lower: [0, 0, [], (s) => s.toLowerCase()],
  upper: [0, 0, [], (s) => s.toUpperCase()],
  casefold: [0, 0, [], (s) => {
    // Unicode's full case folding (ß -> ss, ...) is not JavaScript's lower case: only ASCII is sure.
    if (!isAscii(s)) throw new EvaluationError('casefold() of a non-ASCII text is not supported here');
    return s.toLowerCase();
  }],
  swapcase: [0, 0, [], (s) => codePoints(s).map((ch) => (UPPER.test(ch) ? ch.toLowerCase() : LOWER.test(ch) ? ch.toUpperCase() : ch)).join('')],
  title: [0, 0, [], title],
  capitalize: [0, 0, [], (s) => { const cps = codePoints(s); return cps.length ? cps[0].toUpperCase() + cps.slice(1).join('').toLowerCase() : ''; }],
  strip: [0, 1, [], (s, a) => strip(s, a, 'strip')],
  lstrip: [0, 1, [], (s, a) => strip(s, a, 'lstrip')],
  rstrip: [0, 1, [], (s, a) => strip(s, a, 'rstrip')],
  split: [0, 2, ['sep', 'maxsplit'], split],
  join: [1, 1, [], (s, a) => {
    const items = iterate(a[0]);
    items.forEach((x, i) => {
      if (typeof x !== 'string') {
        opaque(x);
        throw typeError(`sequence item ${i}: expected str instance, ${typeName(x)} found`);
      }
    });
    tick(items.length);
    const out = items.join(s);
    if (out.length > 2 ** 26) throw new EvaluationError('MemoryError: the string would be too large');
    return out;
  }],
  find: [1, 3, [], (s, a) => findIn(s, a, 'find', false)],
  rfind: [1, 3, [], (s, a) => findIn(s, a, 'rfind', true)],
  index: [1, 3, [], (s, a) => {
    const i = findIn(s, a, 'index', false);
    if (i < 0) throw valueError('substring not found');
    return i;
  }],
  rindex: [1, 3, [], (s, a) => {
    const i = findIn(s, a, 'rindex', true);
    if (i < 0) throw valueError('substring not found');
    return i;
  }],
  count: [1, 3, [], (s, a) => {
    const sub = codePoints(strArg(a[0], 'count() argument 1')), cps = codePoints(s);
    const [st, en] = adjust(intArg(a[1] ?? null, true), intArg(a[2] ?? null, true), cps.length);
    if (en - st < sub.length) return 0;
    if (!sub.length) return en - st + 1;
    tick(en - st);
    let n = 0;
    for (let i = st; i <= en - sub.length;) {
      if (matchAt(cps, sub, i)) { n++; i += sub.length; } else i++;
    }
    return n;
  }],
  replace: [2, 3, [], replace],
  removeprefix: [1, 1, [], (s, a) => { const p = strArg(a[0], 'removeprefix() argument'); return s.startsWith(p) ? s.slice(p.length) : s; }],
  removesuffix: [1, 1, [], (s, a) => { const p = strArg(a[0], 'removesuffix() argument'); return p && s.endsWith(p) ? s.slice(0, s.length - p.length) : s; }],
  isdigit: [0, 0, [], (s) => every(s, is(DIGIT))],
  isdecimal: [0, 0, [], (s) => every(s, is(/\p{Nd}/u))],
  isnumeric: [0, 0, [], (s) => every(s, is(NUMERIC))],
  isalpha: [0, 0, [], (s) => every(s, is(/\p{L}/u))],
  isalnum: [0, 0, [], (s) => every(s, (ch) => /\p{L}/u.test(ch) || NUMERIC.test(ch) || DIGIT.test(ch))],
  isspace: [0, 0, [], (s) => every(s, isSpace)],
  isupper: [0, 0, [], (s) => caseTest(s, true)],
  islower: [0, 0, [], (s) => caseTest(s, false)],
  istitle: [0, 0, [], isTitle],
  isascii: [0, 0, [], isAscii],
};

function strMethod(s, name, args, kw) {
  const m = STR_METHODS[name];
  if (!m) throw unsupported('str', name);
  check(name, args, kw, m[0], m[1], m[2]);
  return m[3](s, args, kw);
}

/** A method of a truncated str: startswith while the kept text decides, else what is missing. */
function cutStrMethod(x, name, args, kw) {
  if (!STR_METHODS[name]) throw unsupported('str', name);
  if (name === 'startswith' && args.length === 1 && !kw.size) {
    const kept = codePoints(x.p.v);
    const prefixes = typeof args[0] === 'string' ? [args[0]] : null;
    if (prefixes && prefixes.every((p) => codePoints(p).length <= kept.length)) {
      return tailMatch(x.p.v, args, 'startswith', false);
    }
  }
  throw new EvaluationError('string value was truncated in the trace');
}

function seqIndex(c, args, kw) {
  check('index', args, kw, 1, 3);
  const [st, en] = adjust(intArg(args[1] ?? 0), intArg(args[2] ?? c.len), c.len);
  let unknown = null;
  for (let i = st; i < Math.min(en, c.items?.length ?? 0); i++) {
    tick();
    try {
      const same = sameMember(c.items[i], args[0]);
      if (same === undefined) throw new EvaluationError('cannot tell whether it is the same NaN object (identity is not in the preview)');
      if (same) {
        if (unknown) throw unknown;
        return i;
      }
    } catch (e) {
      if (!(e instanceof EvaluationError)) throw e;
      unknown ??= e;
    }
  }
  if (unknown) throw unknown;
  if (en > (c.items?.length ?? 0)) throw notAll(c);
  throw valueError(c.kind === 'tuple' ? 'tuple.index(x): x not in tuple' : `${pythonRepr(args[0])} is not in ${c.kind}`);
}

function seqCount(c, args, kw) {
  check('count', args, kw, 1, 1);
  if (!c.whole) throw notAll(c);
  let n = 0;
  for (const item of c.items) {
    tick();
    const same = sameMember(item, args[0]);
    if (same === undefined) throw new EvaluationError('cannot tell whether it is the same NaN object (identity is not in the preview)');
    if (same) n++;
  }
  return n;
}

/** The items of any iterable as a set's members (a set's own, or the distinct items). */
function asSet(x) {
  const c = contents(x);
  if (c && (c.kind === 'set' || c.kind === 'frozenset')) {
    if (!c.whole) throw notAll(c);
    return c;
  }
  return contents(makeSet(iterate(x, 'any')));
}

function setMethod(c, name, args, kw) {
  if (!c.whole) throw notAll(c);
  const result = (items) => makeSet(items, c.kind);
  switch (name) {
    case 'issubset': case 'issuperset': case 'isdisjoint': {
      check(name, args, kw, 1, 1);
      const oc = contents(args[0]);
      if (name !== 'issubset' && !(oc && (oc.kind === 'set' || oc.kind === 'frozenset'))) {
        // CPython looks each item of a non-set up in turn, and stops at the first that decides.
        for (const key of iterate(args[0])) {
          needHashable(key);
          const inside = setDifference({ ...c, items: [key], len: 1, whole: true }, c).length === 0;
          if (inside === (name === 'isdisjoint')) return false;
        }
        return true;
      }
      const other = asSet(args[0]);
      if (name === 'isdisjoint') return setDifference(c, other).length === c.len;
      const [small, big] = name === 'issubset' ? [c, other] : [other, c];
      return setDifference(small, big).length === 0;
    }
    case 'union':
      check(name, args, kw, 0, Infinity);
      return result([...c.items, ...args.flatMap((a) => iterate(a, 'any'))]);
    case 'intersection': {
      check(name, args, kw, 0, Infinity);
      let items = c.items;
      for (const a of args) {
        const other = asSet(a);
        const gone = new Set(setDifference({ ...c, items, len: items.length }, other));
        items = items.filter((x) => !gone.has(x));
      }
      return result(items);
    }
    case 'difference': {
      check(name, args, kw, 0, Infinity);
      let items = c.items;
      for (const a of args) items = setDifference({ ...c, items, len: items.length }, asSet(a));
      return result(items);
    }
    case 'symmetric_difference': {
      check(name, args, kw, 1, 1);
      const other = asSet(args[0]);
      return result([...setDifference(c, other), ...setDifference(other, c)]);
    }
    case 'copy':
      check(name, args, kw, 0, 0);
      return result(c.items);
    default:
      throw unsupported(c.t, name);
  }
}

function dictMethod(c, name, args, kw) {
  const entries = c.entries ?? [];
  const view = (t, items) => new Seq(t, items, c.len);
  switch (name) {
    case 'get': {
      check(name, args, kw, 1, 2);
      const found = dictGet(c, args[0], false);
      return found === undefined ? (args.length > 1 ? args[1] : null) : found;
    }
    case 'keys': check(name, args, kw, 0, 0); return view('dict_keys', entries.map((e) => e[0]));
    case 'values': check(name, args, kw, 0, 0); return view('dict_values', entries.map((e) => e[1]));
    case 'items': check(name, args, kw, 0, 0); return view('dict_items', entries.map((e) => new Seq('tuple', e.slice())));
    case 'copy':
      check(name, args, kw, 0, 0);
      if (!c.whole) throw notAll(c);
      return new PyDict(entries.map((e) => e.slice()));
    default:
      throw unsupported(c.t, name);
  }
}

/**
 * obj.name(*args, **kw) for a non-mutating method of a builtin value.
 * @param {any} obj @param {string} name @param {any[]} args @param {Map<string, any>} kw
 */
export function callMethod(obj, name, args, kw) {
  if (typeof obj === 'string') return strMethod(obj, name, args, kw);
  if (isCutStr(obj)) return cutStrMethod(obj, name, args, kw);
  const c = contents(obj);
  if (c !== null) {
    if (c.kind === 'dict') return dictMethod(c, name, args, kw);
    if (c.kind === 'set' || c.kind === 'frozenset') return setMethod(c, name, args, kw);
    if (c.kind === 'list' || c.kind === 'tuple' || c.kind === 'deque' || c.kind === 'range') {
      if (name === 'index') return seqIndex(c, args, kw);
      if (name === 'count') return seqCount(c, args, kw);
      if (name === 'copy' && c.kind === 'list') {
        check(name, args, kw, 0, 0);
        if (!c.whole) throw notAll(c);
        return new Seq('list', c.items.slice());
      }
    }
    if (obj instanceof Box && c.t !== c.kind && !(c.kind === 'dict')) {
      throw new EvaluationError(`cannot call ${name}() of a '${c.t}' object: the debugger never runs the program's code`);
    }
    throw unsupported(c.t, name);
  }
  if (isFloat(obj) && name === 'is_integer') {
    check(name, args, kw, 0, 0);
    return Number.isInteger(exact(obj));
  }
  if (isInt(obj) && typeof obj !== 'boolean' && name === 'bit_length') {
    check(name, args, kw, 0, 0);
    const v = bigOf(obj);
    return v === 0n ? 0 : (v < 0n ? -v : v).toString(2).length;
  }
  if (obj instanceof Box && !isBigIntBox(obj)) {
    throw new EvaluationError(`cannot call ${name}() of a '${obj.p.t}' object: the debugger never runs the program's code`);
  }
  opaque(obj);
  throw unsupported(typeName(obj), name);
}

/** A method the language does not call (whether or not the type has it: that is not checked here). */
function unsupported(t, name) {
  return new EvaluationError(`${t}.${name}() is not among the methods an expression can call here`);
}

