"""The sys.settrace backend: portable (any CPython 3.11+, any Pyodide).

The global trace function is called for every new frame and opts in (returns a
local tracer) only for frames whose code lives in the shown file, compared by its
full path, so every function of that file is recorded however it is reached:
through decorators, `functools.lru_cache`, `contextmanager`, dispatch tables.

CPython drops a trace function that raises, so a limit is not raised from here
when `Recorder.raise_in_callbacks` is False: the runner's deadline delivers it as
a signal instead, and tracing stays on while the program winds down.
"""
from __future__ import annotations

import sys
from builtins import Exception, RecursionError, id  # captured at import: a lesson may rebind the builtins

from .recorder import SETUP_FILE, FrameState, LimitReached, Recorder

# Before 3.13 CPython copies a frame's variables into `frame.f_locals` before each trace call and copies
# them back after it, cells included. A finalizer that runs in between (a value dropped by that copy, a
# collection the recorder set off) and writes a closure variable of the frame would have its write undone
# by the copy back of the older value: for a frame with cells the trace function reads `f_locals` once
# more as it returns, which takes the cells' values as they are then.
COPIES_BACK = sys.version_info < (3, 13)


class SettraceBackend:
    """sys.settrace: a global trace function that only opts in for frames of the shown file."""

    name = "settrace"

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def install(self) -> None:
        recorder = self.recorder
        filename = recorder.filename
        line, leave, raised, fault = recorder.line, recorder.leave, recorder.raised, recorder.fault
        enter, guarded = recorder.enter, recorder.guarded

        def local_for(state: FrameState):
            def local(frame, event, arg):
                """The per-frame trace function: dispatch on the event name. The hot path: one
                try holds the clauses of `Recorder.guarded` inline for all three events (see there)."""
                try:
                    if event == "line":
                        line(state, frame, frame.f_lineno)
                    elif event == "return":
                        leave(state, frame, arg, None, None)
                    elif event == "exception":
                        raised(state, frame, arg[1])
                except LimitReached:
                    raise
                except RecursionError:
                    pass                   # the traced code is at the limit; it will raise itself
                except Exception as error:  # noqa: BLE001 - a recorder bug must not change the run
                    fault(event, error)
                return local

            if not (COPIES_BACK and (state.code.co_cellvars or state.code.co_freevars) != ()):
                return local

            def local_with_cells(frame, event, arg):
                """`local`, then `f_locals` read once more for its copy (see COPIES_BACK)."""
                try:
                    local(frame, event, arg)
                finally:
                    _ = frame.f_locals
                return local_with_cells
            return local_with_cells

        def global_trace(frame, event, arg):
            """Called for every new frame: opt in only for the shown file. Other code may change any
            object: the next look is no calm step (`bytecode_effects`)."""
            if frame.f_code.co_filename != filename:
                recorder.calm_next = False
                if frame.f_code.co_filename == SETUP_FILE and id(frame.f_back) in recorder.live:
                    guarded("call", recorder.helper_called, frame)
                return None
            try:
                state = guarded("call", enter, frame)
            finally:
                if COPIES_BACK and (frame.f_code.co_cellvars or frame.f_code.co_freevars):
                    _ = frame.f_locals     # read for its copy (see COPIES_BACK)
            if state is None:
                return None
            if state.local is None:
                state.local = local_for(state)
            return state.local

        recorder.tracer = global_trace
        sys.settrace(global_trace)

    def uninstall(self) -> None:
        sys.settrace(None)
