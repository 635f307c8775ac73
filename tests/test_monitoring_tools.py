"""A program's own use of `sys.monitoring` tool ids (Python 3.12+: here in Pyodide, where the recorder uses
them) never disables the recorder for a later run. One that takes every id before the recorder starts
ends with a clear "the recorder could not start"; one that frees the recorder's id mid-run is recorded up
to there (docs/limits.md); either way the ids it took are freed after the run, and the next run records."""
from __future__ import annotations

import json

import pytest
from test_recorder import check_document
from test_recorder_pyodide import remote_run

PROGRAMS = {
    "frees_all": """\
import sys

def go():
    a = 1
    for tool in range(6):
        sys.monitoring.free_tool_id(tool)
    b = 2
    return a + b
""",
    "takes_all": """\
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
ENDS = {"frees_all": ("returned", None), "takes_all": ("failed", "recorder")}


@pytest.fixture(scope="module")
def shown(pyodide):
    files = {f"/monitoring_tools/{name}.py": text for name, text in PROGRAMS.items()}
    files["/monitoring_tools/plain.py"] = "def go():\n    a = 1\n    b = 2\n    return a + b\n"
    pyodide.run("import os, sys\nos.makedirs('/monitoring_tools', exist_ok=True)\n"
                f"for path, text in {files!r}.items():\n    open(path, 'w').write(text)\n"
                "sys.path.insert(0, '/monitoring_tools')\nresult = 'ok'")
    return pyodide


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_programs_tool_ids_never_disable_the_recorder_for_the_next_run(shown, name):
    doc = json.loads(remote_run(shown, f"{name}.py", name, f"from {name} import *", "print(go())"))
    check_document(doc)
    assert (doc["end"]["status"], doc["end"]["reason"]) == ENDS[name]
    assert json.loads(shown.run("import sys\nresult = __import__('json').dumps("
                                "[sys.monitoring.get_tool(t) for t in range(6)])")) == [None] * 6
    after = json.loads(remote_run(shown, "plain.py", "plain", "from plain import *", "print(go())"))
    assert after["backend"] == "monitoring" and after["end"]["status"] == "returned"
    assert after["stats"]["events"] == 5 and after["stdout_text"] == "3\n"
