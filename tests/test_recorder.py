"""The recorder and runner on CPython: events, locals, stdout, endings, limits, files, CLI."""
from __future__ import annotations

import json
import os
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path

import pytest
from object_numbers import renumbered, unnumbered

from steptrace import monitor
from steptrace.previews import Previewer
from steptrace.runner import RunnerError, run_case
from stepwise import cli

REPO = Path(__file__).resolve().parents[1]

SHOWN = '''\
import tempfile
from pathlib import Path


def add(a, b):
    total = a + b
    return total


def outer(x):
    y = add(x, 1)
    z = add(y, 2)
    return z


def mutate():
    candidate = [{"content": [{"content": "long body"}]}]
    block = candidate[0]["content"][0]
    block["content"] = "moved"
    return candidate


def fail(x):
    y = x * 2
    raise ValueError(f"bad {y}")


def partial():
    print("a", end="")
    print("b", end="")
    print("c")
    return 3


def spin():
    while True:
        pass


def count(n):
    total = 0
    for i in range(n):
        total += i
    return total


def recurse(n):
    return recurse(n + 1)


def memory():
    raise MemoryError("simulated")


def interrupt():
    step = 1
    raise KeyboardInterrupt


class RaisingRepr:
    def __repr__(self):
        raise RuntimeError("no repr")


def adversarial():
    big = "x" * 10_000_000
    loop = [1]
    loop.append(loop)
    bad = RaisingRepr()
    html = "<script>alert(1)</script>"
    return html


def squares(n):
    return sum(i * i for i in range(n))


def write(directory, text):
    path = Path(directory) / "note.txt"
    path.write_text(text, encoding="utf-8")
    return path.name


def gone():
    temp = 1
    del temp
    return 0


def tags(n):
    def gen(k):
        tag = "g%d" % k
        yield tag
        yield k + 1
    seen = []
    for i in range(n):
        g = gen(i)
        seen.append(next(g))
        g = None      # dropped while suspended: it ends without an event, and the next may take its memory
    return seen


async def countdown(n):
    while n > 0:
        yield n
        n -= 1


async def counted(n):
    return [value async for value in countdown(n)]


def reuse(n):
    d = {"k": (0, 0)}
    for i in range(n):
        d.pop("k"); d["k"] = (i, i + 1)  # noqa: E702 - the old tuple dies before the new one is made
        print(d)
    return d


def catcher():
    while True:
        try:
            yield "ready"
        except ValueError:
            print("caught")
'''


@pytest.fixture
def shown(tmp_path):
    """Write SHOWN as a fresh module; return trace(entry, setup=..., **kw) -> document."""
    name = "shown_" + uuid.uuid4().hex[:8]
    (tmp_path / f"{name}.py").write_text(SHOWN, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))

    def trace(entry: str, setup: str = "", **kw) -> dict:
        setup = f"from {name} import *\n" + textwrap.dedent(setup)
        text = run_case(f"{name}.py", name, setup, textwrap.dedent(entry), **kw)
        return json.loads(text)
    trace.name = name
    trace.source = f"{name}.py"
    yield trace
    sys.path.remove(str(tmp_path))
    sys.modules.pop(name, None)


def events(doc: dict) -> list[tuple[str, int, int]]:
    table = doc["events"]
    return list(zip(table["kind"], table["line"], table["frame"], strict=True))


def locals_at(doc: dict, index: int) -> dict[int, dict[str, dict]]:
    """Replay: the locals of every frame at event `index` (fold of deltas)."""
    state: dict[int, dict[str, dict]] = {}
    for delta in doc["locals"]:
        if delta["i"] > index:
            break
        frame = state.setdefault(delta["f"], {})
        if delta["full"]:
            frame.clear()
        frame.update({name: value_at(doc, ref) for name, ref in delta["set"].items()})
        for name in delta["del"]:
            frame.pop(name, None)
    return state


def value_at(doc: dict, ref: int) -> dict:
    """Value `ref` of the document, a `like` rebuilt from the entry it is like (docs/trace-format.md)."""
    value = doc["values"][ref]
    if "like" not in value:
        return value
    back = value["like"]
    assert 1 <= back <= ref, value
    base = value_at(doc, ref - back)
    assert base["t"] == value["t"], (base, value)
    if "ids" in value:
        assert set(value) == {"t", "like", "ids"}, value
        return renumbered(base, value["ids"])
    return {**base, **{key: part for key, part in value.items() if key != "like"}}


def line_of(text: str) -> int:
    return SHOWN.splitlines().index(text) + 1


def check_document(doc: dict) -> None:
    """Internal consistency every document must have."""
    n = len(doc["events"]["kind"])
    assert len(doc["events"]["line"]) == len(doc["events"]["frame"]) == n == doc["stats"]["kept"]
    frames = {f["id"] for f in doc["frames"]}
    assert set(doc["events"]["frame"]) <= frames
    assert all(f["parent"] is None or f["parent"] in frames for f in doc["frames"])
    indexes = [d["i"] for d in doc["locals"]]
    assert indexes == sorted(indexes) and all(0 <= i < n for i in indexes)
    assert all(0 <= ref < len(doc["values"]) for d in doc["locals"] for ref in d["set"].values())
    assert all(doc["events"]["kind"][i] == "r" for i, _ in doc["returns"])
    assert all(doc["events"]["kind"][i] == "x" for i, _ in doc["exceptions"])
    assert all(-1 <= entry[0] < n and entry[2:] in ([], ["err"]) for entry in doc["stdout"])
    assert "".join(e[1] for e in doc["stdout"] if len(e) == 2) == doc["stdout_text"] or doc["gap"]
    assert "".join(e[1] for e in doc["stdout"] if len(e) == 3) == doc["stderr_text"] or doc["gap"]
    assert all(type(line) is int and line > 0 for line in doc["events"]["line"])
    kinds = doc["events"]["kind"]
    if doc["gap"] is None:
        assert kinds.count("c") == kinds.count("r"), "calls and returns must balance"
    assert doc["format"] == "stepwise-trace" and doc["version"] == 3
    assert all(value_at(doc, ref) for ref, value in enumerate(doc["values"]) if "like" in value)


