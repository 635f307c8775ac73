"""An asyncio event loop that runs to completion in plain Python, for runs inside Pyodide.

Pyodide's own loop (`pyodide.webloop.WebLoop`) hands every task to the JS event loop; its
`run_until_complete`, which `asyncio.run` calls, needs WebAssembly stack switching (JSPI) to block, and
node 20 (where the build proves cases) and many browsers have none: the shown code's `asyncio.run(main())`
raised `RuntimeError` before its first line. During a run, `asyncio.run` and `asyncio.new_event_loop()` get
this loop instead: `asyncio.BaseEventLoop`'s own scheduling (tasks, futures, `call_later`, `gather`,
`sleep`, async generators), with a "selector" that only waits for the next timer. So coroutine code runs,
and is recorded, the same in Chromium, under node and on CPython, whatever the JS runtime offers.

Not offered (say so rather than hang): sockets, subprocesses, file-descriptor readers and signal handlers
on the loop (`NotImplementedError`, as `BaseEventLoop` raises them); a loop with nothing scheduled and a
task still waiting raises `RuntimeError` instead of waiting for ever. On CPython the program keeps the
interpreter's own loop.
"""
from __future__ import annotations

import asyncio
import sys
import time
from builtins import RuntimeError, super  # captured at import: a lesson may rebind the builtins
from collections.abc import Iterator
from contextlib import contextmanager

NEEDED = sys.platform == "emscripten"      # where the platform's own loop cannot run to completion
# The policy classes went private in 3.14, where the policy system is deprecated.
_POLICY = getattr(asyncio.events, "_BaseDefaultEventLoopPolicy", None) or asyncio.events.BaseDefaultEventLoopPolicy
_get_policy = getattr(asyncio.events, "_get_event_loop_policy", asyncio.get_event_loop_policy)
_set_policy = getattr(asyncio.events, "_set_event_loop_policy", asyncio.set_event_loop_policy)


class _NextTimer:
    """The loop's selector: no file descriptors, so "select" is waiting until the next timer is due."""

    def select(self, timeout: float | None) -> list:
        if timeout is None:
            raise RuntimeError("the event loop has nothing scheduled, and a task still waits on something "
                               "no task will do (a real event loop would wait for ever)")
        if timeout > 0:
            time.sleep(timeout)
        return []

    def close(self) -> None:
        pass


class RunLoop(asyncio.BaseEventLoop):
    """`BaseEventLoop` with nothing to select on: ready callbacks, then timers, until the work is done."""

    def __init__(self) -> None:
        super().__init__()
        self._selector = _NextTimer()

    def _process_events(self, event_list: list) -> None:
        pass

    def _write_to_self(self) -> None:
        pass          # one thread: a threadsafe call is in the ready queue already


class RunLoopPolicy(_POLICY):
    """Every new loop of the run is a `RunLoop`."""

    def new_event_loop(self) -> RunLoop:
        return RunLoop()


@contextmanager
def as_in_a_script() -> Iterator[None]:
    """During the run no event loop runs, as in a script: a host's running loop (Playwright's sync API,
    Jupyter; Pyodide keeps its WebLoop set as running for good) would make the shown code's `asyncio.run`
    raise, or in Pyodide hand the coroutine to the WebLoop. In Pyodide the run's new loops are `RunLoop`s."""
    running = asyncio.events._get_running_loop()
    previous = _get_policy() if NEEDED else None
    if NEEDED:
        _set_policy(RunLoopPolicy())
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(running)
        if NEEDED:
            _set_policy(previous)
