// Synthetic Stepwise traces (docs/trace-format.md, version 3) for tests and benchmarks.
//
// buildTrace(): a small trace from a hand-written event list.
// makeLoopTrace(): a big, realistic trace (a loop calling a helper), with the
// generator's own state sampled as ground truth, so tests can check the
// engine's folded locals against what the "program" really held.

/** Value preview of a JS number / string / null / boolean (recorder-shaped). */
export function val(x) {
  if (x === null) return { t: 'NoneType', r: 'None' };
  if (typeof x === 'boolean') return { t: 'bool', r: x ? 'True' : 'False' };
  if (typeof x === 'number') return Number.isInteger(x) ? { t: 'int', r: String(x) } : { t: 'float', r: String(x) };
  if (typeof x === 'string') return { t: 'str', r: JSON.stringify(x).replace(/^"|"$/g, "'"), v: x, len: x.length };
  if (Array.isArray(x)) return { t: 'list', r: '[...]', len: x.length, items: x.map(val), more: 0 };
  throw new Error(`val(): unsupported ${typeof x}`);
}

/**
 * A trace from an explicit event list.
 * @param {object} spec
 * @param {[string, number, number][]} spec.events  [kind, line, frame id]
 * @param {{id: number, function: string, parent: number|null, line: number}[]} spec.frames
 * @param {object[]} [spec.locals]  deltas {i, f, set?, del?, full?}; `set` values
 *   may be plain JS values (wrapped with val()) or ready Value objects
 */
export function buildTrace({ events, frames, locals = [], returns = [], exceptions = [], stdout = [], gap = null, end = null }) {
  const wrap = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && 't' in v ? v : val(v));
  return pooled({
    format: 'stepwise-trace',
    source: 'py/demo.py',
    function: frames[0]?.function ?? null,
    case: 'demo',
    python: '3.14.2',
    backend: 'settrace',
    frames,
    events: {
      kind: events.map((e) => e[0]).join(''),
      line: events.map((e) => e[1]),
      frame: events.map((e) => e[2]),
    },
    gap,
    locals: locals.map((d) => ({
      i: d.i,
      f: d.f,
      set: Object.fromEntries(Object.entries(d.set ?? {}).map(([k, v]) => [k, wrap(v)])),
      del: d.del ?? [],
      full: !!d.full,
    })),
    returns: returns.map(([e, v]) => [e, wrap(v)]),
    exceptions,
    stdout,
    stdout_text: stdout.map((s) => s[1]).join(''),
    end: end ?? { status: 'returned', reason: null, exception: null, ms: 1 },
    files: [],
    stats: { events: events.length, kept: events.length, calls: 0, elapsed_ms: 1, stdout_truncated: false },
  });
}

/**
 * The trace as the recorder writes it: each distinct value once in `values`, and the locals and
 * returns referring to it by index (the fixtures above are written with values inline).
 * @param {any} trace
 */
export function pooled(trace) {
  const values = [];
  const known = new Map();
  const ref = (value) => {
    const key = JSON.stringify(value);
    let index = known.get(key);
    if (index === undefined) known.set(key, (index = values.push(value) - 1));
    return index;
  };
  const locals = trace.locals.map((d) => ({ ...d, set: Object.fromEntries(Object.entries(d.set ?? {}).map(([name, v]) => [name, ref(v)])) }));
  return { ...trace, version: 3, values, locals, returns: trace.returns.map(([event, v]) => [event, ref(v)]) };
}

/**
 * A long trace of this program (line numbers as in the shown file):
 *
 *   1 def main(n):
 *   2     total = 0
 *   3     for i in range(n):
 *   4         total += i
 *   5         if i % K == 0:
 *   6             total = helper(total, i)
 *   7     return total
 *  10 def helper(t, i):
 *  11     print(i)
 *  12     y = t % 1000
 *  13     return y + i
 *
 * Options: events (approximate kept count before the final two events),
 * helperEvery K, sampleEvery (ground-truth sampling period), gap
 * {head, tail}: keep only the first `head` and last `tail` raw events, like a
 * runaway run's windows (the first kept event of each frame after the gap gets
 * a `full` delta, as the recorder does).
 * @returns {{trace: object, truth: Map<number, {line: number, frame: number, kind: string,
 *   depth: number, locals: Record<string, number>, stdoutLines: number}>}}
 */
