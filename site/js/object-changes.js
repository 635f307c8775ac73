// The changes of every object (issue 34, items 1 and 2; provenance.js answers from them): for each object
// number, the looks at it — change entries of locals, in any frame, whose new value holds it — at which its
// own content differed from the look before (its first look included: made, or first reached), in event
// order. Built with the trace's other indexes (trace-index.js), where the trace arrives (the worker), so
// that every question about an object is a binary search. CSR typed arrays:
//   objectIds    the object numbers seen, ascending
//   objectStart  where each number's changes start in the arrays below (one more entry: the end)
//   objectEvent  the event of each change; objectRef: the pooled value that showed it; objectFrame: the
//                frame position whose local it was
// and, per change entry of a local (locals-index.js):
//   entryTop     the number of the object its value is, or -1
//   bindings     the entries that bind a name anew, not a mutation of the object it holds (ascending)
// and per item of an object (itemKeys: "<number> <key>"), the object changes that put, replaced or took it
// (itemStart, itemChange: indexes into the object arrays).
// A pooled preview that holds numbered objects is read when it is first looked at, and again only when
// another value showed one of its objects since; own content is compared node by node (`sameOwnContent`),
// nested objects by number. bench/heavy.mjs measures what this adds to indexing.

import { PREVIEW } from './trace-columns.js';
import { grow } from './sorted-arrays.js';

/** @typedef {import('./locals-index.js').LocalsIndex} LocalsIndex */

/** A child as its parent's own content sees it: a nested object by number (its changes are its own), else its value. */
export const childKey = (item) => (item === null || typeof item !== 'object' ? `=${item}`
  : item.id !== undefined ? `#${item.id}` : `${item.t}:${item.len ?? ''}:${item.r}:${item.v ?? ''}`);

/** One child as its parent's own content sees it, in two looks (`childKey` without making the strings). */
function sameChild(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a.id !== undefined || b.id !== undefined) return a.id === b.id;
  return a.t === b.t && a.r === b.r && a.v === b.v && a.len === b.len;
}

/**
 * Do two looks at one object show the same own content (length, what was left out, and each item, entry or
 * field: a nested object by number, anything else by its value)? Run at every look that shows something new.
 */
export function sameOwnContent(a, b) {
  if (a === b) return true;
  if (!a || !b || a.t !== b.t || a.len !== b.len || a.more !== b.more) return false;
  const pairs = (x, y, keyed) => {
    if (x === y) return true;
    if (!x || !y || x.length !== y.length) return false;
    for (let n = 0; n < x.length; n++) {
      if (keyed ? !sameChild(x[n][0], y[n][0]) || !sameChild(x[n][1], y[n][1]) : !sameChild(x[n], y[n])) return false;
    }
    return true;
  };
  return pairs(a.items, b.items, false) && pairs(a.entries, b.entries, true) && pairs(a.fields, b.fields, true);
}

/**
 * The items of an object node by key: `i:<index>` for a list's (tuple's, set's) items, `e:<key's JSON>` for a
 * dict's entries, `f:<name>` for fields, each with its child key.
 * @returns {Map<string, string>}
 */
export function itemsOf(node) {
  const out = new Map();
  (node.items ?? []).forEach((item, n) => out.set(`i:${n}`, childKey(item)));
  for (const [key, item] of node.entries ?? []) out.set(`e:${JSON.stringify(key)}`, childKey(item));
  for (const [name, item] of node.fields ?? []) out.set(`f:${name}`, childKey(item));
  return out;
}

/** The keys whose item differs between two looks at an object (put, replaced or gone); every key of a first look. */
function changedKeys(before, node) {
  const now = itemsOf(node);
  if (!before) return [...now.keys()];
  const then = itemsOf(before);
  const keys = [];
  for (const [key, item] of now) if (then.get(key) !== item) keys.push(key);
  for (const key of then.keys()) if (!now.has(key)) keys.push(key);
  return keys;
}

/** Does the node show its content (not a cycle mark, not cut at a cap)? */
export const showsContent = (node) => !node.cycle && !!(node.items || node.entries || node.fields);

