// Where did this value come from (issue 34 item 1): the step that last wrote a name, an object, or one item
// of an object, answered from the trace — never guessed.
//
// A name is written when it is bound to another value: an object mutated in place keeps its binding (that
// is the object's change, asked of the object). An object is changed when its own content differs from its
// previous look in any frame — through whichever name — by its number (`id`, docs/trace-format.md "Object
// numbers"); an item when the object changed and that item with it. The step that wrote is the line the
// frame ran just before the new value was first seen; a frame's first look (its arguments) was written by
// its caller's line, the one that called it.
//
// Names answer from the locals index (a binary search, then back over restatements); objects from the looks
// at each object (object-looks.js, built with the trace's other indexes): a binary search, then back over
// the looks that show what the last one shows.

import { C_CALL } from './trace-index.js';
import { PREVIEW } from './trace-columns.js';
import { firstGreater, lastAtMost } from './sorted-arrays.js';

/**
 * @typedef {{kind: 'item'|'entry'|'field', key: number|string}} ItemKey  an item by index, a dict entry by its
 *   key's JSON, a field by name
 * @typedef {{change: number, event: number, frame: number, via: 'line'|'call'|'entry', first?: boolean}} Write
 *   `change`: the event at which the new value is first seen; `event`: the step that wrote it (a line of frame
 *   position `frame`; for 'call', the caller's line; for 'entry', the frame's first event: the case's entry
 *   called it); `first` (objects): the object's first look — it was made, or first reached, there
 */

/** A child as its parent's own content sees it: a nested object by number (its changes are its own), else its value. */
const childKey = (item) => (item === null || typeof item !== 'object' ? `=${item}`
  : item.id !== undefined ? `#${item.id}` : `${item.t}:${item.len ?? ''}:${item.r}:${item.v ?? ''}`);

/**
 * Do two looks at one object show the same own content (length, what was left out, and each item, entry or
 * field: a nested object by number, anything else by its value)? No JSON: this runs once per look.
 */
export function sameOwnContent(a, b) {
  if (a === b) return true;
  if (!a || !b || a.t !== b.t || a.len !== b.len || a.more !== b.more) return false;
  const pairs = (x, y, keyed) => {
    if (x === y) return true;
    if (!x || !y || x.length !== y.length) return false;
    for (let n = 0; n < x.length; n++) {
      if (keyed ? childKey(x[n][0]) !== childKey(y[n][0]) || childKey(x[n][1]) !== childKey(y[n][1])
        : childKey(x[n]) !== childKey(y[n])) return false;
    }
    return true;
  };
  return pairs(a.items, b.items, false) && pairs(a.entries, b.entries, true) && pairs(a.fields, b.fields, true);
}

/** Does the node show its content (not a cycle mark, not cut at a cap)? */
const showsContent = (node) => !node.cycle && !!(node.items || node.entries || node.fields);

/** What an object holds at `key`, as compared across looks: a nested object by number, else its value. */
export function itemOf(node, { kind, key }) {
  let item;
  if (kind === 'item') item = node.items?.[/** @type {number} */ (key)];
  else if (kind === 'field') item = node.fields?.find(([name]) => name === key)?.[1];
  else item = node.entries?.find(([k]) => JSON.stringify(k) === key)?.[1];
  return item === undefined ? undefined : childKey(item);
}

export class Provenance {
  /** @param {import('./trace-index.js').TraceIndex} x */
  constructor(x) {
    this.x = x;
    /** @type {Map<number, Map<number, any>>} the object nodes of a pooled value that show their content, by number */
    this._nodes = new Map();
  }

  /**
   * The step that wrote what frame position `fi` first saw at event `change`.
   * @param {number} fi @param {number} change
   * @returns {Write}
   */
  writer(fi, change) {
    const x = this.x;
    const start = x.frameEventStart[fi];
    const p = lastAtMost(x.frameEvents, start, x.frameEventStart[fi + 1], change - 1);
    if (p >= start && x.kinds[x.frameEvents[p]] !== C_CALL) return { change, event: x.frameEvents[p], frame: fi, via: 'line' };
    const parent = x.parent[fi];
    if (parent >= 0) {
      const from = x.frameEventStart[parent];
      const q = lastAtMost(x.frameEvents, from, x.frameEventStart[parent + 1], change - 1);
      if (q >= from) return { change, event: x.frameEvents[q], frame: parent, via: 'call' };
    }
    const first = x.frameEvents[start];
    return { change, event: first, frame: fi, via: 'entry' };
  }