export function makeLoopTrace({ events = 1_000_000, helperEvery = 5, sampleEvery = 9973, gap = null } = {}) {
  const w = new LoopTraceWriter(events, sampleEvery, gap);
  const K = helperEvery;
  const budget = events - 2;
  w.emit('c', 1, 0, { n: 0 }, { full: true });
  w.emit('l', 2, 0, {});
  let total = 0;
  w.emit('l', 3, 0, { total });
  for (let i = 0; w.raw < budget - 12; i++) {
    w.emit('l', 4, 0, { i });
    total += i;
    w.emit('l', 5, 0, { total });
    if (i % K === 0) {
      total = w.helperCall(total, i);
      w.emit('l', 3, 0, { total });
    } else {
      w.emit('l', 3, 0, {});
    }
  }
  w.emit('l', 7, 0, {});
  w.emit('r', 7, 0, {}, { ret: total });
  return { trace: w.trace(), truth: w.truth };
}

/** The columns of `makeLoopTrace`'s trace as they are emitted, with its ground truth. */
class LoopTraceWriter {
  constructor(events, sampleEvery, gap) {
    Object.assign(this, { totalRaw: events, sampleEvery, gap });
    this.kinds = []; this.lines = []; this.frameCol = []; this.locals = []; this.returns = []; this.stdout = [];
    this.frames = [{ id: 0, function: 'main', parent: null, line: 1 }];
    this.truth = new Map();
    this.state = new Map([[0, {}]]); // frame id -> {name: number}
    this.raw = 0; // raw (pre-gap) event counter
    this.seenAfterGap = new Set();
    this.stdoutLines = 0;
    this.nextId = 1;
  }

  /** Is raw event `r` kept? (The tail window is chosen against the requested size.) */
  keepRaw(r) {
    return !this.gap || r < this.gap.head || r >= this.totalRaw - this.gap.tail;
  }

  /** Emit one event; `set` = changed locals (numbers); returns the kept index or -1. */
  emit(kind, line, f, set, { full = false, ret } = {}) {
    const st = this.state.get(f);
    if (full) for (const k of Object.keys(st)) delete st[k];
    Object.assign(st, set);
    const r = this.raw++;
    if (!this.keepRaw(r)) return -1;
    const idx = this.kinds.length;
    this.kinds.push(kind);
    this.lines.push(line);
    this.frameCol.push(f);
    let isFull = full;
    let changed = set;
    if (this.gap && r >= this.gap.head && !this.seenAfterGap.has(f)) {
      // First kept event of this frame after the gap: the recorder sends all locals.
      this.seenAfterGap.add(f);
      isFull = true;
      changed = { ...st };
    }
    if (isFull || Object.keys(changed).length) {
      const s = {};
      for (const [k, v] of Object.entries(changed)) s[k] = { t: 'int', r: String(v) };
      this.locals.push({ i: idx, f, set: s, del: [], full: isFull });
    }
    if (ret !== undefined) this.returns.push([idx, { t: 'int', r: String(ret) }]);
    if (idx % this.sampleEvery === 0) {
      this.truth.set(idx, { line, frame: f, kind, depth: f === 0 ? 0 : 1, locals: { ...st }, stdoutLines: this.stdoutLines });
    }
    return idx;
  }

  /** Line 6: `total = helper(total, i)`, the call's events; returns the new total. */
  helperCall(total, i) {
    this.emit('l', 6, 0, {});
    const h = this.nextId++;
    this.frames.push({ id: h, function: 'helper', parent: 0, line: 10 });
    this.state.set(h, {});
    this.emit('c', 10, h, { t: total, i }, { full: true });
    this.emit('l', 11, h, {});
    // print(i) runs after the 'l 11' event: output attributed to it.
    const y = total % 1000;
    const e11 = this.kinds.length - 1;
    if (this.keepRaw(this.raw - 1)) {
      this.stdout.push([e11, `${i}\n`]);
      this.stdoutLines++;
    }
    this.emit('l', 12, h, {});
    this.emit('l', 13, h, { y });
    this.emit('r', 13, h, {}, { ret: y + i });
    this.state.delete(h);
    return y + i;
  }

  trace() {
    const gap = this.gap;
    return pooled({
      format: 'stepwise-trace',
      source: 'py/demo/loop.py',
      function: 'main',
      case: 'synthetic',
      python: '3.14.2',
      backend: 'settrace',
      frames: this.frames,
      events: { kind: this.kinds.join(''), line: this.lines, frame: this.frameCol },
      gap: gap ? { after: gap.head - 1, dropped: this.raw - this.kinds.length } : null,
      locals: this.locals,
      returns: this.returns,
      exceptions: [],
      stdout: this.stdout,
      stdout_text: this.stdout.map((s) => s[1]).join(''),
      end: { status: 'returned', reason: gap ? 'max_events' : null, exception: null, ms: 1 },
      files: [],
      stats: { events: this.raw, kept: this.kinds.length, calls: this.frames.length, elapsed_ms: 1, stdout_truncated: false },
    });
  }
}
