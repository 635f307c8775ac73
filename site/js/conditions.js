// Conditions and watch expressions: a safe subset of Python expressions evaluated over the
// recorded Value previews of a trace. The page runs under a strict CSP (no 'unsafe-eval'), and an
// expression must never run the program's code anyway, so this is a hand-written tokenizer and
// recursive-descent parser that builds a small syntax tree and compiles it to closures. The values
// and their semantics are in python-values.js, the builtins and methods in python-builtins.js.
//
// Supported:
//   - literals: int, float, str (adjacent ones joined; escapes \n \t \r \\ \' \" \0), None/True/False;
//     names: the frame's locals, then the builtins below (a local of the same name hides one);
//   - operators: unary - + not; + - * / // % (numbers; str + str and str * int; list/tuple + and *
//     int; set - set); comparisons == != < <= > >= chained like Python (a < b < c), on numbers,
//     strings and containers of them (list, tuple, set, dict, compared item by item as CPython
//     does); in / not in; is / is not (None, True, False, types: `type(x) is list`); and / or
//     (returning an operand); `a if c else b`; `lambda x: ...` (as a key= argument); `a is b` on
//     the program's containers and objects, by their object numbers (one number, one object);
//   - displays: (a, b), a, b at the top level, [a, b], {a, b}, {k: v}; comprehensions [.. for ..
//     in .. if ..], {..}, {k: v ..} and a generator expression (as an argument: sum(x for x in xs)),
//     several `for` clauses and `for k, v in ...` targets;
//   - subscripts x[0], x[-1], d['k'], d[1, 2], and slices x[a:b], x[a:b:c] on str, list, tuple,
//     range; attributes x.name of objects (their recorded fields: an instance's attributes, a
//     dataclass's or named tuple's fields, an exception's args) and type(x).__name__;
//   - builtins: len isinstance type str int float bool abs round min max sum sorted any all repr
//     list tuple set frozenset dict range enumerate zip reversed (key=, reverse=, default=, start=);
//   - methods that change nothing: str (startswith endswith lower upper casefold swapcase title
//     capitalize strip lstrip rstrip split join find rfind index rindex count replace
//     removeprefix removesuffix isdigit isdecimal isnumeric isalpha isalnum isspace isupper
//     islower istitle isascii), list/tuple (count index copy), dict (get keys values items copy),
//     set/frozenset (issubset issuperset isdisjoint union intersection difference
//     symmetric_difference copy), float.is_integer, int.bit_length.
//
// Not supported (a ConditionError when parsed, or an EvaluationError saying so): ** and the bitwise
// operators, f-strings and string prefixes, starred and keyword-only forms beyond those above,
// walrus, slices as values, calling the program's functions or methods of its objects, any method
// that changes a value (append, pop, sort, update, ...: refused when parsed, as it would change the
// program's value), str % and str.format, int(x, base), the other builtins (map, filter, print,
// ...). str.isdigit/isnumeric and title/capitalize follow JavaScript's Unicode tables, which may
// differ from CPython's for rare characters.
//
// Semantics are CPython 3.11's (tests/test_conditions_oracle.py checks them against CPython):
// strings are sequences of code points (len, indexing, ordering), ints are exact however big, an
// int and a float stay apart (2 / 1 is 2.0, xs[2.0] raises), // and % floor as Python does, sum()
// adds left to right (CPython 3.12+ sums floats with compensation, so a float sum can differ in
// its last digits there), sorted() of fewer than 64 items compares as list.sort does (NaN too).
//
// Values are previews, so some answers are unknowable (an item left out of a capped list, a
// truncated string, which NaN object a NaN is, a set's iteration order, an object's own __eq__,
// __hash__ or __repr__). Those raise an EvaluationError instead of guessing. So does work past
// MAX_STEPS steps (100,000 items iterated, compared or built). A failed evaluation stops the run at
// that line with the error shown (as bdb does), never passes silently (breakpoints.js).

import {
  EvaluationError, PyFunc, PyGen, PySlice, Seq, arith, fromLookup, iterate, makeDict, makeSet, pyAttribute, pyCompare,
  pyEq, pyIn, pyIs, pySubscript, resetBudget, tick, toFloatValue, toIntValue, truthy, typeName, unary, unordered,
} from './python-values.js';
import { BUILTINS, MUTATING, callMethod, callValue } from './python-builtins.js';

