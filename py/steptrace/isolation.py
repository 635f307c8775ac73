"""Each run starts clean and leaves the interpreter as it found it.

The browser reuses one interpreter for every run, so whatever one run changes would leak into the
next. Two things keep runs apart:

* **Fresh lesson modules.** The shown module and everything else imported from the lesson tree are
  dropped before and after each run (`CleanRun.forget_lesson_modules`), so module globals,
  `lru_cache`s and mutable defaults start afresh.
* **The interpreter's state put back.** `STATE` is one table of what a run may change: each row says
  how it is saved before the run, how it is put back after it, and why it matters. `CleanRun.put_back`
  walks the table in its order, and walks it again while a finalizer let go by putting something back
  changed something (a handler that reinstalls itself when dropped), a few rounds. The runner calls it
  while the run's output is still captured, before and after it lets the run's objects go, so a
  finalizer of what the program had put there prints into the run's own output.

Each run also gets two private folders: one becomes the temp dir (`tempfile.gettempdir()`, `TMPDIR`),
the other the working directory. They are set before the table is saved, so putting state back keeps a
late finalizer inside them; the files a run made are exactly what is in those two, and nothing outside
them is ever listed or removed. A run that leaves them empty hands them to the next run (making and
removing folders is most of a small run's cost); one that leaves anything has them removed.

Not covered: a standard module first imported during a run keeps what that run set on it; an
attribute of a standard class changed in place stays (`json.JSONEncoder.default = ...`: saving every
class's dict would cost each run milliseconds); a codec search function stays registered (`codecs`
cannot list them); `atexit` registrations pile up (they never run in a worker); `random`'s state goes
on. Nor can be: an audit hook stays for the interpreter's life (so the runner stops a run that adds
one, `refused.py`), and a Python signal handler (CPython; Pyodide has only the
interrupt) can run between two steps unseen.

Why not a fresh interpreter per run, as trusted systems do? The case runs where no spare is at hand:
the build proves every case in one Pyodide under node, the tests run hundreds in one process, and in
the page a spare worker costs a second Pyodide's memory and boot for every run (docs/limits.md has the
figures). This table is what those paths share.
"""
from __future__ import annotations

import _signal
import atexit
import builtins
import gc
import os
import shutil
import signal
import sys
import tempfile
import time
import types
import warnings
import weakref
from dataclasses import dataclass

try:
    import _locale
except ImportError:                             # pragma: no cover - every build here has it
    _locale = None

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    AttributeError,
    Exception,
    OSError,
    RuntimeError,
    TypeError,
    ValueError,
    all,
    any,
    bool,
    dict,
    enumerate,
    getattr,
    hasattr,
    id,
    len,
    list,
    map,
    next,
    object,
    range,
    str,
    tuple,
    type,
    vars,
)
from collections.abc import Callable
from operator import eq, is_

from .monitor import release_tool
from .previews import named, only_str_keys

OWN_PACKAGE = __name__.rpartition(".")[0]      # "steptrace": never reloaded
PUT_BACK_ROUNDS = 3                             # `CleanRun.put_back`


@dataclass(frozen=True)
class Kept:
    """One kind of interpreter state a run may change."""

    name: str
    save: Callable[[], object]            # what it is before the run
    restore: Callable[[object], bool]     # puts back what differs from the saved; whether anything did
    why: str


