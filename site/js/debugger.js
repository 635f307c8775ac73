// One debugger widget: a shown function, its scenario picker, controls and panels.
//
// The widget asks the worker for a trace (one run per case), then every move is answered by the
// replay engine without running anything again. Breakpoints live here, so they exist before the
// first run and survive a re-run of the same case; switching the case clears them and the replay.

import { parseCondition, toPreview } from "./conditions.js";
import { Replay } from "./replay.js";
import { highlightPython } from "./python-highlight.js";
import { fromButton, renderValue, shortText } from "./values-view.js";
import { historyBytes, isHistory, renderHistory } from "./history-picture.js";
import { drawArrows, freshened, objectsReached, renderMemory } from "./memory-picture.js";
import { count } from "./i18n.js";
import { LOG_CAP, logText, outputWithLogs } from "./log-points.js";
import { WatchPanel } from "./watch-panel.js";
import { bindHoverValues } from "./hover-values.js";
import { bindPanelTabs } from "./panel-tabs.js";

/** Frames the memory picture draws at most: the two outermost and the innermost rest. */
const MEMORY_FRAMES = 10;

const MOVES = {
  continue: "continue", over: "stepOver", into: "stepInto", out: "stepOut",
  back: "stepBack", rinto: "reverseStepInto", rcontinue: "reverseContinue",
};
/** Moves that go backwards in time: allowed from the finished state too. */
const REVERSE = new Set(["back", "rinto", "rcontinue"]);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Why a condition does not parse, as words for the page's language: its column, and the parser's detail. */
function conditionProblem(error) {
  const message = String(error?.message ?? error).replace(/^Condition syntax error at column \d+: /, "");
  return { column: (error?.position ?? 0) + 1, message };
}

// Recorded traces are fixed lesson data: each is fetched once per page, however often it is shown.
const recordedTraces = new Map();

/** The text of a recorded trace, or null when it cannot be had (offline, missing): then run it live. */
function recordedTrace(path) {
  let text = recordedTraces.get(path);
  if (!text) {
    text = fetch(new URL(path, document.baseURI))
      .then((response) => (response.ok ? response.text() : null))
      .catch(() => null);
    recordedTraces.set(path, text);
    text.then((value) => { if (value === null) recordedTraces.delete(path); });
  }
  return text;
}

/** A one-line text box of the Breakpoints list, telling `onChange` its text when committed. */
function textBox(value, placeholder, label, onChange) {
  const box = /** @type {HTMLInputElement} */ (el("input"));
  box.type = "text";
  box.value = value ?? "";
  box.placeholder = placeholder;
  box.setAttribute("aria-label", label);
  box.addEventListener("change", () => onChange(box.value));
  return box;
}

/** How many objects the change navigator offers (a long list of them would bury the names). */
const CHANGE_NAV_OBJECTS = 40;

/**
 * The objects `vars` reach, each once, breadth first (the nearest path names it): [number, path, type].
 * @param {Map<string, any>} vars @param {number} cap
 * @returns {[number, string, string][]}
 */
function objectsByPath(vars, cap) {
  const found = new Map();
  const queue = [...vars].map(([name, value]) => [name, value]);
  while (queue.length && found.size < cap) {
    const [path, node] = queue.shift();
    if (!node || typeof node !== "object") continue;
    if (node.id !== undefined) {
      if (found.has(node.id)) continue;
      found.set(node.id, [node.id, path, node.t]);
    }
    (node.items ?? []).forEach((item, n) => queue.push([`${path}[${n}]`, item]));
    for (const [key, value] of node.entries ?? []) queue.push([`${path}[${key?.r ?? "?"}]`, value]);
    for (const [field, value] of node.fields ?? []) queue.push([`${path}.${field}`, value]);
  }
  return [...found.values()];
}

export class Debugger extends EventTarget {
  /** @type {{replay: any, cells: Map<number, [number, number]>}|undefined} the memory picture's last cells */
  #memoryCells;

  /**
   * @param {HTMLElement} root the widget's <section>
   * @param {{lesson: object, fn: object, name: string, worker: import("./worker-client.js").WorkerClient,
   *          i18n: import("./i18n.js").I18n}} options
   */
  constructor(root, { lesson, fn, name, worker, i18n }) {
    super();
    this.root = root;
    /** @type {any} the lesson's data (build.py) */
    this.lesson = lesson;
    /** @type {any} this function's part of it: cases, limits, source */
    this.fn = fn;
    this.name = name;
    this.worker = worker;
    this.i18n = i18n;
    this.t = (key, values) => i18n.t(key, values);
    this.caseId = fn.cases[0].id;
    this.breakpoints = new Map(); // line -> {condition, hitCount, enabled, log}
    this.toolbarFocus = null; // the toolbar's control Tab comes back to (`#rove`)
    // What the reader opened in Variables stays open across steps, frames and runs (values-view.js `Opened`);
    // as in VS Code, what was open inside a container the reader closes is open again when it reopens.
    this.opened = {
      paths: new Set(),
      onToggle: (path, open) => {
        if (open) this.opened.paths.add(path);
        else this.opened.paths.delete(path);
        this.#changed();
      },
    };
    this.replay = null; // Replay of the current case's trace
    this.notices = []; // what a followed link could not do, said with the next move
    this.pendingNotices = [];
    this.trace = null;
    this.state = "idle"; // idle | running | paused | finished | error
    this.runToken = 0;
    this.select = /** @type {HTMLSelectElement} */ (this.#el("select[name=scenario]"));
    this.status = this.#el("[role=status]");
    this.slider = this.#input(".timeline input");
    this.stepCount = this.#el(".step-count");
    /** @type {Record<string, HTMLButtonElement>} */
    this.buttons = Object.fromEntries(this.#all("[data-action]").map((b) => [b.dataset.action, /** @type {HTMLButtonElement} */ (b)]));
    this.#findLines();
    this.edited = null; // the reader's own [setup, entry], run live
    /** @type {Map<string, any>} the variables Variables shows now (watches and hover read them) */
    this.shownVars = new Map();
    /** @type {number[]} the steps jumps left (Infinity: finished), last last (`jumpBack`) */
    this.jumps = [];
    /** @type {{key: string, index: number, change: number}|null} the last where-from answer (asked again: the write before) */
    this.lastFrom = null;
    /** @type {Set<number>} lines Continue pauses at besides breakpoints (predict-mode.js) */
    this.pauseLines = new Set();
    this.watches = new WatchPanel(this.#el(".panel.watch"), { t: this.t, onChange: () => this.#changed() });
    this.#bind();
    this.#bindEditing();
    this.#showSetup();
    this.#relabel();
  }

  /** The code pane's line rows, by line number, each told its own indentation: the phone layout's wrapped
   * lines hang under it (site.css; the page's CSP allows no inline style in the markup, but a property set
   * from here is fine). */
  #findLines() {
    this.lineRows = new Map(this.#all(".dbg-code > .code .line").map((row) => [+row.dataset.line, row]));
    for (const row of this.lineRows.values()) {
      const code = row.querySelector("code");
      const indent = code ? code.textContent.length - code.textContent.trimStart().length : 0;
      if (indent) code.style.setProperty("--indent", `${indent}ch`);
    }
  }

  /**
   * Show `text` as the file this debugger steps through, a breakpoint button on every line, as the build
   * renders a lesson's (site/templates/widgets.html `code_block`): the playground's program, after each
   * edit. The trace is dropped; breakpoints past the new last line too.
   * @param {string} text
   */
  showSource(text) {
    const lines = text.replace(/\n$/, "").split("\n");
    this.#el(".dbg-code > .code").replaceChildren(...lines.map((line, n) => {
      const row = el("div", "line");
      row.dataset.line = String(n + 1);
      const button = /** @type {HTMLButtonElement} */ (el("button", "gutter bp", String(n + 1)));
      button.type = "button";
      button.dataset.line = String(n + 1);
      button.setAttribute("aria-pressed", "false");
      button.setAttribute("aria-label", this.t("breakpoint", { line: n + 1 }));
      const code = el("code");
      code.append(highlightPython(line));
      row.append(button, code);
      return row;
    }));
    this.#findLines();
    this.fn.first_line = 1;
    this.fn.last_line = lines.length;
    for (const line of [...this.breakpoints.keys()]) if (line > lines.length) this.breakpoints.delete(line);
    this.runToken++;
    this.replay = null;
    this.trace = null;
    this.#setState("idle");
    this.#clearPanels();
    this.#renderBreakpoints();
    this.#changed();
  }

