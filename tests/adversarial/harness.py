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

The report holds the untraced document, one traced document per backend, a second
traced run (to catch leaks between runs), the interpreter state before and after, and
whether a file planted outside the run survived.
"""
from __future__ import annotations

import builtins
import contextlib
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
                              "backend-bound"):
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


def run(run_case, name: str, setup: str, entry: str, **options) -> tuple[dict, float]:
    started = time.perf_counter()
    options = {"time_limit": TIME_LIMIT, "max_events": MAX_EVENTS, **options}
    text = run_case(f"{name}.py", name, setup, entry, function="main", case=name, **options)
    return json.loads(text), time.perf_counter() - started


def peak_memory(run_case, name: str, setup: str, entry: str, **options) -> dict:
    """Peak Python memory of one whole run up to the writing of its trace, and how the run ended.

    Writing the trace is left out: it costs in proportion to the trace, which the event and preview
    limits bound, not to what the program held; the peak before it is what the recorder kept alive
    besides the program's own memory (the trace's tables included)."""
    import tracemalloc

    from steptrace import runner
    peaks: list[int] = []
    write = runner._written

    def written(recorder, document, form):
        peaks.append(tracemalloc.get_traced_memory()[1])
        return write(recorder, document, form)

    runner._written = written
    tracemalloc.start()
    try:
        doc, _ = run(run_case, name, setup, entry, time_limit=MEMORY_TIME_LIMIT, **options)
    finally:
        tracemalloc.stop()
        runner._written = write
    return {"peak": peaks[-1], "status": doc["end"]["status"], "reason": doc["end"]["reason"]}


def examine(directory: str, name: str, backends: list[str]) -> dict:
    from steptrace.runner import run_case
    if directory not in sys.path:
        sys.path.insert(0, directory)
    found = directives(os.path.join(directory, f"{name}.py"))
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
                "untraced": peak_memory(run_case, name, setup, entry, record=False),
                "traced": peak_memory(run_case, name, setup, entry, backend=backends[0]),
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


def collector_waiting(action, *args) -> None:
    """`action(*args)` with the collector kept waiting (no contextlib: this runs inside the program's
    run, which may have rebound the exceptions contextlib catches)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        action(*args)
    finally:
        if enabled:
            gc.enable()


def last_delta_names(chunk) -> list[str]:
    """The names the chunk's last locals delta sets or unbinds."""
    count, row = chunk.delta_sets[-1], len(chunk.delta_event) - 1
    return sorted({*chunk.set_names[len(chunk.set_names) - count:], *(n for r, n in chunk.deleted if r == row)})


@contextlib.contextmanager
def looks_checked():
    """While inside, every cheap step (one that looked only at the names its line writes) is followed
    by a look at every local: anything that look still finds changed was missed. And after every look,
    what the recorder believes each local shows must be what a fresh previewer makes of the value now
    (a change check that wrongly says "unchanged" shows a stale value). Yields (missed, cheap): the
    misses as [event, [names]] (none is the only right answer) and the cheap steps' events, filled as
    the recorder runs. Used by this harness, tests/test_line_effects.py and tests/test_loop_effects.py."""
    from steptrace import previews, recorder
    original, original_all = recorder.Recorder._locals_named, recorder.Recorder._locals
    missed, cheap = [], []

    def fresh_previews_agree(recorder, state, frame, index):
        fresh = previews.Previewer()             # no cache shared with the recorder's
        current = frame.f_locals
        stale = []
        for local, known in state.seen.items():
            believed = known[2] if known[2] is not None else fresh.number(type(known[0]), known[0])
            if local not in current or fresh.preview(current[local]) != believed:
                stale.append(local)
        if stale:
            missed.append([index, ["stale: " + local for local in sorted(stale)]])

    def scalars_in_step(state, index):
        """The frame's `scalars` (what makes a line cheap) must be exactly the names seen as scalars."""
        if state.scalars != {name for name, known in state.seen.items() if known[1] is None}:
            missed.append([index, ["scalars out of step with seen"]])

    def named_then_all(self, state, frame, index, names):
        looked_at[0] = index
        epoch = self.epoch
        original(self, state, frame, index, names)
        cheap.append(index)
        scalars_in_step(state, index)
        if self.epoch != epoch:
            # A collection ran during the cheap look: the recorder must look at every local itself now
            # (`line_then_checked` compares what it then believes with fresh previews).
            collected.append(index)
            return
        chunk = self.table.current
        before = len(chunk.delta_event)
        self._locals(state, frame, index)
        if len(chunk.delta_event) > before:
            missed.append([index, last_delta_names(chunk)])

    def all_checked(self, state, frame, index):
        looked_at[0] = index
        # From the recorder's look to the end of these checks the collector waits, as it does during the
        # look itself: the checks' allocations must not run a finalizer of the program's in between.
        collector_waiting(look_then_compare, self, state, frame, index)

    def look_then_compare(self, state, frame, index):
        original_all(self, state, frame, index)
        scalars_in_step(state, index)
        fresh_previews_agree(self, state, frame, index)

    def line_then_checked(self, state, frame, lineno):
        original_line(self, state, frame, lineno)
        index = self.count - 1
        if collected:
            collector_waiting(fresh_previews_agree, self, state, frame, collected.pop())
        elif looked_at[0] != index:
            # A cheap step `line` looked at itself (one int name, inline) or whose line wrote no name. A
            # look at every local must find nothing new either.
            cheap.append(index)
            chunk = self.table.current
            before = len(chunk.delta_event)
            self._locals(state, frame, index)
            if len(chunk.delta_event) > before:
                missed.append([index, last_delta_names(chunk)])

    collected = []
    looked_at = [-1]
    original_line = recorder.Recorder.line
    recorder.Recorder._locals_named, recorder.Recorder._locals = named_then_all, all_checked
    recorder.Recorder.line = line_then_checked
    try:
        yield missed, cheap
    finally:
        recorder.Recorder._locals_named, recorder.Recorder._locals = original, original_all
        recorder.Recorder.line = original_line


def checked_steps(run_case, name: str, setup: str, entry: str, backend: str) -> list:
    """A traced run under `looks_checked`: its misses, and any fault of the check itself (the recorder
    reports an error raised in its callbacks as a fault of its own, so a broken check would pass silently)."""
    with looks_checked() as (missed, _cheap):
        doc, _seconds = run(run_case, name, setup, entry, backend=backend)
    return missed + [[-1, [f"fault under the check: {text}"]] for text in doc["stats"]["internal_errors"]]


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
