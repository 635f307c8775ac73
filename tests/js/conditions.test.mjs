// The breakpoint condition language, evaluated over Value previews.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCondition, ConditionError, EvaluationError } from '../../site/js/conditions.js';
import { val } from './make-trace.mjs';

const env = {
  n: val(7),
  f: val(2.5),
  s: val('hello'),
  none: val(null),
  flag: val(true),
  xs: val([3, 1, 4]),
  d: { t: 'dict', r: "{'k': 1, 2: 'two'}", len: 2, entries: [[val('k'), val(1)], [val(2), val('two')]], more: 0 },
  capped: { t: 'list', r: '[0, 1, ...]', len: 100, items: [val(0), val(1)], more: 98 },
  long: { t: 'str', r: "'aaaa...'", v: 'aaaa', len: 5000 },
  big: { t: 'int', r: '1' + '0'.repeat(400) },
  inf: { t: 'float', r: 'inf' },
  obj: { t: 'Message', r: 'Message(role=user)' },
  bad: { t: 'Weird', r: '<repr failed>', err: 'ValueError: nope' },
};
const lookup = (name) => env[name];
const ev = (src) => parseCondition(src).test(lookup);

test('literals, names, arithmetic and comparisons', () => {
  const yes = [
    'n == 7', 'n != 8', 'n > 6 and n >= 7 and n < 8 and n <= 7', '1 < n < 10', 'not (n < 1 < 0)',
    'f == 2.5', 'n + 1 == 8', 'n - 10 == -3', 'n * 2 == 14', 'n / 2 == 3.5', 'n // 2 == 3', '-7 % 3 == 2', 'n % 4 == 3',
    '2 + 3 * 4 == 14', '(2 + 3) * 4 == 20', "s == 'hello'", 's == "hello"', "s + '!' == 'hello!'", "'ab' * 2 == 'abab'",
    "s < 'world'", 'none is None', 'n is not None', 'flag', 'flag is True', 'flag == 1', 'True + True == 2',
    'not none', 'none == None', 'n and s', 'none or n', '1_000 == 1000', '1e3 == 1000', 'inf > 1000000',
    "'\\n' != 'n'", 'obj is not None', 'obj != 3',
  ];
  for (const src of yes) assert.equal(ev(src), true, src);
  const no = ['n == 8', 'n < 7', 'none', 'n is None', "s == 'x'", "n == '7'", '0', "''", 'not n', '1 < n < 5'];
  for (const src of no) assert.equal(ev(src), false, src);
});

test('len, subscripts, membership on previews', () => {
  const yes = [
    'len(xs) == 3', 'len(s) == 5', 'len(d) == 2', 'len(capped) == 100', 'len(long) == 5000',
    'xs[0] == 3', 'xs[-1] == 4', 'xs[1] + xs[2] == 5', "d['k'] == 1", "d[2] == 'two'", "s[1] == 'e'", "s[-1] == 'o'",
    '4 in xs', '5 not in xs', "'k' in d", "'ell' in s", "'z' not in s", 'capped[1] == 1', 'xs', 'capped', 'len(xs) > 0 and xs[0] > 2',
  ];
  for (const src of yes) assert.equal(ev(src), true, src);
});

test('undecidable or invalid evaluations throw EvaluationError', () => {
  const cases = [
    ['missing == 1', /name 'missing' is not defined/],
    ['capped[50] == 1', /not in the preview/],
    ['5 in capped', /not all of 'list'/],
    ["long == 'a' * 5000", /truncated/],
    ["n < 'a'", /not supported between 'int' and 'str'/],
    ['xs[5]', /IndexError/],
    ["d['nope']", /KeyError: 'nope'/],
    ['n / 0', /ZeroDivisionError/],
    ['len(n)', /has no len/],
    ['n[0]', /not subscriptable/],
    ['xs == xs', /cannot compare two container/],
    ['n is 7', /'is' is only supported/],
    ['big == 1', /too large/],
    ['-s', /bad operand type/],
    ['xs[0.5]', /indices must be integers/],
  ];
  for (const [src, msg] of cases) {
    assert.throws(() => ev(src), (e) => e instanceof EvaluationError && msg.test(e.message), src);
  }
  // Short-circuit: the right side is not evaluated.
  assert.equal(ev('none is not None and missing > 1'), false);
  assert.equal(ev('n or missing'), true);
  // A truncated string still answers "no" when the kept prefix differs.
  assert.equal(ev("long == 'b'"), false);
  assert.equal(ev("long == 'aaaa'"), false); // full length is known to differ
  // repr-raising values are opaque boxes, not errors, unless compared.
  assert.equal(ev('bad is not None'), true);
});

