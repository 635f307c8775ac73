"""The end is always kept (issue 29, item 3): whatever a run's capacity drops from its middle, each frame
with an event in the kept tail shows there what it showed in the same run kept whole: at its last kept event
(a return's final values, a frame still running at the stop) and at every other kept event.

Each program is recorded twice, whole and with a small capacity; frame ids and run-wide event indexes are
the same in both (the run is the same), so the kept tail is compared event by event."""
from __future__ import annotations

import json
import sys
import textwrap
import uuid

import pytest
from test_recorder import check_document, locals_at, value_at
from test_recorder_pyodide import shown_module

from steptrace.runner import run_case

PROGRAM = '''\
class Box:
    def __init__(self, items):
        self.items = items


def walk(n, seen):
    if n == 0:
        return len(seen)
    seen.append(n)
    box = Box(seen)
    return walk(n - 1, box.items)


def evens(limit):
    for k in range(limit):
        if k % 2 == 0:
            yield k


def grow(n):
    text = ""
    table = {}
    items = []
    for i in range(n):
        text += chr(97 + i % 26)
        table[i % 40] = text[-3:]
        items.append([i, text[-2:]])
    return len(text), len(table), items[-1]


def outer(n):
    head = grow(n)
    total = 0
    shared = []
    for k in evens(n):
        total += walk(k % 7, shared)
    return total, head, len(shared)


def spin():
    count = 0
    while True:
        count += 1
'''

ENTRY = "outer(2_000)\n"


@pytest.fixture
def program(tmp_path):
    name = "endkept_" + uuid.uuid4().hex[:8]
    (tmp_path / f"{name}.py").write_text(PROGRAM, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))

    def record(entry: str, **kw) -> dict:
        return json.loads(run_case(f"{name}.py", name, f"from {name} import *\n", textwrap.dedent(entry), **kw))
    yield record
    sys.path.remove(str(tmp_path))
    sys.modules.pop(name, None)


def states_at(doc: dict, indexes: list[int]) -> dict[int, dict | None]:
    """What `locals_at` shows of the frame of each of `indexes` (ascending) there, folding the deltas once."""
    state: dict[int, dict[str, dict]] = {}
    found: dict[int, dict[int, dict]] = {}
    deltas = iter(doc["locals"])
    delta = next(deltas, None)
    for index in indexes:
        while delta is not None and delta["i"] <= index:
            frame = state.setdefault(delta["f"], {})
            if delta["full"]:
                frame.clear()
            frame.update({name: value_at(doc, ref) for name, ref in delta["set"].items()})
            for name in delta["del"]:
                frame.pop(name, None)
            delta = next(deltas, None)
        names = state.get(doc["events"]["frame"][index])
        found[index] = None if names is None else dict(names)
    return found


def run_index(doc: dict, kept: int) -> int:
    """The run-wide index of kept event `kept` (the tail is numbered after the dropped middle)."""
    gap = doc["gap"]
    return kept if gap is None or kept <= gap["after"] else kept + gap["dropped"]


@pytest.mark.parametrize("max_events", [600, 2_000, 9_000])
def test_every_frame_in_the_kept_tail_shows_what_the_whole_run_showed(program, max_events):
    whole = program(ENTRY, max_events=1_000_000, time_limit=60)
    cut = program(ENTRY, max_events=max_events, time_limit=60)
    check_document(cut)
    assert_tail_as_whole(whole, cut)


def test_in_pyodide_too(pyodide):
    """The page's Python (3.14, sys.monitoring) keeps the same end."""
    record = shown_module(pyodide, "endkept_program", PROGRAM)
    whole = record(ENTRY, max_events=1_000_000, time_limit=60)
    cut = record(ENTRY, max_events=2_000, time_limit=60)
    assert whole["backend"] == "monitoring"
    assert_tail_as_whole(whole, cut)


def assert_tail_as_whole(whole: dict, cut: dict) -> None:
    assert whole["gap"] is None and cut["gap"] is not None
    assert cut["stats"]["events"] == whole["stats"]["events"] == cut["stats"]["kept"] + cut["gap"]["dropped"]
    kept = cut["stats"]["kept"]
    tail = range(cut["gap"]["after"] + 1, kept)
    last_of: dict[int, int] = {}
    for index in tail:
        last_of[cut["events"]["frame"][index]] = index
    assert len(last_of) > 3       # the walk's frames, grow's, outer's: more than one frame ends in the tail
    # Every kept tail event (every 7th, and each frame's last), replayed alone from the kept
    # document, shows each of that event's frame's names as the whole run does.
    checked = sorted({*tail[::7], *last_of.values(), kept - 1})
    in_cut = states_at(cut, checked)
    in_whole = states_at(whole, [run_index(cut, index) for index in checked])
    for index in checked:
        frame = cut["events"]["frame"][index]
        assert frame == whole["events"]["frame"][run_index(cut, index)]
        assert in_cut[index] == in_whole[run_index(cut, index)], (index, frame)
    # The last event is the entry's return, with the whole run's value and its frame's final values.
    assert cut["events"]["kind"][-1] == "r" and cut["end"]["call"] == whole["end"]["call"]
    assert in_cut[kept - 1] == in_whole[whole["stats"]["kept"] - 1] and in_cut[kept - 1]["head"]


def test_a_stopped_run_keeps_the_running_frame_and_its_final_values(program):
    """Stopped at its time limit in a loop, long after the head window: the tail ends at the stop, and the
    loop's frame shows the count it had reached there, not one from before the dropped middle."""
    doc = program("spin()\n", max_events=1_000, time_limit=0.4)
    check_document(doc)
    assert doc["end"]["status"] == "stopped" and doc["gap"] is not None
    kinds, lines, kept = doc["events"]["kind"], doc["events"]["line"], doc["stats"]["kept"]
    assert kinds[0] == "c" and kinds[-1] == "r"
    counting = PROGRAM.splitlines().index("        count += 1") + 1
    passes = [i for i in range(kept) if kinds[i] == "l" and lines[i] == counting]   # before each `count += 1`
    tail = [i for i in passes if i > doc["gap"]["after"]]
    assert passes[0] <= doc["gap"]["after"] and len(tail) > 100
    per_pass = run_index(doc, tail[-1]) - run_index(doc, tail[-2])
    last = tail[-1]
    reached = (run_index(doc, last) - passes[0]) // per_pass      # passes run before the last one began
    assert reached > doc["gap"]["dropped"] // per_pass
    assert locals_at(doc, last)[doc["events"]["frame"][last]]["count"]["r"] == str(reached)
    assert locals_at(doc, kept - 1)[doc["events"]["frame"][last]]["count"]["r"] in (str(reached), str(reached + 1))
