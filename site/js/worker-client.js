// The page side of the Python worker (pyodide-worker.js): boot, numbered requests, stop, and recovery.
//
// One worker serves every debugger on the page, one run at a time. Each run has an id;
// an answer whose id is not the one awaited is stale (the reader switched case) and is dropped.
// A run that outlives its deadline is interrupted through the SharedArrayBuffer when the page is
// cross-origin isolated; otherwise (or if Python does not yield) the worker is terminated and
// booted again, so the page always gets a usable runtime back. A run terminated so (a loop inside one
// call into C, a program that swallows every stop) is brought back, in fresh workers, to where it was
// when it was stopped (py/steptrace/worker_watch.py: a probe, then maybe a last run): its trace is kept.
import { watchStuckProbe } from "./stuck-probe.js";

const INTERRUPT_SIGINT = 2;
// The shared buffer's bytes: SIGNAL is Pyodide's interrupt buffer (Python clears it when it takes the
// signal); ENDED is set by the worker the moment the run's code has stopped. The page reads both from
// shared memory, so a busy page thread that has not yet read the worker's messages cannot mistake a
// worker that has answered for one that hangs.
const SIGNAL = 0;
const ENDED = 1;
const SHARED_BYTES = 8;   // ... and bytes 4-7, an Int32: how many events the run has recorded (every 8th)
// After an interrupt the recorder answers with a partial trace; a worker whose code still runs this long
// after the interrupt is rebooted.
const INTERRUPT_ANSWER_MS = 700;
// How often the page looks at the shared bytes while an interrupt is pending.
const INTERRUPT_POLL_MS = 50;
// Taken for this long without the code stopping, the interrupt was dropped (a KeyboardInterrupt raised
// inside a finalizer or a gc callback is only printed): it is sent again, this many times at most.
const INTERRUPT_DROPPED_MS = 200;
const INTERRUPT_RESENDS = 4;
// How long writing a trace may take once the code has stopped (a 1,000,000-event trace takes seconds).
const TRACE_WRITE_MS = 15_000;
// A run again of a terminated one gets to where that one was in about its time; this much more, and it
// too is given up.
const RERUN_SLACK_MS = 3_000;

export class WorkerClient extends EventTarget {
  /**
   * @param {{root: string, files: string[], pythonRoots?: string[], pyodide: string, warmup?: object|null,
   *          deadlineMs?: number|null}} options
   * `pythonRoots`: the folders (of `files`) the lesson's modules are imported from, the recorder's `py` last.
   * `pyodide`: the folder the build put Pyodide in (relative to `root`).
   * `warmup`: a run request the worker runs once at boot, unseen, so the reader's first run is a warm one.
   * `deadlineMs`: overrides each run's own deadline (`limits.deadlineMs`, from the scenario file).
   */
  constructor({ root, files, pythonRoots = ["py"], pyodide, warmup = null, deadlineMs = null }) {
    super();
    this.warmup = warmup;
    this.root = root;
    this.files = files;
    this.pythonRoots = pythonRoots;
    this.pyodide = pyodide;
    this.deadlineMs = deadlineMs;
    this.writeTimeoutMs = TRACE_WRITE_MS;
    this.nextId = 1;
    this.pending = null; // {id, resolve, timers}
    this.queue = Promise.resolve();
    this.python = null;
    this.worker = null;   // booted on the first live run, or earlier by boot() when the page is idle
  }

  /** Boot Python now (idempotent): the page calls it when idle, a live run calls it when needed. */
  boot() {
    if (!this.worker) this.#start();
    return this.ready;
  }