test('names read by a condition are reported', () => {
  assert.deepEqual([...parseCondition('a + len(b) > c[0]').names].sort(), ['a', 'b', 'c']);
});

test('syntax errors carry a position', () => {
  assert.throws(() => parseCondition(''), (e) => e instanceof ConditionError && e.position === 0 && /empty condition/.test(e.message));
  assert.throws(() => parseCondition('n ** 2'), (e) => e instanceof ConditionError && e.position === 3);
  assert.throws(() => parseCondition('n == 1 ;'), (e) => e.position === 7 && /unexpected character ';'/.test(e.message));
  assert.throws(() => parseCondition("s == 'a\\q'"), (e) => e.position === 7 && /unsupported escape/.test(e.message));
  assert.throws(() => parseCondition('xs['), (e) => e.position === 3);
  assert.throws(() => parseCondition('12abc'), (e) => e.position === 0 && /invalid number/.test(e.message));
  assert.throws(() => parseCondition('len()'), (e) => e.position === 4);
  assert.throws(() => parseCondition('len(a, b)'), (e) => e.position === 5);
});

test('attributes of objects are their recorded fields; nothing else is looked up', () => {
  const cache = {
    t: 'RouteCache', r: '<RouteCache hits=2, saved={…}>', more: 0,
    fields: [['hits', val(2)], ['saved', { t: 'dict', r: '{}', len: 0, entries: [], more: 0 }],
      ['route', { t: 'Point', r: 'Point(x=1, y=2)', len: 2, more: 0, fields: [['x', val(1)], ['y', val(2)]] }]],
  };
  const wide = { t: 'Wide', r: '<Wide …>', more: 3, fields: [['a', val(1)]] };
  const look = (name) => ({ self: cache, wide, xs: val([1, 2]) })[name];
  const run = (src) => parseCondition(src).test(look);
  assert.equal(run('self.hits > 1'), true);
  assert.equal(run('self.hits == 2 and len(self.saved) == 0'), true);
  assert.equal(run('self.route.x + self.route[1] == 3'), true);
  assert.equal(run('wide.a == 1'), true);
  assert.throws(() => run('self.misses'), /'RouteCache' object has no attribute 'misses'/);
  assert.throws(() => run('wide.b'), /not in the preview/);
  assert.throws(() => run('xs.append'), /no recorded attribute/);
  assert.throws(() => parseCondition('self.'), /attribute name/);
  assert.throws(() => parseCondition('self.1'), ConditionError);
  assert.equal(run('.5 < 1'), true);
});

