// The memory picture (Memory / 内存): frames on the left, the objects they reach on the right as boxes,
// references as arrows, as Python Tutor draws them. Built from the previews' object numbers
// (docs/trace-format.md "Object numbers"): a node with an `id` is an object, drawn once however many
// places reach it; numbers, texts, None, booleans and plain tuples are drawn where they are held.
//
// Accessible names (tests find the picture by them): an object is a group named `<type> #<n>`, a frame a
// group named by its function, a reference a link named `<label> → <type> #<n>` (a variable's name, `[i]`,
// a dict key's short text, or a field's name). Values are data: all text goes in through textContent.
import { shortText } from "./values-view.js";

/** Objects drawn at most; the rest are counted in a "more" box. */
export const OBJECTS_CAP = 60;
const SVG = "http://www.w3.org/2000/svg";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Does this preview node stand for an object of its own (it has a number)? */
const isObject = (value) => value !== null && typeof value === "object" && Number.isInteger(value.id);

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
    for (const item of node.items ?? []) visit(item);
    for (const [key, value] of node.entries ?? []) { visit(key); visit(value); }
    for (const [, value] of node.fields ?? []) visit(value);
  };
  visit(returned);
  for (const frame of frames) for (const value of frame.vars.values()) visit(value);
  return found;
}

/**
 * The boxes' order: depth first from the frames as drawn (outermost first), so what one object holds comes
 * right after it; the same structure gives the same order at every step, and a box keeps its place.
 */
function drawingOrder(frames, returned, objects) {
  /** @type {Set<number>} */
  const order = new Set();
  const visit = (value) => {
    if (!isObject(value) || order.has(value.id) || !objects.has(value.id)) return;
    order.add(value.id);
    const node = objects.get(value.id);
    for (const item of node.items ?? []) visit(item);
    for (const [key, part] of node.entries ?? []) { visit(key); visit(part); }
    for (const [, part] of node.fields ?? []) visit(part);
  };
  for (const frame of frames) for (const value of frame.vars.values()) visit(value);
  visit(returned);
  return [...order];
}

/** What a box shows, to tell a changed object from an unchanged one between two steps. */
export const contentKey = (node) => JSON.stringify(node);

/**
 * The picture of one step.
 * @param {{function: string, current: boolean, vars: Map<string, any>}[]} frames outermost first
 * @param {{returned?: any, before?: Map<number, any>|null, folded?: number, anchor: string, t: Function}} options
 *   `before`: the objects of the step before (what changed is marked); `folded`: frames left out after the
 *   first two (a deep recursion); `anchor`: a prefix for element ids
 * @returns {HTMLElement}
 */
export function renderMemory(frames, { returned, before = null, folded = 0, anchor, t }) {
  const objects = objectsReached([...frames].reverse(), returned);
  const picture = el("div", "memory");
  const frameColumn = el("div", "mem-frames");
  const objectColumn = el("div", "mem-objects");
  const target = (id) => `${anchor}-${id}`;
  const drawn = drawingOrder(frames, returned, objects);
  const shown = new Set(drawn.slice(0, OBJECTS_CAP));
  const cell = (label, value) => (isObject(value) && objects.has(value.id) ? reference(label, value, shown, target, t)
    : el("span", "mem-value", shortText(value)));

  frames.forEach((frame, n) => {
    if (folded && n === 2) frameColumn.append(el("div", "mem-more", t("more_frames", { n: folded })));
    const box = el("div", frame.current ? "mem-frame current" : "mem-frame");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", frame.function);
    box.append(el("div", "mem-head", frame.function));
    const rows = el("div", "mem-rows");
    for (const [name, value] of frame.vars) rows.append(row(name, cell(name, value)));
    if (frame.current && returned !== undefined && returned !== null) {
      rows.append(row(`⟵ ${t("returned")}`, cell(t("returned"), returned)));
    }
    if (!frame.vars.size) rows.append(el("span", "mem-empty", t("no_locals")));
    box.append(rows);
    frameColumn.append(box);
  });
  for (const id of drawn) {
    if (!shown.has(id)) continue;
    const node = objects.get(id);
    const box = el("div", "mem-object");
    box.id = target(id);
    box.dataset.id = String(id);
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", `${node.t} #${id}`);
    box.tabIndex = -1;
    if (before && !before.has(id)) box.classList.add("made");
    else if (before && contentKey(before.get(id)) !== contentKey(node)) box.classList.add("changed");
    box.append(el("div", "mem-head", `${node.t} #${id}`));
    box.append(inside(node, cell, t));
    objectColumn.append(box);
  }
  if (drawn.length > shown.size) {
    objectColumn.append(el("div", "mem-more", t("more_objects", { n: drawn.length - shown.size })));
  }
  if (!drawn.length) objectColumn.append(el("p", "empty", t("no_objects")));
  const arrows = document.createElementNS(SVG, "svg");
  arrows.classList.add("mem-arrows");
  arrows.setAttribute("aria-hidden", "true");
  picture.append(frameColumn, objectColumn, arrows);
  return picture;
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
  link.append(el("span", "mem-dot"), el("span", "mem-ref-text", name));
  link.title = t("goes_to", { name });
  return link;
}

/** The rows of an object's box: indexed cells, key/value rows or fields, and what was left out. */
function inside(node, cell, t) {
  const rows = el("div", "mem-rows");
  const indexed = node.t !== "set" && node.t !== "frozenset";
  if (Array.isArray(node.items)) {
    const cells = el("div", "mem-cells");
    node.items.forEach((item, i) => {
      const box = el("div", "mem-cell");
      if (indexed) box.append(el("span", "mem-index", String(i)));
      box.append(cell(indexed ? `[${i}]` : shortText(item), item));
      cells.append(box);
    });
    rows.append(cells);
  }
  for (const [key, value] of node.entries ?? []) rows.append(row(shortText(key), cell(shortText(key), value)));
  for (const [name, value] of node.fields ?? []) rows.append(row(name, cell(name, value)));
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
