"""Which lines of a code object can change no object: the recorder's calm steps.

Looking at every local at every line costs what the locals show: a 360-road map held by `self` would be
walked again at each line of a loop that only reads it. After a *calm* line, an object that a local
still holds (the same id) is known unchanged without a walk (`Recorder._look`); names are still
compared at every look, so a calm line may bind, rebind and unbind them.

A line is calm when none of its instructions can write an object without running Python code, and
Python code that runs is always seen: every frame, of the shown file or not, reaches the recorder (the
settrace global function; sys.monitoring's PY_START and PY_RESUME, left on for all code), so do
collections (finalizers) and exceptions, and each makes the next look walk everything again. Code that
would run unseen makes no step calm (`Recorder._quiet`): another thread, a profile or trace function, a
sys.monitoring tool or a timer's signal handler of the program's; so does meeting C code where Python
code is expected (`previews.TypeInfo.breaks_calm`: a class whose `__eq__` is `log.append`, a weak
reference, whose callback may be one). Before 3.13 a finalizer run by the recorder's own read of
`f_locals` is unseen: a calm look that finds a name let go of looks again (`Recorder._look`). What is
left to this table is the interpreter's own C code:

* CALM instructions load, store and delete names, build new values, compare, do arithmetic, jump: on
  values of the interpreter's own types they run no code and write nothing a local holds; on a
  program's class they call its dunder methods, which are Python code (seen).
* READS are calm too, unless the run has met a value whose reading writes (`Previewer.breaks_calm`): a
  `defaultdict` (`d[k]` and `"%(k)s" % d` insert through a C factory such as `str`) or an iterator that
  calls something at each step (`iter(stack.pop, None)`, `map(seen.add, xs)`).
* A `for` whose iterable only calls `range`, `len`, `enumerate`, `zip` or `reversed` (`Loop`) READS, when
  the recorder sees those names are the builtins as the line starts afresh (`Recorder.line`).
* An in-place operator (`x += y`) is calm only when the name it rebinds held an exact scalar (int,
  float, str...) as the line began: a list's `+=` extends it in place.
* Everything else changes: calls (a C function can write anything), attribute and subscript stores and
  deletes, stores of globals, of names in a namespace or a cell (another frame shows them), imports,
  `with`, `await`, `~` (it warns on a bool), any instruction not listed. So does a line that stores one
  name twice (its first value may die, and a new object take its address), and every line of a code
  object whose instructions outside any line (clean-ups) change something. Under `python -b` no line
  is calm (comparing bytes with str warns, and a warning can write the warnings registry).

Decoded from `co_code` (the unspecialized bytecode) without `dis`: this runs inside the program, which
may have rebound the builtins `dis` relies on.
"""
from __future__ import annotations

import opcode
import sys

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    all,
    bool,
    dict,
    enumerate,
    frozenset,
    isinstance,
    len,
    max,
    range,
    set,
    sorted,
    tuple,
)
from types import CodeType

CALM, READS, CHANGES = 0, 1, 2      # what a line may do, least first (`effects`)

_CALM_OPS = frozenset({
    "NOP", "RESUME", "NOT_TAKEN", "CACHE", "EXTENDED_ARG", "POP_TOP", "PUSH_NULL", "COPY", "SWAP", "END_FOR",
    "POP_ITER", "END_SEND", "LOAD_CONST", "LOAD_SMALL_INT", "LOAD_CONST_IMMORTAL", "LOAD_CONST_MORTAL",
    "RETURN_VALUE", "RETURN_CONST", "YIELD_VALUE", "RETURN_GENERATOR", "JUMP_FORWARD", "JUMP_BACKWARD",
    "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE",
    "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE", "POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_FORWARD_IF_FALSE",
    "POP_JUMP_FORWARD_IF_NONE", "POP_JUMP_FORWARD_IF_NOT_NONE", "POP_JUMP_BACKWARD_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE",
    "JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP", "COMPARE_OP", "IS_OP", "UNARY_NEGATIVE", "UNARY_NOT",
    "TO_BOOL", "BINARY_SLICE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "FORMAT_VALUE", "CONVERT_VALUE",
    "BUILD_STRING", "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP", "BUILD_SLICE",
    "BUILD_TEMPLATE", "BUILD_INTERPOLATION", "LIST_APPEND", "SET_ADD", "MAP_ADD", "LIST_TO_TUPLE",
    "MAKE_CELL", "COPY_FREE_VARS", "LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_AND_CLEAR", "LOAD_FAST_BORROW",
    "LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "STORE_FAST", "STORE_FAST_LOAD_FAST",
    "STORE_FAST_STORE_FAST", "DELETE_FAST", "LOAD_DEREF", "LOAD_CLOSURE", "LOAD_GLOBAL",
    "LOAD_LOCALS", "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_FROM_DICT_OR_DEREF", "LOAD_ATTR", "LOAD_METHOD",
    "LOAD_SUPER_ATTR", "MAKE_FUNCTION", "SET_FUNCTION_ATTRIBUTE", "LOAD_BUILD_CLASS", "LOAD_ASSERTION_ERROR",
    "LOAD_COMMON_CONSTANT", "GET_ITER", "GET_LEN", "MATCH_MAPPING", "MATCH_SEQUENCE", "MATCH_KEYS",
    "MATCH_CLASS", "RAISE_VARARGS", "PUSH_EXC_INFO", "POP_EXCEPT", "CHECK_EXC_MATCH", "RERAISE",
})
# Calm unless the run met a value whose reading writes (a defaultdict, an iterator calling C code).
_READ_OPS = frozenset({"FOR_ITER", "UNPACK_SEQUENCE", "UNPACK_EX", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE",
                       "DICT_MERGE", "CONTAINS_OP", "BINARY_SUBSCR"})
