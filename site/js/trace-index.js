// The indexes a replay answers from, built once per trace (O(n)) so that every move and query is
// a binary search or a segment-tree descent — within a 16 ms frame at 1,000,000 events:
//   - stops            the event indexes where the reader can pause ('l', 'r', 'x'; never 'c')
//   - stop depth tree  min segment tree over stop depths ("next stop at depth <= D")
//   - per-frame events CSR lists (stack lines) and per-frame leave events (step out)
//   - per-line events  CSR list of 'l' events per line that arrive at it (breakpoints jump, never scan)
//   - repeats          'l' events that only go round the line already running (a comprehension's items)
//   - locals           locals-index.js: per-(frame, name) change lists
//   - objects          object-changes.js: per object number, the steps its own content changed at
//   - output           one joined string and cumulative lengths
//
// Terms:
//   leave   an event where a frame is left: every 'r', and an 'x' that is the frame's last event
//           (the exception propagated out of it).
//   depth   number of recorded ancestors of a frame.
//   repeat  an 'l' event that does not arrive at its line but goes round it again: the frame's
//           event before it was an 'l' on the same line (an inlined comprehension's next item, a
//           one-line loop), or a comprehension's frame (<genexpr>, <listcomp>, ...) runs it on the
//           line its caller is on. A breakpoint hits where a line is arrived at, and Step over /
//           Step back pass over repeats, so a comprehension line is one step, not one per item.
// Frames are addressed by position (0..frameCount-1) inside the engine, by id outside it.

import { LocalsIndex } from './locals-index.js';
import { objectChanges } from './object-changes.js';
import { firstGreater, lastAtMost, prefixSums } from './sorted-arrays.js';
import { fromDocument, ValueTable } from './trace-columns.js';

/**
 * @typedef {import('./trace-columns.js').TraceColumns} TraceColumns
 * @typedef {{id: number, function: string, parent: number|null, line: number}} Frame
 * @typedef {{t: string, r: string, [key: string]: any}} Value
 */

export const C_CALL = 99; // 'c'
export const C_LINE = 108; // 'l'
export const C_RETURN = 114; // 'r'
export const C_EXC = 120; // 'x'

function fail(msg) {
  throw new Error(`Bad Stepwise trace: ${msg}`);
}

const isInt = (x) => Number.isInteger(x);

/** The code names CPython gives a comprehension's own frame (3.14 keeps one for generator expressions). */
const COMPREHENSIONS = new Set(['<genexpr>', '<listcomp>', '<setcomp>', '<dictcomp>']);

/** What `parts()` sends of a TraceIndex besides its locals and values. */
const FIELDS = [
  'header', 'frameCount', 'frameId', 'frameLine', 'frameFn', 'functions', '_idTable', 'parent', 'depth',
  'eventCount', 'kinds', 'lines', 'frameOf', 'frameEventStart', 'frameEvents', 'lineEventStart', 'lineEvents', 'repeats',
  'maxLine', 'stops', 'stopCount', 'leaveStart', 'leaves', '_depthTree', '_treeSize', 'gap',
  'returnEvent', 'returnValue', 'exceptions', 'helpers', 'closures', 'outEvent', 'outCum', 'outText',
  'objectIds', 'objectStart', 'objectEvent', 'objectRef', 'objectFrame', 'entryTop', 'bindings',
  'itemKeys', 'itemStart', 'itemChange',
];

const EMPTY_TRACE = Object.freeze({
  format: 'stepwise-trace', version: 3, frames: [], events: { kind: '', line: [], frame: [] }, values: [],
  locals: [], returns: [], exceptions: [], stdout: [], gap: null,
});

export class TraceIndex {
  /**
   * Index a trace: the JSON document (an object) or its columns (`trace-columns.js`). Throws an
   * Error with a readable message when it is not a valid Stepwise trace.
   * @param {any} trace
   */
  constructor(trace) {
    /** @type {TraceColumns} */
    const columns = trace && trace.events && trace.events.kind instanceof Uint8Array ? trace : fromDocument(trace);
    /** The document without its tables (end, files, stats, ...). */
    this.header = columns.header;
    this.values = columns.values;
    this._buildFrames(columns.frames, columns.functions);
    this._buildEvents(columns.events);
    this._buildStops();
    this._buildGap(columns.gap);
    this.locals = new LocalsIndex(columns, this);
    const objects = objectChanges(this.locals, this.frameCount);
    /** Object numbers seen, ascending, and per number its changes (object-changes.js): where-from reads them. */
    this.objectIds = objects.objectIds;
    this.objectStart = objects.objectStart;
    this.objectEvent = objects.objectEvent;
    this.objectRef = objects.objectRef;
    this.objectFrame = objects.objectFrame;
    /** Per change entry of a local, the number of the object it holds (-1: none). */
    this.entryTop = objects.entryTop;
    /** The change entries that bind a name anew, ascending (where-from's answer for a name: a search). */
    this.bindings = objects.bindings;
    /** Per item of an object ("<number> <key>"), the object changes that changed it (object-changes.js). */
    this.itemKeys = objects.itemKeys;
    this.itemStart = objects.itemStart;
    this.itemChange = objects.itemChange;
    this._buildReturns(columns);
    this._buildOutput(columns.stdout);
    this._init();
  }

