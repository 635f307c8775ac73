"""The Pyodide files a built site serves under `pyodide/<version>-<hash>/`, made once and cached.

- The core (`pyodide.mjs`, `pyodide.asm.mjs`, `pyodide.asm.wasm`) as npm ships it.
- The standard library split in two (site/stdlib/pack-stdlib.mjs): `python_stdlib.zip` holds what a
  boot, the worker and the recorder import, compiled, so Python boots without running its compiler;
  `python_stdlib_rest.zip` the rest, which the worker fetches after boot (py/lazy_stdlib.py imports
  from it even earlier, on demand). Both are *stored* zips: npm's deflates each module on its own,
  which hides from the transfer compression everything modules share.
- A lock file without packages: the worker installs none, and 119 KB of package list would only
  delay its boot.
No memory snapshot: with the booted modules compiled, a boot from scratch takes 1.1 s against a
restore's 0.7 s, and the snapshot is 3.3 MB more to download (brotli): it pays only above ~60 Mbps.

Each file also gets `.gz` and `.br` copies for the server to send as they are. Making them takes
about a minute (brotli at its best, with node's zlib: Python has no brotli), so the folder is cached
under node_modules/.cache/stepwise, keyed by what it is made from; its name carries that key, so a
host may cache it for good.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import assets
from .toolchain import Toolchain

CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
STDLIB, REST, LOCK = "python_stdlib.zip", "python_stdlib_rest.zip", "pyodide-lock.json"
SERVED = (*CORE, STDLIB, REST, LOCK)
COMPRESS_SCRIPT = assets.SITE / "compress" / "compress.mjs"
PACK_SCRIPT = assets.SITE / "stdlib" / "pack-stdlib.mjs"
# Booted with Python besides what the worker and the recorder import: what teaching code imports most.
# Every other standard module still imports, from the rest of the library.
EVERYDAY_MODULES = ("collections", "copy", "dataclasses", "datetime", "enum", "functools", "itertools", "json",
                    "pathlib", "random", "re", "string", "tempfile", "textwrap", "typing", "uuid")


class PyodideMissing(Exception):
    """node_modules lacks the pinned Pyodide, node is missing, or making the files failed."""


def install(target: Path, python_files: dict[str, Path], tools: Toolchain) -> str:
    """Put the files (and their compressed copies) into a folder of `target` named for what they were
    made from; return that folder's name. `python_files`: the Python the worker imports, served path
    (`py/<name>…`) -> file."""
    missing = [name for name in (*CORE, STDLIB, LOCK, "package.json") if not (tools.pyodide / name).is_file()]
    if missing:
        raise PyodideMissing(f"{tools.pyodide} lacks {', '.join(missing)}: run `npm ci` first")
    modules = booted_modules(python_files)
    folder = tools.cache / _key(modules, tools)
    if not folder.is_dir():
        _make(folder, modules, tools)
    if not (target / folder.name).is_dir():
        if target.exists():
            shutil.rmtree(target)  # an older Pyodide folder
        shutil.copytree(folder, target / folder.name)
    return folder.name


def booted_modules(python_files: dict[str, Path]) -> list[str]:
    """Every module the given files import (at any depth of their code), and the everyday ones."""
    names = set(EVERYDAY_MODULES)
    for name, path in python_files.items():
        for node in ast.walk(ast.parse(path.read_bytes(), name)):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    own = {Path(name).parts[1].removesuffix(".py") for name in python_files}  # py/<name>…: not the stdlib's
    return sorted(name for name in names if name.split(".")[0] not in own)


def _version(tools: Toolchain) -> str:
    return json.loads((tools.pyodide / "package.json").read_text(encoding="utf-8"))["version"]


def _key(modules: list[str], tools: Toolchain) -> str:
    """npm pins the package by version (file sizes catch a tampered node_modules); this module, the two
    scripts and the modules booted decide what is made from it."""
    digest = hashlib.sha256(_version(tools).encode() + Path(__file__).read_bytes() + COMPRESS_SCRIPT.read_bytes()
                            + PACK_SCRIPT.read_bytes() + " ".join(modules).encode())
    for name in (*CORE, STDLIB, LOCK):
        digest.update(f"{name}:{(tools.pyodide / name).stat().st_size}".encode())
    return f"pyodide-{_version(tools)}-{digest.hexdigest()[:12]}"


def _make(folder: Path, modules: list[str], tools: Toolchain) -> None:
    """Make the folder in a scratch folder beside it, then rename it into place (two builds at once may
    both make it: the first rename wins, the other copy is thrown away)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    scratch.chmod(0o755)  # mkdtemp's 0700 would follow the copy into the site
    try:
        for name in CORE:
            shutil.copyfile(tools.pyodide / name, scratch / name)
        _node_script(tools, PACK_SCRIPT, tools.pyodide / STDLIB, scratch / STDLIB, scratch / REST, *modules,
                     what="splitting the standard library")
        lock = json.loads((tools.pyodide / LOCK).read_text(encoding="utf-8"))
        (scratch / LOCK).write_text(json.dumps({"info": lock["info"], "packages": {}}), encoding="utf-8")
        _node_script(tools, COMPRESS_SCRIPT, *(scratch / name for name in SERVED), what="compressing the Pyodide files")
        try:
            os.rename(scratch, folder)
        except OSError:
            if not folder.is_dir():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _node_script(tools: Toolchain, script: Path, *args: object, what: str) -> None:
    """Run one of the site's node scripts with the toolchain's packages importable (NODE_PATH does not
    reach ES modules, so `STEPWISE_PYODIDE` names the package's entry)."""
    env = {**os.environ, "STEPWISE_PYODIDE": str(tools.pyodide / "pyodide.mjs")}
    result = subprocess.run([tools.node, str(script), *map(str, args)], capture_output=True, text=True,
                            timeout=900, env=env)
    if result.returncode != 0:
        raise PyodideMissing(f"{what} failed ({script.name}): {result.stderr.strip()[-800:]}")
