"""Record what the shown source file did: calls, lines, returns, exceptions and locals.

`Recorder` holds what both backends share: the frame table, per-frame locals
diffing and the event table. A backend only turns interpreter hooks into the
four calls `enter`, `line`, `leave` and `raised`. `SettraceBackend` is the
portable one (any CPython, any Pyodide): its global trace function is called for
every new frame and returns None for frames outside the shown file, so those
run without line events; `monitor.MonitoringBackend` (3.12+) asks the
interpreter for events on the shown file's code objects only.

Locals are diffed, not copied: each frame keeps, per name, the object last seen,
its change key (a container's `values.Snap`, None otherwise) and its preview. A name
is re-previewed only when it is bound to another object, or when its container's
snap no longer holds (in-place change); such a change counts only if the rebuilt
preview differs (a change beyond the shown window is invisible, so it is no change).
"""
from __future__ import annotations

import sys
import time
from types import FrameType
from typing import Any

from .table import EventTable
from .values import NUMBERS, SCALARS, Previewer, ValuePool, cut

GENERATOR_FLAGS = 0x20 | 0x80 | 0x100 | 0x200   # generator, coroutine, iterable coroutine, async gen
TIME_CHECK_MASK = 255                           # look at the clock every 256 events


class LimitReached(BaseException):
    """Raised into the traced code to stop it; a BaseException so `except Exception` won't eat it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class FrameState:
    """What the recorder knows about one live frame of the shown file."""

    __slots__ = ("id", "seen", "serial", "raising", "local")

    def __init__(self, frame_id: int) -> None:
        self.id = frame_id
        self.seen: dict[str, tuple] = {}   # name -> (object, change key, preview)
        self.serial = -1                   # table serial of this frame's last full snapshot
        self.raising = False               # an exception is passing through; a return now is an unwind
        self.local = None                  # settrace: the bound local trace function


class Recorder:
    """Turns backend callbacks into the event table, the frame table and locals deltas."""

    def __init__(self, filename: str, *, max_events: int = 1_000_000, time_limit: float = 10.0,
                 previewer: Previewer | None = None) -> None:
        self.filename = filename
        self.table = EventTable(max_events)
        self.values = ValuePool(previewer or Previewer())
        self.values.use(self.table.current.values)
        self.frames: dict[int, list] = {}          # id -> [function, parent id | None, def line]
        self.live: dict[FrameType, FrameState] = {}
        self.count = 0                              # events that ran (kept or dropped)
        self.calls = 0
        self.time_limit = time_limit
        self.deadline = float("inf")
        self.stop_reason: str | None = None
        self.internal_errors: list[str] = []
        self.last_exception: tuple | None = None    # (description, line) of the latest 'x' event
        self.outcome: tuple | None = None           # (frame id, raised?, Value | exception) of the last top frame
        self._room = self.table.chunk_size

    def start_clock(self) -> None:
        self.deadline = time.perf_counter() + self.time_limit

    # -- events -------------------------------------------------------------------------
    def _event(self, kind: str, line: int, frame_id: int) -> int:
        """Append one event; return its run-wide index. Raises LimitReached past the time limit."""
        index = self.count
        if self._room == 0:
            for forgotten in self.table.rotate(index, self.calls):
                self.frames.pop(forgotten, None)
            self.values.use(self.table.current.values)
            self._room = self.table.chunk_size
        self._room -= 1
        chunk = self.table.current
        chunk.kinds.append(kind)
        chunk.lines.append(line)
        chunk.frames.append(frame_id)
        self.count = index + 1
        if not index & TIME_CHECK_MASK and time.perf_counter() > self.deadline:
            self.stop_reason = self.stop_reason or "time_limit"
            raise LimitReached("time_limit")
        return index

    def enter(self, frame: FrameType) -> FrameState:
        """A frame of the shown file starts or resumes (generator)."""
        state = self.live.get(frame)
        if state is None:
            self.calls += 1
            state = FrameState(self.calls)
            parent = frame.f_back
            live = self.live
            while parent is not None and parent not in live:
                parent = parent.f_back
            parent_id = live[parent].id if parent is not None else None
            code = frame.f_code
            self.frames[state.id] = [code.co_name, parent_id, code.co_firstlineno]
            self.live[frame] = state
        index = self._event("c", frame.f_lineno, state.id)
        self._locals(state, frame, index)
        return state

    def line(self, state: FrameState, frame: FrameType, lineno: int) -> None:
        """About to run line `lineno` (the hot path: `_event` inlined)."""
        state.raising = False
        index = self.count
        if self._room == 0 or not index & TIME_CHECK_MASK:
            index = self._event("l", lineno, state.id)
        else:
            self._room -= 1
            chunk = self.table.current
            chunk.kinds.append("l")
            chunk.lines.append(lineno)
            chunk.frames.append(state.id)
            self.count = index + 1
        self._locals(state, frame, index)

    def leave(self, state: FrameState, frame: FrameType, value: Any, unwinding: bool,
              suspended: bool | None = None) -> None:
        """Return or yield: `unwinding` when an exception leaves the frame, `suspended` on a yield
        (None: find out from the bytecode, as settrace does not say)."""
        index = self._event("r", frame.f_lineno, state.id)
        self._locals(state, frame, index)
        chunk = self.table.current
        preview = None
        if not unwinding:
            preview = self.values.preview(value)[0]
            chunk.returns.append((index, self.values.intern(preview)))
        if suspended is None:
            suspended = bool(frame.f_code.co_flags & GENERATOR_FLAGS) and not unwinding and _is_yield(frame)
        if not suspended:
            del self.live[frame]
            chunk.ended.append(state.id)
            if self.frames[state.id][1] is None:
                if unwinding:
                    self.outcome = (state.id, True, self.last_exception)
                else:
                    self.outcome = (state.id, False, preview)

    def raised(self, state: FrameState, frame: FrameType, error: BaseException) -> None:
        state.raising = True
        line = frame.f_lineno
        index = self._event("x", line, state.id)
        self._locals(state, frame, index)
        description = describe_exception(error)
        self.last_exception = (description, line)
        self.table.current.exceptions.append((index, description))

    def stdout(self, text: str) -> None:
        self.table.current.stdout.append((self.count - 1, text))

    # -- locals ---------------------------------------------------------------------------
    def _locals(self, state: FrameState, frame: FrameType, index: int) -> None:
        seen = state.seen
        values = self.values
        same = values.same
        changed = None
        current = frame.f_locals
        hidden = 0
        for name, value in current.items():
            known = seen.get(name)
            if known is not None:
                old = known[0]
                if old is value:
                    key = known[1]           # None for anything but a container
                    if key is None or same(key):
                        continue
                    # mutated in place: a change only if the preview shows it
                    preview, key = values.refresh(value, key)
                    before = known[2]
                    if preview is before or preview == before:
                        seen[name] = (value, key, before)
                        continue
                    seen[name] = (value, key, preview)
                    if changed is None:
                        changed = {}
                    changed[name] = values.intern(preview)
                    continue
                elif type(value) in SCALARS and type(old) is type(value) and old == value:
                    continue
            elif name[0] == ".":         # a comprehension's hidden iterator
                hidden += 1
                continue
            kind = type(value)
            if kind in NUMBERS:          # the common case in loops: no caches, no lookups
                preview = values.number(kind, value)
                seen[name] = (value, None, preview)
                if changed is None:
                    changed = {}
                changed[name] = values.intern(preview)
                continue
            preview, key = values.preview(value)
            seen[name] = (value, key, preview)
            if changed is None:
                changed = {}
            changed[name] = values.intern(preview)
        removed = None
        if len(seen) > len(current) - hidden:   # some name seen before is unbound now
            removed = [name for name in seen if name not in current]
            for name in removed:
                del seen[name]
        table = self.table
        if state.serial != table.serial:
            state.serial = table.serial
            intern = values.intern
            table.current.deltas.append((index, state.id, {n: intern(k[2]) for n, k in seen.items()}, [], True))
        elif changed is not None or removed is not None:
            table.current.deltas.append((index, state.id, changed or {}, removed or [], False))


def _is_yield(frame: FrameType) -> bool:
    """Is this 'return' of a generator frame a yield (the frame will resume)?"""
    try:
        code = frame.f_code.co_code
        return code[frame.f_lasti] in _YIELD_OPS
    except (IndexError, AttributeError):
        return False


def _yield_ops() -> frozenset[int]:
    import dis
    return frozenset(dis.opmap[name] for name in ("YIELD_VALUE",) if name in dis.opmap)


_YIELD_OPS = _yield_ops()


def describe_exception(error: BaseException) -> dict:
    """{"type", "message"} of an exception, bounded; a raising __str__ is survived."""
    try:
        message = str(error)
    except Exception:  # noqa: BLE001
        message = "<unprintable message>"
    return {"type": type(error).__name__, "message": cut(message, 2000)}


class SettraceBackend:
    """sys.settrace: a global trace function that only opts in for frames of the shown file."""

    name = "settrace"

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def install(self) -> None:
        recorder = self.recorder
        filename = recorder.filename
        enter, line, leave, raised = recorder.enter, recorder.line, recorder.leave, recorder.raised
        internal = recorder.internal_errors

        def local_for(state: FrameState):
            def local(frame, event, arg):
                """The per-frame trace function: dispatch on the event name."""
                try:
                    if event == "line":
                        line(state, frame, frame.f_lineno)
                    elif event == "return":
                        leave(state, frame, arg, state.raising)
                    elif event == "exception":
                        raised(state, frame, arg[1])
                except LimitReached:
                    raise
                except RecursionError:
                    pass                   # the traced code is at the limit; it will raise itself
                except Exception as error:  # noqa: BLE001 - a recorder bug must not change the run
                    internal.append(f"{event}: {type(error).__name__}: {error}")
                return local
            return local

        def global_trace(frame, event, arg):
            """Called for every new frame: opt in (return a local tracer) only for the shown file."""
            if frame.f_code.co_filename != filename:
                return None
            try:
                state = enter(frame)
            except LimitReached:
                raise
            except RecursionError:
                return None
            except Exception as error:  # noqa: BLE001
                internal.append(f"call: {type(error).__name__}: {error}")
                return None
            if state.local is None:
                state.local = local_for(state)
            return state.local

        sys.settrace(global_trace)

    def uninstall(self) -> None:
        sys.settrace(None)