  _init() {
    /** @type {Map<number, number>|null} frame id -> position, when ids are sparse */
    this._idMap = this._idTable ? null : new Map(Array.from(this.frameId, (id, f) => [id, f]));
  }

  /**
   * Everything the indexes hold, for postMessage: index where the trace arrives (the worker) and
   * send it built. `transfer` lists the buffers to move rather than copy.
   * @returns {{parts: Record<string, any>, transfer: ArrayBuffer[]}}
   */
  parts() {
    const fields = Object.fromEntries(FIELDS.map((key) => [key, this[key]]));
    const parts = { fields, locals: this.locals.parts() };
    const transfer = new Set();
    const add = (x) => { if (ArrayBuffer.isView(x) && x.buffer instanceof ArrayBuffer) transfer.add(x.buffer); };
    for (const x of Object.values(fields)) add(x);
    for (const x of Object.values(parts.locals.fields)) add(x);
    for (const x of Object.values(parts.locals.values)) add(x);
    for (const x of Object.values(parts.locals.values.previews)) add(x);
    return { parts, transfer: [...transfer] };
  }

  /**
   * An index from `parts()` (no indexing: it was done where the parts were made). Made by the
   * constructor over an empty trace and then filled, so it keeps the shape V8 optimises for.
   */
  static revive(parts) {
    const index = new TraceIndex(EMPTY_TRACE);
    for (const key of FIELDS) index[key] = parts.fields[key];
    index.values = ValueTable.revive(parts.locals.values);
    index.locals.adopt(parts.locals, index.values);
    index._init();
    return index;
  }

  // -------------------------------------------------------------------------
  // Construction

  /** Frame position of a frame id, or -1. @param {number} id */
  frameIndex(id) {
    const table = this._idTable;
    if (table !== null) return isInt(id) && id >= 0 && id < table.length ? table[id] : -1;
    return this._idMap.get(id) ?? -1;
  }