export { EvaluationError, fromPreview, pythonRepr, toPreview } from './python-values.js';

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

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'None', 'True', 'False', 'if', 'else', 'for', 'lambda']);
// Longest first, so '//' wins over '/' and '<=' over '<'.
const OPERATORS = ['//', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '(', ')', '[', ']', '{', '}', ',', ':', '='];
// Python's other builtins: calling one is refused when parsed (they are not in the language, and a
// program's function of that name would not be called either).
const PYTHON_BUILTINS = new Set(['print', 'input', 'open', 'exec', 'eval', 'compile', 'exit', 'quit', 'breakpoint',
  'help', 'setattr', 'delattr', 'getattr', 'hasattr', 'globals', 'locals', 'vars', 'dir', '__import__', 'id', 'hash',
  'iter', 'next', 'map', 'filter', 'callable', 'chr', 'ord', 'divmod', 'pow', 'format', 'hex', 'oct', 'bin', 'ascii',
  'bytes', 'bytearray', 'memoryview', 'complex', 'slice', 'super', 'property', 'staticmethod', 'classmethod',
  'issubclass', 'aiter', 'anext']);
const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}_]/u;
const ESCAPES = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', 0: '\0' };

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
      // Python's digits: an underscore only between two digits; no leading zero on a nonzero int.
      const m = /^(?:[0-9](?:_?[0-9])*)?(?:\.(?:[0-9](?:_?[0-9])*)?)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?/.exec(src.slice(i));
      const text = m[0];
      if (/^0+[1-9_]/.test(text) && /^[0-9_]+$/.test(text)) {
        throw new ConditionError(`invalid number '${text}': leading zeros are not allowed in an int`, start, src);
      }
      if (/[\p{L}\p{N}_]/u.test(src[i + text.length] ?? '')) {
        throw new ConditionError(`invalid number '${src.slice(i, i + text.length + 1)}'`, start, src);
      }
      const digits = text.replaceAll('_', '');
      const float = Number(digits);
      if (Number.isNaN(float)) throw new ConditionError(`invalid number '${text}'`, start, src);
      // An int literal stays exact however long (BigInt past 2**53); 2.0 and 1e3 are floats, as in Python.
      const value = /^[0-9]+$/.test(digits) ? intLiteral(BigInt(digits)) : floatLiteral(float);
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
          // \ooo: up to three octal digits, as Python reads them (\0 is one of them).
          const octal = /^[0-7]{1,3}/.exec(src.slice(j + 1));
          if (octal) {
            text += String.fromCodePoint(parseInt(octal[0], 8));
            j += 1 + octal[0].length;
            continue;
          }
          if (e === undefined || !(e in ESCAPES)) throw new ConditionError(`unsupported escape '\\${e ?? ''}'`, j, src);
          text += ESCAPES[e];
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
    if (ch === '.') {
      if (!NAME_START.test(src[i + 1] ?? '')) throw new ConditionError("expected an attribute name after '.'", start, src);
      out.push({ type: 'op', value: '.', pos: start });
      i++;
      continue;
    }
    throw new ConditionError(`unexpected character '${ch}'`, start, src);
  }
  out.push({ type: 'eof', value: null, pos: src.length });
  return out;
}

const intLiteral = toIntValue;
const floatLiteral = toFloatValue;

// ---------------------------------------------------------------------------
// Parser: source text to a syntax tree (plain objects with `k`, the kind of node).

class Parser {
  /** @param {string} src */
  constructor(src) {
    this.src = src;
    this.toks = tokenize(src);
    this.k = 0;
  }
  get tok() { return this.toks[this.k]; }
  peek(n = 1) { return this.toks[this.k + n]; }
  fail(msg, tok = this.tok) { throw new ConditionError(msg, tok.pos, this.src); }
  isOp(v) { return this.tok.type === 'op' && this.tok.value === v; }
  isKw(v) { return this.tok.type === 'kw' && this.tok.value === v; }
  expectOp(v, open = null) {
    if (!this.isOp(v)) {
      if (this.isOp('=')) this.fail("assignment is not allowed; use '==' to compare");
      this.fail(`expected '${v}'${open ? ` to close '${open.value}' at column ${open.pos + 1}` : ''}${this.tok.type === 'eof' ? ' before end' : ''}`);
    }
    this.k++;
  }

