"""Site build: wall time of `python build.py --out DIR` as a subprocess."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from common import REPO, stats


def bench_build(runs: int, tmp: Path) -> dict:
    """Wall time of `python build.py --out DIR` (a fresh dir each time, and again into the same dir)."""
    def once(out: Path) -> tuple[float, float]:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "build.py", "--out", str(out)], cwd=REPO, capture_output=True,
                              text=True, check=True)
        wall = time.perf_counter() - started
        inner = re.search(r"in ([0-9.]+) s", done.stdout)
        return wall, float(inner.group(1)) if inner else float("nan")
    fresh = [once(tmp / f"build-{n}") for n in range(runs)]
    again = [once(tmp / "build-0") for _ in range(runs)]
    return {"fresh_wall_s": stats([w for w, _ in fresh]), "fresh_inner_s": stats([i for _, i in fresh]),
            "rebuild_wall_s": stats([w for w, _ in again]), "rebuild_inner_s": stats([i for _, i in again])}
