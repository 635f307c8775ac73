"""Which `for` lines only take the next item, for the recorder's cheap steps in loops.

When a `for` loop comes back to its line, the line runs FOR_ITER and stores the item in the loop's
names, nothing else. If the iterator is one of the interpreter's own over data that runs no code of
the program's (a range, a list, a dict's keys/values/items, the words of a str, enumerate of those),
taking an item changes only the loop's names, exactly as a pure line does (`line_effects`). One more
thing can happen there: `enumerate` and `dict.items()` reuse their item tuple, dropping the previous
item's values — harmless while the loop's names still hold them (scalars, as the recorder checks),
so such a loop is not understood when its names are stored anywhere else in the function. Which
iterator a loop has is fixed when the loop starts: the line's first run evaluates the iterable, and
the recorder checks there, with the values it just looked at, that the expression makes one of
those iterators (`Loop.pure_start`). A later run of the line that starts at FOR_ITER (the frame's
`f_lasti`) is the loop coming back, and then only the names it stores are looked at again — provided
the next line is the loop's body (the iterator was not finished and dropped) and the rest of the
cheap-step rule holds (no other frame ran, no collection, no other thread, every overwritten value
a scalar: the recorder checks those as for a pure line).

From 3.12 a list, set or dict comprehension runs inline in its function's frame, and each of its
iterations is a step (the line is reported again at the jump back to FOR_ITER). Such a step is cheap too
when the whole comprehension can run no program code: its expressions pure, its iterator one of those,
every item it will take an exact scalar and the names it reads holding scalars when its line begins
(`_comprehension`, `Loop.scalar_items`; the recorder judges the rest at that first event).

`loops(code)` gives, per line, a `Loop` for the `for` lines and comprehensions this module understands.
"""
from __future__ import annotations

import opcode

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    all,
    any,
    bytes,
    dict,
    enumerate,
    frozenset,
    id,
    len,
    list,
    map,
    next,
    range,
    set,
    str,
    tuple,
    type,
)
from types import CodeType

from .line_effects import BYTES_WARNING, effect_of
from .line_effects import decoded as decode
from .previews import EXACT_SCALARS

# The builtins imported above are captured at import: a lesson may rebind them.
_stack_effect = opcode.stack_effect

FAST_LOADS = frozenset({"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW"})
FAST_STORES = frozenset({"STORE_FAST"})
PAIR_STORE = "STORE_FAST_STORE_FAST"
# Run only when the loop ends (the iterator is dropped): the next line then is not the body.
AT_EXIT = frozenset({"END_FOR", "POP_ITER", "POP_TOP"})
FILLER = frozenset({"NOP", "NOT_TAKEN", "CACHE", "EXTENDED_ARG"})
CONSTS = frozenset({"LOAD_CONST", "LOAD_SMALL_INT", "LOAD_CONST_IMMORTAL", "LOAD_CONST_MORTAL"})
CALLS = frozenset({"CALL", "PRECALL", "KW_NAMES"})
METHOD_LOADS = frozenset({"LOAD_METHOD", "LOAD_ATTR"})

# Exact types whose iterator reads the data in C, calling nothing of the program's.
ITERABLES = frozenset(map(id, (list, tuple, str, bytes, range, dict, set, frozenset)))
# name.method(<constants>) that returns such data: (id of the type of name, method).
METHODS = frozenset({(id(dict), "items"), (id(dict), "keys"), (id(dict), "values"), (id(str), "split"),
                     (id(str), "splitlines")})
# Instructions that store, delete or clear one fast local named by their argument.
_FAST_WRITES = frozenset({"STORE_FAST", "DELETE_FAST", "LOAD_FAST_AND_CLEAR"})
_STR_ONLY = frozenset({id(str)})
_BUILTINS = {"range": range, "enumerate": enumerate}


