"""Run one scenario case with the recorder on and answer with one JSON string.

This is what the browser worker calls (through `pyodide.runPython`) and what
the CLI prints. Each run is clean (`isolation.CleanRun`): private temp and work
folders, the shown module and the rest of the lesson tree imported afresh, the
interpreter's state restored afterwards. The shown module is imported from its
real file, so code objects carry its real path and line numbers; setup and entry
are compiled as `<setup>` and `<entry>` and are never recorded. The time limit
covers setup, the module's import and the entry (`deadline.Deadline`); output is
captured from the import on, and finalizers that run when the run's namespace is
cleared are captured too.
"""
from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import sys
import time

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    BaseException,
    Exception,
    ImportError,
    KeyboardInterrupt,
    SyntaxError,
    ValueError,
    bool,
    compile,
    enumerate,
    exec,
    isinstance,
    range,
    round,
    tuple,
    type,
)
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, BinaryIO

from . import exceptions, freeing, interrupts, monitor, packed
from . import files as run_files
from .capture import OutputCapture
from .deadline import Deadline
from .document import document_text, write_document
from .exceptions import describe_exception, exception_text
from .isolation import CleanRun
from .limits import DEFAULT_EVENTS, DIRECT_SECONDS
from .recorder import SETUP_FILE, LimitReached, Recorder
from .refused import refused
from .settrace import SettraceBackend
from .table import MIN_EVENTS

FORMAT = "stepwise-trace"
VERSION = 3
BACKENDS = ("auto", "settrace", "monitoring")
FORMS = ("json", "packed")


class RunnerError(ValueError):
    """The request itself is wrong (unknown module, source mismatch, bad backend)."""


_LOCATED: dict[tuple, tuple[str, str]] = {}   # (source, module, sys.path) -> (lesson root, shown file)


def locate(source: str, module: str) -> tuple[str, str]:
    """(lesson root, shown file) of a run, found once per sys.path: a module search walks every
    path entry (tens of milliseconds in Pyodide), and a worker asks for the same module each run.
    A shown file that went away is looked for again."""
    key = (source, module, tuple(sys.path))
    found = _LOCATED.get(key)
    if found is None or not os.path.isfile(found[1]):
        found = _LOCATED[key] = (lesson_root(module), shown_file(source, module))
    return found


def lesson_root(module: str) -> str:
    """The folder the shown module is imported from (`py/` for `py/s08/core/runtime.py`)."""
    spec = importlib.util.find_spec(module.partition(".")[0])
    if spec is None or not (spec.origin or spec.submodule_search_locations):
        raise RunnerError(f"cannot import the shown module {module!r}: no package {module.partition('.')[0]!r}")
    if spec.origin and spec.origin != "namespace":
        top = os.path.dirname(os.path.abspath(spec.origin))     # the module's folder, or the package's own
        return os.path.dirname(top) if spec.submodule_search_locations else top
    # A namespace package (folders without __init__.py, maybe in several sys.path entries): the entry
    # holding the shown module's own file, up as many folders as its name has parts.
    try:
        shown = importlib.util.find_spec(module)
    except (ImportError, ValueError) as error:
        raise RunnerError(f"cannot import the shown module {module!r}: {error}") from None
    if shown is None or not shown.origin or shown.origin == "namespace":
        raise RunnerError(f"cannot import the shown module {module!r}: not found on sys.path")
    root = os.path.dirname(os.path.abspath(shown.origin))
    for _ in range(module.count(".") + bool(shown.submodule_search_locations)):
        root = os.path.dirname(root)
    return root


