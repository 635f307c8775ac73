// The reader's breakpoints over one indexed trace, and where they hit.
//
// A hit is an 'l' event arriving at the breakpoint's line (not a repeat: trace-index.js) whose
// condition (if any) is true there. A log point is a breakpoint with a message: it never pauses,
// its hits are listed (`logHits`) for Output, as VS Code's log points write to its console. Each
// breakpoint jumps through its line's event list (no scan of the event table); condition answers
// are kept per line event, and evaluated per change of the names they read, not per hit.

import { parseCondition } from './conditions.js';
import { firstGreater } from './sorted-arrays.js';

/**
 * @typedef {import('./trace-index.js').TraceIndex} TraceIndex
 * @typedef {{line: number, condition: string|null, hitCount: number|null, enabled: boolean,
 *            log: string|null, error: {index: number, message: string}|null}} BreakpointInfo
 */

/** Conditions evaluated before deciding whether remembering answers per change pays (see `_condAt`). */
const MEMO_TRIAL = 256;

// Condition answers per line event.
const UNKNOWN = 0, TRUE = 1, FALSE = 2, FAILED = 3;

class Breakpoint {
  /** @param {number} line @param {any} condition @param {number|null} hitCount @param {boolean} enabled */
  constructor(line, condition, hitCount, enabled, log) {
    this.line = line;
    this.condition = condition;
    this.hitCount = hitCount;
    this.enabled = enabled;
    /** @type {string|null} a log point's message: it lists its hits instead of pausing */
    this.log = log;
    /** @type {{index: number, message: string}|null} */
    this.error = null;
    /** @type {Map<number, string>|null} event -> message of a condition that failed there */
    this.errors = null;
    // Condition answers per 'l' event of the line (UNKNOWN, TRUE, FALSE, FAILED) and, for hit
    // counts, the running number of hits; both filled lazily.
    /** @type {Uint8Array|null} */
    this.results = null;
    /** @type {Int32Array|null} */
    this.cum = null;
    this.evalUpTo = 0;
    // The last answer and what it was given (frame, full snapshot, each name's change entry).
    /** @type {string[]|null} */
    this.nameList = null;
    /** @type {Int32Array|null} */
    this.memoKey = null;
    this.memoResult = UNKNOWN;
    this.memoMessage = '';
    this.memoTries = 0;
    this.memoHits = 0;
  }

  /** @returns {BreakpointInfo} */
  info() {
    return { line: this.line, condition: this.condition ? this.condition.source : null, hitCount: this.hitCount,
             enabled: this.enabled, log: this.log, error: this.error };
  }
}

export class Breakpoints {
  /** @param {TraceIndex} index */
  constructor(index) {
    this.index = index;
    /** @type {Map<number, Breakpoint>} line -> breakpoint */
    this._byLine = new Map();
    /** @type {{line: number, index: number, message: string}|null} */
    this.conditionError = null;
  }

  /**
   * Add or replace the breakpoint on a line (see Replay.setBreakpoint for the rules).
   * @param {number} line
   * @param {{condition?: string|null, hitCount?: number|null, enabled?: boolean, log?: string|null}} [opts]
   * @returns {BreakpointInfo}
   */
  set(line, opts = {}) {
    if (!Number.isInteger(line) || line < 1) throw new Error(`breakpoint line must be a positive integer, got ${line}`);
    const src = opts.condition == null ? '' : String(opts.condition).trim();
    const condition = src === '' ? null : parseCondition(src);
    const hc = opts.hitCount;
    if (hc != null && (!Number.isInteger(hc) || hc < 1)) throw new Error(`hit count must be a positive integer, got ${hc}`);
    const log = opts.log == null || String(opts.log).trim() === '' ? null : String(opts.log);
    const bp = new Breakpoint(line, condition, hc ?? null, opts.enabled !== false, log);
    this._byLine.set(line, bp);
    this.conditionError = null;
    return bp.info();
  }

  /** @param {number} line @returns {boolean} whether the line now has a breakpoint */
  toggle(line) {
    if (this._byLine.has(line)) {
      this._byLine.delete(line);
      this.conditionError = null;
      return false;
    }
    this.set(line);
    return true;
  }

