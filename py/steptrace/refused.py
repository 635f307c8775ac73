"""Calls the run refuses: each stops the program, with its own end reason, instead of doing what it does.

- `sys.addaudithook` (reason "audit_hook"): an audit hook can never be taken out again; it would see the
  recorder's own audited calls (the monitoring backend's `sys._getframe` at every event, the scan of the
  run's folders) and run its code there, in this run and in every later one of the interpreter.
- `os._exit`, `os.abort`, `os.fork`, `os.forkpty` (reason "process"): they end or split the process that
  runs the case, the page's worker or the build's Pyodide, which answered with a raw `JSError`, or a CLI
  with no trace (or two). The run ends there with one trace that says why.

The program can catch the stop (`except BaseException`) as it can the time limit's; the recorder then
stops it again at every event. Only the names are replaced: a program holding the function from before
the run (none can: the shown module is imported afresh during it) would call the real one.
"""
from __future__ import annotations

import os
import sys
from builtins import setattr  # captured at import: a lesson may rebind the builtins
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .recorder import LimitReached, Recorder

# (module, name, reason): what is refused; a name the platform lacks (os.fork on Windows) is skipped.
REFUSED = ((sys, "addaudithook", "audit_hook"), (os, "_exit", "process"), (os, "abort", "process"),
           (os, "fork", "process"), (os, "forkpty", "process"))


@contextmanager
def refused(recorder: Recorder) -> Iterator[None]:
    """Every call in REFUSED stops the run while this lasts; the real functions are put back after."""
    saved = [(module, name, module.__dict__[name]) for module, name, _ in REFUSED if name in module.__dict__]
    for module, name, reason in REFUSED:
        if name in module.__dict__:
            setattr(module, name, _stopper(recorder, reason))
    try:
        yield
    finally:
        for module, name, function in saved:
            setattr(module, name, function)


def _stopper(recorder: Recorder, reason: str) -> Callable[..., Any]:
    def refused_call(*args: Any, **kwargs: Any) -> Any:
        recorder.stop(reason)
        raise LimitReached(reason)
    return refused_call
