"""Let go of what a run leaves, one object at a time: nothing may be freed recursively.

Freeing the head of a long chain (a traceback and the frames it passed, a linked list, a nested list)
frees the chain recursively in C, several C calls per link. CPython 3.14 bounds that recursion by the
C stack it measures, but under Emscripten the wasm calls run on the JS engine's own stack, which runs
out first: Pyodide 314 dies ("Maximum call stack size exceeded") freeing a traceback that passed
~6,000 frames or a linked list of ~3,100 instances under node (~1,800 once previews have read their
`__dict__`, which 3.14 then keeps), of 1,000-2,000 in Chromium's worker. A program that leaves such a
chain in a module global would not free it by itself (its module lives on); the runner drops the
module at the end of every run.

Held in one list in the right order, each object is freed by its own decref and nothing recurses:
what holds comes before what it holds (`let_go` pops the list from the end). The order is depth first,
each container's items in the order its own free lets go of them, so finalizers run in the order a
recursive free runs them. Fewer than `FEW` objects hold no chain that matters: they are freed the
usual way. Only C accessors and `gc.get_referents` (each type's C traversal) read the objects, and
types are compared by identity: nothing of the program's runs.
"""
from __future__ import annotations

import gc
import os
import sys
import types
import weakref

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    BaseException,
    BaseExceptionGroup,
    all,
    dict,
    frozenset,
    id,
    issubclass,
    len,
    list,
    map,
    set,
    str,
    tuple,
    type,
)
from collections.abc import Callable

# How many objects one gathering holds at most (~50 bytes each, with its id in a set); past it the
# rest is freed the usual way.
HELD_CAP = 500_000
# Fewer objects than this hold no chain long enough to matter (Chromium's worker dies from 1,000-2,000
# links): they are freed the usual way, in the usual order (and a module in one collection, not two).
FEW = 500
# Held in a dropped namespace while the collection that frees it runs (`let_modules_go`).
HARVEST_NAME = "__stepwise_harvest__"

_ATOMS = frozenset(map(id, (int, float, str, bytes, bool, type(None))))   # nothing to traverse
_LAST_FIRST = frozenset(map(id, (list, tuple)))      # their free lets go of the last item first
_FLAT = frozenset(map(id, (list, tuple, set, frozenset, dict)))
BIG = 256                                            # items from which a flat container's item types are read first
_traceback_of = BaseException.__dict__["__traceback__"].__get__
_context_of = BaseException.__dict__["__context__"].__get__
_cause_of = BaseException.__dict__["__cause__"].__get__
_group_exceptions = BaseExceptionGroup.__dict__["exceptions"].__get__
_module_dict = types.ModuleType.__dict__["__dict__"].__get__
_frame_code = types.FrameType.__dict__["f_code"].__get__
_function_code = types.FunctionType.__dict__["__code__"].__get__
_type_module = type.__dict__["__module__"].__get__
_starts_with = str.startswith
_OWN = os.path.dirname(os.path.abspath(__file__)) + os.sep
_OWN_PACKAGE = __name__.rpartition(".")[0] + "."
_referents = gc.get_referents
_clear = dict.clear
_dict_values = dict.values


def exception_in_freeing_order(error: BaseException | None) -> list:
    """What `error` keeps alive through tracebacks and chained exceptions: chained exceptions newest
    first, traceback entries outermost first, frames innermost first (a frame that ended while its
    object lived holds its caller, `f_back`), then, when they reach `FEW` objects or more, what the
    program's frames hold (a stop may land while a local holds a long linked list). Drop it with
    `let_go` once `error` is held no more."""
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
    held = {id(item) for item in (*frames, *entries, *exceptions)}
    program_frames = [frame for frame in frames if not _ours(frame, types.FrameType)]
    below = _reached(program_frames, set(held), FEW)
    if len(below) >= FEW:
        below = _reached(program_frames, held, HELD_CAP)
    else:
        below = []
    below.reverse()
    return below + frames + entries + exceptions


def graph_in_freeing_order(roots: list) -> list:
    """`roots` and what they reach, in freeing order."""
    order = list(roots)
    order += _reached(order, set(map(id, order)), HELD_CAP)
    order.reverse()
    return order


def _reached(starts: list, seen: set, cap: int) -> list:
    """What `starts` reach and `seen` (ids) does not hold, depth first (up to `cap` objects). Not
    entered: modules, the namespaces of those in `sys.modules` (they stay), classes (few, and freed in
    few steps) and the recorder's own frames, functions and objects (a program frame's caller is the
    runner's). Untracked containers are (a nest of tuples of atoms is untracked, and still a chain)."""
    kept = {id(_module_dict(module)) for module in list(sys.modules.values())
            if issubclass(type(module), types.ModuleType)}
    order: list = []
    waiting = list(starts)
    waiting.reverse()
    origins = set(map(id, starts))              # expanded, not gathered
    while waiting and len(order) < cap:
        current = waiting.pop()
        if id(current) not in origins:
            order.append(current)
        if id(type(current)) in _FLAT and len(current) >= BIG and _atoms_only(current):
            continue                            # a list of a million numbers: one pass in C, not a million in Python
        found = _referents(current)
        if id(type(current)) not in _LAST_FIRST:
            found.reverse()                     # popped from the end: the first referent first
        for item in found:
            kind = type(item)
            if id(kind) in _ATOMS or id(item) in seen or id(item) in kept:
                continue
            if issubclass(kind, types.ModuleType) or issubclass(kind, type) or _ours(item, kind):
                continue
            seen.add(id(item))
            waiting.append(item)
    return order