  /** @param {number} line @returns {boolean} whether one was removed */
  remove(line) {
    this.conditionError = null;
    return this._byLine.delete(line);
  }

  clear() {
    this._byLine.clear();
    this.conditionError = null;
  }

  /** @returns {BreakpointInfo[]} sorted by line */
  list() {
    return [...this._byLine.values()].sort((a, b) => a.line - b.line).map((bp) => bp.info());
  }

  /** Smallest event j with after < j <= limit that hits an enabled breakpoint (not a log point), or -1. */
  nextHit(after, limit) {
    let best = -1;
    for (const bp of this._byLine.values()) {
      if (!bp.enabled || bp.log !== null) continue;
      const h = this._nextHitOf(bp, after, best >= 0 ? best - 1 : limit);
      if (h >= 0) best = h;
    }
    return best;
  }

  /** Largest event j < before that hits an enabled breakpoint (not a log point), or -1. */
  prevHit(before) {
    let best = -1;
    for (const bp of this._byLine.values()) {
      if (!bp.enabled || bp.log !== null) continue;
      const h = this._prevHitOf(bp, before, best);
      if (h > best) best = h;
    }
    return best;
  }

  /** The first event after `after` arriving at `line` (run to here), or -1. */
  nextArrival(line, after) {
    if (!Number.isInteger(line) || line < 1 || line > this.index.maxLine) return -1;
    const le = this.index.lineEvents, start = this.index.lineEventStart;
    const p = firstGreater(le, start[line], start[line + 1], after);
    return p < start[line + 1] ? le[p] : -1;
  }

  /**
   * The hits of the enabled log points at events <= upTo, in event order: {line, index, error}
   * (`error`: its condition could not be evaluated there, which a log point says rather than
   * skipping). At most `cap` per log point; `cut` says a log point had more.
   * @param {number} upTo
   * @param {number} cap
   * @returns {{hits: {line: number, index: number, message: string, error: string|null}[], cut: number[]}}
   */
  logHits(upTo, cap) {
    const hits = [], cut = [];
    for (const bp of this._byLine.values()) {
      if (!bp.enabled || bp.log === null || bp.line > this.index.maxLine) continue;
      const le = this.index.lineEvents;
      const [s, e] = this._lineRange(bp);
      const end = firstGreater(le, s, e, upTo);
      if (bp.condition) this._answers(bp, s, e);
      let found = 0;
      for (let p = s; p < end; p++) {
        const q = p - s;
        let hit;
        if (!bp.condition) hit = q >= (bp.hitCount ?? 1) - 1;
        else {
          if ((bp.hitCount ?? 1) > 1) this._countHitsUpTo(bp, s, q);
          hit = this._hits(bp, s, q);
        }
        if (!hit) continue;
        if (found++ === cap) { cut.push(bp.line); break; }
        hits.push({ line: bp.line, index: le[p], message: bp.log, error: bp.errors?.get(le[p]) ?? null });
      }
    }
    this.conditionError = null; // listing log hits is not a stop
    hits.sort((a, b) => a.index - b.index);
    return { hits, cut };
  }

  /** The line's 'l' events are lineEvents[s..e). */
  _lineRange(bp) {
    const start = this.index.lineEventStart;
    return [start[bp.line], start[bp.line + 1]];
  }

  _answers(bp, s, e) {
    if (!bp.results) {
      bp.results = new Uint8Array(e - s);
      if ((bp.hitCount ?? 1) > 1) bp.cum = new Int32Array(e - s);
    }
  }

  /** Is the q-th line event (counted from s) a hit, hit counts applied? */
  _hits(bp, s, q) {
    if ((bp.hitCount ?? 1) > 1) {
      return (bp.results[q] === TRUE && bp.cum[q] >= bp.hitCount) || bp.results[q] === FAILED;
    }
    return this._condAt(bp, s, q);
  }