class CleanRun:
    """Context manager around one run: private folders, fresh lesson modules, the state put back."""

    def __init__(self, lesson_root: str) -> None:
        self.lesson_root = os.path.abspath(lesson_root)
        self.temp_dir = ""
        self.work_dir = ""

    def __enter__(self) -> CleanRun:
        self._outside = (_cwd(), tempfile.tempdir, os.environ.get("TMPDIR"), gc.get_freeze_count())
        self.recursion_limit = sys.getrecursionlimit()
        self.forget_lesson_modules()
        self.temp_dir, self.work_dir = _folders()
        tempfile.tempdir = self.temp_dir
        os.environ["TMPDIR"] = self.temp_dir
        os.chdir(self.work_dir)
        self._saved = [(kept, kept.save()) for kept in STATE]
        self._collections = _collections()
        return self

    def collect(self) -> None:
        """A collection that reaches everything the run made: the young generations while no collection
        since the run began can have moved its objects older, else all (a full collection costs with
        everything alive in the interpreter: ~2.5 ms in a test process, for a run of a few lines)."""
        gc.collect(_generation_to_collect(self._collections, _collections()))

    def put_back(self) -> None:
        """Every row of `STATE` as saved, in the table's order; again while that changed anything."""
        for _ in range(PUT_BACK_ROUNDS):
            changed = False
            for kept, saved in self._saved:
                if kept.restore(saved):
                    changed = True
            if not changed:
                return

    def lift_recursion_limit(self) -> None:
        """Once the program's code has stopped: at least the limit the run started with, so the recorder's
        own teardown has its room (a program may leave the limit just above its own depth)."""
        if sys.getrecursionlimit() < self.recursion_limit:
            sys.setrecursionlimit(self.recursion_limit)

    def forget_lesson_modules(self) -> list:
        """Drop every module loaded from the lesson tree (not the recorder), so imports run afresh: those
        whose file lies in it, the namespace packages (folders without `__init__.py`, no file) whose
        folders all do, and every submodule of one dropped. A namespace package kept while its parent
        went would break the next import below it (importlib looks the parent up: KeyError).
        Returns the modules dropped, for the caller to free (`freeing.let_run_go`)."""
        root = self.lesson_root + os.sep
        outside = _outside_modules.setdefault(root, {})
        prefixes = []
        modules = []
        for name, module in list(sys.modules.items()):
            if type(name) is not str or name == OWN_PACKAGE or name.startswith(OWN_PACKAGE + "."):
                continue
            known = outside.get(id(module))
            if known is not None and known() is module:
                continue
            if _inside(module, root):
                modules.append(sys.modules.pop(name))
                prefixes.append(name + ".")
            elif type(module) is types.ModuleType:
                outside[id(module)] = weakref.ref(module)
        if prefixes:
            below = tuple(prefixes)
            for name in [name for name in sys.modules if type(name) is str and name.startswith(below)]:
                if not (name == OWN_PACKAGE or name.startswith(OWN_PACKAGE + ".")):
                    modules.append(sys.modules.pop(name))
        return modules

    def __exit__(self, kind: type | None, *exc_info: object) -> None:
        """The folders go, and the process is where it was; what was frozen before is frozen again (the
        worker freezes its boot; `_put_back_frozen` thawed it with what the program froze). The runner
        has put the state back (twice); a failure of its own that ends the run here has not."""
        if kind is not None:
            self.put_back()
        cwd, tempdir, tmpdir, frozen = self._outside
        tempfile.tempdir = tempdir
        if tmpdir is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = tmpdir
        if frozen and not gc.get_freeze_count():
            gc.freeze()
        if cwd is not None:
            try:
                os.chdir(cwd)
            except OSError:
                pass
        _keep_or_remove(self.temp_dir, self.work_dir)


# -- the run's two folders --------------------------------------------------------------------------

# The two folders of the last run, kept for the next while a run leaves them empty (making and removing
# two folders costs ~0.4 ms a run); a run that leaves anything in them, or changes what they are, has
# them removed, and the next run makes new ones.
_kept_folders: list[str] = []


def _folders() -> tuple[str, str]:
    """(temp dir, working dir) for a run: the last run's when they are still empty real folders."""
    if len(_kept_folders) == 2 and all(_empty_folder(folder) for folder in _kept_folders):
        return _kept_folders[0], _kept_folders[1]
    _kept_folders.clear()
    base = tempfile.gettempdir()
    return tempfile.mkdtemp(prefix="stepwise-", dir=base), tempfile.mkdtemp(prefix="stepwise-work-", dir=base)


def _empty_folder(path: str) -> bool:
    """A folder (not a link to one) with nothing in it."""
    try:
        if not os.path.isdir(path) or os.path.islink(path):
            return False
        with os.scandir(path) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def _keep_or_remove(temp_dir: str, work_dir: str) -> None:
    """Keep the folders for the next run when the run left them empty; else remove them."""
    if all(_empty_folder(folder) for folder in (temp_dir, work_dir)):
        _kept_folders[:] = [temp_dir, work_dir]
        return
    _kept_folders.clear()
    for folder in (temp_dir, work_dir):
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def _remove_kept_folders() -> None:
    for folder in _kept_folders:
        shutil.rmtree(folder, ignore_errors=True)


