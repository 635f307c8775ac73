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

Each run also gets two private folders, made here and removed here: one becomes the temp dir
(`tempfile.gettempdir()`, `TMPDIR`), the other the working directory. They are set before the table is
saved, so putting state back keeps a late finalizer inside them; the files a run made are exactly what
is in those two, and nothing outside them is ever listed or removed.

Not covered: a standard module first imported during a run keeps what that run set on it; an
attribute of a standard class changed in place stays (`json.JSONEncoder.default = ...`: saving every
class's dict would cost each run milliseconds); a codec search function stays registered (`codecs`
cannot list them); `atexit` registrations pile up (they never run in a worker); `random`'s state goes
on. Nor can be: an audit hook stays for the interpreter's life (so the runner stops a run that adds
one, `runner._audit_hooks_refused`), and a Python signal handler (CPython; Pyodide has only the
interrupt) can run between two steps unseen.

Why not a fresh interpreter per run, as trusted systems do? The case runs where no spare is at hand:
the build proves every case in one Pyodide under node, the tests run hundreds in one process, and in
the page a spare worker costs a second Pyodide's memory and boot for every run (docs/limits.md has the
figures). This table is what those paths share.
"""
from __future__ import annotations

import _signal
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
    len,
    list,
    map,
    object,
    range,
    str,
    tuple,
    type,
    vars,
)
from collections.abc import Callable
from operator import is_

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
        base = tempfile.gettempdir()
        self.temp_dir = tempfile.mkdtemp(prefix="stepwise-", dir=base)
        self.work_dir = tempfile.mkdtemp(prefix="stepwise-work-", dir=base)
        tempfile.tempdir = self.temp_dir
        os.environ["TMPDIR"] = self.temp_dir
        os.chdir(self.work_dir)
        self._saved = [(kept, kept.save()) for kept in STATE]
        return self

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
        prefixes = []
        modules = []
        for name, module in list(sys.modules.items()):
            if type(name) is not str or name == OWN_PACKAGE or name.startswith(OWN_PACKAGE + "."):
                continue
            path = _module_attribute(module, "__file__")
            if type(path) is str:
                inside = _normalized(path).startswith(root)
            else:
                folders = _namespace_folders(module)
                inside = bool(folders) and all(_normalized(folder).startswith(root) for folder in folders)
            if inside:
                modules.append(sys.modules.pop(name))
                prefixes.append(name + ".")
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
        for folder in (self.temp_dir, self.work_dir):
            if folder:
                shutil.rmtree(folder, ignore_errors=True)


# -- saving and putting back, one kind at a time -------------------------------------------------

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


def _hooks() -> tuple:
    return sys.gettrace(), sys.getprofile()


def _put_back_hooks(saved: tuple) -> bool:
    return _put_back_hook(sys.gettrace, sys.settrace, saved[0]) | _put_back_hook(sys.getprofile, sys.setprofile,
                                                                                   saved[1])


def _put_back_hook(get, set_, saved: object) -> bool:
    """A trace or profile hook back; one set from C (a profiler, coverage) is left alone if unchanged."""
    if get() is saved:
        return False
    try:
        set_(saved)
    except TypeError:               # a C-level hook that cannot be set again from Python
        set_(None)
    return True


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


def _recursion_limit(saved: int) -> bool:
    if sys.getrecursionlimit() == saved:
        return False
    sys.setrecursionlimit(saved)
    return True


def _settings() -> dict:
    """Settings a program can change for the whole interpreter that no module namespace holds."""
    settings = {"unraisablehook": sys.unraisablehook, "switchinterval": sys.getswitchinterval(),
                "int_digits": sys.get_int_max_str_digits(), "umask": _umask(),
                "hooks": (sys.displayhook, sys.excepthook, sys.breakpointhook)}
    decimal = _loaded_module("decimal")
    if decimal is not None:
        settings["decimal"] = decimal.getcontext().copy()
    return settings


def _put_back_settings(settings: dict) -> bool:
    changed = False
    if sys.unraisablehook is not settings["unraisablehook"]:
        sys.unraisablehook = settings["unraisablehook"]
        changed = True
    if not _same_items((sys.displayhook, sys.excepthook, sys.breakpointhook), settings["hooks"]):
        sys.displayhook, sys.excepthook, sys.breakpointhook = settings["hooks"]
        changed = True
    if sys.getswitchinterval() != settings["switchinterval"]:
        sys.setswitchinterval(settings["switchinterval"])
        changed = True
    if sys.get_int_max_str_digits() != settings["int_digits"]:
        sys.set_int_max_str_digits(settings["int_digits"])
        changed = True
    if settings["umask"] is not None and _umask() != settings["umask"]:
        os.umask(settings["umask"])
        changed = True
    decimal = _loaded_module("decimal")
    if decimal is not None:                 # first imported during the run: its default context
        saved = settings.get("decimal")
        decimal.setcontext(saved.copy() if saved is not None else decimal.Context())
    return changed


def _gc_settings() -> tuple:
    return gc.isenabled(), gc.get_threshold(), list(gc.callbacks), gc.get_debug(), len(gc.garbage)


def _put_back_gc(saved: tuple) -> bool:
    """The collector's switch, thresholds, callbacks and debug flags, and the garbage it was told to keep
    (`DEBUG_SAVEALL`, or put there) let go."""
    enabled, threshold, callbacks, debug, garbage = saved
    changed = _put_back_list(gc.callbacks, callbacks)    # a program's callback would run in every later run
    if gc.get_threshold() != threshold:
        gc.set_threshold(*threshold)
        changed = True
    if gc.isenabled() != enabled:
        (gc.enable if enabled else gc.disable)()
        changed = True
    if gc.get_debug() != debug:
        gc.set_debug(debug)
        changed = True
    if len(gc.garbage) > garbage:
        del gc.garbage[garbage:]
        changed = True
    return changed


def _put_back_frozen(saved: int) -> bool:
    """Objects the program froze would never be collected: all are thawed, so its garbage among them
    is collected with the run's (`freeing.let_run_go`), finalizers printing into its output (what was
    frozen before is frozen again as the run ends, `CleanRun.__exit__`)."""
    if gc.get_freeze_count() in (saved, 0):
        return False
    gc.unfreeze()
    return True


def _import_system() -> tuple:
    return list(sys.meta_path), list(sys.path_hooks), dict(sys.path_importer_cache)


def _put_back_import_system(saved: tuple) -> bool:
    meta_path, path_hooks, cache = saved
    return _put_back_list(sys.meta_path, meta_path) | _put_back_list(sys.path_hooks, path_hooks) \
        | _put_back_dict(sys.path_importer_cache, cache)


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


def _put_back_tracing(saved: bool) -> bool:
    if saved or not _tracing():
        return False
    _loaded_module("tracemalloc").stop()
    return True


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


def _put_back_asyncgen_hooks(saved: tuple) -> bool:
    if _same_items(tuple(sys.get_asyncgen_hooks()), saved):   # by identity: no __eq__ runs
        return False
    sys.set_asyncgen_hooks(*saved)
    return True


def _reducers() -> dict | None:
    copyreg = _loaded_module("copyreg")
    return None if copyreg is None else dict(copyreg.dispatch_table)


def _put_back_reducers(saved: dict | None) -> bool:
    copyreg = _loaded_module("copyreg")
    return copyreg is not None and _put_back_dict(copyreg.dispatch_table, saved or {})


def _socket_timeout() -> float | None:
    socket = _loaded_module("socket")
    return None if socket is None else socket.getdefaulttimeout()


def _put_back_socket_timeout(saved: float | None) -> bool:
    socket = _loaded_module("socket")
    if socket is None or socket.getdefaulttimeout() == saved:
        return False
    socket.setdefaulttimeout(saved)
    return True


def _c_locale() -> str | None:
    if _locale is None:
        return None
    try:
        return _locale.setlocale(_locale.LC_ALL)   # a query: changes nothing
    except _locale.Error:
        return None


def _put_back_c_locale(saved: str | None) -> bool:
    if saved is None or _c_locale() == saved:
        return False
    _locale.setlocale(_locale.LC_ALL, saved)
    return True


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


def _put_back_cwd(saved: str | None) -> bool:
    if saved is None or _cwd() == saved:
        return False
    try:
        os.chdir(saved)
    except OSError:
        return False
    return True


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
    Kept("trace and profile hooks", _hooks, _put_back_hooks,
         "a program's tracer or profiler would run in every later run"),
    Kept("recursion limit", sys.getrecursionlimit, _recursion_limit,
         "a program may set it just above its own depth"),
    Kept("warnings filters", _warnings_caught, _put_back_warnings,
         "`simplefilter('error')` would make every later warning raise; 'once' registries start afresh"),
    Kept("sys.path", lambda: list(sys.path), lambda saved: _put_back_list(sys.path, saved),
         "a folder the program added would answer later imports"),
    Kept("sys.argv", lambda: list(sys.argv), lambda saved: _put_back_list(sys.argv, saved),
         "a later program reads its arguments"),
    Kept("sys.modules", lambda: dict(sys.modules), _put_back_modules,
         "a stand-in module would be imported by every later run"),
    Kept("import finders, path hooks, importer cache", _import_system, _put_back_import_system,
         "a finder of the program's would answer every later import"),
    Kept("builtins", lambda: dict(vars(builtins)), lambda saved: _put_back_mapping(vars(builtins), saved),
         "`builtins.len = ...` would change every later program"),
    Kept("interpreter settings", _settings, _put_back_settings,
         "display, except, breakpoint and unraisable hooks, switch interval, int digit limit, umask, decimal "
         "context"),
    Kept("standard modules' namespaces", _stdlib_namespaces, _put_back_namespaces,
         "`math.pi = 3` or `json.dumps = ...` would change every later program"),
    Kept("frozen objects", gc.get_freeze_count, _put_back_frozen,
         "objects the program froze would never be collected"),
    Kept("garbage collector", _gc_settings, _put_back_gc,
         "switched off, tuned, its callbacks, debug flags and the garbage DEBUG_SAVEALL keeps"),
    Kept("os.environ", lambda: dict(os.environ), _put_back_environ,
         "a variable the program set would be read by later runs"),
    Kept("working directory", _cwd, _put_back_cwd,
         "the run's own folder: a late finalizer writes there, not where the process was"),
    Kept("logging", _logging_state, _put_back_logging,
         "handlers, levels and loggers the program set up would print in later runs"),
    Kept("sys.monitoring tools", _monitoring_tools, _put_back_monitoring_tools,
         "a tool id the program took would be missing for the recorder of a later run"),
    Kept("memory tracing", _tracing, _put_back_tracing, "tracemalloc slows every later run"),
    Kept("signal handlers", _signal_handlers, _put_back_signal_handlers,
         "in Pyodide SIGINT is the page's Stop: a handler of the program's would be called instead"),
    Kept("async generator hooks", lambda: tuple(sys.get_asyncgen_hooks()), _put_back_asyncgen_hooks,
         "a hook of the program's would run in later runs"),
    Kept("pickling reducers", _reducers, _put_back_reducers,
         "`copyreg.pickle` would change how later runs copy and pickle"),
    Kept("default socket timeout", _socket_timeout, _put_back_socket_timeout,
         "`socket.setdefaulttimeout` applies to every later socket"),
    Kept("C locale", _c_locale, _put_back_c_locale, "`locale.setlocale` changes formatting for later runs"),
    Kept("C time zone", _zone, _put_back_zone,
         "`time.tzset` (or `TZ` put in the C environment) changes local times for later runs"),
)
