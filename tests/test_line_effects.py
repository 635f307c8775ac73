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


FOREIGN = r'''
import json, re, sys, sysconfig
from pathlib import Path
from steptrace import recorder
from steptrace.runner import run_case

folder = Path(sys.argv[1])
lib = Path(sysconfig.get_paths()["stdlib"])
for name in ("heapq", "bisect"):
    text = (lib / f"{name}.py").read_text(encoding="utf-8")
    text = re.sub(r"^try:\n    from _heapq import .*?\nexcept ImportError:\n    pass\n", "", text, flags=re.M | re.S)
    text = re.sub(r"^from _bisect import \*\n", "", text, flags=re.M)   # keep the Python versions
    (folder / f"copy_{name}.py").write_text(text, encoding="utf-8")
sys.path.insert(0, str(folder))
original = recorder.Recorder._locals_named
cheap, missed, runs = [], [], []

def checked(self, state, frame, index, names):
    original(self, state, frame, index, names)
    if state.scalars != {name for name, known in state.seen.items() if known[1] is None}:
        missed.append([index, "scalars out of step with seen"])
    cheap.append(index)
    chunk = self.table.current
    before = len(chunk.delta_event)
    self._locals(state, frame, index)
    if len(chunk.delta_event) > before:
        count = chunk.delta_sets[-1]
        missed.append([index, sorted(chunk.set_names[len(chunk.set_names) - count:]),
                       [n for r, n in chunk.deleted if r == before]])

jobs = {"heapq": ("import random\nrandom.seed(1)\ndata = [random.randint(0, 999) for _ in range(200)]\n",
                  "h = []\nfor x in data: heappush(h, x)\nprint([heappop(h) for _ in range(len(h))][:5], "
                  "nlargest(3, data), list(merge([1, 4, 9], [2, 3, 10])))\n"),
        "bisect": ("xs = list(range(0, 2000, 3))\n",
                   "print([bisect_left(xs, k) for k in range(0, 200, 7)], insort_right(xs, 5), xs[:4])\n")}
for name, (setup, entry) in jobs.items():
    source, module = str(folder / f"copy_{name}.py").lstrip("/"), f"copy_{name}"
    setup = f"from copy_{name} import *\n" + setup
    recorder.Recorder._locals_named = checked
    traced = json.loads(run_case(source, module, setup, entry))
    recorder.Recorder._locals_named = original
    plain = json.loads(run_case(source, module, setup, entry, record=False))
    runs.append([traced["stats"]["internal_errors"], traced["end"]["status"],
                 traced["stdout_text"] == plain["stdout_text"]])
print(json.dumps({"cheap": len(cheap), "missed": missed, "runs": runs}))
'''


def test_cheap_steps_miss_nothing_on_code_nobody_here_wrote(tmp_path):
    """The standard library's own pure-Python heapq and bisect, copied as the shown module: many steps
    take the cheap path, and a look at every local after each finds nothing it missed. In a child
    process: cheap steps are off while another thread lives (this test process runs Pyodide's bridge)."""
    import json
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "py")}
    done = subprocess.run([sys.executable, "-c", FOREIGN, str(tmp_path)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["runs"] == [[[], "returned", True]] * 2   # no fault, same output as untraced
    assert report["cheap"] > 1000, "pure lines of heapq and bisect take the cheap path"
    assert report["missed"] == []
