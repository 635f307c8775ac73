"""asyncio in the shown code, recorded alike on CPython and in Pyodide (the build's node and the page's
worker, neither of which may offer WebAssembly stack switching): `asyncio.run`, `gather`, `sleep`, an
async generator driven by `async for`. Coroutine frames are stepped like functions: a call, the lines,
and a return, with suspensions in between. The test-only lesson tests/fixtures/lessons/routes shows it as
its second file, and runs it in the page too (tests/browser/test_lessons.py runs every case of every
lesson).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from test_recorder import check_document
from test_recorder_pyodide import remote_run

from steptrace.runner import run_case
from stepwise import scenario

REPO = Path(__file__).resolve().parents[1]
LESSON = scenario.load(REPO / "tests" / "fixtures" / "scenarios" / "errands.toml", REPO)
if str(REPO / LESSON.python_root) not in sys.path:     # where the lesson's module is imported from
    sys.path.insert(0, str(REPO / LESSON.python_root))
LINES = (REPO / LESSON.source).read_text(encoding="utf-8").splitlines()


def line_of(text: str) -> int:
    return next(n for n, line in enumerate(LINES, 1) if line.strip().startswith(text))


def traced(where, pyodide, function: str, case: str) -> dict:
    setup, entry = LESSON.code(function, case)
    args = (LESSON.source, LESSON.module, setup, entry)
    text = remote_run(pyodide, *args) if where == "pyodide" else run_case(*args)
    doc = json.loads(text)
    check_document(doc)
    return doc


def steps(doc: dict) -> list[tuple[str, str, int]]:
    """(function, kind, line) of every event."""
    names = {frame["id"]: frame["function"] for frame in doc["frames"]}
    table = doc["events"]
    return [(names[f], k, n) for k, n, f in zip(table["kind"], table["line"], table["frame"], strict=True)]


@pytest.fixture(params=["cpython", "pyodide"])
def where(request):
    return request.param


def test_asyncio_run_gather_and_sleep_are_stepped(where, pyodide):
    doc = traced(where, pyodide if where == "pyodide" else None, "run_errands", "two")
    assert doc["end"]["status"] == "returned" and doc["stdout_text"] == "bakery (3 min)\nlibrary (1 min)\n1\n"
    seen = steps(doc)
    frames = [frame["function"] for frame in doc["frames"]]
    assert frames.count("errand") == 2 and "errands" in frames and "ticks" in frames
    # Each errand is stepped past its `await asyncio.sleep(...)`: the line after it runs in both.
    after_sleep = line_of('done = f"{name}')
    assert sum(1 for name, kind, line in seen if name == "errand" and line == after_sleep and kind == "l") == 2
    # `async for` takes every tick of the async generator: its body runs once per tick.
    body = line_of("waited += tick")
    assert sum(1 for name, kind, line in seen if name == "errands" and line == body and kind == "l") == 2
    assert [kind for name, kind, _ in seen if name == "errand"].count("r") >= 2


def test_a_coroutine_run_on_its_own(where, pyodide):
    doc = traced(where, pyodide if where == "pyodide" else None, "errand", "two")
    assert doc["end"]["status"] == "returned" and doc["stdout_text"] == "bakery (3 min)\n"
    assert ("errand", "l", line_of("return done")) in steps(doc)


def test_an_empty_gather(where, pyodide):
    doc = traced(where, pyodide if where == "pyodide" else None, "run_errands", "none")
    assert doc["end"]["status"] == "returned" and doc["stdout_text"] == "0\n"
