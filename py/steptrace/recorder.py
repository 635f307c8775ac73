"""Record what the shown source file did: calls, lines, returns, exceptions and locals.

`Recorder` holds what both backends share: the frame table, per-frame locals
diffing and the event table. A backend (`settrace.SettraceBackend`,
`monitor.MonitoringBackend`) only turns interpreter hooks into the calls `enter`,
`line`, `leave` and `raised`, shielded by `guarded` or by its clauses written inline on the
hottest callbacks (the recorder's own faults go to `fault`, never into the program).

Every event looks at every local of its frame. Locals are diffed, not copied:
each frame keeps, per name, a token (the scalar itself, or a container's or
object's id), the signature of its preview and the preview. A name is previewed
again only when its token changed or its signature no longer holds (`snap_check`),
and counts as changed only when the new preview differs. The signature is not
walked when nothing since the frame's last look could have changed an object (a
calm step: `epoch`, `bytecode_effects`). Numbers (bool, None,
floats and ints exact in a JS number) are not previewed while the program runs:
the number itself goes into the chunk's value list and is previewed when the trace
is written. No program object other than an immutable scalar is referenced, and a
frame's record is dropped when it ends.

Calls and returns always balance: frames still open when the run stops (a limit, an
exception the recorder could not see at the recursion limit) are closed by `finish`.
"""
from __future__ import annotations

import _signal
import _thread
import builtins as _builtins_module
import dis
import gc
import signal
import sys
import time

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    AttributeError,
    BaseException,
    Exception,
    IndexError,
    RecursionError,
    TypeError,
    all,
    bool,
    dict,
    float,
    frozenset,
    getattr,
    hasattr,
    id,
    int,
    issubclass,
    len,
    list,
    max,
    min,
    range,
    sorted,
    str,
    sum,
    super,
    tuple,
    type,
)
from types import CodeType, FrameType
from typing import Any

from .bytecode_effects import ITERATOR_MAKERS, Loop, effects
from .exceptions import describe_exception, exception_text
from .identity import ObjectNumbers
from .limits import DEFAULT_EVENTS, DIRECT_SECONDS, PREVIEW_NODES
from .previews import Previewer, named, yielded
from .table import EventTable
from .values import NUMBERS, TEXT_PER_NODE, ValuePool

_float_repr = float.__repr__

TIME_CHECK_MASK = 255                           # look at the clock every 256 events
CALL, LINE, RETURN, EXCEPTION = b"clrx"              # event kinds, as the table stores them
SAFE_INT = 2 ** 53                              # ints inside it are kept raw (exact in a JS number)
FAULTS_KEPT = 20


EARLY_CLOSE_EVENTS = 64     # events a chunk holds before its preview nodes may close it early
# Looks at an event while a collection interrupts each (its finalizers may have changed a name already
# read); past them one more with the collector held off.
LOOKS_AGAIN = 3


# Generators of the shown file running at once that were resumed through C (by a `for` over one, next(),
# list(): not by `yield from` or `await`, whose SEND resumes them inline). With line events on, CPython
# 3.12+ resumes each in a C call of its own (untraced, a `for` steps into a generator inline), and under
# Emscripten ~290 such calls overflow the JS engine's stack, killing Pyodide (a `for v in walk(node.left):
# yield v` over a tree 300 deep). Past this many the run stops there, end.reason "generators_nested".
# Native CPython has room and a C recursion check of its own: it is not counted there.
GENERATORS_NESTED = 200
_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200          # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR
_COUNT_GENERATORS = sys.version_info >= (3, 12) and sys.platform == "emscripten"


