// The replay engine's face: a cursor over a recorded trace, the stepping moves, the reader's
// breakpoints and the queries the page renders (docs/trace-format.md).
//
// It never re-runs code: everything is answered from the trace. No DOM, no dependencies. The
// indexes live in trace-index.js (events, stops, frames, output) and locals-index.js (locals);
// breakpoints and condition answers in breakpoints.js. This module owns only the cursor.
//
// Terms:
//   stop      an event of kind 'l' (about to run a line), 'r' (return; the reader sees the return
//             value) or 'x' (exception). 'c' is never a stop.
//   finished  the cursor is past the last event (index === eventCount); the run is over, all
//             output is visible. Every forward move can end there.
//   leave, depth: see trace-index.js.

import { ConditionError, parseCondition } from './conditions.js';
import { Breakpoints } from './breakpoints.js';
import { Provenance } from './provenance.js';
import { firstGreater, lastAtMost } from './sorted-arrays.js';
import { C_EXC, C_RETURN, TraceIndex } from './trace-index.js';

export { ConditionError };

/**
 * @typedef {{index: number, reason: 'step'|'breakpoint'|'end'|'start'|'line-run'|'change'|'written'|'never'}} Move
 * @typedef {import('./provenance.js').ItemKey} ItemKey
 * @typedef {import('./provenance.js').Write & {line: number, frameId: number}} Written
 * @typedef {import('./trace-index.js').Frame} Frame
 * @typedef {import('./trace-index.js').Value} Value
 * @typedef {import('./breakpoints.js').BreakpointInfo} BreakpointInfo
 */

export class Replay {
  /**
   * Build a replay over a trace: the JSON document from the recorder (an object), or its columns
   * (`trace-columns.js`, e.g. the packed form the worker reads). Throws an Error with a readable
   * message when it is not a valid Stepwise trace. The cursor starts at the first stop (as after
   * start()).
   * @param {any} trace
   * @param {TraceIndex} [index] an index already built (`fromParts`)
   */
  constructor(trace, index = new TraceIndex(trace)) {
    /** The trace's indexes (trace-index.js). */
    this.traceIndex = index;
    /** The document without its tables (read-only for callers: end, files, stats, ...). */
    this.trace = index.header;
    this.breakpointSet = new Breakpoints(index);
    this._k = 0; // cursor as a stop number (0-based); === totalStops when finished
    /** @type {Provenance|null} where-from's answers (made at the first question) */
    this._provenance = null;
  }

  /**
   * Everything the indexes hold, for postMessage: build the replay where the trace arrives (the
   * worker) and send it built. `transfer` lists the buffers to move rather than copy.
   * @returns {{parts: Record<string, any>, transfer: ArrayBuffer[]}}
   */
  parts() {
    return this.traceIndex.parts();
  }

  /** A replay from `parts()` (no indexing: it was done where the parts were made). */
  static fromParts(parts) {
    return new Replay(null, TraceIndex.revive(parts));
  }

  // -------------------------------------------------------------------------
  // Basic facts

  /** Number of events in the (kept) table. */
  get eventCount() { return this.traceIndex.eventCount; }
  /** Number of stops ('l', 'r', 'x' events). */
  get totalStops() { return this.traceIndex.stopCount; }
  /** Number of distinct values the trace holds. */
  get valueCount() { return this.traceIndex.values.size; }
  /** Event index of the cursor; === eventCount when finished. */
  get index() { return this._k < this.traceIndex.stopCount ? this.traceIndex.stops[this._k] : this.traceIndex.eventCount; }
  /** True when the cursor is past the last event: the run is over. */
  get finished() { return this._k >= this.traceIndex.stopCount; }
  /** True when no stop lies after the cursor: the next forward move finishes. */
  get atEnd() { return this._k >= this.traceIndex.stopCount - 1; }
  /** True when the cursor is on the first stop (stepBack has nowhere to go). */
  get atStart() { return this._k === 0 && this.traceIndex.stopCount > 0; }

