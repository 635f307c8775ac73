// Import every module of Pyodide's standard library, one after another, and say how each went.
//   node import-all.mjs STDLIB_ZIP [REST_ZIP LAZY_STDLIB_PY]  < names (one per line)  > {name: "ok" | error}
// With REST_ZIP: Python boots from STDLIB_ZIP (the site's booted part) and py/lazy_stdlib.py fetches
// REST_ZIP on first need, as the page's worker does; without it, from npm's whole archive.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [stdlib, rest, finder] = process.argv.slice(2);
const pyodide = await loadPyodide({ stdLibURL: stdlib, stdout: () => {}, stderr: () => {} });
if (rest) {
  pyodide.FS.writeFile("/lib/lazy_stdlib.py", readFileSync(finder));
  pyodide.runPython("import sys; sys.path.insert(0, '/lib')");
  let downloads = 0;
  pyodide.pyimport("lazy_stdlib").install("/lib/python_stdlib_rest.zip", () => {
    downloads += 1;
    pyodide.FS.writeFile("/lib/python_stdlib_rest.zip", readFileSync(rest));
  });
  process.on("exit", () => process.stderr.write(`downloads: ${downloads}\n`));
}
pyodide.globals.set("NAMES", readFileSync(0, "utf-8"));
pyodide.globals.set("DETAIL", Boolean(process.env.DETAIL));
const outcome = pyodide.runPython(`
import importlib, json
outcome = {}
for name in NAMES.split():
    try:
        importlib.import_module(name)
        outcome[name] = "ok"
    except BaseException as error:  # noqa: BLE001 - how it went is the answer
        outcome[name] = type(error).__name__ + ((": " + str(error)[:200]) if DETAIL else "")
json.dumps(outcome)
`);
process.stdout.write(outcome);
