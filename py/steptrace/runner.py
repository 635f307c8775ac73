"""Run one scenario case with the recorder on and answer with one JSON string.

This is what the browser worker calls (through `pyodide.runPython`) and what
the CLI prints. The shown module is imported from its real file, so code
objects carry its real path and line numbers; setup and entry are compiled as
`<setup>` and `<entry>` and are never recorded. Setup runs untraced (it only
prepares inputs); the recorder is on while the entry runs.
"""
from __future__ import annotations

import builtins
import importlib
import json
import os
import sys
import time
import types
from collections.abc import Callable

from . import monitor
from .capture import StdoutCapture
from .files import TempFiles
from .recorder import LimitReached, Recorder, SettraceBackend, describe_exception
from .values import Previewer

FORMAT = "stepwise-trace"
VERSION = 2
BACKENDS = ("auto", "settrace", "monitoring")


class RunnerError(ValueError):
    """The request itself is wrong (unknown module, source mismatch, bad backend)."""


def shown_module(source: str, module: str) -> tuple[types.ModuleType, str]:
    """Import `module` and check it is the file `source` (repo-relative path); return it and its co_filename."""
    try:
        loaded = importlib.import_module(module)
    except ImportError as error:
        raise RunnerError(f"cannot import the shown module {module!r}: {error}") from None
    path = getattr(loaded, "__file__", None) or ""
    wanted = source.replace("\\", "/").lstrip("./")
    if not path.replace(os.sep, "/").endswith("/" + wanted) and path.replace(os.sep, "/") != wanted:
        raise RunnerError(f"module {module!r} is {path!r}, not the shown source {source!r}")
    filename = path
    for value in vars(loaded).values():
        code = getattr(value, "__code__", None)
        if code is not None and os.path.basename(code.co_filename) == os.path.basename(path):
            filename = code.co_filename
            break
    return loaded, filename


def pick_backend(name: str, recorder: Recorder, module: types.ModuleType):
    """`auto`: sys.monitoring where the interpreter has it (same events, far cheaper elsewhere)."""
    if name not in BACKENDS:
        raise RunnerError(f"unknown backend {name!r}; use one of {', '.join(BACKENDS)}")
    if name == "monitoring" and not monitor.available():
        raise RunnerError("the monitoring backend needs Python 3.12+")
    if name == "settrace" or (name == "auto" and not monitor.available()):
        return SettraceBackend(recorder)
    return monitor.MonitoringBackend(recorder, monitor.shown_code_objects(module, recorder.filename))


def run_case(source: str, module: str, setup: str, entry: str, *, function: str | None = None,
             case: str | None = None, max_events: int = 1_000_000, time_limit: float = 10.0,
             backend: str = "auto", record: bool = True,
             on_phase: Callable[[str], None] | None = None) -> str:
    """Run setup then entry; return the trace document (docs/trace-format.md) as a JSON string.

    `record=False` runs the same code without any recorder (for overhead comparison);
    the document then has no events and `backend` "none". `on_phase("finishing")` is called
    once the code has stopped running: from then on only the trace is being written, so a
    watchdog (the browser worker's) should wait for it instead of interrupting.
    """
    loaded, filename = shown_module(source, module)
    setup_code = compile(setup, "<setup>", "exec")
    entry_code = compile(entry, "<entry>", "exec")
    recorder = Recorder(filename, max_events=max_events, time_limit=time_limit, previewer=Previewer())
    chosen = pick_backend(backend, recorder, loaded) if record else None
    namespace: dict = {"__name__": "__stepwise__", "__builtins__": builtins}
    temp = TempFiles()
    capture = StdoutCapture(recorder.stdout if record else None)
    error: BaseException | None = None
    started = time.perf_counter()
    with capture:
        try:
            exec(setup_code, namespace)
            if chosen is not None:
                recorder.start_clock()
                chosen.install()
                try:
                    exec(entry_code, namespace)
                finally:
                    chosen.uninstall()
            else:
                exec(entry_code, namespace)
        except BaseException as caught:  # noqa: BLE001 - every ending is data here
            error = caught
    elapsed = (time.perf_counter() - started) * 1000
    if on_phase is not None:
        on_phase("finishing")
    end = _end(error, recorder, filename, elapsed)
    del error
    files = temp.collect()
    namespace.clear()
    temp.clean()
    document = {
        "format": FORMAT, "version": VERSION, "source": source, "function": function, "case": case,
        "python": sys.version.split()[0], "backend": chosen.name if chosen else "none",
        **_tables(recorder),
        "stdout_text": capture.text(),
        "end": end,
        "files": files,
    }
    document["stats"] = {
        "events": recorder.count, "kept": recorder.table.kept(), "calls": recorder.calls,
        "elapsed_ms": round(elapsed, 3), "stdout_truncated": capture.truncated,
        "internal_errors": recorder.internal_errors[:20],
    }
    return _serialize(document)