def test_calls_lines_returns_and_frames(shown):
    doc = shown("print(outer(1))\n")
    check_document(doc)
    assert doc["end"]["status"] == "returned"
    assert doc["end"]["call"]["value"] == {"t": "int", "r": "4"}
    kinds = doc["events"]["kind"]
    assert kinds == "cl" + "cllr" + "l" + "cllr" + "lr"
    frames = {f["id"]: f for f in doc["frames"]}
    assert [f["function"] for f in doc["frames"]] == ["outer", "add", "add"]
    assert frames[2]["parent"] == 1 and frames[1]["parent"] is None
    assert frames[1]["line"] == line_of("def outer(x):")
    assert events(doc)[1] == ("l", line_of("    y = add(x, 1)"), 1)
    returns = {i: doc["values"][ref]["r"] for i, ref in doc["returns"]}
    assert list(returns.values()) == ["2", "4", "4"]
    assert doc["stdout"] == [[len(kinds) - 1, "4\n"]]


def test_setup_and_entry_are_never_recorded(shown):
    doc = shown("result = outer(1)\nresult = add(result, 1)\n", setup="warm = outer(5)\n")
    source_lines = len(SHOWN.splitlines())
    assert all(1 <= line <= source_lines for line in doc["events"]["line"])
    assert doc["stats"]["calls"] == 4      # outer, add, add from the entry; add again; setup not traced


def test_locals_record_only_changes(shown):
    doc = shown("outer(1)\n")
    first = doc["locals"][0]
    assert first["i"] == 0 and first["full"] and set(first["set"]) == {"x"}
    outer_deltas = [d for d in doc["locals"] if d["f"] == 1]
    assert [sorted(d["set"]) for d in outer_deltas] == [["x"], ["y"], ["z"]]
    assert locals_at(doc, len(doc["events"]["kind"]) - 1)[1] == {
        "x": {"t": "int", "r": "1"}, "y": {"t": "int", "r": "2"}, "z": {"t": "int", "r": "4"}}


def test_in_place_mutation_is_a_change(shown):
    doc = shown("mutate()\n")
    moved = line_of('    block["content"] = "moved"')
    after = [d for d in doc["locals"] if doc["events"]["line"][d["i"]] == moved or d["i"] == 4]
    delta = next(d for d in doc["locals"] if d["i"] == 4)   # the event after the assignment ran
    assert doc["events"]["line"][3] == moved and after
    assert set(delta["set"]) == {"candidate", "block"}
    assert doc["values"][delta["set"]["block"]]["r"] == "{'content': 'moved'}"


def test_a_reused_id_inside_a_container_is_still_a_change(shown):
    """The tuple a dict held dies and the next one (made in the same line) takes its memory, so its
    id: the dict's snap must hold the old tuple (as it holds scalars) for the change to be seen."""
    doc = shown("reuse(4)\n")
    shows = line_of("        print(d)")
    at_print = [i for i, line in enumerate(doc["events"]["line"]) if line == shows]
    seen = [locals_at(doc, i)[doc["events"]["frame"][i]]["d"]["r"] for i in at_print]
    assert seen == [str({"k": (i, i + 1)}) for i in range(4)]


def test_a_generator_dropped_while_suspended_is_not_the_next_one(shown):
    """A new generator started where a dropped one's frame was (same code, same address) is a new
    frame, not the old one resuming: four generators, four frames, each its own `tag`."""
    doc = shown("tags(4)\n")
    frames = [f["id"] for f in doc["frames"] if f["function"] == "gen"]
    assert len(frames) == 4
    tags = {locals_at(doc, len(doc["events"]["kind"]) - 1).get(f, {}).get("tag", {}).get("r") for f in frames}
    assert tags == {"'g0'", "'g1'", "'g2'", "'g3'"}


def test_deleted_names_are_reported(shown):
    doc = shown("gone()\n")
    assert any(d["del"] == ["temp"] for d in doc["locals"])


def test_stdout_without_newline_is_kept_per_step(shown):
    doc = shown("partial()\nprint('end', end='')\n", setup="print('from setup')\n")
    assert doc["stdout_text"] == "from setup\nabc\nend"
    assert doc["stdout"][0] == [-1, "from setup\n"]
    texts = [t for _, t in doc["stdout"][1:]]
    assert texts[:2] == ["a", "b"] and "".join(texts) == "abc\nend"
    steps = [i for i, _ in doc["stdout"][1:3]]
    assert steps[0] < steps[1]


def test_exception_mid_function(shown):
    doc = shown("fail(2)\n")
    check_document(doc)
    end = doc["end"]
    assert end["status"] == "raised"
    assert end["exception"] == {"type": "ValueError", "message": "bad 4",
                                "line": line_of('    raise ValueError(f"bad {y}")'), "in_source": True}
    assert doc["events"]["kind"].endswith("xr")
    assert doc["exceptions"][0][1] == {"type": "ValueError", "message": "bad 4"}
    assert end["call"]["status"] == "raised" and end["call"]["exception"]["type"] == "ValueError"
    assert not any(i == len(doc["events"]["kind"]) - 1 for i, _ in doc["returns"])   # an unwind, no value


