// What watching a run costs in the pinned Pyodide (py/steptrace/worker_watch.py): the same loop recorded
// plain, watched as a first run (the count written every 8 events) and as a probe (at every event),
// interleaved in one interpreter so the machine's noise falls on all three alike.
//   node bench/watched.mjs [reps=9] [n=30000]
// Prints each kind's median seconds and events/s, and the ratios to plain.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
import { mountRepo } from "../tools/pyodide_node/repo-fs.mjs";

const reps = Number(process.argv[2] ?? 9);
const n = Number(process.argv[3] ?? 30_000);
const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
mountRepo(pyodide);
pyodide.FS.mkdirTree("/bench/heavy");
pyodide.FS.writeFile("/bench/heavy/__init__.py", "");
pyodide.FS.writeFile("/bench/heavy/heavy_program.py", readFileSync(new URL("./heavy_program.py", import.meta.url), "utf8"));
pyodide.runPython(`import sys; sys.path.insert(0, "/bench")`);
const progress = new Int32Array(new SharedArrayBuffer(4));
const measure = pyodide.runPython(`
import json, time
from steptrace.runner import run_case
from steptrace.worker_watch import WorkerWatch
def measure(kind, progress, n):
    watch = None
    if kind == "first run":
        watch = WorkerWatch(progress, lambda trace: None)
    elif kind == "probe":
        watch = WorkerWatch(progress, lambda trace: None, probe_from=10 ** 9)
    started = time.perf_counter()
    packed = run_case("heavy/heavy_program.py", "heavy.heavy_program", "from heavy.heavy_program import *\\n",
                      f"build_list({n})\\n", time_limit=600, form="packed", watch=watch)
    seconds = time.perf_counter() - started
    return [seconds, json.loads(packed["header"])["stats"]["events"]]
measure`);
const kinds = ["plain", "first run", "probe"];
const seconds = Object.fromEntries(kinds.map((kind) => [kind, []]));
let events = 0;
measure("plain", progress, n);   // warm
for (let rep = 0; rep < reps; rep++) {
  for (const kind of kinds) {
    const [s, count] = measure(kind, progress, n).toJs();
    seconds[kind].push(s);
    events = count;
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const plain = median(seconds.plain);
for (const kind of kinds) {
  const s = median(seconds[kind]);
  console.log(`${kind.padEnd(10)} ${s.toFixed(3)} s  ${Math.round(events / s).toLocaleString("en")} ev/s  ×${(s / plain).toFixed(3)}`);
}
console.log(`(${events.toLocaleString("en")} events, median of ${reps} interleaved runs)`);
