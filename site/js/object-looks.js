// The looks at each object (issue 34 item 1, provenance.js): for every object number, the change entries of
// locals (in any frame) whose new value holds that object, in event order. Built with the trace's other
// indexes (trace-index.js), where the trace arrives (the worker), as CSR typed arrays:
//   lookIds    the object numbers seen, ascending
//   lookStart  where each number's looks start in the look arrays (one more entry: the end)
//   lookEvent  the event of each look; lookRef: the pooled value it saw; lookFrame: the frame position
// A preview's numbers are read from its JSON text without parsing it, so the pass costs about a scan of
// the previews' text (measured in bench/run.py's `engine` section).

import { PREVIEW } from './trace-columns.js';
import { grow } from './sorted-arrays.js';

/** @typedef {import('./locals-index.js').LocalsIndex} LocalsIndex */

const NO_IDS = Object.freeze([]);
/** An object number in a preview's JSON text (a text holding these characters is escaped: `\\"id\\":`). */
const ID = /"id":(\d+)/g;

/**
 * The object numbers anywhere in pooled value k (a number twice when the value reaches an object twice).
 * A preview's JSON text is searched, not parsed; a `like` (docs/trace-format.md: a list grown past its shown
 * items, a copy renumbered) has its `ids`, or the numbers of the value it is like (`bases` keeps those).
 * @param {import('./trace-columns.js').ValueTable} values @param {number} k @param {Map<number, readonly number[]>} bases
 * @returns {readonly number[]}
 */
function idsOf(values, k, bases) {
  if (values.kinds[k] !== PREVIEW) return NO_IDS;
  const previews = values.previews, p = values.slot[k];
  let raw;
  if (previews.list) raw = previews.list[p];
  else {
    const text = previews.text.slice(previews.starts[p], previews.ends[p]);
    if (!text.includes('"like":')) return Array.from(text.matchAll(ID), (m) => +m[1]);
    raw = JSON.parse(text);
  }
  if (raw && typeof raw === 'object' && 'like' in raw) {
    if (Array.isArray(raw.ids)) return raw.ids;
    const base = k - raw.like;
    let ids = bases.get(base);
    if (!ids) bases.set(base, (ids = idsOf(values, base, bases)));
    return ids;
  }
  const ids = [];
  const stack = [raw];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (node.id !== undefined) ids.push(node.id);
    for (const child of node.items ?? []) stack.push(child);
    for (const [key, value] of node.entries ?? []) stack.push(key, value);
    for (const [, value] of node.fields ?? []) stack.push(value);
  }
  return ids;
}

/**
 * The change entries of every local in event order, each with its slot: a counting sort of the locals'
 * change lists by delta position (deltas ascend by event).
 * @param {LocalsIndex} L
 */
function entriesInOrder(L) {
  const H = L.slotList.length, D = L.deltaEvent.length;
  const byDelta = new Int32Array(D + 1);
  for (let h = 0; h < H; h++) byDelta[L.slotList[h] + 1]++;
  for (let p = 0; p < D; p++) byDelta[p + 1] += byDelta[p];
  const entry = new Int32Array(H), slotOf = new Int32Array(H);
  for (let slot = 0; slot + 1 < L.slotStart.length; slot++) {
    for (let h = L.slotStart[slot]; h < L.slotStart[slot + 1]; h++) {
      const at = byDelta[L.slotList[h]]++;
      entry[at] = h;
      slotOf[at] = slot;
    }
  }
  return { entry, slotOf };
}

/**
 * Every look at every object, grouped by object number, each group in event order.
 * @param {LocalsIndex} L @param {number} frameCount
 * @returns {{lookIds: Int32Array, lookStart: Int32Array, lookEvent: Int32Array, lookRef: Int32Array, lookFrame: Int32Array}}
 */
export function objectLooks(L, frameCount) {
  const slotFrame = new Int32Array(L.slotStart.length);
  for (let fi = 0; fi < frameCount; fi++) {
    for (let j = L.frameSlotStart[fi]; j < L.frameSlotStart[fi + 1]; j++) slotFrame[L.frameSlots[j]] = fi;
  }
  const { entry, slotOf } = entriesInOrder(L);
  // Every (number, entry) in event order.
  let lookId = new Int32Array(1024), lookAt = new Int32Array(1024), n = 0;
  const seen = new Set(), bases = new Map();
  for (let o = 0; o < entry.length; o++) {
    const h = entry[o], ref = L.slotValue[h];
    if (ref < 0 || (h > L.slotStart[slotOf[o]] && L.slotValue[h - 1] === ref)) continue;   // gone, or restated
    for (const id of idsOf(L.values, ref, bases)) {
      if (n === lookId.length) {
        lookId = grow(lookId);
        lookAt = grow(lookAt);
      }
      lookId[n] = id;
      lookAt[n++] = o;
      seen.add(id);
    }
  }
  // Grouped by number, ascending (a stable counting sort keeps each group in event order).
  const lookIds = Int32Array.from(seen).sort();
  const group = new Map(Array.from(lookIds, (id, g) => [id, g]));
  const lookStart = new Int32Array(lookIds.length + 1);
  for (let j = 0; j < n; j++) lookStart[group.get(lookId[j]) + 1]++;
  for (let g = 0; g < lookIds.length; g++) lookStart[g + 1] += lookStart[g];
  const fill = lookStart.slice(0, lookIds.length);
  const lookEvent = new Int32Array(n), lookRef = new Int32Array(n), lookFrame = new Int32Array(n);
  for (let j = 0; j < n; j++) {
    const at = fill[group.get(lookId[j])]++, o = lookAt[j], h = entry[o];
    lookEvent[at] = L.deltaEvent[L.slotList[h]];
    lookRef[at] = L.slotValue[h];
    lookFrame[at] = slotFrame[slotOf[o]];
  }
  return { lookIds, lookStart, lookEvent, lookRef, lookFrame };
}
