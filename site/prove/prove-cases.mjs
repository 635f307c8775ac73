// Prove a lesson's cases at build time: run each one in the pinned Pyodide (under node) exactly as
// the page's worker will, and report how it ended with its whole trace. build.py decides what is an
// authoring mistake, and ships each trace so the page shows a case without booting Python.
//
//   node prove-cases.mjs REPO < request.json > one JSON line per case
//   request: {files: [repo path], roots: [repo path of a folder to import from],
//             cases: [{function, case, source, module, setup, entry, seconds, events}]}
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadPyodide } from "pyodide";

const repo = process.argv[2];
const request = JSON.parse(readFileSync(0, "utf-8"));
const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {} });
for (const path of request.files) {
  const target = `/repo/${path}`;
  pyodide.FS.mkdirTree(dirname(target));
  pyodide.FS.writeFile(target, readFileSync(join(repo, path)));
}
pyodide.runPython(`import sys\nfor root in ${JSON.stringify(request.roots.map((r) => `/repo/${r}`))}:\n    sys.path.insert(0, root)`);
const runCase = pyodide.runPython("from steptrace.runner import run_case\nrun_case");
for (const item of request.cases) {
  let answer;
  try {
    const trace = runCase.callKwargs(item.source, item.module, item.setup, item.entry, {
      function: item.function, case: item.case, time_limit: item.seconds, max_events: item.events,
    });
    const doc = JSON.parse(trace);
    answer = { ok: true, end: doc.end, stdout: doc.stdout_text.slice(0, 4000), events: doc.stats.events,
      faults: doc.stats.internal_errors, trace };
  } catch (error) {
    answer = { ok: false, error: String(error?.message ?? error).slice(-2000) };
  }
  process.stdout.write(JSON.stringify({ function: item.function, case: item.case, ...answer }) + "\n");
}
