"""steptrace.loop_effects: a `for` line that only takes its next item is a cheap step, and never one
that could have run program code.

The forms it understands are read from the bytecode (3.11 here, 3.14 in Pyodide); the run-time
half is checked the way every cheap step is: each cheap step is followed by a look at every local,
which must find nothing the cheap step missed — on loops whose iterator is the interpreter's own, and
on loops made to look like them whose iterator is not (a global `range`/`enumerate` rebound to a class
of another file, list/dict/str subclasses, a `map` that appends, a dict changed while iterated).
"""
# ruff: noqa: B007 - the loops below have the shapes under test, whether or not they use their names
from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from types import CodeType

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))
from steptrace.loop_effects import loops  # noqa: E402


def shapes(n, items, text, lst, d):
    total = 0
    for i in range(1, n, 2):                 # 2: range
        total += i
    for k, v in items.items():               # 4: dict items, unpacked
        total += v
    for w in text.split():                   # 6: str split
        total += 1
    for x in lst:                            # 8: a name
        total += x
    for j, y in enumerate(lst):              # 10: enumerate of a name, unpacked
        total += j
    for i in range(3).__reversed__():        # 12: not one call of range
        total += i
    for a, b in lst:                         # 14: unpacking items of unknown type
        total += a
    for x in (lst if n else d):              # 16: a jump in the iterable
        total += 1
    for q in range(3): total += q            # 18: body on the loop's line  # noqa: E701
    for w in text.split().copy():            # 19: not a method of the name
        total += 1
    for m, x in enumerate(lst):              # 21: its item tuple is reused, and x is stored elsewhere
        total += m
    return total


def test_the_forms_read_from_the_bytecode():
    first = shapes.__code__.co_firstlineno
    found = {line - first: (loop.kind, loop.callable, loop.name, loop.method, sorted(loop.plan[1]))
             for line, loop in loops(shapes.__code__).items()}
    assert found == {
        2: ("call", "range", None, None, ["i"]),
        4: ("method", None, "items", "items", ["k", "v"]),
        6: ("method", None, "text", "split", ["w"]),
        8: ("name", None, "lst", None, ["x"]),
        10: ("call", "enumerate", "lst", None, ["j", "y"]),
    }
    for loop in loops(shapes.__code__).values():
        assert loop.body == loop.line + 1


def nested_shapes(rows, text):
    n = 0
    for row in rows:                         # 2: a name (its jump back sits on line 3)
        for w in text.split():               # 3: str split, inside another loop
            n += row
    while n > 100:
        for i in range(3):                   # 6: range inside a while loop
            n -= i
    return n


def test_loops_inside_loops_are_understood():
    first = nested_shapes.__code__.co_firstlineno
    found = {line - first: (loop.kind, loop.body - first) for line, loop in loops(nested_shapes.__code__).items()}
    assert found == {2: ("name", 3), 3: ("method", 4), 6: ("call", 7)}


def comprehension_shapes(n, xs, d, text, k):
    a = [i * k for i in range(n) if i != 7]          # 1: range, a condition: two jumps back
    b = {w.lower() for w in text.split()}            # 2: str split, a text method on the item
    c = {key: v for key, v in d.items()}             # 3: dict items, unpacked
    e = [j for j, x in enumerate(xs)]                # 4: enumerate of a name, unpacked
    f = [x for x in xs]                              # 5: a name
    g = [(z := x) for x in xs]                       # 6: a walrus writes z too
    h = [y for x in xs for y in x]                   # 7: two loops
    m = [len(x) for x in xs]                         # 8: a global's call
    n = [x for x in range(len(xs))]                  # 9: range's argument calls a global
    p = sum([x for x in xs])                         # 10: the line does not start with the iterable
    q = [x.get(1) for x in xs]                       # 11: a method not known to be pure
    r = [x for x in xs[1:]]                          # 12: an iterable not understood
    return a, b, c, e, f, g, h, m, n, p, q, r, z


