"""Threads in the shown code (CPython; Pyodide cannot start one): what a thread prints during its run is
that run's output; a thread the run leaves running is abandoned, and nothing it prints reaches a later run."""
from __future__ import annotations

import json
import time

import pytest

PROGRAM = """\
import threading
import time


def joined():
    def work(n):
        print("worker", n)
    workers = [threading.Thread(target=work, args=(n,)) for n in range(3)]
    for worker in workers:
        worker.start()
        worker.join()
    print("main done")


def left_running():
    def later():
        time.sleep(0.2)
        print("late")
    threading.Thread(target=later, daemon=True).start()
    print("main")


def slow():
    time.sleep(0.5)
    print("second")
"""


@pytest.fixture
def run(fresh_module):
    program = fresh_module(PROGRAM, "threads")
    return lambda entry: json.loads(program(entry))


def test_what_threads_print_during_the_run_is_its_output(run):
    doc = run("joined()")
    assert doc["stdout_text"] == "worker 0\nworker 1\nworker 2\nmain done\n"


def test_a_thread_left_running_never_prints_into_the_next_run(run, capsys):
    first = run("left_running()")
    assert first["stdout_text"] == "main\n"
    second = run("slow()")             # the first run's thread prints "late" while this one runs
    assert second["stdout_text"] == "second\n"
    time.sleep(0.1)
