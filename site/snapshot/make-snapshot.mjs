// Make a Pyodide memory snapshot of a booted interpreter with the recorder already imported.
//
// The worker restores it instead of booting Python from scratch and compiling the recorder (several
// times faster). It holds the pinned Pyodide, stdlib modules and the recorder at /repo/py — the same
// paths the worker uses — but never a lesson's own sources, which are imported after the restore.
//   node site/snapshot/make-snapshot.mjs OUT_FILE REPO_ROOT py/steptrace/a.py py/steptrace/b.py ...
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadPyodide } from "pyodide";

const [out, root, ...files] = process.argv.slice(2);
const MOUNT = "/repo";
const pyodide = await loadPyodide({ _makeSnapshot: true });
for (const file of files) {
  const target = `${MOUNT}/${file}`;
  pyodide.FS.mkdirTree(dirname(target));
  pyodide.FS.writeFile(target, readFileSync(join(root, file)));
}
pyodide.runPython(`
import sys
sys.path.insert(0, "${MOUNT}/py")
import copy, json, pathlib, tempfile, uuid  # what the lessons' code and setups use
from steptrace.runner import run_case
`);
writeFileSync(out, pyodide.makeMemorySnapshot());
