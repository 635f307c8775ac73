// Replay engine tests: hand-written traces for every move and query, then a
// generated 1,000,000-event trace for correctness at far indexes and timings.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Replay, ConditionError } from '../../site/js/replay.js';
import { buildTrace, makeLoopTrace } from './make-trace.mjs';

/** Plain {name: repr} of localsAt(i).vars, for compact assertions. */
function reprs(r, i) {
  return Object.fromEntries([...r.localsAt(i).vars].map(([k, v]) => [k, v.r]));
}

/** Event indexes visited by repeating a move until the run finishes. */
function walk(r, move) {
  const seen = [];
  for (let guard = 0; guard < 10_000; guard++) {
    const m = r[move]();
    seen.push(m.index);
    if (m.reason === 'end') return seen;
  }
  throw new Error('walk did not finish');
}

// ---------------------------------------------------------------------------
// Trace A: a loop calling a helper, with output.
//  1 def main(xs):
//  2     total = 0
//  3     for x in xs:
//  4         total = add(total, x)
//  5     print(total)
//  6     return total
//  8 def add(a, b):
//  9     s = a + b
// 10     return s
const A = () =>
  buildTrace({
    frames: [
      { id: 0, function: 'main', parent: null, line: 1 },
      { id: 1, function: 'add', parent: 0, line: 8 },
      { id: 2, function: 'add', parent: 0, line: 8 },
    ],
    events: [
      ['c', 1, 0], // 0
      ['l', 2, 0], // 1
      ['l', 3, 0], // 2
      ['l', 4, 0], // 3
      ['c', 8, 1], // 4
      ['l', 9, 1], // 5
      ['l', 10, 1], // 6
      ['r', 10, 1], // 7
      ['l', 3, 0], // 8
      ['l', 4, 0], // 9
      ['c', 8, 2], // 10
      ['l', 9, 2], // 11
      ['l', 10, 2], // 12
      ['r', 10, 2], // 13
      ['l', 3, 0], // 14
      ['l', 5, 0], // 15
      ['l', 6, 0], // 16
      ['r', 6, 0], // 17
    ],
    locals: [
      { i: 0, f: 0, set: { xs: [1, 2] }, full: true },
      { i: 2, f: 0, set: { total: 0 } },
      { i: 3, f: 0, set: { x: 1 } },
      { i: 4, f: 1, set: { a: 0, b: 1 }, full: true },
      { i: 6, f: 1, set: { s: 1 } },
      { i: 8, f: 0, set: { total: 1 } },
      { i: 9, f: 0, set: { x: 2 } },
      { i: 10, f: 2, set: { a: 1, b: 2 }, full: true },
      { i: 12, f: 2, set: { s: 3 } },
      { i: 14, f: 0, set: { total: 3 } },
    ],
    returns: [[7, 1], [13, 3], [17, 3]],
    stdout: [[-1, 'setup\n'], [15, '3\n']],
  });
const A_STOPS = [1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17];

// Trace B: recursion.
//  1 def fact(n):
//  2     if n <= 1:
//  3         return 1
//  4     return n * fact(n - 1)
const B = () =>
  buildTrace({
    frames: [
      { id: 0, function: 'fact', parent: null, line: 1 },
      { id: 1, function: 'fact', parent: 0, line: 1 },
      { id: 2, function: 'fact', parent: 1, line: 1 },
    ],
    events: [
      ['c', 1, 0], // 0
      ['l', 2, 0], // 1
      ['l', 4, 0], // 2
      ['c', 1, 1], // 3
      ['l', 2, 1], // 4
      ['l', 4, 1], // 5
      ['c', 1, 2], // 6
      ['l', 2, 2], // 7
      ['l', 3, 2], // 8
      ['r', 3, 2], // 9
      ['r', 4, 1], // 10
      ['r', 4, 0], // 11
    ],
    locals: [
      { i: 0, f: 0, set: { n: 3 }, full: true },
      { i: 3, f: 1, set: { n: 2 }, full: true },
      { i: 6, f: 2, set: { n: 1 }, full: true },
    ],
    returns: [[9, 1], [10, 2], [11, 6]],
  });

// Trace C: exceptions, settrace style (an 'x' then the frame's 'r').
//  1 def main():
//  2     try:
//  3         risky(0)
//  4     except ZeroDivisionError:
//  5         print('caught')
//  6     risky(0)
//  8 def risky(d):
//  9     return 1 / d
const ZDE = { type: 'ZeroDivisionError', message: 'division by zero' };
const C = () =>
  buildTrace({
    frames: [
      { id: 0, function: 'main', parent: null, line: 1 },
      { id: 1, function: 'risky', parent: 0, line: 8 },
      { id: 2, function: 'risky', parent: 0, line: 8 },
    ],
    events: [
      ['c', 1, 0], // 0
      ['l', 2, 0], // 1
      ['l', 3, 0], // 2
      ['c', 8, 1], // 3
      ['l', 9, 1], // 4
      ['x', 9, 1], // 5
      ['r', 9, 1], // 6
      ['x', 3, 0], // 7
      ['l', 4, 0], // 8
      ['l', 5, 0], // 9
      ['l', 6, 0], // 10
      ['c', 8, 2], // 11
      ['l', 9, 2], // 12
      ['x', 9, 2], // 13
      ['r', 9, 2], // 14
      ['x', 6, 0], // 15
      ['r', 6, 0], // 16
    ],
    locals: [
      { i: 0, f: 0, set: {}, full: true },
      { i: 3, f: 1, set: { d: 0 }, full: true },
      { i: 11, f: 2, set: { d: 0 }, full: true },
    ],
    exceptions: [[5, ZDE], [7, ZDE], [13, ZDE], [15, ZDE]],
    stdout: [[9, 'caught\n']],
    end: { status: 'raised', reason: null, exception: { ...ZDE, line: 6, in_source: true }, ms: 1 },
  });

// Trace D: del, and a gap whose tail starts with a `full` delta.
const D = () =>
  buildTrace({
    frames: [
      { id: 0, function: 'f', parent: null, line: 1 },
      { id: 7, function: 'g', parent: 0, line: 20 },
    ],
    events: [
      ['c', 1, 0], // 0
      ['l', 2, 0], // 1
      ['l', 3, 0], // 2
      ['l', 4, 0], // 3
      ['l', 5, 0], // 4   (gap after this event)
      ['c', 20, 7], // 5  first kept event after the gap, in a helper
      ['l', 21, 7], // 6
      ['r', 21, 7], // 7
      ['l', 6, 0], // 8
      ['l', 7, 0], // 9
      ['r', 7, 0], // 10
    ],
    locals: [
      { i: 0, f: 0, set: {}, full: true },
      { i: 2, f: 0, set: { a: 1 } },
      { i: 3, f: 0, set: { b: 2, d: 5 } },
      { i: 4, f: 0, del: ['a'] },
      { i: 5, f: 7, set: { q: 'x' }, full: true },
      { i: 8, f: 0, set: { b: 7, c: 9 }, full: true }, // first event of f after the gap
      { i: 9, f: 0, set: { c: 10 } },
    ],
    gap: { after: 4, dropped: 100 },
    end: { status: 'stopped', reason: 'max_events', exception: null, ms: 1 },
  });

