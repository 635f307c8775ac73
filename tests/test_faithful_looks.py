"""Every look the recorder takes agrees with a fresh preview of every local, on code nobody here wrote.

With `check_looks` the recorder compares, after each look, what it believes every local shows with what
a fresh previewer makes of the value then (a change check that wrongly says "unchanged" would show a
stale value), and lists what differs in the trace's `stats.stale_looks`. Here it runs over every case of
the lesson and over pure-Python modules of the standard library copied as the shown file, which must
also print and end as untraced, with no fault of the recorder's. In a child process, so that the copies'
imports leave this one as it was. The adversarial programs get the same checks in Pyodide.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHECK = r'''
import json, re, sys, sysconfig
from pathlib import Path
folder = Path(sys.argv[1])
sys.path[:0] = [str(folder), sys.argv[2]]
from stepwise import scenario
from steptrace.runner import run_case

lib = Path(sysconfig.get_paths()["stdlib"])
report = {}

def check(label, source, module, setup, entry):
    traced = json.loads(run_case(source, module, setup, entry, time_limit=30, max_events=300_000, check_looks=True))
    plain = json.loads(run_case(source, module, setup, entry, time_limit=30, record=False))
    report[label] = {"missed": traced["stats"]["stale_looks"][:5], "steps": traced["stats"]["events"],
                     "faults": traced["stats"]["internal_errors"],
                     "same": [traced["stdout_text"], traced["end"]["status"]] == [plain["stdout_text"],
                                                                                  plain["end"]["status"]]}

loaded = scenario.load(Path(sys.argv[3]))
for function in loaded.functions:
    for case in loaded.cases_for(function):
        check(f"{function}/{case}", loaded.source, loaded.module, *loaded.code(function, case))
MODULES = [
    ("heapq", "import random\nrandom.seed(1)\ndata = [random.randint(0, 999) for _ in range(200)]\n",
     "h = []\nfor x in data: heappush(h, x)\nprint([heappop(h) for _ in range(len(h))][:5], nlargest(3, data), "
     "list(merge([1, 4, 9], [2, 3, 10])))\n"),
    ("bisect", "xs = list(range(0, 2000, 3))\n",
     "print([bisect_left(xs, k) for k in range(0, 200, 7)], insort_right(xs, 5), xs[:4])\n"),
    ("graphlib", "", "print(list(TopologicalSorter({'a': {'b', 'c'}, 'b': {'c'}, 'd': {'a'}}).static_order()))\n"),
    ("textwrap", "", "print(fill('the quick brown fox jumps over the lazy dog ' * 10, width=30))\n"),
    ("difflib", "", "print(list(unified_diff(['a\\n', 'b\\n', 'c\\n'], ['a\\n', 'c\\n', 'd\\n'])))\n"
                    "print(SequenceMatcher(None, 'abcd', 'bcde').ratio())\n"),
    ("fractions", "", "print(sum(Fraction(1, k) for k in range(1, 30)))\n"),
    ("statistics", "", "print(median([3, 1, 2, 5]), mean([1, 2, 3, 4.5]), stdev([1, 2, 3, 4]))\n"),
    ("shlex", "", "print(split('a \"b c\" d\\\\ e'))\n"),
    ("calendar", "", "print(TextCalendar().formatmonth(2024, 2))\n"),
]
for name, setup, entry in MODULES:
    text = (lib / f"{name}.py").read_text(encoding="utf-8")
    text = re.sub(r"^try:\n    from _heapq import .*?\nexcept ImportError:\n    pass\n", "", text, flags=re.M | re.S)
    text = re.sub(r"^from _bisect import \*\n", "", text, flags=re.M)     # keep the Python versions
    (folder / f"copy_{name}.py").write_text(text, encoding="utf-8")
    check(name, str(folder / f"copy_{name}.py"), f"copy_{name}", f"from copy_{name} import *\n" + setup, entry)
print(json.dumps(report))
'''


def test_looks_agree_with_fresh_previews_on_the_lesson_and_the_standard_library(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO / "py")}
    done = subprocess.run([sys.executable, "-c", CHECK, str(tmp_path), str(REPO / "py"),
                           str(REPO / "scenarios" / "s08.toml")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.splitlines()[-1])
    assert len(report) >= 20, sorted(report)
    assert {label: run["missed"] for label, run in report.items() if run["missed"]} == {}
    assert {label: run["faults"] for label, run in report.items() if run["faults"]} == {}
    assert [label for label, run in report.items() if not run["same"]] == [], "output or end differs from untraced"
    assert report["heapq"]["steps"] > 1000, "the copied heapq ran as the shown file"
