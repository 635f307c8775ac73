"""Stepwise's recorder beside Python Tutor's, on the same programs in the same CPython, interleaved.

Python Tutor's tracer is not part of this repository (nor may it be): point `PYTHON_TUTOR` at a folder
holding its `pg_logger.py` and `pg_encoder.py` (its `v5-unity/` folder; docs/performance-notes.md says
where one was taken from). Without it the section measures Stepwise alone and says so.

For each program, in one child process and alternating the two: the whole traced call as a reader's
run would make it (Stepwise: `run_case`, JSON text included; Python Tutor: `exec_script_str_local`
with its trace encoded as JSON, as its server sends it) and the steps each recorded. Python Tutor
stops at `MAX_EXECUTED_LINES` (1,000) by default; here the limit is lifted so both record whole runs.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from common import REPO, stats

# Teaching programs of the kinds Python Tutor's examples show, each `main()` plus what it calls.
PROGRAMS = {
    "plain loop (20k)": "def main():\n    total = 0\n    for i in range(20000):\n        total += i\n"
                        "    return total\n",
    "sum of a list": "def main():\n    xs = [3, 1, 4, 1, 5, 9, 2, 6]\n    total = 0\n    for x in xs:\n"
                     "        total = total + x\n    return total\n",
    "memo fib": "def fib(n, memo):\n    if n in memo:\n        return memo[n]\n    value = n if n < 2 else "
                "fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = value\n    return value\n\n\n"
                "def main():\n    return fib(40, {})\n",
    "aliasing": "def main():\n    a = [1, 2, 3]\n    b = a\n    c = list(a)\n    b.append(4)\n"
                "    c.append(5)\n    return a, b, c\n",
    "objects in a list": "class Point:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n\n"
                         "def main():\n    points = []\n    for i in range(30):\n"
                         "        points.append(Point(i, i * i))\n    return sum(p.y for p in points)\n",
    "string building (2k)": "def main():\n    text = ''\n    for i in range(2000):\n"
                            "        text = text + chr(97 + i % 26)\n    return len(text)\n",
    "messages (the lesson's shape)": "from copy import deepcopy\n\n\ndef main():\n    messages = []\n"
                                     "    for i in range(40):\n        messages.append({'role': 'user', 'content': "
                                     "[{'type': 'text', 'text': 'line %d' % i}]})\n        kept = deepcopy(messages)\n"
                                     "    return len(kept)\n",
}

CHILD = r'''
import json, sys, time
sys.path[:0] = [sys.argv[1], sys.argv[2]]
programs, rounds, tutor = json.loads(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
from steptrace.runner import run_case
pg_logger = None
if tutor:
    sys.path.insert(0, tutor)
    import pg_logger
    pg_logger.MAX_EXECUTED_LINES = 10 ** 7


def stepwise(name):
    started = time.perf_counter()
    doc = json.loads(run_case(f"{name}.py", name, f"from {name} import main\n", "main()\n"))
    return (time.perf_counter() - started) * 1000, doc["stats"]["events"], doc["end"]["status"]


def python_tutor(source):
    done = {}

    def finalizer(code, trace):
        done["text"] = json.dumps({"code": code, "trace": trace})
        done["trace"] = trace
    started = time.perf_counter()
    pg_logger.exec_script_str_local(source + "\nmain()\n", None, False, False, finalizer)
    return (time.perf_counter() - started) * 1000, len(done["trace"]), done["trace"][-1].get("event")


results = {}
for label, (name, source) in programs.items():
    row = results[label] = {"stepwise_ms": [], "tutor_ms": []}
    for _ in range(rounds):
        ms, row["stepwise_steps"], row["stepwise_end"] = stepwise(name)
        row["stepwise_ms"].append(ms)
        if pg_logger is not None:
            ms, row["tutor_steps"], row["tutor_end"] = python_tutor(source)
            row["tutor_ms"].append(ms)
print(json.dumps(results))
'''


def bench_tutor(rounds: int, folder: Path) -> dict:
    """Both tracers over PROGRAMS, `rounds` times each, alternating, in one child process."""
    tutor = os.environ.get("PYTHON_TUTOR", "")
    if tutor and not (Path(tutor) / "pg_logger.py").is_file():
        raise RuntimeError(f"PYTHON_TUTOR={tutor} holds no pg_logger.py (its v5-unity/ folder does)")
    programs = {}
    for index, (label, source) in enumerate(PROGRAMS.items()):
        name = f"tutor_program_{index}"
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
        programs[label] = [name, source]
    done = subprocess.run([sys.executable, "-c", CHILD, str(REPO / "py"), str(folder), json.dumps(programs),
                           str(rounds), tutor], cwd=folder, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"the comparison failed:\n{done.stderr[-3000:]}")
    raw = json.loads(done.stdout.strip().splitlines()[-1])
    summary = {}
    for label, row in raw.items():
        summary[label] = {"stepwise_ms": stats(row["stepwise_ms"], 3), "stepwise_steps": row["stepwise_steps"],
                          "stepwise_end": row["stepwise_end"]}
        if row["tutor_ms"]:
            summary[label] |= {"tutor_ms": stats(row["tutor_ms"], 3), "tutor_steps": row["tutor_steps"],
                               "tutor_end": row["tutor_end"]}
    return {"python": sys.version.split()[0], "rounds": rounds, "python_tutor": bool(tutor),
            "programs": summary}
