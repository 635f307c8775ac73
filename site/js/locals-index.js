// The locals of every frame at every event, from the trace's deltas, without folding them.
//
// A "slot" is one local name of one frame. Each slot has a change list: the positions of the
// deltas that set or deleted it, with the value set (-1: deleted). The value of a name at any
// event is then one binary search, and a frame's locals a search per name. A frame's "full"
// deltas (its first, and its first after a gap or chunk start) restart it: a change before the
// frame's last full delta no longer counts.
//
// Everything is typed arrays laid out as CSR lists: hundreds of thousands of small JS arrays or Map
// entries made construction several times slower (mostly GC).

import { grow, lastAtMostBy, prefixSums } from './sorted-arrays.js';
import { PREVIEW } from './trace-columns.js';

/** @typedef {import('./trace-columns.js').TraceColumns} TraceColumns */
/** @typedef {import('./trace-columns.js').ValueTable} ValueTable */

function fail(msg) {
  throw new Error(`Bad Stepwise trace: ${msg}`);
}

/**
 * Are pooled values a and b one value? Within a chunk of the event table the recorder pools each value
 * once, so one index; a tail chunk pools afresh, so a full snapshot may restate a value at another index:
 * then a number by its number, a preview by its JSON text (or, for a `like`, its rebuilt Value).
 * @param {ValueTable} values @param {number} a @param {number} b
 */
export function sameValue(values, a, b) {
  if (a === b) return true;
  if (a < 0 || b < 0 || values.kinds[a] !== values.kinds[b]) return false;
  if (values.kinds[a] !== PREVIEW) return Object.is(values.numbers[a], values.numbers[b]);
  // A `like` names its base by offset: two like texts alike may be two values, so those compare rebuilt.
  const previews = values.previews;
  const text = (k) => (previews.list ? JSON.stringify(previews.list[values.slot[k]])
    : previews.text.slice(previews.starts[values.slot[k]], previews.ends[values.slot[k]]));
  const ta = text(a), tb = text(b);
  if (!ta.includes('"like":') && !tb.includes('"like":')) return ta === tb;
  return JSON.stringify(values.get(a)) === JSON.stringify(values.get(b));
}

const isInt = (x) => Number.isInteger(x);

/** Where each delta's entries start in the `sets` columns (CSR), checking the deltas' order. */
function setStarts(columns, eventCount) {
  const { deltas, sets } = columns;
  const D = deltas.event.length;
  const starts = new Int32Array(D + 1);
  for (let p = 0, prev = -1; p < D; p++) {
    const i = deltas.event[p];
    if (i < 0 || i >= eventCount) fail(`locals[${p}].i is not an event index`);
    if (i < prev) fail(`locals[${p}] is out of event order`);
    prev = i;
    starts[p + 1] = starts[p] + deltas.sets[p];
  }
  if (starts[D] !== sets.name.length || sets.value.length !== sets.name.length) fail("the locals' set columns do not add up");
  return starts;
}

/** Slots and their change entries while the deltas are read, in growable typed arrays. */
class SlotBuilder {
  /** @param {number} frameCount @param {number} nameCount @param {number} entryGuess */
  constructor(frameCount, nameCount, entryGuess) {
    this.frameHead = new Int32Array(frameCount).fill(-1); // first slot of a frame (a chain)
    this.frameTail = new Int32Array(frameCount).fill(-1); // its last, to append in first-seen order
    this.next = new Int32Array(1024); // next slot of the same frame
    this.nameId = new Int32Array(1024);
    this.frame = new Int32Array(1024);
    this.count = new Int32Array(1024); // change entries per slot
    this.slots = 0;
    this.entSlot = new Int32Array(Math.max(1024, entryGuess));
    this.entDelta = new Int32Array(this.entSlot.length);
    this.entValue = new Int32Array(this.entSlot.length);
    this.entries = 0;
    // Last (frame, slot) seen per name id: consecutive deltas of one frame touch the same names,
    // so most lookups skip the chain walk.
    this.cacheFrame = new Int32Array(Math.max(64, nameCount)).fill(-1);
    this.cacheSlot = new Int32Array(this.cacheFrame.length);
  }

  /** The slot of name `id` in frame `fi`, made on first sight. */
  slot(fi, id) {
    if (id >= this.cacheFrame.length) {
      this.cacheFrame = grow(this.cacheFrame, -1);
      this.cacheSlot = grow(this.cacheSlot);
    }
    if (this.cacheFrame[id] === fi) return this.cacheSlot[id];
    let slot = -1;
    for (let t = this.frameHead[fi]; t >= 0; t = this.next[t]) if (this.nameId[t] === id) { slot = t; break; }
    if (slot < 0) slot = this._add(fi, id);
    this.cacheFrame[id] = fi;
    this.cacheSlot[id] = slot;
    return slot;
  }