  /**
   * The last write of `name` in frame position fi at or before event `before`: where it was bound to the value
   * it holds then. Null when it holds none then.
   * @param {number} fi @param {string} name @param {number} before
   * @returns {Write|null}
   */
  nameWrite(fi, name, before) {
    const L = this.x.locals;
    const slot = L.slotFor(fi, name);
    if (slot < 0) return null;
    let h = L.lastChange(slot, before);
    const first = L.slotStart[slot];
    if (h < first || L.slotValue[h] < 0 || L.slotList[h] < L.lastFull(fi, before)) return null;
    while (h > first && this._sameBinding(L.slotValue[h], L.slotValue[h - 1])) h--;
    return this.writer(fi, L.deltaEvent[L.slotList[h]]);
  }

  /** Same value, or the same object (mutated, not rebound). */
  _sameBinding(a, b) {
    if (a === b) return true;
    if (a < 0 || b < 0) return false;
    const values = this.x.locals.values;
    if (values.kinds[a] !== PREVIEW || values.kinds[b] !== PREVIEW) return false;
    const idA = values.get(a)?.id;
    return idA !== undefined && idA === values.get(b)?.id;
  }

  /**
   * The last change of object number `id` at or before event `before` (its first look counts: it was made
   * or first reached there), or of one of its items when `item` is given. Null when it was not seen by then.
   * Walks back over the object's looks from the last one, reading only the previews it passes, to the first
   * look that showed what the last one shows.
   * @param {number} id @param {number} before @param {ItemKey|null} [item]
   * @returns {Write|null}
   */
  objectWrite(id, before, item = null) {
    const x = this.x;
    const g = lastAtMost(x.lookIds, 0, x.lookIds.length, id);
    if (g < 0 || x.lookIds[g] !== id) return null;
    const first = x.lookStart[g], events = x.lookEvent;
    const shown = (/** @type {number} */ j) => this._node(x.lookRef[j], id);
    let k = lastAtMost(events, first, x.lookStart[g + 1], before);
    while (k >= first && !shown(k)) k--;   // a look cut at a cap shows no content
    if (k < first) return null;
    const now = shown(k);
    if (item && itemOf(now, item) === undefined) return null;   // no such item then
    const same = item ? (node) => itemOf(node, item) === itemOf(now, item) : (node) => sameOwnContent(node, now);
    let answer = k, earlier = false;
    for (let j = k - 1; j >= first; j--) {
      const node = shown(j);
      if (!node) continue;
      if (!same(node)) {
        earlier = true;
        break;
      }
      answer = j;
    }
    return { ...this.writer(x.lookFrame[answer], events[answer]), first: !earlier };
  }

  /**
   * The event at which object `id`'s own content next changed after event `from` (`direction` 1), or last
   * changed before it (-1): a look that shows other content than the look before it (its first look counts:
   * made or first reached). -1 when there is none.
   * @param {number} id @param {number} from @param {1|-1} direction
   */
  objectChangeNear(id, from, direction) {
    const x = this.x;
    const g = lastAtMost(x.lookIds, 0, x.lookIds.length, id);
    if (g < 0 || x.lookIds[g] !== id) return -1;
    const first = x.lookStart[g], end = x.lookStart[g + 1], events = x.lookEvent;
    const shown = (/** @type {number} */ j) => this._node(x.lookRef[j], id);
    const shownBefore = (/** @type {number} */ j) => {
      for (let p = j - 1; p >= first; p--) if (shown(p)) return p;
      return -1;
    };
    const changed = (/** @type {number} */ j, /** @type {number} */ p) => p < 0 || !sameOwnContent(shown(p), shown(j));
    if (direction > 0) {
      let p = shownBefore(firstGreater(events, first, end, from));
      for (let j = firstGreater(events, first, end, from); j < end; j++) {
        if (!shown(j)) continue;
        if (changed(j, p)) return events[j];
        p = j;
      }
      return -1;
    }
    let j = lastAtMost(events, first, end, from - 1);
    while (j >= first && !shown(j)) j--;
    while (j >= first) {
      const p = shownBefore(j);
      if (changed(j, p)) return events[j];
      j = p;
    }
    return -1;
  }

  /** The node of object `id` inside pooled value `ref`, when it shows its content. */
  _node(ref, id) {
    let nodes = this._nodes.get(ref);
    if (!nodes) {
      nodes = new Map();
      const stack = [this.x.locals.values.get(ref)];
      while (stack.length) {
        const node = stack.pop();
        if (!node || typeof node !== 'object') continue;
        if (node.id !== undefined && showsContent(node) && !nodes.has(node.id)) nodes.set(node.id, node);
        for (const child of node.items ?? []) stack.push(child);
        for (const [key, value] of node.entries ?? []) stack.push(key, value);
        for (const [, value] of node.fields ?? []) stack.push(value);
      }
      if (this._nodes.size > 4096) this._nodes.clear();   // a bounded cache: walks back revisit few values
      this._nodes.set(ref, nodes);
    }
    return nodes.get(id);
  }
}
