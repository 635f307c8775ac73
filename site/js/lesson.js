// A lesson page: boot the Python worker, bring each debugger to life, keep the shareable link.
import { attachCompare } from "./compare-cases.js";
import { Debugger } from "./debugger.js";
import { I18n, initialLang, rememberLang } from "./i18n.js";
import { hooks } from "./page-hooks.js";
import { attachPredict } from "./predict-mode.js";
import { attachStepNotes } from "./step-notes.js";
import { WorkerClient } from "./worker-client.js";

const lesson = JSON.parse(document.getElementById("lesson-data").textContent);
const i18n = new I18n(JSON.parse(document.getElementById("i18n-data").textContent));
const worker = new WorkerClient({ root: lesson.root, files: lesson.files, pythonRoots: lesson.pythonRoots,
  pyodide: lesson.pyodide, warmup: lesson.warmup ?? firstCase(lesson) });

/** The first debugger's first case, as a run request (the worker warms up on it; a page may give its own:
 * the playground's first example). */
function firstCase({ functions, sources }) {
  const [name, fn] = Object.entries(functions)[0] ?? [];
  if (!fn) return null;
  const [setup, entry] = fn.code[fn.cases[0].id];
  return { source: fn.source, module: sources[fn.source].module, setup, entry, function: name,
    case: fn.cases[0].id, limits: fn.limits };
}

/** What one debugger knows of its lesson: the lesson's, with its own file's source, module, spans and history. */
function ownFile(fn) {
  return { ...lesson, source: fn.source, ...lesson.sources[fn.source] };
}

// Boot progress: runtime → sources → ready.
const progress = /** @type {HTMLElement} */ (document.querySelector(".boot"));
const phases = { runtime: 1, sources: 2, ready: 3 };
worker.addEventListener("progress", (/** @type {CustomEvent} */ { detail }) => {
  progress.setAttribute("aria-valuenow", String(phases[detail] ?? 0));
  progress.style.setProperty("--boot", String((phases[detail] ?? 0) / 3));
});
worker.addEventListener("ready", (/** @type {CustomEvent} */ { detail }) => {
  progress.dataset.state = "ready";
  progress.querySelector(".boot-text").textContent = `Python ${detail.python} · ${(detail.ms / 1000).toFixed(1)} s`;
  progress.querySelector(".boot-text").removeAttribute("data-i18n");
});
worker.addEventListener("boot-error", (/** @type {CustomEvent} */ { detail }) => {
  progress.dataset.state = "error";
  const text = progress.querySelector(".boot-text");
  text.removeAttribute("data-i18n");
  text.textContent = i18n.t("boot_failed", { message: detail });
});
worker.addEventListener("restarted", () => {
  progress.dataset.state = "";
  progress.setAttribute("aria-valuenow", "0");
});

/** An embed page (build.py: `<lesson>/embed/<function>.html`): one debugger, framed by another site. */
const EMBEDDED = document.body.classList.contains("embed");

const debuggers = new Map();
for (const root of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("section.debugger"))) {
  const name = root.dataset.function;
  const widget = new Debugger(root, { lesson: ownFile(lesson.functions[name]), fn: lesson.functions[name], name,
    worker, i18n });
  widget.addEventListener("change", () => linkLater(widget));
  attachStepNotes(widget);
  attachPredict(widget);
  attachCompare(widget);
  debuggers.set(name, widget);
}

// The link is written after the next paint: replaceState costs milliseconds (more with an edited
// input in it), and the reader should see the result first. Several changes in a row write once.
let linkPending = null;
let linkSettled = Promise.resolve();
let linked = null;   // the widget the link is about: the last one the reader changed
function linkLater(widget) {
  linked = widget;
  if (linkPending) {
    linkPending.widget = widget;
    return;
  }
  linkPending = { widget };
  linkSettled = new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => {
    if (linkPending) {   // null: a link followed meanwhile replaced what it would have written
      const { widget: latest } = linkPending;
      linkPending = null;
      writeHash(latest);
    }
    resolve();
  }, 0)));
}

// The link holds a widget's case, its breakpoints (line, hit count, condition), the step or the
// finished state, what Variables has open, and the language:
//   #f=split_history&case=normal&bp=46&bp=58:2:len(groups)>1&step=7&open=split_history:groups&mem=current
// (`mem=current`: the memory picture shows the current frame only). Also `off=46` (a breakpoint
// switched off), `log=58:groups={len(groups)}` (a log point's message), `watch=len(groups)` (a
// watch, in order) and `file=whole` (the code pane shows the whole file).
function writeHash(widget) {
  history.replaceState(null, "", `#${hashOf(widget)}`);
}

