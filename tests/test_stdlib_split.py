"""The site's standard library, split in a booted part and a rest fetched on demand, imports exactly
what npm's whole archive imports — in the pinned Pyodide, as the page's worker boots it."""
from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from stepwise import assets, pyodide_files, toolchain

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "tools" / "pyodide_node" / "import-all.mjs"
# Modules whose import acts on the world (opens a browser, prints the Zen, starts a GUI or a test run).
SKIP_PREFIXES = ("antigravity", "this", "__main__", "__phello__", "idlelib", "tkinter", "turtle", "turtledemo",
                 "test", "ensurepip", "venv", "lib2to3", "_pyrepl.__main__", "pydoc_data")


@pytest.fixture(scope="module")
def site_pyodide(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pyodide")
    folder = pyodide_files.install(out, assets.worker_python(), toolchain.find())
    return out / folder


def module_names(archive: Path) -> list[str]:
    names = []
    for member in zipfile.ZipFile(archive).namelist():
        if member.endswith(".py"):
            name = member[:-3].replace("/", ".").removesuffix(".__init__")
            if not name.startswith(SKIP_PREFIXES):
                names.append(name)
    return sorted(names)


def import_all(names: list[str], *args: Path) -> tuple[dict, str]:
    done = subprocess.run(["node", str(SCRIPT), *map(str, args)], input="\n".join(names), cwd=REPO,
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout), done.stderr


def test_every_module_imports_as_from_the_whole_archive(site_pyodide):
    names = module_names(toolchain.find().pyodide / pyodide_files.STDLIB)
    stock, _ = import_all(names, toolchain.find().pyodide / pyodide_files.STDLIB)
    split, log = import_all(names, site_pyodide / pyodide_files.STDLIB, site_pyodide / pyodide_files.REST,
                            REPO / "py" / "lazy_stdlib.py")
    assert sum(v == "ok" for v in stock.values()) > 400, "the comparison must cover the library"
    differ = {name: (stock[name], split.get(name)) for name in names if stock[name] != split.get(name)}
    assert not differ, differ
    assert "downloads: 1" in log   # the rest came once, on the first import that needed it


def test_the_booted_part_holds_what_a_boot_imports_compiled_and_the_listing_is_exact(site_pyodide):
    core = zipfile.ZipFile(site_pyodide / pyodide_files.STDLIB)
    rest = zipfile.ZipFile(site_pyodide / pyodide_files.REST)
    whole = zipfile.ZipFile(toolchain.find().pyodide / pyodide_files.STDLIB)
    core_names, rest_names = set(core.namelist()), set(rest.namelist())
    # Every member of npm's archive is in one of the two (folders may be in both), byte for byte.
    for info in whole.infolist():
        if info.filename.endswith("/"):
            continue
        assert (info.filename in core_names) != (info.filename in rest_names), info.filename
        assert (core if info.filename in core_names else rest).read(info.filename) == whole.read(info), info.filename
    assert all(i.compress_type == zipfile.ZIP_STORED for z in (core, rest) for i in z.infolist())
    # What Python and the recorder import at boot is compiled; the listing names the rest's modules.
    for module in ("json/__init__.py", "tempfile.py", "dataclasses.py", "encodings/utf_8.py"):
        assert module in core_names and module + "c" in core_names, module
    listed = set(core.read("stdlib-rest-modules.txt").decode().split())
    assert listed == {name[:-3].replace("/", ".").removesuffix(".__init__") for name in rest_names
                      if name.endswith(".py")}
    assert "encodings.cp1252" in listed and "statistics" in listed and "json" not in listed
