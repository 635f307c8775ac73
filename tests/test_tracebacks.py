"""tracebacks.in_freeing_order / let_go: everything a caught exception reaches, in an order that frees
one object at a time (the Pyodide side is in test_adversarial: deep_raise, runaway_deep_down)."""
from __future__ import annotations

import sys
import types

from steptrace import tracebacks


def down(n: int) -> None:
    if n == 0:
        raise ValueError("bottom")
    down(n - 1)


def caught(action) -> BaseException:
    try:
        action()
    except BaseException as error:  # noqa: BLE001
        return error
    raise AssertionError("nothing was raised")


def test_exceptions_newest_first_then_tracebacks_outermost_first_then_frames_innermost_first():
    def chained():
        try:
            down(30)
        except ValueError as first:
            raise KeyError("again") from first

    error = caught(chained)
    held = tracebacks.in_freeing_order(error)
    kinds = [type(item) for item in held]
    frames = [item for item in held if type(item) is types.FrameType]
    entries = [item for item in held if type(item) is types.TracebackType]
    assert held[-1] is error and held[-2] is error.__cause__
    assert kinds == sorted(kinds, key=[types.FrameType, types.TracebackType, ValueError, KeyError].index)
    assert entries[-1] is error.__traceback__           # popped first: the outermost entry
    down_frames = [frame for frame in frames if frame.f_code is down.__code__]
    assert len(down_frames) == 31
    depths = [frame.f_locals["n"] for frame in down_frames]
    assert depths == sorted(depths, reverse=True)       # popped first: the innermost frame (n == 0)
    tracebacks.let_go(held)
    assert held == []


def test_groups_and_contexts_are_followed_once():
    first = caught(lambda: down(3))
    group = ExceptionGroup("many", [first, caught(lambda: down(2))])
    group.__context__ = first                          # reached twice: held once
    held = tracebacks.in_freeing_order(group)
    exceptions = [item for item in held if isinstance(item, BaseException)]
    assert len(exceptions) == 3 and len({id(item) for item in exceptions}) == 3


def test_no_code_of_the_program_runs():
    reads = []

    class Nosy(Exception):
        def __getattribute__(self, name):
            reads.append(name)
            return super().__getattribute__(name)

    def raise_nosy():
        raise Nosy("x")

    error = caught(raise_nosy)
    reads.clear()
    held = tracebacks.in_freeing_order(error)
    assert reads == [] and held[-1] is error


def test_nothing_to_hold_for_no_exception():
    assert tracebacks.in_freeing_order(None) == []
    assert sys.exc_info() == (None, None, None)
