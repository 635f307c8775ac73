"""steptrace.line_effects: its own bytecode decoding agrees with `dis`, on CPython and in Pyodide.

The recorder decodes `co_code` itself (a program may rebind the builtins `dis` uses), so `dis` is the
oracle here: over every code object of a few dozen standard modules, the same instruction names, the
same lines and the same variable names, in order.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))
from steptrace import line_effects  # noqa: E402

ORACLE = '''
import dis, importlib, types
from steptrace.line_effects import instructions, plans

def codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from codes(const)

def names_of(ins):
    if ins.opname in ("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "STORE_FAST_STORE_FAST",
                      "STORE_FAST_LOAD_FAST"):
        return tuple(ins.argval)
    if ins.opname in ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_DEREF", "LOAD_NAME", "STORE_FAST",
                      "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL", "DELETE_FAST", "DELETE_NAME", "DELETE_DEREF",
                      "DELETE_GLOBAL"):
        return (ins.argval,)
    return ()

checked, differ, pure = 0, [], 0
for name in MODULES:
    module = importlib.import_module(name)
    for value in vars(module).values():
        for target in (value, *(vars(value).values() if isinstance(value, type) else ())):
            code = getattr(target, "__code__", None)
            if not isinstance(code, types.CodeType):
                continue
            for each in codes(code):
                mine = list(instructions(each))
                theirs = [(i.positions.lineno, i.opname, names_of(i)) for i in dis.get_instructions(each)
                          if i.opname != "EXTENDED_ARG"]   # folded into the next instruction
                checked += 1
                if mine != theirs:
                    first = next((a, b) for a, b in zip(mine + [None] * len(theirs), theirs + [None] * len(mine))
                                 if a != b)
                    differ.append(f"{name}.{each.co_qualname}: {first}")
                pure += sum(plan is not None for plan in plans(each).values())
result = repr((checked, differ[:5], pure))
'''
MODULES = ["json.encoder", "json.decoder", "textwrap", "dataclasses", "enum", "functools", "collections",
           "tempfile", "pathlib", "string", "random", "fractions", "statistics", "heapq", "bisect", "difflib",
           "shutil", "copy", "uuid", "datetime", "calendar", "ast", "tokenize", "inspect", "typing", "re"]


def run_oracle() -> tuple:
    namespace = {"MODULES": MODULES}
    exec(ORACLE, namespace)
    return eval(namespace["result"])


def test_decoding_agrees_with_dis_on_cpython():
    checked, differ, pure = run_oracle()
    assert checked > 1000 and differ == [], differ
    assert pure > 100, "some lines of the standard library are pure"


def test_decoding_agrees_with_dis_in_pyodide(pyodide):
    checked, differ, pure = eval(pyodide.run(f"MODULES = {MODULES!r}\n" + ORACLE, timeout=300))
    assert checked > 1000 and differ == [], differ


def test_what_makes_a_line_pure():
    def sample(n, items):
        total = 0                      # a store of a constant: pure, writes total
        while total < n:               # a compare and a jump: pure, reads total and n
            total += 3                 # pure, reads and writes total
        items.append(total)            # a call: not pure
        text = f"{total:>4}"           # formatting: pure
        pair = (total, text)           # a tuple of them: pure
        del text                       # pure, unbinds text
        return pair

    first = sample.__code__.co_firstlineno
    plans = {line - first: plan for line, plan in line_effects.plans(sample.__code__).items()}
    assert plans[1] == (frozenset(), frozenset({"total"}))
    assert plans[2] == (frozenset({"total", "n"}), frozenset())
    assert plans[3] == (frozenset({"total"}), frozenset({"total"}))
    assert plans[4] is None
    assert plans[5] == (frozenset({"total"}), frozenset({"text"}))
    assert plans[6] == (frozenset({"total", "text"}), frozenset({"pair"}))
    assert plans[7] == (frozenset(), frozenset({"text"}))


def test_text_methods_of_scalars_are_pure_other_calls_are_not():
    def sample(word, items, blob):
        word = word.strip(".,;").lower()          # str methods: pure, reads and writes word
        head, _, tail = word.partition("-")       # a tuple of str, unpacked: pure
        parts = word.split(",", maxsplit=1)       # keyword argument: pure (a new list of str)
        blob = blob.decode("utf-8")               # a codec lookup runs code of the program's: not pure
        size = len(word)                          # a global (len may be rebound): not pure
        items.append(word)                        # a method of a list local: not pure
        text = word.format(size)                  # format calls __format__: not pure
        return head, tail, parts, blob, text

    first = sample.__code__.co_firstlineno
    plans = {line - first: plan for line, plan in line_effects.plans(sample.__code__).items()}
    assert plans[1] == (frozenset({"word"}), frozenset({"word"}))
    assert plans[2] == (frozenset({"word"}), frozenset({"head", "_", "tail"}))
    assert plans[3] == (frozenset({"word"}), frozenset({"parts"}))
    assert [plans[n] for n in (4, 5, 6, 7)] == [None] * 4


def test_a_method_whose_receiver_a_line_above_made_is_not_pure():
    def sample(word, box):
        word = (box
                .strip())                         # the receiver comes from the line above: not pure
        word = (word.strip()
                .lower())                         # the same for the second call
        flag = not word                           # pure
        flag = ~flag                              # ~ on a bool warns: not pure
        return word, flag

    first = sample.__code__.co_firstlineno
    plans = {line - first: plan for line, plan in line_effects.plans(sample.__code__).items()}
    assert plans.get(2) is None and plans.get(4) is None
    assert plans[5] == (frozenset({"word"}), frozenset({"flag"}))
    assert plans[6] is None


def test_a_line_that_takes_stack_values_another_line_made_is_not_pure():
    """Such values were never checked to be scalars: a `%` of a text on one line and a mapping on the next
    (the operator sits on the text's line) may call the mapping's `__missing__`; a `break` or a `return`
    inside a `for` pops the loop's iterator, whose death may run a finalizer."""
    def sample(fields, names):
        line = (
            "%(name)s"  # noqa: UP031 - the `%` runs here, on a mapping loaded below
            % fields                              # a load only: pure
        )
        for name in names:
            if name:                              # pure
                break                             # pops the iterator: not pure
        count = (1 +
                 2)                               # constants only: pure or not, nothing unchecked
        return line, count

    first = sample.__code__.co_firstlineno
    plans = {line - first: plan for line, plan in line_effects.plans(sample.__code__).items()}
    assert plans.get(2) is None and plans.get(7) is None
    assert plans[3] == (frozenset({"fields"}), frozenset())
    assert plans[6] == (frozenset({"name"}), frozenset())


def test_an_exception_clean_up_without_a_line_counts_for_every_line():
    def handler(x):
        try:
            y = x + 1
        except TypeError as error:  # noqa: F841 - the name the clean-up unbinds
            y = 0
        return y

    plans = line_effects.plans(handler.__code__)
    pure = [plan for plan in plans.values() if plan is not None]
    assert pure and all("error" in writes for _, writes in pure)   # `del error` runs after the handler



def test_plans_are_shared_by_identical_bytecode_only():
    """The recorder keeps a code object's plans across runs by the bytecode's content (a run imports the
    shown module afresh): the same source compiled again shares them; code that differs in what a plan
    depends on (instructions, names, lines) gets its own."""
    from steptrace.recorder import _shared_plans

    def function(source: str):
        namespace: dict = {}
        exec(compile(source, "<shown>", "exec"), namespace)
        return namespace["f"].__code__

    base = "def f(a):\n    b = a + 1\n    return b\n"
    assert _shared_plans(function(base)) is _shared_plans(function(base))
    variants = {
        "instructions": "def f(a):\n    b = g(a)\n    return b\n",
        "names": "def f(a):\n    c = a + 1\n    return c\n",
        "lines": "\n" + base,
    }
    plans = _shared_plans(function(base))[0]
    for what, source in variants.items():
        assert _shared_plans(function(source))[0] != plans, what
