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
import { fromDocument, ValueTable } from './trace-columns.js';

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

/** What a built replay holds about its trace (sent from the worker by `parts()`). */
const INDEX_FIELDS = [
  'trace', '_F', '_frameId', '_frameLine', '_frameFn', '_functions', '_idTable', '_parent', '_depth',
  '_n', '_kinds', '_lines', '_fidx', '_feStart', '_feList', '_leStart', '_leList', '_maxLine', '_stops', '_m',
  '_lvStart', '_lvList', '_tree', '_treeSize', '_gap',
  '_deltaEvent', '_fullStart', '_fullList', '_names', '_slotNameId', '_slotStart', '_slotList', '_slotValue',
  '_fsStart', '_fsList', '_returnEvent', '_returnValue', '_exceptions', '_outEvent', '_outCum', '_outText',
];

/** Conditions evaluated before deciding whether remembering answers per change pays (see _condAt). */
const MEMO_TRIAL = 256;

const EMPTY_TRACE = Object.freeze({
  format: 'stepwise-trace', version: 2, frames: [], events: { kind: '', line: [], frame: [] }, values: [],
  locals: [], returns: [], exceptions: [], stdout: [], gap: null,
});

function fail(msg) {
  throw new Error(`Bad Stepwise trace: ${msg}`);
}

const isInt = (x) => Number.isInteger(x);

// ---------------------------------------------------------------------------

export class Replay {
  /**
   * Build a replay over a trace: the JSON document from the recorder (an object), or its columns
   * (`trace-columns.js`, e.g. the packed form the worker reads). Throws an Error with a readable
   * message when it is not a valid Stepwise trace. The cursor starts at the first stop (as after
   * start()).
   * @param {any} trace
   */
  constructor(trace) {
    const columns = trace && trace.events && trace.events.kind instanceof Uint8Array ? trace : fromDocument(trace);
    /** The document without its tables (read-only for callers: end, files, stats, ...). */
    this.trace = columns.header;
    this._values = columns.values;
    this._buildFrames(columns.frames, columns.functions);
    this._buildEvents(columns.events);
    this._buildGap(columns.gap);
    this._buildLocals(columns);
    this._buildOutput(columns);
    this._init();
  }

  /** The state that belongs to the page, not to the trace (breakpoints, cursor). */
  _init() {
    /** @type {Map<number, any>} line -> internal breakpoint */
    this._bps = new Map();
    /** @type {{line: number, index: number, message: string}|null} */
    this._condError = null;
    this._k = 0; // cursor as a stop number (0-based); === totalStops when finished
    this._lk = null;
    /** @type {Map<string, number>} */
    this._nameIds = new Map(this._names.map((name, id) => [name, id]));
    /** @type {Map<number, number>|null} frame id -> position, when ids are sparse */
    this._idMap = this._idTable ? null : new Map(Array.from(this._frameId, (id, f) => [id, f]));
  }

  /**
   * Everything the indexes hold, for postMessage: build the replay where the trace arrives
   * (the worker) and send it built. `transfer` lists the buffers to move rather than copy.
   * @returns {{parts: Record<string, any>, transfer: ArrayBuffer[]}}
   */
  parts() {
    const parts = {};
    for (const key of INDEX_FIELDS) parts[key] = this[key];
    parts._values = this._values.parts();
    const transfer = new Set();
    const add = (x) => { if (ArrayBuffer.isView(x) && x.buffer instanceof ArrayBuffer) transfer.add(x.buffer); };
    for (const key of INDEX_FIELDS) add(this[key]);
    for (const x of Object.values(parts._values)) add(x);
    for (const x of Object.values(parts._values.previews)) add(x);
    return { parts, transfer: [...transfer] };
  }

  /** A replay from `parts()` (no indexing: it was done where the parts were made). */
  static fromParts(parts) {
    // Made by the constructor (over an empty trace) and then filled: an object given its fields
    // one by one in a loop turns into a slow dictionary in V8 (a conditional continue took 2x).
    const replay = new Replay(EMPTY_TRACE);
    for (const key of INDEX_FIELDS) replay[key] = parts[key];
    replay._values = ValueTable.revive(parts._values);
    replay._init();
    return replay;
  }

