"""The recorder's overhead: traced / untraced run time of tools/overhead.py's workloads.

  - overhead: in Pyodide under node (tools/pyodide_node), several rounds in one Pyodide;
  - overhead_cpython: the cost per step on this CPython (settrace), `tools/overhead.py --cpython`'s table read.
"""
from __future__ import annotations

import importlib.util
import json
import platform
import re
import subprocess
import sys

from common import PYODIDE_NODE, REPO, log, stats


def load_overhead():
    spec = importlib.util.spec_from_file_location("stepwise_overhead", REPO / "tools" / "overhead.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_overhead(rounds: int, repeat: int) -> dict:
    """Ratios traced/untraced from tools/overhead.py's workloads, several rounds in one Pyodide."""
    runs: list[list] = []  # each round's rows (a round that failed in Pyodide leaves the ones before it)
    source = "tools/overhead.py (imported)"
    try:
        versions = rounds_in_pyodide(rounds, repeat, runs)
    except (AttributeError, ImportError, KeyError, ValueError, RuntimeError) as error:
        # The overhead tool changed shape: fall back to running it and reading its table.
        log(f"overhead: import path failed ({error}); running tools/overhead.py instead")
        source = "tools/overhead.py (subprocess)"
        versions = {}
        runs += rounds_in_subprocess(rounds, repeat)
    return {"source": source, "rounds": rounds, "best_of": repeat, **versions, "workloads": summarise(runs)}


def rounds_in_pyodide(rounds: int, repeat: int, runs: list[list]) -> dict:
    """tools/overhead.py's MEASURE, run `rounds` times in one Pyodide; each round's rows go to `runs`.
    Returns the Pyodide and Python versions."""
    overhead = load_overhead()
    needed = ("BENCH_MODULE", "MEASURE", "jobs")
    if not all(hasattr(overhead, name) for name in needed):
        raise AttributeError(f"tools/overhead.py no longer defines all of {needed}")
    if str(PYODIDE_NODE) not in sys.path:
        sys.path.insert(0, str(PYODIDE_NODE))
    from bridge import PyodideNode
    runtime = PyodideNode()
    try:
        bench_dir = "/tmp/stepwise_bench_mod"
        runtime.run(f"import os, sys\nos.makedirs({bench_dir!r}, exist_ok=True)\n"
                    f"open({bench_dir + '/stepwise_bench.py'!r}, 'w').write({overhead.BENCH_MODULE!r})\n"
                    f"sys.path.insert(0, {bench_dir!r})\nresult = 'ok'\n")
        setup = getattr(overhead, "BENCH_SETUP", "")
        code = (f"JOBS = {overhead.jobs(bench_dir[1:])!r}\nREPEAT = {repeat}\n"
                f"BENCH_SETUP = {setup!r}\n" + overhead.MEASURE)
        for _ in range(rounds):
            runs.append(json.loads(runtime.run(code, timeout=600)))
        versions = {"pyodide": runtime.pyodide_version, "python": runtime.python_version}
    finally:
        runtime.close()
    return versions


def rounds_in_subprocess(rounds: int, repeat: int) -> list[list]:
    """`python tools/overhead.py` run `rounds` times, each printed table read back into rows."""
    runs = []
    for _ in range(rounds):
        out = subprocess.run([sys.executable, "tools/overhead.py", "--repeat", str(repeat)], cwd=REPO,
                             capture_output=True, text=True, check=True, timeout=600).stdout
        rows = []
        for line in out.splitlines():
            match = re.match(r"^(\S.*?)\s+([0-9.]+)\s+([0-9.]+)\s+[0-9.]+x\s+(\S+)\s+(\d+)\s+(\S+)$", line.strip())
            if match:
                rows.append([match[1], float(match[2]), float(match[3]), match[4], int(match[5]), match[6]])
        runs.append(rows)
    return runs


def summarise(runs: list[list]) -> dict:
    """Per workload: ratio, untraced and traced ms over the rounds, and what the recorder said of it."""
    workloads: dict[str, dict] = {}
    for rows in runs:
        for label, plain, traced, backend, events, status, *_ in rows:  # newer tools add wall ms, size
            entry = workloads.setdefault(label.strip(), {"ratios": [], "untraced_ms": [], "traced_ms": [],
                                                         "backend": backend, "events": events, "end": status})
            entry["ratios"].append(traced / plain if plain else float("nan"))
            entry["untraced_ms"].append(plain)
            entry["traced_ms"].append(traced)
    result = {}
    for label, entry in workloads.items():
        result[label] = {"ratio": stats(entry["ratios"], 2), "untraced_ms": stats(entry["untraced_ms"], 2),
                         "traced_ms": stats(entry["traced_ms"], 2), "backend": entry["backend"],
                         "events": entry["events"], "end": entry["end"]}
    return result


def bench_overhead_cpython(rounds: int, repeat: int) -> dict:
    """The recorder's cost per step on this CPython (settrace): tools/overhead.py --cpython, its table read."""
    samples: dict[str, list[float]] = {}
    events: dict[str, int] = {}
    for _ in range(rounds):
        command = [sys.executable, "tools/overhead.py", "--cpython", "--no-pyodide", "--repeat", str(repeat)]
        out = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True, timeout=900).stdout
        for line in out.splitlines():
            match = re.match(r"^(\S.*?)\s+([0-9.]+)\s+([0-9.]+)\s+[0-9.]+x\s+([0-9.]+)\s+settrace\s+(\d+)",
                             line.strip())
            if match:
                samples.setdefault(match[1], []).append(float(match[4]))
                events[match[1]] = int(match[5])
    return {"python": platform.python_version(), "rounds": rounds, "best_of": repeat,
            "us_per_step": {label: stats(values, 2) | {"events": events[label]} for label, values in samples.items()}}