  parse() {
    if (this.tok.type === 'eof') this.fail('empty condition');
    const e = this.exprList(true);
    if (this.tok.type !== 'eof') {
      if (this.isOp('=')) this.fail("assignment is not allowed; use '==' to compare");
      this.fail(`unexpected '${this.tok.value}'`);
    }
    return e;
  }
  /** An expression, or a tuple of them without parentheses (`a, b`). */
  exprList(top = false) {
    const first = this.expr();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.isOp(',')) {
      this.k++;
      if (top ? this.tok.type === 'eof' : this.isOp(')') || this.isOp(']')) break;
      items.push(this.expr());
    }
    return { k: 'tuple', items };
  }
  expr() {
    if (this.isKw('lambda')) return this.lambda();
    const body = this.disjunction();
    if (!this.isKw('if')) return body;
    this.k++;
    const test = this.disjunction();
    if (!this.isKw('else')) this.fail("expected 'else' in a conditional expression");
    this.k++;
    return { k: 'ifexp', test, body, orelse: this.expr() };
  }
  lambda() {
    this.k++;
    const params = [];
    while (!this.isOp(':')) {
      if (this.tok.type !== 'name') this.fail('expected a parameter name');
      params.push(this.tok.value);
      this.k++;
      if (!this.isOp(',')) break;
      this.k++;
    }
    this.expectOp(':');
    return { k: 'lambda', params, body: this.expr() };
  }
  disjunction() {
    let left = this.conjunction();
    while (this.isKw('or')) {
      this.k++;
      left = { k: 'bool', op: 'or', left, right: this.conjunction() };
    }
    return left;
  }
  conjunction() {
    let left = this.inversion();
    while (this.isKw('and')) {
      this.k++;
      left = { k: 'bool', op: 'and', left, right: this.inversion() };
    }
    return left;
  }
  inversion() {
    if (this.isKw('not')) {
      this.k++;
      return { k: 'not', e: this.inversion() };
    }
    return this.comparison();
  }
  compOp() {
    const t = this.tok;
    if (t.type === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.value)) { this.k++; return t.value; }
    if (this.isKw('in')) { this.k++; return 'in'; }
    if (this.isKw('not')) {
      if (this.peek().type === 'kw' && this.peek().value === 'in') { this.k += 2; return 'not in'; }
      this.fail("expected 'in' after 'not'", this.peek());
    }
    if (this.isKw('is')) {
      this.k++;
      if (this.isKw('not')) { this.k++; return 'is not'; }
      return 'is';
    }
    return null;
  }
  comparison() {
    const first = this.sum();
    const rest = [];
    for (let op = this.compOp(); op; op = this.compOp()) rest.push({ op, e: this.sum() });
    return rest.length ? { k: 'cmp', first, rest } : first;
  }
  sum() {
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.tok.value;
      this.k++;
      left = { k: 'bin', op, l: left, r: this.term() };
    }
    return left;
  }
  term() {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('//') || this.isOp('%')) {
      const op = this.tok.value;
      this.k++;
      left = { k: 'bin', op, l: left, r: this.unary() };
    }
    return left;
  }
  unary() {
    if (this.isOp('-') || this.isOp('+')) {
      const op = this.tok.value;
      this.k++;
      return { k: 'unary', op, e: this.unary() };
    }
    return this.postfix();
  }
  postfix() {
    let e = this.atom();
    for (;;) {
      if (this.isOp('.')) {
        this.k++;
        const name = this.tok;
        if (name.type !== 'name') this.fail("expected an attribute name after '.'", name);
        this.k++;
        if (this.isOp('(')) {
          if (MUTATING.has(name.value)) {
            this.fail(`${name.value}() would change the program's value; an expression here only reads values`, name);
          }
          const { args, kw } = this.callArgs();
          e = { k: 'method', obj: e, name: name.value, args, kw };
        } else {
          e = { k: 'attr', obj: e, name: name.value };
        }
      } else if (this.isOp('(')) {
        if (e.k === 'name' && !BUILTINS.has(e.id) && PYTHON_BUILTINS.has(e.id)) {
          this.fail(`${e.id}() is not supported here; the functions an expression can call are ${[...BUILTINS.keys()].filter((n) => n !== 'object').join(', ')}`, this.toks[this.k - 1]);
        }
        const { args, kw } = this.callArgs();
        e = { k: 'call', fn: e, args, kw };
      } else if (this.isOp('[')) {
        const open = this.tok;
        this.k++;
        if (this.isOp(']')) this.fail('empty subscript');
        const items = [this.subscriptItem()];
        let comma = false;
        while (this.isOp(',')) {
          this.k++;
          comma = true;
          if (this.isOp(']')) break;
          items.push(this.subscriptItem());
        }
        if (!this.isOp(']')) this.fail(`expected ']' to close '[' at column ${open.pos + 1}`);
        this.k++;
        e = { k: 'sub', obj: e, index: comma ? { k: 'tuple', items } : items[0] };
      } else {
        return e;
      }
    }
  }
  subscriptItem() {
    const start = this.isOp(':') ? null : this.expr();
    if (!this.isOp(':')) return start;
    this.k++;
    const end = () => this.isOp(']') || this.isOp(',') || this.isOp(':');
    const stop = end() ? null : this.expr();
    let step = null;
    if (this.isOp(':')) {
      this.k++;
      step = this.isOp(']') || this.isOp(',') ? null : this.expr();
    }
    return { k: 'slice', start, stop, step };
  }
  /** `(` args `)`: positional, then name=value; a generator expression may be the sole argument. */
  callArgs() {
    const open = this.tok;
    this.k++;
    const args = [], kw = [];
    while (!this.isOp(')')) {
      if (this.tok.type === 'name' && this.peek().type === 'op' && this.peek().value === '=') {
        const name = this.tok.value;
        if (kw.some(([n]) => n === name)) this.fail(`keyword argument repeated: ${name}`);
        this.k += 2;
        kw.push([name, this.expr()]);
      } else {
        if (kw.length) this.fail('positional argument follows keyword argument');
        const at = this.tok;
        const e = this.expr();
        if (this.isKw('for')) {
          const gen = this.comprehension('gen', e);
          if (args.length || kw.length || !this.isOp(')')) this.fail('Generator expression must be parenthesized', at);
          args.push(gen);
          break;
        }
        args.push(e);
      }
      if (!this.isOp(',')) break;
      this.k++;
    }
    this.expectOp(')', open);
    return { args, kw };
  }
  /** The `for ... in ... if ...` clauses after `elt`. */
  comprehension(kind, elt, value = null) {
    const clauses = [];
    while (this.isKw('for')) {
      this.k++;
      const target = this.target();
      if (!this.isKw('in')) this.fail("expected 'in' in a comprehension");
      this.k++;
      const iter = this.disjunction();
      const ifs = [];
      while (this.isKw('if')) {
        this.k++;
        ifs.push(this.disjunction());
      }
      clauses.push({ target, iter, ifs });
    }
    return { k: 'comp', kind, elt, value, clauses };
  }
  /** A comprehension's target: a name, or names to unpack (`k, v` or `(k, v)`). */
  target() {
    const paren = this.isOp('(');
    if (paren) this.k++;
    const names = [];
    let comma = false;
    for (;;) {
      if (this.tok.type !== 'name') this.fail('expected a name to assign in a comprehension');
      names.push(this.tok.value);
      this.k++;
      if (!this.isOp(',')) break;
      this.k++;
      comma = true;
      if (paren ? this.isOp(')') : this.isKw('in')) break;
    }
    if (paren) this.expectOp(')');
    return names.length === 1 && !comma ? names[0] : names;
  }
  atom() {
    const t = this.tok;
    switch (t.type) {
      case 'num': this.k++; return { k: 'const', value: t.value };
      case 'str': {
        let text = '';
        while (this.tok.type === 'str') text += this.toks[this.k++].value;
        return { k: 'const', value: text };
      }
      case 'kw':
        if (t.value === 'None') { this.k++; return { k: 'const', value: null }; }
        if (t.value === 'True') { this.k++; return { k: 'const', value: true }; }
        if (t.value === 'False') { this.k++; return { k: 'const', value: false }; }
        return this.fail(`unexpected '${t.value}'`);
      case 'name': this.k++; return { k: 'name', id: t.value };
      case 'op':
        if (t.value === '(') return this.parenthesized();
        if (t.value === '[') return this.bracketed();
        if (t.value === '{') return this.braced();
        return this.fail(`unexpected '${t.value}'`);
      case 'eof':
        return this.fail('unexpected end of condition');
    }
    return this.fail('unexpected token');
  }
  parenthesized() {
    const open = this.tok;
    this.k++;
    if (this.isOp(')')) { this.k++; return { k: 'tuple', items: [] }; }
    const first = this.expr();
    if (this.isKw('for')) {
      const gen = this.comprehension('gen', first);
      this.expectOp(')', open);
      return gen;
    }
    if (!this.isOp(',')) {
      this.expectOp(')', open);
      return first;
    }
    const items = [first];
    while (this.isOp(',')) {
      this.k++;
      if (this.isOp(')')) break;
      items.push(this.expr());
    }
    this.expectOp(')', open);
    return { k: 'tuple', items };
  }
  bracketed() {
    const open = this.tok;
    this.k++;
    if (this.isOp(']')) { this.k++; return { k: 'list', items: [] }; }
    const first = this.expr();
    if (this.isKw('for')) {
      const comp = this.comprehension('list', first);
      this.expectOp(']', open);
      return comp;
    }
    const items = [first];
    while (this.isOp(',')) {
      this.k++;
      if (this.isOp(']')) break;
      items.push(this.expr());
    }
    this.expectOp(']', open);
    return { k: 'list', items };
  }
  braced() {
    const open = this.tok;
    this.k++;
    if (this.isOp('}')) { this.k++; return { k: 'dict', pairs: [] }; }
    const first = this.expr();
    if (this.isOp(':')) {
      this.k++;
      const value = this.expr();
      if (this.isKw('for')) {
        const comp = this.comprehension('dict', first, value);
        this.expectOp('}', open);
        return comp;
      }
      const pairs = [[first, value]];
      while (this.isOp(',')) {
        this.k++;
        if (this.isOp('}')) break;
        const key = this.expr();
        this.expectOp(':');
        pairs.push([key, this.expr()]);
      }
      this.expectOp('}', open);
      return { k: 'dict', pairs };
    }
    if (this.isKw('for')) {
      const comp = this.comprehension('set', first);
      this.expectOp('}', open);
      return comp;
    }
    const items = [first];
    while (this.isOp(',')) {
      this.k++;
      if (this.isOp('}')) break;
      items.push(this.expr());
    }
    this.expectOp('}', open);
    return { k: 'set', items };
  }
}