class Loop:
    """One `for` line or inlined comprehension: where FOR_ITER is, the body's first line (0 for a
    comprehension), the names an item is stored in, and what the iterable expression is (`kind`, with
    the global or local it names)."""

    __slots__ = ("line", "offset", "body", "plan", "kind", "callable", "name", "method", "unpacks", "jumps", "start")

    def __init__(self, line: int, offset: int, body: int, targets: frozenset[str], unpacks: bool) -> None:
        self.line, self.offset, self.body = line, offset, body
        self.plan = (targets, tuple(targets), frozenset())  # as a pure line's (read or written, written, read)
        self.unpacks = unpacks
        # An inlined comprehension's: the offsets of its jumps back to FOR_ITER, where each of its
        # iterations ends with an event (`_comprehension`); empty for a `for` statement.
        self.jumps: frozenset[int] = frozenset()
        # A comprehension's: as a pure line's plan, the names that must hold exact scalars (or, written
        # only, nothing) when its line begins, so that its first iteration runs no program code either.
        self.start: tuple[frozenset[str], tuple, frozenset[str]] = (frozenset(), (), frozenset())
        self.kind = ""                        # "name" | "method" | "call"
        self.callable = None                  # "range" | "enumerate" for a call
        self.name = None                      # the local read (the iterable, or the call's argument)
        self.method = None

    def pure_start(self, frame, seen: dict) -> bool:
        """Will this run of the line (its first: it evaluates the iterable) make an iterator that
        runs no program code? `seen`: the recorder's view of the frame's locals right now."""
        if self.kind == "call":
            f_globals, f_builtins = frame.f_globals, frame.f_builtins
            # Only str keys: a lookup could otherwise call a key's __eq__ (iterating calls nothing).
            if type(f_globals) is not dict or type(f_builtins) is not dict \
                    or not set(map(id, map(type, f_globals))) <= _STR_ONLY \
                    or not set(map(id, map(type, f_builtins))) <= _STR_ONLY:
                return False
            if self.callable in f_globals or f_builtins.get(self.callable) is not _BUILTINS[self.callable]:
                return False
            if self.name is None:               # range(...): whatever its arguments, a range iterator
                return True
        kind = _type_id(seen.get(self.name))
        if self.kind == "method":
            return (kind, self.method) in METHODS
        return kind in ITERABLES

    def scalar_items(self, iterable: object) -> bool:
        """A comprehension's (after `pure_start`): is every item its iterator will give an exact scalar?
        Then none of its iterations can run a dunder of the program's, whatever its expressions do with
        the items, and nothing of the program's gets into the result it builds (whose keys are hashed and
        compared as items are added). Its expressions cannot change the iterable (they are pure), so this
        holds for the whole comprehension unless a collection runs a finalizer (the recorder's
        `collections`).
        `iterable`: the value of the local the iterable names (the receiver of a method); None for range."""
        if self.callable == "range" or self.method in ("split", "splitlines"):
            return True
        kind = type(iterable)
        if kind is str or kind is bytes or kind is range:
            return True
        if len(iterable) > SCAN_CAP:        # `len` of an exact builtin container: its own C slot
            return False
        if kind is dict:
            if self.method == "items":
                return _scalars(dict.keys(iterable)) and _scalars(dict.values(iterable))
            return _scalars(dict.values(iterable) if self.method == "values" else dict.keys(iterable))
        return (kind is list or kind is tuple or kind is set or kind is frozenset) and _scalars(iterable)


# Items a comprehension's judgement looks at, at most: a pass over them cannot be interrupted, and a
# comprehension may stop at its first item (an exception) each time its line runs.
SCAN_CAP = 100_000


def _scalars(items: object) -> bool:
    """Are all `items` (of a builtin container, iterated in C) exact scalars? Types are compared by id:
    no metaclass hook runs."""
    return all(map(EXACT_SCALARS.__contains__, map(id, map(type, items))))


def _type_id(known: tuple | None) -> int | None:
    """The id of the exact type of a value the recorder has seen (None: unbound)."""
    if known is None:
        return None
    signature = known[1]
    return id(type(known[0])) if signature is None else signature.kind


def loops(code: CodeType) -> dict[int, Loop]:
    """line -> Loop, for each `for` line or inlined comprehension whose iterable this module can judge."""
    decoded = decode(code)
    found: dict[int, Loop] = {}
    for position, (_offset, line, name, _arg, _next) in enumerate(decoded):
        if name == "FOR_ITER" and line is not None:
            loop = _loop(code, decoded, position) or _comprehension(code, decoded, position)
            if loop is not None:
                found[line] = loop
    return found