  /**
   * Facts about one event, or null outside 0..eventCount-1.
   * @param {number} i
   * @returns {{index: number, kind: string, line: number, frame: number, depth: number}|null}
   */
  eventAt(i) {
    return this.traceIndex.eventAt(i);
  }

  /**
   * Where the cursor is. When finished: index === eventCount, line/frame/kind null,
   * stepNumber === totalStops.
   * @returns {{index: number, line: number|null, frame: number|null, kind: string|null,
   *            stepNumber: number, totalStops: number, finished: boolean}}
   */
  position() {
    const x = this.traceIndex, m = x.stopCount;
    if (this._k >= m) return { index: x.eventCount, line: null, frame: null, kind: null, stepNumber: m, totalStops: m, finished: true };
    const i = x.stops[this._k];
    return {
      index: i,
      line: x.lines[i],
      frame: x.frameId[x.frameOf[i]],
      kind: String.fromCharCode(x.kinds[i]),
      stepNumber: this._k + 1, // 1-based: "step 3 of 120"
      totalStops: m,
      finished: false,
    };
  }

  // -------------------------------------------------------------------------
  // Moves. Each returns {index, reason}; index === eventCount means finished.

  /** @param {number} k @param {Move['reason']} reason @returns {Move} */
  _at(k, reason) {
    const x = this.traceIndex;
    if (k >= x.stopCount) {
      this._k = x.stopCount;
      return { index: x.eventCount, reason: 'end' };
    }
    this._k = k < 0 ? 0 : k;
    return { index: x.stops[this._k], reason };
  }

  /**
   * Move forward to stop number `target` (or finish), but pause earlier on any stop that hits an
   * enabled breakpoint — as pdb and VS Code do when a step over/out runs through a breakpoint.
   */
  _forward(target) {
    const x = this.traceIndex, m = x.stopCount;
    if (this._k >= m) return this._at(m, 'end');
    const from = x.stops[this._k];
    const limit = target < m ? x.stops[target] : x.eventCount - 1;
    const hit = this.breakpointSet.nextHit(from, limit);
    if (hit >= 0) return this._at(x.stopOf(hit), 'breakpoint');
    return this._at(target, 'step');
  }

  /** Cursor to the first stop. reason 'start' ('end' for a trace without stops). @returns {Move} */
  start() {
    return this._at(0, 'start');
  }

  /** Next stop, whatever frame it is in (enters calls). @returns {Move} */
  stepInto() {
    return this._forward(this._k + 1);
  }

  /**
   * Next stop in the current frame or a caller (depth <= current depth), so calls made from this
   * line run without pausing (unless a breakpoint hits inside them). On a leave event ('r', or the
   * frame's final 'x') the frame is done, so the move goes to the caller's next stop (depth <
   * current). Thus a frame's return is always shown before the caller resumes.
   * @returns {Move}
   */
  stepOver() {
    const x = this.traceIndex;
    if (this._k >= x.stopCount) return this._at(x.stopCount, 'end');
    const i = x.stops[this._k];
    const d = x.isLeave(i) ? x.depthAt(i) - 1 : x.depthAt(i);
    let k = x.nextStopAtDepth(this._k, d);
    // A comprehension's items (repeats of this line) are part of the line being stepped over.
    while (k < x.stopCount && x.isRepeat(x.stops[k])) k = x.nextStopAtDepth(k, d);
    return this._forward(k);
  }

  /**
   * Run the current frame to its end and pause in the caller: its next stop (depth < current), as
   * VS Code's Step Out does. What the frame returned or raised is the event just before that stop
   * (`leftBefore`), so the page can show it in the caller. Finished when no caller's stop follows.
   * Breakpoints on the way pause it.
   * @returns {Move}
   */
  stepOut() {
    const x = this.traceIndex;
    if (this._k >= x.stopCount) return this._at(x.stopCount, 'end');
    return this._forward(x.nextStopAtDepth(this._k, x.depthAt(x.stops[this._k]) - 1));
  }