// ---------------------------------------------------------------------------
// Compiler: a syntax tree to a closure `(ctx) => value`, where ctx.lookup(name) gives a local's
// Value preview (or a number, boolean or null standing for itself, or undefined when there is no
// such local), and ctx.vars holds the names a comprehension or lambda binds.

/** @typedef {{lookup: (name: string) => any, vars: Map<string, any>}} Ctx */
/** @typedef {(ctx: Ctx) => any} Compiled */

class Compiler {
  constructor() {
    /** @type {Set<string>} local names the expression reads */
    this.names = new Set();
  }

  /** @param {any} node @param {Set<string>} bound names bound by enclosing comprehensions and lambdas @returns {Compiled} */
  compile(node, bound) {
    const c = (n) => this.compile(n, bound);
    switch (node.k) {
      case 'const': { const v = node.value; return () => v; }
      case 'name': return this.name(node.id, bound);
      case 'bool': {
        const l = c(node.left), r = c(node.right);
        return node.op === 'and'
          ? (ctx) => { const a = l(ctx); return truthy(a) ? r(ctx) : a; }
          : (ctx) => { const a = l(ctx); return truthy(a) ? a : r(ctx); };
      }
      case 'not': { const e = c(node.e); return (ctx) => !truthy(e(ctx)); }
      case 'ifexp': {
        const test = c(node.test), body = c(node.body), orelse = c(node.orelse);
        return (ctx) => (truthy(test(ctx)) ? body(ctx) : orelse(ctx));
      }
      case 'cmp': {
        const first = c(node.first);
        const rest = node.rest.map(({ op, e }) => ({ op, e: c(e) }));
        return (ctx) => {
          let a = first(ctx);
          for (const { op, e } of rest) {
            const b = e(ctx);
            if (!compare(op, a, b)) return false; // chained comparisons short-circuit like Python
            a = b;
          }
          return true;
        };
      }
      case 'bin': { const l = c(node.l), r = c(node.r), op = node.op; return (ctx) => arith(op, l(ctx), r(ctx)); }
      case 'unary': { const e = c(node.e), op = node.op; return (ctx) => unary(op, e(ctx)); }
      case 'attr': { const obj = c(node.obj), name = node.name; return (ctx) => pyAttribute(obj(ctx), name); }
      case 'sub': { const obj = c(node.obj), index = c(node.index); return (ctx) => pySubscript(obj(ctx), index(ctx)); }
      case 'slice': {
        const none = () => null;
        const start = node.start ? c(node.start) : none, stop = node.stop ? c(node.stop) : none, step = node.step ? c(node.step) : none;
        return (ctx) => new PySlice(start(ctx), stop(ctx), step(ctx));
      }
      case 'call': {
        const fn = c(node.fn), args = this.args(node, bound);
        return (ctx) => { const f = fn(ctx); const [a, kw] = args(ctx); return callValue(f, a, kw); };
      }
      case 'method': {
        const obj = c(node.obj), args = this.args(node, bound), name = node.name;
        return (ctx) => { const o = obj(ctx); const [a, kw] = args(ctx); return callMethod(o, name, a, kw); };
      }
      case 'tuple': case 'list': {
        const items = node.items.map(c), t = node.k;
        return (ctx) => new Seq(t, items.map((e) => e(ctx)));
      }
      case 'set': { const items = node.items.map(c); return (ctx) => makeSet(items.map((e) => e(ctx))); }
      case 'dict': {
        const pairs = node.pairs.map(([k, v]) => [c(k), c(v)]);
        return (ctx) => makeDict(pairs.map(([k, v]) => [k(ctx), v(ctx)]));
      }
      case 'comp': return this.comprehension(node, bound);
      case 'lambda': {
        const inner = new Set([...bound, ...node.params]);
        const body = this.compile(node.body, inner), params = node.params;
        return (ctx) => new PyFunc('<lambda>', (args, kw) => {
          if (kw.size) throw new EvaluationError(`TypeError: <lambda>() got an unexpected keyword argument '${kw.keys().next().value}'`);
          if (args.length !== params.length) {
            throw new EvaluationError(`TypeError: <lambda>() takes ${params.length} positional argument${params.length === 1 ? '' : 's'} but ${args.length} were given`);
          }
          const vars = new Map(ctx.vars);
          params.forEach((p, i) => vars.set(p, args[i]));
          return body({ lookup: ctx.lookup, vars });
        }, false);
      }
      default: throw new Error(`unknown node ${node.k}`);
    }
  }