def shown_file(source: str, module: str) -> str:
    """The full path the shown module's code objects will carry, checked against `source`."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError) as error:
        raise RunnerError(f"cannot import the shown module {module!r}: {error}") from None
    if spec is None or not spec.origin:
        raise RunnerError(f"cannot import the shown module {module!r}: not found on sys.path")
    path = spec.origin.replace(os.sep, "/")
    wanted = source.replace("\\", "/").lstrip("./")
    if not path.endswith("/" + wanted) and path != wanted:
        raise RunnerError(f"module {module!r} is {spec.origin!r}, not the shown source {source!r}")
    return spec.origin


def pick_backend(name: str, recorder: Recorder):
    """`auto`: sys.monitoring where the interpreter has it (same events, far cheaper elsewhere).
    `name` is one of BACKENDS (`run_case` checks it before anything runs)."""
    if name == "monitoring" and not monitor.available():
        raise RunnerError("the monitoring backend needs Python 3.12+")
    if name == "settrace" or (name == "auto" and not monitor.available()):
        return SettraceBackend(recorder)
    return monitor.MonitoringBackend(recorder)


def run_case(source: str, module: str | None, setup: str, entry: str, *, form: str = "json",
             out: BinaryIO | None = None, **options: Any) -> str | dict | None:
    """Run setup then entry; return the trace document (docs/trace-format.md) as a JSON string,
    or with `form="packed"` as columns of bytes and two short JSON texts (`packed.pack`); with `out`, write
    the JSON document into that binary file instead, a piece at a time, and return None.
    `options` are `record_case`'s. An interrupt (SIGINT) at any moment stops the program or, once it
    has ended, waits until the trace is written (`interrupts`)."""
    if form not in FORMS:
        raise RunnerError(f"unknown form {form!r}; use one of {', '.join(FORMS)}")
    with interrupts.held() as held:
        recording = record_case(source, module, setup, entry, held=held, **options)
        if out is not None:
            recording.write(out)
            return None
        return recording.written(form)


class Recording:
    """A finished run: the recorder's tables and the document's other fields, written in either form."""

    def __init__(self, recorder: Recorder, document: dict) -> None:
        self.recorder, self.document = recorder, document

    def written(self, form: str = "json") -> str | dict:
        """The JSON document (`"json"`) or the packed columns (`"packed"`); either may be asked for again."""
        if form == "packed":
            return packed.pack(self.recorder, self.document)
        return document_text(self.recorder, self.document)

    def write(self, out: BinaryIO) -> None:
        """The JSON document into the binary file `out`, streamed (`document.write_document`)."""
        write_document(self.recorder, self.document, out)


def record_case(source: str, module: str | None, setup: str, entry: str, *, function: str | None = None,
                case: str | None = None, max_events: int = DEFAULT_EVENTS, time_limit: float = DIRECT_SECONDS,
                backend: str = "auto", record: bool = True, on_phase: Callable[[str], None] | None = None,
                check_looks: bool = False, held: interrupts.Held | None = None, watch: Any = None) -> Recording:
    """Run setup then entry in a clean run (`isolation.CleanRun`), recording the shown file. `module` None:
    the shown file is not imported (a whole program, which the entry runs: `whole_program`).

    `record=False` runs the same code without any recorder (for overhead comparison); the document
    then has no events and `backend` "none". `on_phase("running")` is called just before the lesson's
    module is imported and `on_phase("finishing")` once the code has stopped, before the recorder is
    taken down: a watchdog (the browser worker's) may interrupt only between the two. A
    KeyboardInterrupt earlier would tear the run's isolation half set up, later the recorder's teardown
    or the trace being written; between, it ends the run as stopped ("interrupted"), like any other
    ending. `held`: where SIGINT goes during the run (`interrupts.held`; `run_case` passes one).
    `watch`: a `watchdog.Watch` (`Recorder.watched`). `check_looks` (tests only): `Recorder`'s oracle,
    its findings in `stats.stale_looks`."""
    if backend not in BACKENDS:
        raise RunnerError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
    try:
        setup_code = compile(setup, SETUP_FILE, "exec")
        entry_code = compile(entry, "<entry>", "exec")
    except SyntaxError as error:   # nothing runs: the reader's (or author's) code is said wrong at its line
        return Recording(*not_run(error, source, function, case))
    if module is None:   # a whole program (whole_program.py): nothing is imported, the file is the program
        filename = os.path.abspath(source)
        root = os.path.dirname(filename)
    else:
        root, filename = locate(source, module)
    with CleanRun(root) as clean:
        recorder = Recorder(filename, max_events=max_events, time_limit=time_limit, check_looks=check_looks)
        program = Program(recorder, pick_backend(backend, recorder) if record else None, time_limit, on_phase,
                          held)
        named = {"source": source, "function": function, "case": case}
        if watch is not None:
            recorder.watched(watch)
            watch.recording_now = lambda: program.stopped_here(filename, **named)
        with program.capture, _event_loops():
            with refused(recorder):
                program.run(module, setup_code, entry_code, clean)
            end = _end(program.error, recorder, filename, program.elapsed, program.fault)
            found = program.let_go(clean)
    document = program.document(end, found, **named)
    if check_looks:
        document["stats"]["stale_looks"] = recorder.stale_looks
    return Recording(recorder, document)


class Program:
    """One run of the program, in the order it must happen: the module imported and setup run, the
    entry run with the recorder installed, and then what the run leaves let go (`let_go`)."""

    def __init__(self, recorder: Recorder, backend: Any, time_limit: float,
                 on_phase: Callable[[str], None] | None, held: interrupts.Held | None = None) -> None:
        self.recorder, self.backend = recorder, backend
        self.namespace: dict = {"__name__": "__stepwise__", "__builtins__": sys.modules["builtins"]}
        self.capture = OutputCapture(recorder.stdout if backend is not None else None)
        self.deadline = Deadline(recorder, time_limit)
        self.error: BaseException | None = None
        self.fault: str | None = None     # why the recorder could not start
        self.elapsed = 0.0
        self.started = 0.0
        # Said once, by the first statement that runs after the program's code: from the worker's
        # uninstalling its interrupt buffer there, no KeyboardInterrupt can land in the recorder's own
        # code (a check point before a `try` of ours, or a loop's back edge that CPython leaves out of
        # the exception table, would let one tear the run's isolation).
        self.ending = on_phase
        self.held = held

    def ended(self) -> None:
        """The program's code is over: said once, before anything of the recorder's is taken down."""
        if self.held is not None:
            self.held.close()
        if self.ending is not None:
            ending, self.ending = self.ending, None
            ending("finishing")

    def document(self, end: dict, found: list, source: str, function: str | None, case: str | None) -> dict:
        """The trace document's fields besides the recorder's tables (docs/trace-format.md)."""
        recorder, capture = self.recorder, self.capture
        return {
            "format": FORMAT, "version": VERSION, "source": source, "function": function, "case": case,
            "python": sys.version.split()[0], "backend": self.backend.name if self.backend else "none",
            "stdout_text": capture.out.text(), "stderr_text": capture.err.text(), "end": end, "files": found,
            "stats": {"events": recorder.count, "kept": recorder.table.kept(), "calls": recorder.calls,
                      "elapsed_ms": round(self.elapsed, 3), "stdout_truncated": capture.truncated,
                      "internal_errors": recorder.internal_errors},
        }

    def stopped_here(self, filename: str, **named: Any) -> Recording:
        """The run as it stands, in the middle of the program, ended as stopped at its time limit: for a
        watched run in a process that will not go on (`watchdog`), where a program that swallows its stop
        could never be brought back here."""
        self.recorder.stop("time_limit")
        self.recorder.finish()
        self.elapsed = (time.perf_counter() - self.started) * 1000
        end = _end(LimitReached("time_limit"), self.recorder, filename, self.elapsed)
        return Recording(self.recorder, self.document(end, [], **named))

    def run(self, module: str | None, setup_code: Any, entry_code: Any, clean: CleanRun) -> None:
        """Everything of the program's, with every ending kept as data in `error`."""
        started = self.started = time.perf_counter()
        try:
            if self.ending is not None:
                self.ending("running")   # an interrupt sent before now is taken here, inside the try
            self.deadline.arm()
            if self.held is not None:
                self.held.open_for(self.deadline)
            if module is not None:
                importlib.import_module(module)
            exec(setup_code, self.namespace)
            if self.backend is None:
                exec(entry_code, self.namespace)
            else:
                self._traced(entry_code)
        except BaseException as caught:  # noqa: BLE001 - every ending is data here
            self.error = caught
        finally:
            self.ended()
            clean.lift_recursion_limit()      # the teardown below must not run under a program's tiny limit
            _disarm(self.deadline)
        self.elapsed = (time.perf_counter() - started) * 1000
        self.recorder.finish(returned=self.error is None)

    def _traced(self, entry_code: Any) -> None:
        """The entry, with the recorder installed around it and a collection's start heard first (its
        finalizers may change anything; first, so a callback of the program's cannot take it out)."""
        hook = self.recorder.gc_hook
        gc.callbacks.insert(0, hook)
        try:
            try:
                self.backend.install()
            except Exception as failure:  # noqa: BLE001 - the recorder could not start
                self.fault = exception_text(failure)
                raise
            try:
                exec(entry_code, self.namespace)
            finally:
                try:
                    self.ended()     # first: nothing may interrupt the recorder's teardown
                finally:
                    self.backend.uninstall()
        finally:
            for position, callback in enumerate(gc.callbacks):   # by identity: `in` would call __eq__
                if callback is hook:
                    del gc.callbacks[position]
                    break

    def let_go(self, clean: CleanRun) -> list:
        """Free what the run leaves while its output is still captured, so finalizers print into it:
        the exception (a long traceback freed at once overflows Pyodide's stack), the state the program
        displaced, its modules and namespace (`freeing`: one object at a time); then the state again, in
        case a finalizer just run put something back. Returns the files the run made."""
        held = freeing.exception_in_freeing_order(self.error)
        self.error = None
        freeing.let_go(held)
        found = run_files.collect(clean.temp_dir, clean.work_dir)
        dropped = clean.forget_lesson_modules()
        clean.put_back()
        self.recorder.values.previewer.forget()
        exceptions.forget()
        namespace, self.namespace = self.namespace, {}
        freeing.let_run_go(namespace, dropped, clean.collect)
        clean.put_back()
        return found


def _event_loops() -> Any:
    """No event loop runs during the run, as in a script (`async_loop`); asyncio is not imported for it."""
    if "asyncio" not in sys.modules:
        return nullcontext()
    from . import async_loop
    return async_loop.as_in_a_script()


def not_run(error: SyntaxError, source: str, function: str | None, case: str | None) -> tuple[Recorder, dict]:
    """The trace of a case whose setup, entry or (a whole program's) shown file does not compile: no
    events, a clear end."""
    exception = {**describe_exception(error, error.msg or "invalid syntax"), "line": error.lineno,
                 "in_source": error.filename == source, "file": error.filename}
    end = {"status": "raised", "reason": None, "exception": exception, "ms": 0.0, "call": None}
    return nothing_recorded(error.filename or "<none>", end, source, function, case)


def nothing_recorded(filename: str, end: dict, source: str, function: str | None,
                     case: str | None) -> tuple[Recorder, dict]:
    """(recorder, document) of a case that recorded no event, ended as `end` says: nothing is run."""
    recorder = Recorder(filename, max_events=MIN_EVENTS)
    return recorder, {
        "format": FORMAT, "version": VERSION, "source": source, "function": function, "case": case,
        "python": sys.version.split()[0], "backend": "none",
        "stdout_text": "", "stderr_text": "", "end": end, "files": [],
        "stats": {"events": 0, "kept": 0, "calls": 0, "elapsed_ms": end["ms"], "stdout_truncated": False,
                  "internal_errors": []},
    }


def _disarm(deadline: Deadline) -> None:
    """Disarm even if a last tick of the timer lands in this very call."""
    for _ in range(100):
        try:
            deadline.disarm()
            return
        except LimitReached:
            continue


def _end(error: BaseException | None, recorder: Recorder, filename: str, elapsed: float,
         fault: str | None = None) -> dict:
    """How the run ended: returned, raised (with where), stopped (and why), or failed (the
    recorder itself could not run: then `reason` is "recorder" and `exception` says why)."""
    status, reason, exception = "returned", None, None
    if fault is not None:
        status, reason = "failed", "recorder"
        exception = {"type": "RecorderError", "message": fault, "line": None, "in_source": False}
    elif recorder.stop_reason is not None or type(error) is LimitReached:
        status = "stopped"
        reason = recorder.stop_reason or error.reason
    elif isinstance(error, KeyboardInterrupt):
        status, reason = "stopped", "interrupted"
    if error is not None and status == "returned":
        status = "raised"
        exception = {**describe_exception(error), **_where(error, filename)}
    return {"status": status, "reason": reason, "exception": exception, "ms": round(elapsed, 3),
            "call": _call(recorder)}


def _where(error: BaseException, filename: str) -> dict:
    """The last line of the shown file the exception passed through, else its setup/entry line."""
    line, in_source, fallback = None, False, None
    tb = error.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name == filename:
            line, in_source = tb.tb_lineno, True
        elif name in ("<setup>", "<entry>"):
            fallback = (tb.tb_lineno, name)
        tb = tb.tb_next
    result = {"line": line, "in_source": in_source}
    if not in_source and fallback is not None:
        result["line"], result["file"] = fallback
    return result


def _call(recorder: Recorder) -> dict | None:
    """Outcome of the last top-level call into the shown file (what the UI calls the result)."""
    if recorder.outcome is None:
        return None
    frame, status, payload = recorder.outcome
    if status == "raised":
        description, line = payload if payload is not None else ({"type": "?", "message": ""}, None)
        return {"frame": frame, "status": "raised", "value": None, "exception": {**description, "line": line}}
    return {"frame": frame, "status": status, "value": payload, "exception": None}