# kind, callable, name, method, names written, names read, jumps back, names that must hold scalars when
# the line begins (read by its expressions or range's arguments, and walrus targets; not the item's names)
COMPREHENSION_FORMS = {
    1: ["call", "range", None, None, ["i"], ["i", "k"], 2, ["k", "n"]],
    2: ["method", None, "text", "split", ["w"], ["w"], 1, []],
    3: ["method", None, "d", "items", ["key", "v"], ["key", "v"], 1, []],
    4: ["call", "enumerate", "xs", None, ["j", "x"], ["j"], 1, []],
    5: ["name", None, "xs", None, ["x"], ["x"], 1, []],
    6: ["name", None, "xs", None, ["x", "z"], ["x"], 1, ["z"]],
}

def comprehension_forms(shapes) -> dict:
    """line in `shapes` -> [kind, callable, name, method, written, read, jumps back, checked at start]."""
    from steptrace.loop_effects import loops
    first = shapes.__code__.co_firstlineno
    return {line - first: [loop.kind, loop.callable, loop.name, loop.method, sorted(loop.plan[1]),
                           sorted(loop.plan[2]), len(loop.jumps), sorted(loop.start[0])]
            for line, loop in loops(shapes.__code__).items()}


def test_comprehensions_run_inline_are_read_from_the_bytecode(pyodide):
    """Python 3.12+ runs a list, set or dict comprehension in its function's frame: each iteration
    ends on a jump back, where the line is reported again (3.14 here)."""
    script = (inspect.getsource(comprehension_shapes) + inspect.getsource(comprehension_forms)
              + "import json\nresult = json.dumps(comprehension_forms(comprehension_shapes))\n")
    found = json.loads(pyodide.run(script))
    assert {int(line): form for line, form in found.items()} == COMPREHENSION_FORMS


def test_comprehensions_read_from_this_pythons_bytecode():
    """3.12+: the same forms as in Pyodide. Before 3.12 a comprehension is a function of its own, called
    with its iterator: neither it nor its caller has a plan for it."""
    if sys.version_info >= (3, 12):
        assert comprehension_forms(comprehension_shapes) == COMPREHENSION_FORMS
    else:
        assert loops(comprehension_shapes.__code__) == {}
        nested = [constant for constant in comprehension_shapes.__code__.co_consts if isinstance(constant, CodeType)]
        assert len(nested) == 12 and all(loops(code) == {} for code in nested)


SHOWN = '''\
def plain(n):
    total = 0
    for i in range(n):
        total += i
    return total


def words(text):
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    n = 0
    for k, v in counts.items():
        n += v
    parts = text.split()
    for j, w in enumerate(parts):
        n += j
    for key in counts:
        n += 1
    return n


def watched(n, box, seq):
    """`box` is changed by whatever iterator setup put behind `range`, `enumerate` or `seq`."""
    total = 0
    for i in range(n):
        total += 1
    for j, x in enumerate(seq):
        total += 1
    for x in seq:
        total += 1
    return total


def views(d, text):
    n = 0
    for k, v in d.items():
        n += 1
    for w in text.split():
        n += 1
    return n


def nested(rows, text):
    """An outer loop's jump back sits on the inner `for` line: the inner loop is still cheap."""
    n = 0
    for row in rows:
        for w in text.split():
            n += row
    while n > 100:
        for i in range(3):
            n -= i
    return n


def rebinds(items, pairs, box):
    """`enumerate` and `dict.items()` reuse their item tuple: an item the body let go dies in the next
    FOR_ITER (a finalizer of setup's appends to `box`), so these loops take no cheap steps."""
    for i, x in enumerate(items):
        items[i] = None
        x = 0
    for k, v in pairs.items():
        pairs[k] = 0
        v = 0
    return len(box)


def comprehensions(n, words, objs, box, pairs):
    """Inlined in their function's frame (3.12+): every iteration is a step. The items of `words` and
    `objs` may be the program's objects whose methods and dunders append to `box`."""
    squares = [i * i for i in range(n) if i % 3]
    lower = {w.lower() for w in words}
    index = {k: v * 2 for k, v in pairs.items()}
    doubled = [x * 2 for x in objs]
    truthy = [y for y in objs if y]
    ends = [(last := q) + 1 for q in range(4)]
    return len(squares), sorted(lower), index, len(doubled), len(truthy), ends, last, len(box)


def changed_while_iterated(d):
    try:
        for k in d:
            d[k + "x"] = 1
    except RuntimeError as error:
        return str(error)
'''

