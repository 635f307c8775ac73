// Replay engine for Stepwise traces (docs/trace-format.md, versions 1 and 2).
//
// The engine owns the cursor, the breakpoints and every stepping move; the UI
// only calls it and renders. It never re-runs code: everything is answered
// from the recorded trace. No DOM, no dependencies.
//
// Sizes: traces may hold 1,000,000 events, and every move or query must stay
// within a 16 ms frame. So construction builds flat typed-array indexes once
// (O(n)), and each move/query is a binary search or a segment-tree descent:
//   - stops            Int32Array of the event indexes where the UI pauses
//   - stop depth tree  min segment tree over stop depths ("next stop at depth <= D")
//   - per-frame events CSR lists (stack lines) and per-frame leave events (step out)
//   - per-line events  CSR list of 'l' events per line (breakpoints jump, never scan)
//   - per-(frame,name) change lists of delta positions, so the value of one local
//     at any event is one binary search (no folding of a million deltas)
//
// Terms used below:
//   stop      an event of kind 'l' (about to run a line), 'r' (return; the reader
//             sees the return value) or 'x' (exception). 'c' is never a stop.
//   finished  the cursor is past the last event (index === eventCount); the run
//             is over, all output is visible. Every forward move can end there.
//   leave     an event where a frame is left: every 'r', and an 'x' that is the
//             frame's last event (the exception propagated out of it).
//   depth     number of recorded ancestors of a frame.

import { parseCondition, ConditionError } from './conditions.js';

export { ConditionError };

const C_CALL = 99; // 'c'
const C_LINE = 108; // 'l'
const C_RETURN = 114; // 'r'
const C_EXC = 120; // 'x'

/**
 * @typedef {{index: number, reason: 'step'|'breakpoint'|'end'|'start'}} Move
 * @typedef {{id: number, function: string, parent: number|null, line: number}} Frame
 * @typedef {{t: string, r: string, [key: string]: any}} Value
 * @typedef {{line: number, condition: string|null, hitCount: number|null, enabled: boolean,
 *            error: {index: number, message: string}|null}} BreakpointInfo
 */

// ---------------------------------------------------------------------------
// Small search helpers over sorted Int32Arrays.

