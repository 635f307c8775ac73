// A lesson page: boot the Python worker, bring each debugger to life, keep the shareable link.
import { Debugger } from "./debugger.js";
import { I18n, initialLang, rememberLang } from "./i18n.js";
import { PythonWorker } from "./python-worker.js";

const lesson = JSON.parse(document.getElementById("lesson-data").textContent);
const i18n = new I18n(JSON.parse(document.getElementById("i18n-data").textContent));
const worker = new PythonWorker({ root: lesson.root, files: lesson.files, pythonRoot: lesson.pythonRoot });

// Boot progress: runtime → sources → ready.
const progress = document.querySelector(".boot");
const phases = { runtime: 1, sources: 2, ready: 3 };
worker.addEventListener("progress", ({ detail }) => {
  progress.setAttribute("aria-valuenow", String(phases[detail] ?? 0));
  progress.style.setProperty("--boot", String((phases[detail] ?? 0) / 3));
});
worker.addEventListener("ready", ({ detail }) => {
  progress.dataset.state = "ready";
  progress.querySelector(".boot-text").textContent = `Python ${detail.python} · ${(detail.ms / 1000).toFixed(1)} s`;
  progress.querySelector(".boot-text").removeAttribute("data-i18n");
});
worker.addEventListener("boot-error", ({ detail }) => {
  progress.dataset.state = "error";
  const text = progress.querySelector(".boot-text");
  text.removeAttribute("data-i18n");
  text.textContent = i18n.t("boot_failed", { message: detail });
});
worker.addEventListener("restarted", () => {
  progress.dataset.state = "";
  progress.setAttribute("aria-valuenow", "0");
});

const debuggers = new Map();
for (const root of document.querySelectorAll("section.debugger")) {
  const name = root.dataset.function;
  const widget = new Debugger(root, { lesson, fn: lesson.functions[name], name, worker, i18n });
  widget.addEventListener("change", () => writeHash(widget));
  debuggers.set(name, widget);
}

function writeHash(widget) {
  const state = widget.snapshot();
  const params = new URLSearchParams({ f: state.f, case: state.case });
  if (state.bp.length) params.set("bp", state.bp.join(","));
  if (state.step) params.set("step", String(state.step));
  if (i18n.lang !== "zh") params.set("lang", i18n.lang);
  history.replaceState(null, "", `#${params}`);
}

async function restoreFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const widget = debuggers.get(params.get("f") ?? "");
  if (!widget) return;
  if (params.get("case")) widget.setCase(params.get("case"));
  for (const line of (params.get("bp") ?? "").split(",").map(Number).filter((n) => n > 0)) {
    if (widget.lineRows.has(line)) widget.toggleBreakpoint(line);
  }
  widget.root.scrollIntoView({ block: "start" });
  const step = Number(params.get("step"));
  if (step > 0) await widget.start("debug", { step });
}

const langButton = document.getElementById("lang-switch");
langButton.addEventListener("click", () => {
  const lang = i18n.lang === "zh" ? "en" : "zh";
  rememberLang(lang);
  i18n.set(lang);
});
i18n.set(initialLang());
restoreFromHash();

// For tests and the benchmark: a read-only handle on the page's moving parts.
globalThis.stepwise = { worker, debuggers, i18n };