atexit.register(_remove_kept_folders)


# -- collections -----------------------------------------------------------------------------------

def _collections() -> list[int]:
    """Collections so far, per generation."""
    return [generation["collections"] for generation in gc.get_stats()]


# Before 3.14 a collection of generation g moves its survivors to g + 1, so the run's objects are young
# while no older collection ran. 3.14's incremental collector is not read that way here: its collections
# are always full (in the worker the boot is frozen, so they scan only what came after it).
_GENERATIONAL = sys.version_info < (3, 14)


def _generation_to_collect(before: list[int], now: list[int]) -> int:
    """The youngest generation whose collection reaches every object made since `before`."""
    if not _GENERATIONAL or now[1] != before[1] or now[2] != before[2]:
        return 2
    return 1 if now[0] != before[0] else 0


# -- saving and putting back, one kind at a time -------------------------------------------------

def _setting(name: str, get: Callable[[], object], set_: Callable[[object], object], why: str,
             same: Callable[[object, object], bool] = is_) -> Kept:
    """A row for one value the interpreter holds: put back with `set_` when `get()` differs from it."""
    def restore(saved: object) -> bool:
        if same(get(), saved):
            return False
        set_(saved)
        return True
    return Kept(name, get, restore, why)


def _same_items(current: list | tuple, saved: list | tuple) -> bool:
    return len(current) == len(saved) and all(map(is_, current, saved))


def _put_back_list(current: list, saved: list) -> bool:
    """`current` (a list of the interpreter's, kept in place) made the saved items again."""
    if _same_items(current, saved):
        return False
    current[:] = saved
    return True


def _put_back_dict(current: dict, saved: dict) -> bool:
    """`current` made equal to `saved` when any key or value differs by identity (cleared and refilled,
    which hashes nothing again and compares no key of the program's); whether it did."""
    if len(current) == len(saved) and all(map(is_, current, saved)) and all(map(is_, current.values(),
                                                                                 saved.values())):
        return False
    current.clear()
    current.update(saved)
    return True


def _put_back_mapping(current: dict, saved: dict) -> bool:
    """Make a mapping (the builtins) equal `saved` touching only the keys that differ."""
    changed = False
    for key in [key for key in current if key not in saved]:
        del current[key]
        changed = True
    for key, value in saved.items():
        if key not in current or current[key] is not value:
            current[key] = value
            changed = True
    return changed


def _put_back_environ(saved: dict) -> bool:
    """os.environ as it was (its values are made afresh at each read: compared by equality, of str)."""
    current = os.environ
    if dict(current) == saved:
        return False
    for key in [key for key in current if key not in saved]:
        del current[key]
    for key, value in saved.items():
        if current.get(key) != value:
            current[key] = value
    return True


def _hook_setter(set_: Callable[[object], None]) -> Callable[[object], None]:
    """`sys.settrace`/`setprofile` that takes a hook set from C (a profiler, coverage) as None."""
    def put(hook: object) -> None:
        try:
            set_(hook)
        except TypeError:
            set_(None)
    return put


def _warnings_caught() -> warnings.catch_warnings:
    """A `catch_warnings` entered now: the run gets its own filters (and "once" registries start afresh)."""
    caught = warnings.catch_warnings()
    caught.__enter__()
    return caught


def _put_back_warnings(caught: warnings.catch_warnings) -> bool:
    """The filters and `showwarning` as they were (exiting `catch_warnings` again sets them again)."""
    try:
        caught.__exit__(None, None, None)
    except Exception:  # noqa: BLE001 - a program that broke warnings still gets the rest put back
        pass
    return False


