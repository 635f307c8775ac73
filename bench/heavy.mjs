// The programs of bench/heavy_program.py in the pinned Pyodide under node, untraced and traced in the
// packed form the page's worker uses (bench/heavy.py runs this and summarises it).
//   node bench/heavy.mjs '{"workloads": {name: entry}, "setup", "source", "module", "limit", "reps"}'
// Peak memory is the WebAssembly heap's size after each run (it only grows): a fresh Pyodide per program.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
import { mountRepo } from "../tools/pyodide_node/repo-fs.mjs";
import { fromPacked } from "../site/js/trace-columns.js";
import { objectChanges } from "../site/js/object-changes.js";
import { TraceIndex } from "../site/js/trace-index.js";

const request = JSON.parse(process.argv[2]);
const PROGRAM = readFileSync(new URL("./heavy_program.py", import.meta.url), "utf8");
const out = {};
for (const [name, entry] of Object.entries(request.workloads)) {
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
  mountRepo(pyodide);
  pyodide.FS.mkdirTree("/bench/heavy");
  pyodide.FS.writeFile("/bench/heavy/__init__.py", "");
  pyodide.FS.writeFile("/bench/heavy/heavy_program.py", PROGRAM);
  pyodide.runPython(`import sys; sys.path.insert(0, "/bench")`);
  const heapMb = () => pyodide._module.HEAP8.length / 2 ** 20;
  const measure = pyodide.runPython(`
import time
from steptrace.runner import run_case
def measure(setup, entry, traced, limit, source, module):
    started = time.perf_counter()
    if not traced:
        namespace = {}
        exec(setup, namespace)
        exec(entry, namespace)
        return {"s": time.perf_counter() - started}
    packed = run_case(source, module, setup, entry, time_limit=limit, form="packed")
    import json
    header = json.loads(packed["header"])
    size = sum(len(v) for v in packed["columns"].values()) + len(packed["header"]) + len(packed["previews"])
    return {"s": time.perf_counter() - started, "events": header["stats"]["events"], "kept": header["stats"]["kept"],
            "gap": header.get("gap"), "end": header["end"]["status"], "reason": header["end"]["reason"], "bytes": size,
            "packed": packed}
measure`);
  const runs = { untraced: [], traced: [] };
  for (const traced of [false, true]) {
    for (let rep = 0; rep < request.reps; rep++) {
      const result = measure(request.setup, entry, traced, request.limit, request.source, request.module)
        .toJs({ dict_converter: Object.fromEntries });
      if (result.packed) Object.assign(result, indexTimes(result.packed));
      delete result.packed;
      runs[traced ? "traced" : "untraced"].push({ ...result, peak_mb: heapMb() });
    }
  }
  out[name] = runs;
  process.stderr.write(`[heavy] ${name} done\n`);
}
console.log(JSON.stringify(out));

/**
 * The page's indexing of one traced run, as its worker does it (the packed form): the whole index, and of it
 * the object changes where-from reads (object-changes.js), interleaved, 3 times each; the medians.
 */
function indexTimes(packed) {
  const whole = [], objects = [];
  for (let rep = 0; rep < 3; rep++) {
    let t0 = performance.now();
    const index = new TraceIndex(fromPacked(packed));
    whole.push(performance.now() - t0);
    t0 = performance.now();
    objectChanges(index.locals, index.frameCount);
    objects.push(performance.now() - t0);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[1];
  return { index_ms: median(whole), objects_ms: median(objects) };
}
