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
  - comprehensions: list, set and dict comprehensions (inline from 3.12: every iteration a step);
  - floors: loop-heavy under stand-ins for a recorder that do less than any faithful one can
    (`callback_floors`), so a ratio can be read against what no Python-level recorder goes under.
The last two live in a small module this script writes (into Pyodide's FS, or a temp
dir for CPython). The budgets for the last two are `OVERHEAD_STDLIB` and `OVERHEAD_LOOP` in
bench/budgets.py; docs/performance.md shows `make bench`'s figures against them.
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
    """The cheapest steps there are: a counter and a sum."""
    total = 0
    for i in range(n):
        total += i
    return total


def many_locals(n):
    """A pure loop in a frame with many names, two of them containers: what a cheap step skips."""
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

FLOOR_TEXT = ("the quick brown fox jumps over the lazy dog; it was the best of times, it was the worst of "
              "times. a small lesson in context compaction for an agent loop ") * 4

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

def callback_floors(repeat):
    """loop-heavy under four stand-ins for a recorder, each doing less than any faithful one, so no
    Python-level recorder goes under them: a do-nothing callback per line; a minimal look at every
    local after each line (identity compare, a dict compared with a C-level copy, a C-level repr when
    changed: no trace kept, no previews); the same look at only the names each line writes (as a
    perfect analysis of what a line's calls can change would know); and only reading those names.
    In Pyodide's monitoring, else settrace."""
    import ast, inspect, sys
    from stepwise_bench import loop_heavy
    text = FLOOR_TEXT
    code = loop_heavy.__code__
    def timed():
        best = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            loop_heavy(text, 8)
            best = min(best, (time.perf_counter() - started) * 1000)
        return best
    writes = {}   # line -> the names its statement writes (a subscript store writes its container)
    for node in ast.walk(ast.parse(inspect.getsource(loop_heavy))):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.For)):
            targets = [node.target]
        else:
            continue
        writes[code.co_firstlineno + node.lineno - 1] = tuple(
            t.value.id if isinstance(t, ast.Subscript) else t.id for t in targets)
    def looker(only_written, read_only=False):
        """look(frame, line): called as `line` is about to run."""
        known, copies, shown, after = {}, {}, [], [None]
        def look(frame, line):
            if only_written:
                names = writes.get(after[0], ())
                after[0] = line
                if not names:
                    return
            f_locals = frame.f_locals
            for name in names if only_written else f_locals:
                value = f_locals[name]
                if read_only:
                    continue
                if known.get(name) is value and (type(value) is not dict or copies[name] == value):
                    continue
                known[name] = value
                if type(value) is dict:
                    copies[name] = value.copy()
                shown.append(repr(value))
        return look
    def hooked(look):
        """The best time of loop-heavy with `look` called at every line (None: a bare no-op callback)."""
        if hasattr(sys, "monitoring"):
            mon, tool, getframe = sys.monitoring, 4, sys._getframe
            mon.use_tool_id(tool, "floor")
            mon.register_callback(tool, mon.events.LINE, (lambda _, line: look(getframe(1), line)) if look
                                  else (lambda _, line: None))
            mon.set_local_events(tool, code, mon.events.LINE)
            try:
                return timed(), "monitoring"
            finally:
                mon.set_local_events(tool, code, 0)
                mon.register_callback(tool, mon.events.LINE, None)
                mon.free_tool_id(tool)
        def tracer(frame, event, arg):
            if frame.f_code is not code:
                return None
            if event == "line" and look:
                look(frame, frame.f_lineno)
            return tracer
        sys.settrace(tracer)
        try:
            return timed(), "settrace"
        finally:
            sys.settrace(None)
    plain = timed()
    rows = []
    for label, look in [("no-op line callback", None),
                        ("minimal look, every local", looker(False)),
                        ("minimal look, written names", looker(True)),
                        ("written names read, no more", looker(True, read_only=True))]:
        ms, name = hooked(look)
        rows.append(["  floor: " + label, plain, ms, name, 0, "-", None, None])
    return rows

rows = []
for label, args in JOBS:
    plain = best(args, REPEAT, record=False)[0]
    traced, doc, wall, size = best(args, REPEAT)
    rows.append([label, plain, traced, doc["backend"], doc["stats"]["events"], doc["end"]["status"], wall, size])
rows.extend(callback_floors(REPEAT))
result = json.dumps(rows)
'''


def jobs(bench_dir: str) -> list:
    from steptrace import scenario
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
        code = f"JOBS = {jobs(bench_dir[1:])!r}\nREPEAT = {repeat}\nFLOOR_TEXT = {FLOOR_TEXT!r}\n" + MEASURE
        rows = json.loads(runtime.run(code, timeout=600))
        report(f"Pyodide {runtime.pyodide_version} (Python {runtime.python_version})", rows)
    finally:
        runtime.close()


def in_cpython(repeat: int) -> None:
    folder = tempfile.mkdtemp(prefix="stepwise-bench-")
    Path(folder, "stepwise_bench.py").write_text(BENCH_MODULE, encoding="utf-8")
    sys.path.insert(0, folder)
    namespace = {"JOBS": jobs(folder.lstrip("/")), "REPEAT": repeat, "FLOOR_TEXT": FLOOR_TEXT}
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
