"""steptrace.freeing: what a caught exception or a dropped module reaches, freed one object at a time, with
every finalizer run as before (the Pyodide side is in test_adversarial: deep_raise, runaway_deep_down,
chains_left_in_globals)."""
from __future__ import annotations

import gc
import sys
import types
import weakref

from steptrace import freeing


def down(n: int) -> None:
    if n == 0:
        raise ValueError("bottom")
    down(n - 1)


def caught(action) -> BaseException:
    try:
        action()
    except BaseException as error:  # noqa: BLE001
        return error
    raise AssertionError("nothing was raised")


def test_exceptions_newest_first_then_tracebacks_outermost_first_then_frames_innermost_first():
    def chained():
        try:
            down(30)
        except ValueError as first:
            raise KeyError("again") from first

    error = caught(chained)
    held = freeing.exception_in_freeing_order(error)
    first_frame = next(i for i, item in enumerate(held) if type(item) is types.FrameType)
    kinds = [type(item) for item in held[first_frame:]]          # before: what the frames hold (popped last)
    frames = [item for item in held if type(item) is types.FrameType]
    entries = [item for item in held if type(item) is types.TracebackType]
    assert held[-1] is error and held[-2] is error.__cause__
    assert kinds == sorted(kinds, key=[types.FrameType, types.TracebackType, ValueError, KeyError].index)
    assert entries[-1] is error.__traceback__           # popped first: the outermost entry
    down_frames = [frame for frame in frames if frame.f_code is down.__code__]
    assert len(down_frames) == 31
    depths = [frame.f_locals["n"] for frame in down_frames]
    assert depths == sorted(depths, reverse=True)       # popped first: the innermost frame (n == 0)
    freeing.let_go(held)
    assert held == []


def raised_holding(links: int) -> BaseException:
    def holding():
        head = None
        for value in range(links):
            head = [value, head]
        raise ValueError(head[0])
    return caught(holding)


def test_what_the_program_frames_hold_goes_after_them_head_first_and_nothing_of_the_recorder():
    links = 2 * freeing.FEW
    held = freeing.exception_in_freeing_order(raised_holding(links))
    first_frame = next(i for i, item in enumerate(held) if type(item) is types.FrameType)
    chain = [item for item in held[:first_frame] if type(item) is list and len(item) == 2]
    assert [link[0] for link in chain] == list(range(links))   # popped from the end: the head first
    own = freeing.__file__
    assert not any(type(item) is types.FunctionType and item.__code__.co_filename == own for item in held)


def test_a_few_objects_held_by_the_frames_are_left_to_them():
    held = freeing.exception_in_freeing_order(raised_holding(10))
    assert type(held[0]) is types.FrameType                   # nothing below the frames


def test_groups_and_contexts_are_followed_once():
    first = caught(lambda: down(3))
    group = ExceptionGroup("many", [first, caught(lambda: down(2))])
    group.__context__ = first                          # reached twice: held once
    held = freeing.exception_in_freeing_order(group)
    exceptions = [item for item in held if isinstance(item, BaseException)]
    assert len(exceptions) == 3 and len({id(item) for item in exceptions}) == 3


def test_no_code_of_the_program_runs():
    reads = []

    class Nosy(Exception):
        def __getattribute__(self, name):
            reads.append(name)
            return super().__getattribute__(name)

    def raise_nosy():
        raise Nosy("x")

    error = caught(raise_nosy)
    reads.clear()
    held = freeing.exception_in_freeing_order(error)
    assert reads == [] and held[-1] is error


def test_nothing_to_hold_for_no_exception():
    assert freeing.exception_in_freeing_order(None) == []
    assert sys.exc_info() == (None, None, None)


CHAIN = """
class Node:
    def __init__(self, next):
        self.next = next

    def __del__(self):
        global finalized
        finalized += 1          # a NameError here would go to stderr: the module's globals must be whole
        log.append(finalized)

finalized = 0
log = []
head = None
for _ in range(LINKS):
    head = Node(head)
"""


def module_with_chain(links: int) -> types.ModuleType:
    module = types.ModuleType("chain_for_test")
    module.__dict__["LINKS"] = links
    exec(CHAIN, module.__dict__)
    return module


