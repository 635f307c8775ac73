"""Which names a line can change, read from the code object, for the recorder's cheap steps.

Looking at every local at every line is what makes recording expensive. After a line made only of
*pure* instructions (loads, stores, constants, jumps, arithmetic and comparisons) whose named
operands all held exact scalars (int, float, complex, str, bytes, bool, None) when the line began,
only the names the line stores or deletes can have changed: such instructions run no Python code (no
dunder of a user class, no finalizer: a scalar has none) and mutate no object. The recorder checks
the rest of the rule at run time: the frame's previous event came just before (no other frame ran),
no garbage collection ran (finalizers), no other thread exists, no trace function of the program's
runs between lines. Everything else — a call, a subscript store, an import, an unknown instruction —
means: look at every local.

`plans(code)` gives, per line, `(reads, writes)` for a pure line, or None.
"""
from __future__ import annotations

import opcode

# Captured at import: a lesson may rebind the builtins.
from builtins import (
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
    "CONTAINS_OP", "UNARY_NEGATIVE", "UNARY_NOT", "UNARY_INVERT", "TO_BOOL", "BINARY_SUBSCR", "BINARY_SLICE",
    "FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "FORMAT_VALUE", "CONVERT_VALUE", "BUILD_STRING", "BUILD_TUPLE",
    "MAKE_CELL", "COPY_FREE_VARS",
})
# Run only on the way an exception takes (which the recorder sees as an event of its own).
EXCEPTION_PATH = frozenset({"PUSH_EXC_INFO", "POP_EXCEPT", "RERAISE", "CHECK_EXC_MATCH", "CLEANUP_THROW"})


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
        if name in BY_NAME:
            names = (code.co_names[arg],)
        elif name in READS or name in WRITES:
            names = (code._varname_from_oparg(arg),)
        elif name in PAIR_READS or name in PAIR_WRITES or name == STORE_THEN_LOAD:
            names = (code._varname_from_oparg(arg >> 4), code._varname_from_oparg(arg & 15))
        else:
            names = ()
        yield line, name, names


def plans(code: CodeType) -> dict[int, tuple[frozenset[str], frozenset[str]] | None]:
    """line -> (names read, names written) when every instruction of the line is pure, else None.

    Instructions without a line (an `except ... as e` clean-up) run after some line: their names
    count for every line, and one that is not pure leaves no line cheap."""
    lines: dict[int, list | None] = {}
    extra_reads: set[str] = set()
    extra_writes: set[str] = set()
    for line, name, names in instructions(code):
        if name in READS or name in PAIR_READS:
            reads, writes = names, ()
        elif name in WRITES or name in PAIR_WRITES:
            reads, writes = (), names
        elif name == STORE_THEN_LOAD:
            reads, writes = names[1:], names[:1]
        elif name in PURE:
            reads = writes = ()
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
