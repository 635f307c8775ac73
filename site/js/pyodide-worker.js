// The Python side of a lesson page: one module Web Worker running Pyodide.
//
// Messages are small plain objects with an explicit `type` (see worker-client.js for the page side):
//   in:  {type: "init", files: [path], root: url, pythonRoots: [path] (the recorder's "py" last),
//         pyodide: folder path, warmup: run request | null, interrupt: SharedArrayBuffer(8) | null}
//        {type: "run", id, source, module, setup, entry, function, case, limits: {maxEvents, timeLimit},
//         program?: {text, stdin, call?} (a reader's whole program instead of a case: the playground),
//         probeFrom?: events, stopAt?: events} (runs again of a case the page had to terminate:
//         py/steptrace/worker_watch.py)
//   out: {type: "progress", phase: "runtime" | "sources" | "ready"}
//        {type: "ready", python, ms, phases: {load, setup}} | {type: "boot-error", message}
//        {type: "phase", id, phase: "finishing"} (the run's code has ended; its trace is being written)
//        {type: "trace", id, replay, ms, phases: {run, index}} | {type: "failed", id, message, fatal}
//   `fatal`: the interpreter is unusable after this run (a JS stack overflow, a run that returned
//   nothing); the page must boot a new worker.
//   With isolation, shared memory says more (worker-client.js): byte 0 is Pyodide's interrupt buffer,
//   installed only while the run's code runs; byte 1 is set once that code has stopped; the Int32 at
//   byte 4 is how many events the run has recorded (py/steptrace/worker_watch.py), for a second run
//   that stops where a run the page terminated was at its limit.
// A trace leaves this file as a built replay (`Replay.parts()`): Python writes it packed (typed
// columns, no JSON of the big tables), it is indexed here, off the page's thread, and its buffers
// are transferred, not copied. No PyProxy leaves this file.
// The replay engine is only needed once a run has ended: fetched beside Pyodide, not before it.
const engine = Promise.all([import("./replay.js"), import("./trace-columns.js")])
  .then(([{ Replay }, { fromPacked }]) => ({ Replay, fromPacked }));

const MOUNT = "/repo";
const REST_FILE = "python_stdlib_rest.zip";  // the standard modules Python boots without
const REST_PATH = "/lib/python_stdlib_rest.zip";
let runCase = null;
let runProgram = null;   // a reader's whole program (the playground): py/steptrace/whole_program.py
let booting = null;
let runWaiting = false;   // a run arrived while Python was booting

/** Load Pyodide from the site's copy (`indexURL`: its folder). */
async function bootPython(indexURL) {
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  return loadPyodide({ indexURL });
}