def _put_back_modules(saved: dict) -> bool:
    """A module the program put into `sys.modules` by hand goes; a real import stays (as in any
    interpreter's import cache); the modules there before are there again."""
    modules = sys.modules
    changed = False
    for name in [name for name in modules if name not in saved]:
        if not _real_import(modules[name]):
            del modules[name]
            changed = True
    for name, module in saved.items():
        if modules.get(name) is not module:
            modules[name] = module
            changed = True
    return changed


def _decimal_context() -> object:
    decimal = _loaded_module("decimal")
    return None if decimal is None else decimal.getcontext().copy()


def _put_back_decimal_context(saved: object) -> bool:
    """Always set again (a context compares by nothing cheap); first imported during the run: its default."""
    decimal = _loaded_module("decimal")
    if decimal is not None:
        decimal.setcontext(saved.copy() if saved is not None else decimal.Context())
    return False


def _put_back_garbage(saved: int) -> bool:
    """What `DEBUG_SAVEALL` kept, or the program put in `gc.garbage`, let go."""
    if len(gc.garbage) <= saved:
        return False
    del gc.garbage[saved:]
    return True


def _put_back_frozen(saved: int) -> bool:
    """Objects the program froze would never be collected: all are thawed, so its garbage among them
    is collected with the run's (`freeing.let_run_go`), finalizers printing into its output (what was
    frozen before is frozen again as the run ends, `CleanRun.__exit__`)."""
    if gc.get_freeze_count() in (saved, 0):
        return False
    gc.unfreeze()
    return True


def _monitoring_tools() -> list:
    monitoring = getattr(sys, "monitoring", None)
    return [monitoring.get_tool(tool) for tool in range(6)] if monitoring else []


def _put_back_monitoring_tools(before: list) -> bool:
    """Free the sys.monitoring tool ids the program took during the run."""
    monitoring = getattr(sys, "monitoring", None)
    changed = False
    for tool, owner in enumerate(before):
        if owner is None and monitoring.get_tool(tool) is not None:
            release_tool(tool)
            changed = True
    return changed


def _tracing() -> bool:
    tracemalloc = _loaded_module("tracemalloc")
    return tracemalloc is not None and tracemalloc.is_tracing()


def _signal_handlers() -> dict:
    """The Python-level handler of every signal that has one (in Pyodide SIGINT is the page's Stop), read
    through `_signal` (the `signal` module wraps each answer in an enum: ~60 of them twice a run)."""
    handlers = {}
    for number in _SIGNALS:
        try:
            handler = _signal.getsignal(number)
        except (OSError, ValueError):
            continue
        if handler is not None:
            handlers[number] = handler
    return handlers


def _put_back_signal_handlers(saved: dict) -> bool:
    changed = False
    for number, handler in saved.items():
        if _signal.getsignal(number) is not handler:
            try:
                signal.signal(number, handler)
                changed = True
            except (OSError, ValueError, TypeError, RuntimeError):   # not the main thread, or not settable
                pass
    return changed


def _reducers() -> dict | None:
    copyreg = _loaded_module("copyreg")
    return None if copyreg is None else dict(copyreg.dispatch_table)


def _put_back_reducers(saved: dict | None) -> bool:
    copyreg = _loaded_module("copyreg")
    return copyreg is not None and _put_back_dict(copyreg.dispatch_table, saved or {})


def _socket_timeout() -> float | None:
    socket = _loaded_module("socket")
    return None if socket is None else socket.getdefaulttimeout()


def _c_locale() -> str | None:
    if _locale is None:
        return None
    try:
        return _locale.setlocale(_locale.LC_ALL)   # a query: changes nothing
    except _locale.Error:
        return None


def _zone() -> tuple:
    """The C library's zone as local times show it, and `TZ` as os.environ has it (`time.tzset` changes
    the first, os.environ does not)."""
    return tuple((t.tm_gmtoff, t.tm_zone) for t in map(time.localtime, (0, 15_778_800))), os.environ.get("TZ")


def _put_back_zone(saved: tuple) -> bool:
    """The C library's zone as it was, once os.environ is back: `TZ` is set in the C environment too (a
    program may have changed it there alone, `os.putenv`) and read again."""
    if _zone()[0] == saved[0] or not hasattr(time, "tzset"):
        return False
    try:
        if saved[1] is None:
            os.unsetenv("TZ")
        else:
            os.putenv("TZ", saved[1])
    except (AttributeError, OSError):
        pass
    time.tzset()
    return True


