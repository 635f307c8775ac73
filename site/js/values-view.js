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
 * @param {object} value a Value from the trace
 * @param {(key: string, values?: object) => string} t translation
 * @param {Opened} [opened] containers the reader opened (kept across steps by the caller)
 * @param {string} [path] this value's path in `opened`
 * @returns {HTMLElement}
 */
export function renderValue(value, t, opened, path) {
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
  const summary = el("summary");
  const size = value.len ?? value.fields?.length ?? "?";
  summary.append(el("span", "v-type", `${value.t}[${size}]`), " ", el("span", "v-short", value.r ?? ""));
  details.append(summary);
  const fill = () => {
    if (details.dataset.filled) return;
    details.dataset.filled = "1";
    details.append(renderItems(value, t, opened, path));
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

function renderItems(value, t, opened, path) {
  const list = el("ul", "v-items");
  const inner = (step) => (path === undefined ? undefined : path + step);
  if (value.fields) {
    for (const [name, item] of value.fields) {
      const row = el("li");
      row.append(el("span", "v-key", name), el("span", "v-colon", " = "), renderValue(item, t, opened, inner(`.${name}`)));
      list.append(row);
    }
  } else if (value.entries) {
    for (const [key, item] of value.entries ?? []) {
      const row = el("li");
      const label = shortText(key);
      row.append(el("span", "v-key", label), el("span", "v-colon", ": "), renderValue(item, t, opened, inner(`/${label}`)));
      list.append(row);
    }
  } else {
    (value.items ?? []).forEach((item, index) => {
      const row = el("li");
      row.append(el("span", "v-key", `${index}`), el("span", "v-colon", ": "), renderValue(item, t, opened, inner(`/${index}`)));
      list.append(row);
    });
  }
  if (value.more) list.append(el("li", "v-more", t("more_items", { n: count(value.more) })));
  return list;
}

function cssType(type) {
  return /^[a-z]+$/.test(type) ? type : "obj";
}
