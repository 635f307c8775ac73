"""The sys.monitoring backend (Python 3.12+): events on the shown file's code objects only.

With sys.settrace the interpreter calls the global trace function for every new
frame anywhere (deepcopy's recursion, json, the entry code), which is most of
the cost on code that mostly runs outside the shown file. Here the call, line,
return and yield events are *local* events switched on for the shown file's
code objects only (every function, method and nested code object of the
module), so other code runs at full speed. Exceptions can only be watched
globally; their callbacks return at once for code objects of other files.

It produces the same events as `SettraceBackend` (tests compare them): a
generator resuming is a call, a yield is a return, and a backward jump starts
a new line event as settrace does for loops on one line.
"""
from __future__ import annotations

import sys
import types
from typing import Any

from .recorder import LimitReached, Recorder

TOOL_NAME = "stepwise"


def available() -> bool:
    return hasattr(sys, "monitoring")


def shown_code_objects(module: types.ModuleType, filename: str) -> list[types.CodeType]:
    """Every code object of `module` that lives in `filename`, nested ones included."""
    found: dict[int, types.CodeType] = {}
    pending: list[Any] = list(vars(module).values())
    visited: set[int] = set()
    while pending:
        item = pending.pop()
        if id(item) in visited:
            continue
        visited.add(id(item))
        if isinstance(item, (staticmethod, classmethod)):
            pending.append(item.__func__)
        elif isinstance(item, property):
            pending.extend(f for f in (item.fget, item.fset, item.fdel) if f is not None)
        elif isinstance(item, types.FunctionType):
            pending.append(item.__code__)
        elif isinstance(item, type) and getattr(item, "__module__", None) == module.__name__:
            pending.extend(vars(item).values())
        elif isinstance(item, types.CodeType) and item.co_filename == filename:
            found[id(item)] = item
            pending.extend(c for c in item.co_consts if isinstance(c, types.CodeType))
    return list(found.values())


def _line_map(code: types.CodeType) -> dict[int, int | None]:
    """Bytecode offset -> line number, for every instruction of `code`."""
    lines: dict[int, int | None] = {}
    for start, end, number in code.co_lines():
        for offset in range(start, end, 2):
            lines[offset] = number
    return lines


class MonitoringBackend:
    """sys.monitoring with local events on the shown file's code objects."""

    name = "monitoring"

    def __init__(self, recorder: Recorder, codes: list[types.CodeType]) -> None:
        self.recorder = recorder
        self.codes = codes
        self.tool: int | None = None

    def install(self) -> None:
        monitoring = sys.monitoring
        events = monitoring.events
        for tool in (monitoring.DEBUGGER_ID, 1, 2, 3, 4, 5):
            if monitoring.get_tool(tool) is None:
                monitoring.use_tool_id(tool, TOOL_NAME)
                self.tool = tool
                break
        else:
            raise RuntimeError("no free sys.monitoring tool id")
        recorder, tool = self.recorder, self.tool
        code_ids = {id(code) for code in self.codes}
        live = recorder.live
        enter, line, leave, raised = recorder.enter, recorder.line, recorder.leave, recorder.raised
        internal = recorder.internal_errors
        getframe = sys._getframe
        disable = monitoring.DISABLE
        line_maps: dict = {}

        def on_start(code, offset):
            try:
                enter(getframe(1))
            except LimitReached:
                raise
            except RecursionError:
                pass
            except Exception as error:  # noqa: BLE001 - a recorder bug must not change the run
                internal.append(f"call: {type(error).__name__}: {error}")

        def on_line(code, lineno):
            try:
                frame = getframe(1)
                line(live[frame], frame, lineno)
            except LimitReached:
                raise
            except RecursionError:
                pass
            except Exception as error:  # noqa: BLE001
                internal.append(f"line: {type(error).__name__}: {error}")

        def on_jump(code, source, target):
            """settrace starts a line again on a backward jump within one line (a loop on one
            line, an inlined comprehension); other jumps are covered by LINE events."""
            if target > source:
                return disable
            lines = line_maps.get(code)
            if lines is None:
                lines = line_maps[code] = _line_map(code)
            to_line = lines.get(target)
            if to_line is None or to_line != lines.get(source):
                return disable
            try:
                frame = getframe(1)
                line(live[frame], frame, to_line)
            except LimitReached:
                raise
            except RecursionError:
                pass
            except Exception as error:  # noqa: BLE001
                internal.append(f"line: {type(error).__name__}: {error}")
            return None

        def leaving(yielded):
            """PY_RETURN and PY_YIELD differ only in the flag (the guard stays inline: hot path)."""
            def on_leave(code, offset, value):
                try:
                    frame = getframe(1)
                    leave(live[frame], frame, value, False, yielded)
                except LimitReached:
                    raise
                except RecursionError:
                    pass
                except Exception as error:  # noqa: BLE001
                    internal.append(f"return: {type(error).__name__}: {error}")
            return on_leave

        on_return, on_yield = leaving(False), leaving(True)

        def on_raise(code, offset, error):
            if id(code) not in code_ids:
                return
            try:
                frame = getframe(1)
                raised(live[frame], frame, error)
            except LimitReached:
                raise
            except RecursionError:
                pass
            except Exception as failure:  # noqa: BLE001
                internal.append(f"exception: {type(failure).__name__}: {failure}")

        def on_unwind(code, offset, error):
            if id(code) not in code_ids:
                return
            try:
                frame = getframe(1)
                state = live.get(frame)
                if state is not None:
                    leave(state, frame, None, True, False)
            except LimitReached:
                raise
            except RecursionError:
                pass
            except Exception as failure:  # noqa: BLE001
                internal.append(f"return: {type(failure).__name__}: {failure}")

        register = monitoring.register_callback
        register(tool, events.PY_START, on_start)
        register(tool, events.PY_RESUME, on_start)
        register(tool, events.LINE, on_line)
        register(tool, events.JUMP, on_jump)
        register(tool, events.PY_RETURN, on_return)
        register(tool, events.PY_YIELD, on_yield)
        register(tool, events.RAISE, on_raise)
        register(tool, events.RERAISE, on_raise)
        register(tool, events.PY_UNWIND, on_unwind)
        local = (events.PY_START | events.PY_RESUME | events.LINE | events.JUMP | events.PY_RETURN
                 | events.PY_YIELD)
        for code in self.codes:
            monitoring.set_local_events(tool, code, local)
        monitoring.set_events(tool, events.RAISE | events.RERAISE | events.PY_UNWIND)

    def uninstall(self) -> None:
        if self.tool is None:
            return
        monitoring = sys.monitoring
        monitoring.set_events(self.tool, 0)
        for code in self.codes:
            monitoring.set_local_events(self.tool, code, 0)
        events = monitoring.events
        for event in (events.PY_START, events.PY_RESUME, events.LINE, events.JUMP, events.PY_RETURN,
                      events.PY_YIELD, events.RAISE, events.RERAISE, events.PY_UNWIND):
            monitoring.register_callback(self.tool, event, None)
        monitoring.free_tool_id(self.tool)
        self.tool = None
