"""A million steps in the page: record, hand over and step through a ~1,000,000-event run in Chromium.

Next to the built lesson site this writes a small page (`bench-million.html`) that uses the site's
own modules: the Python worker (`worker-client.js`, booted exactly as a lesson page boots it) runs
the capacity program of bench/capacity.mjs (a loop calling a helper, ~3 events per iteration) as a
live run with limits that admit a million events, and the page revives the replay the worker built
(`Replay.fromParts`) and asks what a paint asks (position, stack, locals, output). Measured on the
page's clock: click → ready to step (record + index in the worker + transfer + revive), the longest
main-thread task in that time (PerformanceObserver "longtask": any task over 50 ms is one), each
kind of move afterwards, and the page's JS heap. Not a test; part of `make bench` (section `million`).

    python bench/million.py        # a quick look: builds the site, prints one JSON object
"""
from __future__ import annotations

from pathlib import Path

from page import bench_page_result, run_standalone, write_bench_page

ITERATIONS = 327_933      # ~1,000,200 events (3.05 per iteration)
CHAIN = 250_000           # links made by `chain`: past a million events, so the run ends at the event cap
PROGRAM = (Path(__file__).parent / "capacity_program.py").read_text(encoding="utf-8")  # bench/capacity.mjs's too

# The page's module (a file of its own: the site's Content-Security-Policy allows no inline script).
SCRIPT = '''import { WorkerClient } from "./assets/js/worker-client.js";
import { Replay } from "./assets/js/replay.js";

const data = JSON.parse(document.getElementById("bench-data").textContent);
const longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push([e.startTime, e.duration]); })
  .observe({ type: "longtask", buffered: true });
const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const request = (n) => ({ source: "py/stepwise_million/capacity.py", module: "stepwise_million.capacity",
  setup: "from stepwise_million.capacity import main\\n", entry: `result = main(${n})\\n`, function: "main",
  case: "million", limits: { timeLimit: 60, maxEvents: 1_000_000, deadlineMs: 120_000 } });

function paintQueries(replay) {
  const p = replay.position();
  const at = p.finished ? replay.eventCount - 1 : p.index;
  return [replay.stackAt(at), replay.localsAt(at), replay.stdoutUntil(p.finished ? replay.eventCount : p.index)];
}

async function once(n) {
  await frame();
  const clicked = performance.now();
  const answer = await data.worker.run(request(n)).result;
  const arrived = performance.now();
  if (answer.type !== "trace") throw new Error(`run answered ${answer.type}: ${answer.message ?? ""}`);
  const replay = Replay.fromParts(answer.replay);
  replay.start();
  paintQueries(replay);
  const revived = performance.now();
  await frame();
  const ready = performance.now();
  const during = longTasks.filter(([start, duration]) => start + duration >= clicked && start <= ready);
  return { replay, clicked, figures: {
    events: replay.eventCount, stats: replay.trace.stats, end: replay.trace.end.status, gap: replay.gapInfo(),
    click_to_ready_ms: ready - clicked, worker_ms: answer.ms, worker_phases: answer.phases,
    message_ms: arrived - clicked - answer.ms, revive_ms: revived - arrived,
    longest_main_task_ms: Math.max(0, ...during.map(([, d]) => d)), long_tasks: during.length } };
}

/**
 * A run whose every step holds numbered objects (a linked list begun again every 20 links), up to the
 * event cap: does it fit the page (events kept, ready, a step's queries and memory picture data)?
 */
async function objectsRun() {
  const clicked = performance.now();
  const answer = await data.worker.run({ ...request(0), setup: "from stepwise_million.capacity import chain\\n",
    entry: `result = chain(${data.chain})\\n`, function: "chain", case: "chain" }).result;
  if (answer.type !== "trace") throw new Error(`the objects run answered ${answer.type}: ${answer.message ?? ""}`);
  const replay = Replay.fromParts(answer.replay);
  replay.start();
  paintQueries(replay);
  await frame();
  const ready = performance.now();
  const { objectsReached } = await import("./assets/js/memory-picture.js");
  const move = time("step over + paint queries + objects reached", 300, () => {}, () => {
    if (replay.stepOver().reason === "end") replay.start();
    const [stack] = paintQueries(replay);
    const at = replay.position().index;
    objectsReached(stack.map((frame) => replay.localsAt(at, frame.id)).reverse(), replay.returnAt(at));
  });
  return { events: replay.eventCount, stats: replay.trace.stats, end: replay.trace.end.status, gap: replay.gapInfo(),
    click_to_ready_ms: ready - clicked, worker_ms: answer.ms, move,
    heap_mb: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null };
}

function time(label, count, before, move) {
  const ms = [];
  for (let k = 0; k < count; k++) {
    before(k);
    const t0 = performance.now();
    move();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { label, median: ms[ms.length >> 1], p95: ms[Math.floor(ms.length * 0.95)], max: ms.at(-1) };
}

try {
  const worker = data.worker = new WorkerClient(data.options);
  await worker.boot();
  await once(1000);                       // warm: the first run of a page compiles the recorder
  const runs = [];
  let last = null;
  for (let r = 0; r < data.repeats; r++) {
    last = await once(data.iterations);
    runs.push(last.figures);
  }
  const replay = last.replay;
  const m = replay.totalStops;
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const seek = () => replay.seekStep(1 + Math.floor(random() * m));
  const withPaint = (move) => () => { move(); paintQueries(replay); };
  const moves = [
    time("step into + paint queries", 300, () => random() < 0.05 && seek(), withPaint(() => replay.stepInto())),
    time("step over + paint queries", 300, () => random() < 0.05 && seek(), withPaint(() => replay.stepOver())),
    time("step back + paint queries", 300, () => random() < 0.05 && seek(), withPaint(() => replay.stepBack())),
    time("timeline seek + paint queries", 300, () => {}, withPaint(seek)),
  ];
  replay.setBreakpoint(2);
  replay.start();
  moves.push(time("continue to breakpoint + paint queries", 300, () => {}, withPaint(() => {
    if (replay.continue().reason === "end") replay.start();
  })));
  replay.clearBreakpoints();
  const conditional = [];
  for (let k = 1; k <= 5; k++) {
    replay.clearBreakpoints();
    replay.setBreakpoint(9, { condition: `i == ${Math.floor(k * data.iterations / 6)}` });
    replay.start();
    const t0 = performance.now();
    const move = replay.continue();
    conditional.push(performance.now() - t0);
    if (move.reason !== "breakpoint") throw new Error("the conditional breakpoint was not hit");
  }
  conditional.sort((a, b) => a - b);
  moves.push({ label: "first continue to a conditional breakpoint (i == k)", median: conditional[2],
               p95: conditional[4], max: conditional[4] });
  const heap = performance.memory ? { used_mb: performance.memory.usedJSHeapSize / 1e6 } : null;
  window.__million = { runs, moves, heap, objects: await objectsRun() };
} catch (error) {
  window.__million = { error: String(error?.stack ?? error) };
}
'''


def prepare(site: Path, iterations: int = ITERATIONS, repeats: int = 3) -> str:
    """Write the capacity program and the bench page into the built `site`; return the page's path."""
    return write_bench_page(site, "bench-million", "stepwise_million", {"capacity.py": PROGRAM}, SCRIPT,
                            {"iterations": iterations, "repeats": repeats, "chain": CHAIN})


def bench_million(browser, new_page, server, repeats: int = 3) -> dict:
    result = bench_page_result(browser, new_page, server, prepare(server.out, repeats=repeats), "__million", 300_000)
    result["iterations"] = ITERATIONS
    return result


if __name__ == "__main__":
    run_standalone(bench_million, "stepwise-million-")
