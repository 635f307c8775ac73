"""The rows of docs/performance.md's table: each figure of bench/results.json beside its budget (bench/budgets.py).

A row is {figure, budget, measured, ratio, met, notes}: `measured` is the median with min–max and the number
of runs, `ratio` is measured / budget, `notes` names the section of docs/performance-notes.md that says what
bounds the figure (None when there is none). Every number here comes from the results or from a budget.
"""
from __future__ import annotations

import statistics

import budgets as b
import network
from common import stats
from page import FINISHED

# Per-step cost on CPython means something over many steps only: the lesson's cases with at least this many events.
MANY_STEPS = 500


def fmt_ms(value: float | None) -> str:
    if value is None:
        return "—"
    if value >= 1000:
        return f"{value / 1000:.2f} s"
    if value >= 10:
        return f"{value:.0f} ms"
    return f"{value:.1f} ms" if value >= 1 else f"{value:.3f} ms"


def fmt_kb(value: float) -> str:
    return f"{value / 1024:.1f} KB"


def fmt_mb(value: float) -> str:
    return f"{value / 1e6:.1f} MB"


def fmt_x(value: float) -> str:
    return f"{value:.2f}×"


def fmt_s(value: float) -> str:
    return f"{value:.2f} s"


def row(figure: str, budget: b.Budget, s: dict | None, fmt, *, met: bool | None = None,
        measured: str | None = None, notes: str | None = None) -> dict:
    """One table row. `s` is a stats dict (median/min/max/n) in the unit of `budget.limit`."""
    if measured is None and s is not None:
        span = f"{fmt(s['min'])}–{fmt(s['max'])}" if s["n"] > 1 else "1 run"
        measured = f"{fmt(s['median'])} ({span}, n={s['n']})"
    ratio = None
    if budget.limit is not None and s is not None and s.get("median") is not None:
        ratio = s["median"] / budget.limit
        if met is None:
            met = ratio <= 1
    return {"figure": figure, "budget": budget.text, "measured": measured,
            "ratio": None if ratio is None else round(ratio, 2), "met": met, "notes": notes}


def table(results: dict) -> list[dict]:
    rows = [{"figure": f"Section `{name}` failed", "budget": "—", "measured": message.splitlines()[0][:200],
             "ratio": None, "met": False, "notes": None} for name, message in results.get("failures", {}).items()]
    for key, rows_of in (("navigation", navigation_rows), ("rerun", rerun_rows), ("memory", memory_rows),
                         ("overhead", overhead_rows),
                         ("overhead_cpython", cpython_rows), ("tutor", tutor_rows), ("million", million_rows),
                         ("fresh", fresh_rows),
                         ("capacity", capacity_rows), ("runaway", runaway_rows), ("network", network_rows),
                         ("weight", weight_rows), ("build", build_rows), ("playground", playground_rows)):
        if results.get(key):
            rows += rows_of(results[key])
    return rows


def navigation_rows(nav: dict) -> list[dict]:
    return [row(f"Navigation → first trace painted, {name} cache", budget, nav[name]["painted_ms"], fmt_ms,
                met=None if nav[name]["all_finished"] else False, notes="Navigation")
            for name, budget in (("cold", b.INFO), ("warm", b.INFO))]


def memory_rows(memory: dict) -> list[dict]:
    return [row(f"Drawing one step's memory picture: {memory['objects']} objects reached, {memory['drawn']} drawn "
                "(boxes, arrows, layout)", b.FRAME, memory["draw_100_ms"], fmt_ms)]


def rerun_rows(rerun: dict) -> list[dict]:
    p95 = {"n": rerun["n"], "median": rerun["p95"], "min": rerun["p95_by_round"]["min"],
           "max": rerun["p95_by_round"]["max"]}
    p50 = {"n": rerun["n"], "median": rerun["p50"], "min": rerun["p50_by_round"]["min"],
           "max": rerun["p50_by_round"]["max"]}
    note = f"(p95 of {rerun['n']} runs; range = per-round p95, {rerun['rounds']} rounds)"
    return [row("A live run of every lesson case, warm worker, click → painted, p95", b.RERUN_P95, p95, fmt_ms,
                measured=f"{fmt_ms(rerun['p95'])} {note}", met=None if rerun["all_ran"] else False,
                notes="A live run of a lesson case"),
            row("A live run of every lesson case, warm worker, click → painted, p50", b.INFO, p50, fmt_ms,
                measured=f"{fmt_ms(rerun['p50'])} (per-round p50 {fmt_ms(p50['min'])}–{fmt_ms(p50['max'])})")]


