// Two cases side by side (issue 34 item 4): the reader picks a second case of the same function; the page
// lines up the two runs step by step, marks the first step where their paths part (the line each goes to
// and the values that differ there), and from then on shows the second run at the step the first is on.
//
// Steps line up by number: while the paths agree, step k of one is step k of the other (the same line, in
// a frame as deep); they part at the first step where the line, the kind of stop or the depth differs, or
// where one run has ended. After that, "together" means the same number of steps on, as stepping both with
// one button would. Exact, from the two traces; a scan of two typed columns (1,000,000 steps: a few ms).

import { shortText } from "./values-view.js";

/**
 * @typedef {import("./replay.js").Replay} Replay
 * @typedef {import("./debugger.js").Debugger} Debugger
 */

/**
 * The first stop number (0-based) at which two runs' paths part: a stop whose line, kind or depth differs,
 * or the end of the shorter. Null when they never part (the same path, the same length).
 * @param {Replay} a @param {Replay} b
 * @returns {number|null}
 */
export function partingStop(a, b) {
  const x = a.traceIndex, y = b.traceIndex;
  const n = Math.min(x.stopCount, y.stopCount);
  const xs = x.stops, ys = y.stops, xl = x.lines, yl = y.lines, xk = x.kinds, yk = y.kinds;
  const xd = x.depth, yd = y.depth, xf = x.frameOf, yf = y.frameOf;
  for (let k = 0; k < n; k++) {
    const i = xs[k], j = ys[k];
    if (xl[i] !== yl[j] || xk[i] !== yk[j] || xd[xf[i]] !== yd[yf[j]]) return k;
  }
  return x.stopCount === y.stopCount ? null : n;
}

/** A value as compared across two runs: its text, numbers of objects left out (each run numbers its own). */
const sameness = (value) => JSON.stringify(value, (key, v) => (key === "id" ? undefined : v));

/**
 * The locals of the innermost frames at stop `k` of each run that differ (one run lacking a name counts),
 * in the first run's order, then the second's own.
 * @param {Replay} a @param {Replay} b @param {number} k
 * @returns {string[]}
 */
export function differingNames(a, b, k) {
  const at = (r) => (k < r.totalStops ? r.localsAt(r.traceIndex.stops[k]).vars : new Map());
  const va = at(a), vb = at(b);
  const names = [...new Set([...va.keys(), ...vb.keys()])];
  return names.filter((name) => !va.has(name) || !vb.has(name) || sameness(va.get(name)) !== sameness(vb.get(name)));
}

