"""The heavy programs in the page: each of bench/heavy.py's workloads as a live run in Chromium, at the
page's default limits (py/steptrace/limits.py), click → ready to step.

Next to the built lesson site this writes `bench-heavy.html`, which boots the site's own worker
(`worker-client.js`, as a lesson page does), warms it with one small run, then runs each program as a
reader's live run would and revives the replay (`Replay.fromParts`), asking what a paint asks. Measured
on the page's clock: click → ready (record + pack + index in the worker + transfer + revive), the
worker's share, events, whether the run finished and whether its end is kept. Not a test; part of
`make bench` (section `heavy_page`).

    python bench/heavy_page.py        # a quick look: builds the site, prints one JSON object
"""
from __future__ import annotations

import sys
from pathlib import Path

from heavy import WORKLOADS
from page import bench_page_result, run_standalone, write_bench_page

sys.path.insert(0, str(Path(__file__).parent.parent / "py"))
from steptrace.limits import Limits  # noqa: E402 - the page's own limits, from the one definition

PROGRAM = (Path(__file__).parent / "heavy_program.py").read_text(encoding="utf-8")
SHOWN = {"string_50k": "build_string", "list_200k": "build_list", "nesting_10k": "nest",
         "recursion_50k": "count_down", "dijkstra_grid": "shortest_path"}

SCRIPT = '''import { WorkerClient } from "./assets/js/worker-client.js";
import { Replay } from "./assets/js/replay.js";

const data = JSON.parse(document.getElementById("bench-data").textContent);
const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const request = (entry, fn) => ({ source: "py/stepwise_heavy/heavy_program.py", module: "stepwise_heavy.heavy_program",
  setup: "from stepwise_heavy.heavy_program import *\\n", entry: entry + "\\n", function: fn, case: "heavy",
  limits: data.limits });

async function once(worker, entry, fn) {
  await frame();
  const clicked = performance.now();
  const answer = await worker.run(request(entry, fn)).result;
  if (answer.type !== "trace") return { error: `${answer.type}: ${answer.message ?? ""}`.slice(0, 300) };
  const replay = Replay.fromParts(answer.replay);
  replay.start();
  const last = replay.eventCount - 1;
  replay.stackAt(last);
  replay.localsAt(last);
  await frame();
  return { click_to_ready_ms: performance.now() - clicked, worker_ms: answer.ms, phases: answer.phases,
           events: replay.eventCount,
           stats: replay.trace.stats, end: replay.trace.end.status, reason: replay.trace.end.reason ?? null,
           gap: replay.gapInfo() };
}

async function warmWorker() {
  const worker = new WorkerClient(data.options);
  await worker.boot();
  await once(worker, "build_list(100)", "build_list");     // warm: the first run of a page compiles the recorder
  return worker;
}

try {
  let worker = await warmWorker();
  const out = {};
  for (const [name, { entry, fn }] of Object.entries(data.workloads)) {
    out[name] = [];
    for (let r = 0; r < data.repeats; r++) {
      const run = await once(worker, entry, fn);
      out[name].push(run);
      if (run.error) {                  // a crashed interpreter is not measured again: a fresh one for the next
        worker.worker?.terminate();
        worker = await warmWorker();
        break;
      }
    }
  }
  window.__heavy = out;
} catch (error) {
  window.__heavy = { error: String(error?.stack ?? error) };
}
'''


def prepare(site: Path, repeats: int) -> str:
    workloads = {name: {"entry": entry, "fn": SHOWN[name]} for name, entry in WORKLOADS.items()}
    return write_bench_page(site, "bench-heavy", "stepwise_heavy", {"heavy_program.py": PROGRAM}, SCRIPT,
                            {"workloads": workloads, "repeats": repeats, "limits": Limits().for_page()})


def bench_heavy_page(browser, new_page, server, repeats: int = 1) -> dict:
    """Per program: the median click → ready over `repeats` runs on one warm worker, with what ran."""
    result = bench_page_result(browser, new_page, server, prepare(server.out, repeats), "__heavy", 600_000)
    summary = {"limit_s": Limits().seconds}
    for name, runs in result.items():
        if runs[0].get("error"):
            summary[name] = {"error": runs[0]["error"]}
            continue
        runs.sort(key=lambda run: run["click_to_ready_ms"])
        middle = runs[len(runs) // 2]
        summary[name] = {"click_to_ready_ms": round(middle["click_to_ready_ms"]),
                         "worker_ms": round(middle["worker_ms"]), "events": middle["events"],
                         "kept": middle["stats"]["kept"], "end": middle["end"], "reason": middle["reason"],
                         "gap": middle["gap"], "phases": middle["phases"], "runs": len(runs)}
    return summary


if __name__ == "__main__":
    run_standalone(bench_heavy_page, "stepwise-heavy-")
