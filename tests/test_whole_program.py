"""A reader's whole program recorded (the playground's run, steptrace/whole_program.py): its output is what
`python main.py < stdin` prints, on CPython and in Pyodide; its module frame is stepped like a function's;
a syntax error is answered at its line with nothing run; a program that asks for one input line too many,
raises or never ends is answered with its partial trace."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from steptrace.whole_program import FUNCTION, run_program

PROGRAMS = {
    "aliasing and input": (
        'def square(n):\n    return n * n\n\nname = input("Name? ")\nxs = [1, 2, 3]\nys = xs\n'
        'ys.append(square(len(name)))\nprint(name, xs, xs is ys)\n', "Ada\n"),
    "a class and a loop": (
        "class Counter:\n    def __init__(self):\n        self.n = 0\n\n    def tick(self):\n        self.n += 1\n"
        "        return self.n\n\nc = Counter()\nfor _ in range(3):\n    print(c.tick())\n", ""),
    "main guard and a generator": (
        "def evens(limit):\n    for n in range(limit):\n        if n % 2 == 0:\n            yield n\n\n"
        "if __name__ == '__main__':\n    total = sum(evens(int(input())))\n    print('total', total)\n", "10\n"),
    "an uncaught exception": ("scores = {'ada': 3}\nprint(scores['ada'])\nprint(scores['bob'])\n", ""),
}


def untraced(text: str, stdin: str, tmp_path) -> tuple[str, int]:
    """What CPython prints for the program run as a file with a piped stdin, and its exit status."""
    path = tmp_path / "main.py"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], input=stdin, capture_output=True, text=True, timeout=60)
    return done.stdout, done.returncode


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_output_is_what_python_prints_for_the_file(name, tmp_path):
    text, stdin = PROGRAMS[name]
    doc = json.loads(run_program(text, stdin, path=str(tmp_path / "play" / "main.py")))
    out, status = untraced(text, stdin, tmp_path)
    assert doc["stdout_text"] == out
    assert (doc["end"]["status"] == "returned") == (status == 0), doc["end"]
    assert doc["frames"][0]["function"] == FUNCTION and doc["stats"]["internal_errors"] == []


def test_the_module_frame_is_stepped_and_its_names_recorded(tmp_path):
    text, stdin = PROGRAMS["aliasing and input"]
    doc = json.loads(run_program(text, stdin, path=str(tmp_path / "main.py")))
    module = doc["frames"][0]["id"]
    lines = [line for line, frame, kind in zip(doc["events"]["line"], doc["events"]["frame"], doc["events"]["kind"],
                                               strict=True) if frame == module and kind == "l"]
    assert lines == [1, 4, 5, 6, 7, 8]
    names = {name for delta in doc["locals"] for name in delta["set"]}
    assert {"square", "name", "xs", "ys"} <= names
    called = [frame["function"] for frame in doc["frames"][1:]]
    assert called == ["square"]


def test_one_input_line_too_many_is_an_eof_error_at_its_line(tmp_path):
    doc = json.loads(run_program('a = input("a? ")\nb = input("b? ")\nprint(a, b)\n', "1\n",
                                 path=str(tmp_path / "main.py")))
    assert doc["end"]["exception"] == {"type": "EOFError", "message": "EOF when reading a line", "line": 2,
                                       "in_source": True}
    assert doc["stdout_text"] == "a? b? "


def test_a_syntax_error_runs_nothing_and_names_its_line(tmp_path):
    doc = json.loads(run_program("print('before')\nif True\n    print('never')\n", path=str(tmp_path / "main.py")))
    assert doc["stats"]["events"] == 0 and doc["stdout_text"] == ""
    exception = doc["end"]["exception"]
    assert (exception["type"], exception["line"], exception["in_source"]) == ("SyntaxError", 2, True)


def test_a_program_that_never_ends_keeps_its_partial_trace(tmp_path):
    doc = json.loads(run_program("n = 0\nwhile True:\n    n += 1\n", path=str(tmp_path / "main.py"), time_limit=0.3))
    assert doc["end"]["status"] == "stopped" and doc["end"]["reason"] == "time_limit"
    assert doc["stats"]["events"] > 100


def test_in_pyodide_the_output_is_the_same(pyodide):
    programs = list(PROGRAMS.values())
    code = ("import json\nfrom steptrace.whole_program import run_program\n"
            f"result = json.dumps([json.loads(run_program(text, stdin)) for text, stdin in {programs!r}])")
    docs = json.loads(pyodide.run(code))
    for (name, (text, stdin)), doc in zip(PROGRAMS.items(), docs, strict=True):
        here = json.loads(run_program(text, stdin))
        assert doc["stdout_text"] == here["stdout_text"], name
        assert doc["end"]["status"] == here["end"]["status"] and doc["backend"] == "monitoring", name
        assert doc["stats"]["internal_errors"] == [], name


def test_a_named_call_runs_after_the_module_in_its_namespace(tmp_path):
    text = "def main(n):\n    total = n * 2\n    print('main', total)\n    return total\n\nprint('module')\n"
    doc = json.loads(run_program(text, call="main(21)", path=str(tmp_path / "main.py")))
    assert doc["stdout_text"] == "module\nmain 42\n"
    assert [frame["function"] for frame in doc["frames"]] == [FUNCTION, "main"]
    bad = json.loads(run_program(text, call="main(", path=str(tmp_path / "main.py")))
    assert bad["stats"]["events"] == 0 and bad["end"]["exception"]["type"] == "SyntaxError"