// ---------------------------------------------------------------------------

describe('construction and validation', () => {
  test('values are read from the pool, and an index outside it is refused', () => {
    const r = new Replay(A());
    const returned = [...Array(r.eventCount).keys()].map((i) => r.returnAt(i)).filter(Boolean);
    assert.ok(returned.length > 0 && returned.every((v) => typeof v.t === 'string' && typeof v.r === 'string'));
    const bad = A();
    bad.locals[0].set[Object.keys(bad.locals[0].set)[0]] = bad.values.length;
    assert.throws(() => new Replay(bad), /outside "values"/);
  });

  test('rejects non-traces with clear messages', () => {
    assert.throws(() => new Replay(null), /Not a Stepwise trace/);
    assert.throws(() => new Replay({ format: 'other', version: 1 }), /format is "other"/);
    assert.throws(() => new Replay({ ...A(), version: 4 }), /Unsupported Stepwise trace version 4/);
    assert.throws(() => new Replay({ ...A(), version: 2 }), /Unsupported Stepwise trace version 2 \(this page reads version 3\)/);
    assert.throws(() => new Replay({ ...A(), values: undefined }), /"values" must be a list/);
    const t1 = A();
    t1.events.line.pop();
    assert.throws(() => new Replay(t1), /events\.line must have 18 entries/);
    const t2 = A();
    t2.events.frame[3] = 99;
    assert.throws(() => new Replay(t2), /events\.frame\[3\] refers to unknown frame 99/);
    const t3 = A();
    t3.events.kind = t3.events.kind.slice(0, 5) + 'q' + t3.events.kind.slice(6);
    assert.throws(() => new Replay(t3), /events\.kind\[5\] is 'q'/);
    const t4 = A();
    t4.locals[1].f = 42;
    assert.throws(() => new Replay(t4), /locals\[1\]\.f refers to unknown frame 42/);
    const t5 = A();
    t5.frames[1].parent = 55;
    assert.throws(() => new Replay(t5), /unknown parent 55/);
  });

  test('facts and initial position', () => {
    const r = new Replay(A());
    assert.equal(r.eventCount, 18);
    assert.equal(r.totalStops, A_STOPS.length);
    assert.deepEqual(r.position(), { index: 1, line: 2, frame: 0, kind: 'l', stepNumber: 1, totalStops: 15, finished: false });
    assert.equal(r.atStart, true);
    assert.deepEqual(r.eventAt(4), { index: 4, kind: 'c', line: 8, frame: 1, depth: 1 });
    assert.equal(r.eventAt(18), null);
  });

  test('a trace without stops starts finished', () => {
    const r = new Replay(buildTrace({ frames: [{ id: 0, function: 'f', parent: null, line: 1 }], events: [['c', 1, 0]] }));
    assert.deepEqual(r.start(), { index: 1, reason: 'end' });
    assert.equal(r.finished, true);
    assert.deepEqual(r.stepInto(), { index: 1, reason: 'end' });
    assert.deepEqual(r.stepBack(), { index: 1, reason: 'end' });
  });

  test('unsorted locals and stdout are tolerated', () => {
    const t = A();
    t.locals.reverse();
    t.stdout.reverse();
    const r = new Replay(t);
    assert.deepEqual(reprs(r, 9), { xs: '[...]', total: '1', x: '2' });
    assert.equal(r.stdoutUntil(18), 'setup\n3\n');
  });
});