def overhead_rows(over: dict) -> list[dict]:
    loads = over["workloads"]
    stdlib, loop, plain = (find(loads, prefix) for prefix in ("stdlib-heavy", "loop-heavy", "plain loop"))
    rows = []
    if stdlib:
        rows.append(row("Recorder overhead, stdlib-heavy (time outside the shown file)", b.INFO,
                        stdlib["ratio"], fmt_x, notes="Stdlib-heavy"))
    if loop:
        rows.append(row("Recorder overhead, loop-heavy shown code (locals every line)", b.INFO,
                        loop["ratio"], fmt_x, notes="Per step"))
    lesson = {k: v for k, v in loads.items() if "/" in k}
    if lesson:
        medians = [v["ratio"]["median"] for v in lesson.values()]
        worst = max(lesson, key=lambda k: lesson[k]["ratio"]["median"])
        rows.append(row("Recorder overhead, the lesson's worst case vs untraced (Pyodide)", b.INFO,
                        lesson[worst]["ratio"], fmt_x,
                        measured=f"{lesson[worst]['ratio']['median']:.1f}× ({worst}: "
                                 f"{lesson[worst]['untraced_ms']['median']:.1f} → "
                                 f"{lesson[worst]['traced_ms']['median']:.1f} ms); median case "
                                 f"{statistics.median(medians):.1f}×"))
    if plain and plain.get("events"):
        per = {k: (plain["traced_ms"][k] - plain["untraced_ms"][k]) * 1000 / plain["events"]
               for k in ("median", "min", "max")}
        rows.append(row(f"Per step, a {plain['events'] // 1000}k-step plain loop, Pyodide", b.INFO,
                        {"n": plain["ratio"]["n"], **per}, lambda v: f"{v:.2f} µs", notes="Per step"))
    return rows


def cpython_rows(cpy: dict) -> list[dict]:
    per = cpy["us_per_step"]
    rows = []
    loop = find(per, "plain loop")
    if loop:
        rows.append(row(f"Per step, plain loop, CPython {cpy['python']} settrace",
                        b.INFO, loop, lambda v: f"{v:.2f} µs", notes="Per step"))
    lesson = {k: v for k, v in per.items() if "/" in k and v["events"] >= MANY_STEPS}
    if lesson:
        worst = max(lesson, key=lambda k: lesson[k]["median"])
        rows.append(row(f"Per step, message-building code (the lesson's costliest case, {worst}), CPython",
                        b.INFO, lesson[worst], lambda v: f"{v:.1f} µs", notes="Per step"))
    return rows


def tutor_rows(tut: dict) -> list[dict]:
    """Per program: the whole traced call, Stepwise beside Python Tutor (when its tracer was there)."""
    rows = []
    for label, p in tut["programs"].items():
        ours = p["stepwise_ms"]
        text = f"Stepwise {fmt_ms(ours['median'])} ({p['stepwise_steps']:,} steps)"
        if "tutor_ms" in p:
            theirs = p["tutor_ms"]
            text += (f" · Python Tutor {fmt_ms(theirs['median'])} ({p['tutor_steps']:,} steps): "
                     f"{ours['median'] / theirs['median']:.2f}× its time")
        else:
            text += " · Python Tutor not measured (set PYTHON_TUTOR)"
        rows.append(row(f"Whole traced call, CPython {tut['python']}: {label}", b.INFO, ours, fmt_ms, measured=text,
                        notes="Beside Python Tutor"))
    return rows


def fresh_rows(fresh: dict) -> list[dict]:
    """The alternative measured: a fresh interpreter per live run (docs/performance-notes.md says the choice)."""
    note = "Fresh interpreter per run"
    return [row("Fresh interpreter per run: booting the spare (warm-up included)", b.INFO, fresh["boot_ms"], fmt_ms,
                notes=note),
            row("Fresh interpreter per run: a lesson case on the fresh spare, click → trace", b.INFO,
                fresh["fresh_run_ms"], fmt_ms, notes=note),
            row("The same on the one warm worker whose state is put back", b.INFO, fresh["warm_run_ms"], fmt_ms,
                notes=note),
            row("Page memory with one worker / with the spare too", b.INFO, fresh["memory_one_worker_mb"],
                lambda v: f"{v:.0f} MB", measured=f"{fresh['memory_one_worker_mb']['median']:.0f} MB / "
                                                  f"{fresh['memory_two_workers_mb']['median']:.0f} MB", notes=note)]