async function boot({ files, root, pythonRoots = ["py"], pyodide: folder, warmup = null, interrupt }) {
  const started = performance.now();
  postMessage({ type: "progress", phase: "runtime" });
  const base = new URL(root.endsWith("/") ? root : root + "/", self.location.href);
  const indexURL = new URL(folder, base).href;
  const [pyodide, sources] = await Promise.all([
    bootPython(indexURL),
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
  if (interrupt) {
    // Byte 0 is Pyodide's interrupt buffer; byte 1 tells the page, through shared memory, that the
    // run's code has stopped (worker-client.js reads it while an interrupt is pending).
    interruptBytes = new Uint8Array(interrupt, 0, 1);   // installed only while a run's code runs
    endedByte = new Uint8Array(interrupt, 1, 1);
    progressWord = new Int32Array(interrupt, 4, 1);
  }
  restOfStdlib(pyodide, new URL(REST_FILE, indexURL).href);
  pyodideRef = pyodide;
  // The lesson's code under its own roots, the recorder in py/: each in turn goes to the front of sys.path,
  // py/ last, so no lesson's module hides the recorder's (as stepwise.prover's python_roots orders them).
  const folders = pythonRoots.map((folder) => `${MOUNT}/${folder}`);
  runCase = pyodide.runPython(`
import sys
for folder in ${JSON.stringify(folders)}:
    if folder not in sys.path:
        sys.path.insert(0, folder)
    # Forget only this folder's finder (its listing predates the files just written);
    # importlib.invalidate_caches() would also rescan the stdlib zip (~0.5 s).
    sys.path_importer_cache.pop(folder, None)
from steptrace.runner import run_case
run_case`);
  runProgram = pyodide.runPython("from steptrace.whole_program import run_program\nrun_program");
  WorkerWatch = pyodide.pyimport("steptrace.worker_watch").WorkerWatch;
  // Three rounds: the first compiles the lesson's module, the next let the engine optimize the hot
  // paths. None when a reader's run is already waiting: it warms things up itself.
  for (let round = 0; warmup && round < 3 && !runWaiting; round++) warm(warmup);
  // The interpreter as booted (stdlib, recorder: ~20,000 objects) moves to the collector's permanent
  // generation: the full collection that ends every run then scans only what runs made (~10 ms less).
  pyodide.runPython("import gc; gc.freeze()");
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  postMessage({ type: "progress", phase: "ready" });
  const ms = performance.now() - started;
  postMessage({ type: "ready", python, ms, phases: { load: loadedMs, setup: ms - loadedMs } });
}

let pyodideRef = null;
let interruptBytes = null;   // Uint8Array over the shared buffer's first byte, when the page is isolated
let endedByte = null;        // ... and over its second byte
let progressWord = null;     // Int32Array over bytes 4-7: events recorded by the run (worker_watch.py)
let WorkerWatch = null;

/**
 * What Pyodide reads as its interrupt buffer: the shared byte, read and cleared in one atomic step.
 * Pyodide 314.0.7 (CPython 3.14.2) reads the byte, then writes 0: a Stop stored between the two was
 * lost, while the page saw the byte cleared as if taken (python/cpython#157548; ~3% of interrupts in
 * a tight loop). Pyodide may look at [0] more than once before clearing it (checkInterrupt), so a
 * signal taken stays visible until Python clears it.
 */
let takenSignal = 0;
const takenOnce = {
  get 0() {
    const signal = Atomics.exchange(interruptBytes, 0, 0);
    if (signal) takenSignal = signal;
    return takenSignal;
  },
  set 0(_) { takenSignal = 0; },
};

/** The run's code has stopped: no interrupt from now on, and the page is told through shared memory. */
function codeEnded() {
  takenSignal = 0;
  if (interruptBytes) pyodideRef.setInterruptBuffer(undefined);
  if (endedByte) Atomics.store(endedByte, 0, 1);
}

/**
 * Run one case and drop its trace: the first run of an interpreter pays for compiling the lesson's
 * module and for cold caches (about twice a later run), and the reader's first run should not.
 * The recorder's isolation leaves nothing of it behind.
 */
function warm(request) {
  try {
    record(request);
  } catch (error) {
    console.warn(`warm-up run failed (the reader's runs are not affected): ${error?.message ?? error}`);
  }
}

/**
 * Make the rest of the standard library importable: py/lazy_stdlib.py downloads it synchronously the
 * first time a program imports from it; meanwhile it is fetched in the background, after the boot.
 */
function restOfStdlib(pyodide, url) {
  const store = (buffer) => {
    if (!pyodide.FS.analyzePath(REST_PATH).exists) pyodide.FS.writeFile(REST_PATH, new Uint8Array(buffer));
  };
  const download = () => {
    const request = new XMLHttpRequest();
    request.open("GET", url, false);  // a worker may block: the import waits for its module
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`${url}: HTTP ${request.status}`);
    store(request.response);
  };
  pyodide.runPython(`import sys; sys.path.insert(0, "${MOUNT}/py")`);
  pyodide.pyimport("lazy_stdlib").install(REST_PATH, download);
  setTimeout(() => fetch(url).then((response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.arrayBuffer();
  }).then(store).catch((error) => console.warn(`${url}: ${error.message ?? error}; fetched on first import`)), 0);
}

/** Is the interpreter still usable after a failed run? (Pyodide's fatal errors disable its API.) */
function usable() {
  try {
    return pyodideRef.runPython("0") === 0;
  } catch {
    return false;
  }
}

/**
 * Record one case: its trace in the packed form ({header, previews, columns}, JS values only), or
 * null when the run returned nothing. `onPhase("finishing")`: the code has stopped. `deliver(packed)`:
 * with shared memory, the run is watched (progress; `request.probeFrom`, `request.stopAt`), and a run
 * stopped there hands its trace to `deliver`, from inside the program (record then returns whatever the
 * program did next).
 */
function record(request, onPhase = null, deliver = null) {
  // The limits come with every request: the build writes them per function (py/steptrace/limits.py).
  if (!request.limits) throw new Error("a run request must carry its limits ({timeLimit, maxEvents, deadlineMs})");
  let watch;
  if (progressWord && deliver) {
    Atomics.store(progressWord, 0, 0);
    watch = WorkerWatch.callKwargs(progressWord, (result) => deliver(packedOf(result)), {
      stop_at: request.stopAt ?? undefined, probe_from: request.probeFrom ?? undefined, on_phase: onPhase ?? undefined,
    });
  }
  let result;
  const options = {
    function: request.function,
    case: request.case,
    max_events: request.limits.maxEvents,
    time_limit: request.limits.timeLimit,
    on_phase: onPhase ?? undefined,  // undefined reaches Python as None (null would be JsNull)
    form: "packed",
    watch,
  };
  try {
    if (request.program) {   // {text, stdin}: the whole file is the program (`function` is its <module>)
      delete options.function;
      result = runProgram.callKwargs(request.program.text, request.program.stdin ?? "",
        { ...options, call: request.program.call ?? "" });
    } else {
      result = runCase.callKwargs(request.source, request.module, request.setup, request.entry, options);
    }
  } finally {
    watch?.destroy();
  }
  return packedOf(result);
}

/** A packed trace from Python (a dict PyProxy) as JS values, or null when the run returned nothing. */
function packedOf(result) {
  if (!result || typeof result.toJs !== "function") return null;
  try {
    // bytes -> Uint8Array (a copy in JS memory), str -> string, dict -> object
    return result.toJs({ dict_converter: Object.fromEntries });
  } finally {
    result.destroy();
  }
}

function run(request, engine) {
  const started = performance.now();
  let delivered = false;   // a run stopped at `stopAt` answered from inside the program
  try {
    let packed;
    try {
      packed = record(request, (phase) => {
        if (phase === "running") {   // only the run's code may be interrupted: not the set-up of its isolation...
          if (interruptBytes) pyodideRef.setInterruptBuffer(takenOnce);
          return;
        }
        codeEnded();   // ...nor the writing of its trace, which a late Stop would only lose
        postMessage({ type: "phase", id: request.id, phase });
      }, (stopped) => {
        delivered = true;
        answer(request, stopped, started, engine);
      });
    } finally {
      codeEnded();   // (again) however the run ended: the page waits for this byte, never for ever
    }
    if (!delivered) answer(request, packed, started, engine);
  } catch (error) {
    if (!delivered) postMessage({ type: "failed", id: request.id, message: String(error?.message ?? error), fatal: !usable() });
  }
}

/** Post a run's trace to the page as a built replay (or say why there is none). */
function answer(request, packed, started, { Replay, fromPacked }) {
  if (!packed || typeof packed.header !== "string") {
    postMessage({ type: "failed", id: request.id, message: "the run returned no trace", fatal: true });
    return;
  }
  const recorded = performance.now();
  let built;
  try {
    built = new Replay(fromPacked(packed)).parts();
  } catch (error) {   // a trace the engine cannot read: say why; the interpreter is fine
    postMessage({ type: "failed", id: request.id, message: String(error?.message ?? error), fatal: false });
    return;
  }
  const done = performance.now();
  postMessage({ type: "trace", id: request.id, replay: built.parts, ms: done - started,
                phases: { run: recorded - started, index: done - recorded } }, built.transfer);
}

self.onmessage = async ({ data }) => {
  if (data?.type === "init") {
    booting = boot(data).catch((error) => {
      postMessage({ type: "boot-error", message: String(error?.message ?? error) });
      throw error;
    });
  } else if (data?.type === "run") {
    runWaiting = true;
    try {
      await booting;
    } catch {
      postMessage({ type: "failed", id: data.id, message: "Python did not start" });
      return;
    }
    let built;
    try {
      built = await engine;
    } catch (error) {
      postMessage({ type: "failed", id: data.id, message: `the replay engine did not load: ${error?.message ?? error}` });
      return;
    }
    run(data, built);
  }
};