  // -------------------------------------------------------------------------
  // Index construction

  /** Frame position of a frame id, or -1. @param {number} id */
  _frameIndex(id) {
    const table = this._idTable;
    if (table !== null) return isInt(id) && id >= 0 && id < table.length ? table[id] : -1;
    return this._idMap.get(id) ?? -1;
  }

  /** The frame at position f as callers see it. @param {number} f @returns {Frame} */
  _frame(f) {
    const parent = this._parent[f];
    return { id: this._frameId[f], function: this._functions[this._frameFn[f]],
             parent: parent >= 0 ? this._frameId[parent] : null, line: this._frameLine[f] };
  }

  _buildFrames(frames, functions) {
    const F = frames.id.length;
    this._F = F;
    this._frameId = frames.id;
    this._frameLine = frames.line;
    this._frameFn = frames.fn;
    this._functions = functions;
    // Frame ids are small ints in practice; a dense lookup table is much faster
    // than a Map when translating a million event frame ids.
    let maxId = -1;
    for (let f = 0; f < F; f++) if (frames.id[f] > maxId) maxId = frames.id[f];
    this._idTable = null;
    this._idMap = null;
    if (maxId < 4 * F + 1024) {
      const table = new Int32Array(maxId + 1).fill(-1);
      for (let f = 0; f < F; f++) {
        if (table[frames.id[f]] !== -1) fail(`duplicate frame id ${frames.id[f]}`);
        table[frames.id[f]] = f;
      }
      this._idTable = table;
    } else {
      const map = new Map();
      for (let f = 0; f < F; f++) {
        if (map.has(frames.id[f])) fail(`duplicate frame id ${frames.id[f]}`);
        map.set(frames.id[f], f);
      }
      this._idMap = map;
    }
    for (let f = 0; f < F; f++) {
      if (!(frames.fn[f] >= 0 && frames.fn[f] < functions.length)) fail(`frame ${frames.id[f]} names an unknown function`);
    }
    const parent = new Int32Array(F);
    for (let f = 0; f < F; f++) {
      const p = frames.parent[f];
      if (p < 0) parent[f] = -1;
      else {
        parent[f] = this._frameIndex(p);
        if (parent[f] < 0) fail(`frame ${frames.id[f]} has unknown parent ${p}`);
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
        if (chain.length > F) fail(`frame parents form a cycle at frame ${frames.id[f]}`);
        g = parent[g];
      }
      let d = g >= 0 ? depth[g] : -1;
      while (chain.length) depth[chain.pop()] = ++d;
    }
    this._parent = parent;
    this._depth = depth;
  }