  /**
   * The frame a stop at event i was just left by: when the event before i is a callee's leave (its
   * 'r', or the 'x' an exception left it by) and i is in its caller, that callee's {function, index}
   * of the leave (returnAt / exceptionAt read what it gave). Else null. VS Code shows it as
   * "(return) f" in the caller's locals after a step over or out.
   * @param {number} i
   * @returns {{function: string, index: number}|null}
   */
  leftBefore(i) {
    const x = this.traceIndex;
    if (!(i > 0 && i < x.eventCount) || !x.isLeave(i - 1)) return null;
    const callee = x.frameOf[i - 1];
    if (x.parent[callee] !== x.frameOf[i]) return null;
    const name = x.functions[x.frameFn[callee]];
    // A comprehension's frame is part of its line, not a call the reader made: nothing to say.
    if (name.startsWith('<') && name.endsWith('>') && name !== '<lambda>') return null;
    // Left by an exception, the frame's 'r' carries no value (settrace): say the 'x' before it.
    let at = i - 1;
    if (x.kinds[at] === C_RETURN && this.returnAt(at) === null) {
      const start = x.frameEventStart[callee];
      for (let p = x.frameEventStart[callee + 1] - 2; p >= start && p >= x.frameEventStart[callee + 1] - 4; p--) {
        if (x.kinds[x.frameEvents[p]] === C_EXC) { at = x.frameEvents[p]; break; }
      }
    }
    return { function: name, index: at };
  }

  // -------------------------------------------------------------------------
  // Which lines ran: from the per-line arrival lists the breakpoints use (trace-index.js lineEvents), so
  // each answer is a subtraction or a binary search, whatever the trace's length.

  /**
   * How many times `line` ran: its arrivals ('l' events that are not repeats), the hits a breakpoint
   * on it would count.
   * @param {number} line
   */
  runsOf(line) {
    const x = this.traceIndex;
    return line >= 0 && line <= x.maxLine ? x.lineEventStart[line + 1] - x.lineEventStart[line] : 0;
  }

  /**
   * Move to where `line` next runs after the cursor, and from its last run (or finished) back to its first:
   * clicked again and again, a line's count walks through all its runs. Breakpoints do not apply. A line
   * that never ran: no move (reason 'never').
   * @param {number} line
   * @returns {Move}
   */
  nextRunOf(line) {
    const x = this.traceIndex;
    if (!this.runsOf(line)) return { index: this.index, reason: 'never' };
    const start = x.lineEventStart[line], end = x.lineEventStart[line + 1];
    const after = this.finished ? -1 : this.index;
    const q = firstGreater(x.lineEvents, start, end, after);
    const i = x.lineEvents[q < end ? q : start];
    return this._at(lastAtMost(x.stops, 0, x.stopCount, i), 'line-run');
  }

  /**
   * Move to where `name` of frame `frameId` next took a new value after the cursor (`direction` 1), or
   * last took one before it (-1): the stop at which the new value is first seen, as Variables marks it
   * changed. Breakpoints do not apply. No such change: no move (reason 'never').
   * @param {number} frameId @param {string} name @param {1|-1} direction
   * @returns {Move}
   */
  changeOf(frameId, name, direction) {
    const x = this.traceIndex;
    const fi = x.frameIndex(frameId);
    const here = this.finished ? x.eventCount : this.index;
    const i = fi < 0 ? -1 : x.locals.changeNear(fi, name, here, direction);
    const k = i < 0 ? -1 : this._stopSeeing(i, direction);
    if (k < 0) return { index: this.index, reason: 'never' };
    return this._at(k, 'change');
  }