def _serialize(document: dict) -> str:
    """The document as JSON text, never lost to a late stop request.

    A KeyboardInterrupt here (Pyodide's interrupt buffer, set by a watchdog just as the run
    ended) is consumed by being raised, so one more attempt completes.
    """
    for attempt in (1, 2):
        try:
            # Previews are trees (cycles become "cycle" markers), so the circularity check is waste.
            text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), check_circular=False)
            break
        except KeyboardInterrupt:
            if attempt == 2:
                raise
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:   # lone surrogates in some value: escape everything instead
        text = json.dumps(document, ensure_ascii=True, separators=(",", ":"))
    return text


def _end(error: BaseException | None, recorder: Recorder, filename: str, elapsed: float) -> dict:
    """How the run ended: returned, raised (with where), or stopped (and why)."""
    status, reason, exception = "returned", None, None
    if recorder.stop_reason is not None or isinstance(error, LimitReached):
        status = "stopped"
        reason = recorder.stop_reason or error.reason
    elif isinstance(error, KeyboardInterrupt):
        status, reason = "stopped", "interrupted"
    if error is not None and status != "stopped":
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
    frame, raised, payload = recorder.outcome
    if raised:
        description, line = payload if payload is not None else ({"type": "?", "message": ""}, None)
        return {"frame": frame, "status": "raised", "value": None, "exception": {**description, "line": line}}
    return {"frame": frame, "status": "returned", "value": payload, "exception": None}


def _tables(recorder: Recorder) -> dict:
    """The columnar events and everything attached to them, indexed by kept position."""
    table = recorder.table
    index = table.index
    kinds: list[str] = []
    lines: list[int] = []
    frames: list[int] = []
    deltas, returns, exceptions, stdout, values = [], [], [], [], []
    for chunk in table.chunks():
        base = len(values)
        values.extend(chunk.values)
        kinds.extend(chunk.kinds)
        lines.extend(chunk.lines)
        frames.extend(chunk.frames)
        for i, f, set_, del_, full in chunk.deltas:
            if base:
                set_ = {name: base + ref for name, ref in set_.items()}
            deltas.append({"i": index(i), "f": f, "set": set_, "del": del_, "full": full})
        returns.extend([index(i), base + ref] for i, ref in chunk.returns)
        exceptions.extend([index(i), value] for i, value in chunk.exceptions)
        for i, text in chunk.stdout:
            at = index(i) if i >= 0 else -1
            if stdout and stdout[-1][0] == at:
                stdout[-1][1] += text
            else:
                stdout.append([at, text])
    gap = None
    if table.gap_after is not None:
        gap = {"after": table.gap_after, "dropped": table.dropped}
    frame_table = [{"id": fid, "function": name, "parent": parent, "line": line}
                   for fid, (name, parent, line) in sorted(recorder.frames.items())]
    return {"frames": frame_table, "events": {"kind": "".join(kinds), "line": lines, "frame": frames},
            "gap": gap, "values": values, "locals": deltas, "returns": returns, "exceptions": exceptions,
            "stdout": stdout}
