"""Record what the shown source file did: calls, lines, returns, exceptions and locals.

`Recorder` holds what both backends share: the frame table, per-frame locals
diffing and the event table. A backend (`settrace.SettraceBackend`,
`monitor.MonitoringBackend`) only turns interpreter hooks into the calls `enter`,
`line`, `leave` and `raised`, shielded by `guarded` or by its clauses written inline on the
hottest callbacks (the recorder's own faults go to `fault`, never into the program).

Locals are diffed, not copied: each frame keeps, per name, a token (the scalar
itself, or a container's or object's id), the signature of its preview and the
preview. A name is previewed again only when its token or signature changed, and
counts as changed only when the new preview differs. Numbers (bool, None, floats and
ints exact in a JS number) are not previewed while the program runs: the number itself
goes into the chunk's value list and is previewed when the trace is written. No program object other than
an immutable scalar is referenced, and a frame's record is dropped when it ends.

Calls and returns always balance: frames still open when the run stops (a limit, an
exception the recorder could not see at the recursion limit) are closed by `finish`.
"""
from __future__ import annotations

import _thread
import dis
import gc
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
    any,
    bool,
    dict,
    float,
    frozenset,
    hasattr,
    id,
    int,
    issubclass,
    len,
    list,
    map,
    min,
    object,
    range,
    set,
    slice,
    str,
    sum,
    super,
    tuple,
    type,
)
from itertools import repeat
from operator import is_
from types import CodeType, FrameType
from typing import Any

from .exceptions import describe_exception, exception_text
from .limits import DEFAULT_EVENTS, DIRECT_SECONDS, PREVIEW_NODES
from .line_effects import plans as line_plans
from .loop_effects import Loop
from .loop_effects import loops as loop_plans
from .previews import yielded
from .table import EventTable
from .values import NUMBERS, TEXT_PER_NODE, ValuePool

_float_repr = float.__repr__
_NONE = type(None)
_UNBOUND = object()                             # what a name that is not bound looks up to

TIME_CHECK_MASK = 255                           # look at the clock every 256 events
CALL, LINE, RETURN, EXCEPTION = b"clrx"              # event kinds, as the table stores them
SAFE_INT = 2 ** 53                              # ints inside it are kept raw (exact in a JS number)
FAULTS_KEPT = 20


EARLY_CLOSE_EVENTS = 64     # events a chunk holds before its preview nodes may close it early
# Looks again at an event whose look a collection interrupted; past them the frame's next event looks at
# every local anyway (the collection left its `epoch` behind).
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

    __slots__ = ("id", "code", "seen", "serial", "local", "line", "last", "epoch", "plans", "scalars", "loops",
                 "pure_loops", "stepping", "can_be_cheap", "thread", "in_c", "judged")

    def __init__(self, frame_id: int, code: Any, plans: tuple[dict, dict, bool]) -> None:
        self.id = frame_id
        self.code = code                   # tells a reused frame id from this frame
        self.plans = plans[0]              # line -> (names read or written, names written) of a pure line
        self.loops = plans[1]              # line -> Loop, for the `for` lines loop_effects understands
        self.can_be_cheap = plans[2]       # any of them: else whether a step may be cheap is never asked
        self.pure_loops: set[int] = set()  # lines of those whose running iterator runs no program code
        self.stepping: Loop | None = None  # the loop whose line just came back for its next item
        self.last = -2                     # run-wide index of this frame's latest event
        self.epoch = -1                    # the recorder's `epoch` at the last full look (-1: not alone)
        self.seen: dict[str, tuple] = {}   # name -> (token, signature | None, preview | None: a raw number)
        self.serial = -1                   # table serial of this frame's last full snapshot
        self.local = None                  # settrace: the bound local trace function
        self.line = 0                      # last line seen, for events that come without one
        self.scalars: set[str] = set()     # names `seen` knows hold an exact scalar (no signature)
        self.thread = _get_ident()         # a frame of another thread never stands for the entry's call
        self.in_c = False                  # a generator running now, resumed through C (GENERATORS_NESTED)
        self.judged = -1                   # the recorder's `collections` when a comprehension was judged


# Plans depend only on what a code object's bytecode says, so they are kept across runs by that content
# (a run imports the shown module afresh: its code objects are new, their bytecode the same). The key
# holds bytes, ints and tuples of str of the code's own: nothing of the program's values.
_PLANS_CAP = 1024
_plans_by_content: dict[tuple, tuple] = {}