def test_exception_caught_by_entry_is_a_normal_end(shown):
    doc = shown("try:\n    fail(1)\nexcept ValueError as e:\n    print(e)\n")
    assert doc["end"]["status"] == "returned" and doc["end"]["call"]["status"] == "raised"
    assert doc["stdout_text"] == "bad 2\n"


def test_error_in_entry_points_at_entry(shown):
    doc = shown("outer(1)\nundefined_name\n")
    assert doc["end"]["exception"] == {"type": "NameError", "message": "name 'undefined_name' is not defined",
                                       "line": 2, "in_source": False, "file": "<entry>"}


def test_while_true_stops_on_time_limit_and_stays_replayable(shown):
    started = time.perf_counter()
    doc = shown("spin()\n", time_limit=0.5)
    assert time.perf_counter() - started < 3
    check_document(doc)
    assert doc["end"]["status"] == "stopped" and doc["end"]["reason"] == "time_limit"
    assert doc["stats"]["events"] > 1000


def test_long_loop_keeps_first_and_last_windows(shown):
    doc = shown("count(100_000)\n", max_events=2000)
    check_document(doc)
    assert doc["end"]["status"] == "returned"
    assert doc["end"]["call"]["value"]["r"] == str(sum(range(100_000)))
    gap = doc["gap"]
    kept = doc["stats"]["kept"]
    assert kept <= 2000 and gap["after"] >= 900 and gap["dropped"] + kept == doc["stats"]["events"]
    # head window: the run's first events; tail window: its last ones
    assert doc["events"]["kind"][:2] == "cl" and doc["events"]["kind"][-1] == "r"
    # the first event after the gap carries a full snapshot of its frame
    tail_first = next(d for d in doc["locals"] if d["i"] > gap["after"])
    assert tail_first["i"] == gap["after"] + 1 and tail_first["full"]
    assert set(tail_first["set"]) == {"n", "total", "i"}
    last = locals_at(doc, kept - 1)[1]
    assert last["total"]["r"] == str(sum(range(100_000))) and last["i"]["r"] == "99999"


def test_runaway_loop_with_small_capacity(shown):
    doc = shown("spin()\n", max_events=500, time_limit=0.3)
    check_document(doc)
    assert doc["stats"]["kept"] <= 500 + 500 // 16 and doc["gap"]["dropped"] > 0   # rounded up to a chunk
    assert doc["end"]["reason"] == "time_limit"


def test_frames_of_dropped_calls_are_forgotten(shown):
    doc = shown("for k in range(3000):\n    outer(k)\n", max_events=600)
    check_document(doc)
    assert doc["stats"]["calls"] == 9000 and doc["gap"]["dropped"] > 0
    assert len(doc["frames"]) < 400           # only frames of kept events (and their parents)


def test_one_million_events_are_recordable(shown):
    doc = shown("count(499_997)\n", time_limit=120)     # 2n + 5 events
    assert doc["stats"]["events"] == doc["stats"]["kept"] == 999_999 and doc["gap"] is None
    assert doc["end"]["status"] == "returned"


def test_recursion_error_is_a_clear_end(shown):
    doc = shown("recurse(0)\n")
    assert doc["end"]["status"] == "raised"
    assert doc["end"]["exception"]["type"] == "RecursionError"
    assert doc["end"]["exception"]["in_source"] is True
    assert doc["stats"]["calls"] > 100
    # the next run works as usual
    assert shown("outer(1)\n")["end"]["status"] == "returned"


def test_memory_error_is_a_clear_end(shown):
    doc = shown("memory()\n")
    assert doc["end"]["status"] == "raised" and doc["end"]["exception"]["type"] == "MemoryError"


def test_keyboard_interrupt_is_stopped_interrupted_and_keeps_trace(shown):
    doc = shown("interrupt()\n")
    assert doc["end"]["status"] == "stopped" and doc["end"]["reason"] == "interrupted"
    assert doc["events"]["kind"].startswith("cll")


def test_phases_bracket_the_code_and_an_early_interrupt_ends_it_inside_the_isolation(shown):
    """The worker installs its interrupt buffer at "running": a Stop sent earlier is taken there, so
    it ends the run like any other interrupt, and the isolation set up before is undone."""
    seen, before = [], (os.getcwd(), list(sys.path), set(sys.modules))

    def interrupted_at_start(phase: str) -> None:
        seen.append(phase)
        if phase == "running":
            raise KeyboardInterrupt

    doc = shown("partial()\n", on_phase=interrupted_at_start)
    assert seen == ["running", "finishing"]
    assert doc["end"]["status"] == "stopped" and doc["end"]["reason"] == "interrupted"
    assert doc["events"]["kind"] == "" and doc["stdout_text"] == ""
    assert (os.getcwd(), sys.path, set(sys.modules)) == before


def test_finishing_is_said_once_before_the_recorder_is_taken_down(shown):
    """The worker uninstalls its interrupt buffer at "finishing": said while the recorder is still
    installed, no interrupt can land in its teardown (nor turn a returned run into a stopped one)."""
    seen = []
    doc = shown("partial()\n", on_phase=lambda name: seen.append((name, sys.gettrace() is not None)),
                backend="settrace")
    assert seen == [("running", False), ("finishing", True)]
    assert doc["end"]["status"] == "returned" and doc["stdout_text"] == "abc\n"


