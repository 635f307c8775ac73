// Two cases side by side (issue 34 item 4): where two runs' paths part, and what differs there, against
// brute-force scans of the traces, at 1,000,000 events.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Replay } from '../../site/js/replay.js';
import { differingNames, partingStop } from '../../site/js/compare-cases.js';
import { buildTrace, makeLoopTrace } from './make-trace.mjs';

/** The brute force: walk both traces' events, keeping the stops ('l', 'r', 'x'), until one differs. */
function scanParting(ta, tb) {
  const stops = (t) => {
    const out = [];
    const depth = new Map(t.frames.map((f) => [f.id, 0]));
    for (const f of t.frames) for (let p = f.parent; p != null; p = t.frames.find((g) => g.id === p).parent) depth.set(f.id, depth.get(f.id) + 1);
    for (let i = 0; i < t.events.kind.length; i++) {
      if (t.events.kind[i] !== 'c') out.push(`${t.events.kind[i]} ${t.events.line[i]} ${depth.get(t.events.frame[i])}`);
    }
    return out;
  };
  const a = stops(ta), b = stops(tb);
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return k;
  return a.length === b.length ? null : Math.min(a.length, b.length);
}

describe('where two runs part, at 1,000,000 events', () => {
  const long = makeLoopTrace({ events: 1_000_000, helperEvery: 5 }).trace;
  const shorter = makeLoopTrace({ events: 900_000, helperEvery: 5 }).trace;
  const other = makeLoopTrace({ events: 1_000_000, helperEvery: 7 }).trace;
  const [rl, rs, ro] = [long, shorter, other].map((t) => new Replay(t));

  test('late: the shorter loop leaves it where the longer goes round again', () => {
    let k, ms = Infinity;
    for (let n = 0; n < 3; n++) {   // the fastest of three: a GC pause or another process is not the answer's cost
      const t0 = performance.now();
      k = partingStop(rl, rs);
      ms = Math.min(ms, performance.now() - t0);
    }
    assert.equal(k, scanParting(long, shorter));
    assert.ok(k > 800_000 / 3, `parts at ${k}`);
    assert.ok(ms <= 16, `${ms.toFixed(2)} ms`);
  });

  test('early: a helper called every 5th pass or every 7th parts at the 5th pass', () => {
    const k = partingStop(rl, ro);
    assert.equal(k, scanParting(long, other));
    assert.ok(k < 100);
  });

  test('the same run does not part', () => {
    assert.equal(partingStop(rl, new Replay(long)), null);
  });

  test('the values that differ at a step: in either run only, or with other values', () => {
    const k = partingStop(rl, ro);
    const t0 = performance.now();
    const names = differingNames(rl, ro, k);
    assert.ok(performance.now() - t0 <= 16);
    const va = rl.localsAt(rl.traceIndex.stops[k]).vars, vb = ro.localsAt(ro.traceIndex.stops[k]).vars;
    const want = [...new Set([...va.keys(), ...vb.keys()])]
      .filter((n) => JSON.stringify(va.get(n)) !== JSON.stringify(vb.get(n)));
    assert.deepEqual(names, want);
  });
});

describe('two small runs', () => {
  //  1 def check(x):
  //  2     if x > 0:
  //  3         return 'yes'
  //  4     return 'no'
  const run = (x) => buildTrace({
    frames: [{ id: 1, function: 'check', parent: null, line: 1 }],
    events: [['c', 1, 1], ['l', 2, 1], x > 0 ? ['l', 3, 1] : ['l', 4, 1], x > 0 ? ['r', 3, 1] : ['r', 4, 1]],
    locals: [{ i: 0, f: 1, set: { x }, full: true }],
  });
  test('part where the branch goes another way; x differs there; object numbers alone do not count', () => {
    const a = new Replay(run(1)), b = new Replay(run(-1));
    assert.equal(partingStop(a, b), 1);
    assert.deepEqual(differingNames(a, b, 1), ['x']);
    assert.deepEqual(differingNames(a, new Replay(run(1)), 1), []);
  });
});