  #start({ warm = true } = {}) {
    this.interrupt = globalThis.crossOriginIsolated ? new SharedArrayBuffer(SHARED_BYTES) : null;
    this.progress = this.interrupt && new Int32Array(this.interrupt, 4, 1);
    this.startedAt = performance.now(); // page time, for the benchmark's boot breakdown
    this.worker = new Worker(new URL("./pyodide-worker.js", import.meta.url), { type: "module" });
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = ({ data }) => {
        if (data.type === "progress") this.dispatchEvent(new CustomEvent("progress", { detail: data.phase }));
        else if (data.type === "ready") {
          this.python = data.python;
          this.bootMs = data.ms;
          this.bootPhases = data.phases;
          this.readyAt = performance.now();
          resolve(data);
          this.dispatchEvent(new CustomEvent("ready", { detail: data }));
        } else if (data.type === "boot-error") {
          reject(new Error(data.message));
          this.dispatchEvent(new CustomEvent("boot-error", { detail: data.message }));
        } else this.#answer(data);
      };
    });
    this.ready.catch(() => {});
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.#crashed(event.message || "worker error");
    };
    const root = new URL(this.root.endsWith("/") ? this.root : this.root + "/", document.baseURI).href;
    this.worker.postMessage({ type: "init", files: this.files, root, pythonRoots: this.pythonRoots, pyodide: this.pyodide,
      warmup: warm ? this.warmup : null, interrupt: this.interrupt });
  }

  /** Restart from scratch: used after a crash or a run that would not stop. `warm`: run the warm-up. */
  restart({ warm = true } = {}) {
    this.worker?.terminate();
    this.python = null;
    this.#start({ warm });
    this.dispatchEvent(new CustomEvent("restarted"));
  }

  #crashed(message) {
    const pending = this.pending;
    this.restart();
    if (pending) this.#settle(pending, { type: "crashed", id: pending.id, message });
  }

  #answer(data) {
    const pending = this.pending;
    if (data.type === "failed" && data.fatal) {
      // The interpreter cannot run again (e.g. the JS stack overflowed): boot a new one at once,
      // whoever was waiting for this answer.
      this.restart();
      if (pending && data.id === pending.id) this.#settle(pending, { type: "crashed", id: data.id, message: data.message });
      return;
    }
    if (!pending || data.id !== pending.id) return; // stale: nobody waits for it any more
    if (data.type === "phase") {
      this.#awaitTrace(pending);
      return;
    }
    this.#settle(pending, data);
  }

  /** The code has stopped running; interrupting now would only lose the trace being written. */
  #awaitTrace(pending) {
    if (pending.ended) return;
    pending.ended = true;
    for (const timer of pending.timers) clearTimeout(timer);
    pending.timers = [setTimeout(() => {
      if (this.pending === pending) this.#reboot(pending, "unresponsive");
    }, this.writeTimeoutMs)];
  }

  #settle(pending, answer) {
    for (const timer of pending.timers) clearTimeout(timer);
    this.pending = null;
    // A run stopped at `stopAt` leaves its worker spent (worker_watch.py), unless it was replaced already.
    if (pending.rerun && this.worker === pending.rerunWorker) this.restart();
    // A trace that arrives after Stop or the deadline says why the run ended early; an interrupt that
    // landed before the recorder was running (no trace at all) is that same stop, not a failure.
    if (pending.stopKind && answer.type === "trace") answer = { ...answer, stopKind: pending.stopKind };
    else if (pending.stopKind && answer.type === "failed" && (!answer.message || /KeyboardInterrupt/.test(answer.message))) {
      answer = { type: pending.stopKind, id: answer.id };
    }
    pending.resolve(answer);
  }

  /**
   * Run one case. Resolves with {type: "trace", replay, ms, phases, stopKind?} | {type: "failed" | "crashed" |
   * "runaway" | "stopped" | "unresponsive", message?}. Never rejects.
   */
  run(request) {
    const id = this.nextId++;
    this.boot();
    const result = this.queue.then(() => this.ready.then(
      () => new Promise((resolve) => {
        if (this.interrupt) new Uint8Array(this.interrupt).fill(0);
        const deadline = this.deadlineMs ?? request.limits.deadlineMs;   // the run's own (limits.py), unless overridden
        this.pending = { id, resolve, request, deadline, timers: [], started: performance.now(), ended: false,
          interrupting: false, atStop: 0, rerun: false };
        this.pending.timers.push(setTimeout(() => this.#overdue(id), deadline));
        this.worker.postMessage({ ...request, type: "run", id });
      }),
      (error) => ({ type: "failed", id, message: String(error.message ?? error) })));
    this.queue = result.then(() => undefined);
    return { id, result };
  }

  /** The run outlived its deadline: interrupt it, and reboot if even that does not return. */
  #overdue(id) {
    if (!this.pending || this.pending.id !== id) return;
    this.stop("runaway");
  }

  /** Stop the current run (reader's Stop button, or a deadline); the first stop's kind is the one told. */
  stop(kind = "stopped") {
    const pending = this.pending;
    if (!pending || pending.ended) return;   // nothing runs, or the code has ended: its trace is on its way
    // The code may have ended before the page read the worker's "phase" message (a busy page thread).
    if (this.interrupt && Atomics.load(new Uint8Array(this.interrupt), ENDED)) return this.#awaitTrace(pending);
    pending.stopKind ??= kind;
    if (pending.interrupting) return;
    pending.interrupting = true;
    if (this.progress) pending.atStop = Atomics.load(this.progress, 0);   // where a second run would stop
    if (this.interrupt) this.#interrupt(pending);
    else this.#reboot(pending, kind);
  }

  /**
   * Interrupt the run through shared memory and watch the worker's answer there: stopped code means
   * waiting for the trace; an interrupt taken but dropped is sent again (INTERRUPT_RESENDS times); one
   * not even taken after INTERRUPT_ANSWER_MS (Python never looked: stuck in a C or JS call, or the worker
   * starved) means a reboot, and so do dropped interrupts past the re-sends.
   */
  #interrupt(pending) {
    const shared = new Uint8Array(this.interrupt);
    Atomics.store(shared, SIGNAL, INTERRUPT_SIGINT);
    let sentAt = performance.now();
    let takenAt = null;
    let resends = 0;
    const watch = () => {
      if (this.pending !== pending || pending.ended) return;
      if (Atomics.load(shared, ENDED)) return this.#awaitTrace(pending);
      const now = performance.now();
      if (Atomics.load(shared, SIGNAL) !== 0) {
        if (now - sentAt >= INTERRUPT_ANSWER_MS) return this.#reboot(pending, "unresponsive");
      } else {
        takenAt ??= now;   // first seen taken now: a busy page thread may look late, so time from here
        if (now - takenAt >= INTERRUPT_DROPPED_MS) {
          if (resends >= INTERRUPT_RESENDS) return this.#reboot(pending, "unresponsive");
          resends += 1;
          takenAt = null;
          sentAt = now;
          Atomics.store(shared, SIGNAL, INTERRUPT_SIGINT);
        }
      }
      pending.timers.push(setTimeout(watch, INTERRUPT_POLL_MS));
    };
    pending.timers.push(setTimeout(watch, INTERRUPT_POLL_MS));
  }

  #reboot(pending, kind) {
    // A run that recorded nothing by its stop (its worker died, or it hung before the recorder began) has
    // no trace to keep: it is not run again, and the reader is told the worker was restarted.
    if (kind === "unresponsive" && !pending.ended && !pending.rerun && this.progress && pending.atStop > 0) {
      return this.#rerun(pending, { probeFrom: pending.atStop });
    }
    this.restart();
    this.#settle(pending, { type: kind, id: pending.id });
  }

  /**
   * The run would not stop: run it again in a fresh worker to where it was (worker_watch.py): first a
   * probe, which ends a little past that count or, stuck in C, stops counting; then, if stuck, a last
   * run told to end at the probe's count. The trace (ended as stopped at the time limit) answers the same
   * request; a run again that does not get there either is given up as unresponsive.
   */
  #rerun(pending, told) {
    for (const timer of pending.timers) clearTimeout(timer);
    Object.assign(pending, { timers: [], rerun: told.probeFrom === undefined ? "last" : "probe",
      interrupting: false, ended: false });
    this.restart({ warm: false });
    pending.rerunWorker = this.worker;
    this.ready.then(() => {
      if (this.pending !== pending) return;
      new Uint8Array(this.interrupt).fill(0);
      pending.timers.push(setTimeout(() => this.#overdue(pending.id), pending.deadline + RERUN_SLACK_MS));
      if (told.probeFrom !== undefined) this.#watchProbe(pending, told.probeFrom);
      this.worker.postMessage({ ...pending.request, ...told, type: "run", id: pending.id });
    }, (error) => {
      if (this.pending === pending) this.#settle(pending, { type: "failed", id: pending.id, message: String(error.message ?? error) });
    });
  }

  /** A probe stuck in C (stuck-probe.js) is run once more, told to end where it stands. */
  #watchProbe(pending, from) {
    watchStuckProbe({
      progress: this.progress, from, timers: pending.timers,
      watching: () => this.pending === pending && !pending.ended && pending.rerun === "probe",
      stuck: (count) => count === 0 ? this.#reboot(pending, "unresponsive")   // nothing recorded: no trace to keep
        : this.#rerun(pending, { stopAt: count }),
    });
  }
}