def test_adversarial_values_are_bounded(shown):
    started = time.perf_counter()
    text_doc = run_case(f"{shown.name}.py", shown.name, f"from {shown.name} import *\n", "adversarial()\n")
    assert time.perf_counter() - started < 2
    assert len(text_doc) < 50_000
    doc = json.loads(text_doc)
    final = locals_at(doc, len(doc["events"]["kind"]) - 1)[1]
    assert final["big"]["len"] == 10_000_000
    assert final["loop"]["items"][1]["cycle"] is True
    assert final["bad"]["r"] == "<RaisingRepr object>" and "err" not in final["bad"]   # its repr never runs
    assert final["html"]["v"] == "<script>alert(1)</script>"


def test_generator_frame_keeps_its_id(shown):
    doc = shown("squares(3)\n")
    gen_frames = [f["id"] for f in doc["frames"] if f["function"] == "<genexpr>"]
    assert len(gen_frames) == 1
    assert doc["events"]["kind"].count("c") == 1 + 4     # squares + start and 3 resumes
    assert doc["end"]["call"]["value"]["r"] == "5"


def test_an_async_generator_yields_its_values_not_cpythons_wrapper(shown):
    """CPython hands tracers an async generator's yielded value inside a wrapper of its own type."""
    # Stepped by hand, not by asyncio.run: another test's event loop (Playwright's) may be running here.
    doc = shown("step = counted(3)\ntry:\n    step.send(None)\nexcept StopIteration as done:\n    print(done.value)\n")
    assert doc["stdout_text"] == "[3, 2, 1]\n"
    countdown = {f["id"] for f in doc["frames"] if f["function"] == "countdown"}
    kinds, frames = doc["events"]["kind"], doc["events"]["frame"]
    yielded = [doc["values"][ref]["r"] for event, ref in doc["returns"] if frames[event] in countdown]
    assert yielded == ["3", "2", "1", "None"], yielded     # three yields, then its end
    assert all(kinds[event] == "r" for event, _ in doc["returns"])


def test_temp_files_are_collected_then_removed(shown):
    setup = 'import tempfile\n_temp = tempfile.TemporaryDirectory(prefix="lesson8-")\n'
    doc = shown("write(_temp.name, 'hello <b>')\n", setup=setup)
    assert len(doc["files"]) == 1
    file = doc["files"][0]
    assert file["name"] == "note.txt" and file["size"] == 9 and file["preview"] == "hello <b>"
    assert file["path"].startswith("lesson8-") and not file["truncated"]
    assert not [n for n in os.listdir(tempfile.gettempdir()) if n == file["path"].split("/")[0]]


def test_untraced_mode(shown):
    doc = shown("partial()\n", record=False)
    assert doc["backend"] == "none" and doc["events"]["kind"] == "" and doc["stdout_text"] == "abc\n"
    assert doc["end"]["status"] == "returned"


@pytest.mark.parametrize("record", [False, True])
def test_a_recursion_limit_left_just_above_the_program_still_gives_a_trace(shown, record):
    """The recorder's teardown (the deadline's disarming, the document) runs after the program's code,
    once the limit the run started with is back: a program may leave it just above its own depth."""
    before = sys.getrecursionlimit()
    entry = ("import sys\ndepth, frame = 0, sys._getframe()\nwhile frame is not None:\n"
             "    depth, frame = depth + 1, frame.f_back\nfor extra in range(2, 60):\n    try:\n"
             "        sys.setrecursionlimit(depth + extra)\n        break\n    except RecursionError:\n"
             "        pass\n")
    doc = shown(entry, record=record)
    assert doc["end"]["status"] == "returned", doc["end"]
    assert sys.getrecursionlimit() == before


def test_the_capture_streams_take_and_tell_what_real_ones_do(shown):
    entry = ("import sys\nclass Tagged(str):\n    def __str__(self):\n        return 'tagged!'\n"
             "sys.stdout.write(Tagged('subclass text\\n'))\n"
             "print(sys.stdout.name, sys.stderr.name, sys.stdout.mode, sys.stdout.encoding)\n"
             "try:\n    sys.stdout.write(b'bytes')\nexcept TypeError as error:\n    print(error)\n")
    doc = shown(entry)
    assert doc["stdout_text"] == "subclass text\n<stdout> <stderr> w utf-8\nwrite() argument must be str, not bytes\n"


def test_wrong_source_or_backend_is_refused(shown):
    with pytest.raises(RunnerError, match="not the shown source"):
        run_case("py/other.py", shown.name, "", "pass\n")
    with pytest.raises(RunnerError, match="unknown backend"):
        run_case(shown.source, shown.name, "", "pass\n", backend="magic")
    with pytest.raises(RunnerError, match="cannot import"):
        run_case("nope.py", "no_such_module_here", "", "pass\n")


# A generator that catches one exception thrown in and is left by the next (settrace on 3.12+ finds both
# a yield and such an exit at the same RESUME).
THROWN_IN = ("c = catcher()\nnext(c)\nprint(c.throw(ValueError))\n"
             "try:\n    c.throw(KeyError)\nexcept KeyError:\n    print('out')\n")


@pytest.mark.parametrize("entry", [THROWN_IN, "outer(1)\n", "mutate()\n", "partial()\n", "squares(4)\n",
                                   "try:\n    fail(1)\nexcept ValueError:\n    pass\n", "count(50)\n"])