def _umask() -> int | None:
    try:
        mask = os.umask(0o022)
    except (AttributeError, OSError):
        return None
    os.umask(mask)
    return mask


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def _chdir(path: str | None) -> None:
    try:
        os.chdir(path)
    except (OSError, TypeError):
        pass


def _logging_state() -> tuple | None:
    """Root logger handlers and level, the known loggers and the global disable level."""
    logging = _loaded_module("logging")
    if logging is None:
        return None
    root = logging.getLogger()
    manager = logging.Logger.manager
    return (logging, list(root.handlers), root.level, dict(manager.loggerDict), manager.disable)


def _put_back_logging(state: tuple | None) -> bool:
    if state is None:
        logging = _loaded_module("logging")
        if logging is None:
            return False
        state = (logging, [], logging.WARNING, {}, 0)   # first imported during the run: drop what it set up
    logging, handlers, level, loggers, disabled = state
    root = logging.getLogger()
    manager = logging.Logger.manager
    changed = _put_back_list(root.handlers, handlers) | _put_back_dict(manager.loggerDict, loggers)
    if root.level != level or manager.disable != disabled:
        root.setLevel(level)
        manager.disable = disabled
        changed = True
    if changed:
        manager._clear_cache()
    return changed


# -- the standard modules' namespaces ----------------------------------------------------------------

# The standard library's own folder's parent: its modules, and the zip of the rest Pyodide's worker fetches.
_STDLIB_PARENT = os.path.dirname(os.path.dirname(os.__file__)) + os.sep
_NOT_RESTORED = ("builtins", "__main__", "importlib", "_frozen_importlib", "_frozen_importlib_external",
                 "zipimport", "encodings")


def _stdlib_namespaces() -> list[tuple[types.ModuleType, dict]]:
    """(module, a copy of its namespace) of every standard module loaded now: an attribute a program
    sets or replaces on one (`json.x = 1`, `math.pi = 3`) is put back after the run. Not the import
    system's, nor builtins (a row of their own), nor any package installed beside the library."""
    found = []
    for name, module in list(sys.modules.items()):
        if type(module) is not types.ModuleType or type(name) is not str \
                or name.partition(".")[0] in _NOT_RESTORED or name.startswith(OWN_PACKAGE):
            continue
        namespace = _module_type_dict(module)
        path = namespace.get("__file__")
        if path is None or (type(path) is str and path.startswith(_STDLIB_PARENT) and "-packages" not in path):
            found.append((module, dict(namespace)))
    return found


def _put_back_namespaces(saved: list[tuple[types.ModuleType, dict]]) -> bool:
    """Each module's namespace as it was saved (~1.2 ms for 180 unchanged modules in Pyodide)."""
    changed = False
    for module, namespace in saved:
        if _put_back_namespace(module, namespace):
            changed = True
    return changed


def _put_back_namespace(module: types.ModuleType, saved: dict) -> bool:
    """Put a module's namespace back as `saved` had it. Whether any name changed is asked first, by
    identity in C-level passes that call no code of the program's; nothing is touched when none did."""
    current = _module_type_dict(module)
    if len(current) == len(saved) and all(map(is_, current, saved)) and all(map(is_, current.values(),
                                                                                 saved.values())):
        return False
    if not only_str_keys(current):
        return False                        # a key of the program's: any lookup could run its __eq__
    modules = sys.modules
    others = _PUT_BACK_ELSEWHERE.get(_module_name(module), ()) if module is sys or module is warnings else ()
    changed = False
    for key in [key for key in current if key not in saved]:
        # A submodule imported during the run binds itself on its package, and stays imported: the
        # binding stays too, or the next run's `import logging.handlers` would find no attribute.
        if type(current[key]) is types.ModuleType and modules.get(f"{_module_name(module)}.{key}") is current[key]:
            continue
        del current[key]
        changed = True
    for key, value in saved.items():
        if current.get(key, saved) is not value and key not in others:
            current[key] = value
            changed = True
    return changed


