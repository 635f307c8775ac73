// Render recorded values (docs/trace-format.md "Value") as DOM.
//
// Values are data, never markup: every piece of text goes in through textContent, so a `<script>` or
// `<img onerror>` inside a value shows as the characters it is. Containers open lazily: a 10,000-item
// preview costs nothing until the reader expands it.
import { count } from "./i18n.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A one-line summary: a string's text, a scalar's repr, a container's short repr. */
export function shortText(value) {
  if (!value || typeof value !== "object") return String(value);
  if (value.t === "str" && typeof value.v === "string") return JSON.stringify(value.v).slice(0, 200);
  return value.r ?? value.t ?? "?";
}

/**
 * What the reader opened, by path: a variable's (`split_history:groups`), then `/3` for an item,
 * `/'content'` for a dict entry (its key's short text), `.name` for a field. A container drawn at a path
 * in the set is drawn open (its items filled at once); opening or closing one tells `onToggle`.
 * @typedef {{ paths: Set<string>, onToggle: (path: string, open: boolean) => void }} Opened
 */

/**
 * Where-from on the items of containers (provenance.js): `label` names the value as Python would reach it
 * (`groups`, then `groups[0]`, `block['content']`, `cache.saved`); `go` asks for the step that wrote an
 * item of object `object`, named `label`.
 * @typedef {{label: string, go: (target: {object: number, item: {kind: 'item'|'entry'|'field', key: number|string}}, label: string) => void}} WhereFrom
 */

/**
 * @param {object} value a Value from the trace
 * @param {(key: string, values?: object) => string} t translation
 * @param {Opened} [opened] containers the reader opened (kept across steps by the caller)
 * @param {string} [path] this value's path in `opened`
 * @param {WhereFrom|null} [from] where-from buttons on the items of a numbered container
 * @returns {HTMLElement}
 */
export function renderValue(value, t, opened, path, from = null) {
  if (!value || typeof value !== "object") return el("span", "v", String(value));
  if (value.t === "str") return renderString(value, t);
  // Data (items, entries) and objects (fields: an instance's attributes, a dataclass's or named
  // tuple's fields, an exception's args) open the same way.
  const expandable = !value.cycle && (value.items?.length || value.entries?.length || value.fields?.length);
  if (!expandable) {
    const node = el("span", `v v-${cssType(value.t)}`, value.r ?? value.t);
    if (value.cycle) node.classList.add("v-cycle");
    return node;
  }
  const details = el("details", "v v-container");
  if (path !== undefined) details.dataset.path = path;
  if (from && value.id !== undefined) {   // Alt+W on the summary: where the container last changed
    details.dataset.object = String(value.id);
    details.dataset.label = from.label;
  }
  const summary = el("summary");
  const size = value.len ?? value.fields?.length ?? "?";
  summary.append(el("span", "v-type", `${value.t}[${size}]`), " ", el("span", "v-short", value.r ?? ""));
  details.append(summary);
  const fill = () => {
    if (details.dataset.filled) return;
    details.dataset.filled = "1";
    details.append(renderItems(value, t, opened, path, from));
  };
  if (opened && path !== undefined && opened.paths.has(path)) {
    details.open = true;
    fill();
  }
  details.addEventListener("toggle", (event) => {
    if (event.target !== details) return;
    if (details.open) fill();
    if (opened && path !== undefined && details.open !== opened.paths.has(path)) opened.onToggle(path, details.open);
  });
  return details;
}

function renderString(value, t) {
  const text = typeof value.v === "string" ? value.v : (value.r ?? "");
  const node = el("span", "v v-str");
  node.append(el("q", "v-text", text));
  const full = value.len ?? text.length;
  if (full > text.length) node.append(" ", el("span", "v-more", t("more_chars", { n: count(full) })));
  return node;
}

function renderItems(value, t, opened, path, from) {
  const list = el("ul", "v-items");
  const inner = (step) => (path === undefined ? undefined : path + step);
  const numbered = from && value.id !== undefined;
  /** One row: `key` as shown, the item, how Python reaches it (`reach`) and what where-from asks for. */
  const row = (shown, colon, item, step, reach, kind, key) => {
    const line = el("li");
    const label = numbered ? `${from.label}${reach}` : "";
    const deeper = numbered ? { label, go: from.go } : null;
    line.append(el("span", "v-key", shown), el("span", "v-colon", colon), renderValue(item, t, opened, inner(step), deeper));
    if (numbered) line.append(fromButton(t, label, () => from.go({ object: value.id, item: { kind, key } }, label)));
    list.append(line);
  };
  if (value.fields) {
    for (const [name, item] of value.fields) row(name, " = ", item, `.${name}`, `.${name}`, "field", name);
  } else if (value.entries) {
    for (const [key, item] of value.entries) {
      const label = shortText(key);
      row(label, ": ", item, `/${label}`, `[${key?.r ?? label}]`, "entry", JSON.stringify(key));
    }
  } else {
    (value.items ?? []).forEach((item, index) => row(`${index}`, ": ", item, `/${index}`, `[${index}]`, "item", index));
  }
  if (value.more) list.append(el("li", "v-more", t("more_items", { n: count(value.more) })));
  return list;
}

/**
 * A where-from button (⤺): the step that wrote `label`. Out of the Tab order inside containers (a long list
 * would be a long walk): the keyboard asks with Alt+W on a container's summary or a variable's button.
 * @param {(key: string, values?: object) => string} t @param {string} label @param {() => void} go
 * @param {boolean} [tabbable]
 */
export function fromButton(t, label, go, tabbable = false) {
  // The glyph is the stylesheet's (`button.from::before`): a value's text stays the value's.
  const button = /** @type {HTMLButtonElement} */ (el("button", "from"));
  button.type = "button";
  if (!tabbable) button.tabIndex = -1;
  const said = t("where_from", { what: label });
  button.setAttribute("aria-label", said);
  button.title = said;
  button.addEventListener("click", (event) => {
    event.preventDefault();   // inside a <summary>, a click would also open or close it
    go();
  });
  return button;
}

function cssType(type) {
  return /^[a-z]+$/.test(type) ? type : "obj";
}
