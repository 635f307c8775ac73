// Trace capacity: record a ~1,000,000-event run in the pinned Pyodide (under node), in the packed
// form the worker uses, index it as the worker does (site/js/trace-columns.js + replay.js), hand it
// over as the page receives it (structured clone with transfer, then Replay.fromParts), and time each
// part and every kind of move at that size. The JSON document's load is timed too (the CLI's form).
//
//   node bench/capacity.mjs [--events 1000000] [--records 1] [--loads 3] [--moves 400]
//
// Prints one JSON object on stdout (progress goes to stderr). Part of `make bench`.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
import { mountRepo } from "../tools/pyodide_node/repo-fs.mjs";
import { Replay } from "../site/js/replay.js";
import { fromPacked } from "../site/js/trace-columns.js";

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, n, all) => {
  if (arg.startsWith("--")) pairs.push([arg.slice(2), all[n + 1]]);
  return pairs;
}, []));
const TARGET = Number(args.events ?? 1_000_000);
const RECORDS = Number(args.records ?? 1);
const LOADS = Number(args.loads ?? 3);
const MOVES = Number(args.moves ?? 400);
const log = (...parts) => process.stderr.write(`[capacity] ${parts.join(" ")}\n`);

// The recorded program, shared with bench/million.py (line numbers matter: breakpoints below refer to them).
const MODULE = readFileSync(new URL("./capacity_program.py", import.meta.url), "utf8");
const LINE = { helperBody: 2, loopBody: 9, callHelper: 11, ret: 12 };

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))];
  return { n: sorted.length, min: sorted[0], median: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) };
}

// ---------------------------------------------------------------- record in Pyodide

const booted = performance.now();
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => log("py:", line) });
mountRepo(pyodide);
pyodide.FS.mkdirTree("/bench/cap");
pyodide.FS.writeFile("/bench/cap/stepwise_capacity.py", MODULE);
pyodide.runPython(`import sys; sys.path.insert(0, "/bench")`);
log(`Pyodide ${pyodide.version} booted in ${((performance.now() - booted) / 1000).toFixed(1)} s`);

const record = pyodide.runPython(`
import json, time
from steptrace.runner import run_case

def record(n, max_events, form="json"):
    started = time.perf_counter()
    text = run_case("cap/stepwise_capacity.py", "cap.stepwise_capacity", "from cap.stepwise_capacity import main\\n",
                    f"result = main({n})\\n", function="main", case="capacity",
                    max_events=max_events, time_limit=600.0, form=form)
    total = (time.perf_counter() - started) * 1000
    return text, total
record`);
pyodide.FS.writeFile("/bench/cap/__init__.py", "");

function recordOnce(n) {
  const proxy = record(n, 1_000_000);
  const [text, totalMs] = proxy.toJs();
  proxy.destroy();
  return { text, totalMs };
}

/** A packed trace with buffers of its own (transferring a replay's parts detaches the columns it views). */
function copyOf(packed) {
  return { ...packed, columns: Object.fromEntries(Object.entries(packed.columns).map(([k, v]) => [k, v.slice()])) };
}

/** What the worker does with one run: record packed, read the columns, build the replay, take it apart. */
function recordPacked(n) {
  const t0 = performance.now();
  const proxy = record.callKwargs(n, 1_000_000, { form: "packed" });
  const t1 = performance.now();
  const pair = proxy.toJs({ dict_converter: Object.fromEntries });
  proxy.destroy();
  const [packed, pythonMs] = pair;
  const t2 = performance.now();
  const columns = fromPacked(packed);
  const built = new Replay(columns);
  const t3 = performance.now();
  const { parts, transfer } = built.parts();
  const header = JSON.parse(packed.header);
  const bytes = Object.values(packed.columns).reduce((sum, b) => sum + b.byteLength, 0)
    + Buffer.byteLength(packed.header) + Buffer.byteLength(packed.previews);
  return { packed: copyOf(packed), parts, transfer, header, times: { run_case_ms: pythonMs, to_js_ms: t2 - t1, index_ms: t3 - t2,
                                              worker_total_ms: t3 - t0 }, bytes };
}

