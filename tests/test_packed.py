"""The packed form of a trace (what the worker sends the page) replays exactly like the JSON document.

Each run below is recorded once (CPython, settrace) and written in both forms from the same
recorder; tests/js/forms-agree.mjs then replays both with the page's engine, plus the packed
form taken apart and revived as the worker sends it, and compares every query at every event.
Programs: every lesson case, the adversarial programs that run safely in this process (generators,
deleted names, weakrefs, objects, exceptions, deep recursion, a runaway loop with a gap), and a few
of our own for what only numbers kept raw can get wrong (floats, big ints, bools vs ints).
"""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from object_numbers import unnumbered

REPO = Path(__file__).resolve().parents[1]
PROGRAMS = REPO / "tests" / "adversarial" / "programs"
ADVERSARIAL = ["generators", "objects", "del_and_weakref", "dag_lists", "deep_recursion", "exception_group",
               "string_rebinding", "class_body_keys", "set_lt", "stale_mutations", "wrappers", "module_state",
               "return_in_finally", "recursion_error", "runaway_plain", "deep_nesting", "bare_reraise"]

NUMBERS = '''\
def numbers(n):
    x = 0.1
    big = 2 ** 53
    for i in range(n):
        x = x * 3 + 1e-7
        neg = -0.0 if i % 2 else 0.0
        flag = i % 3 == 0
        same = 1 if flag else True
        big = big * 1000 + i
        nan = float("nan") if i % 2 else float("inf")
        small = 10.0 ** -(i % 400)
        huge = 10.0 ** (i % 70 * 4)
        del neg
    return x
'''

GROWING = '''\
def grow(n):
    items, table, text = [], {}, "x" * 250
    for i in range(n):
        items.append(i * i)
        table[i] = [i]
        text += chr(97 + i % 26)
    return len(items)
'''

DEEP = '''\
def down(n, a, b):
    x = n * 2
    y = [n, a]
    z = {"k": n, "j": [a, b, (n, x)]}
    return down(n + 1, a + 1, b)


def main():
    total = 0
    for t in range(6):
        try:
            down(0, 1, "s")
        except RecursionError:
            total += 1
        m = [t, total]
    return total
'''

RECORD = r'''
import base64, json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from steptrace import runner, values

intern, interrupt = values.ValuePool.intern, [0, 0]


def interrupting(self, preview, *rest):
    """Stop (as the page's Stop does) in the middle of writing a locals delta, at the Nth preview."""
    interrupt[1] += 1
    if interrupt[1] == interrupt[0]:
        raise KeyboardInterrupt
    return intern(self, preview, *rest)


values.ValuePool.intern = interrupting

for line in sys.stdin:
    job = json.loads(line)
    interrupt[:] = [job.get("interrupt_at", 0), 0]
    recording = runner.record_case(job["source"], job["module"], job["setup"], job["entry"], backend="settrace",
                                   max_events=job.get("max_events", 1_000_000),
                                   time_limit=job.get("time_limit", 10.0))
    both = {"json": recording.written("json"), "packed": recording.written("packed")}
    packed = both["packed"]
    packed["columns"] = {k: base64.b64encode(v).decode() for k, v in packed["columns"].items()}
    print(json.dumps({"name": job["name"], "json": both["json"], "packed": packed}), flush=True)
'''


