"""A run brought back to where a terminated one was (`steptrace/worker_watch.py`, the page's and the
build's way to keep the trace of a run they had to terminate): whatever event it is told to stop at (a
call, a line, a return, an exception, a generator's resume), the trace it delivers is whole."""
from __future__ import annotations

import json
import sys
import uuid

import pytest
from test_recorder import check_document

from steptrace.runner import run_case
from steptrace.worker_watch import Delivered, WorkerWatch

SHOWN = '''\
def gen(n):
    for i in range(n):
        yield i * i


def fail(x):
    raise ValueError(x)


def helper(x):
    try:
        fail(x)
    except ValueError:
        pass
    return x + 1


def main():
    total = 0
    for v in gen(3):
        total += helper(v)
    return total
'''


@pytest.fixture(scope="module")
def shown_module(tmp_path_factory):
    folder = tmp_path_factory.mktemp("watched")
    name = "watched_" + uuid.uuid4().hex[:8]
    (folder / f"{name}.py").write_text(SHOWN, encoding="utf-8")
    sys.path.insert(0, str(folder))
    yield name
    sys.path.remove(str(folder))
    sys.modules.pop(name, None)


def run_to(name: str, stop_at: float | None) -> dict:
    """The case run watched, told to stop after event `stop_at` (None: not told)."""
    delivered: list = []
    watch = WorkerWatch([0], delivered.append, stop_at=stop_at, form="json")
    try:
        text = run_case(f"{name}.py", name, f"from {name} import main\n", "main()\n", watch=watch)
    except Delivered:     # what the run does after delivering does not matter: its host terminates it
        text = None
    if stop_at is None:
        assert not delivered
        return json.loads(text)
    assert len(delivered) == 1, "a run told to stop delivers its trace once"
    return json.loads(delivered[0])


def test_a_run_stopped_at_any_event_delivers_a_whole_trace(shown_module):
    whole = run_to(shown_module, None)
    check_document(whole)
    kinds = whole["events"]["kind"]
    assert {"c", "l", "r", "x"} <= set(kinds)
    for stop_at in range(1, len(kinds)):
        doc = run_to(shown_module, stop_at)
        check_document(doc)   # every event's frame is known, calls and returns balance
        assert doc["end"]["reason"] == "time_limit"
        kept = doc["events"]["kind"]
        # It ends just after event `stop_at`, as the whole run had it; then the frames left open return.
        assert kept[:stop_at] == kinds[:stop_at] and set(kept[stop_at:]) <= {"r"}, (stop_at, kept)