def test_backends_record_the_same(shown, entry):
    """Both backends give the same trace (also checked in Pyodide 3.14, test_recorder_pyodide.py);
    an interpreter without sys.monitoring refuses that backend by name."""
    if not monitor.available():
        with pytest.raises(RunnerError, match="needs Python 3.12"):
            shown(entry, backend="monitoring")
        return
    a = shown(entry, backend="settrace")
    b = shown(entry, backend="monitoring")
    for key in ("frames", "events", "values", "locals", "returns", "exceptions", "stdout"):
        assert a[key] == b[key], key


def test_auto_backend_choice(shown):
    expected = "monitoring" if monitor.available() else "settrace"
    assert shown("outer(1)\n")["backend"] == expected


# -- CLI -------------------------------------------------------------------------------------
def cli_run(capsys, *args):
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_and_summary(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code, out, _ = cli_run(capsys, "trace", "py/s08/core/runtime.py", "--scenario", "scenarios/s08.toml",
                           "--function", "split_history", "--case", "normal")
    assert code == 0
    doc = json.loads(out)
    assert doc["function"] == "split_history" and doc["end"]["status"] == "returned"
    code, out, _ = cli_run(capsys, "trace", "py/s08/core/runtime.py", "--scenario", "scenarios/s08.toml",
                           "--function", "split_history", "--case", "pending", "--summary")
    assert code == 0
    assert "call split_history()" in out and "raise if (len(messages) - 1) % 2:" not in out
    assert "!! ValueError: 工具结果尚未收齐，不能压缩。" in out and "stdout: '工具结果尚未收齐，不能压缩。\\n'" in out


@pytest.mark.parametrize("args, message", [
    (["--function", "nope", "--case", "normal"], "unknown function 'nope'"),
    (["--function", "split_history", "--case", "trim"], "unknown case 'trim'"),
    (["--function", "split_history", "--case", "normal", "--scenario", "missing.toml"], "missing.toml"),
])
def test_cli_authoring_mistakes_exit_2(capsys, monkeypatch, args, message):
    monkeypatch.chdir(REPO)
    base = ["trace", "py/s08/core/runtime.py"]
    if "--scenario" not in args:
        base += ["--scenario", "scenarios/s08.toml"]
    code, out, err = cli_run(capsys, *base, *args)
    assert code == 2 and message in err and out == ""


def test_cli_wrong_source_exits_2(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code, _, err = cli_run(capsys, "trace", "py/s01/core/loop.py", "--scenario", "scenarios/s08.toml",
                           "--function", "split_history", "--case", "normal")
    assert code == 2 and "not 'py/s01/core/loop.py'" in err


def test_worked_example_in_the_format_doc_is_current(tmp_path, monkeypatch):
    """docs/trace-format.md shows a real trace; it must still be what the recorder writes."""
    import re
    text = (REPO / "docs" / "trace-format.md").read_text(encoding="utf-8")
    source = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    expected = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    package = tmp_path / "demo"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "shown.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("demo", "demo.shown"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    doc = json.loads(run_case("demo/shown.py", "demo.shown", "from demo.shown import outer\n",
                              "result = outer(1)\n", function="outer", case="one", backend="settrace"))
    doc["end"]["ms"] = doc["stats"]["elapsed_ms"] = 0.05
    doc["python"] = expected["python"]
    assert doc == expected


DEEP = '''\
def deep():
    candidate = [{"role": "user", "content": "q"},
                 {"role": "assistant", "content": [{"type": "tool_use", "id": "c1"}]},
                 {"role": "user", "content": [{"type": "tool_result", "content": "long body" * 50}]}]
    other = 1
    candidate[2]["content"][0]["content"] = "moved"
    other = 2
    wide = list(range(40))
    wide[30] = "beyond the shown items"
    other = 3
    return candidate


def counts(words):
    seen = {}
    for word in words:
        seen[word] = seen.get(word, 0) + 1
    return seen
'''


@pytest.fixture
def deep_module(tmp_path):
    name = "deep_" + uuid.uuid4().hex[:8]
    (tmp_path / f"{name}.py").write_text(DEEP, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))

    def trace(entry: str, **kw) -> dict:
        doc = json.loads(run_case(f"{name}.py", name, f"from {name} import *\n", entry, **kw))
        check_document(doc)
        assert doc["stats"]["internal_errors"] == []
        return doc
    yield trace
    sys.path.remove(str(tmp_path))
    sys.modules.pop(name, None)


def _delta_after(doc: dict, line: int) -> dict:
    """The locals delta of the event right after the one at `line` (when its effect shows)."""
    at = doc["events"]["line"].index(line)
    return next((d for d in doc["locals"] if d["i"] == at + 1), {"set": {}})


@pytest.mark.parametrize("backend", ["settrace", "monitoring"] if monitor.available() else ["settrace"])
def test_deep_in_place_mutation_marks_the_outer_name(deep_module, backend):
    doc = deep_module("deep()\n", backend=backend)
    lines = DEEP.splitlines()
    moved = lines.index('    candidate[2]["content"][0]["content"] = "moved"') + 1
    delta = _delta_after(doc, moved)
    assert set(delta["set"]) == {"candidate"}
    shown = doc["values"][delta["set"]["candidate"]]
    assert shown["items"][2]["entries"][1][1]["items"][0]["entries"][1][1]["v"] == "moved"
    # a change past the items cap is invisible in the preview: no delta, no error
    beyond = lines.index('    wide[30] = "beyond the shown items"') + 1
    assert "wide" not in _delta_after(doc, beyond)["set"]
    final = locals_at(doc, len(doc["events"]["kind"]) - 1)[1]
    assert final["wide"]["len"] == 40 and final["other"]["r"] == "3"