  /**
   * The stop number that shows a change seen at event i: the stop at i, else (i is a call: a callee's
   * arguments) the next stop going forward, which is past the cursor, and the stop before going back (-1:
   * none, the change was seen before the first stop: no earlier step shows it).
   * @param {number} i @param {1|-1} direction
   */
  _stopSeeing(i, direction) {
    const x = this.traceIndex;
    const k = lastAtMost(x.stops, 0, x.stopCount, i);
    return direction > 0 && (k < 0 || x.stops[k] !== i) ? k + 1 : k;
  }

  /**
   * Move to where object number `id` next changed after the cursor (`direction` 1), or last changed before it
   * (-1), through whichever name, in any frame (provenance.js): the stop at which the change is first seen.
   * Breakpoints do not apply. No such change: no move (reason 'never').
   * @param {number} id @param {1|-1} direction
   * @returns {Move}
   */
  objectChangeOf(id, direction) {
    const x = this.traceIndex;
    const here = this.finished ? x.eventCount : this.index;
    const i = (this._provenance ??= new Provenance(x)).objectChangeNear(id, here, direction);
    const k = i < 0 ? -1 : this._stopSeeing(i, direction);
    if (k < 0) return { index: this.index, reason: 'never' };
    return this._at(k, 'change');
  }

  /**
   * The locals of frame `frameId` whose values differ between events `from` and `to` (what a step changed
   * there: predict mode hides them until the reader guesses). Unknown frame: none.
   * @param {number} frameId @param {number} from @param {number} to
   * @returns {string[]}
   */
  changedBetween(frameId, from, to) {
    const fi = this.traceIndex.frameIndex(frameId);
    return fi < 0 ? [] : this.traceIndex.locals.changedBetween(fi, from, to);
  }

  /**
   * Where did this come from: move to the step that last wrote a name of a frame (`{frameId, name}`: bound it
   * to the value it holds), an object (`{object}`: changed it, through whichever name) or an object's item
   * (`{object, item}`), at or before event `before` (the cursor when null; an answer's `change - 1` for the
   * write before it). The move's `written` says where: the line, the frame, and `via` 'call' when the value
   * was an argument passed by the caller's line (then that line is the step), 'entry' when the case's entry
   * passed it. Nothing written by then: no move (reason 'never').
   * @param {{frameId?: number, name?: string, object?: number, item?: ItemKey|null}} target
   * @param {number|null} [before]
   * @returns {Move & {written?: Written}}
   */
  whereFrom(target, before = null) {
    const x = this.traceIndex;
    const here = before ?? (this.finished ? x.eventCount - 1 : this.index);
    const provenance = (this._provenance ??= new Provenance(x));
    let write = null;
    if (target.object != null) write = provenance.objectWrite(target.object, here, target.item ?? null);
    else if (x.frameIndex(target.frameId) >= 0) write = provenance.nameWrite(x.frameIndex(target.frameId), target.name, here);
    if (!write) return { index: this.index, reason: 'never' };
    // The entry's call is no stop: its frame's first one shows the arguments it passed.
    const k = write.via === 'entry' ? firstGreater(x.stops, 0, x.stopCount, write.event - 1)
      : lastAtMost(x.stops, 0, x.stopCount, write.event);
    const move = this._at(k, 'written');
    return { ...move, written: { ...write, line: x.lines[write.event], frameId: x.frameId[write.frame] } };
  }

  /** Is the stop at event i a repeat of its line (a comprehension's next item), not an arrival? */
  isRepeat(i) {
    return i >= 0 && i < this.traceIndex.eventCount && this.traceIndex.isRepeat(i);
  }

