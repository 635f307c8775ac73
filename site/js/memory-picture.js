// The memory picture (Memory / 内存): frames on the left, the objects they reach on the right as boxes,
// references as arrows, as Python Tutor draws them. Built from the previews' object numbers
// (docs/trace-format.md "Object numbers"): a node with an `id` is an object, drawn once however many
// places reach it; numbers, texts, None, booleans and plain tuples are drawn where they are held.
//
// Accessible names (tests find the picture by them): an object is a group named `<type> #<n>`, a frame a
// group named by its function, a reference a link named `<label> → <type> #<n>` (a variable's name, `[i]`,
// a dict key's short text, or a field's name). Values are data: all text goes in through textContent.
import { drawingOrder, heldBy, isObject, neighbour, placeObjects } from "./memory-layout.js";
import { fromButton, shortText } from "./values-view.js";

/** A value's short text in the picture: a text as Python writes it ('content'), the rest as Variables does. */
const pythonText = (value) => (value?.t === "str" && typeof value.r === "string" ? value.r : shortText(value));

/** Objects drawn at most; the rest are counted in a "more" box. */
export const OBJECTS_CAP = 60;
const SVG = "http://www.w3.org/2000/svg";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Does the node show what the object holds (not a cycle mark or a node cut at a cap)? */
const showsInside = (node) => Array.isArray(node.items) || Array.isArray(node.entries) || Array.isArray(node.fields);

/**
 * The objects the frames reach at one step, by number: the newest preview of each (frames are given
 * innermost first: a callee looked at an object after its caller last did), in the order first met.
 * @param {{vars: Map<string, any>}[]} frames innermost first
 * @param {any} [returned] the value returned at this step, newest of all
 * @returns {Map<number, any>}
 */
export function objectsReached(frames, returned) {
  /** @type {Map<number, any>} */
  const found = new Map();
  const visit = (node) => {
    if (node === null || typeof node !== "object") return;
    if (isObject(node)) {
      const known = found.get(node.id);
      if (known !== undefined && (showsInside(known) || !showsInside(node))) return;
      found.set(node.id, node);
    }
    for (const part of heldBy(node)) visit(part);
  };
  visit(returned);
  for (const frame of frames) for (const value of frame.vars.values()) visit(value);
  return found;
}

/** What a box shows, to tell a changed object from an unchanged one between two steps. */
export const contentKey = (node) => JSON.stringify(node);

/**
 * A frame's values with each object it holds shown as the newest look at it: a caller's previews date
 * from its last line, and the frames it called may have changed the same objects since (an item set
 * through an alias changes one object, seen from every name that holds it).
 * @param {Map<string, any>} vars  one frame's values
 * @param {Map<number, any>} newer  the objects the frames it called reached (objectsReached)
 * @returns {Map<string, any>}
 */
export function freshened(vars, newer) {
  if (!newer.size) return vars;
  const fresh = (node) => {
    if (node === null || typeof node !== "object") return node;
    const later = isObject(node) ? newer.get(node.id) : undefined;
    if (later !== undefined && showsInside(later)) return later;
    if (!showsInside(node)) return node;
    const copy = { ...node };
    if (node.items) copy.items = node.items.map(fresh);
    if (node.entries) copy.entries = node.entries.map(([key, value]) => [fresh(key), fresh(value)]);
    if (node.fields) copy.fields = node.fields.map(([name, value]) => [name, fresh(value)]);
    return copy;
  };
  return new Map([...vars].map(([name, value]) => [name, fresh(value)]));
}

/**
 * The picture of one step.
 * @param {{id?: number, function: string, current: boolean, vars: Map<string, any>}[]} frames outermost first
 * @param {{returned?: any, before?: Map<number, any>|null, folded?: number, anchor: string, t: Function,
 *   cells?: Map<number, [number, number]>, from?: {name: (frameId: number, name: string) => void,
 *   object: (id: number, label: string) => void, item: (id: number, item: any, label: string) => void}|null}} options
 *   `before`: the objects of the step before (what changed is marked); `folded`: frames left out after the
 *   first two (a deep recursion); `anchor`: a prefix for element ids; `cells`: where the picture drawn
 *   before put its objects (memory-layout.js), kept for those still drawn; `from`: where-from (⤺) on each
 *   variable and object (provenance.js)
 * @returns {{picture: HTMLElement, cells: Map<number, [number, number]>}}
 */
