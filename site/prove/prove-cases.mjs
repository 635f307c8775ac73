// Prove a lesson's cases at build time: run each one in the pinned Pyodide (under node) exactly as
// the page's worker will, and report how it ended with its whole trace. build.py decides what is an
// authoring mistake, and ships each trace so the page shows a case without booting Python.
//
//   node prove-cases.mjs REPO < request.json > one JSON line per case
//   request: {files: [repo path], roots: [repo path of a folder to import from],
//             cases: [{function, case, source, module, setup, entry, seconds, events}]}
//
// Pyodide runs in a worker thread, watched from here, so that no case can stall the build: past its
// time limit plus GRACE_MS a case that is still running is interrupted (Python's SIGINT: the runner
// stops it as the time limit, and writes its trace); if KILL_MS later it has still not stopped (a loop
// inside one call into C, a program that swallows every stop) the worker is terminated, the case is
// answered as one that could not be stopped, and a fresh worker takes the next case. Writing a trace
// ("finishing") is never cut short.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const GRACE_MS = 300;    // py/steptrace/limits.py GRACE_SECONDS: the recorder stops itself first
const KILL_MS = 2000;    // after the interrupt: enough for the runner to stop at a Python instruction
const SIGINT = 2;

if (isMainThread) {
  await proveAll();
} else {
  await serve();
}

async function proveAll() {
  const repo = process.argv[2];
  const request = JSON.parse(readFileSync(0, "utf-8"));
  const interrupt = new Uint8Array(new SharedArrayBuffer(1));
  let worker = null;
  for (const item of request.cases) {
    worker ??= boot(repo, request, interrupt);
    const answer = await watched(worker, item, interrupt);
    if (answer.unstoppable) {
      await worker.terminate();
      worker = null;
    }
    delete answer.unstoppable;
    process.stdout.write(JSON.stringify({ function: item.function, case: item.case, ...answer }) + "\n");
  }
  await worker?.terminate();
}

function boot(repo, request, interrupt) {
  return new Worker(new URL(import.meta.url), {
    workerData: { repo, files: request.files, roots: request.roots, interrupt: interrupt.buffer },
  });
}

/** One case on `worker`, with its deadline kept from here; resolves to the case's answer. */
function watched(worker, item, interrupt) {
  return new Promise((resolve) => {
    const timers = [];
    const settle = (answer) => {
      timers.forEach(clearTimeout);
      worker.off("message", onMessage);
      worker.off("error", onError);
      resolve(answer);
    };
    const onMessage = (message) => {
      if (message.type === "running") startClock();                      // the program's code starts
      else if (message.type === "finishing") timers.forEach(clearTimeout);   // its trace is being written
      else if (message.type === "answer") settle(message.answer);
    };
    const onError = (error) => settle({ ok: false, unstoppable: true, error: String(error?.message ?? error) });
    worker.on("message", onMessage);
    worker.on("error", onError);
    const startClock = () => {
      const limitMs = item.seconds * 1000 + GRACE_MS;
      timers.push(setTimeout(() => Atomics.store(interrupt, 0, SIGINT), limitMs));
      timers.push(setTimeout(() => settle({
        ok: false, unstoppable: true,
        error: `ran past its time limit (${item.seconds} s) and could not be stopped within ${KILL_MS / 1000} s ` +
          "more: it loops inside one call into C (e.g. sum(range(10**12))) or catches every stop " +
          "(except BaseException in a loop); make the case smaller or the loop bounded",
      }), limitMs + KILL_MS));
    };
    Atomics.store(interrupt, 0, 0);
    worker.postMessage(item);
  });
}

async function serve() {
  const { loadPyodide } = await import("pyodide");
  const { repo, files, roots, interrupt } = workerData;
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
  for (const path of files) {
    const target = `/repo/${path}`;
    pyodide.FS.mkdirTree(dirname(target));
    pyodide.FS.writeFile(target, readFileSync(join(repo, path)));
  }
  pyodide.runPython(`import sys\nfor root in ${JSON.stringify(roots.map((r) => `/repo/${r}`))}:\n    sys.path.insert(0, root)`);
  const runCase = pyodide.runPython("from steptrace.runner import run_case\nrun_case");
  // The whole call may be interrupted: the runner holds SIGINT until the program runs, and from its end on.
  pyodide.setInterruptBuffer(new Uint8Array(interrupt));
  parentPort.on("message", (item) => parentPort.postMessage({ type: "answer", answer: prove(runCase, item) }));
}

function prove(runCase, item) {
  try {
    const trace = runCase.callKwargs(item.source, item.module, item.setup, item.entry, {
      function: item.function, case: item.case, time_limit: item.seconds, max_events: item.events,
      on_phase: (phase) => parentPort.postMessage({ type: phase }),   // "running", then "finishing"
    });
    const doc = JSON.parse(trace);
    return { ok: true, end: doc.end, stdout: doc.stdout_text.slice(0, 4000), events: doc.stats.events,
      faults: doc.stats.internal_errors, trace };
  } catch (error) {
    return { ok: false, error: String(error?.message ?? error).slice(-2000) };
  }
}