/** First position p in [lo, hi) with a[p] > x, or hi. */
function firstGreater(a, lo, hi, x) {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Last position p in [lo, hi) with a[p] <= x, or lo - 1. */
function lastAtMost(a, lo, hi, x) {
  return firstGreater(a, lo, hi, x) - 1;
}

/** A typed array twice as long, same contents (amortised growth). */
function grow(a, fillWith = 0) {
  const b = new Int32Array(a.length * 2);
  if (fillWith !== 0) b.fill(fillWith);
  b.set(a);
  return b;
}

/** Last position p in [lo, hi) with ev[list[p]] <= x, or lo - 1 (list sorted by ev). */
function lastAtMostBy(ev, list, lo, hi, x) {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ev[list[mid]] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

function fail(msg) {
  throw new Error(`Bad Stepwise trace: ${msg}`);
}

const isInt = (x) => Number.isInteger(x);

// ---------------------------------------------------------------------------

export class Replay {
  /**
   * Build a replay over a parsed trace (the JSON document from the recorder).
   * Throws an Error with a readable message when the trace is not a valid v1
   * Stepwise trace. The cursor starts at the first stop (as after start()).
   * @param {any} trace
   */
  constructor(trace) {
    validateHeader(trace);
    /** The trace as given (read-only for callers: end, files, stats, ...). */
    this.trace = trace;
    // Version 2 pools values: locals and returns hold indexes into `values`.
    this._pool = trace.version >= 2 ? (Array.isArray(trace.values) ? trace.values : fail('"values" must be a list')) : null;
    this._buildFrames(trace.frames);
    this._buildEvents(trace.events);
    this._buildGap(trace.gap);
    this._buildLocals(trace.locals);
    this._buildOutput(trace);
    /** @type {Map<number, any>} line -> internal breakpoint */
    this._bps = new Map();
    /** @type {{line: number, index: number, message: string}|null} */
    this._condError = null;
    this._k = 0; // cursor as a stop number (0-based); === totalStops when finished
  }

  // -------------------------------------------------------------------------
  // Index construction

  _buildFrames(frames) {
    if (!Array.isArray(frames)) fail('"frames" must be a list');
    const F = frames.length;
    this._frames = frames;
    // Frame ids are small ints in practice; a dense lookup table is much faster
    // than a Map when translating a million event frame ids.
    let maxId = -1;
    for (let f = 0; f < F; f++) {
      const fr = frames[f];
      if (!fr || !isInt(fr.id) || fr.id < 0) fail(`frames[${f}].id must be a non-negative integer`);
      if (fr.id > maxId) maxId = fr.id;
    }
    /** @type {(id: number) => number} */
    let idx;
    /** @type {Int32Array|null} frame id -> frame position, when ids are dense */
    this._idTable = null;
    if (maxId < 4 * F + 1024) {
      const table = new Int32Array(maxId + 1).fill(-1);
      for (let f = 0; f < F; f++) {
        if (table[frames[f].id] !== -1) fail(`duplicate frame id ${frames[f].id}`);
        table[frames[f].id] = f;
      }
      idx = (id) => (isInt(id) && id >= 0 && id <= maxId ? table[id] : -1);
      this._idTable = table;
    } else {
      const map = new Map();
      for (let f = 0; f < F; f++) {
        if (map.has(frames[f].id)) fail(`duplicate frame id ${frames[f].id}`);
        map.set(frames[f].id, f);
      }
      idx = (id) => map.get(id) ?? -1;
    }
    this._frameIndex = idx;
    const parent = new Int32Array(F);
    for (let f = 0; f < F; f++) {
      const p = frames[f].parent;
      if (p === null || p === undefined) parent[f] = -1;
      else {
        parent[f] = idx(p);
        if (parent[f] < 0) fail(`frame ${frames[f].id} has unknown parent ${p}`);
      }
    }
    // Depth = number of recorded ancestors; iterative so deep recursion
    // (RecursionError traces) cannot overflow the JS stack.
    const depth = new Int32Array(F).fill(-1);
    const chain = [];
    for (let f = 0; f < F; f++) {
      let g = f;
      while (g >= 0 && depth[g] < 0) {
        chain.push(g);
        if (chain.length > F) fail(`frame parents form a cycle at frame ${frames[f].id}`);
        g = parent[g];
      }
      let d = g >= 0 ? depth[g] : -1;
      while (chain.length) depth[chain.pop()] = ++d;
    }
    this._parent = parent;
    this._depth = depth;
  }

  _buildEvents(events) {
    if (!events || typeof events.kind !== 'string') fail('"events.kind" must be a string');
    const kindStr = events.kind;
    const n = kindStr.length;
    const lineArr = events.line, frameArr = events.frame;
    if (!Array.isArray(lineArr) || lineArr.length !== n) fail(`events.line must have ${n} entries (one per events.kind)`);
    if (!Array.isArray(frameArr) || frameArr.length !== n) fail(`events.frame must have ${n} entries (one per events.kind)`);
    const F = this._frames.length;
    const kinds = new Uint8Array(n);
    const lines = new Int32Array(n);
    const fidx = new Int32Array(n);
    const frameCount = new Int32Array(F + 1);
    const table = this._idTable, tableLen = table ? table.length : 0, frameIndex = this._frameIndex;
    let stopCount = 0, maxLine = 0;
    for (let i = 0; i < n; i++) {
      const c = kindStr.charCodeAt(i);
      if (c !== C_LINE && c !== C_CALL && c !== C_RETURN && c !== C_EXC) fail(`events.kind[${i}] is '${kindStr[i]}' (expected c, l, r or x)`);
      kinds[i] = c;
      if (c !== C_CALL) stopCount++;
      const ln = lineArr[i];
      if (!(ln >= 0) || ln > 0x7fffffff) fail(`events.line[${i}] is not a line number`);
      lines[i] = ln;
      if (ln > maxLine) maxLine = ln;
      // Dense id table inlined: this loop runs a million times.
      const id = frameArr[i];
      const f = table !== null && id >= 0 && id < tableLen && (id | 0) === id ? table[id] : table === null ? frameIndex(id) : -1;
      if (f < 0) fail(`events.frame[${i}] refers to unknown frame ${frameArr[i]}`);
      fidx[i] = f;
      frameCount[f + 1]++;
    }
    this._n = n;
    this._kinds = kinds;
    this._lines = lines;
    this._fidx = fidx;

    // Per-frame event lists (CSR): frame f's events are feList[feStart[f]..feStart[f+1]).
    const feStart = frameCount; // prefix-summed in place
    for (let f = 0; f < F; f++) feStart[f + 1] += feStart[f];
    const feList = new Int32Array(n);
    const fill = feStart.slice(0, F);
    // Per-line 'l' event lists (CSR), for breakpoints.
    const leStart = new Int32Array(maxLine + 2);
    const stops = new Int32Array(stopCount);
    const depth = this._depth;
    const stopDepth = new Int32Array(stopCount);
    let s = 0;
    for (let i = 0; i < n; i++) {
      const f = fidx[i];
      feList[fill[f]++] = i;
      const c = kinds[i];
      if (c !== C_CALL) {
        stops[s] = i;
        stopDepth[s++] = depth[f];
        if (c === C_LINE) leStart[lines[i] + 1]++;
      }
    }
    for (let l = 0; l <= maxLine; l++) leStart[l + 1] += leStart[l];
    const leList = new Int32Array(leStart[maxLine + 1]);
    const lfill = leStart.slice(0, maxLine + 1);
    for (let i = 0; i < n; i++) if (kinds[i] === C_LINE) leList[lfill[lines[i]]++] = i;

    this._feStart = feStart;
    this._feList = feList;
    this._leStart = leStart;
    this._leList = leList;
    this._maxLine = maxLine;
    this._stops = stops;
    this._m = stopCount;

    // Leave events per frame (CSR), for step out. An 'x' leaves the frame only
    // when nothing of that frame follows it (otherwise the exception was caught
    // there, or — with settrace — the frame's 'r' follows and is the leave).
    const isLeave = (i) => {
      const c = kinds[i];
      if (c === C_RETURN) return true;
      if (c !== C_EXC) return false;
      const f = fidx[i];
      return feList[feStart[f + 1] - 1] === i;
    };
    const lvStart = new Int32Array(F + 1);
    for (let k = 0; k < stopCount; k++) if (isLeave(stops[k])) lvStart[fidx[stops[k]] + 1]++;
    for (let f = 0; f < F; f++) lvStart[f + 1] += lvStart[f];
    const lvList = new Int32Array(lvStart[F]);
    const vfill = lvStart.slice(0, F);
    for (let k = 0; k < stopCount; k++) if (isLeave(stops[k])) lvList[vfill[fidx[stops[k]]]++] = stops[k];
    this._lvStart = lvStart;
    this._lvList = lvList;
    this._isLeave = isLeave;

    // Min segment tree over stop depths: "first stop after k with depth <= D"
    // in O(log n), which is what step over / step out need.
    let size = 1;
    while (size < stopCount) size <<= 1;
    const tree = new Int32Array(2 * size).fill(0x7fffffff);
    tree.set(stopDepth, size);
    for (let v = size - 1; v >= 1; v--) tree[v] = Math.min(tree[2 * v], tree[2 * v + 1]);
    this._tree = tree;
    this._treeSize = size;
  }

  _buildGap(gap) {
    if (gap === null || gap === undefined) {
      this._gap = null;
      return;
    }
    if (typeof gap !== 'object' || !isInt(gap.after) || !isInt(gap.dropped) || gap.after < -1 || gap.after >= this._n || gap.dropped < 0) {
      fail('"gap" must be null or {after, dropped} with after inside the event table');
    }
    this._gap = { after: gap.after, dropped: gap.dropped };
  }

  _buildLocals(locals) {
    if (locals === undefined) locals = [];
    if (!Array.isArray(locals)) fail('"locals" must be a list');
    // The contract says sorted by event index; tolerate a recorder that is not
    // (a stable sort keeps same-event deltas in their given order).
    let prev = -1;
    for (let p = 0; p < locals.length; p++) {
      const d = locals[p];
      if (!d || !isInt(d.i) || d.i < 0 || d.i >= this._n) fail(`locals[${p}].i is not an event index`);
      if (d.i < prev) {
        locals = locals.slice().sort((x, y) => x.i - y.i);
        break;
      }
      prev = d.i;
    }
    const deltas = locals;
    const D = deltas.length;
    const F = this._frames.length;
    const deltaEvent = new Int32Array(D);
    // Full deltas (usually one per frame, two across a gap), as CSR below.
    const fullCount = new Int32Array(F + 1);
    let fullPos = new Int32Array(1024);
    let nFull = 0;

    // A "slot" is one local name of one frame. Its change list holds the
    // positions of the deltas that set or deleted it, so the value of a name at
    // any event is one binary search. One pass records (slot, delta) entries
    // in flat growable arrays; then they are laid out as CSR. Everything is
    // typed arrays: hundreds of thousands of small JS arrays or Map entries
    // made construction several times slower (mostly GC).
    const nameIds = new Map(); // name -> id
    /** @type {string[]} */
    const names = [];
    const frameHead = new Int32Array(F).fill(-1); // first slot of a frame (chain)
    let slotNext = new Int32Array(1024); // next slot of the same frame
    let slotNameId = new Int32Array(1024);
    let slotFrame = new Int32Array(1024);
    let slotCount = new Int32Array(1024);
    let S = 0;
    let entSlot = new Int32Array(Math.max(1024, D * 2));
    let entDelta = new Int32Array(entSlot.length);
    let E = 0;
    // Last (frame, slot) seen per name id: consecutive deltas of one frame
    // touch the same names, so most lookups skip the chain walk.
    let cacheFrame = new Int32Array(64).fill(-1);
    let cacheSlot = new Int32Array(64);
    const lastTail = new Int32Array(F).fill(-1); // chain tail per frame, to append in first-seen order

    const touch = (fi, name, p) => {
      let id = nameIds.get(name);
      if (id === undefined) {
        id = names.length;
        nameIds.set(name, id);
        names.push(name);
        if (id >= cacheFrame.length) {
          cacheFrame = grow(cacheFrame, -1);
          cacheSlot = grow(cacheSlot);
        }
      }
      let slot = -1;
      if (cacheFrame[id] === fi) slot = cacheSlot[id];
      else for (let t = frameHead[fi]; t >= 0; t = slotNext[t]) if (slotNameId[t] === id) { slot = t; break; }
      if (slot < 0) {
        slot = S++;
        if (slot >= slotNext.length) {
          slotNext = grow(slotNext);
          slotNameId = grow(slotNameId);
          slotFrame = grow(slotFrame);
          slotCount = grow(slotCount);
        }
        slotNext[slot] = -1;
        slotNameId[slot] = id;
        slotFrame[slot] = fi;
        if (lastTail[fi] < 0) frameHead[fi] = slot;
        else slotNext[lastTail[fi]] = slot;
        lastTail[fi] = slot;
      } else if (E > 0 && entSlot[E - 1] === slot && entDelta[E - 1] === p) {
        return; // the same name in both set and del of one delta
      }
      cacheFrame[id] = fi;
      cacheSlot[id] = slot;
      if (E >= entSlot.length) {
        entSlot = grow(entSlot);
        entDelta = grow(entDelta);
      }
      entSlot[E] = slot;
      entDelta[E++] = p;
      slotCount[slot]++;
    };

    const frameIndex = this._frameIndex;
    for (let p = 0; p < D; p++) {
      const d = deltas[p];
      const fi = frameIndex(d.f);
      if (fi < 0) fail(`locals[${p}].f refers to unknown frame ${d.f}`);
      deltaEvent[p] = d.i;
      if (d.full) {
        if (nFull >= fullPos.length) fullPos = grow(fullPos);
        fullPos[nFull++] = p;
        fullCount[fi + 1]++;
      }
      const set = d.set;
      // for-in rather than Object.keys: no array per delta (GC pressure at 1M).
      if (set) for (const name in set) touch(fi, name, p);
      const del = d.del;
      if (del) for (let j = 0; j < del.length; j++) touch(fi, del[j], p);
    }

    // Slot change lists (CSR): slot s's delta positions are
    // slotList[slotStart[s]..slotStart[s+1]), ascending.
    const slotStart = new Int32Array(S + 1);
    for (let sl = 0; sl < S; sl++) slotStart[sl + 1] = slotStart[sl] + slotCount[sl];
    const slotList = new Int32Array(E);
    const fill = slotStart.slice(0, S);
    for (let e = 0; e < E; e++) slotList[fill[entSlot[e]]++] = entDelta[e];
    // Slots per frame (CSR), in first-seen order, which is how localsAt lists them.
    const fsStart = new Int32Array(F + 1);
    for (let sl = 0; sl < S; sl++) fsStart[slotFrame[sl] + 1]++;
    for (let f = 0; f < F; f++) fsStart[f + 1] += fsStart[f];
    const fsList = new Int32Array(S);
    for (let f = 0; f < F; f++) {
      let j = fsStart[f];
      for (let t = frameHead[f]; t >= 0; t = slotNext[t]) fsList[j++] = t;
    }
    // Full deltas per frame (CSR), ascending.
    for (let f = 0; f < F; f++) fullCount[f + 1] += fullCount[f];
    const fullList = new Int32Array(nFull);
    const gfill = fullCount.slice(0, F);
    for (let j = 0; j < nFull; j++) fullList[gfill[frameIndex(deltas[fullPos[j]].f)]++] = fullPos[j];

    this._deltas = deltas;
    this._deltaEvent = deltaEvent;
    this._fullStart = fullCount;
    this._fullList = fullList;
    this._nameIds = nameIds;
    this._names = names;
    this._slotNameId = slotNameId.subarray(0, S);
    this._slotStart = slotStart;
    this._slotList = slotList;
    this._fsStart = fsStart;
    this._fsList = fsList;
  }

  _buildOutput(trace) {
    const n = this._n;
    const byEvent = (name, list) => {
      const map = new Map();
      if (list === undefined || list === null) return map;
      if (!Array.isArray(list)) fail(`"${name}" must be a list`);
      for (let j = 0; j < list.length; j++) {
        const e = list[j];
        if (!Array.isArray(e) || !isInt(e[0]) || e[0] < 0 || e[0] >= n) fail(`${name}[${j}] must be [event, value] with a valid event`);
        map.set(e[0], e[1]);
      }
      return map;
    };
    this._returns = byEvent('returns', trace.returns);
    this._exceptions = byEvent('exceptions', trace.exceptions);

    let out = trace.stdout ?? [];
    if (!Array.isArray(out)) fail('"stdout" must be a list');
    for (let j = 0; j < out.length; j++) {
      const e = out[j];
      if (!Array.isArray(e) || !isInt(e[0]) || e[0] < -1 || e[0] >= n || typeof e[1] !== 'string') {
        fail(`stdout[${j}] must be [event, text] with event -1..${n - 1}`);
      }
    }
    for (let j = 1; j < out.length; j++) {
      if (out[j - 1][0] > out[j][0]) {
        out = out.slice().sort((a, b) => a[0] - b[0]);
        break;
      }
    }
    // One joined string plus cumulative lengths: output up to any point is a
    // single slice, not a join of thousands of chunks.
    const outEvent = new Int32Array(out.length);
    const cum = new Float64Array(out.length + 1);
    for (let j = 0; j < out.length; j++) {
      outEvent[j] = out[j][0];
      cum[j + 1] = cum[j] + out[j][1].length;
    }
    this._outEvent = outEvent;
    this._outCum = cum;
    this._outText = out.map((e) => e[1]).join('');
  }

  // -------------------------------------------------------------------------
  // Basic facts

  /** Number of events in the (kept) table. */
  get eventCount() { return this._n; }
  /** Number of stops ('l', 'r', 'x' events). */
  get totalStops() { return this._m; }
  /** Event index of the cursor; === eventCount when finished. */
  get index() { return this._k < this._m ? this._stops[this._k] : this._n; }
  /** True when the cursor is past the last event: the run is over. */
  get finished() { return this._k >= this._m; }
  /** True when no stop lies after the cursor: the next forward move finishes. */
  get atEnd() { return this._k >= this._m - 1; }
  /** True when the cursor is on the first stop (stepBack has nowhere to go). */
  get atStart() { return this._k === 0 && this._m > 0; }

  /**
   * Facts about one event, or null outside 0..eventCount-1.
   * @param {number} i
   * @returns {{index: number, kind: string, line: number, frame: number, depth: number}|null}
   */
  eventAt(i) {
    if (!(i >= 0 && i < this._n)) return null;
    const f = this._fidx[i];
    return { index: i, kind: String.fromCharCode(this._kinds[i]), line: this._lines[i], frame: this._frames[f].id, depth: this._depth[f] };
  }

  /**
   * Where the cursor is. When finished: index === eventCount, line/frame/kind
   * null, stepNumber === totalStops.
   * @returns {{index: number, line: number|null, frame: number|null, kind: string|null,
   *            stepNumber: number, totalStops: number, finished: boolean}}
   */
  position() {
    const m = this._m;
    if (this._k >= m) return { index: this._n, line: null, frame: null, kind: null, stepNumber: m, totalStops: m, finished: true };
    const i = this._stops[this._k];
    return {
      index: i,
      line: this._lines[i],
      frame: this._frames[this._fidx[i]].id,
      kind: String.fromCharCode(this._kinds[i]),
      stepNumber: this._k + 1, // 1-based: "step 3 of 120"
      totalStops: m,
      finished: false,
    };
  }

  // -------------------------------------------------------------------------
  // Moves. Each returns {index, reason}; index === eventCount means finished.

  _at(k, reason) {
    if (k >= this._m) {
      this._k = this._m;
      return { index: this._n, reason: 'end' };
    }
    this._k = k < 0 ? 0 : k;
    return { index: this._stops[this._k], reason };
  }

  /** Stop number of an event that is a stop. */
  _stopOf(i) {
    return lastAtMost(this._stops, 0, this._m, i);
  }

  /**
   * First stop number after stop k whose depth is <= maxDepth, or totalStops.
   * Segment tree descent: climb until a right-hand subtree has a small enough
   * minimum, then walk down to its leftmost qualifying leaf.
   */
  _nextStopAtDepth(k, maxDepth) {
    const tree = this._tree, size = this._treeSize;
    if (k + 1 >= this._m) return this._m;
    let v = k + 1 + size;
    for (;;) {
      if (tree[v] <= maxDepth) {
        while (v < size) {
          v <<= 1;
          if (tree[v] > maxDepth) v++;
        }
        const s = v - size;
        return s < this._m ? s : this._m;
      }
      while (v & 1) {
        if (v === 1) return this._m;
        v >>= 1;
      }
      v++;
    }
  }

  /**
   * Last stop number before stop k whose depth is <= maxDepth, or -1 (the mirror
   * of _nextStopAtDepth: climb until a left-hand subtree qualifies, then walk
   * down to its rightmost qualifying leaf).
   */
  _prevStopAtDepth(k, maxDepth) {
    const tree = this._tree, size = this._treeSize;
    if (k <= 0) return -1;
    let v = k - 1 + size;
    for (;;) {
      if (tree[v] <= maxDepth) {
        while (v < size) {
          v = 2 * v + 1;
          if (tree[v] > maxDepth) v--;
        }
        return v - size;
      }
      while (!(v & 1)) {
        if (v === 1) return -1;
        v >>= 1;
      }
      if (v === 1) return -1;
      v--;
    }
  }

  /**
   * Move forward to stop number `target` (or finish), but pause earlier on any
   * stop that hits an enabled breakpoint — as pdb and VS Code do when a step
   * over/out runs through a breakpoint.
   */
  _forward(target) {
    if (this._k >= this._m) return this._at(this._m, 'end');
    const from = this._stops[this._k];
    const limit = target < this._m ? this._stops[target] : this._n - 1;
    const hit = this._nextHit(from, limit);
    if (hit >= 0) return this._at(this._stopOf(hit), 'breakpoint');
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
   * Next stop in the current frame or a caller (depth <= current depth), so
   * calls made from this line run without pausing (unless a breakpoint hits
   * inside them). On a leave event ('r', or the frame's final 'x') the frame
   * is done, so the move goes to the caller's next stop (depth < current).
   * Thus a frame's return is always shown before the caller resumes.
   * @returns {Move}
   */
  stepOver() {
    if (this._k >= this._m) return this._at(this._m, 'end');
    const i = this._stops[this._k];
    const d = this._depth[this._fidx[i]];
    return this._forward(this._nextStopAtDepth(this._k, this._isLeave(i) ? d - 1 : d));
  }

  /**
   * Run to the current frame's next leave event (its 'r', or the 'x' through
   * which an exception leaves it), so the reader sees the return value or the
   * exception. When already on a leave event: the caller's next stop (same as
   * stepOver there). If the frame's end was not recorded (a gap or a stopped
   * run), the first stop at a smaller depth, else finished. Breakpoints on the
   * way pause it.
   * @returns {Move}
   */
  stepOut() {
    if (this._k >= this._m) return this._at(this._m, 'end');
    const i = this._stops[this._k];
    const f = this._fidx[i];
    const d = this._depth[f];
    const outer = this._nextStopAtDepth(this._k, d - 1);
    if (this._isLeave(i)) return this._forward(outer);
    const lv = this._lvList;
    const p = firstGreater(lv, this._lvStart[f], this._lvStart[f + 1], i);
    let target = outer;
    if (p < this._lvStart[f + 1]) {
      const leaveStop = this._stopOf(lv[p]);
      if (leaveStop < target) target = leaveStop;
    }
    return this._forward(target);
  }

  /**
   * One step back in the current frame: the reverse of stepOver. The previous
   * stop at the current depth or a caller's, so a call made from the previous
   * line is stepped back over as a whole (its callee's stops are skipped), and
   * from a function's first stop it goes back to the line that called it. From
   * finished: the last stop. On the first stop: stays, reason 'start'.
   * Breakpoints do not apply going back (reverseContinue goes to them).
   * @returns {Move}
   */
  stepBack() {
    if (this._m === 0) return this._at(0, 'end');
    if (this._k >= this._m) return this._at(this._m - 1, 'step');
    if (this._k === 0) return this._at(0, 'start');
    const d = this._depth[this._fidx[this._stops[this._k]]];
    const k = this._prevStopAtDepth(this._k, d);
    return this._at(Math.max(k, 0), 'step');
  }

  /**
   * One stop back whatever frame it is in: the reverse of stepInto, so from the
   * line after a call it goes back into the callee (its return). From finished:
   * the last stop. On the first stop: stays, reason 'start'.
   * @returns {Move}
   */
  reverseStepInto() {
    if (this._m === 0) return this._at(0, 'end');
    if (this._k === 0) return this._at(0, 'start');
    return this._at(this._k - 1, 'step');
  }

  /**
   * The previous stop before the cursor that hits an enabled breakpoint
   * (conditions and hit counts applied, as continue() applies them), reason
   * 'breakpoint'; with none, the first stop, reason 'start'.
   * @returns {Move}
   */
  reverseContinue() {
    if (this._m === 0) return this._at(0, 'end');
    const before = this._k >= this._m ? this._n : this._stops[this._k];
    let best = -1;
    for (const bp of this._bps.values()) {
      if (!bp.enabled) continue;
      const h = this._prevHitOf(bp, before, best);
      if (h > best) best = h;
    }
    return best >= 0 ? this._at(this._stopOf(best), 'breakpoint') : this._at(0, 'start');
  }

  /**
   * Next stop after the cursor that hits an enabled breakpoint (reason
   * 'breakpoint'); with none, finishes (reason 'end').
   * @returns {Move}
   */
  continue() {
    return this._forward(this._m);
  }

  /**
   * Like continue(), but from before the first event, so a breakpoint on the
   * very first stop counts. This is "Debug" (F5 before anything is shown).
   * @returns {Move}
   */
  continueFromStart() {
    if (this._m === 0) return this._at(0, 'end');
    const hit = this._nextHit(-1, this._n - 1);
    if (hit >= 0) return this._at(this._stopOf(hit), 'breakpoint');
    return this._at(this._m, 'end');
  }

  /** Finish: cursor past the last event. @returns {Move} */
  toEnd() {
    return this._at(this._m, 'end');
  }

  /**
   * Timeline slider by event index: the nearest stop at or before i (the first
   * stop when i is before it; finished when i >= eventCount). reason 'start'
   * on the first stop, 'end' when finished, else 'step'.
   * @param {number} i
   * @returns {Move}
   */
  seek(i) {
    if (this._m === 0 || i >= this._n) return this._at(this._m, 'end');
    const k = Math.max(0, lastAtMost(this._stops, 0, this._m, Math.floor(i) || 0));
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
   * - condition: expression in the small language of conditions.js, over the
   *   locals of the frame at that event; '' or null = none. A condition that
   *   does not parse throws ConditionError (message names the column;
   *   `.position` is the 0-based offset). One that cannot be evaluated at an
   *   event stops there whatever the hit count (as bdb does), so the reader
   *   sees where and why; see conditionError / breakpoints()[].error.
   * - hitCount N: the first N-1 hits are skipped; the breakpoint pauses on its
   *   Nth hit and every later one. Hits are counted over the whole trace in
   *   event order (not in the order the reader navigated), after the
   *   condition: a hit is an 'l' event on the line whose condition is true.
   * - enabled: false keeps the breakpoint but ignores it.
   * @param {number} line
   * @param {{condition?: string|null, hitCount?: number|null, enabled?: boolean}} [opts]
   * @returns {BreakpointInfo}
   */
  setBreakpoint(line, opts = {}) {
    if (!isInt(line) || line < 1) throw new Error(`breakpoint line must be a positive integer, got ${line}`);
    const src = opts.condition == null ? '' : String(opts.condition).trim();
    const condition = src === '' ? null : parseCondition(src);
    const hc = opts.hitCount;
    if (hc != null && (!isInt(hc) || hc < 1)) throw new Error(`hit count must be a positive integer, got ${hc}`);
    const bp = {
      line,
      condition,
      hitCount: hc ?? null,
      enabled: opts.enabled !== false,
      error: null,
      // Condition results per 'l' event of the line (0 unknown, 1 true, 2 false)
      // and, for hit counts, the running number of hits; both filled lazily.
      results: null,
      cum: null,
      evalUpTo: 0,
    };
    this._bps.set(line, bp);
    this._condError = null;
    return bpInfo(bp);
  }

  /**
   * Toggle a plain breakpoint on a line (any existing one is removed).
   * @param {number} line
   * @returns {boolean} whether the line now has a breakpoint
   */
  toggleBreakpoint(line) {
    if (this._bps.has(line)) {
      this._bps.delete(line);
      this._condError = null;
      return false;
    }
    this.setBreakpoint(line);
    return true;
  }

  /** @param {number} line @returns {boolean} whether one was removed */
  removeBreakpoint(line) {
    this._condError = null;
    return this._bps.delete(line);
  }

  /** Remove all breakpoints. */
  clearBreakpoints() {
    this._bps.clear();
    this._condError = null;
  }

  /** @returns {BreakpointInfo[]} sorted by line */
  breakpoints() {
    return [...this._bps.values()].sort((a, b) => a.line - b.line).map(bpInfo);
  }

  /** The most recent condition evaluation failure, or null. @returns {{line: number, index: number, message: string}|null} */
  get conditionError() {
    return this._condError;
  }

  /**
   * Smallest event j with after < j <= limit that hits an enabled breakpoint,
   * or -1. Each breakpoint jumps through its line's event list; no scan of the
   * event table.
   */
  _nextHit(after, limit) {
    let best = -1;
    for (const bp of this._bps.values()) {
      if (!bp.enabled) continue;
      const h = this._nextHitOf(bp, after, best >= 0 ? best - 1 : limit);
      if (h >= 0) best = h;
    }
    return best;
  }

  _nextHitOf(bp, after, limit) {
    if (bp.line > this._maxLine || limit <= after) return -1;
    const le = this._leList;
    const s = this._leStart[bp.line], e = this._leStart[bp.line + 1];
    let p = firstGreater(le, s, e, after);
    const N = bp.hitCount ?? 1;
    if (!bp.condition) {
      // Without a condition the Nth hit is simply the Nth event on the line.
      if (p < s + N - 1) p = s + N - 1;
      return p < e && le[p] <= limit ? le[p] : -1;
    }
    if (!bp.results) {
      bp.results = new Uint8Array(e - s);
      if (N > 1) bp.cum = new Int32Array(e - s);
    }
    for (; p < e && le[p] <= limit; p++) {
      const q = p - s;
      if (N > 1) {
        this._countHitsUpTo(bp, s, q);
        if ((bp.results[q] === 1 && bp.cum[q] >= N) || bp.results[q] === 3) return le[p];
      } else if (this._condAt(bp, s, q)) return le[p];
    }
    return -1;
  }

  /** Largest event j with floor < j < before that hits bp, or -1. */
  _prevHitOf(bp, before, floor) {
    if (bp.line > this._maxLine) return -1;
    const le = this._leList;
    const s = this._leStart[bp.line], e = this._leStart[bp.line + 1];
    const p = firstGreater(le, s, e, before - 1) - 1;   // last line event < before
    if (p < s || le[p] <= floor) return -1;
    const N = bp.hitCount ?? 1;
    if (!bp.condition) return p >= s + N - 1 ? le[p] : -1;
    if (!bp.results) {
      bp.results = new Uint8Array(e - s);
      if (N > 1) bp.cum = new Int32Array(e - s);
    }
    if (N > 1) this._countHitsUpTo(bp, s, p - s);
    for (let q = p; q >= s && le[q] > floor; q--) {
      const r = q - s;
      if (N > 1) {
        if ((bp.results[r] === 1 && bp.cum[r] >= N) || bp.results[r] === 3) return le[q];
      } else if (this._condAt(bp, s, r)) return le[q];
    }
    return -1;
  }

  /** Fill bp.cum (hits so far, from the start of the trace) up to line-event q. */
  _countHitsUpTo(bp, s, q) {
    const cum = bp.cum;
    for (let r = bp.evalUpTo; r <= q; r++) {
      cum[r] = (r > 0 ? cum[r - 1] : 0) + (this._condAt(bp, s, r) ? 1 : 0);
    }
    if (q + 1 > bp.evalUpTo) bp.evalUpTo = q + 1;
  }

  /**
   * Condition of bp at its q-th line event (cached: 1 true, 2 false, 3 could not be
   * evaluated, which stops like a hit). The error of the event being stopped at is
   * `conditionError`.
   */
  _condAt(bp, s, q) {
    const cached = bp.results[q];
    const i = this._leList[s + q];
    if (cached === 3) {
      this._condError = { line: bp.line, index: i, message: bp.errors.get(i) };
      return true;
    }
    if (cached !== 0) return cached === 1;
    const lk = this._lookup();
    lk.moveTo(this._fidx[i], i);
    let ok = false;
    try {
      ok = bp.condition.test(lk.get);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      bp.error = { index: i, message };
      (bp.errors ??= new Map()).set(i, message);
      this._condError = { line: bp.line, index: i, message };
      bp.results[q] = 3;
      return true;
    }
    bp.results[q] = ok ? 1 : 2;
    return ok;
  }

  // -------------------------------------------------------------------------
  // Queries at any event index

  /** Position of frame fi's last full delta at or before event i, or -1. */
  _lastFull(fi, i) {
    const fl = this._fullList, end = this._fullStart[fi + 1];
    let p = -1;
    // Usually one or two entries (first event, first event after the gap).
    for (let j = this._fullStart[fi]; j < end && this._deltaEvent[fl[j]] <= i; j++) p = fl[j];
    return p;
  }

  /** Position of the last delta of `slot` at or before event i, or -1. */
  _lastChange(slot, i) {
    const first = this._slotStart[slot];
    const h = lastAtMostBy(this._deltaEvent, this._slotList, first, this._slotStart[slot + 1], i);
    return h >= first ? this._slotList[h] : -1;
  }

  /** The slot of `name` in frame fi, or -1 (a short scan: frames have few names). */
  _slotFor(fi, name) {
    const id = this._nameIds.get(name);
    if (id === undefined) return -1;
    for (let j = this._fsStart[fi], end = this._fsStart[fi + 1]; j < end; j++) {
      if (this._slotNameId[this._fsList[j]] === id) return this._fsList[j];
    }
    return -1;
  }

  /** Value of `name` given its last change position p (<= event i). */
  _valueAtPos(fi, name, p, i) {
    if (p < 0 || p < this._lastFull(fi, i)) return undefined;
    const set = this._deltas[p].set;
    return set && Object.hasOwn(set, name) ? this._value(set[name]) : undefined;
  }

  /**
   * A reusable name lookup for condition evaluation. Conditions are evaluated
   * over consecutive events of a line, mostly in one frame, so it remembers
   * each name's slot for the current frame and the last change position found,
   * and walks forward from it before falling back to binary search. This is
   * the inner loop of a conditional continue over hundreds of thousands of
   * hits.
   */
  _lookup() {
    if (this._lk) return this._lk;
    const eng = this;
    const ev = this._deltaEvent, list = this._slotList, start = this._slotStart;
    /** @type {Map<string, {slot: number, hint: number}>} */
    const names = new Map();
    const lk = {
      fi: -1,
      i: -1,
      moveTo(fi, i) {
        if (fi !== lk.fi) names.clear();
        lk.fi = fi;
        lk.i = i;
      },
      get(name) {
        let rec = names.get(name);
        if (rec === undefined) {
          rec = { slot: eng._slotFor(lk.fi, name), hint: -1 };
          names.set(name, rec);
        }
        const slot = rec.slot;
        if (slot < 0) return undefined;
        const i = lk.i, lo = start[slot], hi = start[slot + 1];
        let h = rec.hint;
        if (h >= lo && ev[list[h]] <= i) {
          for (let steps = 0; h + 1 < hi && ev[list[h + 1]] <= i; steps++) {
            if (steps === 8) {
              h = lastAtMostBy(ev, list, h + 1, hi, i);
              break;
            }
            h++;
          }
        } else {
          h = lastAtMostBy(ev, list, lo, hi, i);
        }
        rec.hint = h;
        return eng._valueAtPos(lk.fi, name, h >= lo ? list[h] : -1, i);
      },
    };
    this._lk = lk;
    return lk;
  }

  /**
   * Locals of the frame of event i (or of the frame with id `frameId`, e.g. a
   * caller on the stack), as of event i (fold of that frame's deltas with
   * index <= i). `changed`: names set at exactly event i (the UI marks them).
   * Outside 0..eventCount-1, or an unknown frame: frame null and nothing.
   * @param {number} i
   * @param {number|null} [frameId]
   * @returns {{frame: Frame|null, vars: Map<string, Value>, changed: Set<string>}}
   */
  localsAt(i, frameId = null) {
    const vars = new Map();
    const changed = new Set();
    if (!(i >= 0 && i < this._n)) return { frame: null, vars, changed };
    const fi = frameId == null ? this._fidx[i] : this._frameIndex(frameId);
    if (fi < 0) return { frame: null, vars, changed };
    const first = this._fsStart[fi], last = this._fsStart[fi + 1];
    if (first < last) {
      const full = this._lastFull(fi, i);
      for (let j = first; j < last; j++) {
        const slot = this._fsList[j];
        const p = this._lastChange(slot, i);
        if (p < 0 || p < full) continue;
        const name = this._names[this._slotNameId[slot]];
        const set = this._deltas[p].set;
        if (!set || !Object.hasOwn(set, name)) continue; // deleted
        vars.set(name, this._value(set[name]));
        if (this._deltaEvent[p] === i) changed.add(name);
      }
    }
    return { frame: this._frames[fi], vars, changed };
  }

  /**
   * Call stack at event i, outermost first, innermost last. The innermost
   * frame's line is event i's line; each caller's line is the line of its
   * latest event before i (the call it is waiting on), or null if none of its
   * events were kept. `def` is the frame's first line (its code's `def`, or
   * its first decorator).
   * @param {number} i
   * @returns {{id: number, function: string, line: number|null, def: number}[]}
   */
  stackAt(i) {
    if (!(i >= 0 && i < this._n)) return [];
    const out = [];
    let f = this._fidx[i];
    const frames = this._frames;
    out.push({ id: frames[f].id, function: frames[f].function, line: this._lines[i], def: frames[f].line });
    for (f = this._parent[f]; f >= 0; f = this._parent[f]) {
      const p = lastAtMost(this._feList, this._feStart[f], this._feStart[f + 1], i - 1);
      const line = p >= this._feStart[f] ? this._lines[this._feList[p]] : null;
      out.push({ id: frames[f].id, function: frames[f].function, line, def: frames[f].line });
    }
    return out.reverse();
  }

  /**
   * Output visible when paused at event i. A stdout entry [e, text] was written
   * after event e ran and before event e+1, so paused at i (about to run it)
   * the visible output is every entry with e < i; entries with e = -1 (setup)
   * are always included. stdoutUntil(eventCount) — the finished state — is all
   * kept output (trace.stdout_text is the run's whole, bounded, stdout).
   * @param {number} i
   * @returns {string}
   */
  stdoutUntil(i) {
    const count = firstGreater(this._outEvent, 0, this._outEvent.length, i - 1);
    return this._outText.slice(0, this._outCum[count]);
  }

  /** A Value, resolving a version-2 pool index. */
  _value(v) {
    return this._pool !== null && typeof v === 'number' ? this._pool[v] : v;
  }

  /** Return value (Value) recorded at 'r' event i, or null. @param {number} i */
  returnAt(i) {
    return this._returns.has(i) ? this._value(this._returns.get(i)) : null;
  }

  /** Exception {type, message} recorded at 'x' event i, or null. @param {number} i */
  exceptionAt(i) {
    return this._exceptions.get(i) ?? null;
  }

  /**
   * The dropped middle of a runaway run, or null. Events 0..after are the head
   * window, after+1..eventCount-1 the tail; `dropped` events ran in between.
   * @returns {{after: number, dropped: number, firstAfter: number}|null}
   */
  gapInfo() {
    return this._gap ? { after: this._gap.after, dropped: this._gap.dropped, firstAfter: this._gap.after + 1 } : null;
  }

  /**
   * Whether the gap lies right before event i: i is in the tail window and no
   * stop lies between the gap and i. True for the first stop after the gap,
   * which is where the UI shows "… N events not recorded".
   * @param {number} i
   */
  isAfterGap(i) {
    const g = this._gap;
    if (!g || !(i > g.after) || i >= this._n) return false;
    const k = firstGreater(this._stops, 0, this._m, g.after);
    return k >= this._m || this._stops[k] >= i;
  }
}

function bpInfo(bp) {
  return {
    line: bp.line,
    condition: bp.condition ? bp.condition.source : null,
    hitCount: bp.hitCount,
    enabled: bp.enabled,
    error: bp.error,
  };
}

function validateHeader(trace) {
  if (trace === null || typeof trace !== 'object' || Array.isArray(trace)) {
    throw new Error('Not a Stepwise trace: expected a JSON object');
  }
  if (trace.format !== 'stepwise-trace') {
    throw new Error(`Not a Stepwise trace: format is ${JSON.stringify(trace.format)} (expected "stepwise-trace")`);
  }
  if (trace.version !== 1 && trace.version !== 2) {
    throw new Error(`Unsupported Stepwise trace version ${JSON.stringify(trace.version)} (this page reads versions 1 and 2)`);
  }
}
