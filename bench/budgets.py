"""The budgets docs/performance.md holds each figure to: the one place they are written down.

`text` is what the table shows; `limit` is the same bound in the unit of the measured figure (the unit is
noted beside it), None for a pass/fail row. bench/table.py compares each figure with its budget;
docs/performance-notes.md says what bounds the figures.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    text: str
    limit: float | None = None


INFO = Budget("(info)")  # shown for context, held to no budget

# What a reader or an author feels. The recorder's cost per step and its traced/untraced ratios are shown as
# information (beside Python Tutor's, measured in the same run: bench/tutor.py), not held to budgets.
#                      what the table shows   limit   unit of `limit`
RERUN_P95 = Budget(         "≤ 100 ms",         100)  # ms: a lesson case run live, warm worker, click → painted
MILLION_READY = Budget(     "≤ 10 s",        10_000)  # ms: a 1M-event live run, click → ready to step
MAIN_THREAD_TASK = Budget(  "≤ 50 ms",           50)  # ms: the longest main-thread task meanwhile
FRAME = Budget(             "≤ 16 ms",           16)  # ms: a move (and its paint's queries) within a frame
FIRST_TRACE_FAST = Budget(  "≤ 0.7 s",          700)  # ms: first trace painted at 9 Mbps / 150 ms (issue 31)
FIRST_TRACE_BYTES = Budget( "≤ 250 KB",         250)  # KB transferred before the first trace, cold
LIVE_COLD_FAST = Budget(    "≤ 5 s",           5000)  # ms: first live run, boot included, at 9 Mbps / 150 ms
PLAY_EDITOR = Budget(       "≤ 1 s",           1000)  # ms: playground cold open → editor takes keys, 9 Mbps / 150 ms
PLAY_FIRST_RUN = Budget(    "≤ 150 ms",         150)  # ms: a 1,000-step program's first run after boot
CAPACITY = Budget(          "≥ 1,000,000", 1_000_000)  # events recorded and kept whole in one run
SITE_BUILD = Budget(        "≤ 2 s",              2)  # s: `python build.py`, wall, warm (proofs cached)
