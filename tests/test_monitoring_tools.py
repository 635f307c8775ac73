"""A program's own use of `sys.monitoring` tool ids (Python 3.12+: here in Pyodide, where the recorder uses
them) does not keep the recorder out: one that takes every id it can before the recorded call (at its
import) is recorded whole, and the next run records too. (One that frees the recorder's id mid-run is
recorded up to there: tests/adversarial/programs/frees_every_monitoring_tool.py.)"""
from __future__ import annotations

import json

import pytest
from test_recorder import check_document
from test_recorder_pyodide import remote_run

PROGRAMS = {
    "takes_the_rest": """\
import sys
for tool in range(6):
    try:
        sys.monitoring.use_tool_id(tool, "mine")
    except ValueError:
        pass

def go():
    a = 1
    b = 2
    return a + b
""",
}


@pytest.fixture(scope="module")
def shown(pyodide):
    files = {f"/monitoring_tools/{name}.py": text for name, text in PROGRAMS.items()}
    pyodide.run("import os, sys\nos.makedirs('/monitoring_tools', exist_ok=True)\n"
                f"for path, text in {files!r}.items():\n    open(path, 'w').write(text)\n"
                "sys.path.insert(0, '/monitoring_tools')\nresult = 'ok'")
    return pyodide


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_programs_tool_ids_never_take_the_recorder_out(shown, name):
    doc = json.loads(remote_run(shown, f"{name}.py", name, f"from {name} import *", "print(go())"))
    check_document(doc)
    assert doc["backend"] == "monitoring" and doc["end"]["status"] == "returned"
    assert doc["stdout_text"] == "3\n"
    assert doc["end"]["call"]["value"]["r"] == "3"
    lines = [line for kind, line in zip(doc["events"]["kind"], doc["events"]["line"], strict=True) if kind == "l"]
    source = PROGRAMS[name].splitlines()
    assert "return a + b" in [source[line - 1].strip() for line in lines]
    after = json.loads(remote_run(shown, f"{name}.py", name, f"from {name} import *", "go()"))
    assert after["end"]["status"] == "returned" and after["stats"]["events"] == doc["stats"]["events"]