describe('moves', () => {
  test('start / stepInto visits every stop, skipping calls; finishes', () => {
    const r = new Replay(A());
    r.stepInto();
    assert.deepEqual(r.start(), { index: 1, reason: 'start' });
    const seen = walk(r, 'stepInto');
    assert.deepEqual(seen, [...A_STOPS.slice(1), 18]);
    assert.equal(r.finished, true);
    assert.equal(r.atEnd, true);
    assert.deepEqual(r.position(), { index: 18, line: null, frame: null, kind: null, stepNumber: 15, totalStops: 15, finished: true });
  });

  test('reverseStepInto exactly inverts stepInto', () => {
    for (const make of [A, B, C, D]) {
      const r = new Replay(make());
      const forward = [r.start().index, ...walk(r, 'stepInto')];
      const back = [];
      for (;;) {
        const m = r.reverseStepInto();
        back.push(m.index);
        if (m.reason === 'start') break;
      }
      // From finished, back lands on the last stop ... down to the first, which repeats with 'start'.
      assert.deepEqual(back, [...forward.slice(0, -1).reverse(), forward[0]]);
      // Interleaved: into, back returns to the same place, at every stop.
      r.start();
      while (!r.atEnd) {
        const here = r.index;
        r.stepInto();
        assert.equal(r.reverseStepInto().index, here);
        r.stepInto();
      }
    }
  });

  test('stepBack is the reverse of stepOver: a call is stepped back over as a whole', () => {
    for (const make of [A, B, C, D]) {
      const r = new Replay(make());
      r.start();
      const stops = [r.index, ...walk(r, 'stepInto')].slice(0, -1);
      for (const here of stops) {
        r.seek(here);
        if (r.eventAt(here).kind === 'r') continue; // over from a return goes to the caller: not invertible
        const over = r.stepOver();
        if (over.reason === 'end') continue;
        assert.equal(r.stepBack().index, here, `${make.name}: back from ${over.index} should reach ${here}`);
      }
    }
    const r = new Replay(A());
    r.seek(8); // main line 3, after add(…) returned at event 7
    assert.deepEqual(r.stepBack(), { index: 3, reason: 'step' }); // the calling line, not add's return
    r.seek(5); // add's first line
    assert.deepEqual(r.stepBack(), { index: 3, reason: 'step' }); // back out to the line that called it
    r.seek(8);
    assert.deepEqual(r.reverseStepInto(), { index: 7, reason: 'step' }); // into the callee's return
  });

  test('reverseContinue goes to the previous hit, conditions and hit counts applied', () => {
    const r = new Replay(A());
    r.setBreakpoint(9); // add's first line: events 5 and 11
    r.toEnd();
    assert.deepEqual(r.reverseContinue(), { index: 11, reason: 'breakpoint' });
    assert.deepEqual(r.reverseContinue(), { index: 5, reason: 'breakpoint' });
    assert.deepEqual(r.reverseContinue(), { index: 1, reason: 'start' }); // none left: the first stop
    r.setBreakpoint(9, { condition: 'a == 0' }); // true at event 5 only
    r.toEnd();
    assert.deepEqual(r.reverseContinue(), { index: 5, reason: 'breakpoint' });
    assert.equal(r.localsAt(5).vars.get('a').r, '0');
    r.setBreakpoint(9, { hitCount: 2 });
    r.toEnd();
    assert.deepEqual(r.reverseContinue(), { index: 11, reason: 'breakpoint' });
    assert.deepEqual(r.reverseContinue(), { index: 1, reason: 'start' }); // event 5 is only the first hit
    r.setBreakpoint(9, { enabled: false });
    r.toEnd();
    assert.deepEqual(r.reverseContinue(), { index: 1, reason: 'start' });
  });

  test('stepOver stays in the frame, shows the return, then the caller', () => {
    const r = new Replay(A());
    r.seek(3); // main line 4, about to call add
    assert.deepEqual(r.stepOver(), { index: 8, reason: 'step' }); // main line 3 again
    assert.deepEqual(walk(r, 'stepOver'), [9, 14, 15, 16, 17, 18]);
    // Inside the helper: over its lines, stop at its return, then the caller.
    r.seek(5);
    assert.deepEqual([r.stepOver(), r.stepOver(), r.stepOver()].map((m) => m.index), [6, 7, 8]);
  });

  test('stepInto enters the helper at its first line (never at the call event)', () => {
    const r = new Replay(A());
    r.seek(3);
    assert.deepEqual(r.stepInto(), { index: 5, reason: 'step' });
    assert.deepEqual(r.localsAt(5).frame, { id: 1, function: 'add', parent: 0, line: 8 });
  });

  test("stepOut: to the caller's next stop, which says what returned", () => {
    const r = new Replay(A());
    r.seek(5);
    assert.deepEqual(r.stepOut(), { index: 8, reason: 'step' });
    assert.deepEqual(r.leftBefore(8), { function: 'add', index: 7 });
    assert.equal(r.leftBefore(5), null);
    assert.deepEqual(r.stepOut(), { index: 18, reason: 'end' }); // main has no caller: the run ends
    assert.deepEqual(r.stepOut(), { index: 18, reason: 'end' });
  });

  test('recursion: over/out use the frame, not the function', () => {
    const r = new Replay(B());
    r.seek(2); // outermost fact, line 4
    assert.deepEqual(r.stepOver(), { index: 11, reason: 'step' });
    r.seek(5); // middle frame, line 4
    assert.deepEqual(r.stepOver(), { index: 10, reason: 'step' });
    r.seek(2);
    assert.deepEqual(walk(r, 'stepInto'), [4, 5, 7, 8, 9, 10, 11, 12]);
    r.seek(7); // innermost
    assert.deepEqual(r.stepOut(), { index: 10, reason: 'step' });
    assert.deepEqual(r.stepOver(), { index: 11, reason: 'step' });
    r.seek(9);
    assert.deepEqual(r.stepOver(), { index: 10, reason: 'step' });
    assert.deepEqual(r.stackAt(8).map(({ def, ...frame }) => frame), [
      { id: 0, function: 'fact', line: 4 },
      { id: 1, function: 'fact', line: 4 },
      { id: 2, function: 'fact', line: 3 },
    ]);
    assert.deepEqual(reprs(r, 8), { n: '1' });
    assert.deepEqual(reprs(r, 10), { n: '2' });
    assert.deepEqual(r.returnAt(11), { t: 'int', r: '6' });
  });

  test('exceptions: stops at x events; over/out across them', () => {
    const r = new Replay(C());
    assert.deepEqual(r.exceptionAt(5), ZDE);
    assert.equal(r.exceptionAt(4), null);
    r.seek(2); // main line 3: risky(0) raises
    assert.deepEqual(r.stepOver(), { index: 7, reason: 'step' }); // the exception arriving in main
    assert.deepEqual(r.stepOver(), { index: 8, reason: 'step' }); // except clause
    r.seek(4);
    assert.deepEqual(r.stepInto(), { index: 5, reason: 'step' });
    assert.deepEqual(r.stepOver(), { index: 6, reason: 'step' }); // an 'x' followed by its frame's 'r' is not the end
    assert.deepEqual(r.stepOver(), { index: 7, reason: 'step' });
    r.seek(4);
    assert.deepEqual(r.stepOut(), { index: 7, reason: 'step' }); // in main, where the exception arrives
    assert.deepEqual(r.leftBefore(7), { function: 'risky', index: 5 }); // its 'x' (the 'r' after it has no value)
    assert.deepEqual(r.exceptionAt(5), ZDE);
    r.seek(12);
    assert.deepEqual(walk(r, 'stepOver'), [13, 14, 15, 16, 17]);
    r.toEnd();
    assert.equal(r.stdoutUntil(r.index), 'caught\n');
  });

  test("exceptions, monitoring style: an 'x' that is the frame's last event ends it", () => {
    const t = C();
    // Drop the 'r' after each 'x' in risky (events 6 and 14) by making the
    // trace without them.
    const keep = (i) => i !== 6 && i !== 14;
    const remap = new Map();
    let j = 0;
    for (let i = 0; i < 17; i++) if (keep(i)) remap.set(i, j++);
    t.events = {
      kind: [...t.events.kind].filter((_, i) => keep(i)).join(''),
      line: t.events.line.filter((_, i) => keep(i)),
      frame: t.events.frame.filter((_, i) => keep(i)),
    };
    t.locals = t.locals.map((d) => ({ ...d, i: remap.get(d.i) }));
    t.exceptions = t.exceptions.map(([e, x]) => [remap.get(e), x]);
    t.stdout = t.stdout.map(([e, s]) => [remap.get(e), s]);
    const r = new Replay(t);
    r.seek(4); // risky line 9
    assert.deepEqual(r.stepOut(), { index: 6, reason: 'step' }); // main's 'x' at line 3
    assert.deepEqual(r.leftBefore(6), { function: 'risky', index: 5 }); // left by its final 'x'
    r.seek(5);
    assert.deepEqual(r.stepOver(), { index: 6, reason: 'step' });
  });

  test('seek and seekStep snap to stops', () => {
    const r = new Replay(A());
    assert.deepEqual(r.seek(4), { index: 3, reason: 'step' }); // 'c' event: the stop before it
    assert.deepEqual(r.seek(0), { index: 1, reason: 'start' });
    assert.deepEqual(r.seek(-5), { index: 1, reason: 'start' });
    assert.deepEqual(r.seek(17), { index: 17, reason: 'step' });
    assert.deepEqual(r.seek(18), { index: 18, reason: 'end' });
    assert.deepEqual(r.seekStep(5), { index: 6, reason: 'step' });
    assert.equal(r.position().stepNumber, 5);
    assert.deepEqual(r.seekStep(1), { index: 1, reason: 'start' });
    assert.deepEqual(r.seekStep(99), { index: 18, reason: 'end' });
    assert.deepEqual(r.toEnd(), { index: 18, reason: 'end' });
    assert.deepEqual(r.stepBack(), { index: 17, reason: 'step' });
    assert.equal(r.atEnd, true);
    assert.equal(r.finished, false);
  });
});

