"""Let go of what a run leaves, one object at a time: nothing may be freed recursively.

Freeing the head of a long chain (a traceback and the frames it passed, a linked list, a nested list)
frees the chain recursively in C, several C calls per link. CPython 3.14 bounds that recursion by the
C stack it measures, but under Emscripten the wasm calls run on the JS engine's own stack, which runs
out first: Pyodide 314 dies ("Maximum call stack size exceeded") freeing a traceback that passed
~6,000 frames or a linked list of ~3,100 instances under node (~1,800 once previews have read their
`__dict__`, which 3.14 then keeps), of 1,000-2,000 in Chromium's worker. A program that leaves such a
chain in a module global would not free it by itself (its module lives on); the runner drops the
module at the end of every run.

Held in one list in the right order, each object is freed by its own decref and nothing recurses: what
holds comes before what it holds (`let_go` pops the list from the end). Finalizers run in the order a
recursive free would run them. Only C accessors and `gc.get_referents` (each type's C traversal) read
the objects: nothing of the program's runs.
"""
from __future__ import annotations

import gc
import os
import sys
import types
import weakref

# Captured at import: a lesson may rebind the builtins.
from builtins import BaseException, BaseExceptionGroup, dict, id, issubclass, len, list, set, type

# How many objects one gathering holds at most (~50 bytes each, with its id in a set); past it the
# rest is freed the usual way.
HELD_CAP = 500_000
# Fewer objects than this hold no chain long enough to matter (Chromium's worker dies from 1,000-2,000
# links): the modules a run leaves are then freed the usual way, in one collection, not two.
FEW = 500
_ATOMS = (int, float, str, bytes, bool, type(None))      # nothing to traverse

_traceback_of = BaseException.__dict__["__traceback__"].__get__
_context_of = BaseException.__dict__["__context__"].__get__
_cause_of = BaseException.__dict__["__cause__"].__get__
_group_exceptions = BaseExceptionGroup.__dict__["exceptions"].__get__
_module_dict = types.ModuleType.__dict__["__dict__"].__get__
_frame_code = types.FrameType.__dict__["f_code"].__get__
_function_code = types.FunctionType.__dict__["__code__"].__get__
_type_module = type.__dict__["__module__"].__get__
_OWN = os.path.dirname(os.path.abspath(__file__)) + os.sep
_OWN_PACKAGE = __name__.rpartition(".")[0] + "."
_referents = gc.get_referents
_clear = dict.clear


def exception_in_freeing_order(error: BaseException | None) -> list:
    """What `error` keeps alive through tracebacks and chained exceptions: chained exceptions newest
    first, traceback entries outermost first, frames innermost first (a frame that ended while its
    object lived holds its caller, `f_back`). Drop it with `let_go` once `error` is held no more."""
    exceptions: list = []
    entries: list = []
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
            entries.append(entry)
            frames.append(entry.tb_frame)
            entry = entry.tb_next
        waiting.append(_context_of(current))
        waiting.append(_cause_of(current))
        if issubclass(type(current), BaseExceptionGroup):   # not isinstance: it may read `__class__`
            waiting.extend(_group_exceptions(current))
    exceptions.reverse()
    entries.reverse()
    # Then what the program's frames hold (a stop may land while a local holds a long linked list),
    # after the frames themselves.
    below = _reached([frame for frame in frames if not _ours(frame, types.FrameType)],
                     {id(item) for item in (*frames, *entries, *exceptions)})
    below.reverse()
    return below + frames + entries + exceptions


def graph_in_freeing_order(roots: list) -> list:
    """What `roots` reach, `roots` first, then breadth first (`_reached`): what holds before what it
    holds."""
    order: list = []
    seen: set = set()
    for root in roots:
        if id(root) not in seen:
            seen.add(id(root))
            order.append(root)
    order += _reached(order, seen)
    order.reverse()
    return order


def _reached(starts: list, seen: set) -> list:
    """What `starts` reach and `seen` (ids) does not hold, breadth first. Not entered: modules, the
    namespaces of those in `sys.modules` (they stay), classes (few, and freed in few steps) and the
    recorder's own frames, functions and objects (a program frame's caller is the runner's). Untracked
    containers are (a nest of tuples of atoms is untracked, and still a chain)."""
    kept = {id(_module_dict(module)) for module in list(sys.modules.values())
            if issubclass(type(module), types.ModuleType)}
    order: list = []
    pending = starts
    position = 0
    while position < len(pending):
        for found in _referents(pending[position]):
            kind = type(found)
            if kind in _ATOMS or id(found) in seen or id(found) in kept or len(order) >= HELD_CAP:
                continue
            if issubclass(kind, types.ModuleType) or issubclass(kind, type) or _ours(found, kind):
                continue
            seen.add(id(found))
            order.append(found)
        position += 1
        if pending is starts and position == len(starts):
            pending, position = order, 0
    return order


def _ours(found: object, kind: type) -> bool:
    """A frame or function of the recorder's code, or an object of one of its classes."""
    if kind is types.FrameType:
        return _frame_code(found).co_filename.startswith(_OWN)
    if kind is types.FunctionType:
        return _function_code(found).co_filename.startswith(_OWN)
    module = _type_module(kind)
    return type(module) is str and module.startswith(_OWN_PACKAGE)


def let_go(held: list) -> None:
    """Drop what was gathered, last first."""
    while len(held):
        held.pop()


class _Harvest:
    """Planted in the namespaces of the modules a run leaves. The collector finalizes it with them,
    before it clears anything, and its finalizer gathers what they reach into a list held from
    outside: all of it survives that collection, whole, with every finalizer of the program's run
    (as they would have run, in the collection that frees the module)."""

    __slots__ = ("namespaces", "found", "__weakref__")

    def __init__(self, namespaces: list, found: list) -> None:
        self.namespaces = namespaces
        self.found = found

    def __del__(self) -> None:
        try:
            self.found.append((self.namespaces, graph_in_freeing_order(self.namespaces)))
        except BaseException:  # noqa: BLE001 - nothing may be printed from here into the run's output
            pass


def let_modules_go(modules: list) -> None:
    """Free the modules a run leaves (`modules` is emptied: the caller must hold none of them).

    A module's namespace is in a cycle with its functions, so only the collector frees it, and
    clearing it frees at once whatever hangs from it. So, when they reach `FEW` objects or more: one
    collection finalizes it all and `_Harvest` keeps it; then, every finalizer having run, the
    namespaces are cleared and the rest let go one object at a time; a last collection frees what is
    left (classes, functions)."""
    found: list = []
    namespaces = [_module_dict(module) for module in modules if issubclass(type(module), types.ModuleType)]
    modules.clear()
    if len(graph_in_freeing_order(namespaces)) < FEW:
        del namespaces
        gc.collect()
        return
    harvest = _Harvest(namespaces, found)
    for namespace in namespaces:
        namespace[harvest] = None               # keyed by itself: hashed by identity, no name of the program's
    planted = weakref.ref(harvest)
    del harvest, namespace, namespaces
    gc.collect()
    harvest = planted()
    if harvest is not None:                     # something still holds a namespace: as before, no harvest
        namespaces, harvest.namespaces, harvest.found = harvest.namespaces, [], []   # its finalizer: a no-op
        for namespace in namespaces:
            namespace.pop(harvest, None)
        del harvest, namespace, namespaces
    while found:
        namespaces, order = found.pop()
        for namespace in namespaces:
            _clear(namespace)
        del namespace, namespaces
        let_go(order)
    gc.collect()