/**
 * The numbered nodes of a pooled value that show their content, outermost first, and the value's own number.
 * A `like` (docs/trace-format.md: a list grown past its shown items, a copy renumbered) without `ids` shows
 * only itself anew: its items are the ones of the value it is like, unchanged.
 * @param {import('./trace-columns.js').ValueTable} values @param {number} k
 * @param {(k: number) => any} read  pooled value k as a Value
 * @returns {{nodes: readonly any[], top: number}}
 */
function numberedNodes(values, k, read) {
  if (values.kinds[k] !== PREVIEW) return NONE;
  const previews = values.previews;
  let raw = previews.list ? previews.list[values.slot[k]] : null;
  if (!raw) {
    const text = previews.text.slice(previews.starts[values.slot[k]], previews.ends[values.slot[k]]);
    // A text, a number tuple: no object in it. (A `like` may hold none in its own text and still be one.)
    if (!text.includes('"id":') && !text.includes('"like":')) return NONE;
    raw = JSON.parse(text);
  }
  if (raw && typeof raw === 'object' && 'like' in raw && !Array.isArray(raw.ids)) {
    const base = read(k - raw.like);
    const own = { ...base, ...raw };
    delete own.like;
    return own.id === undefined ? NONE : { nodes: showsContent(own) ? [own] : [], top: own.id };
  }
  if (raw && typeof raw === 'object' && 'like' in raw) raw = values.get(k);   // renumbered: rebuilt whole
  const nodes = [];
  const stack = [raw];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (node.id !== undefined && showsContent(node)) nodes.push(node);
    for (let n = (node.fields ?? []).length - 1; n >= 0; n--) stack.push(node.fields[n][1]);
    for (let n = (node.entries ?? []).length - 1; n >= 0; n--) stack.push(node.entries[n][0], node.entries[n][1]);
    for (let n = (node.items ?? []).length - 1; n >= 0; n--) stack.push(node.items[n]);
  }
  return { nodes, top: raw && typeof raw === 'object' && raw.id !== undefined ? raw.id : -1 };
}

const NONE = Object.freeze({ nodes: Object.freeze([]), top: -1 });

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
 * @param {LocalsIndex} L @param {number} frameCount
 * @returns {{objectIds: Int32Array, objectStart: Int32Array, objectEvent: Int32Array, objectRef: Int32Array,
 *   objectFrame: Int32Array, entryTop: Int32Array, bindings: Int32Array, itemKeys: string[], itemStart: Int32Array,
 *   itemChange: Int32Array}}
 */
