"""What every benchmark section shares: the repo's paths, the progress log and the summary of repeated runs."""
from __future__ import annotations

import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
RESULTS = BENCH / "results.json"
PERFORMANCE = REPO / "docs" / "performance.md"
NOTES = REPO / "docs" / "performance-notes.md"
PYODIDE_PACKAGE = REPO / "node_modules" / "pyodide"
# The long-lived Pyodide-under-node helper that tests, bench/ and tools/ share (`from bridge import PyodideNode`).
PYODIDE_NODE = REPO / "tools" / "pyodide_node"


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def stats(values: list[float], digits: int = 3) -> dict:
    """Median, min, max and count of repeated measurements (the machine is noisy: one run says little)."""
    values = [float(v) for v in values]
    if not values:
        return {"n": 0, "median": None, "min": None, "max": None}
    return {"n": len(values), "median": round(statistics.median(values), digits),
            "min": round(min(values), digits), "max": round(max(values), digits)}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]