/** The link's fragment for a widget's state (its case, breakpoints, step, …, language), as URL params. */
function hashOf(widget) {
  const state = widget.snapshot();
  const params = new URLSearchParams({ f: state.f, case: state.case });
  for (const bp of state.bp) {
    params.append("bp", [bp.line, bp.hitCount ?? "", bp.condition ?? ""].join(":").replace(/:+$/, ""));
    if (!bp.enabled) params.append("off", String(bp.line));
    if (bp.log) params.append("log", `${bp.line}:${bp.log}`);
  }
  for (const source of state.watch) params.append("watch", source);
  if (state.wholeFile) params.set("file", "whole");
  if (state.step) params.set("step", String(state.step));
  for (const path of state.open) params.append("open", path);
  if (state.memory) params.set("mem", state.memory);
  // The reader's edited input travels in the fragment: it is never sent to the server.
  if (state.edited) params.set("input", encodeInput(state.edited));
  hooks.save?.(params, widget);
  if (i18n.lang !== "zh") params.set("lang", i18n.lang);
  if (document.documentElement.dataset.theme) params.set("theme", document.documentElement.dataset.theme);
  return params;
}

/** [setup, entry] <-> URL-safe base64 of its UTF-8 JSON. */
function encodeInput(code) {
  const bytes = new TextEncoder().encode(JSON.stringify(code));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeInput(text) {
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const code = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return Array.isArray(code) && code.length === 2 && code.every((part) => typeof part === "string") ? code : null;
  } catch {
    return null;
  }
}

/** "58:2:len(groups) > 1" -> {line, hitCount, condition} (the condition may hold colons itself). */
function parseBreakpoint(text) {
  const [line, hits = "", ...rest] = text.split(":");
  return { line: Number(line), hitCount: hits ? Number(hits) : null, condition: rest.join(":") };
}

/** The fragment's keys that carry a link's state (a skip link's `#main` carries none). */
const STATE_KEYS = ["f", "case", "input", "bp", "off", "log", "watch", "file", "open", "mem", "step", "lang", "theme"];

async function restoreFromHash(hash = location.hash) {
  const params = new URLSearchParams(hash.slice(1));
  if (![...STATE_KEYS, ...hooks.keys].some((key) => params.has(key))) return;
  const lang = params.get("lang");
  if ((lang === "zh" || lang === "en") && lang !== i18n.lang) i18n.set(lang);
  // theme=dark|light: chosen by the link (an embed matches its host), else the system's.
  const theme = params.get("theme");
  if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  // An embed page holds one debugger: a link for it need not name it.
  const widget = debuggers.get(params.get("f") ?? "") ?? (EMBEDDED && !params.has("f") ? [...debuggers.values()][0] : null);
  if (!widget) return;
  await hooks.restore?.(params, widget);
  const wanted = params.get("case");
  if (wanted && !widget.setCase(wanted)) {
    widget.setCase(widget.fn.cases[0].id);
    widget.notify(i18n.t("link_unknown_case", { case: wanted, fallback: widget.caseId }));
  } else if (!wanted) widget.setCase(widget.caseId);
  if (params.get("input")) {
    const code = decodeInput(params.get("input"));
    if (code) widget.setEdited(code);
    else widget.notify(i18n.t("link_bad_input"));
  }
  const off = new Set(params.getAll("off").map(Number));
  const logs = new Map(params.getAll("log").filter((value) => /^\d+:/.test(value) && value.length <= 1000)
    .map((value) => [Number(value.split(":")[0]), value.slice(value.indexOf(":") + 1)]));
  for (const bp of params.getAll("bp").flatMap((value) => (/^\d+(,\d+)+$/.test(value) ? value.split(",") : [value])).map(parseBreakpoint)) {
    if (!(bp.line > 0) || !widget.lineRows.has(bp.line)) continue;
    widget.setBreakpoint(bp.line, {
      condition: bp.condition, hitCount: Number.isInteger(bp.hitCount) && bp.hitCount > 0 ? bp.hitCount : null,
      enabled: !off.has(bp.line), log: logs.get(bp.line) ?? "",
    });
  }
  widget.setWatches(params.getAll("watch").filter((source) => source.length <= 500), params.get("file") === "whole");
  widget.setOpened(params.getAll("open").filter((path) => path.length <= 500).slice(0, 200));
  widget.setMemoryView(params.get("mem"));
  if (!EMBEDDED) widget.root.scrollIntoView({ block: "start" });   // in a frame it would scroll the host page
  const step = params.get("step");
  if (step === "end") await widget.start("run");
  else if (Number(step) > 0) await widget.start("debug", { step: Number(step) });
}

