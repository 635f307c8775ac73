"""py/lazy_stdlib.py: modules the booted archive lacks import from the rest, fetched on first need.

Real zip files and real imports (CPython's zipimport is the one Pyodide runs); the "download" copies
the archive into place, as the worker's synchronous request writes it into Pyodide's file system.
The names are made up, so nothing of the real standard library is touched.
"""
from __future__ import annotations

import importlib
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))
import lazy_stdlib  # noqa: E402

NAMES = ("zz_booted", "zz_rest_mod", "zz_rest_pkg")


def write_zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


@pytest.fixture
def archives(tmp_path):
    """A booted archive (a package whose codec-like submodule lives in the rest, and the listing) and
    the rest, kept aside until downloaded."""
    booted = write_zip(tmp_path / "booted.zip", {
        "zz_booted/__init__.py": "WHERE = 'booted'\n",
        lazy_stdlib.LISTING: "zz_booted.extra\nzz_rest_mod\nzz_rest_pkg\nzz_rest_pkg.inner\n",
    })
    aside = write_zip(tmp_path / "aside.zip", {
        "zz_booted/extra.py": "from . import WHERE\nVALUE = 'extra beside ' + WHERE\n",
        "zz_rest_mod.py": "VALUE = 42\n",
        "zz_rest_pkg/__init__.py": "",
        "zz_rest_pkg/inner.py": "from .sibling import X\n",
        "zz_rest_pkg/sibling.py": "X = 'sibling'\n",
    })
    rest = tmp_path / "rest.zip"
    downloads = []

    def download():
        downloads.append(1)
        shutil.copyfile(aside, rest)

    saved_path, saved_meta = list(sys.path), list(sys.meta_path)
    sys.path.insert(0, str(booted))
    finder = lazy_stdlib.RestOfStdlib(str(rest), lazy_stdlib.rest_names(str(booted)), download)
    sys.meta_path.append(finder)
    try:
        yield finder, downloads, rest
    finally:
        sys.path[:], sys.meta_path[:] = saved_path, saved_meta
        for name in [m for m in sys.modules if m.split(".")[0] in NAMES]:
            del sys.modules[name]
        sys.path_importer_cache.clear()
        importlib.invalidate_caches()


def test_a_module_of_the_rest_is_downloaded_once_then_imported(archives):
    finder, downloads, rest = archives
    assert not rest.exists()
    assert importlib.import_module("zz_rest_mod").VALUE == 42
    assert importlib.import_module("zz_rest_pkg.inner").X == "sibling"   # a package of the rest, whole
    assert len(downloads) == 1
    assert importlib.import_module("zz_rest_mod").__file__.startswith(str(rest))


def test_a_submodule_of_a_booted_package_comes_from_the_rest(archives):
    finder, downloads, _ = archives
    assert importlib.import_module("zz_booted").WHERE == "booted"
    assert downloads == []                        # the booted package itself needs nothing
    assert importlib.import_module("zz_booted.extra").VALUE == "extra beside booted"
    assert len(downloads) == 1


def test_a_name_the_rest_lacks_costs_no_download(archives):
    finder, downloads, _ = archives
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("zz_nowhere")         # as `uuid` tries `_uuid`: no such module anywhere
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("zz_booted.nowhere")
    assert downloads == []


def test_a_failed_download_says_why_and_is_tried_again(archives):
    finder, downloads, rest = archives
    working = finder.download

    def offline():
        raise OSError("HTTP 503")

    finder.download = offline
    with pytest.raises(ModuleNotFoundError, match=r"No module named 'zz_rest_mod': the rest of the standard "
                                                  r"library could not be downloaded \(HTTP 503\)"):
        importlib.import_module("zz_rest_mod")
    finder.download = working
    assert importlib.import_module("zz_rest_mod").VALUE == 42


def test_install_is_idempotent(archives, tmp_path):
    finder, _, rest = archives
    again = lazy_stdlib.install(str(rest), lambda: None, booted=str(tmp_path / "booted.zip"))
    assert again is finder
    assert sum(isinstance(f, lazy_stdlib.RestOfStdlib) for f in sys.meta_path) == 1
