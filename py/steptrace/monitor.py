"""The sys.monitoring backend (Python 3.12+): line events on the shown file's code only.

PY_START and PY_RESUME are watched globally: to *find* the shown file's code
objects, and to hear that other code ran (it may change any object, so the next
look is no calm step, `bytecode_effects`), at the cost of one short callback per
call or resumption of other code, as settrace's global function. A code object of
the shown file gets local LINE, JUMP, RETURN and YIELD events the first time it
starts, however it was reached (decorators, `lru_cache`, `contextmanager`, a lambda
in a dict). Exceptions can only be watched globally; their callbacks return at once
for other files.

It produces the same events as `settrace.SettraceBackend` (tests compare them): a
generator resuming is a call, a yield is a return, a re-raise is not a new
exception, and a backward jump within one line starts that line again.
"""
from __future__ import annotations

import sys
import types

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    Exception,
    RecursionError,
    RuntimeError,
    StopIteration,
    getattr,
    hasattr,
    id,
    list,
    range,
    tuple,
    type,
)

from .recorder import SETUP_FILE, TOOL_NAME, LimitReached, Recorder


def line_map(code: types.CodeType) -> dict[int, int | None]:
    """Bytecode offset -> line number, for every instruction of `code` (what a JUMP's offsets are on)."""
    lines: dict[int, int | None] = {}
    for start, end, number in code.co_lines():
        for offset in range(start, end, 2):
            lines[offset] = number
    return lines


def available() -> bool:
    return hasattr(sys, "monitoring")


def claim_tool() -> int:
    """A free tool id, first taking back ids a run that never cleaned up left named ours
    (a program that ended the process with `os._exit` mid-run leaves its tool behind)."""
    monitoring = sys.monitoring
    for tool in range(6):
        if monitoring.get_tool(tool) == TOOL_NAME:
            release_tool(tool)
    for tool in (monitoring.DEBUGGER_ID, 1, 2, 3, 4, 5):
        if monitoring.get_tool(tool) is None:
            monitoring.use_tool_id(tool, TOOL_NAME)
            return tool
    raise RuntimeError("no free sys.monitoring tool id: other tools hold all six")


def release_tool(tool: int) -> None:
    """Switch off every event and callback of `tool` and free it."""
    monitoring = sys.monitoring
    monitoring.set_events(tool, 0)
    for event in _ALL_EVENTS:
        monitoring.register_callback(tool, event, None)
    monitoring.free_tool_id(tool)   # 3.14 also clears local events; older: the registrations are gone


_ALL_EVENTS = tuple(getattr(sys.monitoring.events, name) for name in (
    "PY_START", "PY_RESUME", "LINE", "JUMP", "PY_RETURN", "PY_YIELD", "RAISE", "RERAISE", "PY_UNWIND",
    "PY_THROW", "STOP_ITERATION")
) if available() else ()


