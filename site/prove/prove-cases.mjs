// Prove a lesson's cases at build time: run each one in the pinned Pyodide (under node) exactly as
// the page's worker will, and report how it ended with its whole trace. stepwise.prover decides what is an
// authoring mistake, and ships each trace so the page shows a case without booting Python.
//
//   node prove-cases.mjs < request.json > one JSON line per case
//   request: {files: {served path: file on disk}, roots: [served path of a folder to import from],
//             cases: [{function, case, source, module, setup, entry, seconds, events}]}
//
// Pyodide runs in a worker thread, watched from here, so that no case can stall the build: past its
// time limit plus GRACE_MS a case that is still running is interrupted (Python's SIGINT: the runner
// stops it as the time limit, and writes its trace); if KILL_MS later it has still not stopped (a loop
// inside one call into C, a program that swallows every stop) the worker is terminated, and the case is
// brought back, in fresh workers, to where it was at its limit (shared memory, py/steptrace/worker_watch.py:
// a probe, then maybe a last run): that trace, stopped at the time limit, is the answer. A case that
// recorded nothing (a hang in its setup), or that its runs again do not bring there, is answered as one
// that could not be stopped. Writing a trace ("finishing") is never cut short.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { watchStuckProbe } from "../js/stuck-probe.js";

const GRACE_MS = 300;    // py/steptrace/limits.py GRACE_SECONDS: the recorder stops itself first
const KILL_MS = 2000;    // after the interrupt: enough for the runner to stop at a Python instruction
const SIGINT = 2;

if (isMainThread) {
  await proveAll();
} else {
  await serve();
}

async function proveAll() {
  const request = JSON.parse(readFileSync(0, "utf-8"));
  const shared = new SharedArrayBuffer(8);   // byte 0: Python's interrupt buffer; Int32 at 4: events recorded
  const interrupt = new Uint8Array(shared, 0, 1);
  const progress = new Int32Array(shared, 4, 1);
  let worker = null;
  for (const item of request.cases) {
    worker ??= boot(request, shared);
    let answer = await watched(worker, item, interrupt, progress);
    if (answer.unstoppable) {
      await worker.terminate();
      worker = null;
      answer = await broughtBack(() => boot(request, shared), item, answer, interrupt, progress);
    }
    delete answer.unstoppable;
    delete answer.atLimit;
    delete answer.stuckAt;
    process.stdout.write(JSON.stringify({ function: item.function, case: item.case, ...answer }) + "\n");
  }
  await worker?.terminate();
}

/** The case run again, each time in a worker of its own, to where the first run was at its limit. */
async function broughtBack(boot, item, first, interrupt, progress) {
  const probe = await alone(boot(), { ...item, probeFrom: first.atLimit }, interrupt, progress);
  if (probe.ok || !probe.stuckAt) return probe.ok ? probe : first;
  const last = await alone(boot(), { ...item, stopAt: probe.stuckAt }, interrupt, progress);
  return last.ok ? last : first;
}

async function alone(worker, item, interrupt, progress) {
  try {
    return await watched(worker, item, interrupt, progress);
  } finally {
    await worker.terminate();
  }
}

function boot(request, shared) {
  return new Worker(new URL(import.meta.url), {
    workerData: { files: request.files, roots: request.roots, shared },
  });
}

/** One case on `worker`, with its deadline kept from here; resolves to the case's answer. */
function watched(worker, item, interrupt, progress) {
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
      const again = item.stopAt !== undefined || item.probeFrom !== undefined;
      const limitMs = item.seconds * 1000 + GRACE_MS + (again ? KILL_MS : 0);   // a run again: time to get there
      if (item.probeFrom !== undefined) {
        watchStuckProbe({ progress, from: item.probeFrom, timers,
          stuck: (count) => settle({ ok: false, unstoppable: true, stuckAt: count }) });
      }
      let atLimit = 0;
      timers.push(setTimeout(() => {
        atLimit = Atomics.load(progress, 0);
        Atomics.store(interrupt, 0, SIGINT);
      }, limitMs));
      timers.push(setTimeout(() => settle({
        ok: false, unstoppable: true, atLimit,
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
  // An installed stepwise names the pinned package's entry (its node_modules is not above this file).
  const { loadPyodide } = await import(process.env.STEPWISE_PYODIDE ? pathToFileURL(process.env.STEPWISE_PYODIDE).href : "pyodide");
  const { files, roots, shared } = workerData;
  // A fixed string hash: a set's order, and so a trace, is the same on every build (the page's is random).
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {}, env: { PYTHONHASHSEED: "0" } });
  for (const [path, disk] of Object.entries(files)) {
    const target = `/repo/${path}`;
    pyodide.FS.mkdirTree(dirname(target));
    pyodide.FS.writeFile(target, readFileSync(disk));
  }
  pyodide.runPython(`import sys\nfor root in ${JSON.stringify(roots.map((r) => `/repo/${r}`))}:\n    sys.path.insert(0, root)`);
  const runCase = pyodide.runPython("from steptrace.runner import run_case\nrun_case");
  const recorded = pyodide.runPython("from steptrace.fixed_entropy import recorded\nrecorded");
  const { WorkerWatch } = pyodide.pyimport("steptrace.worker_watch");
  // The whole call may be interrupted: the runner holds SIGINT until the program runs, and from its end on.
  pyodide.setInterruptBuffer(new Uint8Array(shared, 0, 1));
  const progress = new Int32Array(shared, 4, 1);
  parentPort.on("message", (item) => {
    const answer = prove(runCase, recorded, WorkerWatch, progress, item);
    if (answer) parentPort.postMessage({ type: "answer", answer });
  });
}

/** One case's answer; null when its trace was already sent from inside the program (`item.stopAt`). */
function prove(runCase, recorded, WorkerWatch, progress, item) {
  const onPhase = (phase) => parentPort.postMessage({ type: phase });   // "running", then "finishing"
  let delivered = false;
  Atomics.store(progress, 0, 0);
  const watch = WorkerWatch.callKwargs(progress, (trace) => {
    delivered = true;
    parentPort.postMessage({ type: "answer", answer: proven(trace) });
  }, { stop_at: item.stopAt ?? undefined, probe_from: item.probeFrom ?? undefined, form: "json", on_phase: onPhase });
  try {
    // Under fixed entropy (py/steptrace/fixed_entropy.py): the same sources give the same trace.
    const result = recorded.callKwargs(runCase, item.source, item.module, item.setup, item.entry, {
      function: item.function, case: item.case, time_limit: item.seconds, max_events: item.events,
      on_phase: onPhase, watch,
    });
    const [trace, drew] = [result.get(0), result.get(1) ?? null];
    result.destroy();
    return delivered ? null : { ...proven(trace), random: drew };
  } catch (error) {
    return delivered ? null : { ok: false, error: String(error?.message ?? error).slice(-2000) };
  } finally {
    watch.destroy();
  }
}

function proven(trace) {
  const doc = JSON.parse(trace);
  return { ok: true, end: doc.end, stdout: doc.stdout_text.slice(0, 4000), events: doc.stats.events,
    faults: doc.stats.internal_errors, trace };
}