/** The compare control and pane of one debugger. @param {Debugger} widget */
export function attachCompare(widget) {
  const pick = /** @type {HTMLSelectElement|null} */ (widget.root.querySelector("select[name=compare]"));
  const pane = /** @type {HTMLElement|null} */ (widget.root.querySelector(".compare-pane"));
  if (!pick || !pane) return;
  if (widget.fn.cases.length < 2) {
    pick.closest("label").hidden = true;
    return;
  }
  /** @type {{caseId: string, replay: Replay|null, parting: number|null, error: string|null, base: Replay|null}|null} */
  let other = null;
  const t = widget.t;
  const label = (caseId) => widget.fn.cases.find((c) => c.id === caseId)?.[widget.i18n.lang] ?? caseId;

  const fillOptions = () => {
    const chosen = pick.value;
    pick.replaceChildren(new Option(t("compare_none"), ""),
      ...widget.fn.cases.filter((c) => c.id !== widget.caseId).map((c) => new Option(c[widget.i18n.lang], c.id)));
    pick.value = [...pick.options].some((o) => o.value === chosen) ? chosen : "";
    pick.disabled = false;
  };

  const choose = async () => {
    const caseId = pick.value;
    other = caseId ? { caseId, replay: null, parting: null, error: null, base: null } : null;
    render();
    if (!other) return;
    const asked = other;
    try {
      if (!widget.replay) await widget.start("debug");   // the first run too: both are needed
      asked.replay = await widget.traceOf(caseId);
    } catch (error) {
      asked.error = String(error?.message ?? error);
    }
    if (other !== asked) return;   // chosen again meanwhile
    render();
  };

  const render = () => {
    pane.hidden = !other;
    for (const row of widget.root.querySelectorAll(".dbg-code .line.compare-line")) row.classList.remove("compare-line");
    if (!other) return pane.replaceChildren();
    const parts = [];
    const head = document.createElement("h4");
    head.textContent = t("compare_head", { a: label(widget.caseId), b: label(other.caseId) });
    parts.push(head);
    if (other.error) parts.push(para(t("compare_failed", { message: other.error }), "compare-error"));
    else if (!widget.replay) parts.push(para(t("compare_waiting")));
    else if (!other.replay) parts.push(para(t("compare_running")));
    else parts.push(...comparison(other));
    pane.replaceChildren(...parts);
  };

  /** The parting and the other run at the step the widget is on. */
  const comparison = (/** @type {any} */ o) => {
    const a = widget.replay, b = o.replay;
    if (o.base !== a) {   // a new run of the first case (an edit, a rerun): line them up again
      o.base = a;
      o.parting = partingStop(a, b);
    }
    const out = [];
    if (o.parting === null) out.push(para(t("compare_same_path", { b: label(o.caseId) })));
    else {
      const k = o.parting;
      const where = (r) => (k < r.totalStops ? t("line", { line: r.traceIndex.lines[r.traceIndex.stops[k]] }) : t("compare_ended"));
      const differ = differingNames(a, b, k);
      const said = para(t("compare_parting", { step: k + 1, a: label(widget.caseId), la: where(a), b: label(o.caseId), lb: where(b) }),
        "compare-parting");
      const go = document.createElement("button");
      go.type = "button";
      go.textContent = t("compare_go");
      go.addEventListener("click", () => widget.goToStep(k + 1));
      said.append(" ", go);
      out.push(said);
      if (differ.length) out.push(para(t("compare_values_differ", { names: differ.join(", ") })));
    }
    const position = a.position();
    const step = position.finished ? a.totalStops : position.stepNumber;
    out.push(otherAt(b, step - 1, o.caseId, position.finished));
    return out;
  };

  /** The other run at stop k (the same step number): its line, marked in the code too, and its values. */
  const otherAt = (/** @type {Replay} */ b, /** @type {number} */ k, caseId, finished) => {
    const box = document.createElement("div");
    box.className = "compare-other";
    if (finished || k >= b.totalStops) {
      box.append(para(t("compare_other_ended", { b: label(caseId), steps: b.totalStops })));
      return box;
    }
    const i = b.traceIndex.stops[k], line = b.traceIndex.lines[i];
    const frame = b.stackAt(i).at(-1);
    box.append(para(t("compare_other_at", { b: label(caseId), step: k + 1, line, fn: frame?.function ?? "" })));
    widget.root.querySelector(`.dbg-code .line[data-line="${line}"]`)?.classList.add("compare-line");
    const differ = new Set(differingNames(widget.replay, b, k));
    const list = document.createElement("dl");
    list.className = "vars compare-vars";
    for (const [name, value] of b.localsAt(i).vars) {
      const term = document.createElement("dt");
      term.textContent = name;
      if (differ.has(name)) {
        term.className = "differs";
        const note = document.createElement("span");
        note.className = "visually-hidden";
        note.textContent = ` (${t("compare_differs")})`;
        term.append(note);
      }
      const detail = document.createElement("dd");
      detail.textContent = shortText(value);
      list.append(term, detail);
    }
    box.append(list);
    return box;
  };

  pick.addEventListener("change", choose);
  widget.addEventListener("moved", render);
  // A move is drawn at "moved"; a change draws only when the first case or its run is new (every move also
  // says "change", just before "moved": drawn once, not twice).
  widget.addEventListener("change", () => {
    const caseChanged = pick.dataset.caseId !== widget.caseId;
    if (caseChanged) {   // another first case: the choice must be another one
      pick.dataset.caseId = widget.caseId;
      fillOptions();
      if (other && other.caseId === widget.caseId) pick.value = "";
      if (other && !pick.value) other = null;
    }
    if (caseChanged || !widget.replay) render();
  });
  widget.i18n.addEventListener("change", () => {
    fillOptions();
    render();
  });
  pick.dataset.caseId = widget.caseId;
  fillOptions();
}

function para(text, className = "") {
  const p = document.createElement("p");
  if (className) p.className = className;
  p.textContent = text;
  return p;
}