class MonitoringBackend:
    """sys.monitoring with local events on the shown file's code objects."""

    name = "monitoring"

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.tool: int | None = None
        self.codes: dict[int, types.CodeType] = {}

    def install(self) -> None:
        monitoring = sys.monitoring
        events = monitoring.events
        self.tool = tool = claim_tool()
        monitoring.restart_events()       # forget DISABLEs left from an earlier run
        recorder = self.recorder
        filename = recorder.filename
        codes = self.codes
        live = recorder.live
        enter, line, leave, fault, guarded = recorder.enter, recorder.line, recorder.leave, recorder.fault, \
            recorder.guarded
        helper_called = recorder.helper_called
        getframe = sys._getframe
        disable = monitoring.DISABLE
        set_local = monitoring.set_local_events
        local = events.LINE | events.JUMP | events.PY_RETURN | events.PY_YIELD | events.STOP_ITERATION
        line_maps: dict = {}

        def in_frame(action):
            """`action(state, frame, ...)` for a frame the recorder knows (not one whose start fell
            at the recursion limit)."""
            def run(frame, *args):
                state = live.get(id(frame))
                if state is not None:
                    action(state, frame, *args)
            return run

        raised_in, left_from = in_frame(recorder.raised), in_frame(leave)

        def start(code, frame):
            """The first start of a code object of the shown file switches on its local events."""
            if id(code) not in codes:
                codes[id(code)] = code
                set_local(tool, code, local)
            enter(frame, True)

        def on_start(code, offset):
            if code.co_filename != filename:
                recorder.calm_next = False
                if code.co_filename == SETUP_FILE and id(getframe(1).f_back) in live:
                    guarded("call", helper_called, getframe(1))
                return None
            guarded("call", start, code, getframe(1))
            return None

        def on_line(code, lineno, target=None):
            """LINE, the hot path: `Recorder.line` with the clauses of `Recorder.guarded` inline (see
            there). Also JUMP (`lineno` is then the jump's offset and `target` where it lands): settrace
            starts a line again on a backward jump within one line (a loop on one line, an inlined
            comprehension: hot there too); other jumps are covered by LINE events."""
            if target is not None:
                if target > lineno:
                    return disable
                lines = line_maps.get(code)
                if lines is None:
                    lines = line_maps[code] = line_map(code)
                source, lineno = lineno, lines.get(target)
                if lineno is None or lineno != lines.get(source):
                    return disable
            try:
                frame = getframe(1)
                state = live.get(id(frame))
                if state is not None:      # None: its start fell at the recursion limit
                    line(state, frame, lineno)
            except LimitReached:
                raise
            except RecursionError:
                pass
            except Exception as error:  # noqa: BLE001 - a recorder bug must not change the run
                fault("line", error)
            return None

        def leaving(yielded):
            """PY_RETURN and PY_YIELD: one per call, hot in call-heavy code, so `Recorder.guarded`'s
            clauses are inline here too (a guarded call cost ~6% of fib(20) on 3.13)."""
            def on_leave(code, offset, value):
                try:
                    frame = getframe(1)
                    state = live.get(id(frame))
                    if state is not None:
                        leave(state, frame, value, False, yielded)
                except LimitReached:
                    raise
                except RecursionError:
                    pass
                except Exception as error:  # noqa: BLE001 - a recorder bug must not change the run
                    fault("return", error)
            return on_leave

        on_return, on_yield = leaving(False), leaving(True)

        def on_raise(code, offset, error):
            if code.co_filename == filename:
                guarded("exception", raised_in, getframe(1), error)

        def on_throw(code, offset, error):
            """generator.throw()/close(): the frame resumes (its RAISE event follows)."""
            if code.co_filename == filename:
                guarded("call", enter, getframe(1), False)
            else:
                recorder.calm_next = False
                if code.co_filename == SETUP_FILE and id(getframe(1).f_back) in live:
                    guarded("call", helper_called, getframe(1))

        def on_stop_iteration(code, offset, value):
            """The StopIteration a `yield from`/`for` gets from a finished generator: settrace
            reports it as an exception in this frame."""
            error = value if type(value) is StopIteration else StopIteration(value)
            guarded("exception", raised_in, getframe(1), error)

        def on_resume(code, offset):
            if id(code) not in codes:           # other code, or the shown file's started before the run
                recorder.calm_next = False
                if code.co_filename == SETUP_FILE and id(getframe(1).f_back) in live:  # as settrace's "call"
                    guarded("call", helper_called, getframe(1))
                return
            guarded("call", enter, getframe(1), False)

        def on_unwind(code, offset, error):
            if code.co_filename == filename:
                guarded("return", left_from, getframe(1), error, True, False)

        register = monitoring.register_callback
        register(tool, events.PY_START, on_start)
        register(tool, events.PY_RESUME, on_resume)
        register(tool, events.LINE, on_line)
        register(tool, events.JUMP, on_line)
        register(tool, events.PY_RETURN, on_return)
        register(tool, events.PY_YIELD, on_yield)
        register(tool, events.RAISE, on_raise)
        register(tool, events.PY_UNWIND, on_unwind)
        register(tool, events.PY_THROW, on_throw)
        register(tool, events.STOP_ITERATION, on_stop_iteration)
        monitoring.set_events(tool, events.PY_START | events.PY_RESUME | events.RAISE | events.PY_UNWIND
                              | events.PY_THROW)

    def uninstall(self) -> None:
        if self.tool is None:
            return
        monitoring = sys.monitoring
        tool, self.tool = self.tool, None
        codes = list(self.codes.values())
        self.codes.clear()
        owner = monitoring.get_tool(tool)
        if owner is None:
            # The program freed our tool: before 3.14 our callbacks and events stay registered (and keep
            # this recorder alive), so the id is taken back to clear them.
            monitoring.use_tool_id(tool, TOOL_NAME)
        elif owner != TOOL_NAME:
            return      # the program took the id for itself: it is not ours to clear
        for code in codes:
            monitoring.set_local_events(tool, code, 0)
        release_tool(tool)
        monitoring.restart_events()
