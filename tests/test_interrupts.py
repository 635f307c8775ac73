"""Ctrl-C (SIGINT) at any moment of a run: the program stops, or the trace is written whole.

Interrupts are sent by `_thread.interrupt_main()` from a timer thread, as a terminal's Ctrl-C reaches the
CLI, at random moments from the call to the last byte written: set-up of the run's isolation, the
program, the recorder's teardown, the freeing of what the run left, the trace's writing.
"""
from __future__ import annotations

import _thread
import json
import random
import signal
import threading
import time

import pytest
from test_recorder import check_document

PROGRAM = """\
def build(n):
    rows = []
    for i in range(n):
        rows.append({"i": i, "text": "row %d" % i})
    print(len(rows))
    return rows
"""


@pytest.fixture
def lesson(fresh_module):
    return fresh_module(PROGRAM, "interrupted")


@pytest.fixture
def outside():
    """Outside run_case, an interrupt that comes late (after the call returned) is only counted: what
    run_case does with one is the question, not what the test does after it."""
    late = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: late.append(signum))
    yield late
    signal.signal(signal.SIGINT, previous)


def _sent_at(delay: float) -> threading.Timer:
    timer = threading.Timer(delay, _thread.interrupt_main)
    timer.start()
    return timer


def test_an_interrupt_at_any_moment_leaves_a_valid_trace(lesson, outside):
    started = time.perf_counter()
    lesson("build(40)")
    whole = time.perf_counter() - started
    rng = random.Random(28)
    endings = {}
    for _ in range(300):
        timer = _sent_at(rng.uniform(0, whole))
        doc = json.loads(lesson("build(40)"))
        timer.join()
        check_document(doc)
        end = doc["end"]
        endings[end["status"], end["reason"]] = endings.get((end["status"], end["reason"]), 0) + 1
        if end["status"] == "returned":
            assert doc["stdout_text"] == "40\n" and end["call"]["value"]["t"] == "list"
        else:
            assert (end["status"], end["reason"]) == ("stopped", "interrupted")
    assert set(endings) <= {("returned", None), ("stopped", "interrupted")}
    assert endings.get(("stopped", "interrupted"), 0) > 0, endings


def test_an_interrupt_stops_a_runaway_in_its_own_code(lesson, outside):
    """Sent while the program spins, the interrupt ends it at once, as "interrupted", with its trace."""
    timer = _sent_at(0.2)
    started = time.perf_counter()
    doc = json.loads(lesson("while True:\n    build(3)", time_limit=5.0))
    timer.join()
    assert time.perf_counter() - started < 2.0
    check_document(doc)
    assert (doc["end"]["status"], doc["end"]["reason"]) == ("stopped", "interrupted")
    assert doc["stats"]["events"] > 0
