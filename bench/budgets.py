"""The budgets docs/performance.md holds each figure to: the one place they are written down.

`text` is what the table shows; `limit` is the same bound in the unit of the measured figure (the unit is
noted beside it), None for a pass/fail row. `reference` is the figure a budget was set against, where there
is one: Python Tutor's cost per step (measured outside this repository), shown beside the figure's name.
bench/table.py compares each figure with its budget; docs/performance-notes.md says what bounds the figures.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    text: str
    limit: float | None = None
    reference: str | None = None


INFO = Budget("(info)")  # shown for context, held to no budget

#                      what the table shows   limit   unit of `limit`
NAV_COLD = Budget(          "≤ 3 s",           3000)  # ms: navigation → first trace painted, cold cache
NAV_WARM = Budget(          "≤ 1.5 s",         1500)  # ms: the same, warm cache
RERUN_P95 = Budget(         "≤ 50 ms",           50)  # ms: re-run on a warm worker, click → painted
OVERHEAD_STDLIB = Budget(   "≤ 1.5×",           1.5)  # traced / untraced, time outside the shown file
OVERHEAD_LOOP = Budget(     "≤ 10×",             10)  # traced / untraced, locals change on every line
OVERHEAD_LESSON = Budget(   "≤ 5×",               5)  # traced / untraced, the lesson's worst case
STEP_PYODIDE = Budget(      "≤ 2 µs",             2)  # µs a step, plain loop, Pyodide
STEP_CPYTHON = Budget(      "≤ 1.4 µs",         1.4, reference="Python Tutor: 14.4 µs")  # µs a step
STEP_MESSAGES = Budget(     "≤ 30 µs",           30, reference="Python Tutor: 623 µs")   # µs a step
MILLION_READY = Budget(     "≤ 3 s",           3000)  # ms: a 1M-event live run, click → ready to step
MAIN_THREAD_TASK = Budget(  "≤ 50 ms",           50)  # ms: the longest main-thread task meanwhile
FRAME = Budget(             "≤ 16 ms",           16)  # ms: a move (and its paint's queries) within a frame
CAPACITY = Budget(          "≥ 1,000,000", 1_000_000)  # events recorded and kept whole in one run
RUNAWAY_STOP = Budget(      "≤ 1 s",           1000)  # ms: runaway code, click → 出错
USABLE_AGAIN = Budget(      "works")                  # the next normal run reaches 已完成
FIRST_TRACE_FAST = Budget(  "≤ 1.0 s",         1000)  # ms: first trace painted on the fast throttled link
FIRST_TRACE_SLOW = Budget(  "≤ 3.0 s",         3000)  # ms: the same on the slower links
FIRST_TRACE_BYTES = Budget( "≤ 250 KB",         250)  # KB transferred before the first trace, cold
LIVE_COLD_FAST = Budget(    "≤ 6 s",           6000)  # ms: first live run, boot included, fast link
LIVE_WARM_FAST = Budget(    "≤ 100 ms",         100)  # ms: the same after the idle boot, fast link
PAGE_WEIGHT = Budget(       "≤ 150 KB",  150 * 1024)  # bytes transferred without Pyodide (gzip)
SITE_BUILD = Budget(        "≤ 2 s",              2)  # s: `python build.py`, wall
