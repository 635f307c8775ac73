"""How long and how far one run may go: one definition for the recorder, the build and the page.

A scenario file may set `[limits]` for the lesson and `limits = {...}` per function; what it
leaves out comes from here. The page stops a run that outlives `seconds` plus `GRACE_SECONDS`
(the recorder's own stop comes first and keeps the trace; the page's deadline is for code the
recorder cannot stop, e.g. untraced setup in Pyodide). The browser worker loads this module too,
so it imports nothing the worker would not otherwise load.
"""
from __future__ import annotations

from builtins import AttributeError, hash, object, round, type  # captured at import: a lesson may rebind the builtins

DEFAULT_SECONDS = 2.5        # a 10x10-grid Dijkstra (~10k-15k steps) finishes in the page
DEFAULT_EVENTS = 1_000_000   # kept events: head and tail windows (see docs/trace-format.md)
GRACE_SECONDS = 0.3          # the recorder stops itself and writes its trace in this time
# Preview nodes a run keeps at most, over all its chunks (a node is one value shown; the trace writes
# each preview whole, ~70 bytes of JSON a node, so this is ~28 MB, what a 1M-event plain loop's packed
# trace weighs). Events alone do not bound a trace: a program that changes a big object graph at every
# step makes a new preview of up to 400 nodes each time (8 KB an event: 1M events would be 8 GB). A
# chunk whose share is spent closes early; the run then keeps fewer events and marks the gap.
PREVIEW_NODES = 400_000
MAX_SECONDS = 60.0           # the most a scenario file may ask for
EVENTS_RANGE = (1_000, 5_000_000)
# `runner.run_case` and `Recorder` called from Python without a scenario's limits (tests, tools,
# bench): no reader waits for these runs, so the default is longer; the page and the CLI always
# pass a scenario's limits.
DIRECT_SECONDS = 10.0
# Every `end.reason` of a stopped run, each with its words on the page (site/i18n.json `reason_<reason>`).
STOP_REASONS = ("time_limit", "generators_nested", "audit_hook", "process", "interrupted")


class Limits:
    """The limits of one function's runs (immutable)."""

    __slots__ = ("seconds", "events")

    def __init__(self, seconds: float = DEFAULT_SECONDS, events: int = DEFAULT_EVENTS) -> None:
        object.__setattr__(self, "seconds", seconds)
        object.__setattr__(self, "events", events)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Limits are immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is Limits and (self.seconds, self.events) == (other.seconds, other.events)

    def __hash__(self) -> int:
        return hash((self.seconds, self.events))

    def __repr__(self) -> str:
        return f"Limits(seconds={self.seconds!r}, events={self.events!r})"

    @property
    def deadline_ms(self) -> int:
        """When the page gives up on a run and stops it from outside."""
        return round((self.seconds + GRACE_SECONDS) * 1000)

    def for_page(self) -> dict:
        return {"timeLimit": self.seconds, "maxEvents": self.events, "deadlineMs": self.deadline_ms}

    def problem(self) -> str | None:
        """What is wrong with these limits, in words an author can act on; None when nothing is."""
        if not 0 < self.seconds <= MAX_SECONDS:
            return f"`seconds` must be more than 0 and at most {MAX_SECONDS:g}, got {self.seconds!r}"
        low, high = EVENTS_RANGE
        if not low <= self.events <= high:
            return f"`events` must be between {low:,} and {high:,}, got {self.events!r}"
        return None
