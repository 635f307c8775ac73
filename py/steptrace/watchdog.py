"""A run on CPython that cannot stop itself is stopped from outside, and its trace is kept.

The time limit stops a program at its next Python instruction (`deadline`, the recorder's own clock).
Two kinds of program never get there: one looping inside a single call into C (`sum(range(10**15))`), and
one that catches every stop (`except BaseException:` around a loop, a `finally` that loops). Nothing in
the process can run while C holds it, so `run_case_watched` runs the case in a forked child and watches
it: past the time limit plus `GRACE_SECONDS` and `KILL_SECONDS`, a child whose program is still running
is killed. Its trace dies with it, but the child wrote how many events it had recorded (`Watch.progress`,
shared memory) at every event, and the watcher noted how many there were when the limit and its grace
had passed. The same case is run again, deterministic as runs are, in a second child told to end just
after that many events (`Watch.stop_at`): at the very line that hung in C, or where a program that
swallows its stops was at its limit, the child writes the trace as it stands, with end reason
`time_limit`, and exits. If the second run cannot be brought there either, or the first recorded nothing
by its limit (a hang in the module's import or the setup), the answer is a trace with no events, stopped
at the time limit.

Writing a trace (from `on_phase("finishing")` on) is never cut short. Where there is no `os.fork`
(Windows, Pyodide: the page and the build's proof watch their worker instead) the run is not watched.
"""
from __future__ import annotations

import mmap
import os
import signal
import tempfile
import time
from builtins import (  # captured at import: a lesson may rebind the builtins
    RuntimeError,
    hasattr,
    memoryview,
    round,
)
from typing import Any

from .limits import GRACE_SECONDS
from .runner import Recording, nothing_recorded, run_case

KILL_SECONDS = 2.0      # after the limit and its grace: the runner stops at a Python instruction well within
POLL_SECONDS = 0.01
_exit = os._exit        # the real one: during a run `os._exit` stops the program instead (`refused`)


class Watch:
    """What a watched run shares with its watcher: [events recorded, finishing (0/1)], and where to stop."""

    mask = 0                   # the count is written at every event (shared memory: as cheap as a store)

    def __init__(self, stop_at: float = float("inf")) -> None:
        self._memory = mmap.mmap(-1, 16)
        self.progress = memoryview(self._memory).cast("q")
        self.stop_at = stop_at
        self.at_limit = 0          # events recorded when the limit and its grace had passed (the watcher's)

        self.recording_now: Any = None   # set by `runner.record_case`: the run as it stands, as a Recording
        self.answer: Any = None          # the child's file for the trace

    def phase(self, name: str) -> None:
        if name == "finishing":
            self.progress[1] = 1

    def stop_here(self) -> None:
        """Called by the recorder at event `stop_at`, in the child: write the trace as it stands and end the
        process. Raising a stop instead would not do: a program that swallows it runs on, untraced."""
        self.progress[1] = 1
        try:
            self.recording_now().write(self.answer)
        finally:
            _exit(0)


def run_case_watched(source: str, module: str, setup: str, entry: str, *, time_limit: float,
                     **options: Any) -> str:
    """`runner.run_case`'s JSON trace, from a run that is stopped however it loops (see the module)."""
    if not hasattr(os, "fork"):
        return run_case(source, module, setup, entry, time_limit=time_limit, **options)
    args = (source, module, setup, entry)
    first = Watch()
    text = _in_child(args, time_limit, options, first)
    if text is not None:
        return text
    if first.at_limit:          # nothing recorded by then (a hang in the import or setup): no use again
        text = _in_child(args, time_limit, options, Watch(stop_at=first.at_limit))
        if text is not None:
            return text
    return _unstoppable(source, module, time_limit, options)


def _unstoppable(source: str, module: str, time_limit: float, options: dict) -> str:
    """A trace with no events for a run that could not be stopped (nor brought back to where it was):
    its end says the time limit. Nothing of the program runs here, in the watcher's own process."""
    end = {"status": "stopped", "reason": "time_limit", "exception": None,
           "ms": round((time_limit + GRACE_SECONDS + KILL_SECONDS) * 1000, 3), "call": None}
    recorder, document = nothing_recorded(module, end, source, options.get("function"), options.get("case"))
    return Recording(recorder, document).written("json")


def _in_child(args: tuple, time_limit: float, options: dict, watch: Watch) -> str | None:
    """The trace of one run in a forked child, or None when the child had to be killed."""
    with tempfile.TemporaryFile() as answer:
        pid = os.fork()
        if pid == 0:
            _child(args, time_limit, options, watch, answer)
        killed = _watch(pid, time_limit + GRACE_SECONDS, watch)
        if killed:
            return None
        answer.seek(0)
        return answer.read().decode("utf-8")


def _child(args: tuple, time_limit: float, options: dict, watch: Watch, answer: Any) -> None:
    """Run, write the trace, and leave at once (`os._exit`: no atexit, no buffers of the parent's)."""
    code = 1
    watch.answer = answer
    try:
        run_case(*args, time_limit=time_limit, watch=watch, on_phase=watch.phase, out=answer, **options)
        code = 0
    finally:
        _exit(code)


def _watch(pid: int, seconds: float, watch: Watch) -> bool:
    """Wait for the child; kill it if its program still runs `KILL_SECONDS` after the `seconds` it may
    take, noting in `watch.at_limit` how far it had come by then. True if killed."""
    limit = time.monotonic() + seconds
    deadline = limit + KILL_SECONDS
    while True:
        if not watch.at_limit and time.monotonic() > limit:
            watch.at_limit = watch.progress[0]
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            if os.waitstatus_to_exitcode(status) != 0:
                raise RuntimeError(f"the run's process ended with status {os.waitstatus_to_exitcode(status)}")
            return False
        if watch.progress[1] == 0 and time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return True
        time.sleep(POLL_SECONDS)
