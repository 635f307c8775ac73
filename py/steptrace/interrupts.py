"""Ctrl-C (SIGINT) during a run: it stops the program, and never tears the run's set-up or its trace.

A KeyboardInterrupt raised where Python's default handler raises it (at any bytecode) would land in
the isolation's set-up, the recorder's teardown or the trace being written, and the caller would get
no trace at all. While `held()` is in force (all of `run_case`), SIGINT goes through `Held.on_signal`
instead:

- while the program's code runs (`open_for` .. `close`), it stops the run as the time limit does
  (`Deadline.stop_soon`), at once when it lands in the program's own code (not the recorder's, not
  the stdlib's: `NOT_THE_PROGRAM`), else at the program's next event or the deadline's next tick;
- an interrupt that comes once the time limit has passed (a watchdog's: the build's proof, the page's
  deadline) stops the run as the time limit, which it is; one before, as "interrupted" (a reader's Stop);
- before the program starts, it is kept and taken as soon as the program starts (`open_for`);
- after it, the program has ended already: the trace is written as it stands, and the interrupt is
  said in `late` (the caller may act on it then, e.g. the CLI exits).

The page's worker sends its Stop through Pyodide's interrupt buffer, which raises SIGINT the same
way; it also installs the buffer only while the code runs (`on_phase`). Off the main thread, where
Python cannot install a handler, nothing is held.
"""
from __future__ import annotations

import signal
import threading
from builtins import hasattr  # captured at import: a lesson may rebind the builtins
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from .deadline import NOT_THE_PROGRAM, Deadline
from .recorder import LimitReached


class Held:
    """What happened to SIGINT during one run."""

    def __init__(self) -> None:
        self.deadline: Deadline | None = None   # set while the program's code runs
        self.ended = False                      # the program's code has ended
        self.pending = False                    # arrived before the program started
        self.late = False                       # arrived after the program had ended

    def open_for(self, deadline: Deadline) -> None:
        """The program starts: an interrupt from now on stops it; one kept from before stops it now."""
        self.deadline = deadline
        if self.pending:
            self.pending = False
            deadline.stop_soon("time_limit" if deadline.passed() else "interrupted")
            raise LimitReached(deadline.recorder.stop_reason)

    def close(self) -> None:
        """The program's code has ended: later interrupts are only noted (`late`)."""
        self.deadline, self.ended = None, True

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        deadline = self.deadline
        if deadline is None:
            if self.ended:
                self.late = True
            else:
                self.pending = True
            return
        deadline.stop_soon("time_limit" if deadline.passed() else "interrupted")
        if frame is not None and not frame.f_code.co_filename.startswith(NOT_THE_PROGRAM):
            raise LimitReached(deadline.recorder.stop_reason)


@contextmanager
def held() -> Iterator[Held]:
    """SIGINT routed through a fresh `Held` for the duration; the previous handler put back after."""
    state = Held()
    if not _can_hold():
        yield state
        return
    previous = signal.signal(signal.SIGINT, state.on_signal)
    try:
        yield state
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)


def _can_hold() -> bool:
    return hasattr(signal, "SIGINT") and threading.current_thread() is threading.main_thread()