  _buildFrames(frames, functions) {
    const F = frames.id.length;
    this.frameCount = F;
    this.frameId = frames.id;
    this.frameLine = frames.line;
    this.frameFn = frames.fn;
    this.functions = functions;
    // Frame ids are small ints in practice; a dense lookup table is much faster than a Map when
    // translating a million event frame ids.
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
        parent[f] = this.frameIndex(p);
        if (parent[f] < 0) fail(`frame ${frames.id[f]} has unknown parent ${p}`);
      }
    }
    this.parent = parent;
    this.depth = frameDepths(parent, frames.id);
  }

  _buildEvents(events) {
    const kinds = events.kind, lines = events.line, ids = events.frame;
    const n = kinds.length;
    if (lines.length !== n || ids.length !== n) fail(`events.line and events.frame must have ${n} entries (one per event)`);
    const F = this.frameCount;
    const frameOf = new Int32Array(n);
    const frameEventStart = new Int32Array(F + 1);
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
      const f = table !== null ? (id >= 0 && id < tableLen ? table[id] : -1) : this.frameIndex(id);
      if (f < 0) fail(`events.frame[${i}] refers to unknown frame ${id}`);
      frameOf[i] = f;
      frameEventStart[f + 1]++;
    }
    this.eventCount = n;
    this.kinds = kinds;
    this.lines = lines;
    this.frameOf = frameOf;
    this.maxLine = maxLine;
    this.stopCount = stopCount;
    // Per-frame event lists: frame f's events are frameEvents[frameEventStart[f]..frameEventStart[f+1]).
    prefixSums(frameEventStart);
    const frameEvents = new Int32Array(n);
    const fill = frameEventStart.slice(0, F);
    const repeats = this._findRepeats(kinds, lines, frameOf);
    // Per-line lists of the 'l' events that arrive at their line, for breakpoints.
    const lineEventStart = new Int32Array(maxLine + 2);
    for (let i = 0; i < n; i++) {
      frameEvents[fill[frameOf[i]]++] = i;
      if (kinds[i] === C_LINE && !repeats[i]) lineEventStart[lines[i] + 1]++;
    }
    prefixSums(lineEventStart);
    const lineEvents = new Int32Array(lineEventStart[maxLine + 1]);
    const lfill = lineEventStart.slice(0, maxLine + 1);
    for (let i = 0; i < n; i++) if (kinds[i] === C_LINE && !repeats[i]) lineEvents[lfill[lines[i]]++] = i;
    this.repeats = repeats;
    this.frameEventStart = frameEventStart;
    this.frameEvents = frameEvents;
    this.lineEventStart = lineEventStart;
    this.lineEvents = lineEvents;
  }

  /** 1 at each repeat 'l' event (see Terms), else 0. */
  _findRepeats(kinds, lines, frameOf) {
    const n = kinds.length, F = this.frameCount, parent = this.parent;
    const repeats = new Uint8Array(n);
    const lastKind = new Uint8Array(F), lastLine = new Int32Array(F).fill(-1);
    const comprehension = Uint8Array.from(this.frameFn, (fn) => (COMPREHENSIONS.has(this.functions[fn]) ? 1 : 0));
    for (let i = 0; i < n; i++) {
      const f = frameOf[i], c = kinds[i], line = lines[i];
      if (c === C_LINE && ((lastKind[f] === C_LINE && lastLine[f] === line)
          || (comprehension[f] && parent[f] >= 0 && lastLine[parent[f]] === line))) repeats[i] = 1;
      lastKind[f] = c;
      lastLine[f] = line;
    }
    return repeats;
  }

  /** The stops, each frame's leave events (step out) and the depth tree (step over, step back). */
  _buildStops() {
    const n = this.eventCount, m = this.stopCount, F = this.frameCount;
    const kinds = this.kinds, frameOf = this.frameOf, depth = this.depth;
    const stops = new Int32Array(m);
    const stopDepth = new Int32Array(m);
    for (let i = 0, s = 0; i < n; i++) {
      if (kinds[i] === C_CALL) continue;
      stops[s] = i;
      stopDepth[s++] = depth[frameOf[i]];
    }
    this.stops = stops;
    // An 'x' leaves the frame only when nothing of that frame follows it (otherwise the exception
    // was caught there, or — with settrace — the frame's 'r' follows and is the leave).
    const leaveStart = new Int32Array(F + 1);
    for (let k = 0; k < m; k++) if (this.isLeave(stops[k])) leaveStart[frameOf[stops[k]] + 1]++;
    prefixSums(leaveStart);
    const leaves = new Int32Array(leaveStart[F]);
    const fill = leaveStart.slice(0, F);
    for (let k = 0; k < m; k++) if (this.isLeave(stops[k])) leaves[fill[frameOf[stops[k]]]++] = stops[k];
    this.leaveStart = leaveStart;
    this.leaves = leaves;
    // Min segment tree over stop depths: "first stop after k with depth <= D" in O(log n).
    let size = 1;
    while (size < m) size <<= 1;
    const tree = new Int32Array(2 * size).fill(0x7fffffff);
    tree.set(stopDepth, size);
    for (let v = size - 1; v >= 1; v--) tree[v] = Math.min(tree[2 * v], tree[2 * v + 1]);
    this._depthTree = tree;
    this._treeSize = size;
  }

  _buildGap(gap) {
    if (gap === null || gap === undefined) {
      this.gap = null;
      return;
    }
    if (typeof gap !== 'object' || !isInt(gap.after) || !isInt(gap.dropped) || gap.after < -1 || gap.after >= this.eventCount || gap.dropped < 0) {
      fail('"gap" must be null or {after, dropped} with after inside the event table');
    }
    /** @type {{after: number, dropped: number}|null} */
    this.gap = { after: gap.after, dropped: gap.dropped };
  }

  _buildReturns(columns) {
    const n = this.eventCount;
    const returns = columns.returns;
    for (let j = 0; j < returns.event.length; j++) {
      const e = returns.event[j];
      if (e < 0 || e >= n) fail(`returns[${j}] must be [event, value] with a valid event`);
      if (!(returns.value[j] >= 0 && returns.value[j] < columns.values.size)) fail(`returns[${j}] refers to a value outside the pool`);
      if (j > 0 && e <= returns.event[j - 1]) fail(`returns[${j}] is out of event order`);
    }
    this.returnEvent = returns.event;
    this.returnValue = returns.value;
    const exceptions = columns.exceptions;
    for (let j = 0; j < exceptions.length; j++) {
      const e = exceptions[j];
      if (!Array.isArray(e) || !isInt(e[0]) || e[0] < 0 || e[0] >= n) fail(`exceptions[${j}] must be [event, value] with a valid event`);
    }
    this.exceptions = new Map(exceptions.map((e) => [e[0], e[1]]));
    /** @type {Map<number, string[]>} the setup's functions each event's line called (not recorded) */
    this.helpers = new Map();
    (columns.helpers ?? []).forEach((h, j) => {
      if (!Array.isArray(h) || !isInt(h[0]) || h[0] < 0 || h[0] >= n || typeof h[1] !== 'string') fail(`helpers[${j}] must be [event, name] with a valid event`);
      const names = this.helpers.get(h[0]) ?? [];
      if (!names.includes(h[1])) names.push(h[1]);
      this.helpers.set(h[0], names);
    });
    /** @type {Map<number, string[]>} frame id -> its closure's cells (free variables) */
    this.closures = new Map();
    (columns.closures ?? []).forEach((c, j) => {
      if (!Array.isArray(c) || !isInt(c[0]) || !Array.isArray(c[1]) || !c[1].every((name) => typeof name === 'string')) fail(`closures[${j}] must be [frame id, [name, ...]]`);
      this.closures.set(c[0], c[1]);
    });
  }

  _buildOutput(out) {
    const n = this.eventCount;
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
    // One joined string plus cumulative lengths: output up to any point is a single slice, not a
    // join of thousands of chunks.
    const outEvent = new Int32Array(out.length);
    const cum = new Float64Array(out.length + 1);
    for (let j = 0; j < out.length; j++) {
      outEvent[j] = out[j][0];
      cum[j + 1] = cum[j] + out[j][1].length;
    }
    this.outEvent = outEvent;
    this.outCum = cum;
    this.outText = out.map((e) => e[1]).join('');
  }

  // -------------------------------------------------------------------------
  // Stops

  /** Is event i where its frame is left (an 'r', or an 'x' that is the frame's last event)? */
  isLeave(i) {
    const c = this.kinds[i];
    if (c === C_RETURN) return true;
    if (c !== C_EXC) return false;
    const f = this.frameOf[i];
    return this.frameEvents[this.frameEventStart[f + 1] - 1] === i;
  }

  /** Stop number of an event that is a stop (else of the last stop before it). */
  stopOf(i) {
    return lastAtMost(this.stops, 0, this.stopCount, i);
  }

  /** Is event i a repeat: an 'l' that goes round its line again rather than arriving at it? */
  isRepeat(i) {
    return this.repeats[i] === 1;
  }

  /** Depth of the frame of event i. */
  depthAt(i) {
    return this.depth[this.frameOf[i]];
  }

  /**
   * First stop number after stop k whose depth is <= maxDepth, or stopCount. Segment tree
   * descent: climb until a right-hand subtree has a small enough minimum, then walk down to its
   * leftmost qualifying leaf.
   */
  nextStopAtDepth(k, maxDepth) {
    const tree = this._depthTree, size = this._treeSize, m = this.stopCount;
    if (k + 1 >= m) return m;
    let v = k + 1 + size;
    for (;;) {
      if (tree[v] <= maxDepth) {
        while (v < size) {
          v <<= 1;
          if (tree[v] > maxDepth) v++;
        }
        const s = v - size;
        return s < m ? s : m;
      }
      while (v & 1) {
        if (v === 1) return m;
        v >>= 1;
      }
      v++;
    }
  }

  /**
   * Last stop number before stop k whose depth is <= maxDepth, or -1 (the mirror of
   * nextStopAtDepth: climb until a left-hand subtree qualifies, then walk down to its rightmost
   * qualifying leaf).
   */
  prevStopAtDepth(k, maxDepth) {
    const tree = this._depthTree, size = this._treeSize;
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

  /** The stop number where frame f is next left after event i, or -1 when it never is. */
  nextLeaveStop(f, i) {
    const p = firstGreater(this.leaves, this.leaveStart[f], this.leaveStart[f + 1], i);
    return p < this.leaveStart[f + 1] ? this.stopOf(this.leaves[p]) : -1;
  }

  // -------------------------------------------------------------------------
  // Queries at any event index (the Replay's public queries; see replay.js)

  /** The frame at position f as callers see it. @param {number} f @returns {Frame} */
  frame(f) {
    const parent = this.parent[f];
    return { id: this.frameId[f], function: this.functions[this.frameFn[f]],
             parent: parent >= 0 ? this.frameId[parent] : null, line: this.frameLine[f] };
  }

  eventAt(i) {
    if (!(i >= 0 && i < this.eventCount)) return null;
    const f = this.frameOf[i];
    return { index: i, kind: String.fromCharCode(this.kinds[i]), line: this.lines[i], frame: this.frameId[f], depth: this.depth[f] };
  }

  localsAt(i, frameId = null) {
    if (!(i >= 0 && i < this.eventCount)) return { frame: null, vars: new Map(), changed: new Set() };
    const fi = frameId == null ? this.frameOf[i] : this.frameIndex(frameId);
    if (fi < 0) return { frame: null, vars: new Map(), changed: new Set() };
    const { vars, changed } = this.locals.at(fi, i);
    if (this.functions[this.frameFn[fi]] === "<module>") return { frame: this.frame(fi), vars: ownNames(vars), changed };
    return { frame: this.frame(fi), vars, changed };
  }

  stackAt(i) {
    if (!(i >= 0 && i < this.eventCount)) return [];
    const out = [];
    let f = this.frameOf[i];
    const ids = this.frameId, fns = this.frameFn, defs = this.frameLine, functions = this.functions;
    out.push({ id: ids[f], function: functions[fns[f]], line: this.lines[i], def: defs[f] });
    for (f = this.parent[f]; f >= 0; f = this.parent[f]) {
      const start = this.frameEventStart[f];
      const p = lastAtMost(this.frameEvents, start, this.frameEventStart[f + 1], i - 1);
      const line = p >= start ? this.lines[this.frameEvents[p]] : null;
      out.push({ id: ids[f], function: functions[fns[f]], line, def: defs[f] });
    }
    return out.reverse();
  }

  stdoutUntil(i) {
    const count = firstGreater(this.outEvent, 0, this.outEvent.length, i - 1);
    return this.outText.slice(0, this.outCum[count]);
  }

  returnAt(i) {
    const events = this.returnEvent;
    const j = lastAtMost(events, 0, events.length, i);
    return j >= 0 && events[j] === i ? this.values.get(this.returnValue[j]) ?? null : null;
  }

  returnedAtTop() {
    const events = this.returnEvent;
    for (let j = 0; j < events.length; j++) if (this.depth[this.frameOf[events[j]]] === 0) return true;
    return false;
  }

  exceptionAt(i) {
    return this.exceptions.get(i) ?? null;
  }

  /** The names of frame `frameId`'s locals that are its closure's cells (`[]`: none). */
  closureNames(frameId) {
    return this.closures.get(frameId) ?? [];
  }

  /** The setup's functions that event `i`'s line called, in call order, each once (`[]`: none). */
  helpersAt(i) {
    return this.helpers.get(i) ?? [];
  }

  gapInfo() {
    const g = this.gap;
    return g ? { after: g.after, dropped: g.dropped, firstAfter: g.after + 1 } : null;
  }

  isAfterGap(i) {
    const g = this.gap;
    if (!g || !(i > g.after) || i >= this.eventCount) return false;
    const k = firstGreater(this.stops, 0, this.stopCount, g.after);
    return k >= this.stopCount || this.stops[k] >= i;
  }
}

/**
 * Number of recorded ancestors per frame; iterative, so deep recursion (RecursionError traces)
 * cannot overflow the JS stack.
 * @param {Int32Array} parent @param {Int32Array} ids
 */
function frameDepths(parent, ids) {
  const F = parent.length;
  const depth = new Int32Array(F).fill(-1);
  const chain = [];
  for (let f = 0; f < F; f++) {
    let g = f;
    while (g >= 0 && depth[g] < 0) {
      chain.push(g);
      if (chain.length > F) fail(`frame parents form a cycle at frame ${ids[f]}`);
      g = parent[g];
    }
    let d = g >= 0 ? depth[g] : -1;
    while (chain.length) depth[chain.pop()] = ++d;
  }
  return depth;
}

/** A program's module frame (the playground's) without the names Python gives every module (`__name__`,
 * `__builtins__`, `__file__`…): what the reader's code defined, as Python Tutor's global frame shows. */
function ownNames(vars) {
  const own = new Map();
  for (const [name, value] of vars) if (!(name.startsWith("__") && name.endsWith("__"))) own.set(name, value);
  return own;
}
