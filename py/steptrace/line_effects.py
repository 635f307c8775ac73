"""Which names a line can change, read from the code object, for the recorder's cheap steps.

Looking at every local at every line is what makes recording expensive. After a line made only of
*pure* instructions (loads, stores, constants, jumps, arithmetic and comparisons) whose named
operands all held exact scalars (int, float, complex, str, bytes, bool, None) when the line began,
only the names the line stores or deletes can have changed: such instructions run no Python code (no
dunder of a user class, no finalizer: a scalar has none) and mutate no object. So do calls of the
text methods in `PURE_METHODS` (`word.strip(".,").lower()`): on such a line every value is a scalar,
a constant, or made of them by pure instructions and these methods (a list of str from `split`), and
a method of a builtin type cannot be replaced; the callable can only be one of those methods, or not
callable at all (a TypeError, which the recorder sees as an event of its own). A line that loads any
other attribute, or a global, is not pure, nor is a method call whose receiver a line above made (the
call sits on the attribute's line), nor `~` (it warns on a bool). A name the line only writes may also
have been unbound (overwriting nothing drops nothing), unless it is a global. The recorder checks
the rest of the rule at run time: the frame's previous event came just before (no other frame ran),
no garbage collection ran (finalizers), no other thread exists, no trace or profile function of the
program's is set. Everything else — a call, a subscript store, an import, an unknown instruction —
means: look at every local.

`plans(code)` gives, per line, `(reads, writes)` for a pure line, or None.
"""
from __future__ import annotations

import opcode
import sys
from bisect import bisect_left

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    ValueError,
    dict,
    frozenset,
    isinstance,
    len,
    range,
    set,
    tuple,
)
from types import CodeType

READS = frozenset({"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_DEREF", "LOAD_NAME"})
PAIR_READS = frozenset({"LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW"})
WRITES = frozenset({"STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL", "DELETE_FAST", "DELETE_NAME",
                    "DELETE_DEREF", "DELETE_GLOBAL"})
PAIR_WRITES = frozenset({"STORE_FAST_STORE_FAST"})
STORE_THEN_LOAD = "STORE_FAST_LOAD_FAST"   # oparg: stored << 4 | loaded
GLOBAL_WRITES = frozenset({"STORE_GLOBAL", "DELETE_GLOBAL"})
BY_NAME = frozenset({"LOAD_NAME", "STORE_NAME", "STORE_GLOBAL", "DELETE_NAME", "DELETE_GLOBAL"})
# Instructions that, on exact scalars (and the values pure instructions make of them), run only the
# interpreter's own C code and change nothing but the stack.
PURE = frozenset({
    "NOP", "RESUME", "NOT_TAKEN", "CACHE", "EXTENDED_ARG", "POP_TOP", "PUSH_NULL", "COPY", "SWAP", "END_FOR",
    "POP_ITER", "LOAD_CONST", "LOAD_SMALL_INT", "LOAD_CONST_IMMORTAL", "LOAD_CONST_MORTAL", "RETURN_VALUE",
    "RETURN_CONST", "JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT",
    "POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE",
    "POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_NONE",
    "POP_JUMP_FORWARD_IF_NOT_NONE", "POP_JUMP_BACKWARD_IF_TRUE", "POP_JUMP_BACKWARD_IF_FALSE",
    "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE", "BINARY_OP", "COMPARE_OP", "IS_OP",
    "CONTAINS_OP", "UNARY_NEGATIVE", "UNARY_NOT", "TO_BOOL", "BINARY_SUBSCR", "BINARY_SLICE",
    "FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "FORMAT_VALUE", "CONVERT_VALUE", "BUILD_STRING", "BUILD_TUPLE",
    "MAKE_CELL", "COPY_FREE_VARS", "UNPACK_SEQUENCE", "UNPACK_EX",
})
# Methods that, called on an exact scalar (or on the str list or tuple such a method returns) with
# scalar arguments, run only C code and change no object: no codec lookup (encode/decode), no
# `__format__` or `__index__` of an argument's (format, translate), no iteration of a program's object.
PURE_METHODS = frozenset({
    "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "capitalize", "swapcase", "split",
    "rsplit", "splitlines", "partition", "rpartition", "startswith", "endswith", "find", "rfind", "index",
    "rindex", "count", "replace", "join", "removeprefix", "removesuffix", "center", "ljust", "rjust", "zfill",
    "expandtabs", "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isdecimal", "isnumeric",
    "isidentifier", "istitle", "isascii", "isprintable", "bit_length", "bit_count", "is_integer",
})
ATTRIBUTE_LOADS = frozenset({"LOAD_ATTR", "LOAD_METHOD"})
# Calls are pure when every attribute the line loads is one of `PURE_METHODS` (see the module's doc).
METHOD_CALLS = frozenset({"PRECALL", "CALL", "KW_NAMES", "CALL_KW"})
_ATTR_FLAGGED = sys.version_info >= (3, 12)       # LOAD_ATTR's oparg: name index << 1 | method flag