  /**
   * Which lines ran in this trace, in the code pane: a count beside each line that ran (a button: the
   * cursor goes to where the line next runs, and round again), the lines that never ran dimmed. Without
   * a trace, neither.
   */
  #renderRuns() {
    for (const [line, row] of this.lineRows) {
      const runs = this.replay ? this.replay.runsOf(line) : null;
      row.classList.toggle("not-run", runs === 0);
      let count = /** @type {HTMLButtonElement|null} */ (row.querySelector("button.runs"));
      const blank = row.querySelector("span.runs");   // keeps a line that never ran in step with the others
      if (!runs) {
        count?.remove();
        if (runs === 0 && !blank) row.querySelector("button.bp")?.after(el("span", "runs"));
        if (runs === null) blank?.remove();
        continue;
      }
      blank?.remove();
      if (!count) {
        count = /** @type {HTMLButtonElement} */ (el("button", "runs"));
        count.type = "button";
        count.tabIndex = -1;   // a line's own button takes Tab; this one is the pointer's (and Alt+J's)
        count.dataset.line = String(line);
        row.querySelector("button.bp")?.after(count);
      }
      count.textContent = count.dataset.count = String(runs);
      count.setAttribute("aria-label", this.t("line_runs", { line, n: runs }));
    }
  }

  /** The cursor to where `line` next runs (from its last run, its first): the count beside the line. */
  goToNextRun(line) {
    if (!this.replay || this.state === "running" || !this.replay.runsOf(line)) return;
    this.#remember(this.replay.position());
    this.#afterMove(this.replay.nextRunOf(line), "line-run");
  }

  /**
   * The change navigator's choices: the shown frame's locals, then the objects they reach (by number, named by
   * a path to them: a change through any name counts); the chosen one kept while it is there.
   */
  #fillChangeNav(frame, vars) {
    const pick = /** @type {HTMLSelectElement} */ (this.#el("select[name=change-name]"));
    const chosen = pick.value;
    this.changeFrame = frame?.id ?? null;
    pick.replaceChildren(...[...vars.keys()].map((name) => new Option(name, name)));
    const objects = objectsByPath(vars, CHANGE_NAV_OBJECTS);
    if (objects.length) {
      const group = /** @type {HTMLOptGroupElement} */ (el("optgroup"));
      group.label = this.t("change_objects");
      group.append(...objects.map(([id, path, type]) => new Option(`${path} · ${type} #${id}`, `#${id}`)));
      pick.append(group);
    }
    if ([...pick.options].some((option) => option.value === chosen)) pick.value = chosen;
    const usable = this.changeFrame != null && vars.size > 0;
    for (const control of this.#all(".change-nav select, .change-nav button")) {
      /** @type {HTMLButtonElement} */ (control).disabled = !usable;
    }
  }

  /**
   * The cursor to where the chosen variable of the shown frame last changed before this step (-1) or next
   * changes after it (1): the step at which Variables marks it changed. None: said, and no move.
   * @param {1|-1} direction
   */
  goToChange(direction) {
    const select = /** @type {HTMLSelectElement} */ (this.#el("select[name=change-name]"));
    const value = select.value;
    if (!this.replay || this.state === "running" || !value || this.changeFrame == null) return;
    const before = this.replay.position();
    const object = value.startsWith("#") ? +value.slice(1) : null;
    const name = object === null ? value : select.selectedOptions[0].textContent;
    const move = object === null ? this.replay.changeOf(this.changeFrame, value, direction)
      : this.replay.objectChangeOf(object, direction);
    if (move.reason === "never") this.notify(this.t(direction < 0 ? "no_change_before" : "no_change_after", { name }));
    else {
      this.#remember(before);
      this.#afterMove(move, "change");
    }
  }

  /**
   * Where did this come from (provenance.js): the cursor to the step that last wrote a name of a frame
   * (`{frameId, name}`), an object (`{object}`) or one of its items (`{object, item}`); asked again from
   * the answer, the write before it. The status says where (line, step); nothing written by then is said.
   * @param {{frameId?: number, name?: string, object?: number, item?: any}} target @param {string} label
   */
  whereFrom(target, label) {
    if (!this.replay || this.state === "running") return;
    const key = JSON.stringify(target);
    const again = this.lastFrom?.key === key && this.lastFrom.index === this.replay.index;
    const before = this.replay.position();
    const move = this.replay.whereFrom(target, again ? this.lastFrom.change - 1 : null);
    if (move.reason === "never") {
      this.notify(this.t(again ? "from_none_before" : "from_none", { what: label }));
      return;
    }
    this.#remember(before);
    const { written } = move;
    const step = this.replay.position().stepNumber;
    const said = written.via === "gap" ? "status_written_in_gap"
      : target.object != null && !target.item ? (written.first ? "status_first_seen_at" : "status_changed_at")
        : { call: "status_passed_at", entry: "status_passed_by_entry" }[written.via] ?? "status_set_at";
    this.#afterMove(move, "from", { key: said, values: { what: label, line: written.line, step } });
    this.lastFrom = { key, index: this.replay.index, change: written.change };
  }

  /**
   * Before a jump (where-from, a line's next run, a variable's change), the step it left: Back to it
   * (the timeline's ↩, Alt+←) retraces the jumps, last first, as an editor's Go Back does.
   * @param {{stepNumber: number, finished: boolean}} position
   */
  #remember(position) {
    this.jumps.push(position.finished ? Infinity : position.stepNumber);
    if (this.jumps.length > 50) this.jumps.shift();
    this.#showJumpBack();
  }

  /** Back to where the last jump left. */
  jumpBack() {
    if (!this.replay || this.state === "running" || !this.jumps.length) return;
    const step = this.jumps.pop();
    this.lastFrom = null;
    this.#showJumpBack();
    this.#afterMove(step === Infinity ? this.replay.toEnd() : this.replay.seekStep(step), "jump-back");
  }

  #showJumpBack() {
    const button = /** @type {HTMLButtonElement} */ (this.#el("button.jump-back"));
    const step = this.jumps.at(-1);
    button.hidden = step === undefined;
    if (step !== undefined) {
      button.textContent = this.t(step === Infinity ? "jump_back_end" : "jump_back", { step: count(step) });
    }
  }

  /**
   * What the worker is asked to run for the current case (the reader's edited input, if any), or for another
   * case as its author wrote it; the playground's page adds its program.
   * @param {string} [caseId]
   */
  runRequest(caseId = this.caseId) {
    const [setup, entry] = caseId === this.caseId ? this.code() : this.fn.code[caseId];
    return { source: this.lesson.source, module: this.lesson.module, setup, entry,
      function: this.name, case: caseId, limits: this.fn.limits };
  }

  /**
   * A replay of another case of this function as its author wrote it (compare-cases.js): the build's recorded
   * trace when there is one, else a run in the worker (after the one in progress). Throws what went wrong.
   * @param {string} caseId
   * @returns {Promise<Replay>}
   */
  async traceOf(caseId) {
    const recorded = this.fn.recorded?.[caseId];
    const answer = (recorded && await this.#fetchRecorded(recorded)) ?? await this.worker.run(this.runRequest(caseId)).result;
    if (answer.type !== "trace") throw new Error(this.#failure(answer));
    return answer.replay ? Replay.fromParts(answer.replay) : new Replay(JSON.parse(answer.json));
  }

  /** The cursor to step `step` (1-based), as the timeline would: compare-cases.js's "go to where they part". */
  goToStep(step) {
    if (!this.replay || this.state === "running") return;
    this.#remember(this.replay.position());
    this.#afterMove(this.replay.seekStep(step), "step");
  }

  // ------------------------------------------------------------------ wiring

  /** The widget's element for `selector` (the page template has each one). @returns {HTMLElement} */
  #el(selector) {
    return this.root.querySelector(selector);
  }

  /** A form control of the widget (input, textarea). @returns {HTMLInputElement} */
  #input(selector) {
    return this.root.querySelector(selector);
  }

  /** @returns {HTMLElement[]} */
  #all(selector) {
    return [...this.root.querySelectorAll(selector)].map((el) => /** @type {HTMLElement} */ (el));
  }

  #bind() {
    for (const [action, button] of Object.entries(this.buttons)) {
      button.addEventListener("click", () => this.act(action));
    }
    this.#el(".dbg-code > .code").addEventListener("click", (event) => {
      const runs = /** @type {HTMLElement|null} */ (/** @type {Element} */ (event.target).closest("button.runs"));
      if (runs) {
        this.goToNextRun(+runs.dataset.line);
        return;
      }
      const button = /** @type {HTMLElement|null} */ (/** @type {Element} */ (event.target).closest("button.bp"));
      if (!button) return;
      // Ctrl/⌘+click runs to the line, as VS Code's Run to Cursor; a plain click toggles its breakpoint.
      if (event.ctrlKey || event.metaKey) this.runToLine(+button.dataset.line);
      else this.toggleBreakpoint(+button.dataset.line);
    });
    this.select.addEventListener("change", () => this.setCase(this.select.value));
    this.#el("button.jump-back").addEventListener("click", () => this.jumpBack());
    this.#el(".change-nav").addEventListener("click", (event) => {
      const button = /** @type {HTMLElement|null} */ (/** @type {Element} */ (event.target).closest("button[data-change]"));
      if (button) this.goToChange(button.dataset.change === "-1" ? -1 : 1);
    });
    bindHoverValues(this.#el(".dbg-code > .code"), this.#el(".hover-value"), (expression) => this.#valueAt(expression));
    // A panel shown on a phone draws what it missed while hidden (the memory picture's arrows need a size).
    bindPanelTabs(this.root, () => { if (this.replay) this.#render(this.replay.position()); });
    this.currentFrameOnly = this.#input("input[name=current-frame]");
    // The whole file in the code pane (every line's button there before a run), or the function in view.
    this.wholeFile = this.#input("input[name=whole-file]");
    this.wholeFile.addEventListener("change", () => {
      this.shownSpan = null;
      if (this.replay) this.#render(this.replay.position());
      else this.#showCode(null, true);
      this.#changed();
    });
    this.currentFrameOnly.addEventListener("change", () => {
      if (this.replay) this.#render(this.replay.position());
      this.#changed();
    });
    // The arrows follow the boxes when the panel's width changes (a window resized, a phone turned).
    const memory = this.#el(".memory-body");
    new ResizeObserver(() => {
      const picture = /** @type {HTMLElement|null} */ (memory.querySelector(".memory"));
      if (picture) drawArrows(picture);
    }).observe(memory);
    this.slider.addEventListener("input", () => {
      if (!this.replay) return;
      this.replay.seekStep(+this.slider.value);
      this.#afterMove({ reason: "step" });
    });
    this.root.addEventListener("keydown", (event) => this.#key(event));
    this.#bindToolbarKeys();
    const keysToggle = this.#el(".keys-toggle");
    keysToggle.addEventListener("click", () => {
      const help = this.#el(".keys-help");
      help.hidden = !help.hidden;
      keysToggle.setAttribute("aria-expanded", String(!help.hidden));
    });
    this.i18n.addEventListener("change", () => this.#relabel());
    this.#el("details.setup").addEventListener("toggle", () => this.#fillHelpers(), { once: true });
  }

  #key(event) {
    if (event.target.matches("input[type=text], input[type=number], select")) return;
    // In the input's text areas the arrows and letters are the writer's (Alt+← a word left on a Mac).
    const typing = event.target.matches("textarea, [contenteditable], [contenteditable] *");
    const key = event.key;
    let action = null;
    if (key === "F5") action = event.shiftKey ? "rcontinue" : this.state === "paused" ? "continue" : "debug";
    else if (key === "F10" && event.ctrlKey) {
      // Run to the focused line (VS Code's Ctrl+F10, Run to Cursor).
      const line = +(/** @type {HTMLElement|null|undefined} */ (document.activeElement?.closest?.(".line"))?.dataset.line ?? 0);
      if (line && this.lineRows.has(line)) {
        event.preventDefault();
        this.runToLine(line);
      }
      return;
    }
    else if (key === "F10") action = event.shiftKey ? "back" : "over";
    else if (key === "F11") action = event.altKey && event.shiftKey ? "rinto" : event.shiftKey ? "out" : "into";
    else if (key === "F9" || (event.altKey && (key === "j" || key === "J"))) {
      // F9: a breakpoint on the focused line; Alt+J: where the focused line next runs (its count's click).
      const line = +(/** @type {HTMLElement|null|undefined} */ (document.activeElement?.closest?.(".line"))?.dataset.line ?? 0);
      if (line && this.lineRows.has(line)) {
        event.preventDefault();
        if (key === "F9") this.toggleBreakpoint(line);
        else this.goToNextRun(line);
      }
      return;
    }
    else if (event.altKey && event.code === "KeyW" && !typing) {
      // Alt+W (by the key's place: a Mac's Option+W types ∑): where the focused variable, container or memory
      // box came from, as its ⤺ button's click.
      const focused = /** @type {HTMLElement|null} */ (document.activeElement);
      const holder = /** @type {HTMLElement|null|undefined} */ (focused?.closest?.("dt, details[data-object], .mem-frame .mem-row, .mem-object"));
      const button = holder?.matches("details") ? null : /** @type {HTMLButtonElement|null|undefined} */ (holder?.querySelector(":scope > button.from, :scope > .mem-head > button.from"));
      if (!holder || !this.root.contains(holder) || (!button && !holder.matches("details"))) return;
      event.preventDefault();
      if (button) button.click();
      else this.whereFrom({ object: +holder.dataset.object }, holder.dataset.label ?? "");
      return;
    }
    else if (event.altKey && key === "ArrowLeft" && !typing) {
      event.preventDefault();   // the browser's Back would leave the page
      this.jumpBack();
      return;
    }
    if (!action) return;
    event.preventDefault();
    if (!this.buttons[action].disabled) this.act(action);
  }

  /**
   * The toolbar is one Tab stop (WAI-ARIA toolbar pattern): arrows, Home and End move among its enabled
   * controls; Tab leaves it. The control last focused is the one Tab comes back to (`#rove`).
   */
  #bindToolbarKeys() {
    const bar = this.#el(".toolbar");
    const controls = () => /** @type {HTMLButtonElement[]} */ ([...bar.querySelectorAll("button")]).filter((b) => !b.disabled);
    bar.addEventListener("focusin", (event) => {
      if (event.target instanceof HTMLButtonElement) {
        this.toolbarFocus = event.target;
        this.#rove();
      }
    });
    bar.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      const list = controls();
      const at = list.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      if (at < 0 || (!step && event.key !== "Home" && event.key !== "End")) return;
      event.preventDefault();
      const next = event.key === "Home" ? 0 : event.key === "End" ? list.length - 1 : (at + step + list.length) % list.length;
      list[next].focus();
    });
  }

  /** One control of the toolbar takes Tab: the one last focused while it is enabled, else the first enabled. */
  #rove() {
    const all = /** @type {HTMLButtonElement[]} */ ([...this.#all(".toolbar button")]);
    const enabled = all.filter((b) => !b.disabled);
    const current = enabled.includes(this.toolbarFocus) ? this.toolbarFocus : enabled[0];
    for (const button of all) button.tabIndex = button === current ? 0 : -1;
  }

  #fillHelpers() {
    const template = /** @type {HTMLTemplateElement|null} */ (
      document.querySelector(`template.source-functions[data-source="${CSS.escape(this.lesson.source)}"]`));
    const box = this.#el(".helpers");
    if (!template || box.childElementCount) return;
    for (const helper of /** @type {NodeListOf<HTMLElement>} */ (template.content.querySelectorAll(".helper"))) {
      if (helper.dataset.name !== this.name) box.append(helper.cloneNode(true));
    }
  }

  #showSetup() {
    const [setup, entry] = this.code();
    this.#el(".setup-code code").textContent = setup;
    this.#el(".entry-code code").textContent = entry;
    this.#input(".edit-setup").value = setup;
    this.#input(".edit-entry").value = entry;
    for (const area of this.#all(".edit-box textarea")) this.#paint(area);
    this.#el("[data-edit=reset]").hidden = !this.edited;
  }

  /** Edit input: the case's setup and entry become editable; Run and Debug then run them live. */
  #bindEditing() {
    const areas = [this.#input(".edit-setup"), this.#input(".edit-entry")];
    const shown = [this.#el(".setup-code"), this.#el(".entry-code")];
    this.#el("[data-edit=edit]").addEventListener("click", () => {
      /** @type {HTMLDetailsElement} */ (this.#el("details.setup")).open = true;
      areas.forEach((area, n) => { area.parentElement.hidden = false; shown[n].hidden = true; this.#paint(area); });
      areas[1].focus();
    });
    for (const area of areas) {
      area.addEventListener("scroll", () => {
        area.previousElementSibling.scrollTop = area.scrollTop;
        area.previousElementSibling.scrollLeft = area.scrollLeft;
      });
      area.addEventListener("input", () => {
        this.#paint(area);
        const [setup, entry] = areas.map((a) => (a.value.endsWith("\n") ? a.value : a.value + "\n"));
        const [authorSetup, authorEntry] = this.fn.code[this.caseId];
        this.setEdited(setup === authorSetup && entry === authorEntry ? null : [setup, entry]);
      });
    }
    this.#el("[data-edit=reset]").addEventListener("click", () => {
      this.setEdited(null);
      areas.forEach((area, n) => { area.parentElement.hidden = true; shown[n].hidden = false; });
    });
  }

  /** Highlight an edit box's Python in the layer under its (transparent) text. */
  #paint(area) {
    area.previousElementSibling.replaceChildren(highlightPython(area.value + "\n"));
  }

  /** Use this [setup, entry] instead of the author's (null: the author's again); the replay starts over. */
  setEdited(code) {
    this.edited = code;
    this.runToken++;
    this.replay = null;
    this.trace = null;
    this.#el("[data-edit=reset]").hidden = !code;
    if (!code) this.#showSetup();
    else {
      this.#el(".setup-code code").textContent = code[0];
      this.#el(".entry-code code").textContent = code[1];
    }
    this.#setState("idle");
    this.#clearPanels();
    this.#changed();
  }

  /** The case's setup and entry, exactly as they run: the reader's edit, else the author's (composed by
   * the build: stepwise.scenario). */
  code() {
    return this.edited ?? this.fn.code[this.caseId];
  }

  // ------------------------------------------------------------------ public API

  setCase(caseId, { keepBreakpoints = false } = {}) {
    if (!this.fn.cases.some((c) => c.id === caseId)) return false;
    this.caseId = caseId;
    this.select.value = caseId;
    this.edited = null;
    this.runToken++; // any answer still on its way is now stale
    if (!keepBreakpoints) this.breakpoints.clear();
    this.replay = null;
    this.trace = null;
    this.#showSetup();
    this.#setState("idle");
    this.#renderBreakpoints();
    this.#clearPanels();
    this.#changed();
    return true;
  }

  toggleBreakpoint(line) {
    if (this.breakpoints.has(line)) this.breakpoints.delete(line);
    else this.breakpoints.set(line, { condition: "", hitCount: null, enabled: true, log: "" });
    this.#syncBreakpoints();
    this.#renderBreakpoints();
    if (this.replay) this.#renderOutput(...this.#outputAt());
    this.#changed();
  }

  /**
   * Add or change the breakpoint on a line: a condition, a hit count, switched off (`enabled: false`,
   * kept but ignored, as VS Code's unchecked breakpoint), a log point (`log`: a message written to
   * Output where it is hit, `{expr}` filled in, instead of pausing).
   */
  setBreakpoint(line, { condition = "", hitCount = null, enabled = true, log = "" } = {}) {
    // Checked as it is typed, before any run: a condition that does not parse keeps the breakpoint off.
    let error = null;
    try {
      if (condition) parseCondition(condition);
    } catch (problem) {
      error = conditionProblem(problem);
    }
    this.breakpoints.set(line, { condition, hitCount, enabled, log, error });
    this.#syncBreakpoints();
    this.#renderBreakpoints();
    if (this.replay) this.#renderOutput(...this.#outputAt());
    this.#changed();
  }

  async act(action) {
    if (action === "run" || action === "debug") return this.start(action);
    if (action === "stop") return this.stop();
    const ended = this.state === "finished" || this.state === "error";   // error with a replay: raised or stopped
    if (!this.replay || !(this.state === "paused" || (REVERSE.has(action) && ended))) return;
    // Continue also pauses at the lines a mode asks for (predict mode: the author's questions).
    const move = action === "continue" && this.pauseLines.size ? this.replay.runToLines(this.pauseLines)
      : this.replay[MOVES[action]]();
    this.#afterMove(move, action);
  }

  /** Run (show the end) or Debug (pause at the first breakpoint, or the function's first line). */
  async start(mode, { step = null } = {}) {
    const trace = await this.#ensureTrace();
    if (!trace) return;
    const replay = this.replay;
    let move;
    if (step != null && step > replay.totalStops) {
      move = replay.toEnd();
      this.pendingNotices.push(this.t("link_step_past_end", { step, total: replay.totalStops }));
    } else if (step != null) move = replay.seekStep(step);
    else if (mode === "run") move = replay.toEnd();
    else {
      move = this.#pausing() ? replay.continueFromStart() : replay.start();
    }
    this.#afterMove(move, step != null ? "link" : mode);
  }

  /** Does any breakpoint pause (switched on, not a log point)? Debug then runs to it. */
  #pausing() {
    return [...this.breakpoints.values()].some((bp) => bp.enabled !== false && !bp.log);
  }

  /**
   * Run to here (Ctrl/⌘+click on a line's number, or Ctrl+F10 on it): paused, to the next time the
   * line is arrived at; before a run, from the start. A breakpoint on the way pauses first.
   */
  async runToLine(line) {
    if (this.state === "running") return;
    const fromStart = this.state !== "paused";
    if (!(await this.#ensureTrace())) return;
    this.#afterMove(this.replay.runToLine(line, { fromStart }));
  }

  stop() {
    if (this.state === "running") {
      this.stopRequested = true;
      this.worker.stop("stopped");
      return;
    }
    if (this.state === "paused" && this.replay) this.#afterMove(this.replay.toEnd());
  }

  // ------------------------------------------------------------------ running

  async #ensureTrace() {
    if (this.replay) return this.trace;
    const token = ++this.runToken;
    this.stopRequested = false;
    this.#setState("running");
    // The author's own case was recorded by the build in the same Pyodide: shown without booting Python.
    const recorded = this.#isAuthorsCase() ? this.fn.recorded?.[this.caseId] : null;
    const answer = (recorded && await this.#fetchRecorded(recorded)) ?? await this.worker.run(this.runRequest()).result;
    if (token !== this.runToken) return null; // the reader switched case meanwhile: drop it
    if (answer.type !== "trace") {
      this.#fail(this.#failure(answer));
      return null;
    }
    try {
      // A live run arrives built by the worker; a recorded trace is the (small) JSON document.
      this.replay = answer.replay ? Replay.fromParts(answer.replay) : new Replay(JSON.parse(answer.json));
      this.trace = this.replay.trace;
    } catch (error) {
      this.#fail(String(error.message ?? error));
      return null;
    }
    this.lastRunMs = answer.ms;
    this.stopKind = answer.stopKind ?? null;
    // The recorder itself could not run (end "failed"): the trace says why; start the next run afresh.
    if (this.trace.end.status === "failed") this.worker.restart();
    this.#syncBreakpoints();
    this.#renderRuns();
    this.slider.max = String(this.replay.totalStops + 1);
    this.slider.min = "1";
    this.slider.disabled = false;
    this.#renderFiles();
    return this.trace;
  }

  /** What the reader is told of a run that brought no trace. */
  #failure(answer) {
    return answer.type === "runaway" ? this.t("runaway", { seconds: Math.ceil(this.fn.limits.deadlineMs / 1000) })
      : answer.type === "stopped" ? this.t("stopped_by_reader")
        : answer.type === "crashed" ? this.t("worker_crashed") + (answer.message ? ` (${answer.message})` : "")
          : answer.type === "unresponsive" ? this.t("unresponsive") : answer.message;
  }

  /** Does this widget run the case as the author wrote it (not code put in its place)? */
  #isAuthorsCase() {
    const [setup, entry] = this.code();
    const [authorSetup, authorEntry] = this.fn.code[this.caseId];
    return setup === authorSetup && entry === authorEntry;
  }

  /** The build's recorded trace of this case, as the worker would answer; null when it cannot be had. */
  async #fetchRecorded(path) {
    const started = performance.now();
    const json = await recordedTrace(path);
    return json === null ? null : { type: "trace", json, ms: performance.now() - started };
  }

  /** Start fetching the shown case's recorded trace now (the page does it for the first debugger, whose
   * trace the build preloads), so that Run finds it already here. */
  prefetch() {
    const recorded = this.#isAuthorsCase() ? this.fn.recorded?.[this.caseId] : null;
    if (recorded) recordedTrace(recorded);
  }

  #fail(message) {
    this.replay = null;
    this.trace = null;
    this.#clearPanels();
    this.#el(".stdout").textContent = "";
    const error = this.#el(".error-message");
    error.textContent = message;
    error.hidden = false;
    this.#setState("error");
  }

  #syncBreakpoints() {
    if (!this.replay) return;
    this.replay.clearBreakpoints();
    for (const [line, bp] of this.breakpoints) {
      try {
        this.replay.setBreakpoint(line, { condition: bp.condition || null, hitCount: bp.hitCount || null,
          enabled: bp.enabled !== false, log: bp.log || null });
        bp.error = null;
      } catch (error) {
        // Never silently true or false: the breakpoint stays off, and says why, until the condition parses.
        bp.error = conditionProblem(error);
        this.replay.setBreakpoint(line, { enabled: false });
      }
    }
  }

  // ------------------------------------------------------------------ rendering

  /**
   * @param {any} move @param {string|null} [via] the toolbar action that made it (moved's detail says it)
   * @param {{key: string, values: object}|null} [detail] what the status says of the stop, when the move knows better
   */
  #afterMove(move, via = null, detail = null) {
    const hadFocus = this.root.contains(document.activeElement);
    this.notices = this.pendingNotices;   // said at the move they explain, gone with the next
    this.pendingNotices = [];
    this.viewedFrame = null;   // every move shows where execution is
    this.stackExpanded = false;
    const position = this.replay.position();
    const end = this.trace.end;
    if (position.finished) {
      this.#setState(end.status === "returned" ? "finished" : "error");
    } else {
      this.#setState("paused", position.line, detail ?? this.#stopDetail(position));
    }
    this.#render(position);
    // What a screen reader hears at each move: the state and the step, so that a move to another stop on
    // the same line is heard too (the status alone would read the same).
    this.#el(".announce").textContent = `${this.status.textContent} · ${this.stepCount.textContent}`;
    this.#changed();
    this.dispatchEvent(new CustomEvent("moved", { detail: { move, position, via } }));
    // A control that moved the cursor may have been drawn again (a ⤺ in Variables, ↩ now hidden): keys
    // keep working when focus stays in the widget.
    if (hadFocus && !this.root.contains(document.activeElement)) this.root.focus({ preventScroll: true });
  }

  /**
   * What kind of stop the cursor is on, for the status: a return or an exception leaving the line, or
   * the line going round again (a comprehension's next item), a line that calls the setup's helpers;
   * null for a line arrived at. Two stops on one line never read the same.
   * @returns {{key: string, values: object}|null}
   */
  #stopDetail(position) {
    const fn = this.replay.stackAt(position.index).at(-1)?.function ?? "";
    // An 'r' with no value is the frame unwinding: an exception leaves it (docs/trace-format.md).
    if (position.kind === "r") return { key: this.replay.returnAt(position.index) ? "status_returns" : "status_unwinds", values: { fn } };
    if (position.kind === "x") return { key: "status_raises", values: {} };
    if (this.replay.isRepeat(position.index)) return { key: "status_again", values: {} };
    // The case's own helpers are not recorded (Step into cannot enter them): the step says it calls them.
    const helpers = this.replay.helpersAt(position.index);
    return helpers.length ? { key: "status_calls_helpers", values: { fns: helpers.join(", ") } } : null;
  }

  #setState(state, line, detail = null) {
    this.state = state;
    const paused = this.t("status_paused", { line }) + (detail ? ` · ${this.t(detail.key, detail.values)}` : "");
    const text = {
      idle: this.t("status_not_run"), running: this.t("status_running"), finished: this.t("status_finished"),
      error: this.t("status_error"), paused,
    }[state];
    this.status.textContent = text;
    this.status.dataset.state = state;
    if (state === "running" || state === "idle") this.#el(".announce").textContent = text;
    this.statusLine = line;
    this.statusDetail = detail;
    const isPaused = state === "paused";
    const b = this.buttons;
    b.run.disabled = b.debug.disabled = state === "running";
    b.continue.disabled = b.over.disabled = b.into.disabled = b.out.disabled = !isPaused;
    // Going back is what a run that raised or was stopped is for ("how did it get here?"): any end with a trace.
    b.back.disabled = b.rinto.disabled = b.rcontinue.disabled = !(isPaused || state === "finished" || state === "error")
      || !this.replay;
    b.stop.disabled = !(state === "running" || isPaused);
    // A clicked control that just became disabled would drop focus to <body>, and the keys with it:
    // keep focus in the widget.
    if (/** @type {HTMLButtonElement|null} */ (document.activeElement)?.disabled && this.root.contains(document.activeElement)) {
      this.root.focus({ preventScroll: true });
    }
    this.root.classList.toggle("is-running", state === "running");
    this.#rove();
  }

  #clearPanels() {
    this.jumps = [];   // a new trace: its steps are not the old one's
    this.lastFrom = null;
    this.#showJumpBack();
    this.#renderRuns();
    this.#fillChangeNav(null, new Map());
    for (const row of this.#all("[aria-current]")) row.removeAttribute("aria-current");
    for (const row of this.#all(".line.caller")) row.classList.remove("caller");
    this.#el(".vars-body").replaceChildren();
    this.#el(".memory-body").replaceChildren();
    this.watches.render(null);
    this.#el(".line-values").hidden = true;
    this.#el(".frames").replaceChildren();
    this.#el(".files-body").replaceChildren();
    this.#el(".history").replaceChildren();
    this.#el(".history").hidden = true;
    this.#el(".stdout").textContent = this.t("hint");
    this.#el(".error-message").hidden = true;
    this.viewedFrame = null;
    this.#showCode(null, true);
    this.slider.disabled = true;
    this.slider.value = "0";
    this.stepCount.textContent = "";
  }

  #render(position) {
    const replay = this.replay;
    const index = position.finished ? replay.eventCount : position.index;
    const last = position.finished ? replay.eventCount - 1 : index;
    const stack = last >= 0 && !position.finished ? replay.stackAt(last) : [];
    // The frame the reader looks at: the innermost, or one chosen in the call stack.
    const viewed = stack.find((frame) => frame.id === this.viewedFrame) ?? stack.at(-1) ?? null;
    this.#showCode(viewed, viewed === stack.at(-1));
    // The shown function's own frame (the innermost one of its code), for the diagram.
    const own = stack.findLast((frame) => this.#isOwn(frame));
    const mainLine = own?.line ?? null;
    // Timeline.
    this.slider.value = String(position.finished ? replay.totalStops + 1 : position.stepNumber);
    this.stepCount.textContent = this.t("step_of", { step: count(position.stepNumber), total: count(replay.totalStops) });
    // Diagram stages: the stage the shown function is in.
    const stageRows = [...this.#all(".stages li")];
    let active = -1;
    if (mainLine != null) stageRows.forEach((row, n) => { if (+row.dataset.line <= mainLine) active = n; });
    if (position.finished && this.#functionFinished()) active = stageRows.length - 1;
    stageRows.forEach((row, n) => {
      if (n === active) row.setAttribute("aria-current", "step");
      else row.removeAttribute("aria-current");
      row.classList.toggle("done", active > n || (position.finished && this.#functionFinished()));
    });
    this.#renderVariables(position, last, position.finished ? this.name : viewed?.function ?? this.name,
      position.finished ? [] : stack.slice(stack.indexOf(viewed) + 1));
    this.#renderMemory(position, last, stack, viewed);
    // Watches read what Variables shows (a caller's values freshened by its callees'), not a frame's own look.
    this.watches.render(last < 0 ? null : (source) => this.replay.evaluateOver(source, this.shownVars));
    this.#renderStack(stack, position.finished);
    this.#renderOutput(index, position);
  }

  /** What #renderOutput is given for the position shown: its event index (eventCount when finished) and it. */
  #outputAt() {
    const position = this.replay.position();
    return [position.finished ? this.replay.eventCount : position.index, position];
  }

  /** A log point's line in Output: its message with `{expr}` filled in at the hit, said as a log point's. */
  #logLine(hit) {
    const text = hit.error ? this.t("condition_failed", { line: hit.line, message: hit.error })
      : logText(hit.message, (source) => this.replay.evaluate(source, hit.index));
    return `${this.t("line", { line: hit.line })} ▸ ${text}`;
  }

  /** An expression's Value at the step shown, in the frame shown (the code pane's hover); null when none. */
  #valueAt(expression) {
    const position = this.replay?.position();
    if (!position || position.finished) return null;
    try {
      return toPreview(this.replay.evaluateOver(expression, this.shownVars));
    } catch {
      return null;
    }
  }

  /** Did the shown function return normally (last event of its outermost frame is 'r')? */
  #functionFinished() {
    return this.replay.returnedAtTop();
  }

  /** Is `frame` running the code this widget is about (its function, its method, a method of its class)? */
  #isOwn(frame) {
    return frame.def >= this.fn.first_line && frame.def <= this.fn.last_line;
  }

  /**
   * Show the lines of the definition `frame` runs in (the smallest one around its first and current
   * lines; the target itself when nothing runs), mark its line, and name it when it is not the target.
   */
  #showCode(frame, innermost) {
    for (const row of this.#all(".dbg-code .line[aria-current], .dbg-code .line.caller")) {
      row.removeAttribute("aria-current");
      row.classList.remove("caller");
    }
    const own = frame ? this.#spanFor(frame.def, frame.line ?? frame.def) : [this.fn.first_line, this.fn.last_line];
    const span = this.wholeFile.checked ? [1, Math.max(...this.lineRows.keys())] : own;
    if (span[0] !== this.shownSpan?.[0] || span[1] !== this.shownSpan?.[1]) {
      const focused = this.root.contains(document.activeElement) ? /** @type {HTMLElement|null} */ (document.activeElement.closest(".line")) : null;
      for (const [number, row] of this.lineRows) row.hidden = number < span[0] || number > span[1];
      this.shownSpan = span;
      // Keys keep working: focus on a line that was just hidden moves to the line being shown.
      if (focused?.hidden) this.lineRows.get(frame?.line ?? span[0])?.querySelector("button")?.focus({ preventScroll: true });
    }
    const caption = this.#el(".code-caption");
    const elsewhere = frame && !(own[0] === this.fn.first_line && own[1] === this.fn.last_line);
    caption.hidden = !elsewhere;
    if (elsewhere) caption.replaceChildren(this.t("viewing"), " ", el("code", "", frame.function),
      " · ", this.t("line", { line: frame.line ?? "?" }));
    if (!frame || frame.line == null) return;
    const row = this.lineRows.get(frame.line);
    if (!row) return;
    if (innermost) row.setAttribute("aria-current", "step");
    else row.classList.add("caller");
    // The code pane scrolls itself to the line (it is capped in height); the page moves only on a wide
    // screen while the reader looks at the code: one who scrolled to the panels is not pulled back up,
    // and a phone's page never moves at a step. (Seen means a line's height of it below the toolbar.)
    const code = this.#el(".dbg-code > .code");
    const box = row.getBoundingClientRect(), view = code.getBoundingClientRect();
    if (box.top < view.top) code.scrollTop -= view.top - box.top;
    else if (box.bottom > view.bottom) code.scrollTop += box.bottom - view.bottom;
    if (matchMedia("(max-width: 480px)").matches) return;
    const pane = this.#el(".dbg-code").getBoundingClientRect();
    const covered = Math.max(0, this.#el(".toolbar").getBoundingClientRect().bottom);
    if (pane.bottom > covered + 24 && pane.top < innerHeight) row.scrollIntoView?.({ block: "nearest" });
  }

  /** The name of the smallest definition holding `line`; null in module code. */
  #functionAt(line) {
    let best = null;
    for (const [first, last, name] of this.lesson.spans ?? []) {
      if (first <= line && last >= line && (!best || last - first < best[1] - best[0])) best = [first, last, name];
    }
    return best?.[2] ?? null;
  }

  /** The smallest definition span holding lines `def`..`line`; the bare lines when none does (module code). */
  #spanFor(def, line) {
    const low = Math.min(def, line), high = Math.max(def, line);
    let best = null;
    for (const [first, last] of this.lesson.spans ?? []) {
      if (first <= low && last >= high && (!best || last - first < best[1] - best[0])) best = [first, last];
    }
    return best ?? [low, high];
  }

  /**
   * The viewed frame's values; `called` are the frames it called, still running (innermost last): what
   * they saw of an object is newer than the viewed frame's own look (memory-picture.js `freshened`).
   */
  #renderVariables(position, last, scope, called) {
    const body = this.#el(".vars-body");
    body.replaceChildren();
    const history = this.#el(".history");
    history.replaceChildren();
    this.shownVars = new Map();
    if (last < 0) return;
    const own = this.replay.localsAt(last, position.finished ? null : this.viewedFrame);
    const { changed } = own;
    const vars = !called.length ? own.vars : freshened(own.vars, objectsReached(
      called.map((frame) => this.replay.localsAt(last, frame.id)).reverse(), this.replay.returnAt(last)));
    this.shownVars = vars;
    this.#fillChangeNav(own.frame, own.vars);
    this.#renderLineValues(position.finished ? new Map() : vars, changed);
    const table = el("dl", "vars");
    const budget = this.#budget(vars);
    const pictured = (value) => this.lesson.history && isHistory(value);
    const markers = this.lesson.history ?? {};
    // The budget line goes on the locals the lesson names ([history] budgeted) and on what is returned.
    const named = markers.budgeted?.split(/\s+/);
    const budgeted = (name) => !named || named.includes(name);
    const event = position.finished ? null : position.index;
    const returned = event == null ? null : this.replay.returnAt(event);
    // One scale for the pictures drawn together: widths compare across them.
    const widest = Math.max(0, ...[...vars.values(), returned].filter(pictured).map(historyBytes));
    // A closure's cells (its free variables) are listed apart, after the locals, as VS Code's Closure scope.
    const cells = new Set(own.frame ? this.replay.closureNames(own.frame.id) : []);
    const closure = el("dl", "vars closure");
    for (const [name, value] of vars) {
      const term = el("dt", changed.has(name) && !position.finished ? "changed" : "", name);
      if (term.className) term.append(el("span", "visually-hidden", ` (${this.t("changed")})`));
      const frameId = own.frame?.id;
      if (frameId != null) term.append(fromButton(this.t, name, () => this.whereFrom({ frameId, name }, name), true));
      const detail = el("dd");
      detail.append(renderValue(value, this.t, this.opened, `${scope}:${name}`,
        { label: name, go: (target, label) => this.whereFrom(target, label) }));
      (cells.has(name) ? closure : table).append(term, detail);
      if (pictured(value)) history.append(renderHistory(name, value, budgeted(name) ? budget : null, this.t, markers, widest));
    }
    if (event != null) {
      if (returned) {
        table.append(el("dt", "special", `⟵ ${this.t("returned")}`), el("dd"));
        table.lastChild.append(renderValue(returned, this.t, this.opened, `${scope}:⟵`));
        if (pictured(returned)) history.append(renderHistory(`⟵ ${this.t("returned")}`, returned, budget, this.t, markers, widest));
      }
      const raised = this.replay.exceptionAt(event);
      if (raised) {
        table.append(el("dt", "special error", `⚠ ${this.t("raised")}`), el("dd", "error", `${raised.type}: ${raised.message}`));
      }
      this.#renderLeft(table, event, scope);
    }
    if (!table.childElementCount && !closure.childElementCount) body.append(el("p", "empty", this.t("no_locals")));
    else if (table.childElementCount) body.append(table);
    if (closure.childElementCount) {
      closure.setAttribute("aria-label", this.t("scope_closure"));
      body.append(el("h4", "scope-heading", this.t("scope_closure")), closure);
    }
    history.hidden = !history.childElementCount;
  }

  /**
   * After a step over or out of a call: what the callee just gave, as VS Code's "(return) f" row, in the
   * frame it returned to (only when that frame is the one shown).
   */
  #renderLeft(table, event, scope) {
    const left = this.replay.leftBefore(event);
    if (!left || (this.viewedFrame != null && this.viewedFrame !== this.replay.eventAt(event).frame)) return;
    const value = this.replay.returnAt(left.index);
    const raised = this.replay.exceptionAt(left.index);
    if (value) {
      table.append(el("dt", "special", `⟵ ${this.t("returned_from", { fn: left.function })}`), el("dd"));
      table.lastChild.append(renderValue(value, this.t, this.opened, `${scope}:⟵${left.function}`));
    } else if (raised && !this.replay.exceptionAt(event)) {
      table.append(el("dt", "special error", `⚠ ${this.t("raised_from", { fn: left.function })}`),
        el("dd", "error", `${raised.type}: ${raised.message}`));
    }
  }

  /**
   * The memory picture (memory-picture.js): every frame of the step with the objects it reaches, or the
   * viewed frame only; objects made or changed since the step before are marked.
   */
  #renderMemory(position, last, stack, viewed) {
    const body = this.#el(".memory-body");
    body.replaceChildren();
    if (last < 0) return;
    const only = this.currentFrameOnly.checked;
    const framesAt = (index, atStack) => {
      if (position.finished) return [{ function: this.name, current: true, vars: this.replay.localsAt(index, null).vars }];
      // A deep stack (recursion) draws its outermost frames and its innermost ones, as the call stack does.
      const chosen = only ? atStack.filter((frame) => frame.id === (viewed?.id ?? atStack.at(-1)?.id))
        : atStack.length > MEMORY_FRAMES ? [...atStack.slice(0, 2), ...atStack.slice(2 - MEMORY_FRAMES)] : atStack;
      return chosen.map((frame) => ({ id: frame.id, function: frame.function, current: frame.id === viewed?.id,
        vars: this.replay.localsAt(index, frame.id).vars }));
    };
    const frames = framesAt(last, stack);
    const folded = position.finished || only ? 0 : stack.length - frames.length;
    const returned = position.finished ? null : this.replay.returnAt(position.index);
    const before = position.finished || last < 1 ? null
      : objectsReached(framesAt(last - 1, this.replay.stackAt(last - 1)).reverse(), this.replay.returnAt(last - 1));
    // Objects keep their cells from the picture before while the same run is shown (memory-layout.js).
    const kept = this.#memoryCells?.replay === this.replay ? this.#memoryCells.cells : undefined;
    const { picture, cells } = renderMemory(frames, { returned, before, folded, anchor: `${this.root.id}-obj`,
      t: this.t, cells: kept, from: position.finished ? null : {
        name: (frameId, name) => this.whereFrom({ frameId, name }, name),
        object: (object, label) => this.whereFrom({ object }, label),
        item: (object, item, label) => this.whereFrom({ object, item }, label) } });
    this.#memoryCells = { replay: this.replay, cells };
    body.append(picture);
    requestAnimationFrame(() => drawArrows(picture));
  }

  /** Under the code: the values the current step changed (what a narrow screen cannot show beside it). */
  #renderLineValues(vars, changed) {
    const strip = this.#el(".line-values");
    strip.replaceChildren();
    const names = [...changed].filter((name) => vars.has(name));
    strip.hidden = !names.length;
    if (!names.length) return;
    strip.append(el("span", "line-values-label", this.t("changed_here")));
    for (const name of names) {
      const item = el("span", "line-value");
      item.append(el("code", "", name), " = ", el("span", "", shortText(vars.get(name)).slice(0, 80)));
      strip.append(item);
    }
  }

  /** The history picture's byte budget: the local the lesson names ([history] budget), else the function's. */
  #budget(vars) {
    const local = this.lesson.history?.budget ? vars.get(this.lesson.history.budget) : undefined;
    if (local?.t === "int") return Number(local.r);
    return this.fn.historyBudget ?? null;
  }

  /**
   * Call stack, innermost first. Each frame is a button that shows its code and variables at this step;
   * a deep stack shows its first and last few frames and a button for the rest.
   */
  #renderStack(stack, finished) {
    const list = this.#el(".frames");
    list.replaceChildren();
    if (finished) return;
    const frames = [...stack].reverse();
    const viewed = frames.find((frame) => frame.id === this.viewedFrame) ?? frames[0];
    const edge = 3;
    const folded = !this.stackExpanded && frames.length > 2 * edge + 1;
    frames.forEach((frame, n) => {
      if (folded && n === edge) {
        const more = el("button", "frame-more", this.t("more_frames", { n: frames.length - 2 * edge }));
        more.type = "button";
        more.addEventListener("click", () => {
          this.stackExpanded = true;
          this.#renderStack(stack, finished);
        });
        const item = el("li");
        item.append(more);
        list.append(item);
      }
      if (folded && n >= edge && n < frames.length - edge) return;
      const button = el("button", "frame");
      button.type = "button";
      button.append(el("code", "", frame.function), " · ", this.t("line", { line: frame.line ?? "?" }));
      if (frame === viewed) button.setAttribute("aria-current", "true");
      button.addEventListener("click", () => this.viewFrame(frame.id));
      const item = el("li");
      item.append(button);
      list.append(item);
    });
  }

  /** Look at another frame of the current step: its code, its line and its variables. */
  viewFrame(id) {
    if (!this.replay) return;
    this.viewedFrame = id;
    this.#render(this.replay.position());
  }

  #renderOutput(index, position) {
    const stdout = this.#el(".stdout");
    const text = this.replay.stdoutUntil(index);
    const logs = [...this.breakpoints.values()].some((bp) => bp.log && bp.enabled !== false)
      ? outputWithLogs(this.replay, position.finished ? this.replay.eventCount - 1 : index, index, (hit) => this.#logLine(hit))
      : null;
    if (logs?.pieces.some((piece) => piece.log)) {
      stdout.replaceChildren(...logs.pieces.map((piece) => (piece.log ? el("span", "log-line", piece.text) : piece.text)));
    } else stdout.textContent = text || (position.finished ? this.t("no_output") : "");
    stdout.dataset.empty = this.t("no_output_yet");
    const error = this.#el(".error-message");
    const lines = [...this.notices];
    for (const line of logs?.cut ?? []) lines.push(this.t("log_cut", { line, n: count(LOG_CAP) }));
    const gap = this.replay.gapInfo();
    // What a run that outgrew its capacity left out (numbered as the run's events, 1-based): said where
    // the kept tail begins and at the end.
    const gapText = gap && this.t("gap", { n: count(gap.dropped), from: count(gap.after + 1),
      to: count(gap.after + gap.dropped), total: count(this.trace.stats?.events ?? gap.after + gap.dropped) });
    if (gap && (position.finished || this.replay.isAfterGap(index))) lines.push(gapText);
    const failed = this.replay.conditionError;
    if (failed && !position.finished && failed.index === index) {
      lines.push(this.t("condition_failed", { line: failed.line, message: failed.message }));
    }
    if (position.finished) {
      const end = this.trace.end;
      if (this.stopKind) {
        lines.push(this.stopKind === "runaway"
          ? this.t("runaway", { seconds: Math.ceil(this.fn.limits.deadlineMs / 1000) }) : this.t("stopped_by_reader"));
      }
      const faults = this.trace.stats?.internal_errors ?? [];
      if (faults.length) lines.push(this.t("recorder_faults", { n: faults.length, first: faults[0] }));
      if (end.status === "failed") lines.push(this.t("recorder_failed"));
      if (end.status === "stopped") {
        // Steps as the timeline counts them (the stops a reader can go to), events as the trace does.
        lines.push(this.t("stopped_after", { n: count(this.replay.totalStops), events: count(this.trace.stats.events),
          reason: this.t(`reason_${end.reason}`) }));
      }
      if (this.trace.stats?.stdout_truncated) lines.push(this.t("output_cut", { n: count(this.lesson.outputCap) }));
      if (end.exception) {
        // Where it came from: the shown file's line, or a line of the case's setup or entry code.
        const { file, line } = end.exception;
        const place = !line ? "" : file === "<setup>" ? this.t("setup_line", { line })
          : file === "<entry>" ? this.t("entry_line", { line }) : this.t("line", { line });
        lines.push(`${end.exception.type}: ${end.exception.message}` + (place ? ` (${place})` : ""));
      } else {
        const raised = this.#functionException();
        if (raised) lines.push(`${raised.type}: ${raised.message} (${this.t("line", { line: raised.line })})`);
      }
      // The author's words on what the case's entry checks hold for the author's entry only.
      if (end.status === "returned" && this.fn.afterRun && this.#isAuthorsCase()) lines.push(this.fn.afterRun[this.i18n.lang]);
    }
    error.textContent = lines.join("\n");
    error.hidden = !lines.length;
    error.classList.toggle("is-error", position.finished && this.trace.end.status !== "returned");
  }

  /** The exception the shown function raised (and the entry caught), if any. A stop is not one: the
   * recorder reports it as the call's status "stopped", and the "stopped after" line says it. */
  #functionException() {
    const call = this.trace.end.call;
    return call?.status === "raised" && call.exception && call.exception.type !== "KeyboardInterrupt"
      ? call.exception : null;
  }

  #renderFiles() {
    const body = this.#el(".files-body");
    body.replaceChildren();
    const files = this.trace.files ?? [];
    if (!files.length) {
      body.append(el("p", "empty", this.t("no_files")));
      return;
    }
    for (const file of files) {
      const details = el("details", "file");
      const summary = el("summary");
      summary.append(el("code", "", file.name), " · ", this.t("bytes", { n: count(file.size) }));
      const pre = el("pre", "file-preview", file.preview + (file.truncated ? "\n…" : ""));
      details.append(summary, pre);
      body.append(details);
    }
  }

  #renderBreakpoints() {
    for (const [line, row] of this.lineRows) {
      const bp = this.breakpoints.get(line);
      row.classList.toggle("has-bp", !!bp);
      row.classList.toggle("bp-off", bp?.enabled === false);
      row.classList.toggle("bp-log", !!bp?.log);
      row.querySelector("button.bp")?.setAttribute("aria-pressed", String(!!bp));
    }
    const list = this.#el(".bp-list");
    // Redrawn at every change: the control the reader was using keeps the focus (and the keys with it).
    const active = /** @type {HTMLElement|null} */ (list.contains(document.activeElement) ? document.activeElement : null);
    const refocus = active ? `li[data-line="${active.closest("li")?.dataset.line}"] [data-part="${active.dataset.part}"]` : null;
    list.replaceChildren();
    this.#el(".breakpoints .empty").hidden = this.breakpoints.size > 0;
    for (const line of [...this.breakpoints.keys()].sort((a, b) => a - b)) {
      list.append(this.#breakpointItem(line, this.breakpoints.get(line)));
    }
    if (refocus) /** @type {HTMLElement|null} */ (list.querySelector(refocus))?.focus();
  }

  /** One row of the Breakpoints list: on/off, whose line, condition, hit count, log message, remove. */
  #breakpointItem(line, bp) {
    const item = el("li");
    item.dataset.line = String(line);
    const owner = this.#functionAt(line);   // whose line: "checked_exchange · 第30行"
    const where = (owner ? `${owner} · ` : "") + this.t("line", { line });
    // Switched off and on without losing its condition, hit count or message (VS Code's checkbox).
    const enabled = el("input");
    enabled.type = "checkbox";
    enabled.checked = bp.enabled !== false;
    enabled.setAttribute("aria-label", this.t("breakpoint_enabled", { where }));
    enabled.addEventListener("change", () => this.setBreakpoint(line, { ...bp, enabled: enabled.checked }));
    const label = el("span", "bp-line", where);
    const condition = textBox(bp.condition, this.t("condition_placeholder", { example: this.fn.conditionExample ?? "n > 0" }),
      this.t("condition", { line }), (value) => this.setBreakpoint(line, { ...bp, condition: value.trim() }));
    const hits = el("input");
    hits.type = "number";
    hits.min = "1";
    hits.value = bp.hitCount ?? "";
    hits.placeholder = this.t("hits_placeholder");
    hits.setAttribute("aria-label", this.t("hit_count", { line }));
    hits.addEventListener("change", () => {
      const value = hits.value.trim();
      const count = Number(value);
      if (value && !(Number.isInteger(count) && count >= 1)) {
        // Refused, and said: a hit count is a whole number from 1 (empty: every hit).
        this.breakpoints.set(line, { ...bp, hitError: this.t("hit_count_invalid", { value }) });
        this.#renderBreakpoints();
        return;
      }
      this.setBreakpoint(line, { ...bp, hitCount: value ? count : null });
    });
    const log = textBox(bp.log, this.t("log_placeholder"), this.t("log_message", { line }),
      (value) => this.setBreakpoint(line, { ...bp, log: value }));
    log.classList.add("bp-log-message");
    const remove = el("button", "bp-remove", "×");
    remove.type = "button";
    remove.setAttribute("aria-label", this.t("remove_breakpoint", { line }));
    remove.addEventListener("click", () => this.toggleBreakpoint(line));
    item.classList.toggle("bp-off", bp.enabled === false);
    for (const [part, control] of Object.entries({ enabled, condition, hits, log, remove })) control.dataset.part = part;
    item.append(enabled, label, condition, hits, log, remove);
    if (bp.error) item.append(el("p", "bp-error", this.t("condition_error", bp.error)));
    if (bp.hitError) item.append(el("p", "bp-error", bp.hitError));
    return item;
  }

  #relabel() {
    this.#el(".live-limit").textContent = this.t("live_limit", {
      seconds: this.fn.limits.timeLimit, steps: this.fn.limits.maxEvents.toLocaleString("en-US") });
    for (const [line, row] of this.lineRows) {
      row.querySelector("button.bp")?.setAttribute("aria-label", this.t("breakpoint", { line }));
    }
    this.#renderRuns();
    for (const option of this.select.options) {
      const spec = this.fn.cases.find((c) => c.id === option.value);
      option.textContent = spec[this.i18n.lang];
    }
    this.#setState(this.state, this.statusLine, this.statusDetail);
    this.#renderBreakpoints();
    if (this.replay) {
      this.#renderFiles();
      this.#render(this.replay.position());
    } else if (this.state !== "error") {
      this.#clearPanels();
    }
  }

  /** State for the shareable link. */
  snapshot() {
    const position = this.replay?.position();
    const bp = [...this.breakpoints.entries()].sort(([a], [b]) => a - b)
      .map(([line, { condition, hitCount, enabled, log }]) => ({ line, condition: condition || null,
        hitCount: hitCount || null, enabled: enabled !== false, log: log || null }));
    return {
      f: this.name, case: this.caseId, bp,
      step: !position ? null : position.finished ? "end" : position.stepNumber,
      edited: this.edited,
      open: [...this.opened.paths].sort(),
      memory: this.currentFrameOnly.checked ? "current" : null,
      watch: [...this.watches.expressions],
      wholeFile: this.wholeFile.checked,
    };
  }

  /** The memory picture shows the current frame only (`current`) or every frame (from a link). */
  setMemoryView(view) {
    this.currentFrameOnly.checked = view === "current";
    if (this.replay) this.#render(this.replay.position());
  }

  /** The Watch panel's expressions and the whole-file view (from a link). */
  setWatches(sources, wholeFile) {
    this.watches.set(sources);
    if (this.wholeFile.checked !== wholeFile) {
      this.wholeFile.checked = wholeFile;
      this.shownSpan = null;
    }
    if (this.replay) this.#render(this.replay.position());
    else this.#showCode(null, true);
  }

  /** Open these Variables paths (from a link) at the next paint; the ones open now stay. */
  setOpened(paths) {
    for (const path of paths) this.opened.paths.add(path);
    if (this.replay) this.#render(this.replay.position());
  }

  /** Say something about how the widget came to be where it is (a link that could not be followed). */
  notify(message) {
    this.pendingNotices.push(message);
    const error = this.#el(".error-message");
    error.textContent = message;
    error.hidden = false;
  }

  #changed() {
    this.dispatchEvent(new CustomEvent("change"));
  }
}