SETUP = '''\
import loopy

BOX = []

class Spy:
    """An iterator of another file: every item also goes into BOX (which the shown frame holds)."""
    def __init__(self, *args):
        self.left = 3
    def __iter__(self):
        return self
    def __next__(self):
        if not self.left:
            raise StopIteration
        self.left -= 1
        BOX.append(self.left)
        return (self.left, self.left)

class Noisy:
    def __del__(self):
        BOX.append("freed")

class SpyList(list):
    def __iter__(self):
        return Spy()

class SpyDict(dict):
    def items(self):
        return Spy()

class SpyStr(str):
    def split(self, *args):
        return SpyList([1, 2])
    def lower(self):
        BOX.append("lower")
        return "spy"

class IntSpy(Spy):
    def __next__(self):
        return super().__next__()[0]

class Loud:
    """Its dunders run in a comprehension's expressions, and change what the shown frame holds."""
    def __mul__(self, other):
        BOX.append("mul")
        return 0
    def __bool__(self):
        BOX.append("bool")
        return True
'''

ENTRY = '''\
print(loopy.plain(300), loopy.words("a b a c b a"))
print(loopy.watched(4, BOX, [1, 2, 3]), len(BOX))
loopy.range = Spy
print(loopy.watched(4, BOX, [1, 2]), len(BOX))
del loopy.range
loopy.enumerate = Spy
print(loopy.watched(2, BOX, [1]), len(BOX))
del loopy.enumerate
print(loopy.watched(2, BOX, SpyList([7])), len(BOX))
print(loopy.watched(2, BOX, map(BOX.append, [1, 2, 3])), len(BOX))
print(loopy.views(SpyDict(a=1), SpyStr("x y")), len(BOX))
print(loopy.changed_while_iterated({"a": 1}))
print(loopy.comprehensions(450, ["A", "b"], [1, 2], BOX, {"a": 1, "b": 2}), len(BOX))
print(loopy.comprehensions(5, ["A", SpyStr("B")], [Loud(), 2, Loud()], BOX, SpyDict(a=1)), len(BOX))
loopy.range = IntSpy
print(loopy.comprehensions(5, [], [], BOX, {}), len(BOX))
del loopy.range
print(loopy.nested([1, 2, 3], "a b c d"))
print(loopy.rebinds([Noisy() for _ in range(3)], {k: Noisy() for k in "abc"}, BOX))
'''

CHECK = r'''
import json, sys
from pathlib import Path
from steptrace import loop_effects, recorder
from steptrace.runner import run_case

Path(FOLDER).mkdir(parents=True, exist_ok=True)
(Path(FOLDER) / "loopy.py").write_text(SHOWN, encoding="utf-8")
(Path(FOLDER) / "harness.py").write_text(HARNESS, encoding="utf-8")
sys.path.insert(0, FOLDER)
from harness import looks_checked

def traced(with_loops):
    real = loop_effects.loops
    recorder._plans_by_content.clear()      # plans are kept across runs: make this run's afresh
    if not with_loops:
        recorder.loop_plans = lambda code: {}
    try:
        with looks_checked() as (missed, cheap):
            doc = json.loads(run_case(FOLDER.lstrip("/") + "/loopy.py", "loopy", SETUP, ENTRY, backend=BACKEND))
    finally:
        recorder.loop_plans = real
        recorder._plans_by_content.clear()
    return doc, missed, len(cheap)

doc, missed, with_loops = traced(True)
_, missed_without, without = traced(False)
plain = json.loads(run_case(FOLDER.lstrip("/") + "/loopy.py", "loopy", SETUP, ENTRY, record=False))
result = json.dumps({"missed": missed + missed_without, "cheap": [with_loops, without],
                     "errors": doc["stats"]["internal_errors"], "status": doc["end"]["status"],
                     "same": doc["stdout_text"] == plain["stdout_text"], "stdout": doc["stdout_text"],
                     "backend": doc["backend"]})
'''


