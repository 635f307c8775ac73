"""Stepwise benchmark: measure each figure that has a budget (bench/budgets.py) and write bench/results.json
and docs/performance.md.

    .venv/bin/python bench/run.py [--quick] [--only SECTION,...] [--no-write] [--report-only]

Sections, in the order they run (each in the module named beside it):
  build             build_timing.py  wall time of `build.py`
  network           network.py       the lesson page on throttled links
  playground        playground.py    the playground: open → editor, first run after boot
  weight            browser.py       the bytes the lesson page transfers
  navigation        browser.py       navigation → first trace painted
  rerun             browser.py       re-runs on a warm worker
  memory            browser.py       drawing a 100-object memory picture
  runaway           browser.py       stopping `while True: pass`, isolated and not
  million           million.py       a 1,000,000-event live run in the page
  heavy_page        heavy_page.py    heavy.py's programs as live runs in the page, click → ready
  fresh             fresh_worker.py  a fresh interpreter per live run, measured as the alternative
  overhead          overhead.py      the recorder's overhead in Pyodide
  overhead_cpython  overhead.py      the recorder's cost per step on CPython
  tutor             tutor.py         beside Python Tutor's tracer, same programs (PYTHON_TUTOR=its folder)
  capacity          capacity.py      a 1,000,000-event trace under node (bench/capacity.mjs)
  heavy             heavy.py         long loops and object-heavy programs, CPython and Pyodide beside untraced
The browser sections build the site into a temp dir, serve it twice (cross-origin isolated, and
--no-isolation) and drive Debian's Chromium with Playwright. Not a test: the machine is noisy, so every
figure is the median of several runs, reported with its min and max; docs/performance.md says how long the
last full run took (`--quick`: fewer repetitions, for trying the script itself). bench/report.py renders
docs/performance.md from the results alone; the prose it links to is docs/performance-notes.md.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

import browser
import capacity
import fresh_worker
import heavy
import heavy_page
import million
import network
import overhead
import playground
import tutor
from build_timing import bench_build
from common import PERFORMANCE, PYODIDE_PACKAGE, RESULTS, log
from machine import loadavg, machine
from page import chromium, new_page
from report import markdown
from server import Server
from table import table

BROWSER_SECTIONS = ("network", "playground", "weight", "navigation", "rerun", "memory", "runaway", "million",
                    "heavy_page", "fresh")
SECTIONS = ("build", *BROWSER_SECTIONS, "overhead", "overhead_cpython", "tutor", "capacity", "heavy")


class Bench:
    """The sections asked for, run one after another into `results`; a failure is recorded (and shown in the
    report) instead of ending the benchmark."""

    def __init__(self, only: set[str], quick: bool):
        self.only, self.quick = only, quick
        self.results: dict = {"machine": machine()}
        self.failures: dict[str, str] = {}
        self.load: dict[str, float] = {}  # 1-minute load average as each section starts (other work on the machine)

    def want(self, name: str) -> bool:
        return not self.only or name in self.only

    def reps(self, quick: int, full: int) -> int:
        return quick if self.quick else full

    def attempt(self, name: str, message: str, measure) -> None:
        self.load[name] = loadavg()[0]
        log(f"{message} (load {self.load[name]})")
        try:
            value = measure()
        except Exception as error:  # noqa: BLE001 - one broken section must not hide the others
            self.failures[name] = f"{type(error).__name__}: {error}"[:2000]
            log(f"{name} FAILED: {self.failures[name]}")
            traceback.print_exc()
            return
        if name.startswith("runaway_"):
            self.results.setdefault("runaway", {})[name.removeprefix("runaway_")] = value
        else:
            self.results[name] = value

    def run(self, tmp: Path) -> None:
        r = self.reps
        if self.want("build"):
            self.attempt("build", "site build …", lambda: bench_build(r(2, 5), tmp))
        if any(self.want(name) for name in BROWSER_SECTIONS):
            self.run_browser(tmp)
        if self.want("overhead"):
            self.attempt("overhead", "recorder overhead in Pyodide …", lambda: overhead.bench_overhead(r(2, 5), 3))
        if self.want("overhead_cpython"):
            self.attempt("overhead_cpython", "recorder cost per step on CPython …",
                         lambda: overhead.bench_overhead_cpython(r(2, 3), 3))
        if self.want("tutor"):
            self.attempt("tutor", "beside Python Tutor's tracer …", lambda: tutor.bench_tutor(r(3, 9), tmp))
        if self.want("capacity"):
            self.attempt("capacity", "trace capacity (1,000,000 events) …",
                         lambda: capacity.bench_capacity(r(1, 2), r(2, 3), r(100, 300)))
        if self.want("heavy"):
            self.attempt("heavy", "long loops and object-heavy programs …", lambda: heavy.bench_heavy(r(1, 3)))

    def run_browser(self, tmp: Path) -> None:
        r, want, attempt = self.reps, self.want, self.attempt
        servers: list[Server] = []
        try:
            isolated = Server(tmp / "site", isolation=True)
            servers.append(isolated)
            plain = Server(tmp / "site-plain", isolation=False)
            servers.append(plain)
            with chromium() as chrome:
                if want("network"):
                    attempt("network", "throttled links (DevTools protocol) …",
                            lambda: network.bench_network(chrome, new_page, isolated, PYODIDE_PACKAGE, r(1, 3)))
                if want("playground"):
                    attempt("playground", "the playground on a throttled link …",
                            lambda: playground.bench_playground(chrome, new_page, isolated, r(1, 3)))
                if want("weight"):
                    attempt("weight", "page weight …", lambda: browser.bench_weight(chrome, isolated))
                if want("navigation"):
                    attempt("navigation", "navigation → first trace …",
                            lambda: browser.bench_navigation(chrome, isolated, r(2, 4), r(1, 2)))
                if want("rerun"):
                    attempt("rerun", "re-runs on a warm worker …",
                            lambda: browser.bench_rerun(chrome, isolated, r(1, 4)))
                if want("memory"):
                    attempt("memory", "drawing a 100-object memory picture …",
                            lambda: browser.bench_memory(chrome, isolated, r(2, 5)))
                if want("runaway"):
                    attempt("runaway_isolated", "runaway stop (isolated) …",
                            lambda: browser.bench_runaway(chrome, isolated, r(1, 3)))
                    attempt("runaway_not_isolated", "runaway stop (not isolated) …",
                            lambda: browser.bench_runaway(chrome, plain, r(1, 3)))
                if want("million"):
                    attempt("million", "a 1,000,000-event live run in the page …",
                            lambda: million.bench_million(chrome, new_page, isolated, r(1, 3)))
                if want("heavy_page"):
                    attempt("heavy_page", "heavy programs as live runs in the page …",
                            lambda: heavy_page.bench_heavy_page(chrome, new_page, isolated, r(1, 3)))
                if want("fresh"):
                    attempt("fresh", "a fresh interpreter per live run …",
                            lambda: fresh_worker.bench_fresh_worker(chrome, isolated, r(1, 2)))
        finally:
            for server in servers:
                server.close()


def write_results(results: dict) -> None:
    RESULTS.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (to try the script)")
    parser.add_argument("--only", default="", help="comma-separated sections to run (writes a temp file only)")
    parser.add_argument("--no-write", action="store_true", help="print the table, write nothing")
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite docs/performance.md from the existing bench/results.json (measures nothing)")
    args = parser.parse_args()
    if args.report_only:
        results = json.loads(RESULTS.read_text(encoding="utf-8"))
        results["table"] = table(results)  # the rows go into the results too, next to the raw figures
        write_results(results)
        PERFORMANCE.write_text(markdown(results, results["table"]), encoding="utf-8")
        return 0
    only = set(filter(None, args.only.split(",")))
    if only - set(SECTIONS):
        parser.error(f"unknown sections {sorted(only - set(SECTIONS))}; known: {', '.join(SECTIONS)}")
    started = time.perf_counter()
    bench = Bench(only, args.quick)
    log(f"machine: {bench.results['machine']}")
    tmp = Path(tempfile.mkdtemp(prefix="stepwise-bench-"))
    try:
        bench.run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    results = bench.results
    results["failures"] = bench.failures
    results["total_s"] = round(time.perf_counter() - started, 1)
    results["machine"]["loadavg_at_end"] = loadavg()
    results["machine"]["load_by_section"] = bench.load
    results["table"] = table(results)
    partial = Path(tempfile.gettempdir()) / "stepwise-bench-partial.json"
    partial.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"raw figures kept in {partial} (a report that fails to render loses nothing)")
    text = markdown(results, results["table"])
    if args.no_write or only:
        print(text)
        if only and not args.no_write:
            log(f"partial run: wrote {partial} only")
    else:
        write_results(results)
        PERFORMANCE.write_text(text, encoding="utf-8")
        print(text)
        log("wrote bench/results.json and docs/performance.md")
    log(f"done in {results['total_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