  /**
   * One step back in the current frame: the reverse of stepOver. The previous stop at the current
   * depth or a caller's (where its line was arrived at, not a repeat), so a call made from the previous line is stepped back over as a whole
   * (its callee's stops are skipped), and from a function's first stop it goes back to the line
   * that called it. From finished: the last stop. On the first stop: stays, reason 'start'.
   * Breakpoints do not apply going back (reverseContinue goes to them).
   * @returns {Move}
   */
  stepBack() {
    const x = this.traceIndex, m = x.stopCount;
    if (m === 0) return this._at(0, 'end');
    if (this._k >= m) return this._at(m - 1, 'step');
    if (this._k === 0) return this._at(0, 'start');
    const d = x.depthAt(x.stops[this._k]);
    let k = x.prevStopAtDepth(this._k, d);
    // Back to where the line was arrived at, past its comprehension's items.
    while (k > 0 && x.isRepeat(x.stops[k])) k = x.prevStopAtDepth(k, d);
    return this._at(Math.max(k, 0), 'step');
  }

  /**
   * One stop back whatever frame it is in: the reverse of stepInto, so from the line after a call
   * it goes back into the callee (its return). From finished: the last stop. On the first stop:
   * stays, reason 'start'.
   * @returns {Move}
   */
  reverseStepInto() {
    if (this.traceIndex.stopCount === 0) return this._at(0, 'end');
    if (this._k === 0) return this._at(0, 'start');
    return this._at(this._k - 1, 'step');
  }

  /**
   * The previous stop before the cursor that hits an enabled breakpoint (conditions and hit counts
   * applied, as continue() applies them), reason 'breakpoint'; with none, the first stop, reason
   * 'start'.
   * @returns {Move}
   */
  reverseContinue() {
    const x = this.traceIndex, m = x.stopCount;
    if (m === 0) return this._at(0, 'end');
    const hit = this.breakpointSet.prevHit(this._k >= m ? x.eventCount : x.stops[this._k]);
    return hit >= 0 ? this._at(x.stopOf(hit), 'breakpoint') : this._at(0, 'start');
  }

  /**
   * Next stop after the cursor that hits an enabled breakpoint (reason 'breakpoint'); with none,
   * finishes (reason 'end').
   * @returns {Move}
   */
  continue() {
    return this._forward(this.traceIndex.stopCount);
  }

  /**
   * Like continue(), but from before the first event, so a breakpoint on the very first stop
   * counts. This is "Debug" (F5 before anything is shown).
   * @returns {Move}
   */
  continueFromStart() {
    const x = this.traceIndex;
    if (x.stopCount === 0) return this._at(0, 'end');
    const hit = this.breakpointSet.nextHit(-1, x.eventCount - 1);
    if (hit >= 0) return this._at(x.stopOf(hit), 'breakpoint');
    return this._at(x.stopCount, 'end');
  }

  /**
   * Run to here: to the next stop arriving at `line` after the cursor (from before the first event
   * when `fromStart`), pausing earlier at a breakpoint on the way, as VS Code's Run to Cursor does.
   * When the line is not reached again, the run finishes.
   * @param {number} line
   * @param {{fromStart?: boolean}} [opts]
   * @returns {Move}
   */
  runToLine(line, { fromStart = false } = {}) {
    return this.runToLines([line], { fromStart });
  }

  /**
   * Run to the first arrival at any of `lines` (runToLine for several: predict mode's Continue stops at
   * the author's questions as at breakpoints). A binary search per line and one breakpoint search.
   * @param {Iterable<number>} lines
   * @param {{fromStart?: boolean}} [opts]
   * @returns {Move}
   */
  runToLines(lines, { fromStart = false } = {}) {
    const x = this.traceIndex, m = x.stopCount;
    if (!fromStart && this._k >= m) return this._at(m, 'end');
    const from = fromStart ? -1 : x.stops[this._k];
    let arrival = -1;
    for (const line of lines) {
      const a = this.breakpointSet.nextArrival(line, from);
      if (a >= 0 && (arrival < 0 || a < arrival)) arrival = a;
    }
    const limit = arrival >= 0 ? arrival - 1 : x.eventCount - 1;
    const hit = this.breakpointSet.nextHit(from, limit);
    if (hit >= 0) return this._at(x.stopOf(hit), 'breakpoint');
    return arrival >= 0 ? this._at(x.stopOf(arrival), 'step') : this._at(m, 'end');
  }

