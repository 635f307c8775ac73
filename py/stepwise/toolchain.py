"""What a build needs beyond Python: Node.js and the pinned npm packages. `pyodide` runs every case at
build time as the page will, and prepares the Pyodide files the site serves; `esbuild` bundles the
page's script.

The packages are found in this order:
1. `STEPWISE_NODE_MODULES`: a node_modules folder that holds them (a CI cache, a shared install);
2. a checkout's own node_modules (`npm ci`, as `make setup` runs it);
3. for an installed wheel, a folder under the user's cache (`$XDG_CACHE_HOME/stepwise`, else
   `~/.cache/stepwise`) named for the pins: the first build installs them there with `npm ci`, from the
   package-lock the wheel carries, and every later build reuses them.
What is made from them (the prepared Pyodide folder, the proofs) is cached in their `.cache/stepwise`.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import assets

PINNED = ("pyodide", "esbuild", "codemirror", "@codemirror/lang-python")
NODE_HINT = "install Node.js 20+ with npm (https://nodejs.org, or your system's package manager)"


class ToolchainMissing(Exception):
    """Node.js, npm or a pinned package is missing, and the message says how to get it."""


@dataclass(frozen=True)
class Toolchain:
    node: str            # the node executable
    modules: Path        # a node_modules folder holding the pinned packages

    @property
    def pyodide(self) -> Path:
        return self.modules / "pyodide"

    @property
    def esbuild(self) -> Path:
        return self.modules / ".bin" / "esbuild"

    @property
    def cache(self) -> Path:
        """Where what a build makes from these packages is kept between builds."""
        return self.modules / ".cache" / "stepwise"


def pins() -> dict[str, str]:
    """name -> version of each package a build needs, as package-lock.json pins it."""
    lock = json.loads(assets.NPM_PINS[1].read_text(encoding="utf-8"))["packages"]
    return {name: lock[f"node_modules/{name}"]["version"] for name in PINNED}


def find(install: bool = True) -> Toolchain:
    """The toolchain this build uses; installs the pinned packages into the user's cache when it must and may."""
    node = shutil.which("node")
    if node is None:
        raise ToolchainMissing(f"node is not on PATH: a build runs each case in the pinned Pyodide under Node.js; "
                               f"{NODE_HINT}")
    if os.environ.get("STEPWISE_NODE_MODULES"):
        modules = Path(os.environ["STEPWISE_NODE_MODULES"]).resolve()
        _check(modules, "STEPWISE_NODE_MODULES names a folder that lacks {what}: run `npm ci` where it is, "
                        "or unset it")
    elif assets.CHECKOUT:
        modules = assets.ROOT / "node_modules"
        _check(modules, f"{modules} lacks {{what}}: run `npm ci` in {assets.ROOT} (or `make setup`)")
    else:
        modules = _installed(install)
    return Toolchain(node, modules)


def _check(modules: Path, message: str) -> None:
    for name, version in pins().items():
        meta = modules / name / "package.json"
        found = json.loads(meta.read_text(encoding="utf-8"))["version"] if meta.is_file() else None
        if found != version:
            raise ToolchainMissing(message.format(what=f"{name} {version}" + (f" (it has {found})" if found else "")))


def user_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "stepwise"


def _installed(install: bool) -> Path:
    """The pinned packages in the user's cache, installed there by `npm ci` the first time."""
    lock = assets.NPM_PINS[1].read_bytes()
    folder = user_cache() / f"npm-{hashlib.sha256(lock).hexdigest()[:12]}"
    modules = folder / "node_modules"
    if (modules / ".installed").is_file():
        return modules
    if not install:
        raise ToolchainMissing(f"the pinned npm packages are not installed in {folder}")
    npm = shutil.which("npm")
    if npm is None:
        raise ToolchainMissing(f"npm is not on PATH: a build installs the pinned Pyodide and esbuild with it once; "
                               f"{NODE_HINT}")
    print(f"installing the pinned {', '.join(f'{n} {v}' for n, v in pins().items())} with npm into {folder} "
          "(once)", file=sys.stderr, flush=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        for pin in assets.NPM_PINS:
            shutil.copyfile(pin, scratch / pin.name)
        done = subprocess.run([npm, "ci", "--omit=dev", "--no-audit", "--no-fund"], cwd=scratch,
                              capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise ToolchainMissing(f"`npm ci` in {scratch} failed (the registry must be reachable once):\n"
                                   f"{done.stderr.strip()[-800:]}")
        _check(scratch / "node_modules", "npm installed the wrong {what}")
        (scratch / "node_modules" / ".installed").write_text("", encoding="utf-8")
        try:
            os.rename(scratch, folder)   # two first builds at once: the first rename wins
        except OSError:
            if not (modules / ".installed").is_file():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return modules