class LimitReached(BaseException):
    """Raised into the traced code to stop it; a BaseException so `except Exception` won't eat it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class FrameState:
    """What the recorder knows about one live frame of the shown file."""

    __slots__ = ("id", "code", "seen", "serial", "local", "line", "thread", "in_c", "effects", "looked", "loops")

    def __init__(self, frame_id: int, code: Any, effects: dict) -> None:
        self.id = frame_id
        self.code = code                   # tells a reused frame id from this frame
        self.seen: dict[str, tuple] = {}   # name -> (token, signature | None, preview | None: a raw number)
        self.serial = -1                   # table serial of this frame's last full snapshot
        self.local = None                  # settrace: the bound local trace function
        self.line = 0                      # last line seen, for events that come without one
        self.thread = _get_ident()         # a frame of another thread never stands for the entry's call
        self.in_c = False                  # a generator running now, resumed through C (GENERATORS_NESTED)
        self.effects = effects             # line -> what it may change (`bytecode_effects.effects`)
        self.looked = -1                   # `Recorder.epoch` at this frame's last look
        self.loops: dict[int, bool] | None = None   # line -> its `Loop` began with the real builtins


class Recorder:
    """Turns backend callbacks into the event table, the frame table and locals deltas.

    `check_looks` (tests only): after every look, what the recorder believes each local shows is compared
    with what a fresh previewer, sharing no cache with the recorder's, makes of the value now; a name that
    differs is listed in `stale_looks` as [event, [names]] (a change check that wrongly says "unchanged"
    would show a stale value). The collector waits during that comparison."""

    def __init__(self, filename: str, *, max_events: int = DEFAULT_EVENTS, time_limit: float = DIRECT_SECONDS,
                 check_looks: bool = False) -> None:
        self.filename = filename
        self.thread = _get_ident()                  # the run's: its top-level call is the entry's
        self.table = EventTable(max_events, PREVIEW_NODES)
        self.numbers = ObjectNumbers()             # object numbers in previews (`identity`)
        self.values = ValuePool(self.numbers)
        self.previewer = self.values.previewer
        self.values.use(self.table.current.values)
        # A chunk that holds its share of preview nodes closes at the next event (`EventTable`).
        self.values.weight_cap = self.table.chunk_weight
        self.values.on_heavy = self._close_chunk_soon
        self.frames: dict[int, list] = {}          # id -> [function, parent id | None, def line]
        self.closures: dict[int, tuple] = {}        # id -> the frame's free variables (its closure's cells)
        self.live: dict[int, FrameState] = {}       # id(frame) -> state; no frame is referenced
        self.stack: list[FrameState] = []           # open frames, innermost last
        self.count = 0                              # events that ran (kept or dropped)
        self.calls = 0
        self.time_limit = time_limit
        self.deadline = float("inf")
        self.stop_reason: str | None = None
        self.raise_in_callbacks = True              # False when a signal delivers the stop instead
        self.internal_errors: list[str] = []
        self.last_exception: tuple | None = None    # (description, line) of the latest 'x' event
        self.outcome: tuple | None = None           # (frame id, status, Value | exception) of the last top frame
        self._until = self.table.chunk_size          # events from this run-wide index go the slow way
        self.collections = 0                        # garbage collections begun (finalizers may have run)
        self.gc_hook = self.on_gc                   # what the runner puts first in gc.callbacks
        self.generators_in_c = 0                    # generators running now, resumed through C
        self.stale_looks: list | None = [] if check_looks else None
        self.watch: Any = None                      # a `watchdog.Watch` when run under one (see `watched`)
        # Calm steps (`bytecode_effects`): `epoch` moves on at every event after which an object may have
        # changed; a frame looked at in the same epoch as its last look compares its objects by id alone.
        # `calm_next`: nothing since the last event can have changed an object (yet: the backends and
        # `on_gc` clear it when other code runs).
        self.epoch = 0
        self.calm_next = False
        self.tracer: Any = None                     # the settrace backend's global trace function
        self._quiet_epoch, self._quiet_now = -1, False  # `_quiet`'s last answer, and the epoch it was for
        self.collections_looked = 0                 # `_collections_seen` as the last look ended
        self.signal_handler: Any = None             # the deadline's SIGALRM handler (`deadline.Deadline.arm`)
        self._effects: dict[int, tuple[CodeType, dict]] = {}    # id(code) -> (code, its line effects)

    def watched(self, watch: Any) -> None:
        """Under a watchdog (`watchdog.py`, `worker_watch.py`): the count of events is written to
        `watch.progress` (every `watch.mask + 1` events), which the watching process reads when it must
        kill a run stuck in C; a run again with `watch.stop_at` ends just after that many events, where
        the first one was at its limit (`stop_here`)."""
        self.watch = watch

    def on_gc(self, phase: str, info: dict) -> None:
        """A gc.callbacks hook: a collection may run finalizers, so a look it interrupted looks again."""
        if phase == "start":
            self.collections += 1
            self._next_epoch()                      # its finalizers may change any object
            self.calm_next = False

    def _next_epoch(self) -> None:
        """Objects may have changed: calm looks end, and the previewer's facts of class dicts go."""
        self.epoch += 1
        self.previewer.era = self.epoch

    def start_clock(self) -> None:
        self.deadline = time.perf_counter() + self.time_limit

    def stop(self, reason: str) -> None:
        """From now on every event stops the program again (a swallowed stop does not end it)."""
        if self.stop_reason is None:
            self.stop_reason = reason
        self._until = 0                             # send the next event down the slow path

    def fault(self, event: str, error: BaseException) -> None:
        """A bug of the recorder's own: kept for the document, never raised into the program."""
        if len(self.internal_errors) < FAULTS_KEPT:
            self.internal_errors.append(f"{event}: {exception_text(error)}")

    def guarded(self, event: str, action: Any, *args: Any) -> Any:
        """`action(*args)` for a backend's `event` callback, shielding the program from the recorder:
        a limit goes on into the program; the recursion limit (the traced code is at it and will
        meet it itself) and the recorder's own faults (`fault`) never do. Returns what `action`
        returns, None when it failed. Both backends guard every callback with this, except the hottest,
        which inline these clauses: `monitor`'s LINE and JUMP, PY_RETURN and PY_YIELD callbacks and `settrace`'s
        local trace function (this call on the line path cost 5-8% of a plain-loop step, CPython 3.11
        settrace 1.31 -> 1.37 µs, 3.13 monitoring 1.43 -> 1.51 µs; on returns ~6% of fib(20), 3.13)."""
        try:
            return action(*args)
        except LimitReached:
            raise
        except RecursionError:
            return None
        except Exception as error:  # noqa: BLE001 - a recorder bug must not change the run
            self.fault(event, error)
            return None

    # -- events -------------------------------------------------------------------------
    def _event(self, kind: int, line: int, frame_id: int, checked: bool = True) -> int:
        """Append one event; return its run-wide index. Raises LimitReached past the time limit."""
        index = self.count
        if index >= self._until:
            self._next_chunk_if_due(index)
        chunk = self.table.current
        chunk.kinds.append(kind)
        chunk.lines.append(line)
        chunk.frames.append(frame_id)
        self.count = index + 1
        if self.watch is not None:
            self._watched(index, checked)
        if checked:
            self._check(index)
        return index

    def _watched(self, index: int, checked: bool) -> None:
        """Count the event for the watcher; stop at a line here, at other events once they are whole
        (`_stop_if_due`: a call's frame registered, a return's frame ended)."""
        watch = self.watch
        count = index + 1
        if not count & watch.mask:
            watch.progress[0] = count
        if checked and count >= watch.stop_at:
            watch.stop_here()                     # writes the trace as it stands and ends the process

    def _stop_if_due(self) -> None:
        watch = self.watch
        if watch is not None and self.count >= watch.stop_at:
            watch.stop_here()

    def _next_chunk_if_due(self, index: int) -> None:
        """Close the current chunk when it is full, or holds its share of preview nodes and a few events
        (its first looks may be full snapshots as big as the share: they must not close it at once)."""
        table = self.table
        filled = len(table.current.kinds)
        heavy = self.values.weight >= self.values.weight_cap
        early = min(EARLY_CLOSE_EVENTS, table.chunk_size)
        if filled >= table.chunk_size or heavy and filled >= early:
            table.current.weight = self.values.weight
            base = self.values.base + len(self.values.items)
            for forgotten in table.rotate(index, self.calls):
                self.frames.pop(forgotten, None)
                self.closures.pop(forgotten, None)
            table.current.value_base = base
            self.values.use(table.current.values, base)
            filled, heavy = 0, False
        self._until = index + (early if heavy else table.chunk_size) - filled

    def _close_chunk_soon(self) -> None:
        """The current chunk holds its share of previews: the next event goes the slow way and closes it."""
        self._until = 0

    def _check(self, index: int) -> None:
        """Every 256 events look at the clock; once stopped, stop the program at every event."""
        if self.stop_reason is None and not index & TIME_CHECK_MASK and time.perf_counter() > self.deadline:
            self.stop("time_limit")
        if self.stop_reason is not None:
            self._until = 0
            if self.raise_in_callbacks:
                raise LimitReached(self.stop_reason)

    def enter(self, frame: FrameType, fresh: bool | None = None) -> FrameState:
        """A frame of the shown file starts (`fresh`) or resumes (a generator); None: read which from
        the instruction it stands at (settrace does not say).

        A fresh start is a new frame even when a frame of the same code had its address (a generator
        dropped while suspended ends without an event). The frame is registered only once its call
        event is written, so a failure here (the recursion limit) leaves no half-known frame whose
        return would stand alone."""
        code = frame.f_code
        live = self.live
        state = live.get(id(frame))
        line = frame.f_lineno or code.co_firstlineno
        if state is not None and state.code is code and (_starts(frame) if fresh is None else fresh):
            state = None
        fresh_start = state is None or state.code is not code
        if fresh_start:
            parent = frame.f_back
            while parent is not None and id(parent) not in live:
                parent = parent.f_back
            parent_id = live[id(parent)].id if parent is not None else None
            state = FrameState(self.calls + 1, code, self._effects_of(code))
            index = self._event(CALL, line, state.id, checked=False)
            self.calls += 1
            self.frames[state.id] = [code.co_name, parent_id, code.co_firstlineno]
            if code.co_freevars:
                self.closures[state.id] = code.co_freevars
            live[id(frame)] = state
        else:
            index = self._event(CALL, line, state.id, checked=False)
        state.line = line
        self.stack.append(state)
        if _COUNT_GENERATORS and code.co_flags & _GENERATOR_FLAGS and not state.in_c and _resumed_in_c(frame):
            state.in_c = True
            self.generators_in_c += 1
            if self.generators_in_c > GENERATORS_NESTED:
                self.stop("generators_nested")
        self._looked(state, frame, index)
        if fresh_start:
            self.calm_next = not _thread_count()    # up to its first line it runs only its prologue
        self._stop_if_due()
        self._check(index)
        return state

    def _quiet(self) -> bool:
        """Can no code have run unseen since the last event? Not with another thread, a profile function,
        a trace function other than the recorder's, a sys.monitoring tool or a signal handler of the
        program's. Asked by a calm look when it first finds an object still held, and again only once
        the epoch moved: setting any of them up (or taking one out) takes a call, which moves it."""
        if self._quiet_epoch != self.epoch:
            self._quiet_epoch = self.epoch
            tracer = _gettrace()
            self._quiet_now = not _thread_count() and _getprofile() is None and (
                tracer is None or tracer is self.tracer) and not _other_tools() and self._no_signal_handlers()
        return self._quiet_now

    def _no_signal_handlers(self) -> bool:
        """No signal handler of the program's is set for `_SIGNALS` (it runs between any two instructions,
        the recorder's own too, where nothing is seen)."""
        own = self.signal_handler
        for number in _SIGNALS:
            handler = _getsignal(number)
            if handler is not None and handler is not _SIG_DFL and handler is not _SIG_IGN and handler is not own:
                return False
        return True

    def _effects_of(self, code: CodeType) -> dict:
        known = self._effects.get(id(code))
        if known is None or known[0] is not code:
            known = self._effects[id(code)] = (code, effects(code))
        return known[1]

    def line(self, state: FrameState, frame: FrameType, lineno: int) -> None:
        """About to run line `lineno`: the line before it may have changed any local. Every line comes
        here: `_event`, `_watched` and `_check`'s gate are inline (a call each less a step, ~10% of a plain
        loop's step in Pyodide)."""
        state.line = lineno
        index = self.count
        if index >= self._until:
            self._next_chunk_if_due(index)
        chunk = self.table.current
        chunk.kinds.append(LINE)
        chunk.lines.append(lineno)
        chunk.frames.append(state.id)
        self.count = count = index + 1
        watch = self.watch
        if watch is not None:
            if not count & watch.mask:
                watch.progress[0] = count
            if count >= watch.stop_at:
                watch.stop_here()
        if not index & TIME_CHECK_MASK or self.stop_reason is not None:
            self._check(index)
        self._looked(state, frame, index)
        effect = state.effects.get(lineno)
        # CALM (0) stays calm unless a type met breaks every calm step (2); READS (1), unless any did.
        # Another thread is asked for now (it may end before the next look, which asks `_quiet`).
        if effect is not None and (effect[2] is None or _loop_of_builtins(state, frame, lineno, effect[2])) \
                and effect[0] + self.previewer.breaks_calm <= 1 and not _thread_count():
            seen = state.seen
            for name in effect[1]:                  # an in-place operator's name held an exact scalar
                known = seen.get(name)
                if known is None or known[1] is not None:
                    return
            self.calm_next = True

    def leave(self, state: FrameState, frame: FrameType, value: Any, unwinding: bool | None,
              suspended: bool | None) -> None:
        """Return or yield. `unwinding`: an exception leaves the frame (`value`: that exception, or
        None when the backend does not say); `suspended`: a yield. None for either: read it from the
        instruction the frame stopped at (settrace does not say).

        Once stopped, a frame left for any other reason than our stop raises it again; one unwinding
        our stop does not: a new stop per frame would chain them (`__context__`) all the way up."""
        if unwinding is None or suspended is None:
            op = _last_op(frame)
            if suspended is None:
                suspended = op in _YIELD_OPS or (op == _RESUME and self._resumes_after_yield(state, frame))
            if unwinding is None:
                unwinding = not suspended and op not in _RETURN_OPS
        state.line = frame.f_lineno or state.line
        if state.in_c:
            state.in_c = False
            self.generators_in_c -= 1
        self._close(state)
        index = self._event(RETURN, state.line, state.id, checked=False)
        preview = None
        self._looked(state, frame, index)
        try:
            if not unwinding:
                preview, signature = self.values.preview(yielded(value))
                ref = self.values.intern(preview, signature)
                chunk = self.table.current
                chunk.return_event.append(index)
                chunk.return_ref.append(ref)
        except BaseException:
            self._repair(state)
            raise
        self._ended(state, (id(frame),), unwinding, suspended, preview)
        self._stop_if_due()
        if self.stop_reason is not None and self.raise_in_callbacks and not (unwinding and type(value) is LimitReached):
            raise LimitReached(self.stop_reason)

    def _resumes_after_yield(self, state: FrameState, frame: FrameType) -> bool:
        """Under settrace on 3.12+, a yield's return event finds the frame at the RESUME after its
        YIELD_VALUE (oparg 1: after a yield, 2: after a yield from, 3: after an await). So does an exception
        thrown in at that point and leaving the frame: then this frame's exception event came just before."""
        try:
            after = frame.f_code.co_code[frame.f_lasti + 1] & 3
        except (IndexError, AttributeError, TypeError):
            return False
        if after == 0:
            return False
        chunk = self.table.current
        kinds = chunk.kinds
        return not (len(kinds) and kinds[-1] == EXCEPTION and chunk.frames[-1] == state.id)

    def _close(self, state: FrameState) -> None:
        stack = self.stack
        if stack and stack[-1] is state:
            stack.pop()
        elif state in stack:
            stack.remove(state)

    def _ended(self, state: FrameState, keys: tuple | list, unwinding: bool, suspended: bool,
               preview: dict | None, stopped: bool = False, unseen: bool = False) -> None:
        """The frame ended (not suspended): it leaves `live` under `keys` and its outcome may be the call's."""
        if suspended:
            return
        for key in keys:
            self.live.pop(key, None)
        for known in state.seen.values():
            if known[1] is not None and known[1].number:
                self.numbers.let_go(known[1].number)
        state.seen = {}
        self.table.current.ended.append(state.id)
        if self.frames.get(state.id, [None, 0])[1] is None and state.thread == self.thread:
            if unseen:
                self.outcome = (state.id, "unseen", None)
            elif stopped or (unwinding and self.stop_reason is not None):
                self.outcome = (state.id, "stopped", None)
            elif unwinding:
                self.outcome = (state.id, "raised", self.last_exception)
            else:
                self.outcome = (state.id, "returned", preview)

    def helper_called(self, frame: FrameType) -> None:
        """A function of the setup (`<setup>`) starts or resumes, called straight from a recorded frame. It is not
        recorded (the case's own helpers are not the lesson), but the step that called it says so: it is
        noted at the caller's latest event in the current chunk (a callee of its line may have run since:
        `helper(shown(n))`), else at the latest event. Once per event and name: a generator of the setup's
        resumed by one C call (`list(gen)`) is said once. The backends call it only when the caller is a
        recorded frame, so the setup's own recursion stays as deep as untraced."""
        if not self.count:
            return
        chunk = self.table.current
        caller = self.live.get(id(frame.f_back))
        at = self.count - 1
        if caller is not None:
            frames, start = chunk.frames, chunk.start
            for back in range(len(frames) - 1, max(-1, len(frames) - 1 - HELPER_LOOKBACK), -1):
                if frames[back] == caller.id:
                    at = start + back
                    break
        note = (at, frame.f_code.co_name)
        helpers = chunk.helpers
        if not helpers or helpers[-1] != note:
            helpers.append(note)

    def raised(self, state: FrameState, frame: FrameType, error: BaseException) -> None:
        line = frame.f_lineno or state.line
        state.line = line
        index = self._event(EXCEPTION, line, state.id, checked=False)
        self._looked(state, frame, index)
        description = describe_exception(error)
        self.last_exception = (description, line)
        self.table.current.exceptions.append((index, description))
        self.values.weigh(1 + len(description["message"]) // TEXT_PER_NODE)
        self._stop_if_due()
        if self.stop_reason is not None and self.raise_in_callbacks and type(error) is not LimitReached:
            raise LimitReached(self.stop_reason)

    def finish(self, returned: bool = False) -> None:
        """Close the frames the run left open (innermost first), so calls and returns balance.
        `returned`: the entry ended normally, so a frame still open with no stop of ours had its end go
        unheard (the program switched tracing off): its outcome is "unseen", not an unwind."""
        self.watch = None                           # the program is over: nothing here may stop it
        self._repair(None)
        unseen = returned and self.stop_reason is None
        keys: dict = {}                             # found once: a stop deep in recursion leaves many open
        for key, known in self.live.items():
            keys.setdefault(id(known), []).append(key)
        while self.stack:
            state = self.stack.pop()
            self._event(RETURN, state.line, state.id, checked=False)
            self._ended(state, keys.pop(id(state), ()), True, False, None, stopped=self.stop_reason is not None,
                        unseen=unseen)

    def stdout(self, text: str, stream: str) -> None:
        self.table.current.stdout.append((self.count - 1, text, stream))

    def _repair(self, state: FrameState | None) -> None:
        """Make the current chunk whole after an exception cut a write short (an interrupt, the
        recursion limit, a fault of ours): a delta row or return written in part is dropped, and
        so are set entries no whole row counts. The frame's next look is then a full snapshot,
        since what it remembers (`seen`) may be ahead of what was written."""
        chunk = self.table.current
        rows = min(len(chunk.delta_event), len(chunk.delta_sets))
        del chunk.delta_event[rows:], chunk.delta_sets[rows:]
        if chunk.full_rows and chunk.full_rows[-1] >= rows:
            chunk.full_rows[:] = [row for row in chunk.full_rows if row < rows]
        entries = sum(chunk.delta_sets)
        del chunk.set_names[entries:], chunk.set_refs[entries:]
        if chunk.deleted and chunk.deleted[-1][0] >= rows:
            chunk.deleted[:] = [d for d in chunk.deleted if d[0] < rows]
        returns = min(len(chunk.return_event), len(chunk.return_ref))
        del chunk.return_event[returns:], chunk.return_ref[returns:]
        if state is not None:
            state.serial = -1

    # -- locals ---------------------------------------------------------------------------
    def _looked(self, state: FrameState, frame: FrameType, index: int) -> None:
        """Look at every local of the frame, and again while a collection ran during the look: the look's
        own allocations may set one off, whose finalizers (the program's) run after the look read some
        names and before it read others (a name read first would show a stale value). Each look again is
        a delta row of its own at this event (rows fold in order; `_looks_again`). A look cut short leaves
        the chunk whole (`_repair`). `_collections_seen`'s common case is inline: every step comes here."""
        try:
            hooks = _gc_callbacks
            collections = self.collections if hooks and hooks[0] is self.gc_hook else self._collections_seen()
            if not self.calm_next or collections != self.collections_looked:
                # (`_next_epoch` inline: every step after a line that may change something comes here)
                epoch = self.epoch = self.epoch + 1     # (a collection the hook did not hear: it was taken out)
                self.previewer.era = epoch
            self.calm_next = False
            self._look(state, frame, index)
            after = self.collections if hooks and hooks[0] is self.gc_hook else self._collections_seen()
            if after != collections:
                after = self._looks_again(state, frame, index, after)
            self.collections_looked = after
            numbers = self.numbers
            if numbers.pending or numbers.died:
                numbers.settle()
            if self.stale_looks is not None:
                _collector_waiting(self._compare_with_fresh_previews, state, frame, index, after)
        except BaseException:
            self._repair(state)
            raise

    def _looks_again(self, state: FrameState, frame: FrameType, index: int, collections: int) -> int:
        """A collection ran during the look: look again until one runs through without any, at most
        LOOKS_AGAIN looks in all; then a last one with the collector held off (one set to run at every
        allocation). The collector is held off only then: a signal handler of the program's that runs
        inside a look would see it off. Returns the collections seen after the last look."""
        for _ in range(LOOKS_AGAIN - 1):
            self._look(state, frame, index)
            after = self._collections_seen()
            if after == collections:
                return after
            collections = after
        _collector_waiting(self._look, state, frame, index)
        return self._collections_seen()

    def _collections_seen(self) -> int:
        """Collections begun so far: heard by `on_gc` while it is the collector's first callback; else
        also counted from the collector's own statistics (the program took it out, or put a callback of
        its own before it, which could take it out as a collection starts)."""
        hooks = _gc_callbacks
        if hooks and hooks[0] is self.gc_hook:
            return self.collections
        return self.collections + sum(generation["collections"] for generation in _gc_get_stats())

    def _look(self, state: FrameState, frame: FrameType, index: int) -> None:
        """One look at every local: a delta row of what changed since the frame's last look, or of all
        its names when this is the frame's first look in the chunk (a chunk replays alone)."""
        namespace = _namespace(frame, state.code)
        if namespace is None:
            return      # any other mapping would run the program's code to be read at all: not shown
        pairs, size, names = namespace
        chunk = self.table.current
        full = state.serial != self.table.serial
        # Calm since this frame's last look: an object still held is unchanged, except the frame's own
        # namespace dict held by a local (3.11 `locals()`), which reading the frame refreshes.
        calm = id(names) if state.looked == self.epoch else 0
        state.looked = self.epoch
        count, hidden, dropped = self._changed(state, pairs, full, chunk, calm)
        if calm and not LIVE_LOCALS and (dropped or len(state.seen) > size - hidden) \
                and self.previewer.met_finalizer:
            # Before 3.13 an object a name let go of dies as this look reads `f_locals`: a finalizer of the
            # program's then runs here, unseen; the names passed over are looked at again.
            self._next_epoch()
            state.looked = self.epoch
            more, hidden, _ = self._changed(state, pairs, full, chunk, 0)
            count += more
        removed = None if len(state.seen) <= size - hidden else _unbound(state.seen, size - hidden, names,
                                                                          self._rebound)
        if full:
            state.serial = self.table.serial
            removed = None
            count = self._write_all(state.seen, chunk)
        elif not count and removed is None:
            return
        if removed is not None:
            row = len(chunk.delta_event)
            chunk.deleted.extend([(row, name) for name in removed])
        if full:
            chunk.full_rows.append(len(chunk.delta_event))
        chunk.delta_event.append(index)
        chunk.delta_sets.append(count)

    def _changed(self, state: FrameState, pairs: Any, full: bool, chunk: Any, calm: int) -> tuple[int, int]:
        """Bring `state.seen` up to date with the frame's (name, value) `pairs`, writing each name that
        changed into the chunk unless the look is `full` (then all are written after). `calm`: nonzero
        when no object can have changed since the frame's last look (`_look`), the id of the one that
        may have. Returns (names written, pairs that are no variable: a class body's non-str keys, a
        comprehension's hidden iterator, whether a calm look found a container or object let go of). The
        hot loop of every step."""
        seen = state.seen
        values = self.values
        items, base = values.items, values.base
        same = values.check.holds                 # `ValuePool.same`, one call less per container
        appended = values.appended
        set_names, set_refs = chunk.set_names, chunk.set_refs
        count = hidden = 0
        dropped = False
        quiet = None                  # asked once, when a calm look first finds an object still held
        for name, value in pairs:
            if type(name) is not str:     # a class body may hold any key: not a variable
                hidden += 1
                continue
            known = seen.get(name)
            failed = None                 # a snap just found not to hold: the pool need not try it again
            if known is not None:
                signature = known[1]
                if signature is None:
                    if known[0] is value:
                        continue
                elif known[0] == id(value):
                    if calm and calm != known[0]:
                        if quiet is None:
                            quiet = self._quiet()
                        if quiet:
                            continue
                    if same(value, signature):
                        continue
                    failed, failed_id = signature, known[0]
                elif not _dies_quietly(signature):
                    dropped = True
            elif name[:1] == ".":         # a comprehension's hidden iterator
                hidden += 1
                continue
            kind = type(value)
            if id(kind) in NUMBERS:       # the common case in loops: no signature, no cache
                if kind is not int or -SAFE_INT < value < SAFE_INT:
                    if known is not None and type(known[0]) is kind and (known[0] == value or value != value) \
                            and known[2] is None and _same_number(known[0], value):
                        seen[name] = (value, None, None)
                        continue
                    if known is not None and known[1] is not None and known[1].number:
                        self.numbers.let_go(known[1].number)
                    seen[name] = (value, None, None)
                    if not full:
                        set_names.append(name)
                        set_refs.append(base + len(items))
                        items.append(value)
                        count += 1
                    continue
                preview, signature = values.number(kind, value), None
            elif failed is not None and kind is list and not full:
                grown = appended(value, failed)     # a list appended to: `ValuePool.appended`
                if grown is not None:
                    seen[name] = (failed_id, grown[1], grown[0])
                    set_names.append(name)
                    set_refs.append(grown[2])
                    count += 1
                    continue
                preview, signature = values.preview(value, failed)
            else:
                preview, signature = values.preview(value, failed)
            token = value if signature is None else id(value)
            if known is not None and (preview is known[2] or preview == known[2]):
                seen[name] = (token, signature, known[2])
                continue
            seen[name] = (token, signature, preview)
            old = known[1].number if known is not None and known[1] is not None else 0
            if old or signature is not None and signature.number:
                self._rebound(old, signature.number if signature is not None else 0)
            if not full:
                set_names.append(name)
                set_refs.append(values.intern(preview, signature))
                count += 1
        return count, hidden, dropped

    def _rebound(self, old: int, new: int) -> None:
        """A name that held the object numbered `old` holds the one numbered `new` (`identity`; 0: none)."""
        if old != new:
            if new:
                self.numbers.hold(new)
            if old:
                self.numbers.let_go(old)

    def _write_all(self, seen: dict, chunk: Any) -> int:
        """A full snapshot: every name `seen` knows goes into the chunk; returns how many."""
        items, base, intern = self.values.items, self.values.base, self.values.intern
        set_names, set_refs = chunk.set_names, chunk.set_refs
        for name, known in seen.items():
            set_names.append(name)
            if known[2] is None:
                set_refs.append(base + len(items))
                items.append(known[0])
            else:
                set_refs.append(intern(known[2], known[1]))
        return len(seen)

    def _compare_with_fresh_previews(self, state: FrameState, frame: FrameType, index: int,
                                     collections: int) -> None:
        """`check_looks`: every name the frame holds must be known, and preview now as the recorder
        believes it does. A collection that began after the last look (`collections` were seen at its
        end) may have run the program's finalizers since: they changed the frame after the step was
        shown, which no look could have seen, so nothing is compared then."""
        namespace = _namespace(frame, state.code)
        if namespace is None or self._collections_seen() != collections:
            return
        fresh = Previewer(numbers=self.numbers, peek_only=True)
        current = {name: value for name, value in namespace[0] if type(name) is str and name[:1] != "."}
        stale = [name for name in current if name not in state.seen]
        for name, known in state.seen.items():
            believed = known[2] if known[2] is not None else fresh.number(type(known[0]), known[0])
            if name not in current or fresh.preview(current[name]) != believed:
                stale.append(name)
        if stale:
            self.stale_looks.append([index, sorted(stale)])


def _loop_of_builtins(state: FrameState, frame: FrameType, line: int, loop: Loop) -> bool:
    """May the `for` line `line` (a `bytecode_effects.Loop`) count as READS? As it starts afresh, only when
    the names its iterable calls are the real builtins (a program may rebind `range` to a C function that
    writes, `log.append`); stepping by its jump back, when they were as it last started (the iterator it
    steps was made then)."""
    loops = state.loops
    if frame.f_lasti == loop.offset:
        return loops is not None and loops.get(line, False)
    if loops is None:
        loops = state.loops = {}
    scope, builtins = frame.f_globals, frame.f_builtins
    loops[line] = real = all(named(scope, name) is None and named(builtins, name) is _MAKERS[name]
                             for name in loop.names)
    return real


_MAKERS = {name: getattr(_builtins_module, name) for name in ITERATOR_MAKERS}


def _namespace(frame: FrameType, code: CodeType) -> tuple | None:
    """(name-value pairs, their count, the names) of a frame's locals, read without running any of the
    program's code; None when they cannot be (a mapping that is no dict)."""
    current = frame.f_locals
    if not LIVE_LOCALS and (code.co_cellvars or code.co_freevars):
        # Before 3.13 reading `f_locals` copies the frame's variables into it, dropping the values the
        # copy held: a finalizer run by that may write a cell already copied. Copied again, it is seen.
        current = frame.f_locals
    space = type(current)
    if space is dict or space is _LOCALS_VIEW:
        return current.items(), len(current), current
    if issubclass(space, dict):       # type's own check: no hook of the class's runs
        # A class body's namespace from a metaclass's `__prepare__`: read through dict's own C methods,
        # never the program's overrides.
        return _dict_items(current), _dict_len(current), _dict_iter(current)
    return None


def _dies_quietly(snap: Any) -> bool:
    """Can the value a snap was taken of die running no code? A tuple, list or dict holding only the
    exact scalars it showed whole."""
    if snap.kind not in _QUIET_KINDS or snap.kids or snap.tag != "data":
        return False
    return len(snap.ids) == (2 * snap.size if snap.kind == _DICT_ID else snap.size)


_QUIET_KINDS = frozenset(map(id, (tuple, list, dict)))
_DICT_ID = id(dict)


def _unbound(seen: dict, bound: int, names: Any, rebound: Any) -> list[str] | None:
    """The names `seen` knows that are no longer bound (forgotten from `seen`, `rebound` to nothing), None
    when there are none: `bound` variables remain of `names`."""
    if len(seen) <= bound:
        return None
    present = {name for name in names if type(name) is str}     # iterating calls no __eq__
    removed = [name for name in seen if name not in present]
    for name in removed:
        signature = seen.pop(name)[1]
        if signature is not None and signature.number:
            rebound(signature.number, 0)
    return removed


def _collector_waiting(action: Any, *args: Any) -> None:
    """`action(*args)` with the collector kept waiting (it was on: a program may have switched it off)."""
    enabled = _gc_isenabled()
    _gc_disable()
    try:
        action(*args)
    finally:
        if enabled:
            _gc_enable()


def _same_number(old: Any, new: Any) -> bool:
    """Would two numbers of one exact type preview alike? (-0.0 and 0.0 do not; two NaNs do.)"""
    if old == new:
        return old != 0 or type(old) is not float or _float_repr(old) == _float_repr(new)
    return old != old and new != new


_get_ident = _thread.get_ident
_thread_count = _thread._count                  # threads besides the main one: they may write at any time
_getprofile, _gettrace = sys.getprofile, sys.gettrace   # a profile or trace function of the program's runs unseen
_monitoring = getattr(sys, "monitoring", None)
# The C module's: `signal.getsignal` makes an enum of its answer, running enum's Python code (and builtins).
_getsignal, _SIG_DFL, _SIG_IGN = _signal.getsignal, _signal.SIG_DFL, _signal.SIG_IGN
# Signals a program's handler may take while the recorder runs: its own timers' and children's, and the user
# signals (not SIGINT, which only comes with a stop). Pyodide delivers none but SIGINT.
_SIGNALS = () if sys.platform == "emscripten" else tuple(
    getattr(signal, name) for name in ("SIGALRM", "SIGVTALRM", "SIGPROF", "SIGUSR1", "SIGUSR2", "SIGCHLD")
    if hasattr(signal, name))
HELPER_LOOKBACK = 4096      # events searched back for the caller of a setup helper (recorder.helper_called)
SETUP_FILE = "<setup>"      # the file name the case's setup code is compiled under (runner)
TOOL_NAME = "stepwise"                          # the monitoring backend's tool


def _other_tools() -> bool:
    """Is a sys.monitoring tool other than the recorder's registered (its callbacks run unseen)?"""
    if _monitoring is None:
        return False
    for tool in range(6):
        name = _monitoring.get_tool(tool)
        if name is not None and not (type(name) is str and name == TOOL_NAME):
            return True
    return False
_gc_isenabled, _gc_disable, _gc_enable, _gc_get_stats = gc.isenabled, gc.disable, gc.enable, gc.get_stats
_gc_callbacks = gc.callbacks                    # the list the collector calls (a program may empty it)
# From 3.13 `frame.f_locals` is a view of a function's variables (PEP 667); before, a dict that CPython
# refreshes from the frame at every trace event (and that `locals()` returns).
LIVE_LOCALS = sys.version_info >= (3, 13)


def _locals_view_type() -> type:
    """The type of a function frame's `f_locals`: FrameLocalsProxy from 3.13, dict before."""
    def probe() -> Any:
        return sys._getframe().f_locals
    return type(probe())


_LOCALS_VIEW = _locals_view_type()
_dict_items, _dict_len, _dict_iter = dict.items, dict.__len__, dict.__iter__


def _starts(frame: FrameType) -> bool:
    """Does the frame stand at its code's start (RESUME with argument 0), not at a resumption?"""
    try:
        raw = frame.f_code.co_code
        return raw[frame.f_lasti] == _RESUME and raw[frame.f_lasti + 1] == 0
    except (IndexError, AttributeError, TypeError):
        return False


_RESUME = dis.opmap["RESUME"]


def _resumed_in_c(frame: FrameType) -> bool:
    """Was this generator frame resumed through C: by anything but a SEND (`yield from`, `await`) of
    the frame below it?"""
    caller = frame.f_back
    return caller is None or _last_op(caller) != _SEND


_SEND = dis.opmap.get("SEND", -1)


def _last_op(frame: FrameType) -> int | None:
    """The opcode a frame stopped at (its last instruction), None when it cannot be read."""
    try:
        return frame.f_code.co_code[frame.f_lasti]
    except (IndexError, AttributeError, TypeError):
        return None


_YIELD_OPS = frozenset(dis.opmap[name] for name in ("YIELD_VALUE",) if name in dis.opmap)
_RETURN_OPS = frozenset(dis.opmap[name] for name in ("RETURN_VALUE", "RETURN_CONST") if name in dis.opmap)
