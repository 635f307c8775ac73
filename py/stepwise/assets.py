"""Where Stepwise's own files are, in a checkout of this repository or inside an installed wheel.

An author's course brings its code, scenarios and prose (`stepwise.course`); everything else a build
uses comes from here:

- the site's front end (`site/`: scripts, styles, templates, zh/en strings, the node scripts that prove
  cases and prepare Pyodide);
- the npm pins (`package.json`, `package-lock.json`: the Pyodide that runs the cases, esbuild);
- the Python the page's worker imports: the recorder (`steptrace`) and `lazy_stdlib`, served under
  `py/` whatever folder they are installed in.

A wheel carries the first two under `stepwise/bundled/` (setup.py copies them in); a checkout, or an
editable install of one, reads them where they are.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_BUNDLED = _PACKAGE / "bundled"
# A wheel's copy when there is one; else the checkout this module sits in (py/stepwise/ → the root).
ROOT = _BUNDLED if (_BUNDLED / "package.json").is_file() else _PACKAGE.parents[1]
SITE = ROOT / "site"
NPM_PINS = (ROOT / "package.json", ROOT / "package-lock.json")
# A checkout has its node_modules beside the pins (`npm ci`); an installed wheel has none.
CHECKOUT = ROOT != _BUNDLED

# The worker's Python besides the lesson's own: the recorder package and one module.
WORKER_PACKAGE = "steptrace"
WORKER_MODULE = "lazy_stdlib"   # imports the standard modules Python was booted without


def worker_python() -> dict[str, Path]:
    """The recorder's files as the site serves them (`py/steptrace/…`, `py/lazy_stdlib.py`) -> where they are
on this machine."""
    package = importlib.util.find_spec(WORKER_PACKAGE)
    module = importlib.util.find_spec(WORKER_MODULE)
    if package is None or module is None or module.origin is None:
        raise ImportError(f"{WORKER_PACKAGE} or {WORKER_MODULE} is not importable: reinstall stepwise")
    folder = Path(next(iter(package.submodule_search_locations)))
    files = {f"py/{WORKER_PACKAGE}/{path.relative_to(folder).as_posix()}": path
             for path in sorted(folder.rglob("*.py"))}
    files[f"py/{WORKER_MODULE}.py"] = Path(module.origin)
    return files
