// Compile the Python the worker writes into Pyodide's FS, with the pinned Pyodide, into .pyc files
// where its imports look for them (__pycache__/NAME.cpython-314.pyc beside each source). Unchecked
// hash-based: valid whatever the file's time in the worker's FS. A boot then compiles nothing of the
// recorder (hundreds of milliseconds on a phone), and a run imports the shown module without compiling.
// Code objects carry the path the worker mounts the file at (/repo/<path>), as a compile there would.
//   node site/pyc/compile-pyc.mjs OUT_DIR REPO_ROOT FILE...   → JSON list of the .pyc paths written
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadPyodide } from "pyodide";

const MOUNT = "/repo";
const [out, root, ...files] = process.argv.slice(2);
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => process.stderr.write(`${line}\n`) });
const made = [];
const compile = pyodide.runPython(`
import importlib.util
from importlib._bootstrap_external import _code_to_hash_pyc

def compile_pyc(path, data):
    data = bytes(data)
    code = compile(data, "${MOUNT}/" + path, "exec", dont_inherit=True)
    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
    return importlib.util.cache_from_source("${MOUNT}/" + path)[len("${MOUNT}/"):], bytes(pyc)
compile_pyc`);
for (const file of files) {
  const [target, pyc] = compile(file, new Uint8Array(readFileSync(join(root, file)))).toJs();
  mkdirSync(dirname(join(out, target)), { recursive: true });
  writeFileSync(join(out, target), pyc);
  made.push(target);
}
process.stdout.write(JSON.stringify(made));
