// Injected before any page script (Playwright add_init_script): in-page timings for the benchmark.
// Every time is performance.now(), i.e. milliseconds since this document's navigation started.
//   __bench.log      [{kind: "click", fn, action, t} | {kind: "status", fn, text, t} | {kind: "painted", fn, text, t}]
//                    "painted" is one requestAnimationFrame after the status turned 已完成 or 出错.
//   __bench.marks    {buttonSeen, dcl, autoClick, ready, readyMs}
//   __bench.frames   longest gap between animation frames while watching (page responsiveness)
// With `window.__benchAutoRun = "<function>"` set by an earlier init script, that debugger's Run
// button is clicked as soon as the page's script has wired it (DOMContentLoaded: module scripts
// have run by then; a click before that would hit a button with no handler yet).
(() => {
  if (window.top !== window) return;
  const B = (window.__bench = { log: [], marks: {}, frames: { watching: false, maxGap: 0, last: 0 } });
  const now = () => performance.now();
  const TERMINAL = new Set(["已完成", "出错", "Finished", "Error"]);
  const fnOf = (node) => node?.closest?.("section.debugger")?.dataset.function ?? null;

  const watchStatus = (status) => {
    const fn = fnOf(status);
    new MutationObserver(() => {
      const text = status.textContent.trim();
      const t = now();
      B.log.push({ kind: "status", fn, text, t });
      if (TERMINAL.has(text)) {
        requestAnimationFrame(() => B.log.push({ kind: "painted", fn, text, t: now(), statusAt: t }));
      }
    }).observe(status, { childList: true, characterData: true, subtree: true });
  };

  // The Run button of the auto-run debugger, as soon as the parser creates it.
  const seen = new MutationObserver(() => {
    const fn = window.__benchAutoRun;
    if (fn && !B.marks.buttonSeen && document.querySelector(`section.debugger[data-function="${fn}"] [data-action=run]`)) {
      B.marks.buttonSeen = now();
      seen.disconnect();
    }
  });
  seen.observe(document, { childList: true, subtree: true });

  document.addEventListener("click", (event) => {
    const button = event.target?.closest?.("button[data-action]");
    if (button) B.log.push({ kind: "click", fn: fnOf(button), action: button.dataset.action, t: now() });
  }, true);

  document.addEventListener("DOMContentLoaded", () => {
    B.marks.dcl = now();
    for (const status of document.querySelectorAll("section.debugger [role=status]")) watchStatus(status);
    const worker = window.stepwise?.worker;
    if (worker) {
      if (worker.python) B.marks.ready = now();
      worker.addEventListener("progress", ({ detail }) => {
        B.marks[`phase_${detail}`] ??= now();
        B.log.push({ kind: "progress", phase: detail, t: now() });
      });
      worker.addEventListener("restarted", () => B.log.push({ kind: "restarted", t: now() }));
      worker.addEventListener("ready", ({ detail }) => {
        B.marks.ready = now();
        B.marks.readyMs = detail.ms;
        B.log.push({ kind: "ready", t: B.marks.ready, ms: detail.ms });
      });
    }
    const fn = window.__benchAutoRun;
    if (fn) {
      B.marks.autoClick = now();
      document.querySelector(`section.debugger[data-function="${fn}"] [data-action=run]`).click();
    }
  });

  const tick = (t) => {
    if (B.frames.watching) {
      if (B.frames.last) B.frames.maxGap = Math.max(B.frames.maxGap, t - B.frames.last);
      B.frames.last = t;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  B.watchFrames = (on) => {
    Object.assign(B.frames, { watching: on, last: 0 });
    if (on) B.frames.maxGap = 0;
    return B.frames.maxGap;
  };
})();
