"""Let go of a caught exception one object at a time.

An exception that passed N frames holds a chain of N traceback entries, and each entry the frame
object it passed; a frame that ended while its object lived holds its caller's (`f_back`). Freeing
the exception frees the chain recursively in C, several C calls per entry. CPython 3.14 bounds that
recursion by the C stack it can measure, but under Emscripten the wasm calls run on the JS engine's
own stack, which runs out first: Pyodide 314 dies ("Maximum call stack size exceeded") freeing an
exception that passed ~6,000 frames, as when the recorder stops deep recursion. Held in one list in
the right order, each object is freed by its own decref and nothing recurses: chained exceptions
newest first, tracebacks outermost first (the next entry is still held), frames innermost first (the
caller is still held).

A long chain left in a module global is not saved this way (README): the module's namespace is in a
cycle with its functions, so the collector frees it, and clearing the namespace frees the chain at
once however the links were held before (tried: held breadth first, it still died in `gc.collect`).

Only the C accessors are used: reading `__traceback__` or `__context__` through the exception's
class could run a `__getattribute__` of the program's.
"""
from __future__ import annotations

# Captured at import: a lesson may rebind the builtins.
from builtins import BaseException, BaseExceptionGroup, id, issubclass, len, set, type

_traceback_of = BaseException.__dict__["__traceback__"].__get__
_context_of = BaseException.__dict__["__context__"].__get__
_cause_of = BaseException.__dict__["__cause__"].__get__
_group_exceptions = BaseExceptionGroup.__dict__["exceptions"].__get__


def in_freeing_order(error: BaseException | None) -> list:
    """What `error` keeps alive through tracebacks and chained exceptions, to be dropped with
    `let_go` once the caller holds `error` no more."""
    exceptions: list = []
    tracebacks: list = []
    frames: list = []
    seen: set = set()
    waiting = [error]
    while waiting:
        current = waiting.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        exceptions.append(current)
        entry = _traceback_of(current)
        while entry is not None:
            tracebacks.append(entry)
            frames.append(entry.tb_frame)
            entry = entry.tb_next
        waiting.append(_context_of(current))
        waiting.append(_cause_of(current))
        if issubclass(type(current), BaseExceptionGroup):   # not isinstance: it may read `__class__`
            waiting.extend(_group_exceptions(current))
    # `let_go` pops from the end: exceptions newest (first found) first, tracebacks outermost first,
    # frames innermost first.
    exceptions.reverse()
    tracebacks.reverse()
    return frames + tracebacks + exceptions


def let_go(held: list) -> None:
    """Drop what `in_freeing_order` gathered, last first."""
    while len(held):
        held.pop()
