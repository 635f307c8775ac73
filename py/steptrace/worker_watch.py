"""A run in a JS worker whose host may have to terminate it: how far it came, and later runs that stop
there with its trace.

Pyodide stops a runaway program through its interrupt buffer, but only at a Python instruction: a loop
inside one call into C (`sum(range(10**15))`) or a program that swallows every stop is never stopped
from inside, and the page (`worker-client.js`) or the build's proof (`prove-cases.mjs`) terminates the
worker, and its trace with it. So, as `watchdog.py` does on CPython with a forked child, the run writes
how many events it has recorded into shared memory the host can read (`progress`, an `Int32Array` over
a `SharedArrayBuffer`), and the host notes the count P when it stops the run. Runs are deterministic,
so fresh workers can bring the same case back there:

1. A probe (`probe_from=P`) writes the count at every event and ends `STRIDE` events past P. A program
   that swallows its stops gets there, and that is its trace. One stuck in C stops producing events at
   some count R below P + STRIDE; the host sees the count stand still and terminates the probe.
2. A last run (`stop_at=R`) ends just after event R: the line that hung, or the return into the code
   that did.

At its end a run writes the trace as it stands, ended as stopped at the time limit, and hands it to the
host (`deliver`) from inside the program. The worker is spent after that (the program goes on, or
swallows the stop): the host terminates it.

The first run writes the count every `STRIDE` events, not at each: a write crosses into JS (~0.55 µs in
Pyodide, a tenth of an event's cost), and the probe makes up for the difference.
"""
from __future__ import annotations

from builtins import float  # captured at import: a lesson may rebind the builtins
from collections.abc import Callable
from typing import Any

STRIDE = 8


class WorkerWatch:
    """A `Recorder.watched` watch whose progress the JS host reads (module docstring)."""

    def __init__(self, progress: Any, deliver: Callable[[Any], None], *, stop_at: float | None = None,
                 probe_from: int | None = None, form: str = "packed",
                 on_phase: Callable[[str], None] | None = None) -> None:
        self.progress = progress                  # progress[0]: events recorded, every `mask + 1` events
        self.deliver = deliver                    # takes the trace written as it stands (`form`)
        self.on_phase = on_phase                  # the run's own: told "finishing" before the trace is written
        self.mask = STRIDE - 1
        self.stop_at = float("inf") if stop_at is None else stop_at
        if probe_from is not None:
            self.mask, self.stop_at = 0, probe_from + STRIDE
        self.form = form
        self.recording_now: Any = None            # set by `runner.record_case`

    def stop_here(self) -> None:
        """At event `stop_at`: write the trace as it stands, hand it to the host, and stop the program
        (the host terminates the worker whatever the program does next)."""
        self.stop_at = float("inf")
        if self.on_phase is not None:
            self.on_phase("finishing")            # the host must not interrupt the writing
        self.deliver(self.recording_now().written(self.form))
        raise Delivered("the trace of this run was delivered at its time limit")


class Delivered(BaseException):
    """The run's trace has left (`WorkerWatch.stop_here`): nothing after this is recorded."""