def dropped(links: int) -> tuple[list, list, weakref.ref]:
    """[the module], its finalizers' log, a weak reference to a node near the chain's end."""
    module = module_with_chain(links)
    return [module], module.log, weakref.ref(module.head.next.next)


def test_a_dropped_module_with_a_long_chain_is_harvested_and_every_finalizer_sees_its_globals():
    modules, log, tail = dropped(3 * freeing.FEW)
    freeing.let_modules_go(modules)
    assert modules == []
    assert log == list(range(1, 3 * freeing.FEW + 1))       # each finalizer once, the global counting on
    assert tail() is None


def test_a_small_module_goes_the_usual_way():
    modules, log, tail = dropped(10)
    freeing.let_modules_go(modules)
    assert log == list(range(1, 11)) and tail() is None


def test_a_module_still_held_elsewhere_is_left_whole():
    modules, log, tail = dropped(3 * freeing.FEW)
    keep = modules[0].__dict__
    freeing.let_modules_go(modules)
    assert log == [] and keep["head"] is not None and tail() is not None
    assert all(type(key) is str for key in keep)              # no harvest left planted
    del keep
    gc.collect()
    assert len(log) == 3 * freeing.FEW and tail() is None


def test_graph_enters_untracked_nests_but_not_modules_classes_or_kept_namespaces():
    nest: tuple = ()
    for _ in range(freeing.FEW):
        nest = (nest,)
    gc.collect()                                              # untracks the nest of empty tuples
    class Holder:
        pass
    root = {"nest": nest, "module": sys, "cls": Holder, "globals": vars(sys)}
    order = freeing.graph_in_freeing_order([root])
    assert order[-1] is root
    assert sum(type(item) is tuple for item in order) == freeing.FEW + 1       # with the empty one
    assert not any(item is sys or item is Holder or item is vars(sys) for item in order)
    numbers = list(range(10 * freeing.BIG))
    assert freeing.graph_in_freeing_order([[numbers]])[0] is numbers         # not entered item by item


def test_flat_containers_of_atoms_are_told_apart_in_c():
    """What lets a big list of numbers go unwalked item by item; one object among the atoms is walked."""
    atoms = [1, 2.0, "three", b"four", True, None]
    assert freeing._atoms_only(atoms) and freeing._atoms_only(tuple(atoms)) and freeing._atoms_only({1, "a"})
    assert freeing._atoms_only({"a": 1, 2: None})
    assert not freeing._atoms_only(atoms + [[]])
    assert not freeing._atoms_only({"a": [1]}) and not freeing._atoms_only({(1,): 1})
    numbers = list(range(10 * freeing.BIG))
    numbers[-1] = inner = [0]
    assert inner in freeing.graph_in_freeing_order([numbers])


def test_the_runner_holds_nothing_of_the_recorder(tmp_path, monkeypatch):
    """A run that raises while its frame holds more than FEW objects: what the runner lets go of is the
    program's (the run's own frame holds the recorder, which must not be walked)."""
    from steptrace import recorder, runner
    (tmp_path / "holder.py").write_text(
        "def main():\n    rows = [[n] for n in range(1_000)]\n    raise ValueError(len(rows))\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    held_kinds: list = []
    original = freeing.let_go

    def noting(held: list) -> None:
        held_kinds.extend(type(item) for item in held)
        original(held)
    monkeypatch.setattr(freeing, "let_go", noting)
    runner.run_case("holder.py", "holder", "from holder import *\n", "main()\n", backend="settrace")
    assert held_kinds.count(list) >= 1_000                    # the frame's rows were held
    assert recorder.Recorder not in held_kinds
    assert not [kind for kind in held_kinds if kind.__module__.startswith("steptrace.")]


def test_no_code_of_the_program_runs_while_gathering():
    reads = []

    class Meta(type):
        def __eq__(cls, other):
            reads.append("eq")
            return False

        __hash__ = type.__hash__

    class Odd(metaclass=Meta):
        pass

    class Name(str):
        def startswith(self, *args):
            reads.append("startswith")
            return False

    def function():
        pass
    function.__code__ = function.__code__.replace(co_filename=Name("elsewhere.py"))
    root = {"odd": [Odd() for _ in range(freeing.FEW)], "function": function}
    order = freeing.graph_in_freeing_order([root])
    assert function in order and reads == []