# Names another row puts back: the output capture's streams, and the filters `catch_warnings` swaps.
_PUT_BACK_ELSEWHERE = {"sys": ("stdout", "stderr", "__stdout__", "__stderr__"),
                       "warnings": ("filters", "showwarning", "_showwarnmsg_impl")}


# -- reading modules without running the program's code ---------------------------------------------

# Per lesson root, the modules already found outside it (by id, with a weak reference that tells the
# same module from a new one at a reused address): a standard module is read once, not twice a run.
_outside_modules: dict[str, dict[int, weakref.ref]] = {}


def _inside(module: object, root: str) -> bool:
    """Was `module` loaded from the lesson tree under `root`: its file, or all its namespace folders?"""
    path = _module_attribute(module, "__file__")
    if type(path) is str:
        return _normalized(path).startswith(root)
    folders = _namespace_folders(module)
    return bool(folders) and all(_normalized(folder).startswith(root) for folder in folders)


def _normalized(path: str) -> str:
    """`os.path.abspath(path)`, without its cost for the common path that is already absolute and
    normal (this runs for every loaded module, twice a run)."""
    if path[:1] == "/" and "/./" not in path and "/../" not in path and "//" not in path \
            and not path.endswith(("/.", "/..")) and os.sep == "/":
        return path
    return os.path.abspath(path)


def _real_import(module: object) -> bool:
    """A module the import system loaded (kept, like any interpreter's import cache)."""
    return _module_attribute(module, "__spec__") is not None


_module_type_dict = type.__dict__["__dict__"].__get__(types.ModuleType)["__dict__"].__get__
_type_mro = type.__dict__["__mro__"].__get__


def _module_attribute(module: object, name: str) -> object:
    """`name` from a module's own namespace, read without running any code of the program's (a class
    that merely calls itself `module`, or a property on a module subclass, is not asked); None if
    `module` is no module."""
    if not any(klass is types.ModuleType for klass in _type_mro(type(module))):   # `in` would call __eq__
        return None
    return _module_type_dict(module).get(name)


def _module_name(module: types.ModuleType) -> str:
    name = _module_attribute(module, "__name__")
    return name if type(name) is str else ""


def _namespace_folders(module: object) -> list[str]:
    """The folders of a namespace package (importlib's `_NamespacePath`, read from the list it last
    computed: iterating it would recompute it from sys.path); [] for any other module."""
    path = _module_attribute(module, "__path__")
    if type(path) is not _NAMESPACE_PATH:      # by identity: a class of the program's is never asked
        return []
    folders = object.__getattribute__(path, "__dict__").get("_path")
    if type(folders) is not list or not all(type(folder) is str for folder in folders):
        return []
    return list(folders)


# importlib's namespace package path (captured at import: the program cannot have replaced it yet).
_NAMESPACE_PATH = getattr(sys.modules.get("_frozen_importlib_external"), "_NamespacePath", None)


def _loaded_module(name: str) -> types.ModuleType | None:
    """The module `name` if it is imported (looked up without comparing a key of the program's)."""
    module = named(sys.modules, name)
    return module if type(module) is types.ModuleType else None


_SIGNALS = tuple(signal.valid_signals())


# -- the table ---------------------------------------------------------------------------------------