  /** A name: bound by a comprehension or lambda, else a local of the frame, else a builtin. */
  name(id, bound) {
    if (bound.has(id)) return (ctx) => ctx.vars.get(id);
    this.names.add(id);
    const builtin = BUILTINS.get(id);
    return (ctx) => {
      const v = ctx.lookup(id);
      if (v !== undefined) return fromLookup(v);
      if (builtin !== undefined) return builtin;
      // Not a local of the frame: a module global (not in the trace) or a name nowhere defined.
      throw new EvaluationError(`cannot tell: '${id}' is not a local here, and module globals are not in the trace`);
    };
  }

  /** Positional and keyword arguments: `(ctx) => [args, Map of keywords]`. */
  args(node, bound) {
    const args = node.args.map((a) => this.compile(a, bound));
    const kw = node.kw.map(([name, e]) => [name, this.compile(e, bound)]);
    return (ctx) => [args.map((a) => a(ctx)), new Map(kw.map(([name, e]) => [name, e(ctx)]))];
  }

  /**
   * [elt for ...], {elt for ...}, {k: v for ...}, (elt for ...). As in Python, the first iterable is
   * evaluated where the comprehension is (eagerly, for a generator too) and the others in its scope.
   */
  comprehension(node, bound) {
    const inner = new Set(bound);
    const clauses = node.clauses.map((clause, i) => {
      const iter = this.compile(clause.iter, i === 0 ? bound : inner);
      for (const name of [clause.target].flat()) inner.add(name);
      return { target: clause.target, iter, ifs: clause.ifs.map((f) => this.compile(f, inner)) };
    });
    const elt = this.compile(node.elt, inner);
    const value = node.value ? this.compile(node.value, inner) : null;
    /** Every element, lazily: mode 'ordered' or 'any' (see PyGen), `seen` noting an unordered source. */
    function* run(ctx, first, mode, seen) {
      const vars = new Map(ctx.vars);
      const scope = { lookup: ctx.lookup, vars };
      function* level(i, source) {
        if (mode === 'any' && unordered(source)) seen.sawUnordered = true;
        for (const item of iterate(source, mode)) {
          tick();
          assign(vars, clauses[i].target, item);
          if (!clauses[i].ifs.every((f) => truthy(f(scope)))) continue;
          if (i + 1 === clauses.length) yield value ? [elt(scope), value(scope)] : elt(scope);
          else yield* level(i + 1, clauses[i + 1].iter(scope));
        }
      }
      yield* level(0, first);
    }
    const first = clauses[0].iter;
    switch (node.kind) {
      case 'list': return (ctx) => new Seq('list', [...run(ctx, first(ctx), 'ordered', {})]);
      case 'set': return (ctx) => makeSet([...run(ctx, first(ctx), 'any', {})]);
      case 'dict': return (ctx) => makeDict([...run(ctx, first(ctx), 'ordered', {})]);
      default: return (ctx) => {
        const source = first(ctx);
        if (typeof source !== 'string') iterableCheck(source);
        return new PyGen((mode, gen) => run(ctx, source, mode, gen));
      };
    }
  }
}

