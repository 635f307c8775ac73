// The Python side of a lesson page: one module Web Worker running Pyodide.
//
// Messages are small plain objects with an explicit `type` (see python-worker.js for the page side):
//   in:  {type: "init", files: [repoPath], root: url, pythonRoot: repoPath, interrupt: SharedArrayBuffer | null}
//        {type: "run", id, source, module, setup, entry, function, case, limits: {maxEvents, timeLimit}}
//   out: {type: "progress", phase: "runtime" | "sources" | "ready"}
//        {type: "ready", python, ms, phases: {load, setup}} | {type: "boot-error", message}
//        {type: "phase", id, phase: "finishing"} (the run's code has ended; its trace is being written)
//        {type: "trace", id, json, ms} | {type: "failed", id, message, fatal}
//   `fatal`: the interpreter is unusable after this run (a JS stack overflow, a run that returned
//   nothing); the page must boot a new worker.
// A trace crosses the boundary as one JSON string: no PyProxy leaves this file.
import { loadPyodide } from "../../pyodide/pyodide.mjs";

const MOUNT = "/repo";
let runCase = null;
let booting = null;

/**
 * Restore the build's memory snapshot of a booted interpreter (much faster than a fresh boot);
 * boot from scratch when there is none or it does not load.
 */
async function bootPython(indexURL) {
  try {
    const response = await fetch(new URL("snapshot.bin", indexURL));
    if (response.ok) {
      const snapshot = new Uint8Array(await response.arrayBuffer());
      return await loadPyodide({ indexURL, _loadSnapshot: snapshot });
    }
  } catch (error) {
    console.warn(`Boot snapshot unusable, booting from scratch: ${error?.message ?? error}`);
  }
  return loadPyodide({ indexURL });
}

async function boot({ files, root, pythonRoot = "py", interrupt }) {
  const started = performance.now();
  postMessage({ type: "progress", phase: "runtime" });
  const base = new URL(root.endsWith("/") ? root : root + "/", self.location.href);
  const [pyodide, sources] = await Promise.all([
    bootPython(new URL("pyodide/", base).href),
    Promise.all(files.map(async (path) => {
      const response = await fetch(new URL(path, base));
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      return [path, new Uint8Array(await response.arrayBuffer())];
    })),
  ]);
  const loadedMs = performance.now() - started;
  postMessage({ type: "progress", phase: "sources" });
  for (const [path, bytes] of sources) {
    const target = `${MOUNT}/${path}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, bytes);
  }
  if (interrupt) pyodide.setInterruptBuffer(new Uint8Array(interrupt));
  pyodideRef = pyodide;
  // From a snapshot the recorder is already imported; the lesson's modules are found afresh.
  // The recorder lives in py/ (already imported from a snapshot); the lesson's code under its own root.
  const lessonPath = `${MOUNT}/${pythonRoot}`;
  runCase = pyodide.runPython(`
import sys
for folder in ("${MOUNT}/py", ${JSON.stringify(lessonPath)}):
    if folder not in sys.path:
        sys.path.insert(0, folder)
    # Forget only this folder's finder (its listing predates the files just written);
    # importlib.invalidate_caches() would also rescan the stdlib zip (~0.5 s).
    sys.path_importer_cache.pop(folder, None)
from steptrace.runner import run_case
run_case`);
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  postMessage({ type: "progress", phase: "ready" });
  const ms = performance.now() - started;
  postMessage({ type: "ready", python, ms, phases: { load: loadedMs, setup: ms - loadedMs } });
}

let pyodideRef = null;

/** Is the interpreter still usable after a failed run? (Pyodide's fatal errors disable its API.) */
function usable() {
  try {
    return pyodideRef.runPython("0") === 0;
  } catch {
    return false;
  }
}

function run(request) {
  const started = performance.now();
  try {
    const json = runCase.callKwargs(request.source, request.module, request.setup, request.entry, {
      function: request.function,
      case: request.case,
      max_events: request.limits?.maxEvents ?? 1_000_000,
      time_limit: request.limits?.timeLimit ?? 1.0,
      // The code has stopped; only the trace is being written: the page's watchdog waits for it.
      on_phase: (phase) => postMessage({ type: "phase", id: request.id, phase }),
    });
    if (typeof json !== "string" || !json) {
      postMessage({ type: "failed", id: request.id, message: "the run returned no trace", fatal: true });
      return;
    }
    postMessage({ type: "trace", id: request.id, json, ms: performance.now() - started });
  } catch (error) {
    postMessage({ type: "failed", id: request.id, message: String(error?.message ?? error), fatal: !usable() });
  }
}

self.onmessage = async ({ data }) => {
  if (data?.type === "init") {
    booting = boot(data).catch((error) => {
      postMessage({ type: "boot-error", message: String(error?.message ?? error) });
      throw error;
    });
  } else if (data?.type === "run") {
    try {
      await booting;
    } catch {
      postMessage({ type: "failed", id: data.id, message: "Python did not start" });
      return;
    }
    run(data);
  }
};