def check_script(folder: str, backend: str = "auto") -> str:
    harness = (Path(__file__).parent / "adversarial" / "harness.py").read_text(encoding="utf-8")
    return (f"FOLDER = {folder!r}\nBACKEND = {backend!r}\nSHOWN = {SHOWN!r}\nSETUP = {SETUP!r}\nENTRY = {ENTRY!r}\n"
            f"HARNESS = {harness!r}\n" + CHECK)


def assert_report(report: dict, inlined: bool = False) -> None:
    assert report["errors"] == [] and report["status"] == "returned", report
    assert report["same"], report["stdout"]
    assert report["missed"] == [], report["missed"]
    with_loops, without = report["cheap"]
    # plain(300) alone brings ~300 loop steps that are cheap only through loop_effects; where
    # comprehensions run inline (3.12+), the 450 iterations of the first one in comprehensions(450) too.
    assert with_loops >= without + 300 + (440 if inlined else 0), report["cheap"]
    assert "changed size during iteration" in report["stdout"]


def test_loop_steps_miss_nothing_on_cpython(tmp_path):
    """In a child process: cheap steps are off while another thread lives (the Pyodide bridge's)."""
    code = check_script(str(tmp_path)) + "\nprint(result)\n"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "py")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert_report(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize("backend", ["monitoring", "settrace"])
def test_loop_steps_miss_nothing_in_pyodide(pyodide, backend):
    report = json.loads(pyodide.run(check_script("/tmp/loop_effects_case", backend), timeout=120))
    assert report["backend"] == backend
    assert_report(report, inlined=True)


LONG = r'''
import json, sys
from pathlib import Path
from steptrace.runner import run_case
Path("/tmp/long_comprehension").mkdir(exist_ok=True)
Path("/tmp/long_comprehension/longc.py").write_text(
    "def doubled(n):\n    return [i * 2 for i in range(n) if i != 7]\n", encoding="utf-8")
Path("/tmp/long_comprehension/harness.py").write_text(HARNESS, encoding="utf-8")
sys.path.insert(0, "/tmp/long_comprehension")
from harness import looks_checked
report = {}
for backend in ("monitoring", "settrace"):
    with looks_checked() as (missed, cheap):
        doc = json.loads(run_case("tmp/long_comprehension/longc.py", "longc", "from longc import *\n",
                                  "print(len(doubled(3000)))\n", backend=backend, max_events=1600))
    report[backend] = {"missed": missed, "cheap": len(cheap), "stdout": doc["stdout_text"],
                       "chunks_crossed": doc["gap"] is not None, "errors": doc["stats"]["internal_errors"]}
result = json.dumps(report)
'''


def test_a_long_comprehension_stays_cheap_across_chunks(pyodide):
    """A new chunk (every 100 events here) asks each frame for a full look, and runs no code of the
    program's: the comprehension's judgement holds across it (only a collection voids it)."""
    harness = (Path(__file__).parent / "adversarial" / "harness.py").read_text(encoding="utf-8")
    report = json.loads(pyodide.run(f"HARNESS = {harness!r}\n" + LONG, timeout=120))
    for backend, found in report.items():
        assert found["errors"] == [] and found["missed"] == [], (backend, found)
        assert found["stdout"] == "2999\n" and found["chunks_crossed"], (backend, found)
        # 3,000 iterations: all but the first (and those a chunk's full look or a collection took) cheap.
        assert found["cheap"] >= 2_700, (backend, found["cheap"])


JUDGED = r"""
import gc, json, sys
from pathlib import Path
from steptrace import loop_effects, recorder
from steptrace.runner import run_case
folder = Path("/tmp/judged_midway")
folder.mkdir(exist_ok=True)
(folder / "judged.py").write_text(SHOWN_JUDGED, encoding="utf-8")
(folder / "harness.py").write_text(HARNESS, encoding="utf-8")
sys.path.insert(0, str(folder))
from harness import looks_checked
real_judge, real_state = loop_effects.Loop.scalar_items, recorder.FrameState.__init__
looks = [0]
def judge_collecting(self, iterable):   # a collection set off by the judgement's own allocations
    gc.collect()
    return real_judge(self, iterable)
class Seen(dict):
    # A frame's known values, whose read by a cheap step's look (`line` reads the one name a step wrote)
    # sets off a collection at the comprehension's first cheap iteration, after the look read the value.
    def get(self, *args):
        if sys._getframe(1).f_code.co_name == "line":
            looks[0] += 1
            if looks[0] == 4:
                gc.collect()
        return dict.get(self, *args)
def state_collecting(self, *args):
    real_state(self, *args)
    self.seen = Seen()
if WHERE == "judgement":
    loop_effects.Loop.scalar_items = judge_collecting
else:
    recorder.FrameState.__init__ = state_collecting
report = {}
try:
    for backend in ("monitoring", "settrace"):
        looks[0] = 0
        with looks_checked() as (missed, cheap):
            doc = json.loads(run_case("tmp/judged_midway/judged.py", "judged", SETUP_JUDGED, "print(shown())\n",
                                      backend=backend))
        report[backend] = [doc["stdout_text"], missed, doc["stats"]["internal_errors"], len(cheap)]
finally:
    loop_effects.Loop.scalar_items, recorder.FrameState.__init__ = real_judge, real_state
result = json.dumps(report)
"""

SHOWN_JUDGED = """\
def shown():
    other = "before"
    ys = [1, 2, 3, 4, 5, 6, 7, 8]
    k = 2
    Bomb()
    out = [x * k for x in ys]
    return other
"""

SETUP_JUDGED = """\
import sys
import judged
class Sneaky:
    def __mul__(self, other):
        sys._getframe(1).f_locals["other"] = "changed"
        return 0
class Evil:
    def __rmul__(self, other):
        frame = sys._getframe(1)
        frame.f_locals["k"] = 1
        frame.f_locals["ys"].append(Sneaky())
        return 0
class Bomb:
    def __init__(self):
        self.me = self
    def __del__(self):
        frame = sys._getframe()
        while frame is not None and frame.f_code.co_name != "shown":
            frame = frame.f_back
        if frame is not None:
            frame.f_locals["k"] = Evil()
judged.Bomb = Bomb
from judged import *
"""


@pytest.mark.parametrize("where", ["judgement", "midway"])
def test_a_collection_voids_the_judgement(pyodide, where):
    """A finalizer run by a collection makes `k` an object whose dunder puts one of the program's objects
    into the list being iterated, and makes `k` a scalar again: the comprehension's later iterations must
    not be cheap. The collection is forced where it could come: inside the judgement (its own
    allocations: a locals view, iterators; found by a review), or in the middle of the comprehension."""
    harness = (Path(__file__).parent / "adversarial" / "harness.py").read_text(encoding="utf-8")
    script = (f"HARNESS = {harness!r}\nSHOWN_JUDGED = {SHOWN_JUDGED!r}\nSETUP_JUDGED = {SETUP_JUDGED!r}\n"
              f"WHERE = {where!r}\n" + JUDGED)
    report = json.loads(pyodide.run(script, timeout=120))
    for backend, (stdout, missed, errors, cheap) in report.items():
        assert stdout == "changed\n" and missed == [] and errors == [], (backend, stdout, missed, errors)
        assert cheap >= 3, (backend, cheap)     # the comprehension did begin with cheap iterations