def _opening(decoded: list, at: int) -> tuple[list, list, list] | None:
    """(the line's instructions, the iterable's, those between GET_ITER and FOR_ITER) for the line of
    the FOR_ITER at position `at`, when it is the line's only loop and the line starts with the iterable
    (so a run of it that starts elsewhere is the loop coming back)."""
    line = decoded[at][1]
    on_line = [ins for ins in decoded if ins[1] == line]
    names = [ins[2] for ins in on_line if ins[2] not in FILLER]
    if names.count("FOR_ITER") != 1 or names.count("GET_ITER") != 1:
        return None
    get_iter = next(i for i, ins in enumerate(decoded) if ins[2] == "GET_ITER" and ins[1] == line)
    prefix = [ins for ins in decoded[:get_iter] if ins[1] == line and ins[2] not in FILLER]
    if not prefix or prefix[0] is not next(ins for ins in on_line if ins[2] not in FILLER):
        return None
    return on_line, prefix, [ins for ins in decoded[get_iter + 1:at] if ins[2] not in FILLER]


def _back_target(ins: tuple) -> int:
    """Where a JUMP_BACKWARD instruction (as `decoded` gives it) lands."""
    return ins[4] - 2 * ins[3]


def _loop(code: CodeType, decoded: list, at: int) -> Loop | None:
    offset, line = decoded[at][0], decoded[at][1]
    opening = _opening(decoded, at)
    if opening is None or opening[2]:
        return None
    on_line, prefix = opening[0], opening[1]
    # The item's stores, then the body's first line.
    targets: list[str] = []
    unpacks, expected = False, 1
    position = at + 1
    while position < len(decoded) and decoded[position][1] == line:
        ins = decoded[position]
        if ins[2] == "UNPACK_SEQUENCE" and not targets and not unpacks:
            unpacks, expected = True, ins[3]
        elif ins[2] in FAST_STORES:
            targets.append(code._varname_from_oparg(ins[3]))
        elif ins[2] == PAIR_STORE:
            targets += [code._varname_from_oparg(ins[3] >> 4), code._varname_from_oparg(ins[3] & 15)]
        elif ins[2] not in FILLER:
            return None
        position += 1
    if len(targets) != expected or position >= len(decoded) or decoded[position][1] is None:
        return None
    body = decoded[position][1]
    if body == line or not _body_only(decoded, position, offset, body):
        return None
    # Nothing else on the line but what runs when the loop ends: dropping the iterator, and a jump
    # back to an outer loop (the compiler gives an outer loop's jump to the inner `for` line).
    line_of = {ins[0]: ins[1] for ins in decoded}
    rest = [ins for ins in on_line if ins[0] > decoded[position - 1][0] and ins[2] not in FILLER]
    if any(ins[2] not in AT_EXIT and not _jumps_back_elsewhere(ins, line_of, body) for ins in rest):
        return None
    loop = Loop(line, offset, body, frozenset(targets), unpacks)
    if not _iterable(code, prefix, loop):
        return None
    reuses = loop.callable == "enumerate" or loop.method == "items"     # the item tuple is reused
    if reuses and _written_elsewhere(code, decoded, at, loop.plan[0]):
        return None
    return loop


# What an inlined comprehension (3.12+) runs between its iterable and its FOR_ITER: its names cleared
# (their values kept on the stack, put back when it ends) and its empty result made.
RESULT_BUILDS = frozenset({"BUILD_LIST", "BUILD_SET", "BUILD_MAP"})
PREAMBLE = frozenset({"LOAD_FAST_AND_CLEAR", "SWAP"}) | RESULT_BUILDS
# Adding an item to that result, which only the stack holds: no program code runs when the items, and so
# every key already in the result (hashed and compared), are made of exact scalars (`Loop.scalar_items`).
ADDS = frozenset({"LIST_APPEND", "SET_ADD", "MAP_ADD"})