_STORES = frozenset({"STORE_FAST", "DELETE_FAST", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST"})
_OPNAMES = tuple(opcode.opname)
_EXTENDED_ARG = opcode.opmap["EXTENDED_ARG"]
_HAVE_ARGUMENT = opcode.HAVE_ARGUMENT
_CACHES = opcode._inline_cache_entries  # a list by opcode (3.11, 3.12) or a dict by name (3.13+)
_NB_SYMBOLS = tuple(symbol for _, symbol in opcode._nb_ops)     # BINARY_OP's argument -> its operator
BYTES_WARNING = bool(sys.flags.bytes_warning)
# CALL_INTRINSIC_1's that only make a value (or an exception, on its way: 3.12+ wraps a generator's
# StopIteration so in code outside any line, which would otherwise make no line of a generator calm).
_CALM_INTRINSICS = frozenset(number for number, name in enumerate(getattr(opcode, "_intrinsic_1_descs", ()))
                             if name in ("INTRINSIC_STOPITERATION_ERROR", "INTRINSIC_ASYNC_GEN_WRAP",
                                         "INTRINSIC_UNARY_POSITIVE", "INTRINSIC_LIST_TO_TUPLE"))


def _caches(op: int, name: str) -> int:
    return _CACHES.get(name, 0) if isinstance(_CACHES, dict) else _CACHES[op]


def decoded(code: CodeType) -> list[tuple[int, str, int]]:
    """(offset, opname, argument with EXTENDED_ARG folded in) of each instruction of `co_code`."""
    raw = code.co_code
    out = []
    offset, extended, size = 0, 0, len(raw)
    while offset < size:
        op, arg = raw[offset], raw[offset + 1] | extended
        name = _OPNAMES[op]
        here = offset
        offset += 2 + 2 * _caches(op, name)
        if op == _EXTENDED_ARG:
            extended = arg << 8
            continue
        extended = 0
        out.append((here, name, arg if op >= _HAVE_ARGUMENT else 0))
    return out


def _lines(code: CodeType) -> dict[int, int | None]:
    lines: dict[int, int | None] = {}
    for start, end, number in code.co_lines():
        for offset in range(start, end, 2):
            lines[offset] = number
    return lines


def _effect(name: str, arg: int) -> int:
    if name in _CALM_OPS:
        return CALM
    if name in _READ_OPS:
        return READS
    if name == "CALL_INTRINSIC_1":
        return CALM if arg in _CALM_INTRINSICS else CHANGES
    if name == "BINARY_OP":
        symbol = _NB_SYMBOLS[arg] if arg < len(_NB_SYMBOLS) else "?"
        if symbol == "[]" or symbol == "%":     # 3.14's subscript; `text % mapping` looks keys up
            return READS
        return CHANGES if symbol.endswith("=") else CALM
    return CHANGES


def effects(code: CodeType) -> dict[int, tuple[int, tuple[str, ...], tuple | None]]:
    """Line -> (CALM, READS or CHANGES, the names an in-place operator there rebinds, which must hold exact
    scalars as the line begins for it to be calm, and for a `for` over builtins' iterators its `Loop`
    or None). A line not in the table changes (see the module's doc)."""
    if BYTES_WARNING:
        return {}
    line_of = _lines(code)
    found: dict[int, list] = {}          # line -> [effect, in-place names, stores by variable, positions that
    outside = CALM                       # change, a `Loop`]; the worst effect of instructions outside any line
    instructions = decoded(code)
    for position, (offset, name, arg) in enumerate(instructions):
        effect = _effect(name, arg)
        line = line_of.get(offset)
        if line is None:
            outside = max(outside, effect)
            continue
        entry = found.setdefault(line, [CALM, [], [], [], None])
        if name == "BINARY_OP" and effect == CHANGES:
            target = _inplace_target(code, instructions, position)
            if target is not None:
                entry[1].append(target)
                effect = CALM
        if name in _STORES:
            entry[2].extend(_stored(name, arg))
        if name == "FOR_ITER":
            loop = _builtin_loop(code, instructions, position, line_of)
            if loop is not None and entry[4] is None:
                entry[4] = loop
            elif _iterator_made_by_a_call(instructions, position):
                effect = CHANGES
        if effect == CHANGES:
            entry[3].append(position)
        entry[0] = max(entry[0], effect)
    if outside == CHANGES:
        return {}
    table = {}
    for line, (effect, inplace, stores, changing, loop) in found.items():
        if loop is not None and effect == CHANGES and all(loop.first <= at < loop.position for at in changing):
            effect = READS       # when its builtins are the real ones (`Recorder.line`), else CHANGES
        else:
            loop = None
        if len(set(stores)) != len(stores):
            effect, loop = CHANGES, None
        table[line] = (max(effect, outside), tuple(inplace), loop if outside == CALM else None)
    return table


class Loop:
    """A `for` whose iterable is made by calls of builtins only (`for i in range(len(xs))`, `enumerate(zip(a,
    b))`), all on its line: their iterators read and write nothing of the program's (what they call of the
    program's is Python code, seen). Its line is READS, not CHANGES, once the recorder has seen that the names
    called are the builtins (not rebound), as the line starts afresh; at `offset` (its FOR_ITER, reached by
    the loop's jump back) it only steps the iterator made then."""

    __slots__ = ("offset", "names", "first", "position")

    def __init__(self, offset: int, names: tuple[str, ...], first: int, position: int) -> None:
        self.offset, self.names, self.first, self.position = offset, names, first, position


# Builtins whose calls, on the interpreter's own types, write nothing and make iterators that write nothing
# (on a program's class they call its dunders: Python code, seen).
ITERATOR_MAKERS = frozenset({"range", "len", "enumerate", "zip", "reversed"})
_CALL_OPS = frozenset({"PRECALL", "CALL"})
_METHOD_LOADS = sys.version_info >= (3, 12)     # LOAD_ATTR's low bit: a method load (3.11 has LOAD_METHOD)


def _builtin_loop(code: CodeType, instructions: list, position: int, line_of: dict) -> Loop | None:
    """The `Loop` of the FOR_ITER at `position` when every call in its iterable expression (back to the
    statement before) calls a global named in ITERATOR_MAKERS and the whole expression is on its line."""
    line = line_of.get(instructions[position][0])
    called: list[str] = []
    calls = 0
    first = 0
    for index in range(position - 1, -1, -1):
        offset, name, arg = instructions[index]
        if name in _STATEMENT_ENDS:
            first = index + 1
            break
        if line_of.get(offset) != line:
            return None
        if name in _CALL_OPS:
            calls += name == "CALL"
        elif name == "LOAD_GLOBAL" and arg & 1:          # a callee (it pushes NULL)
            called.append(code.co_names[arg >> 1])
        elif name in ("PUSH_NULL", "LOAD_METHOD", "KW_NAMES", "CALL_KW") or \
                name == "LOAD_ATTR" and _METHOD_LOADS and arg & 1 or _effect(name, arg) == CHANGES:
            return None
    if not calls or calls != len(called) or not ITERATOR_MAKERS.issuperset(called):
        return None
    return Loop(instructions[position][0], tuple(sorted(set(called))), first, position)


_STATEMENT_ENDS = frozenset({"STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF", "STORE_ATTR", "STORE_SUBSCR",
                             "POP_TOP", "RESUME", "NOP", "END_FOR", "POP_ITER", "RETURN_VALUE", "RETURN_CONST",
                             "JUMP_FORWARD", "JUMP_BACKWARD", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE",
                             "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE", "POP_EXCEPT", "STORE_FAST_STORE_FAST"})


def _iterator_made_by_a_call(instructions: list, position: int) -> bool:
    """Does the expression a `for` iterates (the instructions before its GET_ITER, back to the statement
    before) change anything? Its iterator may then be one that calls at each step (`iter(stack.pop,
    None)` written on a line of its own below the `for`), which no preview has met."""
    for index in range(position - 1, -1, -1):
        _, name, arg = instructions[index]
        if name in _STATEMENT_ENDS:
            return False
        if _effect(name, arg) == CHANGES:
            return True
    return False


def _inplace_target(code: CodeType, instructions: list, position: int) -> str | None:
    """The local an in-place operator's result goes to (`x += y`: STORE_FAST x next), else None."""
    if position + 1 >= len(instructions):
        return None
    _, name, arg = instructions[position + 1]
    if name == "STORE_FAST":
        return code._varname_from_oparg(arg)
    if name == "STORE_FAST_LOAD_FAST":
        return code._varname_from_oparg(arg >> 4)
    return None


def _stored(name: str, arg: int) -> list[int]:
    """The variable numbers a store or delete instruction writes."""
    if name == "STORE_FAST_STORE_FAST":
        return [arg >> 4, arg & 15]
    if name == "STORE_FAST_LOAD_FAST":
        return [arg >> 4]
    return [arg]

