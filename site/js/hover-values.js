// Values in the code pane: hovering a name (or `a.b.c`) shows its value at this step, and focusing a
// line's number shows the values of the names on that line, as VS Code's debug hover does. Values
// come from the trace (`valueOf`), never from running code; a name with no value here shows nothing.

import { shortText } from "./values-view.js";

const NAME = /[\p{L}_][\p{L}\p{N}_]*/u;
const PART = /[\p{L}\p{N}_]/u;
const KEYWORDS = new Set(["False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
  "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
  "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"]);

/**
 * The name, or dotted name, that ends at the word holding `offset` in `text` (`self.saved` when the
 * pointer is on `saved`); null off a name or on a keyword.
 * @param {string} text
 * @param {number} offset
 * @returns {string|null}
 */
export function nameAt(text, offset) {
  let start = offset, end = offset;
  while (start > 0 && PART.test(text[start - 1])) start--;
  while (end < text.length && PART.test(text[end])) end++;
  const word = text.slice(start, end);
  if (!NAME.test(word) || NAME.exec(word)[0] !== word || KEYWORDS.has(word)) return null;
  // Walk back over `.attr` links: `a.b` hovered on b is a.b.
  let first = start;
  while (first > 1 && text[first - 1] === "." && PART.test(text[first - 2])) {
    let s = first - 1;
    while (s > 0 && PART.test(text[s - 1])) s--;
    first = s;
  }
  // `rows[0].count`, `f(x).index`: an attribute of what an expression gives, not a local of that name.
  if (text[first - 1] === ".") return null;
  return text.slice(first, end);
}

/** The distinct names a line's text reads (keywords, attributes after a dot and strings left out). */
export function namesIn(text) {
  const code = text.replace(/(['"])(?:\\.|(?!\1).)*\1/g, " ").replace(/#.*/, "");
  const names = [];
  for (const match of code.matchAll(/[\p{L}_][\p{L}\p{N}_]*/gu)) {
    const before = code[match.index - 1];
    if (before === "." || KEYWORDS.has(match[0]) || names.includes(match[0])) continue;
    names.push(match[0]);
  }
  return names;
}

/**
 * Show values over `pane` (the code pane) in `tip` (an element with role=tooltip).
 * @param {HTMLElement} pane
 * @param {HTMLElement} tip
 * @param {(expression: string) => object|null} valueOf a Value at the step shown, or null
 */
export function bindHoverValues(pane, tip, valueOf) {
  const hide = () => { tip.hidden = true; };
  const show = (rows, anchor) => {
    if (!rows.length) return hide();
    tip.replaceChildren(...rows.map(([name, value]) => {
      const row = document.createElement("div");
      const code = document.createElement("code");
      code.textContent = name;
      row.append(code, ` = ${shortText(value).slice(0, 200)}`);
      return row;
    }));
    // Fixed to the viewport, under what it describes: the pane scrolls, the tip need not follow it.
    const box = anchor.getBoundingClientRect();
    tip.style.left = `${Math.max(0, Math.min(box.left, innerWidth - 260))}px`;
    tip.style.top = `${box.bottom + 2}px`;
    tip.hidden = false;
  };
  pane.addEventListener("mousemove", (event) => {
    const range = document.caretPositionFromPoint ? null : document.caretRangeFromPoint?.(event.clientX, event.clientY);
    const spot = document.caretPositionFromPoint?.(event.clientX, event.clientY)
      ?? (range ? { offsetNode: range.startContainer, offset: range.startOffset } : null);
    const node = spot?.offsetNode;
    const code = node?.parentElement?.closest(".line code");
    if (!node || node.nodeType !== Node.TEXT_NODE || !code) return hide();
    // Offsets within the whole line: a name may span highlighted pieces (`self` then `.saved`).
    let offset = spot.offset;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text && text !== node; text = walker.nextNode()) offset += text.textContent.length;
    const name = nameAt(code.textContent, offset);
    const value = name && valueOf(name);
    if (!value) return hide();
    show([[name, value]], /** @type {HTMLElement} */ (node.parentElement));
  });
  pane.addEventListener("mouseleave", hide);
  pane.addEventListener("scroll", hide);
  pane.addEventListener("focusin", (event) => {
    const line = /** @type {Element} */ (event.target).closest?.(".line");
    const code = line?.querySelector("code");
    if (!code) return hide();
    const rows = namesIn(code.textContent).map((name) => [name, valueOf(name)]).filter(([, value]) => value);
    show(rows, /** @type {HTMLElement} */ (line));
  });
  pane.addEventListener("focusout", hide);
  pane.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
}
