// Put the repo's Python trees (`py/`, and the test-only lessons' `tests/fixtures/py/`) into a
// Pyodide's in-memory FS under /repo and on sys.path, the same layout the browser worker uses.
// Shared by the test driver and the benchmark.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const MOUNT = "/repo";

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    if (name === "__pycache__") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (name.endsWith(".py")) yield path;
  }
}

const ROOTS = ["tests/fixtures/py", "py"];

/** Copy every .py file under the Python roots into `pyodide`'s FS and put them first on sys.path. */
export function mountRepo(pyodide) {
  for (const root of ROOTS) {
    for (const file of sourceFiles(join(REPO, root))) {
      const target = `${MOUNT}/${relative(REPO, file)}`;
      pyodide.FS.mkdirTree(dirname(target));
      pyodide.FS.writeFile(target, readFileSync(file));
    }
    pyodide.runPython(`import sys; sys.path.insert(0, "${MOUNT}/${root}")`);
  }
}