# Not UNARY_INVERT: `~True` warns (DeprecationWarning, 3.12+), and a warning runs the warnings machinery
# and whatever `showwarning` or a `catch_warnings(record=True)` list the program set up.
# With `python -b`, comparing or formatting bytes with str warns too: then no line is pure.
BYTES_WARNING = bool(sys.flags.bytes_warning)

# Run only on the way an exception takes (which the recorder sees as an event of its own).
EXCEPTION_PATH = frozenset({"PUSH_EXC_INFO", "POP_EXCEPT", "RERAISE", "CHECK_EXC_MATCH", "CLEANUP_THROW"})

# What a pure instruction takes off the stack, where `opcode.stack_effect` (pushes minus pops) does not
# tell: those that push nothing, those that push several, and those that read below what they pop.
TAKES_NOTHING = frozenset({"NOP", "RESUME", "NOT_TAKEN", "CACHE", "EXTENDED_ARG", "JUMP_FORWARD", "JUMP_BACKWARD",
                           "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT", "LOAD_CONST", "LOAD_SMALL_INT",
                           "LOAD_CONST_IMMORTAL", "LOAD_CONST_MORTAL", "PUSH_NULL", "MAKE_CELL", "COPY_FREE_VARS",
                           "KW_NAMES", "RETURN_CONST"})
PUSHES_NOTHING = frozenset({"POP_TOP", "END_FOR", "POP_ITER", "RETURN_VALUE", "PRECALL", "POP_JUMP_IF_TRUE",
                            "POP_JUMP_IF_FALSE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE",
                            "POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_NONE",
                            "POP_JUMP_FORWARD_IF_NOT_NONE", "POP_JUMP_BACKWARD_IF_TRUE", "POP_JUMP_BACKWARD_IF_FALSE",
                            "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE"})
TAKES_ONE = frozenset({"UNPACK_SEQUENCE", "UNPACK_EX", "LOAD_ATTR", "LOAD_METHOD", STORE_THEN_LOAD})
DELETES = frozenset(name for name in WRITES if name.startswith("DELETE_"))
READS_BELOW = frozenset({"COPY", "SWAP"})           # need `arg` values there (COPY pops none, but reads one)
# After these the next instruction is reached only by a jump (or not at all).
TRANSFERS = frozenset({"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT",
                       "RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"})
JUMPS = frozenset(opcode.opname[op] for op in opcode.hasjrel)
_stack_effect = opcode.stack_effect
_OPMAP = dict(opcode.opmap)


_OPNAMES = tuple(opcode.opname)
_EXTENDED_ARG = opcode.opmap["EXTENDED_ARG"]
_HAVE_ARGUMENT = opcode.HAVE_ARGUMENT
_CACHES = opcode._inline_cache_entries  # a list by opcode (3.11, 3.12) or a dict by name (3.13+)


def _caches(op: int, name: str) -> int:
    return _CACHES.get(name, 0) if isinstance(_CACHES, dict) else _CACHES[op]


def line_map(code: CodeType) -> dict[int, int | None]:
    """Bytecode offset -> line number, for every instruction of `code`."""
    lines: dict[int, int | None] = {}
    for start, end, number in code.co_lines():
        for offset in range(start, end, 2):
            lines[offset] = number
    return lines


def decoded(code: CodeType) -> list[tuple]:
    """(offset, line or None, opname, arg or None, next offset) of each instruction, decoded from
    `co_code` (the unspecialized bytecode) with EXTENDED_ARG folded in, and without `dis`: this runs
    inside the program, which may have rebound the builtins `dis` relies on."""
    raw = code.co_code
    line_of = line_map(code)
    out = []
    offset, extended = 0, 0
    size = len(raw)
    while offset < size:
        op, arg = raw[offset], raw[offset + 1] | extended
        name = _OPNAMES[op]
        here = offset
        offset += 2 + 2 * _caches(op, name)
        if op == _EXTENDED_ARG:
            extended = arg << 8
            continue
        extended = 0
        out.append((here, line_of.get(here), name, arg if op >= _HAVE_ARGUMENT else None, offset))
    return out


def instructions(code: CodeType):
    """(line or None, opname, names) of each instruction: `names`, the variable names it reads or writes."""
    for _offset, line, name, arg, _next in decoded(code):
        yield line, name, _variables(code, name, arg)


def _variables(code: CodeType, name: str, arg: int | None) -> tuple[str, ...]:
    if name in BY_NAME:
        return (code.co_names[arg],)
    if name in READS or name in WRITES:
        return (code._varname_from_oparg(arg),)
    if name in PAIR_READS or name in PAIR_WRITES or name == STORE_THEN_LOAD:
        return (code._varname_from_oparg(arg >> 4), code._varname_from_oparg(arg & 15))
    return ()


