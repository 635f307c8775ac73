// Predict, then reveal: a mode in which each step's new values stay hidden until the reader guesses them.
//
// With the mode on, a step (over, into a line of the same frame, out to the caller) that changes locals of
// the frame it lands in hides those values — in Variables, the memory picture, the history picture, the
// values beside the code, Watch and hover — and asks for a guess of each. A guess is a Python expression
// (`3`, `'user'`, `[1, 2]`, even `len(groups) - 1`), held right when it equals (`==`) the real value,
// evaluated by conditions.js over the step's values. Moving on without guessing reveals them, counted as
// skipped. The author's questions (scenario `questions`, py/stepwise/pins.py) are asked where their line is
// about to run; Continue pauses there as at a breakpoint; the explanation follows the guess. The score
// lasts as long as the page.

import { shortText } from "./values-view.js";

/**
 * @typedef {import("./debugger.js").Debugger} Debugger
 * @typedef {{line: number, zh: string, en: string, stage?: boolean, explain?: {zh: string, en: string}}} Question
 * @typedef {{frameId: number, from: number, index: number, names: string[], question: Question|null,
 *            results: {name: string, guess: string, right: boolean}[]|null, error: string|null,
 *            guesses: Record<string, string>}} Pending
 */

/** The moves a prediction is asked after: one step. Continue, a jump or the timeline just show. */
const STEPS = new Set(["over", "into", "out"]);

/** The name the real value goes by while a guess is checked (no program's name: Python's own are not dunder-wrapped so). */
const ANSWER = "__stepwise_answer__";

/** Python names (a comprehension's `.0` is none of the reader's business). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What a step from event `from` to event `to` asks the reader to predict: the locals that changed in the
 * frame it lands in, when that frame was already running (a call's new frame has only its arguments).
 * @param {any} replay @param {number} from @param {number} to
 * @returns {{frameId: number, names: string[]}|null}
 */
export function toPredict(replay, from, to) {
  const frame = replay.stackAt(to).at(-1);
  if (!frame || !replay.stackAt(from).some((f) => f.id === frame.id)) return null;
  const names = replay.changedBetween(frame.id, from, to).filter((name) => NAME.test(name));
  return names.length ? { frameId: frame.id, names } : null;
}