def million_rows(mil: dict) -> list[dict]:
    runs = mil["runs"]
    size = millions(min(r["events"] for r in runs))
    whole = all(r["events"] >= b.CAPACITY.limit and not r["gap"] for r in runs)
    moves = [m for m in mil["moves"] if "conditional" not in m["label"]]
    worst = max(moves, key=lambda m: m["max"])
    rows = [row(f"{size}-event live run in the page: click → ready to step (record + index + transfer)",
                b.MILLION_READY, stats([r["click_to_ready_ms"] for r in runs], 0), fmt_ms,
                met=None if whole else False, notes="A million steps in the page"),
            row(f"{size}-event live run in the page: longest main-thread task meanwhile", b.MAIN_THREAD_TASK,
                stats([r["longest_main_task_ms"] for r in runs], 0), fmt_ms, notes="A million steps in the page"),
            row(f"{size} events in the page: a move + the queries a paint makes, worst", b.FRAME,
                {"n": len(moves), "median": worst["max"], "min": worst["max"], "max": worst["max"]},
                fmt_ms, measured=f"{fmt_ms(worst['max'])} max ({worst['label']})", notes="Moves at a million events")]
    cond = next((m for m in mil["moves"] if "conditional" in m["label"]), None)
    if cond:
        rows.append(row(f"{size} events in the page: first continue to a conditional breakpoint (i == k)", b.FRAME,
                        {"n": None, "median": cond["median"], "min": cond["median"], "max": cond["max"]}, fmt_ms,
                        measured=f"{fmt_ms(cond['median'])} median (max {fmt_ms(cond['max'])})",
                        notes="Conditional breakpoints"))
    if mil.get("heap"):
        rows.append(row(f"{size} events in the page: JS heap after loading", b.INFO, None, fmt_mb,
                        measured=f"{mil['heap']['used_mb']:.0f} MB"))
    return rows


def capacity_rows(cap: dict) -> list[dict]:
    s = cap["summary"]
    size = millions(s["events"])
    rows = [row("Trace capacity: events recorded and kept in one run", b.CAPACITY, None, str,
                measured=f"{s['kept']:,} kept of {s['events']:,} (gap: {'yes' if s['gap'] else 'none'})",
                met=s["kept"] >= b.CAPACITY.limit and not s["gap"], notes="Trace capacity"),
            row(f"{size}-event trace: record time in Pyodide (traced run)", b.INFO, s["record_ms"], fmt_ms),
            row(f"{size}-event trace: run_case incl. JSON encoding", b.INFO, s["run_case_ms"], fmt_ms),
            row(f"{size}-event trace: JSON size", b.INFO, s["bytes"], fmt_mb),
            row(f"{size}-event trace: JSON.parse + new Replay (node; the CLI's form)", b.INFO, s["load_ms"], fmt_ms)]
    if "packed_bytes" in s:
        rows += [row(f"{size}-event trace, packed (what the worker sends): size", b.INFO, s["packed_bytes"], fmt_mb),
                 row(f"{size}-event trace, packed: run_case in Pyodide (record + pack)", b.INFO,
                     s["packed_run_case_ms"], fmt_ms),
                 row(f"{size}-event trace, packed: index in the worker (node)", b.INFO, s["packed_index_ms"], fmt_ms),
                 row(f"{size}-event trace, packed: the page's share (clone + revive + first queries)", b.INFO,
                     s["hand_over_ms"], fmt_ms)]
    plain = [m for m in cap["moves"] if "conditional" not in m["label"]]
    worst = max(plain, key=lambda m: m["move"]["max"])
    moves = sum(m["move"]["n"] for m in plain)
    maxima = [m["move"]["max"] for m in plain]
    rows.append(row(f"{size} events: any step/continue/back (move alone), worst move", b.FRAME,
                    {"n": moves, "median": max(maxima), "min": min(maxima), "max": max(maxima)}, fmt_ms,
                    measured=f"{fmt_ms(max(maxima))} max ({worst['label']}); medians "
                             f"{fmt_ms(min(m['move']['median'] for m in plain))}–"
                             f"{fmt_ms(max(m['move']['median'] for m in plain))}; {moves} moves",
                    notes="Moves at a million events"))
    ui = [m["with_ui_queries"]["max"] for m in plain]
    worst_ui = max(plain, key=lambda m: m["with_ui_queries"]["max"])
    rows.append(row(f"{size} events: move + the queries the page renders (stack, locals, output), worst", b.FRAME,
                    {"n": moves, "median": max(ui), "min": min(ui), "max": max(ui)}, fmt_ms,
                    measured=f"{fmt_ms(max(ui))} max ({worst_ui['label']}); p99 ≤ "
                             f"{fmt_ms(max(m['with_ui_queries']['p99'] for m in plain))}",
                    notes="Moves at a million events"))
    cond = next((m for m in cap["moves"] if "conditional" in m["label"]), None)
    if cond:
        c = cond["move"]
        rows.append(row(f"{size} events: continue to a conditional breakpoint (first time)", b.FRAME,
                        {"n": c["n"], "median": c["median"], "min": c["min"], "max": c["max"]}, fmt_ms,
                        notes="Conditional breakpoints"))
    return rows


