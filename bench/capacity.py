"""Trace capacity: bench/capacity.mjs records a ~1,000,000-event run in Pyodide under node and times its
load, hand-over and moves; this runs it and summarises its JSON."""
from __future__ import annotations

import json
import subprocess
import time

from common import BENCH, REPO, log, stats


def bench_capacity(records: int, loads: int, moves: int) -> dict:
    started = time.perf_counter()
    done = subprocess.run(["node", "--expose-gc", str(BENCH / "capacity.mjs"), "--records", str(records),
                           "--loads", str(loads), "--moves", str(moves)],
                          cwd=REPO, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"bench/capacity.mjs failed:\n{done.stderr[-3000:]}")
    for line in done.stderr.splitlines():
        log(line)
    data = json.loads(done.stdout.strip().splitlines()[-1])
    data["wall_s"] = round(time.perf_counter() - started, 1)
    records_ = data["record"]
    data["summary"] = {
        "events": min(r["events"] for r in records_), "kept": min(r["kept"] for r in records_),
        "gap": any(r["gap"] for r in records_),
        "record_ms": stats([r["elapsed_ms"] for r in records_], 0),
        "run_case_ms": stats([r["run_case_ms"] for r in records_], 0),
        "bytes": stats([r["bytes"] for r in records_], 0),
        "parse_ms": stats([x["parse_ms"] for x in data["load"]], 0),
        "construct_ms": stats([x["construct_ms"] for x in data["load"]], 0),
        "load_ms": stats([x["total_ms"] for x in data["load"]], 0),
        "packed_run_case_ms": stats([r["run_case_ms"] for r in data["packed"]], 0),
        "packed_index_ms": stats([r["index_ms"] for r in data["packed"]], 0),
        "packed_bytes": stats([r["bytes"] for r in data["packed"]], 0),
        "hand_over_ms": stats([h["clone_ms"] + h["revive_and_first_paint_queries_ms"] for h in data["hand_over"]], 2),
    }
    return data