// Events grow linearly with n: calibrate on two small runs, then aim just above TARGET
// (the kept table holds up to 1,003,520 events for max_events=1,000,000: no gap).
const small = [2000, 4000].map((n) => JSON.parse(recordOnce(n).text).stats.events);
const perN = (small[1] - small[0]) / 2000;
const fixed = small[0] - perN * 2000;
const n = Math.ceil((TARGET + 200 - fixed) / perN);
log(`${perN} events per iteration; n = ${n}`);

const records = [];
let json = null;
for (let r = 0; r < RECORDS; r++) {
  const t0 = performance.now();
  const { text, totalMs } = recordOnce(n);
  const wallMs = performance.now() - t0;
  const doc = JSON.parse(text);
  records.push({ elapsed_ms: doc.stats.elapsed_ms, run_case_ms: totalMs, wall_ms: wallMs,
                 events: doc.stats.events, kept: doc.stats.kept, gap: doc.gap, end: doc.end.status,
                 bytes: Buffer.byteLength(text, "utf8") });
  log(`record ${r + 1}: ${doc.stats.events} events, ${(records.at(-1).bytes / 1e6).toFixed(1)} MB, `
      + `traced ${(doc.stats.elapsed_ms / 1000).toFixed(1)} s, run_case ${(totalMs / 1000).toFixed(1)} s`);
  json = text;
}
// Untraced reference for the same program.
const plain = pyodide.runPython(`
t = []
for _ in range(3):
    doc = json.loads(run_case("cap/stepwise_capacity.py", "cap.stepwise_capacity", "from cap.stepwise_capacity import main\\n",
                              f"result = main(${n})\\n", record=False))
    t.append(doc["stats"]["elapsed_ms"])
min(t)`);

// ---------------------------------------------------------------- the packed path (what the page runs)

const packedRuns = [];
let parts = null, transfer = null, kept = null;
for (let r = 0; r < RECORDS; r++) {
  const got = recordPacked(n);
  ({ parts, transfer } = got);
  kept = got.packed;
  packedRuns.push({ ...got.times, elapsed_ms: got.header.stats.elapsed_ms, events: got.header.stats.events,
                    bytes: got.bytes });
  log(`packed ${r + 1}: run_case ${(got.times.run_case_ms / 1000).toFixed(2)} s (traced `
      + `${(got.header.stats.elapsed_ms / 1000).toFixed(2)} s), to JS ${got.times.to_js_ms.toFixed(0)} ms, `
      + `index ${got.times.index_ms.toFixed(0)} ms, ${(got.bytes / 1e6).toFixed(1)} MB`);
}
// The page's side: postMessage's structured clone with transfer, then fromParts (one task on the page).
const handOver = [];
for (let r = 0; r < LOADS; r++) {
  const { parts: p, transfer: t } = r === 0 ? { parts, transfer } : new Replay(fromPacked(copyOf(kept))).parts();
  const t0 = performance.now();
  const cloned = structuredClone(p, { transfer: t });
  const t1 = performance.now();
  const revived = Replay.fromParts(cloned);
  revived.start();
  uiQueries(revived);
  const t2 = performance.now();
  handOver.push({ clone_ms: t1 - t0, revive_and_first_paint_queries_ms: t2 - t1 });
}
log(`hand-over: ${handOver.map((h) => (h.clone_ms + h.revive_and_first_paint_queries_ms).toFixed(1)).join("/")} ms`);

// ---------------------------------------------------------------- replay in node

const loads = [];
let replay = null;
for (let r = 0; r < LOADS; r++) {
  replay = null;
  globalThis.gc?.();
  const t0 = performance.now();
  const trace = JSON.parse(json);
  const t1 = performance.now();
  replay = new Replay(trace);
  const t2 = performance.now();
  loads.push({ parse_ms: t1 - t0, construct_ms: t2 - t1, total_ms: t2 - t0 });
}
log(`load: parse ${loads.map((l) => l.parse_ms.toFixed(0)).join("/")} ms, `
    + `construct ${loads.map((l) => l.construct_ms.toFixed(0)).join("/")} ms`);
const trace = replay.trace;
// Moves are timed on what the page has: the packed form, built, handed over and revived.
{
  const { parts: p, transfer: t } = new Replay(fromPacked(copyOf(kept))).parts();
  replay = Replay.fromParts(structuredClone(p, { transfer: t }));
}