/** A generator's first iterable must be iterable when the generator is made (as CPython's iter()). */
function iterableCheck(x) {
  if (x === null || typeof x === 'boolean' || typeof x === 'number' || typeof x === 'bigint' || x instanceof PyFunc) {
    throw new EvaluationError(`TypeError: '${typeName(x)}' object is not iterable`);
  }
}

/** Bind a comprehension's target to an item (unpacking `k, v`). */
function assign(vars, target, item) {
  if (typeof target === 'string') {
    vars.set(target, item);
    return;
  }
  const items = iterate(item);
  if (items.length !== target.length) {
    throw new EvaluationError(items.length > target.length
      ? `ValueError: too many values to unpack (expected ${target.length})`
      : `ValueError: not enough values to unpack (expected ${target.length}, got ${items.length})`);
  }
  target.forEach((name, i) => vars.set(name, items[i]));
}

function compare(op, a, b) {
  switch (op) {
    case '==': return pyEq(a, b);
    case '!=': return !pyEq(a, b);
    case 'in': return pyIn(a, b);
    case 'not in': return !pyIn(a, b);
    case 'is': return pyIs(a, b);
    case 'is not': return !pyIs(a, b);
    default: return truthy(pyCompare(op, a, b));
  }
}

/**
 * @typedef {object} Condition
 * @property {string} source  the text as given
 * @property {Set<string>} names  names the expression reads from the frame (builtins it calls too:
 *   a local of that name would hide the builtin)
 * @property {(lookup: (name: string) => any) => boolean} test
 *   evaluate with `lookup(name)` returning a trace Value preview, or a number, boolean or null
 *   standing for itself (or undefined when the name is not a local there); its truth, as `if`
 *   would take it; throws EvaluationError when undecidable
 * @property {(lookup: (name: string) => any) => any} value
 *   the same evaluation's value itself (a runtime value: `toPreview` makes it a Value, `pythonRepr`
 *   its repr text)
 * @property {{name: string, test: (x: number) => boolean}|null} numeric  for `name OP int`: the
 *   answer when the name holds an int, float or bool (its number), without `test`
 */

/**
 * Parse a breakpoint condition or watch expression. Throws ConditionError (with `.position`) when
 * the text is not in the supported language.
 * @param {string} source
 * @returns {Condition}
 */
export function parseCondition(source) {
  if (typeof source !== 'string') throw new TypeError('condition must be a string');
  const p = new Parser(source);
  let tree;
  try {
    tree = p.parse();
  } catch (e) {
    if (e instanceof RangeError) throw new ConditionError('the expression is nested too deeply', 0, source);
    throw e;
  }
  const compiler = new Compiler();
  const compiled = compiler.compile(tree, new Set());
  const value = (lookup) => {
    resetBudget();
    try {
      return compiled({ lookup, vars: new Map() });
    } catch (e) {
      if (e instanceof RangeError && /call stack/i.test(e.message)) throw new EvaluationError('RecursionError: the expression is nested too deeply');
      throw e;
    }
  };
  return {
    source,
    names: compiler.names,
    test: (lookup) => truthy(value(lookup)),
    value,
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