def _comprehension(code: CodeType, decoded: list, at: int) -> Loop | None:
    """A list, set or dict comprehension that runs inline in its function's frame (3.12+), whole on one
    line that starts with its iterable. Each of its iterations ends on a jump back to its FOR_ITER, where
    the interpreter reports the line again: from one such event to the next, the frame took an item,
    stored it in the comprehension's names, and ran the element and condition expressions. When those
    are pure (`line_effects`: on exact scalars, only the interpreter's own C code runs), the iterator is
    the interpreter's own, every item it will give is an exact scalar (`Loop.scalar_items`) and the
    names it reads hold scalars (`Loop.start`; both judged at the line's first event), only the
    comprehension's names (and walrus targets) can have changed, so an iteration is a cheap step like a
    pure line. Its first iteration (from the line's first event, which makes the iterator) and its end
    (putting the names back, up to the next line) are full looks: no jump event comes before the one,
    the other ends elsewhere."""
    if BYTES_WARNING:
        return None
    offset, line = decoded[at][0], decoded[at][1]
    opening = _opening(decoded, at)
    if opening is None:
        return None
    _on_line, prefix, preamble = opening
    builds = [ins for ins in preamble if ins[2] in RESULT_BUILDS]
    if any(ins[2] not in PREAMBLE or ins[1] != line for ins in preamble) or len(builds) != 1 or builds[0][3]:
        return None
    jumps = [position for position, ins in enumerate(decoded)
             if ins[2].startswith("JUMP_BACKWARD") and _back_target(ins) == offset]
    if not jumps or jumps[0] <= at:
        return None
    body = decoded[at + 1:jumps[-1] + 1]
    found = _iteration_effects(code, body, line, offset)
    if found is None:
        return None
    targets, reads = found
    items = _item_names(code, body)
    # No line's event means it took an item (body 0): its own line does, at one of its jumps back.
    loop = Loop(line, offset, 0, frozenset(targets), body[0][2] == "UNPACK_SEQUENCE")
    loop.plan = (frozenset(targets) | reads, tuple(targets), frozenset(reads))
    loop.jumps = frozenset(decoded[position][0] for position in jumps)
    if not _iterable(code, prefix, loop):
        return None
    # The item's names keep their values on the stack while it runs (LOAD_FAST_AND_CLEAR): what they
    # held is not dropped, and what its expressions read them as is an item.
    checked = reads.difference(items)
    if loop.callable == "range":
        # Its arguments run after the judgement, before the item's names are cleared (`range(j)` reads
        # the `j` from before): only pure instructions on names that hold scalars.
        for ins in prefix[1:-1]:
            effect = effect_of(code, ins[2], ins[3], True)
            if effect is None or effect[1]:
                return None
            checked.update(effect[0])
    loop.start = (frozenset(checked | set(targets).difference(items)), (), frozenset(checked))
    return loop


def _iteration_effects(code: CodeType, body: list, line: int, for_iter: int) -> tuple[list, set] | None:
    """(names written, names read) by one iteration of an inlined comprehension (`body`: from after its
    FOR_ITER to its last jump back), when every instruction of it is on its line, pure or adds to its
    result, and no jump leaves it; else None."""
    targets: list[str] = []
    reads: set[str] = set()
    last = body[-1][0]
    for position, (_offset, on, name, arg, after) in enumerate(body):
        if on != line:
            return None
        if name.startswith("JUMP_BACKWARD"):
            if _back_target(body[position]) != for_iter:
                return None             # a loop inside the expressions
        elif "JUMP" in name and not for_iter < after + 2 * arg <= last:
            return None                 # a jump out of the iteration
        if name in ADDS:
            continue
        effect = effect_of(code, name, arg, position > 0)
        if effect is None:
            return None
        reads.update(effect[0])
        targets += [written for written in effect[1] if written not in targets]
    return (targets, reads) if targets else None


def _item_names(code: CodeType, body: list) -> set[str]:
    """The names an inlined comprehension stores its item in: the stores (and unpacks) that open its
    iteration, before its expressions."""
    names: set[str] = set()
    for _offset, _line, name, arg, _next in body:
        if name == "UNPACK_SEQUENCE" or name in FILLER:
            continue
        effect = effect_of(code, name, arg, True)
        if effect is None or not effect[1]:
            break
        names.update(effect[1])
        if effect[0]:                   # STORE_FAST_LOAD_FAST: the expressions begin
            break
    return names