def test_flat_dict_counts_every_visible_change(deep_module):
    words = ["a", "b", "a", "c", "b", "a"]
    doc = deep_module(f"counts({words!r})\n")
    seen_line = DEEP.splitlines().index("        seen[word] = seen.get(word, 0) + 1") + 1
    table = doc["events"]
    states = [locals_at(doc, i + 1)[1]["seen"]["r"] for i, line in enumerate(table["line"]) if line == seen_line]
    assert states == ["{'a': 1}", "{'a': 1, 'b': 1}", "{'a': 2, 'b': 1}", "{'a': 2, 'b': 1, 'c': 1}",
                      "{'a': 2, 'b': 2, 'c': 1}", "{'a': 3, 'b': 2, 'c': 1}"]


def test_settrace_on_312_plus_tells_a_yield_from_an_exception_thrown_in():
    """CPython 3.12+ under settrace reports a yield's return with the frame at the RESUME after its
    YIELD_VALUE, and an exception thrown in and leaving at that same RESUME: only this frame's
    exception event just before tells them apart. Checked here with 3.11's own generator bytecode
    (the backends are compared on real 3.13 traces by test_backends_record_the_same)."""
    import dis
    from types import SimpleNamespace

    from steptrace.recorder import EXCEPTION, LINE, Recorder

    def gen():
        yield 1
    after_yield = [i.offset for i in dis.get_instructions(gen) if i.opname == "RESUME" and i.arg in (1, 2)]
    start = [i.offset for i in dis.get_instructions(gen) if i.opname == "RESUME" and i.arg == 0]
    recorder = Recorder("x.py", max_events=1_000)
    state = SimpleNamespace(id=7)
    chunk = recorder.table.current
    at = lambda offset: SimpleNamespace(f_code=gen.__code__, f_lasti=offset)  # noqa: E731
    chunk.kinds.append(LINE), chunk.frames.append(7)
    assert recorder._resumes_after_yield(state, at(after_yield[0]))            # a yield
    assert not recorder._resumes_after_yield(state, at(start[0]))              # not after a yield
    chunk.kinds.append(EXCEPTION), chunk.frames.append(8)
    assert recorder._resumes_after_yield(state, at(after_yield[0]))            # another frame's exception
    chunk.kinds.append(EXCEPTION), chunk.frames.append(7)
    assert not recorder._resumes_after_yield(state, at(after_yield[0]))        # thrown in, and leaving

    class Tick:
        def __await__(self):
            yield

    async def waits():
        await Tick()
    after_await = [i.offset for i in dis.get_instructions(waits) if i.opname == "RESUME" and i.arg == 3]
    chunk.kinds.append(LINE), chunk.frames.append(7)
    assert after_await and recorder._resumes_after_yield(
        state, SimpleNamespace(f_code=waits.__code__, f_lasti=after_await[0]))   # an await suspends it too


GROWING_GRAPH = '''\
class Node:
    def __init__(self, i, parent):
        self.i = i
        self.parent = parent


def grow(n):
    queue = [Node(0, None)]
    for i in range(1, n):
        queue.insert(0, Node(i, queue[0]))
    return len(queue)
'''


def _nodes(preview: object) -> int:
    if type(preview) is list:
        return sum(map(_nodes, preview))
    if type(preview) is not dict:
        return 0
    return 1 + sum(_nodes(preview.get(key)) for key in ("items", "entries", "fields"))