test('Python semantics the differential test found (tests/test_conditions_oracle.py)', () => {
  // 200 code points kept of 210: as many UTF-16 units as the whole string has code points.
  const cut = { t: 'str', r: "'😀…'", v: '😀'.repeat(10) + 'a'.repeat(190), len: 210 };
  const values = {
    cut,
    nested: { t: 'list', r: "['😀…']", len: 1, more: 0, items: [{ t: 'str', r: "'😀…'", v: '😀'.repeat(5) + 'c'.repeat(55), len: 65 }] },
    big: { t: 'int', r: '9007199254740993' },
    huge: { t: 'int', r: '100000000000000000000000000000000000000000000000000000000007' },
    two: { t: 'float', r: '2.0' },
    inf: Infinity,
    nan: NaN,
    yes: true,
    xs: val([1, 2, 3]),
    fl: { t: 'list', r: '[1.5, nan]', len: 2, more: 0, items: [val(1.5), { t: 'float', r: 'nan' }] },
    d: { t: 'dict', r: "{'k': 1}", len: 1, more: 0, entries: [[val('k'), val(1)]] },
    pt: { t: 'Point', r: 'Point(x=1, y=2)', len: 2, more: 0, fields: [['x', val(1)], ['y', val(2)]] },
    long: { t: 'str', r: "'aaaa...'", v: 'aaaa', len: 5000 },
  };
  const run = (src) => parseCondition(src).test((name) => values[name]);
  const yes = [
    // a cut string is cut even when its UTF-16 length equals the Python length
    "cut != '😀😀😀😀😀😀😀😀😀😀' + 'a' * 190", 'len(cut) == 210', "cut[5] == '😀'", "nested[0] != '😀😀😀😀😀' + 'c' * 55",
    // strings order by code point: U+1F600 is above U+FFFF, though its UTF-16 units are below
    "'😀' > '\uffff'", "'a😀' > 'a\ue000'", "'\ue000' < '𝔘' < '😀'",
    // a cut string still orders when its kept prefix decides
    "long < 'b'", "'b' > long", "long > 'a'", "long >= 'aaaa'",
    // ints are exact past 2**53, and never equal a float they round to
    'big != 9007199254740992', 'big == 9007199254740993', 'big > 9007199254740992.0', 'big - 1 == 9007199254740992',
    '9007199254740993 != 9007199254740992', 'huge % 10 == 7', 'huge // 1000 * 1000 + 7 == huge', 'huge > 1e59',
    // float floor division and modulo as CPython computes them
    '1 // 0.1 == 9.0', '-7.5 % 2 == 0.5', '10 % inf == 10', '-10 % inf == inf', '-7 // 2 == -4', 'two / 4 == 0.5',
    '-9007199254740991 // 3 == -3002399751580331', '9007199254740991 % -3 == -2',
    // bool is an int
    "'ab' * yes == 'ab'", "yes * 'ab' == 'ab'", '-yes == -1',
    // a named tuple's items are its fields
    '2 in pt', '3 not in pt',
  ];
  for (const src of yes) assert.equal(run(src), true, src);
  const cases = [
    ['cut[-1]', /truncated/],
    ["long < 'a' * 6000", /truncated/],
    ['xs[two]', /indices must be integers, not float/],
    ['xs[4 / 2]', /indices must be integers, not float/],
    ["'ab' * 2.0", /unsupported operand/],
    ['nan in fl', /identity is not in the preview/],
    ['xs in d', /unhashable type: 'list'/],
    ['d[xs]', /unhashable type: 'list'/],
  ];
  for (const [src, msg] of cases) {
    assert.throws(() => run(src), (e) => e instanceof EvaluationError && msg.test(e.message), src);
  }
});

test('a float with a whole value stays a float when the value table hands it to a condition', async () => {
  const { ValueTable, FLOAT, INT } = await import('../../site/js/trace-columns.js');
  const table = new ValueTable(Uint8Array.of(FLOAT, FLOAT, INT), Float64Array.of(2, 2.5, 2), { list: [] });
  const names = { f: 0, half: 1, i: 2, xs: -1 };
  const get = (name) => (names[name] === -1 ? val([3, 1, 4]) : table.runtime(names[name]));
  assert.equal(parseCondition('f == 2').test(get), true);
  assert.equal(parseCondition('half * 2 == 5').test(get), true);
  assert.equal(parseCondition('xs[i] == 4').test(get), true);
  assert.throws(() => parseCondition('xs[f] == 4').test(get), EvaluationError);   // list indices must be integers
  assert.throws(() => parseCondition("'ab' * f == 'abab'").test(get), EvaluationError);
});