def _attribute(code: CodeType, arg: int) -> str:
    """The name a LOAD_ATTR or LOAD_METHOD loads."""
    return code.co_names[arg >> 1 if _ATTR_FLAGGED else arg]


def effect_of(code: CodeType, name: str, arg: int | None, follows: bool) -> tuple[tuple, tuple] | None:
    """(names read, names written) by one instruction when it is pure (see the module's doc), else None.
    `follows`: the instruction before it is on the same line (a method's receiver made there)."""
    names = _variables(code, name, arg)
    if name in READS or name in PAIR_READS:
        return names, ()
    if name in WRITES or name in PAIR_WRITES:
        # A global is no variable of the frame: the recorder cannot tell it unbound, so it counts as
        # read too (a line overwriting a global is cheap only while the global holds a scalar).
        return (names if name in GLOBAL_WRITES else ()), names
    if name == STORE_THEN_LOAD:
        return names[1:], names[:1]
    if name in PURE or name in METHOD_CALLS or (
            # The receiver made on this very line (a method call whose receiver a line above made,
            # `(ns⏎ .strip())`, sits on the attribute's line: that receiver was never checked).
            name in ATTRIBUTE_LOADS and follows and _attribute(code, arg) in PURE_METHODS):
        return (), ()
    return None


def _takes(name: str, arg: int | None) -> int:
    """How many stack values a pure instruction needs: those it pops, or reads below (COPY, SWAP)."""
    if name in TAKES_NOTHING or name in READS or name in PAIR_READS or name in DELETES:
        return 0
    if name in TAKES_ONE or name in WRITES:
        return 1
    if name in PAIR_WRITES:
        return 2
    if name in READS_BELOW:
        return arg
    effect = _net(name, arg)
    return -effect if name in PUSHES_NOTHING else 1 - effect


def _net(name: str, arg: int | None) -> int:
    """Pushes minus pops when the instruction does not jump (COPY: one more, SWAP: none)."""
    if name in READS_BELOW:
        return name == "COPY"
    return _stack_effect(_OPMAP[name], arg, jump=False)


def _entered_from_elsewhere(instructions: list[tuple]) -> set[int]:
    """Offsets a jump reaches from another line, or from further down (a loop): the stack there may hold
    values that no instruction of the line made."""
    line_at = {offset: line for offset, line, *_ in instructions}
    offsets = [offset for offset, *_ in instructions]
    entered = set()
    for _offset, line, name, arg, after in instructions:
        if name in JUMPS:
            backward = "BACKWARD" in name
            target = after - 2 * arg if backward else after + 2 * arg
            # A target with EXTENDED_ARG prefixes is the offset of the first: `decoded` gives the instruction's.
            at = bisect_left(offsets, target)
            target = offsets[at] if at < len(offsets) else target
            if backward or line_at.get(target) != line:
                entered.add(target)
    return entered


def plans(code: CodeType) -> dict[int, tuple[frozenset[str], frozenset[str]] | None]:
    """line -> (names read, names written) when every instruction of the line is pure, else None.

    A pure instruction must also take from the stack only what this run of the line put there: an
    expression over several lines leaves values on the stack for another line's instructions (`(⏎
    "%(a)s"⏎ % table⏎)`: the `%` sits on the text's line), and a `break` pops the loop's iterator, which
    a finalizer may hang on. Those values were never checked to be scalars, so such a line is not pure.
    Instructions without a line (an `except ... as e` clean-up) run after some line: their names
    count for every line, and one that is not pure leaves no line cheap."""
    if BYTES_WARNING:
        return {}
    lines: dict[int, list | None] = {}
    extra_reads: set[str] = set()
    extra_writes: set[str] = set()
    before = -1                  # the line of the instruction before
    every = decoded(code)
    entered = _entered_from_elsewhere(every)
    depth = 0                    # values on the stack that this run of the line put there
    for offset, line, name, arg, _next in every:
        follows, before = before == line, line
        if not follows or offset in entered:
            depth = 0
        effect = effect_of(code, name, arg, follows)
        if effect is not None and line is not None:
            try:
                takes, net = _takes(name, arg), _net(name, arg)
            except ValueError:   # an instruction `opcode` cannot size: not pure
                takes, net = depth + 1, 0
            if takes > depth:
                lines[line] = None
                continue
            depth += net
            if name in TRANSFERS:
                depth = 0        # what follows is reached by a jump: count from nothing (fewer, never more)
        if effect is not None:
            reads, writes = effect
        elif line is None and name in EXCEPTION_PATH:
            continue
        elif line is None:
            return {}
        else:
            lines[line] = None
            continue
        if line is None:
            extra_reads.update(reads)
            extra_writes.update(writes)
            continue
        entry = lines.setdefault(line, [set(), set()])
        if entry is not None:
            entry[0].update(reads)
            entry[1].update(writes)
    return {line: None if entry is None else (frozenset(entry[0] | extra_reads), frozenset(entry[1] | extra_writes))
            for line, entry in lines.items()}