def _written_elsewhere(code: CodeType, decoded: list, at: int, targets: frozenset[str]) -> bool:
    """Is any of the loop's names stored, deleted or cleared anywhere in the function but by the loop's
    own stores (the instructions of its line right after its FOR_ITER, at position `at`)?"""
    line, own = decoded[at][1], set()
    for position in range(at + 1, len(decoded)):
        if decoded[position][1] != line:
            break
        own.add(position)
    for position, (_offset, _line, name, arg, _next) in enumerate(decoded):
        if position in own:
            continue
        if name in _FAST_WRITES:
            written = (code._varname_from_oparg(arg),)
        elif name == "STORE_FAST_STORE_FAST":
            written = (code._varname_from_oparg(arg >> 4), code._varname_from_oparg(arg & 15))
        elif name == "STORE_FAST_LOAD_FAST":
            written = (code._varname_from_oparg(arg >> 4),)
        else:
            continue
        if targets.intersection(written):
            return True
    return False


def _jumps_back_elsewhere(ins: tuple, line_of: dict, body: int) -> bool:
    """A backward jump that lands on another line than the body's first: the interpreter reports that
    line before the body could run again, so a step after it is never taken for one of this loop's."""
    if not ins[2].startswith("JUMP_BACKWARD"):
        return False
    target = _back_target(ins)
    return line_of.get(target) is not None and line_of[target] != body


def _body_only(decoded: list, start: int, for_iter: int, body: int) -> bool:
    """Is every instruction of the body's first line inside the loop (between the stores and the last
    jump back to FOR_ITER)? Then reaching that line means the loop took an item; an epilogue the
    compiler gave the same line (an implicit `return None`) would not."""
    end = -1
    for position in range(start, len(decoded)):
        ins = decoded[position]
        if ins[2].startswith("JUMP_BACKWARD") and _back_target(ins) == for_iter:
            end = position
    if end < 0:
        return False
    return all(start <= position <= end for position, ins in enumerate(decoded) if ins[1] == body)


def _iterable(code: CodeType, prefix: list, loop: Loop) -> bool:
    """Fill in what the iterable expression is; False when it is none of the understood forms."""
    names = [ins[2] for ins in prefix]
    first = prefix[0]
    if len(prefix) == 1 and first[2] in FAST_LOADS:
        loop.kind, loop.name = "name", code._varname_from_oparg(first[3])
        return not loop.unpacks
    if first[2] in FAST_LOADS and len(prefix) >= 3 and names[1] in METHOD_LOADS \
            and all(name in CONSTS for name in names[2:] if name not in CALLS) and names[-1] == "CALL":
        loop.kind, loop.name = "method", code._varname_from_oparg(first[3])
        loop.method = code.co_names[prefix[1][3] >> (1 if names[1] == "LOAD_ATTR" else 0)]
        return (not loop.unpacks or loop.method == "items") and _one_call(prefix[1:], depth=1)
    if first[2] == "LOAD_GLOBAL" and names[-1] == "CALL":
        callable_name = code.co_names[first[3] >> 1]
        if callable_name == "range" and not loop.unpacks and _one_call(prefix):
            loop.kind, loop.callable = "call", "range"
            return True
        args = [ins for ins in prefix[1:] if ins[2] not in CALLS]
        if callable_name == "enumerate" and args and args[0][2] in FAST_LOADS \
                and all(ins[2] in CONSTS for ins in args[1:]) and len(args) <= 2:
            loop.kind, loop.callable = "call", "enumerate"
            loop.name = code._varname_from_oparg(args[0][3])
            return _one_call(prefix)
    return False


def _one_call(prefix: list, depth: int = 0) -> bool:
    """Is the whole prefix one call of what its first instruction(s) load, made by its last
    instruction (not `range(3).copy()`, nor a jump inside)? The stack never drops back to a single
    value before the end. `depth`: values on the stack before the prefix (a method's receiver)."""
    for position, (_offset, _line, name, arg, _next) in enumerate(prefix):
        if "JUMP" in name or name in ("SEND", "YIELD_VALUE", "FOR_ITER"):
            return False
        depth += _stack_effect(opcode.opmap[name], arg) if arg is not None else _stack_effect(opcode.opmap[name])
        last = position == len(prefix) - 1
        if (depth == 1) != last or depth < 1:
            return False
    return True