export function renderMemory(frames, { returned, before = null, folded = 0, anchor, t, cells: previous, from = null }) {
  const objects = objectsReached([...frames].reverse(), returned);
  const roots = [...frames.flatMap((frame) => [...frame.vars.values()]), returned];
  const order = drawingOrder(roots, objects);
  const shown = new Set(order.slice(0, OBJECTS_CAP));
  const cells = placeObjects(roots, objects, shown, previous);
  const newest = before ? Math.max(0, ...before.keys()) : 0;
  const target = (id) => `${anchor}-${id}`;
  const cell = (label, value) => (isObject(value) && objects.has(value.id) ? reference(label, value, shown, target, t)
    : el("span", "mem-value", pythonText(value)));
  const picture = el("div", "memory");
  const objectColumn = el("div", "mem-objects");
  const byPlace = [...cells].sort(([, a], [, b]) => a[0] - b[0] || a[1] - b[1]);
  for (const [id, [row, column]] of byPlace) {
    const box = objectBox(id, objects.get(id), { before, newest, cell, t, from });
    box.id = target(id);
    box.style.gridRow = String(row + 1);
    box.style.gridColumn = String(column + 1);
    box.tabIndex = byPlace[0][0] === id ? 0 : -1;   // one Tab stop; arrow keys walk the boxes
    objectColumn.append(box);
  }
  if (order.length > shown.size) {
    const more = el("div", "mem-more", t("more_objects", { n: order.length - shown.size }));
    more.style.gridRow = String(Math.max(0, ...[...cells.values()].map(([row]) => row)) + 2);
    objectColumn.append(more);
  }
  if (!order.length) objectColumn.append(el("p", "empty", t("no_objects")));
  objectColumn.addEventListener("keydown", (event) => walk(event, cells, objectColumn));
  const arrows = document.createElementNS(SVG, "svg");
  arrows.classList.add("mem-arrows");
  arrows.setAttribute("aria-hidden", "true");
  picture.append(frameColumn(frames, { returned, folded, cell, t, from }), objectColumn, arrows);
  return { picture, cells };
}

/** The frames, outermost first: a group per frame named by its function, a row per variable. */
function frameColumn(frames, { returned, folded, cell, t, from }) {
  const column = el("div", "mem-frames");
  frames.forEach((frame, n) => {
    if (folded && n === 2) column.append(el("div", "mem-more", t("more_frames", { n: folded })));
    const box = el("div", frame.current ? "mem-frame current" : "mem-frame");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", frame.function);
    box.append(el("div", "mem-head", frame.function));
    const rows = el("div", "mem-rows");
    for (const [name, value] of frame.vars) {
      const line = row(name, cell(name, value));
      if (from && frame.id != null) line.append(fromButton(t, name, () => from.name(frame.id, name)));
      rows.append(line);
    }
    if (frame.current && returned !== undefined && returned !== null) {
      rows.append(row(`⟵ ${t("returned")}`, cell(t("returned"), returned)));
    }
    if (!frame.vars.size) rows.append(el("span", "mem-empty", t("no_locals")));
    box.append(rows);
    column.append(box);
  });
  return column;
}

/**
 * An object's box: a group named `<type> #<n>`, marked when made or changed since the step before. Made:
 * numbers are given in the order objects are first seen, so an object made at this step has a number
 * above all those of the step before; one only newly reached (an old object fetched from a cache) has not.
 */
function objectBox(id, node, { before, newest, cell, t, from }) {
  const box = el("div", "mem-object");
  box.dataset.id = String(id);
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", `${node.t} #${id}`);
  const mark = !before ? null : !before.has(id) ? (id > newest ? "made" : null)
    : contentKey(before.get(id)) !== contentKey(node) ? "changed" : null;
  const head = el("div", "mem-head", `${node.t} #${id}`);
  if (mark) {
    box.classList.add(mark);
    head.append(el("span", "mem-mark", t(mark)));   // in words too, not by colour alone
  }
  if (from) head.append(fromButton(t, `${node.t} #${id}`, () => from.object(id, `${node.t} #${id}`)));
  box.append(head);
  box.append(inside(node, cell, t, from && { label: `${node.t} #${id}`, go: (item, label) => from.item(id, item, label) }));
  return box;
}

/** Arrow keys on a box move to the nearest box that way (memory-layout.js `neighbour`). */
function walk(event, cells, column) {
  const box = /** @type {HTMLElement} */ (event.target);
  if (!box.classList?.contains("mem-object") || !/^Arrow(Left|Right|Up|Down)$/.test(event.key)) return;
  const next = neighbour(cells, Number(box.dataset.id), event.key);
  const to = next === undefined ? null : /** @type {HTMLElement|null} */ (column.querySelector(`[data-id="${next}"]`));
  event.preventDefault();
  event.stopPropagation();   // the page's own keys (a step) are not meant
  if (!to) return;
  box.tabIndex = -1;
  to.tabIndex = 0;
  to.focus();
}

function row(label, value) {
  const line = el("div", "mem-row");
  line.append(el("span", "mem-label", label), value);
  return line;
}