def jobs(tmp: Path) -> list[dict]:
    from stepwise import scenario

    sys.path.insert(0, str(PROGRAMS.parent))
    from harness import directives
    sys.path.remove(str(PROGRAMS.parent))
    lesson = scenario.load(REPO / "scenarios" / "s08.toml")
    found = []
    for function in lesson.functions:
        for case in lesson.cases_for(function):
            setup, entry = lesson.code(function, case)
            found.append({"name": f"{function}/{case}", "source": lesson.source, "module": lesson.module,
                          "setup": setup, "entry": entry})
    for name in ADVERSARIAL:
        seen = directives(str(PROGRAMS / f"{name}.py"))
        found.append({"name": name, "source": f"{name}.py", "module": name, "time_limit": 1.0,
                      "max_events": 20_000 if name == "runaway_plain" else 1_000_000,
                      "setup": seen.get("setup", f"from {name} import *\n"),
                      "entry": seen.get("entry", "main()") + "\n"})
    (tmp / "stepwise_numbers.py").write_text(NUMBERS, encoding="utf-8")
    found.append({"name": "numbers", "source": "stepwise_numbers.py", "module": "stepwise_numbers",
                  "setup": "from stepwise_numbers import numbers\n", "entry": "numbers(40)\n"})
    found.append({"name": "numbers with a gap", "source": "stepwise_numbers.py", "module": "stepwise_numbers",
                  "setup": "from stepwise_numbers import numbers\n", "entry": "numbers(3000)\n", "max_events": 5_000})
    (tmp / "stepwise_growing.py").write_text(GROWING, encoding="utf-8")
    for limit in (1_000_000, 3_000):        # values written as a `like` of one before, and past a gap
        found.append({"name": f"growing ({limit})", "source": "stepwise_growing.py", "module": "stepwise_growing",
                      "setup": "from stepwise_growing import grow\n", "entry": "grow(1500)\n", "max_events": limit})
    (tmp / "stepwise_deep.py").write_text(DEEP, encoding="utf-8")
    found.append({"name": "the recursion limit, with containers in every frame", "source": "stepwise_deep.py",
                  "module": "stepwise_deep", "setup": "import sys\nsys.setrecursionlimit(120)\n"
                  "from stepwise_deep import main\n", "entry": "main()\n"})
    for at in (3, 20, 45):
        found.append({"name": f"stopped while writing a delta ({at})", "source": "stepwise_deep.py",
                      "module": "stepwise_deep", "interrupt_at": at,
                      "setup": "from stepwise_deep import down\n", "entry": "down(0, 1, 's')\n"})
    return found


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> list[dict]:
    tmp = tmp_path_factory.mktemp("packed")
    todo = jobs(tmp)
    recorded = subprocess.run([sys.executable, "-c", RECORD, str(REPO / "py"), str(PROGRAMS)], cwd=tmp,
                              input="".join(json.dumps(job) + "\n" for job in todo), capture_output=True, text=True,
                              timeout=600, env={**os.environ, "PYTHONPATH": f"{tmp}{os.pathsep}{PROGRAMS}"})
    runs = [json.loads(line) for line in recorded.stdout.splitlines() if line.startswith('{"name"')]
    assert len(runs) == len(todo), recorded.stderr[-3000:]
    replayed = subprocess.run(["node", str(REPO / "tests" / "js" / "forms-agree.mjs")], capture_output=True,
                              text=True, timeout=600, input="".join(json.dumps(run) + "\n" for run in runs))
    answers = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert len(answers) == len(runs), replayed.stderr[-3000:]
    for run, answer in zip(runs, answers, strict=True):
        answer["name"] = run["name"]
        answer["doc"] = json.loads(run["json"])
        answer["packed"] = run["packed"]
    return answers


def test_every_run_replays_alike_in_both_forms(compared):
    for answer in compared:
        assert answer["mismatches"] == [], f"{answer['name']}: {json.dumps(answer['mismatches'])[:3000]}"
    assert sum(answer["events"] for answer in compared) > 20_000


def test_a_like_is_rebuilt_on_the_page_as_the_recorder_saw_it(compared):
    """A growing list, dict and text, written as `like`s: the page's last view of them is a fresh preview."""
    from steptrace.previews import Previewer

    fresh = Previewer()
    for answer in compared:
        if not answer["name"].startswith("growing"):
            continue
        assert any("like" in value for value in answer["doc"]["values"])
        last = answer["last"]
        n = last["items"]["len"]
        assert n == last["table"]["len"] > 1000, answer["name"]
        assert unnumbered(last["items"]) == fresh.preview([i * i for i in range(n)])
        assert unnumbered(last["table"]) == fresh.preview({i: [i] for i in range(n)})
        assert last["text"] == fresh.preview("x" * 250 + "".join(chr(97 + i % 26) for i in range(n)))


def test_the_runs_cover_what_the_packed_form_must_carry(compared):
    """Not a vacuous comparison: gaps, deletions, raw numbers of every kind and JSON previews occur."""
    by_name = {answer["name"]: answer for answer in compared}
    assert by_name["runaway_plain"]["doc"]["gap"] is not None
    assert by_name["numbers with a gap"]["doc"]["gap"] is not None
    assert any(answer["packed"]["header"].count('"deleted":[[') for answer in compared)
    kinds = set()
    for answer in compared:
        kinds |= set(base64.b64decode(answer["packed"]["columns"]["value_kind"]))
    assert kinds == {0, 1, 2, 3, 4}
    shown = json.dumps(by_name["numbers"]["doc"]["values"])
    for text in ('"r": "-0.0"', '"r": "nan"', '"r": "inf"', '"r": "1e-05"', '"r": "1e+16"', '<int with'):
        assert text in shown, text


