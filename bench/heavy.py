"""Long loops and object-heavy code (issue 29): each program of bench/heavy_program.py run untraced and
traced at the page's default limit (2.5 s), on CPython (a fresh process each, for its peak memory) and in
Pyodide under node (bench/heavy.mjs): events a second, bytes an event, peak memory, whether it finished
inside the limit and whether its end was kept."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import BENCH, REPO, log, stats

LIMIT = 2.5
# name -> entry (the shown module's names are imported by the setup)
WORKLOADS = {
    "string_50k": "build_string(50_000)",
    "list_200k": "build_list(200_000)",
    "nesting_10k": "nest(10_000)",
    "recursion_50k": "import sys\nsys.setrecursionlimit(60_000)\ncount_down(50_000)",
    "dijkstra_grid": "roadmap = grid_map(10)\nfor _ in range(2):\n    shortest_path(roadmap, (0, 0), (9, 9))",
}
SETUP = "from heavy.heavy_program import *\n"
SOURCE, MODULE = "heavy/heavy_program.py", "heavy.heavy_program"

CHILD = f"""
import json, resource, sys, tempfile, time
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from steptrace.runner import run_case
setup, entry, traced, limit = sys.argv[3], sys.argv[4], sys.argv[5] == "1", float(sys.argv[6])
started = time.perf_counter()
if traced:
    with tempfile.TemporaryFile() as trace:     # as `stepwise trace` does: the document streamed to a file
        run_case({SOURCE!r}, {MODULE!r}, setup, entry, time_limit=limit, out=trace)
        seconds, peak = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        trace.seek(0)
        data = trace.read()     # after the figures: reading the document back is the bench's, not the run's
    doc = json.loads(data)
    out = {{"events": doc["stats"]["events"], "kept": doc["stats"]["kept"], "gap": doc["gap"],
           "end": doc["end"]["status"], "reason": doc["end"]["reason"], "bytes": len(data)}}
else:
    namespace = {{}}
    exec(setup, namespace)
    exec(entry, namespace)
    out = {{}}
    seconds, peak = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out["s"] = seconds
out["peak_mb"] = peak / 1024
print(json.dumps(out))
"""


def _package(tmp: Path) -> Path:
    folder = tmp / "heavy"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    shutil.copy(BENCH / "heavy_program.py", folder / "heavy_program.py")
    return tmp


def _cpython(root: Path, entry: str, traced: bool) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(REPO / "py"), SETUP, entry,
                           "1" if traced else "0", str(LIMIT)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _summary(untraced: list[dict], traced: list[dict]) -> dict:
    last = traced[-1]
    return {
        "untraced_ms": stats([r["s"] * 1000 for r in untraced], 1),
        "traced_ms": stats([r["s"] * 1000 for r in traced], 0),
        "events": last["events"], "kept": last["kept"], "end": last["end"], "reason": last.get("reason"),
        "finished": last["end"] != "stopped", "gap": last.get("gap"),
        "events_per_s": round(last["events"] / max(last["s"], 1e-9)),
        "bytes_per_event": round(last["bytes"] / max(last["events"], 1)),
        "peak_mb": round(max(r["peak_mb"] for r in traced)),
        "untraced_peak_mb": round(max(r["peak_mb"] for r in untraced)),
        # the page's index of the trace (bench/heavy.mjs; Pyodide only), and the object changes in it (where-from)
        **({"index_ms": round(last["index_ms"], 1), "object_changes_ms": round(last["objects_ms"], 1)}
           if "index_ms" in last else {}),
    }


def _pyodide(name: str, entry: str, reps: int) -> dict:
    """One program in a node process of its own: a program that kills Pyodide (its JS stack) says so."""
    # A JS stack of 7 MB (within the 8 MB a Linux main thread has): with node's default ~1 MB, Pyodide 314
    # itself dies freeing the 10,000-deep list of nesting_10k, untraced too (CPython 3.14 frees nested lists
    # recursively, in C frames on the JS stack); so would a browser worker's. The figures are the recorder's.
    request = json.dumps({"workloads": {name: entry}, "setup": SETUP, "source": SOURCE, "module": MODULE,
                          "limit": LIMIT, "reps": reps})
    done = subprocess.run(["node", "--stack-size=7000", str(BENCH / "heavy.mjs"), request],
                          cwd=REPO, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        fatal = [line for line in done.stderr.splitlines() if "Error" in line]
        return {"error": (fatal or [done.stderr[-300:]])[0][:300]}
    runs = json.loads(done.stdout.strip().splitlines()[-1])[name]
    return _summary(runs["untraced"], runs["traced"])


def bench_heavy(reps: int) -> dict:
    results: dict = {"limit_s": LIMIT, "cpython": {}, "pyodide": {}}
    with tempfile.TemporaryDirectory() as tmp:
        root = _package(Path(tmp))
        for name, entry in WORKLOADS.items():
            log(f"heavy {name} (CPython)")
            untraced = [_cpython(root, entry, False) for _ in range(reps)]
            traced = [_cpython(root, entry, True) for _ in range(reps)]
            results["cpython"][name] = _summary(untraced, traced)
    for name, entry in WORKLOADS.items():
        log(f"heavy {name} (Pyodide, bench/heavy.mjs)")
        results["pyodide"][name] = _pyodide(name, entry, reps)
    return results


if __name__ == "__main__":
    print(json.dumps(bench_heavy(int(sys.argv[1]) if sys.argv[1:] else 1)))
