"""The rest of the standard library, for a page that booted Python with only part of it.

The page's worker boots Pyodide with the modules a boot and the recorder import (`python_stdlib.zip`)
and downloads the others (`python_stdlib_rest.zip`) once Python is ready. A program that imports one
of them before that download landed must not fail, nor see anything but the module it asked for:
this finder, last on `sys.meta_path`, fetches the archive there and then (a worker may block on a
request) and imports from it. It answers only for the modules the rest holds (listed by the build in
the booted archive), so a name that exists nowhere — `uuid` tries `_uuid` — never costs a download.
"""
from __future__ import annotations

import os
import sys
import zipimport
from collections.abc import Callable

LISTING = "stdlib-rest-modules.txt"  # in the booted archive: one dotted module name per line


class RestOfStdlib:
    """A meta path finder for the standard modules the booted archive does not hold."""

    def __init__(self, archive: str, names: frozenset[str], download: Callable[[], None]) -> None:
        self.archive = archive
        self.names = names
        self.download = download  # writes `archive` (the worker's synchronous request)
        self.downloaded = False

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname not in self.names:
            return None
        self._ensure(fullname)
        # A module of a package that lives in the booted archive (encodings.cp1252) is looked up in
        # the same folder of this one; a top-level name at its root.
        package = fullname.rpartition(".")[0]
        folder = f"{self.archive}/{package.replace('.', '/')}/" if package else self.archive
        return zipimport.zipimporter(folder).find_spec(fullname, target)

    def _ensure(self, fullname: str) -> None:
        if self.downloaded or os.path.exists(self.archive):
            self.downloaded = True
            return
        try:
            self.download()
        except Exception as error:
            raise ModuleNotFoundError(f"No module named {fullname!r}: the rest of the standard library could "
                                      f"not be downloaded ({error})", name=fullname) from None
        self.downloaded = True

    def invalidate_caches(self) -> None:
        """importlib.invalidate_caches(): the archive never changes once here."""


def rest_names(booted: str) -> frozenset[str]:
    """The modules the rest holds, from the listing in the booted archive `booted`."""
    listing = zipimport.zipimporter(booted).get_data(f"{booted}/{LISTING}")
    return frozenset(listing.decode("utf-8").split())


def install(archive: str, download: Callable[[], None], booted: str | None = None) -> RestOfStdlib:
    """Put the finder last on `sys.meta_path` (once); return it. `booted`: the archive Python booted
    with (default: the zip on `sys.path`)."""
    for finder in sys.meta_path:
        if isinstance(finder, RestOfStdlib):
            return finder
    booted = booted or next(entry for entry in sys.path if entry.endswith(".zip"))
    finder = RestOfStdlib(archive, rest_names(booted), download)
    sys.meta_path.append(finder)
    return finder
