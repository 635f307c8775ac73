"""The run's time limit, delivered so that the program cannot outlast it.

The recorder checks the clock on its own events, which covers traced code in any
interpreter. Where the interpreter has POSIX interval timers (CPython on the main
thread; not Pyodide, whose page stops a runaway with its interrupt buffer), a
SIGALRM timer also covers what the recorder does not see: setup code, helpers
outside the shown file, C loops that call back into Python. Once the limit has
passed it fires again every `REPEAT` seconds until the run is over, so a program that
swallows the stop (`except BaseException:`, `finally: continue`) is stopped again;
and with it the settrace backend never raises from its trace function, which
CPython would answer by switching tracing off for good.

A tick that lands inside the recorder's or the runner's own code does not raise
there (it would tear a half-written event), nor in the stdlib or installed packages
(an unraisable-exception hook, a finalizer of the host); the next tick lands in the program.
"""
from __future__ import annotations

import os
import signal
import sys
import sysconfig
import threading
import time
from builtins import hasattr, sorted, tuple  # captured at import: a lesson may rebind the builtins

from .recorder import LimitReached, Recorder

REPEAT = 0.002
OWN_FOLDER = os.path.dirname(os.path.abspath(__file__)) + os.sep
# Code a tick never interrupts: the recorder's, and the interpreter's own machinery (stdlib,
# installed packages: an unraisable-exception hook, a test runner's finalizers). A runaway program
# always comes back to its own code, and is stopped there.
NOT_THE_PROGRAM = tuple(sorted({OWN_FOLDER, *(os.path.join(path, "") for key, path in sysconfig.get_paths().items()
                                              if key in ("stdlib", "platstdlib", "purelib", "platlib"))}))


def signals_usable() -> bool:
    return (hasattr(signal, "setitimer") and sys.platform != "emscripten"
            and threading.current_thread() is threading.main_thread())


class Deadline:
    """Arm before setup runs, disarm as soon as the program's code has ended."""

    def __init__(self, recorder: Recorder, seconds: float) -> None:
        self.recorder = recorder
        self.seconds = seconds
        self.armed = False
        self._previous = None

    def arm(self) -> None:
        self.recorder.start_clock()
        if not signals_usable() or self.seconds <= 0:
            return
        handler = self.recorder.signal_handler = self._fire      # so calm steps know it for the recorder's
        self._previous = signal.signal(signal.SIGALRM, handler)
        signal.setitimer(signal.ITIMER_REAL, self.seconds, REPEAT)
        self.armed = True
        self.recorder.raise_in_callbacks = False

    def passed(self) -> bool:
        """The run's time limit has passed (the recorder's clock, started by `arm`)."""
        return time.perf_counter() > self.recorder.deadline

    def stop_soon(self, reason: str) -> None:
        """Stop the program now as the limit would (an interrupt): at its next event, and where a
        timer is armed, at its next tick in its own code."""
        self.recorder.stop(reason)
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, REPEAT, REPEAT)

    def _fire(self, signum: int, frame) -> None:
        self.recorder.stop("time_limit")
        if frame is not None and frame.f_code.co_filename.startswith(NOT_THE_PROGRAM):
            return
        raise LimitReached(self.recorder.stop_reason)

    def disarm(self) -> None:
        """Idempotent; safe to call again if a last tick interrupted it."""
        if not self.armed:
            return
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, self._previous if self._previous is not None else signal.SIG_DFL)
        self.armed = False