/** What the page asks after each move (debugger.js #render): position, stack, locals, output. */
function uiQueries(r) {
  const p = r.position();
  const last = p.finished ? r.eventCount - 1 : p.index;
  r.stackAt(last);
  r.localsAt(last);
  r.stdoutUntil(p.finished ? r.eventCount : p.index);
  return p;
}

/**
 * Time `count` moves: `setup` once (breakpoints), `before` untimed before each move (positioning),
 * then the move alone and the move plus the queries the page makes to render it.
 */
function timeMoves(label, setup, before, move, count) {
  setup();
  const bare = [], withUi = [];
  for (let k = 0; k < count; k++) {
    before(k);
    const t0 = performance.now();
    const m = move();
    const t1 = performance.now();
    uiQueries(replay);
    const t2 = performance.now();
    bare.push(t1 - t0);
    withUi.push(t2 - t0);
    if (m.reason === "end") replay.start();
  }
  return { label, move: summary(bare), with_ui_queries: summary(withUi) };
}

const m = replay.totalStops;
const rand = (() => { let s = 12345; return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648; })();
const seekRandom = () => replay.seekStep(1 + Math.floor(rand() * m));
const moves = [];
const none = () => replay.clearBreakpoints();
const sometimes = (p) => () => { if (rand() < p) seekRandom(); };
seekRandom();
moves.push(timeMoves("step into", none, sometimes(0.05), () => replay.stepInto(), MOVES));
moves.push(timeMoves("step over", none, sometimes(0.05), () => replay.stepOver(), MOVES));
moves.push(timeMoves("step out (from inside helper)", none, () => {
  seekRandom();
  for (let g = 0; g < 1000 && replay.position().frame === 1; g++) replay.stepInto();
}, () => replay.stepOut(), MOVES));
moves.push(timeMoves("step back", () => { none(); replay.toEnd(); }, () => {
  if (rand() < 0.1) (rand() < 0.5 ? replay.toEnd() : seekRandom());
}, () => replay.stepBack(), MOVES));
moves.push(timeMoves("reverse step into", () => { none(); replay.toEnd(); }, () => {
  if (rand() < 0.1) (rand() < 0.5 ? replay.toEnd() : seekRandom());
}, () => replay.reverseStepInto(), MOVES));
moves.push(timeMoves("reverse continue to breakpoint (hit every ~300 events)", () => {
  none();
  replay.setBreakpoint(LINE.helperBody);
  replay.toEnd();
}, () => {}, () => replay.reverseContinue(), MOVES));
moves.push(timeMoves("continue to breakpoint (hit every ~300 events)", () => {
  none();
  replay.setBreakpoint(LINE.helperBody);
  replay.start();
}, () => {}, () => replay.continue(), MOVES));
moves.push(timeMoves("continue from start to a breakpoint hit once at the end", () => {
  none();
  replay.setBreakpoint(LINE.ret);
}, () => replay.start(), () => replay.continue(), 50));
moves.push(timeMoves("timeline seek (random step)", none, () => {}, seekRandom, MOVES));
// A conditional breakpoint: the first continue evaluates the condition along the way.
const conditional = [];
for (let k = 0; k < 5; k++) {
  replay.clearBreakpoints();
  const at = Math.floor((k + 1) * n / 6);
  replay.setBreakpoint(LINE.loopBody, { condition: `i == ${at}` });
  replay.start();
  const t0 = performance.now();
  const mv = replay.continue();
  conditional.push(performance.now() - t0);
  if (mv.reason !== "breakpoint") throw new Error(`conditional breakpoint i == ${at} not hit: ${JSON.stringify(mv)}`);
}
moves.push({ label: "continue to conditional breakpoint (i == k, first continue)", move: summary(conditional) });
replay.clearBreakpoints();

const output = {
  pyodide: pyodide.version, node: process.version,
  program: MODULE, iterations: n,
  record: records, untraced_ms: plain, packed: packedRuns, hand_over: handOver,
  trace: { events: trace.stats.events, kept: trace.stats.kept, gap: trace.gap, stops: m,
           frames: trace.frames.length, values: trace.values.length, deltas: trace.locals.length,
           bytes: Buffer.byteLength(json, "utf8") },
  load: loads,
  moves,
  heap_mb: Math.round(process.memoryUsage().heapUsed / 1e6),
};
process.stdout.write(JSON.stringify(output) + "\n");
process.exit(0);