describe('breakpoints', () => {
  test('toggle, continue, continueFromStart, list', () => {
    const r = new Replay(A());
    assert.equal(r.toggleBreakpoint(9), true);
    assert.deepEqual(r.breakpoints(), [{ line: 9, condition: null, hitCount: null, enabled: true, log: null, error: null }]);
    assert.deepEqual(r.continue(), { index: 5, reason: 'breakpoint' });
    assert.deepEqual(r.continue(), { index: 11, reason: 'breakpoint' });
    assert.deepEqual(r.continue(), { index: 18, reason: 'end' });
    assert.deepEqual(r.continue(), { index: 18, reason: 'end' });
    assert.equal(r.toggleBreakpoint(9), false);
    assert.deepEqual(r.breakpoints(), []);
    r.toggleBreakpoint(2);
    r.start();
    assert.deepEqual(r.continue(), { index: 18, reason: 'end' }); // the cursor already is on line 2
    assert.deepEqual(r.continueFromStart(), { index: 1, reason: 'breakpoint' });
    r.clearBreakpoints();
    assert.deepEqual(r.continueFromStart(), { index: 18, reason: 'end' });
    assert.deepEqual(r.continue(), { index: 18, reason: 'end' });
    r.toggleBreakpoint(99); // a line with no events never hits
    r.start();
    assert.deepEqual(r.continue(), { index: 18, reason: 'end' });
  });

  test('a log point never pauses; it lists its hits, conditions and hit counts applied', () => {
    const r = new Replay(A());
    r.setBreakpoint(9, { log: 'a={a}' });
    r.setBreakpoint(4, { log: 'x is {x}', condition: 'x > 1' });
    assert.deepEqual(r.continueFromStart(), { index: 18, reason: 'end' });
    assert.deepEqual(r.logHits(18).hits.map(({ line, index }) => [line, index]), [[9, 5], [4, 9], [9, 11]]);
    assert.deepEqual(r.logHits(9).hits.map(({ index }) => index), [5, 9]);   // up to here, this one included
    assert.deepEqual(r.logHits(18, 1), { hits: [{ line: 4, index: 9, message: 'x is {x}', error: null },
      { line: 9, index: 5, message: 'a={a}', error: null }].sort((a, b) => a.index - b.index), cut: [9] });
    r.setBreakpoint(9, { log: 'a={a}', hitCount: 2 });
    assert.deepEqual(r.logHits(18).hits.map(({ index }) => index), [9, 11]);
    r.setBreakpoint(9, { log: 'a={a}', enabled: false });
    assert.deepEqual(r.logHits(18).hits.map(({ index }) => index), [9]);
  });

  test('run to here: the next arrival at the line, a breakpoint on the way first', () => {
    const r = new Replay(A());
    assert.deepEqual(r.runToLine(9), { index: 5, reason: 'step' });
    assert.deepEqual(r.runToLine(9), { index: 11, reason: 'step' });
    assert.deepEqual(r.runToLine(9), { index: 18, reason: 'end' });   // not reached again: the run ends
    assert.deepEqual(r.runToLine(2, { fromStart: true }), { index: 1, reason: 'step' });
    r.setBreakpoint(10);
    r.start();
    assert.deepEqual(r.runToLine(5), { index: 6, reason: 'breakpoint' });
    assert.deepEqual(r.runToLine(5, { fromStart: true }), { index: 6, reason: 'breakpoint' });
    r.setBreakpoint(10, { log: 'here' });   // a log point does not stop it
    assert.deepEqual(r.runToLine(5, { fromStart: true }), { index: 15, reason: 'step' });
  });

  test('disabled breakpoints are kept but ignored', () => {
    const r = new Replay(A());
    r.setBreakpoint(9, { enabled: false });
    assert.deepEqual(r.continue(), { index: 18, reason: 'end' });
    assert.equal(r.breakpoints()[0].enabled, false);
  });

  test('stepping over or out pauses at a breakpoint on the way', () => {
    const r = new Replay(A());
    r.toggleBreakpoint(10);
    r.seek(3);
    assert.deepEqual(r.stepOver(), { index: 6, reason: 'breakpoint' });
    assert.deepEqual(r.stepOut(), { index: 8, reason: 'step' });
    r.seek(5);
    assert.deepEqual(r.stepInto(), { index: 6, reason: 'breakpoint' });
    r.seek(9);
    assert.deepEqual(r.stepOver(), { index: 12, reason: 'breakpoint' });
    assert.deepEqual(r.stepBack(), { index: 11, reason: 'step' });
  });

  test('conditions over the frame locals at that event', () => {
    const r = new Replay(A());
    r.setBreakpoint(9, { condition: 'a == 1 and b > 1' });
    assert.deepEqual(r.continue(), { index: 11, reason: 'breakpoint' });
    r.clearBreakpoints();
    r.setBreakpoint(4, { condition: 'x == 2' });
    r.start();
    assert.deepEqual(r.continue(), { index: 9, reason: 'breakpoint' });
    r.setBreakpoint(4, { condition: 'len(xs) == 2 and xs[-1] == x' }); // replaces
    assert.equal(r.breakpoints().length, 1);
    r.start();
    assert.deepEqual(r.continue(), { index: 9, reason: 'breakpoint' });
    r.setBreakpoint(3, { condition: 'total is not None and total > 0' });
    r.removeBreakpoint(4);
    r.start();
    assert.deepEqual(r.continue(), { index: 8, reason: 'breakpoint' });
  });

  test('hit counts: the Nth hit and later, counted from the start of the trace', () => {
    const r = new Replay(A());
    r.setBreakpoint(3, { hitCount: 2 }); // line 3 runs at 2, 8, 14
    assert.deepEqual(r.continue(), { index: 8, reason: 'breakpoint' });
    assert.deepEqual(r.continue(), { index: 14, reason: 'breakpoint' });
    r.seek(9);
    assert.deepEqual(r.continue(), { index: 14, reason: 'breakpoint' }); // not "2nd since the seek"
    r.setBreakpoint(3, { condition: 'total > 0', hitCount: 2 }); // true at 8 and 14
    r.start();
    assert.deepEqual(r.continue(), { index: 14, reason: 'breakpoint' });
    r.stepBack();
    r.stepBack();
    assert.deepEqual(r.continue(), { index: 14, reason: 'breakpoint' });
    r.setBreakpoint(3, { hitCount: 4 });
    r.start();
    assert.deepEqual(r.continue(), { index: 18, reason: 'end' });
    assert.throws(() => r.setBreakpoint(3, { hitCount: 0 }), /hit count must be a positive integer/);
    assert.throws(() => r.setBreakpoint(0), /positive integer/);
  });

  test('a condition that cannot be evaluated stops there and is reported (as bdb does)', () => {
    const r = new Replay(A());
    r.setBreakpoint(9, { condition: 'missing > 1' });
    // add's line 9 runs at events 5 and 11: each evaluation fails, each is a stop.
    assert.deepEqual(r.continue(), { index: 5, reason: 'breakpoint' });
    assert.deepEqual(r.conditionError, { line: 9, index: 5, message: "cannot tell: 'missing' is not a local here, and module globals are not in the trace" });
    assert.deepEqual(r.continue(), { index: 11, reason: 'breakpoint' });
    assert.deepEqual(r.breakpoints()[0].error, { index: 11, message: "cannot tell: 'missing' is not a local here, and module globals are not in the trace" });
    r.start();
    assert.deepEqual(r.continue(), { index: 5, reason: 'breakpoint' }, 'a cached failure stops again');
    assert.equal(r.conditionError.index, 5);
    r.setBreakpoint(9, { condition: "a > 'x'", hitCount: 5 });
    r.start();
    assert.deepEqual(r.continue(), { index: 5, reason: 'breakpoint' }, 'whatever the hit count');
    assert.match(r.conditionError.message, /'>' not supported between 'int' and 'str'/);
    r.clearBreakpoints();
    assert.equal(r.conditionError, null);
  });

  test('a condition that does not parse throws at setBreakpoint, with its position', () => {
    const r = new Replay(A());
    const cases = [
      ['a ==', 4, /unexpected end/],
      ['a = 1', 2, /use '=='/],
      ['print(a)', 0, /print\(\) is not supported/],
      ['x.', 1, /attribute name after '\.'/],
      ['(a', 2, /expected '\)'/],
      ["'abc", 0, /unterminated string/],
      ['a +* b', 3, /unexpected '\*'/],
      ['a not b', 6, /expected 'in' after 'not'/],
      ['xs.append(1)', 3, /would change the program's value/],
      ['a b', 2, /unexpected 'b'/],
    ];
    for (const [src, pos, msg] of cases) {
      let err;
      try {
        r.setBreakpoint(4, { condition: src });
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof ConditionError, `${src}: expected a ConditionError`);
      assert.equal(err.position, pos, `${src}: position`);
      assert.match(err.message, msg, src);
      assert.match(err.message, new RegExp(`column ${pos + 1}`));
    }
    // An empty condition means "no condition".
    assert.equal(r.setBreakpoint(4, { condition: '  ' }).condition, null);
    // A failed set leaves the previous breakpoint alone.
    r.clearBreakpoints();
    r.setBreakpoint(4, { condition: 'x == 1' });
    assert.throws(() => r.setBreakpoint(4, { condition: 'x ==' }), ConditionError);
    assert.equal(r.breakpoints()[0].condition, 'x == 1');
  });
});

describe('queries', () => {
  test('localsAt folds deltas; changed marks names set at that event', () => {
    const r = new Replay(A());
    const at4 = r.localsAt(4);
    assert.equal(at4.frame.function, 'add');
    assert.deepEqual(reprs(r, 4), { a: '0', b: '1' });
    assert.deepEqual([...at4.changed], ['a', 'b']);
    assert.deepEqual(reprs(r, 5), { a: '0', b: '1' });
    assert.deepEqual([...r.localsAt(5).changed], []);
    assert.deepEqual(reprs(r, 6), { a: '0', b: '1', s: '1' });
    assert.deepEqual([...r.localsAt(6).changed], ['s']);
    assert.deepEqual(reprs(r, 8), { xs: '[...]', total: '1', x: '1' });
    assert.deepEqual([...r.localsAt(8).changed], ['total']);
    assert.deepEqual(reprs(r, 12), { a: '1', b: '2', s: '3' }); // second add frame: its own locals
    assert.deepEqual(r.localsAt(18), { frame: null, vars: new Map(), changed: new Set() });
  });

  test('localsAt: del removes a name, full replaces all (gap)', () => {
    const r = new Replay(D());
    assert.deepEqual(reprs(r, 3), { a: '1', b: '2', d: '5' });
    assert.deepEqual(reprs(r, 4), { b: '2', d: '5' });
    assert.deepEqual([...r.localsAt(4).changed], []);
    assert.deepEqual(reprs(r, 8), { b: '7', c: '9' }); // d gone: not in the full delta
    assert.deepEqual([...r.localsAt(8).changed].sort(), ['b', 'c']);
    assert.deepEqual(reprs(r, 9), { b: '7', c: '10' });
    assert.deepEqual(reprs(r, 6), { q: "'x'" });
  });

  test('gap: info, marker, stepping across it, stack of a frame after it', () => {
    const r = new Replay(D());
    assert.deepEqual(r.gapInfo(), { after: 4, dropped: 100, firstAfter: 5 });
    assert.equal(r.isAfterGap(4), false);
    assert.equal(r.isAfterGap(5), true);
    assert.equal(r.isAfterGap(6), true); // first stop after the gap
    assert.equal(r.isAfterGap(7), false);
    r.seek(4);
    assert.deepEqual(r.stepInto(), { index: 6, reason: 'step' });
    assert.deepEqual(r.reverseStepInto(), { index: 4, reason: 'step' });
    assert.deepEqual(r.stepOver(), { index: 8, reason: 'step' }); // f's next line; g (deeper) runs through
    assert.deepEqual(r.stackAt(6).map(({ def, ...frame }) => frame), [
      { id: 0, function: 'f', line: 5 }, // f's latest kept event is before the gap
      { id: 7, function: 'g', line: 21 },
    ]);
    assert.equal(new Replay(A()).gapInfo(), null);
    assert.equal(new Replay(A()).isAfterGap(5), false);
  });

  test('stackAt: innermost last, callers at their call line, each with its def line', () => {
    const r = new Replay(A());
    assert.deepEqual(r.stackAt(6), [
      { id: 0, function: 'main', line: 4, def: 1 },
      { id: 1, function: 'add', line: 10, def: 8 },
    ]);
    assert.deepEqual(r.stackAt(14), [{ id: 0, function: 'main', line: 3, def: 1 }]);
    assert.deepEqual(r.stackAt(18), []);
  });

  test('localsAt of a caller frame: its variables as of the current event', () => {
    const r = new Replay(A());
    const inner = r.localsAt(6);
    const caller = r.localsAt(6, 0);
    assert.equal(inner.frame.id, 1);
    assert.equal(caller.frame.id, 0);
    assert.deepEqual([...caller.vars.keys()].sort(), [...r.localsAt(3).vars.keys()].sort());
    assert.equal(r.localsAt(6, 99).frame, null);
  });

  test('stdoutUntil: entries written before the paused event; setup always', () => {
    const r = new Replay(A());
    assert.equal(r.stdoutUntil(0), 'setup\n');
    assert.equal(r.stdoutUntil(15), 'setup\n'); // about to run print()
    assert.equal(r.stdoutUntil(16), 'setup\n3\n'); // print() ran
    assert.equal(r.stdoutUntil(r.eventCount), 'setup\n3\n');
  });

  test('returnAt / exceptionAt', () => {
    const r = new Replay(A());
    assert.deepEqual(r.returnAt(7), { t: 'int', r: '1' });
    assert.equal(r.returnAt(6), null);
    assert.equal(r.exceptionAt(7), null);
  });
});

// ---------------------------------------------------------------------------
// 1,000,000 events

/** Run fn `reps` times; return the max and mean milliseconds. */
function time(reps, fn) {
  let max = 0, sum = 0;
  for (let k = 0; k < reps; k++) {
    const t = performance.now();
    fn(k);
    const dt = performance.now() - t;
    sum += dt;
    if (dt > max) max = dt;
  }
  return { max: +max.toFixed(3), mean: +(sum / reps).toFixed(3) };
}

describe('1,000,000 events', () => {
  const { trace, truth } = makeLoopTrace({ events: 1_000_000, helperEvery: 5 });
  const t0 = performance.now();
  const r = new Replay(trace);
  const constructMs = performance.now() - t0;
  const n = r.eventCount;
  // Far events to test at: line-6 events (the call) in the last tenth.
  const line6 = [];
  for (let i = n - 100_000; i < n; i++) if (trace.events.line[i] === 6) line6.push(i);

  test('construction', () => {
    assert.ok(n >= 999_000, `n = ${n}`);
    console.log(`[1M] events=${n} stops=${r.totalStops} deltas=${trace.locals.length} construct=${constructMs.toFixed(1)} ms`);
  });

  test('locals, position, stack and stdout match the generator at sampled indexes', () => {
    assert.ok(truth.size > 90);
    for (const [i, want] of truth) {
      const got = Object.fromEntries([...r.localsAt(i).vars].map(([k, v]) => [k, Number(v.r)]));
      assert.deepEqual(got, want.locals, `locals at ${i}`);
      const stack = r.stackAt(i);
      assert.equal(stack.length, want.depth + 1);
      assert.equal(stack.at(-1).line, want.line);
      if (want.kind !== 'c') {
        r.seek(i);
        assert.equal(r.position().index, i);
        assert.equal(r.position().line, want.line);
      }
      const out = r.stdoutUntil(i);
      assert.equal(out.length === 0 ? 0 : out.split('\n').length - 1, want.stdoutLines, `stdout at ${i}`);
    }
  });

  test('moves at far indexes', () => {
    const c = line6.at(-3); // main, line 6: calls helper
    r.seek(c);
    assert.deepEqual(r.stepInto(), { index: c + 2, reason: 'step' }); // helper line 11
    assert.equal(r.position().line, 11);
    assert.deepEqual(r.stepOut(), { index: c + 6, reason: 'step' }); // main line 3
    assert.deepEqual(r.leftBefore(c + 6), { function: 'helper', index: c + 5 });
    assert.deepEqual(r.returnAt(c + 5).t, 'int');
    assert.deepEqual(r.reverseStepInto(), { index: c + 5, reason: 'step' });
    r.seek(c + 6);
    assert.deepEqual(r.stepBack(), { index: c, reason: 'step' }); // over the whole call, back to line 6
    r.seek(c);
    assert.deepEqual(r.stepOver(), { index: c + 6, reason: 'step' });
    assert.equal(r.position().line, 3);
    const stack = r.stackAt(c + 3);
    assert.deepEqual(stack.map((s) => s.line), [6, 12]);
    r.setBreakpoint(6);
    r.seek(c);
    assert.deepEqual(r.continue(), { index: line6.at(-2), reason: 'breakpoint' });
    r.clearBreakpoints();
    assert.deepEqual(r.continue(), { index: n, reason: 'end' });
    // The main frame's return is the last stop; stepping out of main ends the run.
    r.seek(n - 1);
    assert.equal(r.position().kind, 'r');
    r.seek(line6.at(-1));
    assert.deepEqual(r.stepOut(), { index: n, reason: 'end' });
  });

  test('conditional and counted breakpoints far into the trace', () => {
    const target = truth.get([...truth.keys()].filter((i) => truth.get(i).line === 4).at(-1));
    const wantI = target.locals.i; // a far loop iteration
    r.setBreakpoint(4, { condition: `i == ${wantI}` });
    let m;
    const tc = time(1, () => { m = r.continueFromStart(); });
    assert.equal(m.reason, 'breakpoint');
    assert.equal(Number(r.localsAt(m.index).vars.get('i').r), wantI);
    const tc2 = time(1, () => r.continueFromStart()); // cached condition results
    r.setBreakpoint(4, { hitCount: wantI + 1 });
    const th = time(1, () => { m = r.continueFromStart(); });
    assert.equal(Number(r.localsAt(m.index).vars.get('i').r), wantI);
    r.clearBreakpoints();
    console.log(`[1M] conditional continue over ${wantI} hits: first=${tc.max} ms, cached=${tc2.max} ms; hitCount continue=${th.max} ms`);
  });

  test('every move lands where the loop puts it, at 200 far calls', () => {
    // Each line-6 event c calls helper: c+1 its call, c+2..c+4 lines 11-13, c+5 its return, c+6 main's line 3.
    const far = line6.slice(-200);
    const stopBefore = (i) => { let j = i - 1; while (trace.events.kind[j] === 'c') j--; return j; };
    for (const c of far) {
      r.seek(c);
      assert.equal(r.stepInto().index, c + 2);
      r.seek(c);
      assert.equal(r.stepOver().index, c + 6);
      r.seek(c + 3);
      assert.equal(r.stepOut().index, c + 6);
      r.seek(c);
      assert.equal(r.stepBack().index, stopBefore(c));
      r.seek(c + 6);
      assert.equal(r.stepBack().index, c);
      assert.equal(r.reverseStepInto().index, stopBefore(c));
      assert.deepEqual(r.stackAt(c + 3).map((s) => s.line), [6, 12]);
    }
    r.start();
    assert.deepEqual(r.stepOut(), { index: n, reason: 'end' }); // out of main: the whole run
    r.setBreakpoint(7);
    r.seek(far[0]);
    assert.equal(r.continue().index, n - 2); // line 7 runs once, after the loop
    r.clearBreakpoints();
    r.setBreakpoint(11, { condition: 'i % 1000 == 995 and t > 0' });
    r.seek(line6[0]);
    const hit = r.continue();
    assert.equal(hit.reason, 'breakpoint');
    assert.equal(Number(r.localsAt(hit.index).vars.get('i').r) % 1000, 995);
    assert.ok(hit.index > line6[0] && trace.events.line[hit.index] === 11);
    assert.equal(r.reverseContinue().reason, 'breakpoint');
    r.clearBreakpoints();
  });
});

describe('1,000,000 events with a gap (runaway windows)', () => {
  const { trace, truth } = makeLoopTrace({ events: 1_000_000, helperEvery: 7, gap: { head: 200_000, tail: 300_000 } });
  const r = new Replay(trace);
  const g = r.gapInfo();

  test('locals after the gap come from the full delta; stepping crosses the gap', () => {
    assert.equal(g.after, 199_999);
    assert.ok(g.dropped > 400_000);
    for (const [i, want] of truth) {
      const got = Object.fromEntries([...r.localsAt(i).vars].map(([k, v]) => [k, Number(v.r)]));
      assert.deepEqual(got, want.locals, `locals at ${i}`);
    }
    r.seek(g.after);
    const before = r.index;
    const m = r.stepInto();
    assert.ok(m.index > g.after);
    assert.equal(r.isAfterGap(m.index), true);
    assert.deepEqual(r.reverseStepInto(), { index: before, reason: 'step' });
    const first = r.localsAt(m.index);
    assert.ok(first.vars.size > 0);
  });
});

describe('conditions per change', () => {
  // A loop whose header is line 4 and body line 5: `i` changes at every pass and `g` every 100 (at
  // i = 0, 100, 200, ...). Pass k's line 5 is event 2 + 2k.
  function loop(n) {
    const events = [['c', 1, 1]];
    const locals = [{ i: 0, f: 1, set: { i: 0, g: 0 }, full: true }];
    for (let k = 0; k < n; k++) {
      events.push(['l', 4, 1]);
      const set = { i: k };
      if (k % 100 === 0) set.g = k / 100;
      locals.push({ i: events.length - 1, f: 1, set });
      events.push(['l', 5, 1]);
    }
    events.push(['r', 6, 1]);
    return new Replay(buildTrace({ events, frames: [{ id: 1, function: 'f', parent: null, line: 1 }], locals }));
  }
  const body = (k) => 2 + 2 * k;

  test('an answer kept while the names are unchanged is never stale', () => {
    const r = loop(2000);
    for (const [condition, k] of [['g == 7', 700], ['g == 7 and i > 750', 751], ['g > 3 and i % 250 == 0', 500]]) {
      r.clearBreakpoints();
      r.setBreakpoint(5, { condition });
      r.start();
      const move = r.continue();
      assert.equal(move.reason, 'breakpoint', condition);
      assert.equal(move.index, body(k), condition);
      assert.equal(r.localsAt(move.index).vars.get('i').r, String(k), condition);
    }
    r.clearBreakpoints();
    r.setBreakpoint(5, { condition: 'g == 7' });
    r.toEnd();
    assert.equal(r.reverseContinue().index, body(799)); // the last hit with g == 7
  });

  test('an error kept for unchanged names is reported at each event it stops', () => {
    const r = loop(500);
    r.setBreakpoint(5, { condition: 'g > "x"' });
    r.start();
    const first = r.continue();       // from the first stop (event 1) to the next hit
    assert.equal(first.index, body(0));
    assert.match(r.conditionError.message, /not supported/);
    const second = r.continue();
    assert.equal(second.index, body(1));
    assert.equal(r.conditionError.index, body(1));
    assert.match(r.conditionError.message, /not supported/);
  });
});

describe('a comprehension is one step of its line', () => {
  // f: line 2 `ys = [x * 2 for x in xs]` (inlined: the line goes round once per item), line 3
  // `s = sum(y for y in ys)` (a <genexpr> frame resumed once per item, on line 3), line 4 return.
  function comprehensions() {
    const events = [['c', 1, 1], ['l', 2, 1], ['l', 2, 1], ['l', 2, 1], ['l', 2, 1], ['l', 3, 1]];
    for (let k = 0; k < 3; k++) events.push(['c', 3, 2], ['l', 3, 2], ['r', 3, 2]);
    events.push(['l', 4, 1], ['r', 4, 1]);
    const frames = [{ id: 1, function: 'f', parent: null, line: 1 }, { id: 2, function: '<genexpr>', parent: 1, line: 3 }];
    return new Replay(buildTrace({ events, frames, locals: [{ i: 0, f: 1, set: {}, full: true }] }));
  }

  test('Step over and Step back pass its items; Step into walks them', () => {
    const r = comprehensions();
    assert.deepEqual(r.stepOver(), { index: 5, reason: 'step' });   // line 2 -> line 3, once
    assert.deepEqual(r.stepOver(), { index: 15, reason: 'step' });  // line 3 -> line 4, the genexpr run through
    assert.deepEqual(r.stepBack(), { index: 5, reason: 'step' });
    assert.deepEqual(r.stepBack(), { index: 1, reason: 'step' });   // where line 2 was arrived at
    assert.deepEqual(r.stepInto(), { index: 2, reason: 'step' });   // the next item
    assert.equal(r.isRepeat(2), true);
    assert.equal(r.isRepeat(1), false);
    assert.equal(r.isRepeat(7), true);                              // the genexpr on its caller's line
  });

  test('a breakpoint on its line hits once per arrival', () => {
    const r = comprehensions();
    r.setBreakpoint(2);
    r.setBreakpoint(3);
    assert.deepEqual(r.continueFromStart(), { index: 1, reason: 'breakpoint' });
    assert.deepEqual(r.continue(), { index: 5, reason: 'breakpoint' });
    assert.deepEqual(r.continue(), { index: 17, reason: 'end' });
  });
});

describe('which lines ran, at 1,000,000 events (issue 34 item 3)', () => {
  const { trace } = makeLoopTrace({ events: 1_000_000, helperEvery: 5 });
  const r = new Replay(trace);
  const n = r.eventCount;
  const kinds = trace.events.kind, lines = trace.events.line;
  // The brute-force answer: every 'l' event that is not a repeat of its line, by line, in order.
  const runs = new Map();
  for (let i = 0; i < n; i++) {
    if (kinds[i] !== 'l' || r.isRepeat(i)) continue;
    if (!runs.has(lines[i])) runs.set(lines[i], []);
    runs.get(lines[i]).push(i);
  }

  test('each line ran as often as a scan counts, within a frame', () => {
    const maxLine = Math.max(...runs.keys()) + 2;
    const t0 = performance.now();
    const counts = [];
    for (let line = 0; line <= maxLine; line++) counts.push(r.runsOf(line));
    const ms = performance.now() - t0;
    for (let line = 0; line <= maxLine; line++) assert.equal(counts[line], runs.get(line)?.length ?? 0, `line ${line}`);
    assert.ok(ms <= 16, `${ms.toFixed(2)} ms for every line's count`);
    assert.equal(r.runsOf(-1), 0);
    assert.equal(r.runsOf(10_000), 0);
  });

  test('next run of a line walks its runs in order and wraps to the first', () => {
    for (const line of runs.keys()) {
      const hits = runs.get(line);
      r.toEnd();
      assert.equal(r.nextRunOf(line).index, hits[0], `line ${line}: from the end, its first run`);
      for (const at of [1, 2, hits.length - 1].filter((k) => k < hits.length)) {
        r.seek(hits[at - 1]);
        const t0 = performance.now();
        const move = r.nextRunOf(line);
        const ms = performance.now() - t0;
        assert.equal(move.index, hits[at], `line ${line}: the run after run ${at}`);
        assert.equal(move.reason, 'line-run');
        assert.ok(ms <= 16, `${ms.toFixed(2)} ms`);
      }
      r.seek(hits[hits.length - 1]);
      assert.equal(r.nextRunOf(line).index, hits[0], `line ${line}: after its last run, its first`);
    }
    // From a stop that is not on the line: the first run after it (a scan's answer).
    const middle = r.seekStep(Math.floor(r.totalStops / 2)).index;
    const line = 4;
    assert.equal(r.nextRunOf(line).index, runs.get(line).find((i) => i > middle));
  });

  test('a line that never ran does not move the cursor', () => {
    const here = r.seekStep(10).index;
    const move = r.nextRunOf(99);
    assert.equal(move.reason, 'never');
    assert.equal(r.index, here);
  });
});

describe('previous and next change of a variable, at 1,000,000 events (issue 34 item 2)', () => {
  const { trace } = makeLoopTrace({ events: 1_000_000, helperEvery: 5 });
  const r = new Replay(trace);
  // The brute-force answer: walk the deltas in order; a name of a frame changes where its value differs
  // from the one it last had in that frame (a full snapshot restating it is no change).
  const changes = new Map();   // "frame name" -> events, ascending
  const last = new Map();
  for (const delta of trace.locals) {
    for (const [name, ref] of Object.entries(delta.set)) {
      const key = `${delta.f} ${name}`;
      if (last.get(key) === ref) continue;
      last.set(key, ref);
      if (!changes.has(key)) changes.set(key, []);
      changes.get(key).push(delta.i);
    }
  }
  const stopAtOrBefore = (i) => {
    let k = r.seek(i).index;
    return k;
  };

  test('next and previous change of `total` and `i` in the loop frame match a scan, within a frame', () => {
    for (const name of ['total', 'i']) {
      const events = changes.get(`0 ${name}`);
      assert.ok(events.length > 1000, `${name}: ${events.length} changes`);
      for (const at of [0, 1, Math.floor(events.length / 2), events.length - 2]) {
        r.seek(events[at]);
        const from = r.index;
        let t0 = performance.now();
        const next = r.changeOf(0, name, 1);
        const nextMs = performance.now() - t0;
        const want = events.find((e) => e > from);
        assert.equal(next.index, stopAtOrBefore(want), `${name}: next change after ${from}`);
        assert.equal(next.reason, 'change');
        r.seek(events[at + 1]);
        const back = r.index;
        t0 = performance.now();
        const prev = r.changeOf(0, name, -1);
        const prevMs = performance.now() - t0;
        const wantBack = events.filter((e) => e < back).at(-1);
        assert.equal(prev.index, stopAtOrBefore(wantBack), `${name}: previous change before ${back}`);
        assert.ok(nextMs <= 16 && prevMs <= 16, `${nextMs.toFixed(2)} / ${prevMs.toFixed(2)} ms`);
      }
    }
  });

  test('from the end, back to the last change; past the last change forward, no move', () => {
    const events = changes.get('0 total');
    r.toEnd();
    assert.equal(r.changeOf(0, 'total', -1).index, stopAtOrBefore(events.at(-1)));
    const here = r.index;
    assert.equal(r.changeOf(0, 'total', 1).reason, 'never');
    assert.equal(r.index, here);
    assert.equal(r.changeOf(0, 'nothing', 1).reason, 'never');
  });
});

describe('what a step changed, and Continue to the next of several lines, at 1,000,000 events (issue 34 item 5)', () => {
  const { trace } = makeLoopTrace({ events: 1_000_000, helperEvery: 5 });
  const r = new Replay(trace);
  // The brute-force answer: fold a frame's deltas from the start up to an event (a full delta restarts it).
  const fold = (frame, until) => {
    let vars = new Map();
    for (const delta of trace.locals) {
      if (delta.i > until) break;
      if (delta.f !== frame) continue;
      if (delta.full) vars = new Map();
      for (const [name, ref] of Object.entries(delta.set)) vars.set(name, ref);
      for (const name of delta.del ?? []) vars.delete(name);
    }
    return vars;
  };
  const changedByScan = (frame, from, to) => {
    const a = fold(frame, from), b = fold(frame, to);
    return [...new Set([...a.keys(), ...b.keys()])].filter((name) => a.get(name) !== b.get(name)).sort();
  };

  test('the names a step changed match a fold of the deltas, within a frame', () => {
    const n = r.eventCount;
    const pairs = [[0, 1], [10, 11], [1000, 1003], [n / 2, n / 2 + 1], [n / 2, n / 2 + 7], [n - 40, n - 2], [5, n - 2]];
    let checked = 0;
    for (const [a, b] of pairs.map(([x, y]) => [Math.floor(x), Math.floor(y)])) {
      for (const frame of new Set([0, r.eventAt(b).frame])) {
        const t0 = performance.now();
        const got = r.changedBetween(frame, a, b).sort();
        const ms = performance.now() - t0;
        assert.deepEqual(got, changedByScan(frame, a, b), `frame ${frame}, ${a} -> ${b}`);
        assert.ok(ms <= 16, `${ms.toFixed(2)} ms`);
        checked += got.length;
      }
    }
    assert.ok(checked > 0, 'some step changed something');
    assert.deepEqual(r.changedBetween(424242, 0, 10), []);
  });

  test('Continue that also pauses at some lines goes to the first arrival at any of them, as a scan finds it', () => {
    const { kind, line } = trace.events;
    const lines = [...new Set(line)].filter((l) => l > 0).slice(0, 2);
    for (const start of [0, 12345, 700000]) {
      r.seek(start);
      const from = r.index;
      const t0 = performance.now();
      const move = r.runToLines(lines);
      const ms = performance.now() - t0;
      let want = -1;
      for (let i = from + 1; i < kind.length && want < 0; i++) {
        if (kind[i] === 'l' && lines.includes(line[i]) && !r.isRepeat(i)) want = i;
      }
      assert.equal(move.index, want < 0 ? r.eventCount : want, `from ${from}`);
      assert.ok(ms <= 16, `${ms.toFixed(2)} ms`);
    }
  });
});