  _nextHitOf(bp, after, limit) {
    if (bp.line > this.index.maxLine || limit <= after) return -1;
    const le = this.index.lineEvents;
    const [s, e] = this._lineRange(bp);
    let p = firstGreater(le, s, e, after);
    const N = bp.hitCount ?? 1;
    if (!bp.condition) {
      // Without a condition the Nth hit is simply the Nth event on the line.
      if (p < s + N - 1) p = s + N - 1;
      return p < e && le[p] <= limit ? le[p] : -1;
    }
    this._answers(bp, s, e);
    for (; p < e && le[p] <= limit; p++) {
      if (N > 1) this._countHitsUpTo(bp, s, p - s);
      if (this._hits(bp, s, p - s)) return le[p];
    }
    return -1;
  }

  /** Largest event j with floor < j < before that hits bp, or -1. */
  _prevHitOf(bp, before, floor) {
    if (bp.line > this.index.maxLine) return -1;
    const le = this.index.lineEvents;
    const [s, e] = this._lineRange(bp);
    const p = firstGreater(le, s, e, before - 1) - 1; // last line event < before
    if (p < s || le[p] <= floor) return -1;
    const N = bp.hitCount ?? 1;
    if (!bp.condition) return p >= s + N - 1 ? le[p] : -1;
    this._answers(bp, s, e);
    if (N > 1) this._countHitsUpTo(bp, s, p - s);
    for (let q = p; q >= s && le[q] > floor; q--) if (this._hits(bp, s, q - s)) return le[q];
    return -1;
  }

  /** Fill bp.cum (hits so far, from the start of the trace) up to line event q. */
  _countHitsUpTo(bp, s, q) {
    const cum = bp.cum;
    for (let r = bp.evalUpTo; r <= q; r++) {
      cum[r] = (r > 0 ? cum[r - 1] : 0) + (this._condAt(bp, s, r) ? 1 : 0);
    }
    if (q + 1 > bp.evalUpTo) bp.evalUpTo = q + 1;
  }

  /**
   * The condition of bp at its q-th line event (kept; FAILED stops like a hit). The error of the
   * event being stopped at is `conditionError`.
   */
  _condAt(bp, s, q) {
    const cached = bp.results[q];
    const index = this.index;
    const i = index.lineEvents[s + q];
    if (cached === FAILED) {
      this.conditionError = { line: bp.line, index: i, message: bp.errors.get(i) };
      return true;
    }
    if (cached !== UNKNOWN) return cached === TRUE;
    const locals = index.locals;
    const lk = locals.lookup();
    const fi = index.frameOf[i];
    lk.moveTo(fi, i);
    const numeric = bp.condition.numeric;
    if (numeric !== null) {
      const x = lk.number(numeric.name);
      if (x !== undefined) {
        const answer = numeric.test(x) ? TRUE : FALSE;
        bp.results[q] = answer;
        return answer === TRUE;
      }
    }
    // Per change, not per hit: the answer depends only on the frame, its last full snapshot and the
    // entries of the names the condition reads. While none of them moved, the last answer stands
    // (`len(groups) > 1` on a hot line is evaluated once per change of `groups`). When the names
    // change at nearly every hit (`i == k` in a loop) the check only costs, so it is dropped.
    let same = false;
    if (bp.memoTries < MEMO_TRIAL || bp.memoHits * 8 >= bp.memoTries) {
      const names = (bp.nameList ??= [...bp.condition.names]);
      const key = (bp.memoKey ??= new Int32Array(names.length + 2).fill(-2));
      const full = lk.full;
      same = key[0] === fi && key[1] === full;
      key[0] = fi;
      key[1] = full;
      for (let j = 0; j < names.length; j++) {
        const h = lk.entry(names[j]);
        if (key[j + 2] !== h) {
          key[j + 2] = h;
          same = false;
        }
      }
      bp.memoTries++;
      if (same) bp.memoHits++;
    }
    let result = same ? bp.memoResult : UNKNOWN;
    if (result === UNKNOWN) {
      try {
        result = bp.condition.test(lk.get) ? TRUE : FALSE;
      } catch (err) {
        bp.memoMessage = err instanceof Error ? err.message : String(err);
        result = FAILED;
      }
      bp.memoResult = result;
    }
    bp.results[q] = result;
    if (result === FAILED) {
      const message = bp.memoMessage;
      bp.error = { index: i, message };
      (bp.errors ??= new Map()).set(i, message);
      this.conditionError = { line: bp.line, index: i, message };
      return true;
    }
    return result === TRUE;
  }
}