const langButton = document.getElementById("lang-switch");
langButton.addEventListener("click", () => {
  const lang = i18n.lang === "zh" ? "en" : "zh";
  rememberLang(lang);
  i18n.set(lang);
  // The link says the language too: rewritten with it, or (no widget touched yet) given it alone.
  if (linked) linkLater(linked);
  else {
    const params = new URLSearchParams(location.hash.slice(1));
    if (lang === "zh") params.delete("lang");
    else params.set("lang", lang);
    history.replaceState(null, "", params.size ? `#${params}` : location.pathname + location.search);
  }
});
hooks.start?.(debuggers);   // here: what it changes is written into the link by the code above
i18n.set(initialLang());
restoreFromHash();
debuggers.values().next().value?.prefetch();  // the trace the build preloaded: ready before Run
// Recorded cases need no Python: boot it once the page has loaded (the first trace is preloaded) and
// is idle, so its megabytes never compete with what the reader sees first; not at all when the reader
// asked to save data (a live run boots it then).
if (!/** @type {any} */ (navigator).connection?.saveData) {  // Network Information API: Chromium only
  const idle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  const bootWhenIdle = () => idle(() => worker.boot(), { timeout: 2000 });
  if (document.readyState === "complete") bootWhenIdle();
  else addEventListener("load", bootWhenIdle, { once: true });
}
// A link followed within the page (or edited by hand) is restored too; our own writes use
// replaceState, which fires no hashchange.
addEventListener("hashchange", (event) => {
  linkPending = null;   // the link followed wins over a write of the page's state still waiting for a paint
  restoreFromHash(new URL(event.newURL).hash);
});

// "Copy embed code": an <iframe> of this debugger's own page, in the state the reader left it.
for (const widget of debuggers.values()) {
  widget.root.querySelector("[data-embed]")?.addEventListener("click", () => offerEmbed(widget));
}

/** The snippet for a widget, put on the clipboard and shown (selected) for a manual copy. */
async function offerEmbed(widget) {
  const page = EMBEDDED ? location.pathname : new URL(`embed/${encodeURIComponent(widget.name)}.html`, location.href).pathname;
  const url = new URL(`${page}#${hashOf(widget)}`, location.href).href;
  const title = `${widget.root.getAttribute("aria-label")} · Stepwise`;
  const escape = (text) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  const host = new URL(`${lesson.root}/assets/js/embed-host.js`, location.href).href;
  const snippet = `<iframe src="${escape(url)}" title="${escape(title)}" loading="lazy" `
    + `style="width: 100%; height: 760px; border: 0"></iframe>\n`
    + `<script src="${escape(host)}" async></script>`;
  const box = /** @type {HTMLTextAreaElement} */ (widget.root.querySelector(".embed-code"));
  const said = widget.root.querySelector(".embed-said");
  box.value = snippet;
  box.hidden = false;
  box.select();
  try {
    await navigator.clipboard.writeText(snippet);
    said.textContent = i18n.t("embed_copied");
  } catch {
    said.textContent = i18n.t("embed_copy_yourself");
  }
}

// In a frame, the host page learns the page's height (assets/js/embed-host.js sizes the frame to it).
if (EMBEDDED && window.parent !== window) {
  // The body's own height: the document's scrollHeight never drops below the frame, so it could only grow.
  const tell = () => {
    const { bottom } = document.body.getBoundingClientRect();
    const height = Math.ceil(bottom + window.scrollY + parseFloat(getComputedStyle(document.body).marginBottom));
    window.parent.postMessage({ type: "stepwise-embed-height", height }, "*");
  };
  new ResizeObserver(tell).observe(document.body);
  tell();
}

// For tests and the benchmark: a read-only handle on the page's moving parts.
globalThis.stepwise = { worker, debuggers, i18n, linkSettled: () => linkSettled };