def runaway_rows(run: dict) -> list[dict]:
    rows = []
    labels = (("isolated", "isolated: interrupt buffer"), ("not_isolated", "not isolated: terminate + reboot"))
    for key, label in labels:
        r = run.get(key)
        if not r:
            continue
        both = r["limit"]["samples"] + r["stop"]["samples"]
        rows += [row(f"Runaway ({label}): click Run → 出错 by the {r['deadline_ms'] / 1000:.1f} s deadline",
                     b.INFO, r["limit"]["to_error_ms"], fmt_ms, met=None if r["limit"]["all_error"] else False,
                     notes="Runaway"),
                 row(f"Runaway ({label}): click Stop → 出错", b.INFO, r["stop"]["to_error_ms"], fmt_ms,
                     met=None if r["stop"]["all_error"] else False, notes="Runaway"),
                 row(f"Runaway ({label}): next normal run, click → 已完成", b.INFO,
                     stats([s["next_run_ms"] for s in both], 1), fmt_ms,
                     met=r["limit"]["all_usable_again"] and r["stop"]["all_usable_again"], notes="Runaway")]
    return rows


def network_rows(net: dict) -> list[dict]:
    links = [name for name in network.LINKS if name in net]
    rows = [row(f"{name}, cold: first trace painted",
                b.FIRST_TRACE_FAST if name == network.FAST else b.INFO,
                stats([r["first_trace_ms"] for r in net[name]["runs"]], 1), fmt_ms) for name in links]
    fast = net.get(network.FAST, {}).get("runs", [])
    if fast:
        kb = stats([r["bytes_before_first_trace"] / 1024 for r in fast], 1)
        rows.append(row("Bytes transferred before the first trace is painted, cold", b.FIRST_TRACE_BYTES, kb,
                        lambda v: f"{v:.0f} KB"))
    for name in links:
        runs = net[name]["runs"]
        fast_link = name == network.FAST
        rows.append(row(f"{name}, cold: first live run of an edited input, click → painted (boot included)",
                        b.LIVE_COLD_FAST if fast_link else b.INFO, stats([r["live_cold"]["ms"] for r in runs], 1),
                        fmt_ms, met=None if all(r["live_cold"]["status"] == FINISHED for r in runs) else False,
                        notes="First live run"))
        rows.append(row(f"{name}: the same after the idle boot finished", b.INFO,
                        stats([r["live_after_idle_boot"]["ms"] for r in runs], 1), fmt_ms, notes="First live run"))
    return rows


def playground_rows(play: dict) -> list[dict]:
    finished = all(r["first_run_status"] == FINISHED for r in play["runs"])
    return [row(f"Playground, {play['link']}, cold: open → the editor takes keys (Python boots after)", b.PLAY_EDITOR,
                play["editor_ms"], fmt_ms),
            row("Playground: first run of a 1,000-step program after boot, click → painted", b.PLAY_FIRST_RUN,
                play["first_run_ms"], fmt_ms, met=None if finished else False),
            row("Playground: the same program run again (new input), click → painted", b.INFO, play["warm_run_ms"],
                fmt_ms)]


def weight_rows(weight: dict) -> list[dict]:
    return [row("Page weight without Pyodide (transferred, gzip)", b.INFO, None, fmt_kb,
                measured=f"{fmt_kb(weight['transferred_bytes'])} ({weight['requests']} requests; "
                         f"raw {fmt_kb(weight['raw_bytes'])})", notes="Page weight")]


def build_rows(build: dict) -> list[dict]:
    return [row("Site build (`python build.py --out <new dir>`, wall)", b.SITE_BUILD, build["fresh_wall_s"], fmt_s,
                notes="Site build"),
            row("Site rebuild into the same dir (wall)", b.SITE_BUILD, build["rebuild_wall_s"], fmt_s,
                notes="Site build")]


def find(workloads: dict, prefix: str) -> dict | None:
    return next((v for k, v in workloads.items() if k.startswith(prefix)), None)


def millions(events: int) -> str:
    """A run's size as the table names it: 1,000,204 events → "1M"."""
    return f"{round(events / 1_000_000)}M"