_NO_PLANS: tuple[dict, dict, bool] = ({}, {}, False)
# What the compiler puts in co_consts (besides the tuples and frozensets of them, and slices in 3.14+).
_CONSTANT_TYPES = frozenset(map(id, (int, float, complex, bool, type(None), str, bytes, type(...), CodeType)))


def _plain_constants(constants: tuple, depth: int = 0) -> bool:
    """Are `constants` all of the kinds a compiler makes? (Exact types only, read without running any
    code: a tuple's or frozenset's items by iteration, a slice's three fields.)"""
    if depth > 32:
        return False
    for constant in constants:
        kind = type(constant)
        if id(kind) in _CONSTANT_TYPES:
            continue
        if kind is tuple or kind is frozenset:
            if not _plain_constants(constant, depth + 1):
                return False
        elif kind is slice:
            if not _plain_constants((constant.start, constant.stop, constant.step), depth + 1):
                return False
        else:
            return False
    return True


def _shared_plans(code: Any) -> tuple[dict, dict, bool]:
    """(pure line plans, loop plans, any of them) of `code`, computed once per distinct bytecode."""
    key = (code.co_code, code.co_linetable, code.co_firstlineno, code.co_names, code.co_varnames,
           code.co_cellvars, code.co_freevars)
    known = _plans_by_content.get(key)
    if known is None:
        # (names read or written, names written, names read): a set for the subset test, a tuple to walk
        plans = {line: None if plan is None else (plan[0] | plan[1], tuple(plan[1]), plan[0])
                 for line, plan in line_plans(code).items()}
        loops = loop_plans(code)
        known = (plans, loops, bool(loops) or any(plan is not None for plan in plans.values()))
        if len(_plans_by_content) >= _PLANS_CAP:
            _plans_by_content.clear()
        _plans_by_content[key] = known
    return known