  _add(fi, id) {
    const slot = this.slots++;
    if (slot >= this.next.length) {
      this.next = grow(this.next);
      this.nameId = grow(this.nameId);
      this.frame = grow(this.frame);
      this.count = grow(this.count);
    }
    this.next[slot] = -1;
    this.nameId[slot] = id;
    this.frame[slot] = fi;
    if (this.frameTail[fi] < 0) this.frameHead[fi] = slot;
    else this.next[this.frameTail[fi]] = slot;
    this.frameTail[fi] = slot;
    return slot;
  }

  /** Record that delta p set name `id` of frame `fi` to value `value` (-1: deleted it). */
  touch(fi, id, p, value) {
    const slot = this.slot(fi, id);
    const E = this.entries;
    if (E > 0 && this.entSlot[E - 1] === slot && this.entDelta[E - 1] === p) return; // set and deleted in one delta: the set stands
    if (E >= this.entSlot.length) {
      this.entSlot = grow(this.entSlot);
      this.entDelta = grow(this.entDelta);
      this.entValue = grow(this.entValue);
    }
    this.entSlot[E] = slot;
    this.entDelta[E] = p;
    this.entValue[E] = value;
    this.entries = E + 1;
    this.count[slot]++;
  }

  /** Change lists per slot and slots per frame, as CSR. */
  layout() {
    const S = this.slots, E = this.entries, F = this.frameHead.length;
    const slotStart = new Int32Array(S + 1);
    for (let s = 0; s < S; s++) slotStart[s + 1] = slotStart[s] + this.count[s];
    const slotList = new Int32Array(E);
    const slotValue = new Int32Array(E);
    const fill = slotStart.slice(0, S);
    for (let e = 0; e < E; e++) {
      const at = fill[this.entSlot[e]]++;
      slotList[at] = this.entDelta[e];
      slotValue[at] = this.entValue[e];
    }
    const frameSlotStart = new Int32Array(F + 1);
    for (let s = 0; s < S; s++) frameSlotStart[this.frame[s] + 1]++;
    prefixSums(frameSlotStart);
    const frameSlots = new Int32Array(S);
    for (let f = 0; f < F; f++) {
      let j = frameSlotStart[f];
      for (let t = this.frameHead[f]; t >= 0; t = this.next[t]) frameSlots[j++] = t;
    }
    return { slotNameId: this.nameId.slice(0, S), slotStart, slotList, slotValue, frameSlotStart, frameSlots };
  }
}

/** What `parts()` sends of a LocalsIndex (the rest is made again by `_init`). */
const FIELDS = ['deltaEvent', 'fullStart', 'fullList', 'names', 'slotNameId', 'slotStart', 'slotList', 'slotValue',
  'frameSlotStart', 'frameSlots'];

export class LocalsIndex {
  /**
   * @param {TraceColumns} columns
   * @param {{frameCount: number, eventCount: number, frameIndex: (id: number) => number}} frames
   */
  constructor(columns, frames) {
    const { deltas, sets } = columns;
    const D = deltas.event.length, F = frames.frameCount;
    const starts = setStarts(columns, frames.eventCount);
    // Deleted names per delta position (rare), merged into the walk below.
    const deleted = columns.deleted.slice().sort((a, b) => a[0] - b[0]);
    for (const d of deleted) if (!Array.isArray(d) || !isInt(d[0]) || d[0] < 0 || d[0] >= D) fail('"deleted" names a delta that is not there');
    const names = columns.names.slice();
    const nameIds = new Map(names.map((name, id) => [name, id]));
    const nameId = (name) => {
      let id = nameIds.get(name);
      if (id === undefined) nameIds.set(name, (id = names.push(name) - 1));
      return id;
    };
    const slots = new SlotBuilder(F, names.length, sets.name.length + deleted.length);
    const fullCount = new Int32Array(F + 1);
    const deltaFrame = new Int32Array(D);
    const setName = sets.name, setValue = sets.value, nNames = columns.names.length, nValues = columns.values.size;
    for (let p = 0, x = 0; p < D; p++) {
      const f = frames.frameIndex(deltas.frame[p]);
      if (f < 0) fail(`locals[${p}].f refers to unknown frame ${deltas.frame[p]}`);
      deltaFrame[p] = f;
      if (deltas.full[p]) fullCount[f + 1]++;
      for (let e = starts[p], end = starts[p + 1]; e < end; e++) {
        const id = setName[e];
        if (!(id >= 0 && id < nNames)) fail(`locals[${p}] names an unknown local (${id})`);
        if (!(setValue[e] >= 0 && setValue[e] < nValues)) fail(`locals[${p}] refers to value ${setValue[e]}, outside the pool`);
        slots.touch(f, id, p, setValue[e]);
      }
      for (; x < deleted.length && deleted[x][0] <= p; x++) {
        if (deleted[x][0] === p) slots.touch(f, nameId(String(deleted[x][1])), p, -1);
      }
    }
    // Full deltas per frame (CSR), ascending: usually one per frame, two across a gap.
    prefixSums(fullCount);
    const fullList = new Int32Array(fullCount[F]);
    const fill = fullCount.slice(0, F);
    for (let p = 0; p < D; p++) if (deltas.full[p]) fullList[fill[deltaFrame[p]]++] = p;

    const laid = slots.layout();
    /** Event of each delta position, ascending. */
    this.deltaEvent = deltas.event;
    this.fullStart = fullCount;
    this.fullList = fullList;
    this.names = names;
    this.slotNameId = laid.slotNameId;
    this.slotStart = laid.slotStart;
    this.slotList = laid.slotList;
    this.slotValue = laid.slotValue;
    this.frameSlotStart = laid.frameSlotStart;
    this.frameSlots = laid.frameSlots;
    this.values = columns.values;
    this._init();
  }

