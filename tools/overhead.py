"""Recorder overhead: untraced vs traced run time, in Pyodide (default) and/or CPython.

    .venv/bin/python tools/overhead.py [--cpython] [--no-pyodide] [--repeat N]

Prints, per workload, the best-of-N milliseconds of `run_case(..., record=False)`
and of `run_case(...)` with the recorder on (`elapsed_ms`: setup + entry, as the
reader waits for them), their ratio, the best wall time of the whole traced
`run_case` call (adding the JSON encoding and the temp-dir scan: what the worker
spends before it can answer) and the size of its JSON. Workloads:
  - every lesson case of scenarios/s08.toml (the shown file is py/s08/core/runtime.py);
  - stdlib-heavy: a shown-file function that spends its time in deepcopy and json;
  - loop-heavy: a shown-file loop whose locals change on every line;
  - plain loop, many-locals loop: the cost of a step on its own;
  - comprehensions: list, set and dict comprehensions (inline from 3.12: every iteration a step).
All but the lesson's live in a small module this script writes (into Pyodide's FS, or a temp
dir for CPython). docs/performance.md shows `make bench`'s figures as information, beside
Python Tutor's tracer on the same programs (bench/tutor.py).
Not a test: numbers depend on the machine; compare ratios.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "py"))
sys.path.insert(0, str(REPO / "tools" / "pyodide_node"))

BENCH_MODULE = '''\
from copy import deepcopy
import json


def stdlib_heavy(messages, rounds):
    """Time goes to deepcopy and json (outside the shown file)."""
    size = 0
    for _ in range(rounds):
        size += len(json.dumps(deepcopy(messages), ensure_ascii=False))
    return size


def plain_loop(n):
    """The smallest steps there are: a counter and a sum."""
    total = 0
    for i in range(n):
        total += i
    return total


def many_locals(n):
    """A loop in a frame with many names, two of them containers: a look at every local each step."""
    a, b, c, d, e, f, g, h, j, k = 1, 2, 3, "x", (1, 2), 0.5, None, True, "long text", 10
    items = [1, 2, 3]
    table = {"a": 1}
    i = 0
    total = 0
    while i < n:
        total += i * k
        i += 1
    return total


def comprehensions(text, rounds):
    """Teaching-sized comprehensions (inline from 3.12: each iteration is a step of this frame)."""
    total = 0
    for _ in range(rounds):
        words = [w.strip(".,;").lower() for w in text.split()]
        lengths = {w: len(w) for w in words}
        squares = [i * i for i in range(50) if i % 3]
        total += len(words) + len(lengths) + len(squares)
    return total


def loop_heavy(text, rounds):
    """Every line changes a local: the recorder previews on each step."""
    counts = {}
    longest = ""
    for _ in range(rounds):
        for word in text.split():
            word = word.strip(".,;").lower()
            counts[word] = counts.get(word, 0) + 1
            if len(word) > len(longest):
                longest = word
    return len(counts), longest
'''

BENCH_SETUP = '''\
from stepwise_bench import comprehensions, loop_heavy, many_locals, plain_loop, stdlib_heavy
messages = [{"role": "user", "content": "q"}] + [
    {"role": "assistant", "content": [{"type": "tool_use", "id": f"c{i}", "name": "read", "input": {"p": "x"}}]}
    for i in range(20)]
text = ("the quick brown fox jumps over the lazy dog; it was the best of times, it was the worst of "
        "times. a small lesson in context compaction for an agent loop ") * 4
'''

WORKLOADS = [("stdlib-heavy (deepcopy+json)", "stdlib_heavy(messages, 60)\n"),
             ("loop-heavy (locals every line)", "loop_heavy(text, 8)\n"),
             ("plain loop (100k steps)", "plain_loop(50_000)\n"),
             ("many-locals loop (60k steps)", "many_locals(30_000)\n"),
             ("comprehensions (each iteration a step)", "comprehensions(text, 8)\n")]

MEASURE = '''
import json, time
from steptrace.runner import run_case

def best(args, repeat, **kw):
    times, walls = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        text = run_case(*args, **kw)
        walls.append((time.perf_counter() - started) * 1000)
        doc = json.loads(text)
        times.append(doc["stats"]["elapsed_ms"])
    return min(times), doc, min(walls), len(text)

rows = []
for label, args in JOBS:
    plain = best(args, REPEAT, record=False)[0]
    traced, doc, wall, size = best(args, REPEAT)
    rows.append([label, plain, traced, doc["backend"], doc["stats"]["events"], doc["end"]["status"], wall, size])
result = json.dumps(rows)
'''


def jobs(bench_dir: str) -> list:
    from stepwise import scenario
    loaded = scenario.load(REPO / "scenarios" / "s08.toml")
    out = []
    for function in loaded.functions:
        for case in loaded.cases_for(function):
            setup, entry = loaded.code(function, case)
            out.append([f"{function}/{case}", [loaded.source, loaded.module, setup, entry]])
    for label, entry in WORKLOADS:
        out.append([label, [f"{bench_dir}/stepwise_bench.py", "stepwise_bench", BENCH_SETUP, entry]])
    return out


def report(title: str, rows: list) -> None:
    print(f"\n{title}")
    print(f"{'workload':34} {'untraced ms':>12} {'traced ms':>10} {'ratio':>7} {'µs/step':>8}  backend     events  end"
          f"       {'+json ms':>8} {'json KB':>8}")
    for label, plain, traced, backend, events, status, wall, size in rows:
        ratio = traced / plain if plain else float("nan")
        step = f"{(traced - plain) * 1000 / events:8.2f}" if events else f"{'-':>8}"
        extra = f"{wall:8.2f} {size / 1000:8.0f}" if wall is not None else ""
        print(f"{label:34} {plain:12.2f} {traced:10.2f} {ratio:6.1f}x {step}  {backend:10} {events:7}  {status:9} "
              f"{extra}")


def in_pyodide(repeat: int) -> None:
    from bridge import PyodideNode
    runtime = PyodideNode()
    try:
        bench_dir = "/tmp/stepwise_bench_mod"
        write = (f"import os, sys\nos.makedirs({bench_dir!r}, exist_ok=True)\n"
                 f"open({bench_dir + '/stepwise_bench.py'!r}, 'w').write({BENCH_MODULE!r})\n"
                 f"sys.path.insert(0, {bench_dir!r})\nresult = 'ok'\n")
        runtime.run(write)
        code = f"JOBS = {jobs(bench_dir[1:])!r}\nREPEAT = {repeat}\n" + MEASURE
        rows = json.loads(runtime.run(code, timeout=600))
        report(f"Pyodide {runtime.pyodide_version} (Python {runtime.python_version})", rows)
    finally:
        runtime.close()


def in_cpython(repeat: int) -> None:
    folder = tempfile.mkdtemp(prefix="stepwise-bench-")
    Path(folder, "stepwise_bench.py").write_text(BENCH_MODULE, encoding="utf-8")
    sys.path.insert(0, folder)
    namespace = {"JOBS": jobs(folder.lstrip("/")), "REPEAT": repeat}
    exec(MEASURE, namespace)
    report(f"CPython {sys.version.split()[0]}", json.loads(namespace["result"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpython", action="store_true", help="also measure on this CPython")
    parser.add_argument("--no-pyodide", action="store_true", help="skip Pyodide")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not args.no_pyodide:
        in_pyodide(args.repeat)
    if args.cpython or args.no_pyodide:
        in_cpython(args.repeat)


if __name__ == "__main__":
    main()