# Put back in this order: hooks first (nothing of the program's may run while the rest goes back), the
# import system's before the modules' namespaces, os.environ before the C library's time zone.
STATE: tuple[Kept, ...] = (
    _setting("trace hook", sys.gettrace, _hook_setter(sys.settrace), "a program's tracer would run in every later run"),
    _setting("profile hook", sys.getprofile, _hook_setter(sys.setprofile), "likewise a profiler"),
    _setting("recursion limit", sys.getrecursionlimit, sys.setrecursionlimit,
             "a program may set it just above its own depth", eq),
    Kept("warnings filters", _warnings_caught, _put_back_warnings,
         "`simplefilter('error')` would make every later warning raise; 'once' registries start afresh"),
    Kept("sys.path", lambda: list(sys.path), lambda saved: _put_back_list(sys.path, saved),
         "a folder the program added would answer later imports"),
    Kept("sys.argv", lambda: list(sys.argv), lambda saved: _put_back_list(sys.argv, saved),
         "a later program reads its arguments"),
    Kept("sys.modules", lambda: dict(sys.modules), _put_back_modules,
         "a stand-in module would be imported by every later run"),
    Kept("import finders", lambda: list(sys.meta_path), lambda saved: _put_back_list(sys.meta_path, saved),
         "a finder of the program's would answer every later import"),
    Kept("path hooks", lambda: list(sys.path_hooks), lambda saved: _put_back_list(sys.path_hooks, saved),
         "likewise a path hook"),
    Kept("importer cache", lambda: dict(sys.path_importer_cache),
         lambda saved: _put_back_dict(sys.path_importer_cache, saved), "likewise a cached importer"),
    Kept("builtins", lambda: dict(vars(builtins)), lambda saved: _put_back_mapping(vars(builtins), saved),
         "`builtins.len = ...` would change every later program"),
    Kept("standard modules' namespaces", _stdlib_namespaces, _put_back_namespaces,
         "`math.pi = 3`, `json.dumps = ...` or `sys.excepthook = ...` would change every later program"),
    _setting("switch interval", sys.getswitchinterval, sys.setswitchinterval, "threads of later runs", eq),
    _setting("int digit limit", sys.get_int_max_str_digits, sys.set_int_max_str_digits,
             "`str(10**5000)` would fail or pass in later runs", eq),
    _setting("umask", _umask, os.umask, "files later runs make would get other permissions", eq),
    Kept("decimal context", _decimal_context, _put_back_decimal_context, "precision and rounding of later runs"),
    Kept("frozen objects", gc.get_freeze_count, _put_back_frozen, "objects the program froze would never be collected"),
    Kept("gc callbacks", lambda: list(gc.callbacks), lambda saved: _put_back_list(gc.callbacks, saved),
         "a program's callback would run in every later run"),
    _setting("gc thresholds", gc.get_threshold, lambda saved: gc.set_threshold(*saved), "collections of later runs",
             eq),
    _setting("gc switch", gc.isenabled, lambda on: (gc.enable if on else gc.disable)(), "switched off for good", eq),
    _setting("gc debug flags", gc.get_debug, gc.set_debug, "DEBUG_SAVEALL would keep every later run's garbage", eq),
    Kept("gc garbage", lambda: len(gc.garbage), _put_back_garbage, "what it kept would never be let go"),
    Kept("os.environ", lambda: dict(os.environ), _put_back_environ,
         "a variable the program set would be read by later runs"),
    _setting("working directory", _cwd, _chdir,
             "the run's own folder: a late finalizer writes there, not where the process was", eq),
    Kept("logging", _logging_state, _put_back_logging,
         "handlers, levels and loggers the program set up would print in later runs"),
    Kept("sys.monitoring tools", _monitoring_tools, _put_back_monitoring_tools,
         "a tool id the program took would be missing for the recorder of a later run"),
    _setting("memory tracing", _tracing, lambda on: _loaded_module("tracemalloc").stop(),
             "tracemalloc slows every later run", lambda now, saved: saved or not now),
    Kept("signal handlers", _signal_handlers, _put_back_signal_handlers,
         "in Pyodide SIGINT is the page's Stop: a handler of the program's would be called instead"),
    _setting("async generator hooks", lambda: tuple(sys.get_asyncgen_hooks()), lambda hooks: sys.set_asyncgen_hooks(
        *hooks), "a hook of the program's would run in later runs", _same_items),
    Kept("pickling reducers", _reducers, _put_back_reducers,
         "`copyreg.pickle` would change how later runs copy and pickle"),
    _setting("default socket timeout", _socket_timeout, lambda saved: _loaded_module("socket").setdefaulttimeout(
        saved), "`socket.setdefaulttimeout` applies to every later socket", eq),
    _setting("C locale", _c_locale, lambda saved: _locale.setlocale(_locale.LC_ALL, saved),
             "`locale.setlocale` changes formatting for later runs", lambda now, saved: saved is None or now == saved),
    Kept("C time zone", _zone, _put_back_zone,
         "`time.tzset` (or `TZ` put in the C environment) changes local times for later runs"),
)
