// The Watch panel (监视 / Watch): expressions the reader adds, each evaluated at every step in the
// language of conditions (conditions.js) over the frame shown, as VS Code's Watch view. An expression
// that cannot be answered there says why (a NameError, "truncated in the trace") instead of a value.

import { toPreview } from "./conditions.js";
import { renderValue } from "./values-view.js";

/** Watches kept per widget (a link carries them). */
export const MAX_WATCHES = 20;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class WatchPanel {
  /**
   * @param {HTMLElement} section the panel (its `.watch-add` input and `.watch-list`)
   * @param {{t: (key: string, values?: object) => string, onChange: () => void}} options
   */
  constructor(section, { t, onChange }) {
    this.section = section;
    this.t = t;
    this.onChange = onChange;
    /** @type {string[]} */
    this.expressions = [];
    /** @type {((source: string) => any)|null} the last evaluator rendered with */
    this.evaluate = null;
    this.input = /** @type {HTMLInputElement} */ (section.querySelector(".watch-add"));
    this.list = /** @type {HTMLElement} */ (section.querySelector(".watch-list"));
    this.input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      this.add(this.input.value);
      this.input.value = "";
    });
  }

  /** Add an expression (blank or already watched: nothing). */
  add(source) {
    const text = source.trim();
    if (!text || this.expressions.includes(text) || this.expressions.length >= MAX_WATCHES) return;
    this.expressions.push(text);
    this.render(this.evaluate);
    this.onChange();
  }

  remove(source) {
    this.expressions = this.expressions.filter((text) => text !== source);
    this.render(this.evaluate);
    this.onChange();
  }

  /** Replace the expressions (from a link). @param {string[]} sources */
  set(sources) {
    this.expressions = [];
    for (const source of sources) {
      const text = source.trim();
      if (text && !this.expressions.includes(text) && this.expressions.length < MAX_WATCHES) this.expressions.push(text);
    }
    this.render(this.evaluate);
  }

  /**
   * Draw every watch with its value from `evaluate` (null: nothing runs yet).
   * @param {((source: string) => any)|null} evaluate
   */
  render(evaluate) {
    this.evaluate = evaluate;
    this.list.replaceChildren();
    /** @type {HTMLElement} */ (this.section.querySelector(".watch-empty")).hidden = this.expressions.length > 0;
    for (const source of this.expressions) {
      const item = el("li");
      const value = el("span", "watch-value");
      if (!evaluate) value.append(el("span", "empty", this.t("watch_not_run")));
      else {
        try {
          value.append(renderValue(toPreview(evaluate(source)), this.t));
        } catch (error) {
          value.classList.add("error");
          value.textContent = error instanceof Error ? error.message : String(error);
        }
      }
      const remove = el("button", "watch-remove", "×");
      remove.type = "button";
      remove.setAttribute("aria-label", this.t("watch_remove", { expr: source }));
      remove.addEventListener("click", () => this.remove(source));
      item.append(el("code", "watch-expr", source), " = ", value, remove);
      this.list.append(item);
    }
  }
}
