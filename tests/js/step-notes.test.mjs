// Step notes (issue 34 item 6): which of an author's notes show at a step, against a brute-force walk of the
// trace, at 1,000,000 events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replay } from '../../site/js/replay.js';
import { notesAt, ownLineAt } from '../../site/js/step-notes.js';
import { makeLoopTrace } from './make-trace.mjs';

test('the notes at a step: the shown function\'s line (its caller\'s while a helper runs) and its stage', () => {
  // main (lines 1-7) calls helper (10-13) on line 6; notes: line 4, line 6, and the stage from line 5.
  const { trace } = makeLoopTrace({ events: 1_000_000, helperEvery: 5 });
  const r = new Replay(trace);
  const fn = { first_line: 1, last_line: 7 };
  const stages = [{ line: 2 }, { line: 5 }];
  const notes = [{ line: 4, zh: 'a', en: 'a' }, { line: 6, zh: 'b', en: 'b' }, { line: 5, stage: true, zh: 'c', en: 'c' }];
  // Brute force: main's line at event i is the line of its latest event at or before i.
  const mainLine = new Int32Array(trace.events.line.length);
  for (let i = 0, line = 0; i < mainLine.length; i++) {
    if (trace.events.frame[i] === 0) line = trace.events.line[i];
    mainLine[i] = line;
  }
  const want = (line) => [...(line === 4 ? ['a'] : []), ...(line === 6 ? ['b'] : []), ...(line >= 5 ? ['c'] : [])];
  let seen = 0;
  for (let k = 0; k < r.totalStops; k += 997) {
    const i = r.traceIndex.stops[k];
    const t0 = performance.now();
    const shown = notesAt(notes, stages, ownLineAt(r, fn, i)).map((n) => n.zh).sort();
    assert.ok(performance.now() - t0 <= 16);
    assert.deepEqual(shown, want(mainLine[i]).sort(), `at event ${i} (main on line ${mainLine[i]})`);
    seen += shown.length;
  }
  assert.ok(seen > 0);
  assert.deepEqual(notesAt(notes, stages, null), []);
});