def test_float_previews_match_python_repr():
    """The page writes a raw float as Python would (repr), for doubles of every size and layout."""
    import random
    import struct
    rng = random.Random(8)
    doubles = [struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(20_000)]
    doubles += [rng.uniform(-1e6, 1e6) for _ in range(5_000)] + [round(rng.uniform(-100, 100), 2) for _ in range(2_000)]
    doubles += [0.0, -0.0, 1.0, 1e16, 1e15, 9999999999999998.0, 1e-4, 1e-5, 0.1 + 0.2, 5e-324, 1.7976931348623157e308,
                float("nan"), float("inf"), float("-inf"), 123456789.0, 2.0 ** 53, 1 / 3]
    script = ("import { pythonFloatRepr } from './site/js/trace-columns.js';\n"
              "import { readFileSync } from 'node:fs';\n"
              "const bits = readFileSync(0);\n"
              "const values = new Float64Array(bits.buffer, bits.byteOffset, bits.length / 8);\n"
              "process.stdout.write(JSON.stringify(Array.from(values, pythonFloatRepr)));\n")
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=REPO, capture_output=True,
                          input=struct.pack(f"<{len(doubles)}d", *doubles), timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    got = json.loads(done.stdout)
    wrong = [(repr(x), text) for x, text in zip(doubles, got, strict=True) if repr(x) != text]
    assert wrong == []


def test_a_chunk_sealed_after_an_interrupt_is_whole(monkeypatch):
    """The chunk being written keeps lists and packs them into arrays when it closes; an interrupt (what
    Pyodide's interrupt buffer raises between two bytecodes) in the middle of that must leave a chunk
    the next seal finishes, or packing the trace fails."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))
    from array import array

    from steptrace import table

    chunk = table.Chunk(0)
    chunk.kinds += [ord("c"), ord("l")]
    chunk.lines += [1, 2]
    chunk.frames += [1, 1]
    chunk.delta_event.append(0)
    chunk.delta_sets.append(0)
    chunk.full_rows.append(0)

    class Interrupting(tuple):
        def __iter__(self):
            for number, name in enumerate(tuple.__iter__(self)):
                if number == 2:
                    raise KeyboardInterrupt
                yield name

    monkeypatch.setattr(table, "_INT_COLUMNS", Interrupting(table._INT_COLUMNS))
    with pytest.raises(KeyboardInterrupt):
        chunk.seal()
    assert not chunk.sealed
    monkeypatch.undo()
    chunk.seal()
    assert chunk.sealed and type(chunk.kinds) is bytearray and chunk.full_rows == [0]
    assert all(type(getattr(chunk, name)) is array for name in table._INT_COLUMNS)
    assert list(chunk.lines) == [1, 2] and list(chunk.delta_event) == [0]


READ_BY_THE_PAGE = (
    "import { fromPacked } from './site/js/trace-columns.js';\n"
    "import { Replay } from './site/js/replay.js';\n"
    "import { readFileSync } from 'node:fs';\n"
    "const p = JSON.parse(readFileSync(0, 'utf8'));\n"
    "const columns = Object.fromEntries(\n"
    "  Object.entries(p.columns).map(([k, v]) => [k, Buffer.from(v, 'base64')]));\n"
    "try { new Replay(fromPacked({ ...p, columns })); console.log('read'); }\n"
    "catch (e) { console.log(e.message); }\n")


def read_by_the_page(packed: dict) -> str:
    """What the page's engine says of a packed trace (columns base64, as `compared` holds them): "read",
    or the message it refuses it with."""
    done = subprocess.run(["node", "--input-type=module", "-e", READ_BY_THE_PAGE], cwd=REPO, capture_output=True,
                          text=True, input=json.dumps(packed), timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_delta_outside_the_event_table_is_refused_with_its_place(compared):
    """The packed form leaves out each delta's frame (the page takes its event's): a delta at an event
    the table does not have must be named, not read as some frame's locals."""
    import struct
    packed = dict(compared[0]["packed"], columns=dict(compared[0]["packed"]["columns"]))
    assert read_by_the_page(packed).strip() == "read"
    events = len(base64.b64decode(packed["columns"]["kind"]))
    deltas = bytearray(base64.b64decode(packed["columns"]["delta_event"]))
    assert len(deltas) >= 8
    deltas[4:8] = struct.pack("<i", events)
    packed["columns"]["delta_event"] = base64.b64encode(bytes(deltas)).decode()
    said = read_by_the_page(packed)
    assert "locals[1].i is not an event index" in said, said


def test_a_packed_trace_of_another_form_is_refused_with_what_to_do(compared):
    """A page and a worker from two builds (one cached) must not misread each other's columns."""
    packed = dict(compared[0]["packed"])
    packed["header"] = packed["header"].replace('"packed":2', '"packed":1')
    assert packed["header"] != compared[0]["packed"]["header"]
    said = read_by_the_page(packed)
    assert "packed trace form 1 (this page reads 2): reload the page" in said, said
