"""Runs that cannot stop themselves, through the author's command (`python -m stepwise trace`, CPython):
each is stopped at its time limit plus a grace, with end reason `time_limit` and its trace kept up to the
line that hung (`steptrace/watchdog.py`: a forked child, killed, and run again to that line)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

RUNAWAYS = '''\
def in_c():
    total = 0
    for i in range(3):
        total += i
    print("before", total)
    return sum(range(10 ** 15))


def swallowed():
    n = 0
    try:
        n = 1
    finally:
        while True:
            try:
                while True:
                    n += 1
            except BaseException:
                n = -n


def in_a_finalizer():
    class Stubborn:
        def __del__(self):
            while True:
                try:
                    sum(range(10 ** 15))
                except BaseException:
                    pass
    Stubborn()
    print("after")
'''

SCENARIO = '''\
lesson = "runaways"
source = "py/runaways.py"
module = "runaways"
setup = "runaways/setup.py"

[limits]
seconds = 0.5

[cases]
once = { zh = "一次", en = "Once" }
in_setup = { zh = "准备代码里", en = "In the setup" }

[[functions]]
name = "in_c"
cases = ["once", "in_setup"]
entry = "in_c()"

[[functions]]
name = "swallowed"
cases = ["once"]
entry = "swallowed()"

[[functions]]
name = "in_a_finalizer"
cases = ["once"]
entry = "in_a_finalizer()"
'''


@pytest.fixture(scope="module")
def lesson(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("runaways")
    (root / "py").mkdir()
    (root / "py" / "runaways.py").write_text(RUNAWAYS, encoding="utf-8")
    (root / "scenarios" / "runaways").mkdir(parents=True)
    (root / "scenarios" / "runaways.toml").write_text(SCENARIO, encoding="utf-8")
    setup = "from runaways import *\nif scenario == 'in_setup':\n    sum(range(10 ** 15))\n"
    (root / "scenarios" / "runaways" / "setup.py").write_text(setup, encoding="utf-8")
    return root


def trace(lesson: Path, function: str, case: str = "once") -> dict:
    done = subprocess.run([sys.executable, "-m", "stepwise", "trace", "py/runaways.py", "--scenario",
                           str(lesson / "scenarios" / "runaways.toml"), "--function", function, "--case", case],
                          capture_output=True, text=True, cwd=lesson, timeout=120,
                          env={"PYTHONPATH": str(REPO / "py"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def last_line(doc: dict) -> int:
    kinds, lines = doc["events"]["kind"], doc["events"]["line"]
    return next(line for kind, line in zip(reversed(kinds), reversed(lines), strict=True) if kind == "l")


def test_a_loop_inside_one_call_into_c_is_stopped_at_its_line(lesson):
    doc = trace(lesson, "in_c")
    assert (doc["end"]["status"], doc["end"]["reason"]) == ("stopped", "time_limit")
    assert doc["stdout_text"] == "before 3\n"
    assert RUNAWAYS.splitlines()[last_line(doc) - 1].strip() == "return sum(range(10 ** 15))"


def test_a_loop_that_catches_every_stop_in_a_finally_is_stopped(lesson):
    doc = trace(lesson, "swallowed")
    assert (doc["end"]["status"], doc["end"]["reason"]) == ("stopped", "time_limit")
    assert doc["stats"]["events"] > 10


def test_a_runaway_finalizer_is_stopped(lesson):
    doc = trace(lesson, "in_a_finalizer")
    assert (doc["end"]["status"], doc["end"]["reason"]) == ("stopped", "time_limit")
    assert doc["stdout_text"] == ""
    assert RUNAWAYS.splitlines()[last_line(doc) - 1].strip() == "sum(range(10 ** 15))"


def test_a_setup_that_hangs_in_c_ends_with_no_events_and_nothing_run_again(lesson):
    """Nothing of the shown file ran by the limit: the case is not run a second time, and the watcher runs
    none of it either (it would hang there)."""
    doc = trace(lesson, "in_c", "in_setup")
    assert (doc["end"]["status"], doc["end"]["reason"]) == ("stopped", "time_limit")
    assert doc["stats"]["events"] == 0 and doc["case"] == "in_setup" and doc["stdout_text"] == ""