export function objectChanges(L, frameCount) {
  const values = L.values;
  const slotFrame = new Int32Array(L.slotStart.length);
  for (let fi = 0; fi < frameCount; fi++) {
    for (let j = L.frameSlotStart[fi]; j < L.frameSlotStart[fi + 1]; j++) slotFrame[L.frameSlots[j]] = fi;
  }
  // A few values kept parsed: aliases and a `like`'s base are read again right away.
  const recent = new Map();
  const read = (k) => {
    let value = recent.get(k);
    if (value === undefined) {
      if (recent.size >= 64) recent.delete(recent.keys().next().value);
      recent.set(k, (value = values.get(k)));
    }
    return value;
  };
  const { entry, slotOf } = entriesInOrder(L);
  const last = new Map();   // number -> its node at its last change
  const lastRef = new Map();   // number -> the value of its last look
  const known = new Map();   // value -> the numbers it shows and its own: {ids, top}
  let changeId = new Int32Array(1024), changeAt = new Int32Array(1024), n = 0;
  // Per change, the items it put, replaced or took: (object number + key) groups, each change's index.
  const itemGroups = new Map();
  let pairGroup = new Int32Array(1024), pairChange = new Int32Array(1024), pairs = 0;
  const entryTop = new Int32Array(entry.length).fill(-1);
  for (let o = 0; o < entry.length; o++) {
    const h = entry[o], ref = L.slotValue[h];
    if (ref < 0) continue;   // gone
    if (h > L.slotStart[slotOf[o]] && L.slotValue[h - 1] === ref) {   // restated: nothing new
      entryTop[h] = entryTop[h - 1];
      continue;
    }
    // A value looked at again (a caller's, an alias's) after nothing else showed its objects: nothing new,
    // and no need to read it again.
    const seen = known.get(ref);
    if (seen && seen.ids.every((id) => lastRef.get(id) === ref)) {
      entryTop[h] = seen.top;
      continue;
    }
    const { nodes, top } = numberedNodes(values, ref, read);
    entryTop[h] = top;
    known.set(ref, { ids: nodes.map((node) => node.id), top });
    for (const node of nodes) {
      const before = last.get(node.id);
      lastRef.set(node.id, ref);
      if (before && sameOwnContent(before, node)) continue;
      last.set(node.id, node);
      for (const key of changedKeys(before, node)) {
        const name = `${node.id} ${key}`;
        let g = itemGroups.get(name);
        if (g === undefined) itemGroups.set(name, (g = itemGroups.size));
        if (pairs === pairGroup.length) {
          pairGroup = grow(pairGroup);
          pairChange = grow(pairChange);
        }
        pairGroup[pairs] = g;
        pairChange[pairs++] = n;
      }
      if (n === changeId.length) {
        changeId = grow(changeId);
        changeAt = grow(changeAt);
      }
      changeId[n] = node.id;
      changeAt[n++] = o;
    }
  }
  // Grouped by number, ascending (a stable counting sort keeps each group in event order).
  const objectIds = Int32Array.from(last.keys()).sort();
  const group = new Map(Array.from(objectIds, (id, g) => [id, g]));
  const objectStart = new Int32Array(objectIds.length + 1);
  for (let j = 0; j < n; j++) objectStart[group.get(changeId[j]) + 1]++;
  for (let g = 0; g < objectIds.length; g++) objectStart[g + 1] += objectStart[g];
  const fill = objectStart.slice(0, objectIds.length);
  const objectEvent = new Int32Array(n), objectRef = new Int32Array(n), objectFrame = new Int32Array(n);
  const placed = new Int32Array(n);   // a change's place once grouped
  for (let j = 0; j < n; j++) {
    const at = (placed[j] = fill[group.get(changeId[j])]++), o = changeAt[j], h = entry[o];
    objectEvent[at] = L.deltaEvent[L.slotList[h]];
    objectRef[at] = L.slotValue[h];
    objectFrame[at] = slotFrame[slotOf[o]];
  }
  return { objectIds, objectStart, objectEvent, objectRef, objectFrame, entryTop, bindings: bindingsOf(L, entryTop),
    ...itemIndex(itemGroups, pairGroup.subarray(0, pairs), pairChange.subarray(0, pairs), placed) };
}

/**
 * Per (object number, item key) — `itemKeys[g]`, "<number> <key>" (`itemsOf`) — the object changes that put,
 * replaced or took that item, in event order: `itemChange[itemStart[g]..itemStart[g + 1])`.
 * @param {Map<string, number>} groups @param {Int32Array} pairGroup @param {Int32Array} pairChange
 * @param {Int32Array} placed
 */
function itemIndex(groups, pairGroup, pairChange, placed) {
  const itemStart = new Int32Array(groups.size + 1);
  for (const g of pairGroup) itemStart[g + 1]++;
  for (let g = 0; g < groups.size; g++) itemStart[g + 1] += itemStart[g];
  const fill = itemStart.slice(0, groups.size);
  const itemChange = new Int32Array(pairGroup.length);
  for (let j = 0; j < pairGroup.length; j++) itemChange[fill[pairGroup[j]]++] = placed[pairChange[j]];
  return { itemKeys: [...groups.keys()], itemStart, itemChange };
}

/**
 * The change entries that bind a name to another value (ascending): its first, and each one whose value is
 * not the same object as the entry before (a number by number; a value without one by its pool index — a
 * chunk's restatement is told apart when asked, `provenance.js`). The others mutate the object it holds.
 * @param {LocalsIndex} L @param {Int32Array} entryTop
 */
function bindingsOf(L, entryTop) {
  const out = new Int32Array(L.slotList.length);
  let n = 0;
  for (let slot = 0; slot + 1 < L.slotStart.length; slot++) {
    for (let h = L.slotStart[slot]; h < L.slotStart[slot + 1]; h++) {
      if (h === L.slotStart[slot] || (entryTop[h] >= 0 ? entryTop[h] !== entryTop[h - 1] : L.slotValue[h] !== L.slotValue[h - 1])) {
        out[n++] = h;
      }
    }
  }
  return out.slice(0, n);
}