def test_previews_of_a_big_changing_graph_are_bounded_not_only_events(tmp_path, monkeypatch):
    """Each step changes the shown head of a list of chained objects (a list appended to is written as a
    length a step instead), so each makes a preview of up to 400 nodes: the run
    keeps at most `PREVIEW_NODES` of them (chunks close early, the middle is dropped as a gap), however
    many events it may keep."""
    from steptrace import recorder
    monkeypatch.setattr(recorder, "PREVIEW_NODES", 30_000)
    (tmp_path / "growing_graph.py").write_text(GROWING_GRAPH, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    doc = json.loads(run_case("growing_graph.py", "growing_graph", "from growing_graph import grow\n",
                              "grow(1500)\n", backend="settrace"))
    shown = sum(map(_nodes, doc["values"]))
    assert doc["end"]["status"] == "returned" and doc["stats"]["events"] == 9003
    assert doc["gap"] is not None and doc["stats"]["kept"] < doc["stats"]["events"]
    assert shown <= 1.2 * 30_000, shown       # full snapshots at each chunk's start are not counted
    check_document(doc)


GROWING = '''\
def grow(n):
    items = []
    table = {}
    text = "x" * 250
    for i in range(n):
        items.append(i * i)
        table[i] = str(i)
        text += chr(97 + i % 26)
    return len(items)
'''


@pytest.mark.parametrize("max_events", [1_000_000, 4_000])
def test_a_growing_list_dict_and_text_are_written_a_length_a_step(tmp_path, monkeypatch, max_events):
    """Appended to past what its preview shows, a list, a dict or a text previews as before but for its
    length: written as a `like` of the entry before (a few dozen bytes), rebuilt exactly, also past a gap."""
    (tmp_path / "growing.py").write_text(GROWING, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    text = run_case("growing.py", "growing", "from growing import grow\n", "grow(3000)\n", backend="settrace",
                    max_events=max_events)
    doc = json.loads(text)
    check_document(doc)
    assert doc["end"]["status"] == "returned" and doc["stats"]["events"] == 4 * 3000 + 7
    fresh = Previewer()
    compared = 0
    for delta in doc["locals"]:
        for name, ref in delta["set"].items():
            shown = value_at(doc, ref)
            if name == "items":
                expected = fresh.preview([i * i for i in range(shown["len"])])
            elif name == "table":
                expected = fresh.preview({i: str(i) for i in range(shown["len"])})
            elif name == "text":
                expected = fresh.preview("x" * 250 + "".join(chr(97 + i % 26) for i in range(shown["len"] - 250)))
            else:
                continue
            assert unnumbered(shown) == expected, (delta["i"], name)
            compared += 1
    assert compared > 0.7 * doc["stats"]["kept"] and (doc["gap"] is None) == (max_events > 5000)
    whole = [v for v in doc["values"] if "like" not in v and v["t"] in ("list", "dict", "str")]
    assert len(whole) < 3 * 40, len(whole)          # the whole previews: a few a chunk
    assert len(text) / doc["stats"]["kept"] < 120, len(text) / doc["stats"]["kept"]   # ~60 of them the delta


CHANGING_TEXT = '''\
def shift(n):
    text = "a" * 300
    for i in range(n):
        text = text[1:] + chr(97 + i % 26)
        try:
            raise ValueError(str(i) + "x" * 1000)
        except ValueError:
            pass
    return len(text)
'''


def test_long_texts_and_exception_messages_weigh_by_their_length(tmp_path, monkeypatch):
    """A string preview is one node but ~550 bytes, an exception's message up to 2,000 characters: both
    count by their text against the same bound, so the kept trace stays about as big as the budget says."""
    from steptrace import recorder
    monkeypatch.setattr(recorder, "PREVIEW_NODES", 30_000)
    (tmp_path / "changing_text.py").write_text(CHANGING_TEXT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    text = run_case("changing_text.py", "changing_text", "from changing_text import shift\n", "shift(20_000)\n",
                    backend="settrace")
    doc = json.loads(text)
    assert doc["end"]["status"] == "returned" and doc["gap"] is not None
    assert len(text) < 30_000 * 70 * 1.5, len(text)      # ~70 bytes of JSON a node
    check_document(doc)


def test_namespace_packages_of_the_lesson_are_forgotten_with_their_parents(tmp_path, monkeypatch):
    """A folder without `__init__.py` under the lesson tree is a namespace package with no file. It is
    forgotten between runs like the rest of the tree: kept while its parent went, the next import below it
    failed (KeyError), on the first run when the shown module lives in it, on every later run when the
    setup imports through it."""
    for folder in ("pkg/sub", "lib/sub"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "lib" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "sub" / "shown.py").write_text("def main():\n    print('ran')\n", encoding="utf-8")
    (tmp_path / "pkg" / "shown2.py").write_text("def main(h):\n    print(h.VALUE)\n", encoding="utf-8")
    (tmp_path / "lib" / "sub" / "helper.py").write_text("VALUE = 42\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    cases = [("pkg/sub/shown.py", "pkg.sub.shown", "from pkg.sub.shown import main\n", "main()\n", "ran\n"),
             ("pkg/shown2.py", "pkg.shown2", "from pkg.shown2 import main\nimport lib.sub.helper as h\n",
              "main(h)\n", "42\n")]
    for source, module, setup, entry, printed in cases:
        for record in (True, False, True):
            doc = json.loads(run_case(source, module, setup, entry, record=record))
            assert (doc["end"]["status"], doc["stdout_text"]) == ("returned", printed), doc["end"]
    assert not [name for name in sys.modules if name.split(".")[0] in ("pkg", "lib")]


def test_the_lesson_root_of_a_namespace_package_is_the_folder_it_was_found_in(tmp_path, monkeypatch):
    """A shown module in a top-level namespace package: the lesson tree is the folder holding the package,
    not the one above it, so a module of another sys.path entry beside it is not the lesson's (it was
    forgotten at every run, and imported afresh with its state lost)."""
    (tmp_path / "lessons" / "shapes").mkdir(parents=True)
    (tmp_path / "tools").mkdir()
    (tmp_path / "lessons" / "shapes" / "area.py").write_text("def square(n):\n    return n * n\n", encoding="utf-8")
    (tmp_path / "tools" / "counter_of_the_caller.py").write_text("calls = 0\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "tools"))
    monkeypatch.syspath_prepend(str(tmp_path / "lessons"))
    import counter_of_the_caller
    counter_of_the_caller.calls = 41
    from steptrace.runner import lesson_root
    assert lesson_root("shapes.area") == str(tmp_path / "lessons")
    doc = json.loads(run_case("shapes/area.py", "shapes.area", "from shapes.area import square\n",
                              "print(square(3))\n"))
    assert doc["stdout_text"] == "9\n"
    assert sys.modules.get("counter_of_the_caller") is counter_of_the_caller and counter_of_the_caller.calls == 41
    del sys.modules["counter_of_the_caller"]


def test_a_shown_module_in_one_portion_of_a_split_namespace_package_starts_afresh_each_run(tmp_path, monkeypatch):
    """A namespace package may have portions in several sys.path entries: the lesson tree is the entry that
    holds the shown module's file (not the first portion's), so its module state starts afresh each run."""
    for portion in ("first", "second"):
        (tmp_path / portion / "shapes").mkdir(parents=True)
    (tmp_path / "first" / "shapes" / "other.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "second" / "shapes" / "area.py").write_text(
        "RUNS = []\n\ndef main():\n    RUNS.append(1)\n    print(len(RUNS))\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "second"))
    monkeypatch.syspath_prepend(str(tmp_path / "first"))
    from steptrace.runner import lesson_root
    assert lesson_root("shapes.area") == str(tmp_path / "second")
    printed = [json.loads(run_case(str(tmp_path / "second" / "shapes" / "area.py"), "shapes.area",
                                   "from shapes.area import main\n", "main()\n"))["stdout_text"] for _ in range(3)]
    assert printed == ["1\n"] * 3
    for name in [name for name in sys.modules if name.split(".")[0] == "shapes"]:
        del sys.modules[name]


HANDLER_LOOP = '''\
LOG = []


class Loud(Exception):
    def __del__(self):
        LOG.append("freed")


def main():
    log = LOG
    total = 0
    for i in range(30):
        total += i
        if i % 10 == 0:
            try:
                raise Loud(i)
            except Loud as error:
                total += 1
        total *= 1
    return total, len(log)
'''


def test_a_loop_around_a_named_handler_shows_every_step_as_it_is(tmp_path, monkeypatch):
    """`except ... as error` unbinds `error` as the handler ends (its finalizer runs then): every look of
    the loop around it agrees with a fresh preview of every local (`check_looks`), on both backends."""
    (tmp_path / "named_handler.py").write_text(HANDLER_LOOP, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for backend in ["settrace", "monitoring"] if monitor.available() else ["settrace"]:
        doc = json.loads(run_case("named_handler.py", "named_handler", "from named_handler import main\n",
                                  "print(main())\n", backend=backend, check_looks=True))
        assert doc["stdout_text"] == "(438, 3)\n" and doc["stats"]["internal_errors"] == []
        assert doc["stats"]["stale_looks"] == []
        shown = [index for index in range(len(doc["events"]["kind"]))
                 if "error" in next(iter(locals_at(doc, index).values()), {})]
        assert len(shown) >= 3, "the handler's `error` is shown while it is bound"


HELPED = '''\
def work(xs, fn):
    total = 0
    for x in xs:
        total += fn(x)
    return total


def twice(x):
    return 2 * x


def outer(fn, gen):
    y = fn(twice(3))
    items = list(gen(1000))
    return y, len(items)
'''


@pytest.mark.parametrize("backend", ["settrace", "monitoring"] if monitor.available() else ["settrace"])
def test_a_setup_helper_called_by_the_shown_code_is_noted_at_its_step(fresh_module, backend):
    """The case's helpers are not recorded, but the step that called one says so (issue 31): only a call
    straight from a shown frame, not the helper's own calls, not the setup's or the entry's."""
    setup = ("def inner(v):\n    return v\n"
             "def double(v):\n    return inner(v) * 2\n"
             "double(0)\n")
    doc = json.loads(fresh_module(HELPED, "helped")("work([1, 2, 3], double)\n", setup=setup, backend=backend))
    table = events(doc)
    assert [name for _, name in doc["helpers"]] == ["double"] * 3
    assert all(table[at][:2] == ("l", 4) for at, _ in doc["helpers"])
    assert len({at for at, _ in doc["helpers"]}) == 3


@pytest.mark.parametrize("backend", ["settrace", "monitoring"] if monitor.available() else ["settrace"])
def test_a_helper_is_noted_at_its_callers_line_once(fresh_module, backend):
    """`fn(twice(3))`: the helper starts after `twice` returned, and is noted at the caller's line, not at
    twice's return; a setup generator resumed 1,000 times by one `list(...)` is noted once."""
    setup = "def plus(v):\n    return v + 1\ndef count(n):\n    yield from range(n)\n"
    doc = json.loads(fresh_module(HELPED, "helped")("outer(plus, count)\n", setup=setup, backend=backend))
    table = events(doc)
    lines = HELPED.splitlines()
    noted = [(table[at][0], lines[table[at][1] - 1].strip(), helper) for at, helper in doc["helpers"]]
    assert noted == [("l", "y = fn(twice(3))", "plus"), ("l", "items = list(gen(1000))", "count")]


CLOSED = '''\
def counter():
    count = 0
    label = "n"

    def bump():
        nonlocal count
        count += 1
        return label + str(count)
    bump()
    return bump()
'''


@pytest.mark.parametrize("backend", ["settrace", "monitoring"] if monitor.available() else ["settrace"])
def test_a_frames_closure_cells_are_named(fresh_module, backend):
    """Which locals are a closure's cells (a Closure scope on the page): the inner frames' free variables,
    nothing for the outer frame, whose cells are its own locals."""
    doc = json.loads(fresh_module(CLOSED, "closed")("counter()\n", backend=backend))
    functions = {frame["id"]: frame["function"] for frame in doc["frames"]}
    assert [(functions[fid], names) for fid, names in doc["closures"]] == [("bump", ["count", "label"])] * 2
    last_bump = doc["closures"][-1][0]
    assert set(locals_at(doc, len(doc["events"]["kind"]) - 1)[last_bump]) == {"count", "label"}


def test_closure_rows_are_only_for_frames_the_trace_keeps(fresh_module):
    """A closure called 20,000 times under a small event capacity: its forgotten frames leave no rows."""
    many = CLOSED + "\n\ndef many(n):\n    for _ in range(n):\n        counter()\n"
    doc = json.loads(fresh_module(many, "closed")("many(20_000)\n", max_events=2000))
    kept = {frame["id"] for frame in doc["frames"]}
    assert doc["gap"] is not None and doc["closures"]
    assert {fid for fid, _ in doc["closures"]} <= kept