/** A reference: a link to the object's box, named `<label> → <type> #<n>`; arrows start at it. */
function reference(label, value, shown, target, t) {
  const link = el("a", "mem-ref");
  const name = `${value.t} #${value.id}`;
  link.setAttribute("aria-label", `${label} → ${name}`);
  link.dataset.to = String(value.id);
  if (shown.has(value.id)) {
    link.href = `#${target(value.id)}`;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const box = /** @type {HTMLElement|null} */ (link.closest(".memory")?.querySelector(`#${CSS.escape(target(value.id))}`));
      box?.focus({ preventScroll: false });
    });
  }
  link.append(el("span", "mem-ref-text", name), el("span", "mem-dot"));   // the arrow leaves from the dot, past the text
  link.title = t("goes_to", { name });
  return link;
}

/**
 * The rows of an object's box: indexed cells, key/value rows or fields, and what was left out; with `from`,
 * a ⤺ on each (where that item was put).
 * @param {any} node @param {Function} cell @param {(key: string, values?: any) => string} t
 * @param {{label: string, go: (item: {kind: string, key: number|string}, label: string) => void}|null} from
 */
function inside(node, cell, t, from) {
  const rows = el("div", "mem-rows");
  const indexed = node.t !== "set" && node.t !== "frozenset";
  const origin = (kind, key, reach) => fromButton(t, `${from.label}${reach}`, () => from.go({ kind, key }, `${from.label}${reach}`));
  if (Array.isArray(node.items)) {
    const cells = el("div", "mem-cells");
    node.items.forEach((item, i) => {
      const box = el("div", "mem-cell");
      if (indexed) box.append(el("span", "mem-index", String(i)));
      box.append(cell(indexed ? `[${i}]` : pythonText(item), item));
      if (from && indexed) box.append(origin("item", i, `[${i}]`));
      cells.append(box);
    });
    rows.append(cells);
  }
  for (const [key, value] of node.entries ?? []) {
    const line = row(pythonText(key), cell(pythonText(key), value));
    if (from) line.append(origin("entry", JSON.stringify(key), `[${pythonText(key)}]`));
    rows.append(line);
  }
  for (const [name, value] of node.fields ?? []) {
    const line = row(name, cell(name, value));
    if (from) line.append(origin("field", name, `.${name}`));
    rows.append(line);
  }
  if (!showsInside(node)) rows.append(el("span", "mem-value", node.r ?? ""));
  if (node.more > 0) rows.append(el("span", "mem-more-items", t("more_items", { n: node.more })));
  return rows;
}

/**
 * Draw the arrows once the picture is laid out: from each reference's dot to the top left of its object's
 * box. Called again when the picture's size changes.
 * @param {HTMLElement} picture
 */
export function drawArrows(picture) {
  const svg = picture.querySelector(".mem-arrows");
  if (!svg) return;
  // Every position is read before anything is written: a write between two reads would lay the page
  // out again at each arrow.
  const origin = picture.getBoundingClientRect();
  const width = picture.scrollWidth, height = picture.scrollHeight;
  const boxes = new Map([...picture.querySelectorAll(".mem-object")].map((box) => [
    /** @type {HTMLElement} */ (box).dataset.id, box.getBoundingClientRect()]));
  const lines = [];
  for (const link of picture.querySelectorAll(".mem-ref[data-to]")) {
    const to = boxes.get(/** @type {HTMLElement} */ (link).dataset.to);
    const dot = link.querySelector(".mem-dot");
    if (!to || !dot) continue;
    const from = dot.getBoundingClientRect();
    lines.push([from.left + from.width / 2 - origin.left, from.top + from.height / 2 - origin.top,
      to.left - origin.left, to.top + 12 - origin.top]);
  }
  const markerId = `${picture.closest("[id]")?.id ?? "mem"}-head`;
  const marker = document.createElementNS(SVG, "marker");
  for (const [key, value] of [["id", markerId], ["viewBox", "0 0 8 8"], ["refX", "7"], ["refY", "4"],
    ["markerWidth", "7"], ["markerHeight", "7"], ["orient", "auto-start-reverse"]]) marker.setAttribute(key, value);
  const tip = document.createElementNS(SVG, "path");
  tip.setAttribute("d", "M0,0 L8,4 L0,8 z");
  marker.append(tip);
  const defs = document.createElementNS(SVG, "defs");
  defs.append(marker);
  const paths = lines.map(([x1, y1, x2, y2]) => {
    const bend = x2 > x1 + 10 ? Math.max(30, (x2 - x1) / 2) : 60;
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`);
    path.setAttribute("marker-end", `url(#${markerId})`);
    return path;
  });
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  svg.replaceChildren(defs, ...paths);
}