/** Predict mode for one debugger: its toggle, its card, its score. @param {Debugger} widget */
export function attachPredict(widget) {
  const toggle = /** @type {HTMLButtonElement|null} */ (widget.root.querySelector("button.predict-toggle"));
  const card = /** @type {HTMLElement|null} */ (widget.root.querySelector(".predict"));
  if (!toggle || !card) return;
  const questions = /** @type {Question[]} */ (widget.fn.questions ?? []);
  const t = widget.t;
  let on = false;
  /** @type {Pending|null} */
  let pending = null;
  /** @type {Question|null} the question asked at the cursor (its line runs next) */
  let asked = null;
  /** @type {Question|null} a question whose step changed nothing: its explanation shows */
  let explained = null;
  /** @type {{index: number, finished: boolean}|null} */
  let last = null;
  const score = { right: 0, total: 0, skipped: 0 };

  const questionAtCursor = () => {
    const position = widget.replay?.position();
    if (!on || !position || position.finished || widget.state !== "paused") return null;
    const frame = widget.replay.stackAt(position.index).at(-1);
    if (!frame || frame.def < widget.fn.first_line || frame.def > widget.fn.last_line) return null;
    if (widget.replay.isRepeat(position.index)) return null;
    return questions.find((q) => q.line === frame.line) ?? null;
  };

  const moved = (/** @type {CustomEvent} */ { detail: { position, via } }) => {
    const before = last;
    last = { index: position.index, finished: position.finished };
    if (!on) return;
    if (pending && !pending.results) score.skipped++;
    const previous = asked;
    pending = null;
    explained = null;
    if (STEPS.has(via) && before && !before.finished && position.index > before.index) {
      const asks = position.finished ? null : toPredict(widget.replay, before.index, position.index);
      if (asks) pending = { ...asks, from: before.index, index: position.index, question: previous, results: null,
        error: null, guesses: {} };
      else explained = previous;
    }
    asked = questionAtCursor();
    render();
  };

  /** Hide what the pending step changed, wherever the widget shows it (after each of its renders). */
  const hide = () => {
    const hiding = !!pending && !pending.results;
    widget.root.classList.toggle("predicting", hiding);
    for (const dd of widget.root.querySelectorAll(".vars-body dd.guess-hidden")) dd.classList.remove("guess-hidden");
    if (!hiding) return;
    for (const dt of widget.root.querySelectorAll(".vars-body dt")) {
      const name = dt.firstChild?.textContent ?? "";
      if (pending.names.includes(name) || dt.classList.contains("special")) {
        dt.nextElementSibling?.classList.add("guess-hidden");
      }
    }
  };

  const check = (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    if (!pending || pending.results) return;
    // A guess is read as it would be before the step (`x + 1` means the old x), then held to the new value.
    const after = widget.replay.localsAt(pending.index, pending.frameId).vars;
    const known = new Map(widget.replay.localsAt(pending.from, pending.frameId).vars);
    const inputs = [...card.querySelectorAll("input[data-name]")].map((i) => /** @type {HTMLInputElement} */ (i));
    pending.guesses = Object.fromEntries(inputs.map((input) => [input.dataset.name, input.value]));
    const results = [];
    for (const input of inputs) {
      const name = input.dataset.name, guess = input.value.trim();
      try {
        if (!guess) throw new Error(t("predict_empty"));
        known.set(ANSWER, after.get(name));
        results.push({ name, guess, right: widget.replay.evaluateOver(`(${guess}) == ${ANSWER}`, known) === true });
      } catch (error) {
        pending.error = t("predict_unreadable", { name, message: error.message });
        render();   // the guesses stay in their boxes; focus goes to the one to fix
        /** @type {HTMLInputElement|null} */ (card.querySelector(`input[data-name="${CSS.escape(name)}"]`))?.focus();
        return;
      }
    }
    pending.results = results;
    pending.error = null;
    score.total += results.length;
    score.right += results.filter((r) => r.right).length;
    render();
    /** @type {HTMLElement|null} */ (card.querySelector("p.predict-score"))?.focus();   // the form is gone: keep focus here
  };

  const text = (/** @type {{zh: string, en: string}} */ pair) => pair[widget.i18n.lang] ?? pair.zh;
  const p = (className, content) => {
    const node = document.createElement("p");
    node.className = className;
    node.append(...[content].flat());
    return node;
  };

  const render = () => {
    hide();
    card.hidden = !on;
    if (!on) return;
    const parts = [];
    const question = pending?.question ?? explained;
    if (question) parts.push(p("predict-question", t("predict_question", { line: question.line, text: text(question) })));
    if (pending && !pending.results) parts.push(guessForm(pending));
    if (pending?.results) parts.push(resultList(pending));
    if (explained) parts.push(p("predict-said", t("predict_nothing")));
    if (question?.explain && (pending?.results || explained)) {
      parts.push(p("predict-explain", t("predict_why", { text: text(question.explain) })));
    }
    if (asked) parts.push(p("predict-question next", t("predict_asked", { line: asked.line, text: text(asked) })));
    if (!parts.length) parts.push(p("predict-said", t("predict_hint")));
    const scored = p("predict-score", t("predict_score", score));
    scored.tabIndex = -1;
    parts.push(scored);
    card.replaceChildren(...parts);
  };

  const guessForm = (/** @type {Pending} */ step) => {
    const form = document.createElement("form");
    form.className = "predict-form";
    form.setAttribute("aria-label", t("predict_form"));
    form.append(p("predict-said", t("predict_prompt", { names: step.names.join(", ") })));
    for (const name of step.names) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "text";
      input.spellcheck = false;
      input.autocomplete = "off";
      input.dataset.name = name;
      input.value = step.guesses[name] ?? "";
      input.setAttribute("aria-label", t("predict_guess", { name }));
      const code = document.createElement("code");
      code.textContent = `${name} =`;
      label.append(code, " ", input);
      form.append(label);
    }
    const reveal = document.createElement("button");
    reveal.type = "submit";
    reveal.textContent = t("predict_reveal");
    form.append(reveal);
    if (step.error) form.append(p("predict-error", step.error));
    form.addEventListener("submit", check);
    return form;
  };

  const resultList = (/** @type {Pending} */ step) => {
    const list = document.createElement("ul");
    list.className = "predict-results";
    const vars = widget.replay.localsAt(step.index, step.frameId).vars;
    for (const { name, guess, right } of step.results) {
      const item = document.createElement("li");
      item.className = right ? "right" : "wrong";
      const value = vars.has(name) ? shortText(vars.get(name)) : t("predict_gone");
      item.textContent = t(right ? "predict_right" : "predict_wrong", { name, value, guess });
      list.append(item);
    }
    return list;
  };

  toggle.disabled = false;
  toggle.addEventListener("click", () => {
    on = !on;
    toggle.setAttribute("aria-pressed", String(on));
    widget.pauseLines = new Set(on ? questions.map((q) => q.line) : []);
    pending = null;
    explained = null;
    asked = questionAtCursor();
    render();
  });
  widget.addEventListener("moved", moved);
  widget.addEventListener("change", () => {
    if (widget.replay) return hide();   // Variables may have been drawn again
    pending = null;   // a new case, an edit: nothing to predict until it runs
    asked = explained = null;
    last = null;
    render();
  });
  widget.i18n.addEventListener("change", render);
}