  _buildEvents(events) {
    const kinds = events.kind, lines = events.line, ids = events.frame;
    const n = kinds.length;
    if (lines.length !== n || ids.length !== n) fail(`events.line and events.frame must have ${n} entries (one per event)`);
    const F = this._F;
    const fidx = new Int32Array(n);
    const frameCount = new Int32Array(F + 1);
    const table = this._idTable, tableLen = table ? table.length : 0;
    let stopCount = 0, maxLine = 0;
    for (let i = 0; i < n; i++) {
      const c = kinds[i];
      if (c !== C_LINE && c !== C_CALL && c !== C_RETURN && c !== C_EXC) fail(`events.kind[${i}] is '${String.fromCharCode(c)}' (expected c, l, r or x)`);
      if (c !== C_CALL) stopCount++;
      const ln = lines[i];
      if (ln < 0) fail(`events.line[${i}] is not a line number`);
      if (ln > maxLine) maxLine = ln;
      // Dense id table inlined: this loop runs a million times.
      const id = ids[i];
      const f = table !== null ? (id >= 0 && id < tableLen ? table[id] : -1) : this._frameIndex(id);
      if (f < 0) fail(`events.frame[${i}] refers to unknown frame ${id}`);
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
    const isLeave = (i) => this._isLeave(i);
    const lvStart = new Int32Array(F + 1);
    for (let k = 0; k < stopCount; k++) if (isLeave(stops[k])) lvStart[fidx[stops[k]] + 1]++;
    for (let f = 0; f < F; f++) lvStart[f + 1] += lvStart[f];
    const lvList = new Int32Array(lvStart[F]);
    const vfill = lvStart.slice(0, F);
    for (let k = 0; k < stopCount; k++) if (isLeave(stops[k])) lvList[vfill[fidx[stops[k]]]++] = stops[k];
    this._lvStart = lvStart;
    this._lvList = lvList;

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

  /** Is event i where its frame is left (an 'r', or an 'x' that is the frame's last event)? */
  _isLeave(i) {
    const c = this._kinds[i];
    if (c === C_RETURN) return true;
    if (c !== C_EXC) return false;
    const f = this._fidx[i];
    return this._feList[this._feStart[f + 1] - 1] === i;
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

  _buildLocals(columns) {
    const { deltas, sets } = columns;
    const D = deltas.event.length;
    const F = this._F;
    const deltaEvent = deltas.event;
    const n = this._n;
    // Where each delta's `set` entries start (CSR over the set columns).
    const setStart = new Int32Array(D + 1);
    for (let p = 0, prev = -1; p < D; p++) {
      const i = deltaEvent[p];
      if (i < 0 || i >= n) fail(`locals[${p}].i is not an event index`);
      if (i < prev) fail(`locals[${p}] is out of event order`);
      prev = i;
      setStart[p + 1] = setStart[p] + deltas.sets[p];
    }
    if (setStart[D] !== sets.name.length || sets.value.length !== sets.name.length) fail("the locals' set columns do not add up");
    // Deleted names per delta position (rare), merged into the entry walk below.
    const deleted = columns.deleted.slice().sort((a, b) => a[0] - b[0]);
    for (const d of deleted) if (!Array.isArray(d) || !isInt(d[0]) || d[0] < 0 || d[0] >= D) fail('"deleted" names a delta that is not there');
    const names = columns.names.slice();
    const nameIds = new Map(names.map((name, id) => [name, id]));
    const nameId = (name) => {
      let id = nameIds.get(name);
      if (id === undefined) nameIds.set(name, (id = names.push(name) - 1));
      return id;
    };
    // Full deltas (usually one per frame, two across a gap), as CSR below.
    const fullCount = new Int32Array(F + 1);
    let fullPos = new Int32Array(1024);
    let fullFrame = new Int32Array(1024);
    let nFull = 0;

    // A "slot" is one local name of one frame. Its change list holds the
    // positions of the deltas that set or deleted it, with the value set (-1:
    // deleted), so the value of a name at any event is one binary search. One
    // pass records (slot, delta, value) entries in flat growable arrays; then
    // they are laid out as CSR. Everything is typed arrays: hundreds of
    // thousands of small JS arrays or Map entries made construction several
    // times slower (mostly GC).
    const frameHead = new Int32Array(F).fill(-1); // first slot of a frame (chain)
    let slotNext = new Int32Array(1024); // next slot of the same frame
    let slotNameId = new Int32Array(1024);
    let slotFrame = new Int32Array(1024);
    let slotCount = new Int32Array(1024);
    let S = 0;
    let entSlot = new Int32Array(Math.max(1024, sets.name.length + deleted.length));
    let entDelta = new Int32Array(entSlot.length);
    let entValue = new Int32Array(entSlot.length);
    let E = 0;
    // Last (frame, slot) seen per name id: consecutive deltas of one frame
    // touch the same names, so most lookups skip the chain walk.
    let cacheFrame = new Int32Array(Math.max(64, names.length)).fill(-1);
    let cacheSlot = new Int32Array(cacheFrame.length);
    const lastTail = new Int32Array(F).fill(-1); // chain tail per frame, to append in first-seen order

    const touch = (fi, id, p, value) => {
      if (id >= cacheFrame.length) {
        cacheFrame = grow(cacheFrame, -1);
        cacheSlot = grow(cacheSlot);
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
        return; // the same name in both set and del of one delta: the set stands
      }
      cacheFrame[id] = fi;
      cacheSlot[id] = slot;
      if (E >= entSlot.length) {
        entSlot = grow(entSlot);
        entDelta = grow(entDelta);
        entValue = grow(entValue);
      }
      entSlot[E] = slot;
      entDelta[E] = p;
      entValue[E++] = value;
      slotCount[slot]++;
    };

    const setName = sets.name, setValue = sets.value, nNames = columns.names.length, nValues = columns.values.size;
    const deltaFrame = deltas.frame, full = deltas.full;
    const fi = new Int32Array(D); // frame position of each delta
    for (let p = 0, x = 0; p < D; p++) {
      const f = this._frameIndex(deltaFrame[p]);
      if (f < 0) fail(`locals[${p}].f refers to unknown frame ${deltaFrame[p]}`);
      fi[p] = f;
      if (full[p]) {
        if (nFull >= fullPos.length) {
          fullPos = grow(fullPos);
          fullFrame = grow(fullFrame);
        }
        fullFrame[nFull] = f;
        fullPos[nFull++] = p;
        fullCount[f + 1]++;
      }
      for (let e = setStart[p], end = setStart[p + 1]; e < end; e++) {
        const id = setName[e];
        if (!(id >= 0 && id < nNames)) fail(`locals[${p}] names an unknown local (${id})`);
        if (!(setValue[e] >= 0 && setValue[e] < nValues)) fail(`locals[${p}] refers to value ${setValue[e]}, outside the pool`);
        touch(f, id, p, setValue[e]);
      }
      for (; x < deleted.length && deleted[x][0] <= p; x++) {
        if (deleted[x][0] === p) touch(f, nameId(String(deleted[x][1])), p, -1);
      }
    }

    // Slot change lists (CSR): slot s's delta positions are
    // slotList[slotStart[s]..slotStart[s+1]), ascending; slotValue holds what each set.
    const slotStart = new Int32Array(S + 1);
    for (let sl = 0; sl < S; sl++) slotStart[sl + 1] = slotStart[sl] + slotCount[sl];
    const slotList = new Int32Array(E);
    const slotValue = new Int32Array(E);
    const fill = slotStart.slice(0, S);
    for (let e = 0; e < E; e++) {
      const at = fill[entSlot[e]]++;
      slotList[at] = entDelta[e];
      slotValue[at] = entValue[e];
    }
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
    for (let j = 0; j < nFull; j++) fullList[gfill[fullFrame[j]]++] = fullPos[j];

    this._deltaEvent = deltaEvent;
    this._fullStart = fullCount;
    this._fullList = fullList;
    this._names = names;
    this._slotNameId = slotNameId.slice(0, S);
    this._slotStart = slotStart;
    this._slotList = slotList;
    this._slotValue = slotValue;
    this._fsStart = fsStart;
    this._fsList = fsList;
  }

  _buildOutput(columns) {
    const n = this._n;
    const returns = columns.returns;
    for (let j = 0; j < returns.event.length; j++) {
      const e = returns.event[j];
      if (e < 0 || e >= n) fail(`returns[${j}] must be [event, value] with a valid event`);
      if (!(returns.value[j] >= 0 && returns.value[j] < columns.values.size)) fail(`returns[${j}] refers to a value outside the pool`);
      if (j > 0 && e <= returns.event[j - 1]) fail(`returns[${j}] is out of event order`);
    }
    this._returnEvent = returns.event;
    this._returnValue = returns.value;
    const exceptions = columns.exceptions;
    for (let j = 0; j < exceptions.length; j++) {
      const e = exceptions[j];
      if (!Array.isArray(e) || !isInt(e[0]) || e[0] < 0 || e[0] >= n) fail(`exceptions[${j}] must be [event, value] with a valid event`);
    }
    this._exceptions = new Map(exceptions.map((e) => [e[0], e[1]]));

    let out = columns.stdout;
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
    return { index: i, kind: String.fromCharCode(this._kinds[i]), line: this._lines[i], frame: this._frameId[f], depth: this._depth[f] };
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
      frame: this._frameId[this._fidx[i]],
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
      // The last answer and what it was given (frame, full snapshot, each name's change entry).
      nameList: null,
      memoKey: null,
      memoResult: 0,
      memoMessage: '',
      memoTries: 0,
      memoHits: 0,
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
    const fi = this._fidx[i];
    lk.moveTo(fi, i);
    // Per change, not per hit: the answer depends only on the frame, its last full snapshot and the
    // entries of the names the condition reads. While none of them moved, the last answer stands
    // (`len(groups) > 1` on a hot line is evaluated once per change of `groups`). When the names
    // change at nearly every hit (`i == k` in a loop) the check only costs, so it is dropped.
    let same = false;
    if (bp.memoTries < MEMO_TRIAL || bp.memoHits * 8 >= bp.memoTries) {
      const names = (bp.nameList ??= [...bp.condition.names]);
      const key = (bp.memoKey ??= new Int32Array(names.length + 2).fill(-2));
      const full = this._lastFull(fi, i);
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
    let result = same ? bp.memoResult : 0;
    if (result === 0) {
      try {
        result = bp.condition.test(lk.get) ? 1 : 2;
      } catch (err) {
        bp.memoMessage = err instanceof Error ? err.message : String(err);
        result = 3;
      }
      bp.memoResult = result;
    }
    bp.results[q] = result;
    if (result === 3) {
      const message = bp.memoMessage;
      bp.error = { index: i, message };
      (bp.errors ??= new Map()).set(i, message);
      this._condError = { line: bp.line, index: i, message };
      return true;
    }
    return result === 1;
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

  /** Change-list entry of `slot`'s last change at or before event i, or -1. */
  _lastChange(slot, i) {
    const first = this._slotStart[slot];
    const h = lastAtMostBy(this._deltaEvent, this._slotList, first, this._slotStart[slot + 1], i);
    return h >= first ? h : -1;
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

  /** What a condition sees of the value set by change-list entry h (-1: none), as of event i
   * (`ValueTable.runtime`), or undefined when the name is unbound there. */
  _valueAtEntry(fi, h, i) {
    if (h < 0) return undefined;
    const ref = this._slotValue[h];
    if (ref < 0 || this._slotList[h] < this._lastFull(fi, i)) return undefined;
    return this._values.runtime(ref);
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
      /** The entry of `name`'s last change at or before the current event (-1: none). */
      entry(name) {
        let rec = names.get(name);
        if (rec === undefined) {
          rec = { slot: eng._slotFor(lk.fi, name), hint: -1 };
          names.set(name, rec);
        }
        const slot = rec.slot;
        if (slot < 0) return -1;
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
        return h >= lo ? h : -1;
      },
      get(name) {
        return eng._valueAtEntry(lk.fi, lk.entry(name), lk.i);
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
        const h = this._lastChange(slot, i);
        if (h < 0) continue;
        const p = this._slotList[h], ref = this._slotValue[h];
        if (p < full || ref < 0) continue; // before the frame's last full snapshot, or deleted
        const name = this._names[this._slotNameId[slot]];
        vars.set(name, this._values.get(ref));
        if (this._deltaEvent[p] === i) changed.add(name);
      }
    }
    return { frame: this._frame(fi), vars, changed };
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
    const ids = this._frameId, fns = this._frameFn, defs = this._frameLine, functions = this._functions;
    out.push({ id: ids[f], function: functions[fns[f]], line: this._lines[i], def: defs[f] });
    for (f = this._parent[f]; f >= 0; f = this._parent[f]) {
      const p = lastAtMost(this._feList, this._feStart[f], this._feStart[f + 1], i - 1);
      const line = p >= this._feStart[f] ? this._lines[this._feList[p]] : null;
      out.push({ id: ids[f], function: functions[fns[f]], line, def: defs[f] });
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

  /** Return value (Value) recorded at 'r' event i, or null. @param {number} i */
  returnAt(i) {
    const events = this._returnEvent;
    const j = lastAtMost(events, 0, events.length, i);
    return j >= 0 && events[j] === i ? this._values.get(this._returnValue[j]) ?? null : null;
  }

  /** Did a frame with no recorded caller return normally (not unwind, not stopped)? */
  returnedAtTop() {
    const events = this._returnEvent;
    for (let j = 0; j < events.length; j++) if (this._depth[this._fidx[events[j]]] === 0) return true;
    return false;
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
