// Make a Pyodide memory snapshot of a booted interpreter with the recorder's stdlib imports done.
//
// The worker restores it instead of booting Python from scratch (several times faster). It holds
// only the pinned Pyodide and stdlib modules, never the site's own sources: those are written and
// imported after the restore, so a snapshot stays valid for any lesson built with this Pyodide.
//   node site/snapshot/make-snapshot.mjs OUT_FILE
import { writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const PRELOAD = [
  "argparse", "ast", "builtins", "collections", "collections.abc", "copy", "dataclasses", "importlib",
  "io", "itertools", "json", "marshal", "operator", "os", "pathlib", "re", "shutil", "sys", "tempfile",
  "time", "tomllib", "types", "typing", "uuid", "contextlib", "traceback",
];

const pyodide = await loadPyodide({ _makeSnapshot: true });
pyodide.runPython(PRELOAD.map((name) => `import ${name}`).join("\n"));
writeFileSync(process.argv[2], pyodide.makeMemorySnapshot());