  /**
   * The log points' lines up to event `upTo` (see Breakpoints.logHits).
   * @param {number} upTo
   * @param {number} [cap] hits kept per log point
   */
  logHits(upTo, cap = 1000) {
    return this.breakpointSet.logHits(upTo, cap);
  }

  /** Finish: cursor past the last event. @returns {Move} */
  toEnd() {
    return this._at(this.traceIndex.stopCount, 'end');
  }

  /**
   * Timeline slider by event index: the nearest stop at or before i (the first stop when i is
   * before it; finished when i >= eventCount). reason 'start' on the first stop, 'end' when
   * finished, else 'step'.
   * @param {number} i
   * @returns {Move}
   */
  seek(i) {
    const x = this.traceIndex;
    if (x.stopCount === 0 || i >= x.eventCount) return this._at(x.stopCount, 'end');
    const k = Math.max(0, lastAtMost(x.stops, 0, x.stopCount, Math.floor(i) || 0));
    return this._at(k, k === 0 ? 'start' : 'step');
  }

  /**
   * Timeline slider by step number (1..totalStops; above that: finished).
   * @param {number} stepNumber
   * @returns {Move}
   */
  seekStep(stepNumber) {
    const k = Math.max(0, (Math.floor(stepNumber) || 1) - 1);
    return this._at(k, k === 0 ? 'start' : 'step');
  }

  // -------------------------------------------------------------------------
  // Breakpoints

  /**
   * Add or replace the breakpoint on a source line.
   * - condition: expression in the small language of conditions.js, over the locals of the frame
   *   at that event; '' or null = none. A condition that does not parse throws ConditionError
   *   (message names the column; `.position` is the 0-based offset). One that cannot be evaluated
   *   at an event stops there whatever the hit count (as bdb does), so the reader sees where and
   *   why; see conditionError / breakpoints()[].error.
   * - hitCount N: the first N-1 hits are skipped; the breakpoint pauses on its Nth hit and every
   *   later one. Hits are counted over the whole trace in event order (not in the order the reader
   *   navigated), after the condition: a hit is an 'l' event on the line whose condition is true.
   * - enabled: false keeps the breakpoint but ignores it.
   * - log: a message makes it a log point: it never pauses; its hits are `logHits`.
   * @param {number} line
   * @param {{condition?: string|null, hitCount?: number|null, enabled?: boolean, log?: string|null}} [opts]
   * @returns {BreakpointInfo}
   */
  setBreakpoint(line, opts = {}) {
    return this.breakpointSet.set(line, opts);
  }

  /**
   * Toggle a plain breakpoint on a line (any existing one is removed).
   * @param {number} line
   * @returns {boolean} whether the line now has a breakpoint
   */
  toggleBreakpoint(line) {
    return this.breakpointSet.toggle(line);
  }

  /** @param {number} line @returns {boolean} whether one was removed */
  removeBreakpoint(line) {
    return this.breakpointSet.remove(line);
  }

  /** Remove all breakpoints. */
  clearBreakpoints() {
    this.breakpointSet.clear();
  }

  /** @returns {BreakpointInfo[]} sorted by line */
  breakpoints() {
    return this.breakpointSet.list();
  }

  /** The most recent condition evaluation failure, or null. @returns {{line: number, index: number, message: string}|null} */
  get conditionError() {
    return this.breakpointSet.conditionError;
  }

  // -------------------------------------------------------------------------
  // Queries at any event index

  /**
   * Locals of the frame of event i (or of the frame with id `frameId`, e.g. a caller on the
   * stack), as of event i. `changed`: names set at exactly event i (the UI marks them). Outside
   * 0..eventCount-1, or an unknown frame: frame null and nothing.
   * @param {number} i
   * @param {number|null} [frameId]
   * @returns {{frame: Frame|null, vars: Map<string, Value>, changed: Set<string>}}
   */
  localsAt(i, frameId = null) {
    return this.traceIndex.localsAt(i, frameId);
  }

