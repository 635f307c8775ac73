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
// Names answer from the bindings (object-changes.js: a binary search, then past a chunk's restatement);
// objects from each object's changes (object-changes.js, built with the trace's other indexes): a binary
// search; an item, back over its object's changes that kept it.

import { C_CALL } from './trace-index.js';
import { sameValue } from './locals-index.js';
import { childKey, showsContent } from './object-changes.js';
import { PREVIEW } from './trace-columns.js';
import { firstGreater, lastAtMost, lastAtMostBy } from './sorted-arrays.js';

/**
 * @typedef {{kind: 'item'|'entry'|'field', key: number|string}} ItemKey  an item by index, a dict entry by its
 *   key's JSON, a field by name
 * @typedef {{change: number, event: number, frame: number, via: 'line'|'call'|'entry'|'gap', first?: boolean}} Write
 *   `change`: the event at which the new value is first seen; `event`: the step that wrote it (a line of frame
 *   position `frame`; for 'call', the caller's line; for 'entry', the frame's first event: the case's entry
 *   called it; for 'gap', the change itself: it was written in the part of the run that was not kept); `first`
 *   (objects): the object's first look — it was made, or first reached, there
 */

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
    /** @type {Map<string, number>|null} item name -> its group in the item index (made at the first item question) */
    this._groups = null;
    /** @type {Map<string, any>} "ref id" -> that object's node in that value (null: not shown there) */
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
    // First seen after the part of the run that was not kept (the frame's look before it was before the gap,
    // or the frame began in it): written there.
    const gap = x.gapInfo();
    if (gap && change > gap.after
        && (p >= start ? x.frameEvents[p] <= gap.after : x.kinds[x.frameEvents[start]] !== C_CALL)) {
      return { change, event: change, frame: fi, via: 'gap' };
    }
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
    // Back to the entry that bound it (a search in the bindings), and past a chunk's restatement of it.
    const bindings = this.x.bindings, top = this.x.entryTop;
    for (;;) {
      h = Math.max(first, bindings[lastAtMost(bindings, 0, bindings.length, h)] ?? first);
      if (h === first || top[h] >= 0 || !sameValue(L.values, L.slotValue[h], L.slotValue[h - 1])) break;
      h--;
    }
    return this.writer(fi, L.deltaEvent[L.slotList[h]]);
  }

  /**
   * The last change of object number `id` at or before event `before` (its first look counts: it was made
   * or first reached there), or of one of its items when `item` is given. Null when it was not seen by then,
   * or has no such item then.
   * @param {number} id @param {number} before @param {ItemKey|null} [item]
   * @returns {Write|null}
   */
  objectWrite(id, before, item = null) {
    const x = this.x, [first, end] = this._changes(id);
    let m = lastAtMost(x.objectEvent, first, end, before);
    if (m < first) return null;
    if (item) {   // there now? then the last change of it (a search in the item's own changes)
      if (itemOf(this._node(x.objectRef[m], id), item) === undefined) return null;
      const g = this._itemGroup(id, item);
      if (g === undefined) return null;
      const changes = x.itemChange, lo = x.itemStart[g], hi = x.itemStart[g + 1];
      m = changes[lastAtMostBy(x.objectEvent, changes, lo, hi, before)];
    }
    return { ...this.writer(x.objectFrame[m], x.objectEvent[m]), first: m === first };
  }

  /**
   * The event at which object `id`'s own content next changed after event `from` (`direction` 1), or last
   * changed before it (-1); its first look counts (made or first reached). -1 when there is none.
   * @param {number} id @param {number} from @param {1|-1} direction
   */
  objectChangeNear(id, from, direction) {
    const events = this.x.objectEvent, [first, end] = this._changes(id);
    const m = direction > 0 ? firstGreater(events, first, end, from) : lastAtMost(events, first, end, from - 1);
    return m >= first && m < end ? events[m] : -1;
  }

  /** The item index's group of an item of object `id` (object-changes.js `itemsOf` names its keys). */
  _itemGroup(id, { kind, key }) {
    this._groups ??= new Map(this.x.itemKeys.map((name, g) => [name, g]));
    const name = `${id} ${kind === 'item' ? `i:${key}` : kind === 'field' ? `f:${key}` : `e:${key}`}`;
    return this._groups.get(name);
  }

  /** Where object `id`'s changes are in the index: [first, end) (empty when it was never seen). */
  _changes(id) {
    const x = this.x;
    const g = lastAtMost(x.objectIds, 0, x.objectIds.length, id);
    return g >= 0 && x.objectIds[g] === id ? [x.objectStart[g], x.objectStart[g + 1]] : [0, 0];
  }

  /** The node of object `id` inside pooled value `ref`, when it shows its content (a small cache: answers
   * read the few looks at an object's changes again). */
  _node(ref, id) {
    const key = `${ref} ${id}`;
    let node = this._nodes.get(key);
    if (node === undefined) {
      if (this._nodes.size > 4096) this._nodes.clear();
      this._nodes.set(key, (node = nodeIn(parsed(this.x.locals.values, ref), id) ?? null));
    }
    return node;
  }
}

/**
 * Pooled value k as a Value, parsed from its JSON text without keeping it in the table's cache: a walk back
 * over an object's looks reads thousands of previews once each.
 * @param {import('./trace-columns.js').ValueTable} values @param {number} k
 */
function parsed(values, k) {
  const previews = values.previews;
  if (values.kinds[k] !== PREVIEW || previews.list) return values.get(k);
  const text = previews.text.slice(previews.starts[values.slot[k]], previews.ends[values.slot[k]]);
  return text.includes('"like":') ? values.get(k) : JSON.parse(text);
}

/** The node numbered `id` in a Value, when it shows its content (not a cycle mark or a cut); else null. */
function nodeIn(value, id) {
  const stack = [value];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (node.id === id && showsContent(node)) return node;
    for (const child of node.items ?? []) stack.push(child);
    for (const [key, item] of node.entries ?? []) stack.push(key, item);
    for (const [, item] of node.fields ?? []) stack.push(item);
  }
  return null;
}