def _atoms_only(flat: object) -> bool:
    """Does this exact list, tuple, set, frozenset or dict hold atoms only (its item types read in C)?"""
    kinds = set(map(type, _dict_values(flat))) | set(map(type, flat)) if type(flat) is dict else set(map(type, flat))
    return all(id(kind) in _ATOMS for kind in kinds)


def _ours(found: object, kind: type) -> bool:
    """A frame or function of the recorder's code, or an object of one of its classes."""
    if kind is types.FrameType:
        name = _frame_code(found).co_filename
    elif kind is types.FunctionType:
        name = _function_code(found).co_filename
    else:
        name, prefix = _type_module(kind), _OWN_PACKAGE
        return type(name) is str and _starts_with(name, prefix)
    return type(name) is str and _starts_with(name, _OWN)


def let_go(held: list) -> None:
    """Drop what was gathered, last first."""
    while len(held):
        held.pop()


class _Harvest:
    """Held in the namespaces of the modules a run leaves (`HARVEST_NAME`). The collector finalizes it
    with them, before it clears anything, and its finalizer gathers what they reach into a list held
    from outside: all of it survives that collection, whole, with every finalizer of the program's run
    (as they would have run, in the collection that frees the module)."""

    __slots__ = ("namespaces", "found", "__weakref__")

    def __init__(self, namespaces: list, found: list) -> None:
        self.namespaces = namespaces
        self.found = found

    def __del__(self) -> None:
        try:
            order = list(self.namespaces)
            order += _reached(order, set(map(id, order)), HELD_CAP)
            order.reverse()
            self.found.append((self.namespaces, order))
        except BaseException:  # noqa: BLE001 - nothing may be printed from here into the run's output
            pass


def let_run_go(namespace: dict, modules: list, collect: Callable[[], object] = gc.collect) -> None:
    """Free what a run leaves: the namespace its setup ran in (cleared) and the modules it loaded
    (`modules` is emptied: the caller must hold none of them); with `FEW` objects or more between them,
    one object at a time (`let_modules_go`). `collect` runs a collection that reaches the run's objects
    (`isolation.CleanRun.collect`: the young generations when that is enough)."""
    namespaces = [_module_dict(module) for module in modules if issubclass(type(module), types.ModuleType)]
    roots = [namespace, *namespaces]
    if len(_reached(roots, set(map(id, roots)), FEW)) < FEW:
        del roots, namespaces
        modules.clear()
        _clear(namespace)
        collect()
        return
    del roots, namespaces
    held = graph_in_freeing_order([namespace])
    _clear(namespace)
    let_go(held)
    let_modules_go(modules, collect)


def let_modules_go(modules: list, collect: Callable[[], object] = gc.collect) -> None:
    """Free the modules a run leaves (`modules` is emptied: the caller must hold none of them).

    A module's namespace is in a cycle with its functions, so only the collector frees it, and
    clearing it frees at once whatever hangs from it. So, when they reach `FEW` objects or more: one
    collection finalizes it all and `_Harvest` keeps it; then, every finalizer having run, the
    namespaces are cleared and the rest let go one object at a time; a last collection frees what is
    left (classes, functions). A finalizer that lists its module's globals meanwhile sees one name more
    (`HARVEST_NAME`); a name, so that sorting them still works. An object a finalizer makes during that
    collection and stores in its module is finalized later, with the namespace cleared."""
    found: list = []
    namespaces = [_module_dict(module) for module in modules if issubclass(type(module), types.ModuleType)]
    modules.clear()
    if len(_reached(namespaces, set(map(id, namespaces)), FEW)) < FEW:
        del namespaces
        collect()
        return
    harvest = _Harvest(namespaces, found)
    for namespace in namespaces:
        namespace[HARVEST_NAME] = harvest
    planted = weakref.ref(harvest)
    del harvest, namespace, namespaces
    collect()
    harvest = planted()
    if harvest is not None:                     # something still holds a namespace: as before, no harvest
        namespaces, harvest.namespaces, harvest.found = harvest.namespaces, [], []   # its finalizer: a no-op
        for namespace in namespaces:
            if namespace.get(HARVEST_NAME) is harvest:
                del namespace[HARVEST_NAME]
        del harvest, namespace, namespaces
    while found:
        namespaces, order = found.pop()
        for namespace in namespaces:
            _clear(namespace)
        del namespace, namespaces
        let_go(order)
    collect()