  /**
   * Call stack at event i, outermost first, innermost last. The innermost frame's line is event
   * i's line; each caller's line is the line of its latest event before i (the call it is waiting
   * on), or null if none of its events were kept. `def` is the frame's first line (its code's
   * `def`, or its first decorator).
   * @param {number} i
   * @returns {{id: number, function: string, line: number|null, def: number}[]}
   */
  stackAt(i) {
    return this.traceIndex.stackAt(i);
  }

  /**
   * Output visible when paused at event i. A stdout entry [e, text] was written after event e ran
   * and before event e+1, so paused at i (about to run it) the visible output is every entry with
   * e < i; entries with e = -1 (setup) are always included. stdoutUntil(eventCount) — the finished
   * state — is all kept output (trace.stdout_text is the run's whole, bounded, stdout).
   * @param {number} i
   * @returns {string}
   */
  stdoutUntil(i) {
    return this.traceIndex.stdoutUntil(i);
  }

  /**
   * An expression in the language of conditions (conditions.js) over the locals of event i's frame,
   * or of the frame `frameId` (a caller on the stack), as of event i: a watch, a log point's `{x}`.
   * Returns the evaluator's value (`toPreview` makes it a Value); throws ConditionError when it does
   * not parse and EvaluationError when it cannot be answered there.
   * @param {string} source
   * @param {number} i
   * @param {number|null} [frameId]
   */
  evaluate(source, i, frameId = null) {
    const x = this.traceIndex;
    const compiled = parseCondition(source);
    if (!(i >= 0 && i < x.eventCount)) throw new RangeError(`no event ${i}`);
    const fi = frameId == null ? x.frameOf[i] : x.frameIndex(frameId);
    if (fi < 0) throw new RangeError(`no frame ${frameId}`);
    const lookup = x.locals.lookup();
    lookup.moveTo(fi, i);
    return compiled.value(lookup.get);
  }

  /**
   * The same over given variables (name -> Value): a caller's as the page shows them, freshened by
   * what its callees saw since (debugger.js), so a watch reads what Variables reads.
   * @param {string} source
   * @param {Map<string, Value>} vars
   */
  evaluateOver(source, vars) {
    return parseCondition(source).value((name) => vars.get(name));
  }

  /** Return value (Value) recorded at 'r' event i, or null. @param {number} i @returns {Value|null} */
  returnAt(i) {
    return this.traceIndex.returnAt(i);
  }

  /** Did a frame with no recorded caller return normally (not unwind, not stopped)? */
  returnedAtTop() {
    return this.traceIndex.returnedAtTop();
  }

  /** Exception {type, message} recorded at 'x' event i, or null. @param {number} i */
  exceptionAt(i) {
    return this.traceIndex.exceptionAt(i);
  }

  /** Which of frame `frameId`'s locals are its closure's cells (free variables). */
  closureNames(frameId) {
    return this.traceIndex.closureNames(frameId);
  }

  /** The setup's helpers (not recorded) that the line at event `i` called. */
  helpersAt(i) {
    return this.traceIndex.helpersAt(i);
  }

  /**
   * The dropped middle of a runaway run, or null. Events 0..after are the head window,
   * after+1..eventCount-1 the tail; `dropped` events ran in between.
   * @returns {{after: number, dropped: number, firstAfter: number}|null}
   */
  gapInfo() {
    return this.traceIndex.gapInfo();
  }

  /**
   * Whether the gap lies right before event i: i is in the tail window and no stop lies between
   * the gap and i. True for the first stop after the gap, which is where the UI shows "… N events
   * not recorded".
   * @param {number} i
   */
  isAfterGap(i) {
    return this.traceIndex.isAfterGap(i);
  }
}
