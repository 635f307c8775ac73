"""Calls that would end or split the process running the case (`os._exit`, `os.abort`, `os.fork`) stop the
run instead, with one trace whose end says why, on CPython and in Pyodide (where they killed the
interpreter with a raw JSError); the process and the next run go on."""
from __future__ import annotations

import json
import os
import sys
import uuid

import pytest
from test_recorder import check_document
from test_recorder_pyodide import remote_run

from steptrace.runner import run_case

PROGRAM = """\
import os


def leave(how):
    print("before")
    if how == "exit":
        os._exit(3)
    elif how == "abort":
        os.abort()
    else:
        pid = os.fork()
        print("forked", pid)
    print("after")
"""


@pytest.fixture(scope="module")
def shown(tmp_path_factory, pyodide):
    folder = tmp_path_factory.mktemp("refused")
    name = "refused_" + uuid.uuid4().hex[:8]
    (folder / f"{name}.py").write_text(PROGRAM, encoding="utf-8")
    sys.path.insert(0, str(folder))
    pyodide.run(f"import os, sys\nos.makedirs('/refused', exist_ok=True)\n"
                f"open('/refused/{name}.py', 'w').write({PROGRAM!r})\nsys.path.insert(0, '/refused')\nresult = 'ok'")
    yield name
    sys.path.remove(str(folder))


@pytest.mark.parametrize("where", ["cpython", "pyodide"])
@pytest.mark.parametrize("how", ["exit", "abort", "fork"])
def test_ending_or_splitting_the_process_stops_the_run(shown, pyodide, where, how):
    args = (f"{shown}.py", shown, f"from {shown} import *", f"leave({how!r})")
    pid = os.getpid()
    doc = json.loads(remote_run(pyodide, *args) if where == "pyodide" else run_case(*args))
    assert os.getpid() == pid
    check_document(doc)
    assert (doc["end"]["status"], doc["end"]["reason"]) == ("stopped", "process")
    assert doc["stdout_text"] == "before\n"
    again = json.loads(remote_run(pyodide, *args[:3], "print('next')") if where == "pyodide"
                       else run_case(*args[:3], "print('next')"))
    assert again["end"]["status"] == "returned" and again["stdout_text"] == "next\n"