  _init() {
    /** @type {Map<string, number>} */
    this._nameIds = new Map(this.names.map((name, id) => [name, id]));
    /** @type {NameLookup|null} */
    this._lookup = null;
  }

  /** @returns {{fields: Record<string, any>, values: any}} */
  parts() {
    return { fields: Object.fromEntries(FIELDS.map((key) => [key, this[key]])), values: this.values.parts() };
  }

  /**
   * Fill an index made over empty columns with `parts()` (overwriting fields keeps the object's
   * V8 shape; one given its fields one by one turns into a slow dictionary).
   * @param {{fields: Record<string, any>}} parts @param {ValueTable} values
   */
  adopt(parts, values) {
    for (const key of FIELDS) this[key] = parts.fields[key];
    this.values = values;
    this._init();
    return this;
  }

  /** Position of frame fi's last full delta at or before event i, or -1. */
  lastFull(fi, i) {
    // A binary search: a long-lived frame has a full snapshot per event-table chunk (hundreds at a
    // million events), and conditions ask this at every hit they pass.
    const fl = this.fullList, start = this.fullStart[fi];
    const j = lastAtMostBy(this.deltaEvent, fl, start, this.fullStart[fi + 1], i);
    return j >= start ? fl[j] : -1;
  }

  /** Change-list entry of `slot`'s last change at or before event i, or -1. */
  lastChange(slot, i) {
    const first = this.slotStart[slot];
    const h = lastAtMostBy(this.deltaEvent, this.slotList, first, this.slotStart[slot + 1], i);
    return h >= first ? h : -1;
  }

  /**
   * The events at which `name` of frame fi took a new value (or went), after event `after` (forward) or
   * before event `before` (backward), nearest first: a change entry whose value is its previous entry's
   * (a frame's full snapshot restating it) is no change. Returns the event, or -1.
   * @param {number} fi @param {string} name @param {number} from @param {1|-1} direction
   */
  changeNear(fi, name, from, direction) {
    const slot = this.slotFor(fi, name);
    if (slot < 0) return -1;
    const first = this.slotStart[slot], end = this.slotStart[slot + 1];
    const list = this.slotList, values = this.slotValue, events = this.deltaEvent;
    // The first entry after `from` going forward, the last before it going back.
    let h = direction > 0 ? lastAtMostBy(events, list, first, end, from) + 1 : lastAtMostBy(events, list, first, end, from - 1);
    for (; h >= first && h < end; h += direction) {
      if (h === first || !sameValue(this.values, values[h], values[h - 1])) return events[list[h]];
    }
    return -1;
  }

  /**
   * The names of frame fi whose value at event `to` is not their value at event `from` (set, rebound,
   * mutated or deleted in between): what a step from `from` to `to` changed there. A value restated by
   * a full snapshot is no change (values are pooled: one value, one index).
   * @param {number} fi @param {number} from @param {number} to
   * @returns {string[]}
   */
  changedBetween(fi, from, to) {
    const names = [];
    const fullFrom = this.lastFull(fi, from), fullTo = this.lastFull(fi, to);
    for (let j = this.frameSlotStart[fi], end = this.frameSlotStart[fi + 1]; j < end; j++) {
      const slot = this.frameSlots[j];
      const a = this.lastChange(slot, from), b = this.lastChange(slot, to);
      const refA = a < 0 || this.slotList[a] < fullFrom ? -1 : this.slotValue[a];
      const refB = b < 0 || this.slotList[b] < fullTo ? -1 : this.slotValue[b];
      if (!sameValue(this.values, refA, refB)) names.push(this.names[this.slotNameId[slot]]);
    }
    return names;
  }

