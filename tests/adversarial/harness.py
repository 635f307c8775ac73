"""Run one adversarial program through `run_case` and report what a test needs to judge it.

This file runs *inside* the interpreter under test: a CPython subprocess under a memory
and time cap (`python harness.py DIR NAME`), or Pyodide (imported, `examine(...)` called).
Stdlib only. Each program is a module in `programs/`; its header comments may say:

    # setup: <code>     setup to run instead of `from <name> import *` (\\n for new lines)
    # entry: <code>     the entry instead of `main()`
    # runaway: ...      it never ends by itself: no untraced run (nothing would stop it)
    # memory: ...       measure peak Python memory traced and untraced (tracemalloc)
    # needs: signals    only where a POSIX timer can stop untraced code (not Pyodide)
    # limit-bound: ...  it runs into the recursion limit: events there vary run to run
    # gc-bound: ...     what it records depends on when garbage collections run: runs may differ
    # backend-bound: ... what it records depends on the backend (both must still be faithful)
    # seconds: <n>      its runs' time limit instead of TIME_LIMIT (a program of many deep steps)

The report holds the untraced document, one traced document per backend, a second
traced run (to catch leaks between runs), the interpreter state before and after, and
whether a file planted outside the run survived.
"""
from __future__ import annotations

import builtins
import gc
import json
import os
import sys
import tempfile
import time

TIME_LIMIT = 1.0
MAX_EVENTS = 20_000
MEMORY_TIME_LIMIT = 60.0    # a memory run is measured whole: tracemalloc slows it past TIME_LIMIT


def directives(path: str) -> dict[str, str]:
    found: dict[str, str] = {}
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            if not line.startswith("#"):
                break
            key, _, value = line[1:].strip().partition(":")
            if key.strip() in ("setup", "entry", "runaway", "memory", "needs", "limit-bound", "gc-bound",
                              "backend-bound", "seconds"):
                found[key.strip()] = value.strip().encode().decode("unicode_escape")
    return found


def state() -> dict:
    """Interpreter state a run must leave as it found it."""
    monitoring = getattr(sys, "monitoring", None)
    return {
        "path": list(sys.path), "recursion": sys.getrecursionlimit(), "trace": repr(sys.gettrace()),
        "profile": repr(sys.getprofile()), "cwd": os.getcwd(), "tempdir": tempfile.tempdir,
        "gettempdir": tempfile.gettempdir(), "gc": gc.isenabled(), "argv": list(sys.argv),
        "gc_callbacks": [id(callback) for callback in gc.callbacks],
        "builtins": sorted((name, id(value)) for name, value in vars(builtins).items()),
        "streams": [id(sys.stdout), id(sys.stderr), id(sys.__stdout__), id(sys.__stderr__)],
        "environ": sorted(os.environ.items()),
        "tools": [monitoring.get_tool(i) for i in range(6)] if monitoring else [],
        "modules": sorted(name for name, module in sys.modules.items() if type(module).__name__ != "module"),
    }


directives_of: dict[str, dict] = {}    # name -> its directives, as `examine` read them


def run(run_case, name: str, setup: str, entry: str, **options) -> tuple[dict, float]:
    started = time.perf_counter()
    seconds = float(directives_of.get(name, {}).get("seconds", TIME_LIMIT))
    options = {"time_limit": seconds, "max_events": MAX_EVENTS, **options}
    text = run_case(f"{name}.py", name, setup, entry, function="main", case=name, **options)
    return json.loads(text), time.perf_counter() - started


def peak_memory(name: str, setup: str, entry: str, **options) -> dict:
    """Peak Python memory of one whole run up to the writing of its trace, and how the run ended.

    Writing the trace is left out: it costs in proportion to the trace, which the event and preview
    limits bound, not to what the program held; the peak before it is what the recorder kept alive
    besides the program's own memory (the trace's tables included)."""
    import tracemalloc

    from steptrace.runner import record_case
    options = {"time_limit": MEMORY_TIME_LIMIT, "max_events": MAX_EVENTS, **options}
    tracemalloc.start()
    try:
        recording = record_case(f"{name}.py", name, setup, entry, function="main", case=name, **options)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    end = recording.document["end"]
    return {"peak": peak, "status": end["status"], "reason": end["reason"]}


def examine(directory: str, name: str, backends: list[str]) -> dict:
    from steptrace.runner import run_case
    if directory not in sys.path:
        sys.path.insert(0, directory)
    found = directives_of[name] = directives(os.path.join(directory, f"{name}.py"))
    setup = found.get("setup", f"from {name} import *\n")
    entry = found.get("entry", "main()") + "\n"
    outsider = os.path.join(tempfile.gettempdir(), f"stepwise-outsider-{os.getpid()}-{name}")
    planted = os.path.join(tempfile.gettempdir(), f"stepwise-planted-{os.getpid()}-{name}")
    with open(planted, "w") as stream:
        stream.write("planted before the run")
    os.environ["STEPWISE_OUTSIDER"] = outsider
    report: dict = {"name": name, "python": sys.version.split()[0], "directives": found, "seconds": {}}
    report["before"] = state()
    try:
        if "runaway" not in found:
            report["untraced"], report["seconds"]["untraced"] = run(run_case, name, setup, entry, record=False)
        report["traced"] = {}
        for backend in backends:
            doc, seconds = run(run_case, name, setup, entry, backend=backend)
            report["traced"][backend] = doc
            report["seconds"][backend] = seconds
        report["second"], report["seconds"]["second"] = run(run_case, name, setup, entry, backend=backends[0])
        report["missed"] = checked_steps(run_case, name, setup, entry, backends[0])
        if "memory" in found:
            report["memory"] = {
                "untraced": peak_memory(name, setup, entry, record=False),
                "traced": peak_memory(name, setup, entry, backend=backends[0]),
            }
        report["after"] = state()
    finally:
        del os.environ["STEPWISE_OUTSIDER"]
    report["planted_survived"] = os.path.exists(planted)
    report["outsider_survived"] = os.path.exists(outsider) or name != "outsider_file"
    for path in (planted, outsider):
        if os.path.exists(path):
            os.unlink(path)
    return report


def checked_steps(run_case, name: str, setup: str, entry: str, backend: str) -> list:
    """A traced run with the recorder's look oracle on (`check_looks`): every look checked against a
    fresh preview of every local. Its stale looks as [event, [names]], and any fault of the recorder's
    (one raised in its callbacks is kept as a fault, so a broken check would otherwise pass silently)."""
    doc, _seconds = run(run_case, name, setup, entry, backend=backend, check_looks=True)
    return doc["stats"]["stale_looks"] + [[-1, [f"fault under the check: {text}"]]
                                          for text in doc["stats"]["internal_errors"]]


def main() -> None:
    directory, name = sys.argv[1], sys.argv[2]
    backends = sys.argv[3].split(",") if len(sys.argv) > 3 else ["settrace"]
    real_stdout = sys.stdout
    report = examine(directory, name, backends)
    real_stdout.write(json.dumps(report, ensure_ascii=False))
    real_stdout.flush()
    os._exit(0)   # finalizers the program left for shutdown must not write after the report


if __name__ == "__main__":
    main()
