"""Every case of every lesson, found on disk: untraced CPython, traced CPython and traced Pyodide agree.

A lesson added the README's way (lessons/<slug>/, one or more scenario files) is covered here with no test edited, and
so is the test-only lesson under tests/fixtures/lessons/. For each function and case: the three
runs print the same (temp names and object addresses aside), end the same way, leave the same
files, record a valid trace without recorder faults and within the lesson's limits. The page's
own Run of each case is checked against the same CPython output in tests/browser/test_lessons.py.
"""
from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest
from test_recorder import check_document

from steptrace.runner import run_case
from stepwise import scenario
from stepwise.prover import BUILD_TIME_FACTOR

REPO = Path(__file__).resolve().parents[1]
LESSON_DIRS = [REPO / "lessons", REPO / "tests" / "fixtures" / "lessons"]


def lessons() -> list[tuple[str, list[scenario.Scenarios]]]:
    """(slug, its scenario files: one per shown source) of every lesson on disk."""
    found = []
    for folder in LESSON_DIRS:
        for meta_path in sorted(folder.glob("*/lesson.toml")):
            named = tomllib.loads(meta_path.read_text(encoding="utf-8"))["scenarios"]
            files = [scenario.load(REPO / name, REPO) for name in ([named] if isinstance(named, str) else named)]
            found.append((meta_path.parent.name, files))
            for data in files:
                if str(REPO / data.python_root) not in sys.path:   # where the lesson's module is imported from
                    sys.path.insert(0, str(REPO / data.python_root))
    return found


LESSONS = lessons()
# (slug, function) -> the scenario file it is in: a lesson's function names are unique (stepwise.lessons).
SCENARIO_OF = {(slug, name): data for slug, files in LESSONS for data in files for name in data.functions}
CASES = [(slug, name, case) for (slug, name), data in SCENARIO_OF.items() for case in data.functions[name].cases]


def normalise(text: str) -> str:
    text = re.sub(r" at 0x[0-9a-fA-F]+", " at 0x…", text)
    text = re.sub(r"context-[0-9a-f]+", "context-<hex>", text)   # also where a preview cut it short
    text = re.sub(r"(lesson8?-|stepwise-(?!trace))[A-Za-z0-9_]+", r"\1<tmp>", text)
    return text


def outcome(doc: dict) -> dict:
    """What a reader would compare between two runs of the same case."""
    end = doc["end"]
    exception = end["exception"] and {key: end["exception"][key] for key in ("type", "message")}
    return {
        "stdout": normalise(doc["stdout_text"]), "stderr": normalise(doc["stderr_text"]),
        "status": end["status"], "exception": normalise(json.dumps(exception)),
        "files": sorted(normalise(file["path"]) for file in doc["files"]),
    }


def run_here(data: scenario.Scenarios, name: str, case: str, **options) -> dict:
    setup, entry = data.code(name, case)
    limits = data.functions[name].limits
    return json.loads(run_case(data.source, data.module, setup, entry, function=name, case=case,
                               time_limit=limits.seconds * BUILD_TIME_FACTOR, max_events=limits.events, **options))


@pytest.fixture(scope="module")
def untraced() -> dict:
    return {(slug, name, case): outcome(run_here(SCENARIO_OF[(slug, name)], name, case, record=False))
            for slug, name, case in CASES}


@pytest.mark.parametrize("slug, name, case", CASES)
def test_case_traced_on_cpython_is_faithful(untraced, slug, name, case):
    doc = run_here(SCENARIO_OF[(slug, name)], name, case)
    check_document(doc)
    assert doc["stats"]["internal_errors"] == []
    assert doc["end"]["status"] != "stopped", f"{slug} {name} {case} hit a limit on CPython: {doc['end']}"
    assert outcome(doc) == untraced[(slug, name, case)]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> Path:
    """The built site (both lesson sets): its recorded traces are what the page shows first."""
    import subprocess
    out = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "build.py", "--out", str(out), "--lessons", "lessons",
                    "--lessons", "tests/fixtures/lessons"], cwd=REPO, check=True, capture_output=True)
    return out


def without_ids(value):
    """A preview without its object numbers: which number a new object gets can depend on where memory was
    freed before (steptrace/identity.py: an address reused within one line keeps its number), and the build's
    Pyodide and this session's have run different things first."""
    if isinstance(value, dict):
        return {key: without_ids(item) for key, item in value.items() if key != "id"}
    if isinstance(value, list):
        return [without_ids(item) for item in value]
    return value


def comparable(text: str) -> dict:
    """What a reader sees of a trace, without what differs between two runs of the same case (timings,
    temp names, where in the value table a preview sits, object numbers): every event with the values
    it shows."""
    doc = json.loads(normalise(text))
    doc["end"]["ms"] = doc["stats"]["elapsed_ms"] = 0
    doc["end"] = without_ids(doc["end"])
    values = without_ids(doc.pop("values"))
    for delta in doc["locals"]:
        delta["set"] = {name: values[ref] for name, ref in delta["set"].items()}
    doc["returns"] = [[event, values[ref]] for event, ref in doc["returns"]]
    return doc


@pytest.mark.parametrize("slug, name, case", CASES)
def test_case_traced_in_pyodide_matches_cpython(pyodide, untraced, shipped, slug, name, case):
    data = SCENARIO_OF[(slug, name)]
    setup, entry = data.code(name, case)
    limits = data.functions[name].limits
    code = ("from steptrace.runner import run_case\n"
            f"result = run_case({data.source!r}, {data.module!r}, {setup!r}, {entry!r}, function={name!r}, "
            f"case={case!r}, time_limit={limits.seconds * BUILD_TIME_FACTOR!r}, max_events={limits.events!r})\n")
    text = pyodide.run(code, timeout=240)
    doc = json.loads(text)
    check_document(doc)
    # The trace the build shipped for this case is this very run (a stale one would differ).
    recorded = (shipped / slug / "traces" / f"{name}.{case}.json").read_text(encoding="utf-8")
    assert comparable(recorded) == comparable(text), f"the shipped trace of {slug} {name} {case} is stale"
    assert doc["backend"] == "monitoring" and doc["stats"]["internal_errors"] == []
    assert doc["end"]["status"] != "stopped", (
        f"{slug} {name} {case} does not finish within the build's limits in Pyodide "
        f"({limits.seconds * BUILD_TIME_FACTOR} s): raise them in {data.path.name}")
    assert outcome(doc) == untraced[(slug, name, case)]
