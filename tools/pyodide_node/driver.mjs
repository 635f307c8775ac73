// A small line-oriented bridge to the pinned npm `pyodide`, for tests and benchmarks.
//
// Boots Pyodide once, copies the repo's `py/` tree into the in-memory FS at
// /repo/py (the same layout the browser worker uses) and puts it on sys.path.
// Then it reads one JSON request per stdin line and answers one JSON line each:
//   {"type": "exec", "id": 1, "code": "result = ..."}
//     -> {"type": "result", "id": 1, "ok": true, "value": <str(result)>, "ms": 1.2}
//     -> {"type": "result", "id": 1, "ok": false, "error": "Traceback ..."}
// `code` runs in a fresh namespace; it reports by assigning a string to `result`.
// Python's stdout/stderr go to this process's stderr, so stdout stays protocol-only.
import { createInterface } from "node:readline";
import { loadPyodide } from "pyodide";
import { mountRepo } from "./repo-fs.mjs";

const started = performance.now();
const pyodide = await loadPyodide({
  stdout: (line) => process.stderr.write(`[py] ${line}\n`),
  stderr: (line) => process.stderr.write(`[py!] ${line}\n`),
});
mountRepo(pyodide);
const version = pyodide.runPython("import sys; sys.version.split()[0]");
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
send({ type: "ready", python: version, pyodide: pyodide.version, ms: performance.now() - started });

const runner = pyodide.runPython(`
def _stepwise_exec(code):
    namespace = {"__name__": "__driver__"}
    exec(compile(code, "<driver>", "exec"), namespace)
    return str(namespace.get("result", ""))
_stepwise_exec
`);

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    send({ type: "result", id: null, ok: false, error: `bad request: ${error.message}` });
    continue;
  }
  const t0 = performance.now();
  try {
    const value = runner(request.code);
    send({ type: "result", id: request.id, ok: true, value, ms: performance.now() - t0 });
  } catch (error) {
    send({ type: "result", id: request.id, ok: false, error: String(error.message ?? error) });
  }
}