  /** The slot of `name` in frame fi, or -1 (a short scan: frames have few names). */
  slotFor(fi, name) {
    const id = this._nameIds.get(name);
    if (id === undefined) return -1;
    for (let j = this.frameSlotStart[fi], end = this.frameSlotStart[fi + 1]; j < end; j++) {
      if (this.slotNameId[this.frameSlots[j]] === id) return this.frameSlots[j];
    }
    return -1;
  }

  /**
   * Frame fi's locals as of event i; `changed`: the names set at exactly event i.
   * @param {number} fi @param {number} i
   * @returns {{vars: Map<string, any>, changed: Set<string>}}
   */
  at(fi, i) {
    const vars = new Map();
    const changed = new Set();
    const first = this.frameSlotStart[fi], last = this.frameSlotStart[fi + 1];
    if (first >= last) return { vars, changed };
    const full = this.lastFull(fi, i);
    for (let j = first; j < last; j++) {
      const slot = this.frameSlots[j];
      const h = this.lastChange(slot, i);
      if (h < 0) continue;
      const p = this.slotList[h], ref = this.slotValue[h];
      if (p < full || ref < 0) continue; // before the frame's last full snapshot, or deleted
      const name = this.names[this.slotNameId[slot]];
      vars.set(name, this.values.get(ref));
      if (this.deltaEvent[p] === i) changed.add(name);
    }
    return { vars, changed };
  }

  /** The one reusable name lookup conditions are evaluated with. */
  lookup() {
    return (this._lookup ??= new NameLookup(this));
  }
}

/**
 * Name lookups for condition evaluation. Conditions are evaluated over consecutive events of a
 * line, mostly in one frame, so it remembers each name's slot for the current frame and the last
 * change entry found, and walks forward from it before falling back to a binary search: the inner
 * loop of a conditional continue over hundreds of thousands of hits.
 */
export class NameLookup {
  /** @param {LocalsIndex} locals */
  constructor(locals) {
    this.locals = locals;
    this.fi = -1;
    this.i = -1;
    /** @type {Map<string, {slot: number, hint: number}>} */
    this.known = new Map();
    // The frame's last full snapshot at or before i (`LocalsIndex.lastFull`), kept while i stays
    // between it and the frame's next one: a million-event loop has one per event-table chunk.
    this.full = -1;
    this.fullFrom = 0;
    this.fullUntil = -1;
    /** `get` as a plain function, for `condition.test`. */
    this.get = (name) => this.valueOf(this.entry(name));
  }

  /** Look at frame fi as of event i. */
  moveTo(fi, i) {
    if (fi !== this.fi) {
      this.known.clear();
      this.fullUntil = -1;
    }
    this.fi = fi;
    this.i = i;
    if (i < this.fullFrom || i >= this.fullUntil) {
      const locals = this.locals, fl = locals.fullList, ev = locals.deltaEvent;
      const start = locals.fullStart[fi], end = locals.fullStart[fi + 1];
      const j = lastAtMostBy(ev, fl, start, end, i);
      this.full = j >= start ? fl[j] : -1;
      this.fullFrom = j >= start ? ev[fl[j]] : -1;
      this.fullUntil = j + 1 < end ? ev[fl[j + 1]] : Infinity;
    }
  }

  /** What a condition sees of the value set by change-list entry h (`ValueTable.runtime`), or
   * undefined when the name is unbound at the current event. */
  valueOf(h) {
    const locals = this.locals;
    const ref = h < 0 ? -1 : locals.slotValue[h];
    if (ref < 0 || locals.slotList[h] < this.full) return undefined;
    return locals.values.runtime(ref);
  }

  /** The int, float or bool `name` holds at the current event, or undefined (unbound, another kind). */
  number(name) {
    const h = this.entry(name);
    const locals = this.locals;
    const ref = h < 0 ? -1 : locals.slotValue[h];
    if (ref < 0 || locals.slotList[h] < this.full) return undefined;
    return locals.values.number(ref);
  }

  /** The entry of `name`'s last change at or before the current event (-1: none). */
  entry(name) {
    const locals = this.locals;
    let rec = this.known.get(name);
    if (rec === undefined) {
      rec = { slot: locals.slotFor(this.fi, name), hint: -1 };
      this.known.set(name, rec);
    }
    const slot = rec.slot;
    if (slot < 0) return -1;
    const ev = locals.deltaEvent, list = locals.slotList;
    const i = this.i, lo = locals.slotStart[slot], hi = locals.slotStart[slot + 1];
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
  }
}