class Recorder:
    """Turns backend callbacks into the event table, the frame table and locals deltas."""

    def __init__(self, filename: str, *, max_events: int = DEFAULT_EVENTS, time_limit: float = DIRECT_SECONDS) -> None:
        self.filename = filename
        self.thread = _get_ident()                  # the run's: its top-level call is the entry's
        self.table = EventTable(max_events, PREVIEW_NODES)
        self.values = ValuePool()
        self.values.use(self.table.current.values)
        # A chunk that holds its share of preview nodes closes at the next event (`EventTable`).
        self.values.weight_cap = self.table.chunk_weight
        self.values.on_heavy = self._close_chunk_soon
        self.frames: dict[int, list] = {}          # id -> [function, parent id | None, def line]
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
        self.epoch = 0                              # bumps at each garbage collection and new chunk
        self.collections = 0                        # garbage collections begun (finalizers may have run)
        self.own_trace = None                       # sys.gettrace() while recording (the settrace backend's)
        self.own_tools = 0                          # sys.monitoring tool ids the recorder holds (monitor: 1)
        self.gc_hook: Any = None                    # `on_gc` as registered in gc.callbacks (by the runner)
        self._plans: dict[int, tuple] = {}          # id(code) -> (code, (pure line plans, loops, any of them))
        self.generators_in_c = 0                    # generators running now, resumed through C

    def on_gc(self, phase: str, info: dict) -> None:
        """A gc.callbacks hook: a collection may run finalizers, so the next step looks at everything."""
        if phase == "start":
            self.epoch += 1
            self.collections += 1

    def _plans_of(self, code: Any) -> tuple[dict, dict, bool]:
        known = self._plans.get(id(code))
        if known is None or known[0] is not code:
            # A code object built by hand may hold constants the compiler never makes (an object whose
            # `strip` is a list's `append`): its lines are never cheap.
            plans = _shared_plans(code) if _plain_constants(code.co_consts) else _NO_PLANS
            known = self._plans[id(code)] = (code, plans)
        return known[1]

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
            table = self.table
            filled = len(table.current.kinds)
            # A chunk holding its share of preview nodes closes early, once it has a few events: its
            # first looks may be full snapshots as big as the share (they must not close it at once).
            heavy = self.values.weight >= self.values.weight_cap
            early = min(EARLY_CLOSE_EVENTS, table.chunk_size)
            if filled >= table.chunk_size or heavy and filled >= early:
                table.current.weight = self.values.weight
                base = self.values.base + len(self.values.items)
                for forgotten in table.rotate(index, self.calls):
                    self.frames.pop(forgotten, None)
                table.current.value_base = base
                self.values.use(table.current.values, base)
                self.epoch += 1         # in the tail a frame's first look in a chunk is a full snapshot
                filled, heavy = 0, False
            self._until = index + (early if heavy else table.chunk_size) - filled
        chunk = self.table.current
        chunk.kinds.append(kind)
        chunk.lines.append(line)
        chunk.frames.append(frame_id)
        self.count = index + 1
        if checked:
            self._check(index)
        return index

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
        if state is None or state.code is not code:
            parent = frame.f_back
            while parent is not None and id(parent) not in live:
                parent = parent.f_back
            parent_id = live[id(parent)].id if parent is not None else None
            state = FrameState(self.calls + 1, code, self._plans_of(code))
            index = self._event(CALL, line, state.id, checked=False)
            self.calls += 1
            self.frames[state.id] = [code.co_name, parent_id, code.co_firstlineno]
            live[id(frame)] = state
        else:
            index = self._event(CALL, line, state.id, checked=False)
        state.line = line
        state.stepping = None
        self.stack.append(state)
        if _COUNT_GENERATORS and code.co_flags & _GENERATOR_FLAGS and not state.in_c and _resumed_in_c(frame):
            state.in_c = True
            self.generators_in_c += 1
            if self.generators_in_c > GENERATORS_NESTED:
                self.stop("generators_nested")
        try:
            self._locals(state, frame, index)
        except BaseException:
            self._repair(state)
            raise
        self._check(index)
        return state

    def line(self, state: FrameState, frame: FrameType, lineno: int) -> None:
        """About to run line `lineno` (the hot path: `_event` inlined)."""
        plan = state.plans.get(state.line)          # what the line that just ran could change
        stepping = state.stepping
        if stepping is not None:                    # a `for` line came back for its next item...
            state.stepping = None
            if lineno == stepping.body:             # ...and took one: only its names changed
                plan = stepping.plan
            elif stepping.jumps and lineno == stepping.line and frame.f_lasti in stepping.jumps:
                plan = stepping.plan                # a comprehension's next iteration ended
        state.line = lineno
        index = self.count
        if index >= self._until or not index & TIME_CHECK_MASK:
            index = self._event(LINE, lineno, state.id)
        else:
            chunk = self.table.current
            chunk.kinds.append(LINE)
            chunk.lines.append(lineno)
            chunk.frames.append(state.id)
            self.count = index + 1
        if (plan is not None and state.last == index - 1 and state.epoch == self.epoch
                and (plan[0] <= state.scalars or _scalars_or_unbound(plan, state))
                and (NO_THREADS or not _thread_count())):   # a thread may start unseen (a signal handler)
            # A pure line (line_effects) whose names all held exact scalars when it began (a name it only
            # writes may have been unbound): it ran no code of the program's and only the
            # names it wrote can have changed. The rest of the rule: the frame's last event came just
            # before; since its last full look no garbage collection ran (finalizers), no chunk began
            # (the frame owes it a full snapshot) and no other thread existed (`_locals` sets epoch).
            state.last = index
            names = plan[1]
            if names:
                epoch = self.epoch
                try:
                    value = _UNBOUND
                    if len(names) == 1:
                        name = names[0]
                        known = state.seen.get(name)
                        if known is not None and known[1] is None and type(known[0]) is int:
                            value = frame.f_locals.get(name, _UNBOUND)
                    if type(value) is int and -SAFE_INT < value < SAFE_INT:
                        # The commonest step of all, a counter or a sum that was an int and is one now:
                        # `_locals_named`'s own path for it, inline (a call less: ~15% of a plain-loop step on
                        # CPython 3.11, ~7% in Pyodide).
                        state.seen[name] = (value, None, None)
                        if known[0] != value:
                            chunk = self.table.current
                            items = chunk.values
                            chunk.set_names.append(name)
                            chunk.set_refs.append(chunk.value_base + len(items))
                            items.append(value)
                            chunk.delta_event.append(index)
                            chunk.delta_sets.append(1)
                    else:
                        self._locals_named(state, frame, index, names)
                    if self.epoch != epoch:
                        # The look's own allocations set off a collection: finalizers of the program's ran
                        # after it read what it read, and may have changed any name (a second delta row
                        # at this event: rows fold in order).
                        self._locals(state, frame, index)
                except BaseException:
                    self._repair(state)
                    raise
        else:
            try:
                self._locals(state, frame, index)
            except BaseException:
                self._repair(state)
                raise
        loop = state.loops.get(lineno)
        if loop is not None:
            # About to run a `for` line. A run that starts at FOR_ITER is the loop coming back for the
            # next item (inline: once an iteration in every loop), as is a comprehension's line reported
            # again at a jump back to its FOR_ITER; its first run makes the iterator.
            at = frame.f_lasti
            if at == loop.offset:
                if lineno in state.pure_loops:
                    state.stepping = loop
            elif at in loop.jumps:
                # (A comprehension's items were judged all scalars when its line began: no collection
                # since, whose finalizers could have put anything into what it iterates.)
                if lineno in state.pure_loops and state.judged == self.collections:
                    state.stepping = loop
            else:
                self._loop_starts(state, frame, loop)

    def _loop_starts(self, state: FrameState, frame: FrameType, loop: Loop) -> None:
        """A `for` line's first run: whether its iterator runs no program code is judged here, with
        the locals just looked at."""
        state.pure_loops.discard(loop.line)         # first: the judgement below may fail
        # Counted before judging: the judgement's own allocations may set off a collection, whose
        # finalizers would then run after the names they could change were read.
        collections = self.collections
        if loop.pure_start(frame, state.seen) and (not loop.jumps or self._runs_on_scalars(state, frame, loop)):
            state.pure_loops.add(loop.line)
            state.judged = collections

    def _runs_on_scalars(self, state: FrameState, frame: FrameType, loop: Loop) -> bool:
        """Will the comprehension about to start run no program code, its first iteration included:
        the names its expressions read (and its walrus targets) hold exact scalars now, and it will
        take only exact scalars (`Loop.scalar_items`)? Its iterable is read by name only while the
        frame's last full look holds (no key of its locals could run code when compared, no collection
        since)."""
        if state.epoch != self.epoch or not _scalars_or_unbound(loop.start, state):
            return False
        return loop.scalar_items(None if loop.name is None else frame.f_locals.get(loop.name))

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
        state.stepping = None
        if state.in_c:
            state.in_c = False
            self.generators_in_c -= 1
        self._close(state)
        index = self._event(RETURN, state.line, state.id, checked=False)
        preview = None
        try:
            self._locals(state, frame, index)
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

    def raised(self, state: FrameState, frame: FrameType, error: BaseException) -> None:
        line = frame.f_lineno or state.line
        state.line = line
        state.stepping = None
        index = self._event(EXCEPTION, line, state.id, checked=False)
        try:
            self._locals(state, frame, index)
        except BaseException:
            self._repair(state)
            raise
        # Unwinding to a handler pops what the stack held (a loop's iterator, a finalizer's only holder)
        # after this look: the next step is a full look, whatever the raising line was.
        state.epoch = -1
        description = describe_exception(error)
        self.last_exception = (description, line)
        self.table.current.exceptions.append((index, description))
        self.values.weigh(1 + len(description["message"]) // TEXT_PER_NODE)
        if self.stop_reason is not None and self.raise_in_callbacks and type(error) is not LimitReached:
            raise LimitReached(self.stop_reason)

    def finish(self, returned: bool = False) -> None:
        """Close the frames the run left open (innermost first), so calls and returns balance.
        `returned`: the entry ended normally, so a frame still open with no stop of ours had its end go
        unheard (the program switched tracing off): its outcome is "unseen", not an unwind."""
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
            state.serial = state.epoch = -1
            state.scalars = {name for name, known in state.seen.items() if known[1] is None}
            state.pure_loops.clear()                # a loop line's look may have failed before its verdict
            state.stepping = None

    # -- locals ---------------------------------------------------------------------------
    def _locals_named(self, state: FrameState, frame: FrameType, index: int, names: tuple[str, ...]) -> None:
        """After a pure line: look only at the names it wrote (a step costs a few names, not all)."""
        seen = state.seen
        # A frame's f_locals view is made afresh at each look (~0.25 µs in Pyodide): one kept between
        # events would keep its frame, and the frame's locals, alive past an end the recorder never
        # hears of (the program switched tracing off; a return callback the recursion limit refused).
        get = frame.f_locals.get
        chunk = self.table.current
        count = 0
        removed = None
        for name in names:
            known = seen.get(name)
            value = get(name, _UNBOUND)
            if known is not None and known[0] is value and known[1] is None:
                continue
            if value is _UNBOUND:
                if known is not None:
                    del seen[name]
                    state.scalars.discard(name)
                    if removed is None:
                        removed = []
                    removed.append(name)
                continue
            # The rest is `_locals`' own body for a changed name, inlined in both on purpose: a shared
            # method costs ~5% of a step on a plain loop (CPython 3.11, 3.04 -> 3.2 µs).
            kind = type(value)
            if kind is int and -SAFE_INT < value < SAFE_INT or kind is float or kind is bool or kind is _NONE:
                if known is not None and type(known[0]) is kind and (known[0] == value or value != value) \
                        and known[2] is None and _same_number(known[0], value):
                    seen[name] = (value, None, None)
                    continue
                seen[name] = (value, None, None)
                if known is None:                   # bound for the first time (see _scalars_or_unbound)
                    state.scalars.add(name)
                items = chunk.values                # the pool's current list, from `value_base` on
                chunk.set_names.append(name)
                chunk.set_refs.append(chunk.value_base + len(items))
                items.append(value)
                count += 1
                continue
            values = self.values
            if kind is int:
                preview, signature = values.number(kind, value), None
            else:
                preview, signature = values.preview(value)
            token = value if signature is None else id(value)
            if signature is not None:
                state.scalars.discard(name)
            elif known is None:
                state.scalars.add(name)
            if known is not None and (preview is known[2] or preview == known[2]):
                seen[name] = (token, signature, known[2])
                continue
            seen[name] = (token, signature, preview)
            chunk.set_names.append(name)
            chunk.set_refs.append(values.intern(preview, signature))
            count += 1
        if count or removed is not None:
            if removed is not None:
                row = len(chunk.delta_event)
                chunk.deleted.extend([(row, name) for name in removed])
            chunk.delta_event.append(index)
            chunk.delta_sets.append(count)

    def _locals(self, state: FrameState, frame: FrameType, index: int) -> None:
        """Look at every local of the frame, and again while a collection ran during the look: the look's
        own allocations may set one off, whose finalizers (the program's) run after the look read some
        names and before it read others (a name read first would show a stale value). Each look again is
        a delta row of its own at this event (rows fold in order). The collector is not held off: a
        finalizer or signal handler of the program's that runs inside a look would see it off."""
        for _ in range(LOOKS_AGAIN + 1):
            epoch = self.epoch
            self._look(state, frame, index)
            if self.epoch == epoch:
                return

    def _look(self, state: FrameState, frame: FrameType, index: int) -> None:
        state.last = index
        # Another thread, or a trace or profile function or sys.monitoring tool of the program's (they run
        # between lines, a profile function at a pure line's method calls; under settrace also a frame's
        # own `f_trace` replaced), could change values between two steps, and so could a collection the
        # recorder does not hear of (the program took `on_gc` out of gc.callbacks, or put a callback before
        # it, which could take it out as a collection starts): no cheap step until a full look finds none.
        # (Only for a frame whose code has lines that can be cheap: for the others it is never asked.)
        if state.can_be_cheap:
            hooks = _gc_callbacks
            quiet = not _thread_count() and _gettrace() is self.own_trace and _getprofile() is None \
                and (self.own_trace is None or frame.f_trace is state.local) \
                and hooks and hooks[0] is self.gc_hook \
                and (not _TOOL_IDS or sum(map(is_, map(_get_tool, _TOOL_IDS), repeat(None)))
                     == len(_TOOL_IDS) - self.own_tools)
            state.epoch = self.epoch if quiet else -1
        seen = state.seen
        scalars = state.scalars
        values = self.values
        items, base = values.items, values.base
        same = values.check.holds                 # `ValuePool.same`, one call less per container
        chunk = self.table.current
        set_names, set_refs = chunk.set_names, chunk.set_refs
        count = 0
        # The frame's first delta in this chunk holds all its names (the chunk replays alone): then
        # the walk below only brings `seen` up to date, and every name is written once after it.
        full = state.serial != self.table.serial
        current = frame.f_locals
        if not LIVE_LOCALS and (state.code.co_cellvars or state.code.co_freevars):
            # Before 3.13 reading `f_locals` copies the frame's variables into it, dropping the values the
            # copy held: a finalizer run by that may write a cell already copied. Copied again, it is seen.
            current = frame.f_locals
        hidden = 0
        odd = False
        space = type(current)             # (`kind` below is each value's type)
        if space is dict or space is _LOCALS_VIEW:
            pairs, size, names = current.items(), len(current), current
        elif issubclass(space, dict):      # type's own check: no hook of the class's runs
            # A class body's namespace from a metaclass's `__prepare__`: read through dict's own C
            # methods, never the program's overrides (and never by name: no cheap step, below).
            pairs, size, names = _dict_items(current), _dict_len(current), _dict_iter(current)
            odd = True
        else:
            # Any other mapping would run the program's code to be read at all: its names are not shown.
            state.epoch = -1
            return
        for name, value in pairs:
            if type(name) is not str:     # a class body may hold any key: not a variable
                hidden += 1
                odd = True
                continue
            known = seen.get(name)
            failed = None                 # a snap just found not to hold: the pool need not try it again
            if known is not None:
                signature = known[1]
                if signature is None:
                    if known[0] is value:
                        continue
                elif known[0] == id(value):
                    if same(value, signature):
                        continue
                    failed = signature
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
                    scalars.add(name)
                    seen[name] = (value, None, None)
                    if not full:
                        set_names.append(name)
                        set_refs.append(base + len(items))
                        items.append(value)
                        count += 1
                    continue
                preview, signature = values.number(kind, value), None
            else:
                preview, signature = values.preview(value, failed)
            token = value if signature is None else id(value)
            if signature is None:
                scalars.add(name)
            else:
                scalars.discard(name)
            if known is not None and (preview is known[2] or preview == known[2]):
                seen[name] = (token, signature, known[2])
                continue
            seen[name] = (token, signature, preview)
            if not full:
                set_names.append(name)
                set_refs.append(values.intern(preview, signature))
                count += 1
        removed = None
        if not LIVE_LOCALS and space is dict and any(map(is_, current.values(), repeat(current))):
            odd = True      # before 3.13 `locals()` is this very dict, which every event refreshes unseen
        if odd:
            # A key that is not a str (a class body, or a frame's locals written by the program), or a
            # namespace of a dict subclass: a lookup by name could call the program's code (a key's
            # __eq__, the subclass's `get`), so no cheap step (they look up by name) for now.
            state.epoch = -1
        if len(seen) > size - hidden:           # some name seen before is unbound now
            present = {name for name in names if type(name) is str}     # iterating calls no __eq__
            removed = [name for name in seen if name not in present]
            for name in removed:
                del seen[name]
                scalars.discard(name)
        if full:
            state.serial = self.table.serial
            removed = None
            intern = values.intern
            for name, known in seen.items():
                set_names.append(name)
                if known[2] is None:
                    set_refs.append(base + len(items))
                    items.append(known[0])
                else:
                    set_refs.append(intern(known[2], known[1]))
            count = len(seen)
        elif not count and removed is None:
            return
        if removed is not None:
            row = len(chunk.delta_event)
            chunk.deleted.extend([(row, name) for name in removed])
        if full:
            chunk.full_rows.append(len(chunk.delta_event))
        chunk.delta_event.append(index)
        chunk.delta_sets.append(count)


def _scalars_or_unbound(plan: tuple, state: FrameState) -> bool:
    """Did every name the pure line reads hold an exact scalar, and every name it only writes hold one or
    nothing? (An `except ... as e` handler's clean-up is in every line's plan: it writes `e`, unbound
    outside the handler, and overwriting an unbound name drops nothing. A name read must be bound: one
    that is not would be looked up further, at module level among the builtins, which the program may
    have rebound.)"""
    seen, scalars, reads = state.seen, state.scalars, plan[2]
    for name in plan[0]:
        if name not in scalars and (name in seen or name in reads):
            return False
    return True


def _same_number(old: Any, new: Any) -> bool:
    """Would two numbers of one exact type preview alike? (-0.0 and 0.0 do not; two NaNs do.)"""
    if old == new:
        return old != 0 or type(old) is not float or _float_repr(old) == _float_repr(new)
    return old != old and new != new


# Another thread could change a frame's values between its steps: cheap steps need it to be alone.
_thread_count = _thread._count
_get_ident = _thread.get_ident
# Pyodide cannot start a thread (tests/test_recorder_pyodide.py checks it): no need to count them per step.
NO_THREADS = sys.platform == "emscripten"
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
_gettrace, _getprofile = sys.gettrace, sys.getprofile
_gc_callbacks = gc.callbacks                    # the list the collector calls (a program may empty it)
if hasattr(sys, "monitoring"):
    _get_tool, _TOOL_IDS = sys.monitoring.get_tool, tuple(range(6))
else:                                           # before 3.12: no tools to ask about
    _get_tool, _TOOL_IDS = None, ()


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
