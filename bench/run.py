"""Stepwise benchmark: measure the BRIEF's budgets and write bench/results.json and docs/performance.md.

    .venv/bin/python bench/run.py [--quick] [--only SECTION,...] [--no-write] [--report-only]

Builds the site into a temp dir, serves it twice (cross-origin isolated, and --no-isolation), drives
Debian's Chromium with Playwright, runs Pyodide under node for the recorder figures, and times the
builder. Sections: build, weight, navigation, rerun, runaway, overhead, capacity. Not a test: the
machine is noisy, so every figure is the median of several runs, reported with its min and max.
Takes about seven minutes (`--quick`: fewer repetitions, for trying the script itself).
"""
from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
sys.path.insert(0, str(REPO / "tests" / "pyodide_node"))
sys.path.insert(0, str(BENCH))
import million  # noqa: E402
import network  # noqa: E402

CHROMIUM = os.environ.get("STEPWISE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PATH = "s08/core/runtime.py"
LESSON = "s08/"
CASES = {"split_history": ["normal", "pending", "mismatch", "multi"],
         "trim_results": ["old", "error", "recent", "trim"],
         "prepare_context": ["fit", "trim", "summary", "bad_summary", "archive_error", "exhausted", "recent_large"]}
FINISHED, ERROR, RUNNING = "已完成", "出错", "运行中"
LONG = 60_000  # ms: a Playwright wait that covers a cold Pyodide boot on a slow machine
PROBE = (BENCH / "probe.js").read_text(encoding="utf-8")
RUNAWAY = "() => ['while True: pass\\n', 'pass\\n']"


LOAD: dict[str, list[float]] = {}  # 1-minute load average as each section starts (other work on the machine)


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def section(name: str, message: str) -> None:
    LOAD[name] = round(os.getloadavg()[0], 2)
    log(f"{message} (load {LOAD[name]})")


def stats(values: list[float], digits: int = 3) -> dict:
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


# ---------------------------------------------------------------- machine, servers

def machine() -> dict:
    def version(command: list[str]) -> str:
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip()
        except OSError as error:
            return f"unavailable ({error})"
    return {"nproc": os.cpu_count(), "platform": platform.platform(), "python": sys.version.split()[0],
            "node": version(["node", "--version"]), "chromium": version([CHROMIUM, "--version"]),
            "pyodide": json.loads((REPO / "node_modules" / "pyodide" / "package.json").read_text())["version"],
            "loadavg_at_start": [round(x, 2) for x in os.getloadavg()],
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "git": version(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
            + (" (dirty)" if version(["git", "-C", str(REPO), "status", "--porcelain"]) else "")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`build.py serve` in a subprocess (builds into `out`, then serves it with gzip)."""

    def __init__(self, out: Path, isolation: bool):
        self.out = out
        self.port = free_port()
        command = [sys.executable, "build.py", "serve", "--port", str(self.port), "--out", str(out)]
        if not isolation:
            command.append("--no-isolation")
        self.process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        self.origin = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"build.py serve exited {self.process.returncode}:\n{self.process.stdout.read()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("build.py serve did not answer within 120 s") from None
                time.sleep(0.1)

    @property
    def lesson_url(self) -> str:
        return f"{self.origin}/{LESSON}"

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---------------------------------------------------------------- site build

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


# ---------------------------------------------------------------- browser helpers

def new_page(browser, auto_run: str | None = None):
    context = browser.new_context()
    prefix = f"window.__benchAutoRun = {json.dumps(auto_run)};\n" if auto_run else ""
    context.add_init_script(script=prefix + PROBE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.bench_errors = errors
    return context, page, errors


def region(page, fn: str):
    return page.get_by_role("region", name=f"{PATH} · {fn}", exact=True)


def log_length(page) -> int:
    return page.evaluate("() => __bench.log.length")


def wait_painted(page, fn: str, since: int, timeout: float = LONG) -> list[dict]:
    """Wait until `fn`'s status turned 已完成/出错 and a frame passed; return the log since `since`."""
    try:
        page.wait_for_function(
            "([fn, since]) => __bench.log.slice(since).some((e) => e.kind === 'painted' && e.fn === fn)",
            arg=[fn, since], timeout=timeout, polling=20)
    except Exception as error:  # noqa: BLE001 - say what state the page was in, then fail the section
        state = page.evaluate("""fn => ({script: typeof stepwise, python: stepwise?.worker?.python ?? null,
            state: stepwise?.debuggers?.get(fn)?.state ?? null, boot: document.querySelector('.boot')?.dataset.state,
            progress: document.querySelector('.boot')?.getAttribute('aria-valuenow'), marks: __bench.marks,
            last: __bench.log.slice(-6)})""", fn)
        raise RuntimeError(f"{fn} never painted a result within {timeout / 1000:.0f} s; page state {state}; "
                           f"page errors {getattr(page, 'bench_errors', [])[:5]}") from error
    return page.evaluate("since => __bench.log.slice(since)", since)


def click_to_paint(entries: list[dict], fn: str, action: str = "run") -> dict:
    """From a log slice: the click on `action`, the first paint after it, and whether a run happened."""
    click = next(e for e in entries if e["kind"] == "click" and e["fn"] == fn and e["action"] == action)
    painted = next(e for e in entries if e["kind"] == "painted" and e["fn"] == fn and e["t"] >= click["t"])
    ran = any(e["kind"] == "status" and e["fn"] == fn and e["text"] == RUNNING for e in entries)
    restarted = sum(1 for e in entries if e["kind"] == "restarted")
    return {"ms": painted["t"] - click["t"], "status_ms": painted["statusAt"] - click["t"], "text": painted["text"],
            "ran": ran, "restarted": restarted, "click_t": click["t"]}


def run_and_wait(page, fn: str) -> dict:
    since = log_length(page)
    region(page, fn).get_by_role("button", name="运行", exact=True).click()
    return click_to_paint(wait_painted(page, fn, since), fn)


# ---------------------------------------------------------------- page weight

def bench_weight(browser, server: Server) -> dict:
    context, page, _ = new_page(browser)
    finished = []
    context.on("requestfinished", lambda request: finished.append(request))
    page.goto(server.lesson_url)
    page.wait_for_selector(".boot[data-state=ready]", timeout=LONG)
    page.wait_for_load_state("networkidle")
    rows = []
    for request in finished:
        path = request.url.removeprefix(server.origin)
        sizes = request.sizes()
        response = request.response()
        headers = response.all_headers() if response else {}
        local = server.out / path.split("?")[0].lstrip("/")
        if local.is_dir():
            local = local / "index.html"
        rows.append({"path": path, "status": response.status if response else None,
                     "encoding": headers.get("content-encoding", ""),
                     "body": sizes["responseBodySize"], "headers": sizes["responseHeadersSize"],
                     "content_length": int(headers.get("content-length", -1)),
                     "raw": local.stat().st_size if local.is_file() else None})
    context.close()
    site = [r for r in rows if not r["path"].startswith("/pyodide/")]
    pyodide = [r for r in rows if r["path"].startswith("/pyodide/")]
    for r in rows:  # Playwright reports 0 for a worker script's body: trust Content-Length when present
        r["transferred"] = max(r["body"], r["content_length"]) + r["headers"]
    return {"requests": len(site), "transferred_bytes": sum(r["transferred"] for r in site),
            "body_bytes": sum(max(r["body"], r["content_length"]) for r in site),
            "header_bytes": sum(r["headers"] for r in site),
            "raw_bytes": sum(r["raw"] or 0 for r in site),
            "pyodide_transferred_bytes": sum(r["transferred"] for r in pyodide),
            "files": sorted(site, key=lambda r: -r["transferred"]), "pyodide_files": pyodide}


# ---------------------------------------------------------------- navigation → first trace painted

NAV_STATE = """() => ({log: __bench.log, marks: __bench.marks, isolated: crossOriginIsolated,
  nav: performance.getEntriesByType('navigation')[0].toJSON()})"""


def bench_navigation(browser, server: Server, contexts: int, warm_per_context: int) -> dict:
    cold, warm = [], []
    for _ in range(contexts):
        context, page, errors = new_page(browser, auto_run="split_history")
        for visit in range(1 + warm_per_context):
            page.goto(server.lesson_url, wait_until="commit")
            wait_painted(page, "split_history", 0)
            state = page.evaluate(NAV_STATE)
            painted = next(e for e in state["log"] if e["kind"] == "painted" and e["fn"] == "split_history")
            marks, nav = state["marks"], state["nav"]
            sample = {"painted_ms": painted["t"], "status": painted["text"], "auto_click_ms": marks.get("autoClick"),
                      "button_seen_ms": marks.get("buttonSeen"), "dcl_ms": marks.get("dcl"),
                      "worker_ready_ms": marks.get("ready"), "boot_ms_in_worker": marks.get("readyMs"),
                      "html_response_end_ms": nav.get("responseEnd"), "isolated": state["isolated"],
                      # worker phases (page time): loadPyodide + source fetches done, then recorder imported
                      "sources_phase_ms": marks.get("phase_sources"), "ready_phase_ms": marks.get("phase_ready")}
            (cold if visit == 0 else warm).append(sample)
        if errors:
            log(f"page errors during navigation: {errors[:3]}")
        context.close()

    def summary(samples: list[dict]) -> dict:
        keys = ("painted_ms", "auto_click_ms", "dcl_ms", "worker_ready_ms", "boot_ms_in_worker",
                "html_response_end_ms", "sources_phase_ms", "ready_phase_ms")
        return {**{key: stats([s[key] for s in samples if s[key] is not None], 1) for key in keys},
                "all_finished": all(s["status"] == FINISHED for s in samples), "samples": samples}
    return {"cold": summary(cold), "warm": summary(warm)}


# ---------------------------------------------------------------- re-run on a warm worker

def bench_rerun(browser, server: Server, rounds: int) -> dict:
    context, page, errors = new_page(browser)
    page.goto(server.lesson_url)
    # Warm-up: boot, and one run per debugger on its last case (so round 1 starts with a switch).
    for fn, cases in CASES.items():
        region(page, fn).get_by_role("combobox", name="输入", exact=True).select_option(cases[-1])
        first = run_and_wait(page, fn)
        if not first["ran"]:
            raise RuntimeError(f"warm-up run of {fn} did not run")
    samples = []
    for number in range(rounds):
        for fn, cases in CASES.items():
            widget = region(page, fn)
            picker = widget.get_by_role("combobox", name="输入", exact=True)
            for case in cases:
                picker.select_option(case)
                sample = run_and_wait(page, fn)
                extra = page.evaluate("""fn => { const d = stepwise.debuggers.get(fn);
                    return {worker_ms: d.lastRunMs, recorder_ms: d.trace?.stats?.elapsed_ms ?? null,
                            events: d.trace?.stats?.events ?? null}; }""", fn)
                samples.append({"round": number, "function": fn, "case": case, **sample, **extra})
    context.close()
    if errors:
        log(f"page errors during re-runs: {errors[:3]}")
    totals = [s["ms"] for s in samples]
    per_round = []
    for number in range(rounds):
        values = [s["ms"] for s in samples if s["round"] == number]
        per_round.append({"p50": percentile(values, 50), "p95": percentile(values, 95), "max": max(values)})
    by_case: dict[str, list[float]] = {}
    for s in samples:
        by_case.setdefault(f"{s['function']}/{s['case']}", []).append(s["ms"])
    return {"n": len(totals), "rounds": rounds, "p50": round(percentile(totals, 50), 1),
            "p95": round(percentile(totals, 95), 1), "min": round(min(totals), 1), "max": round(max(totals), 1),
            "p50_by_round": stats([r["p50"] for r in per_round], 1),
            "p95_by_round": stats([r["p95"] for r in per_round], 1),
            "worker_ms": stats([s["worker_ms"] for s in samples], 1),
            # worker_ms - recorder_ms: building the tables, json.dumps, temp-file scan (in the worker);
            # ms - worker_ms: messaging, JSON.parse + new Replay, rendering, and the wait for the next frame.
            "worker_after_run_ms": stats([s["worker_ms"] - s["recorder_ms"] for s in samples
                                          if s["worker_ms"] is not None and s["recorder_ms"] is not None], 1),
            "page_side_ms": stats([s["ms"] - s["worker_ms"] for s in samples if s["worker_ms"] is not None], 1),
            "recorder_ms": stats([s["recorder_ms"] for s in samples], 1),
            "by_case_ms": {k: stats(v, 1) for k, v in by_case.items()},
            "all_ran": all(s["ran"] for s in samples),
            "statuses": sorted({f"{s['function']}/{s['case']}: {s['text']}" for s in samples}),
            "samples": samples}


# ---------------------------------------------------------------- runaway stop

SET_RUNAWAY = f"""() => {{
  const d = stepwise.debuggers.get('split_history');
  if (!window.__benchOriginalCode) window.__benchOriginalCode = d.code.bind(d);
  d.code = {RUNAWAY};
  d.setCase('pending');
  __bench.watchFrames(true);
}}"""
RESTORE = """() => {
  const d = stepwise.debuggers.get('split_history');
  const info = {maxFrameGap: __bench.watchFrames(false),
                message: d.root.querySelector('.error-message').textContent,
                end: d.trace?.end ?? null, events: d.trace?.stats?.events ?? null};
  d.code = window.__benchOriginalCode;
  d.setCase('normal');
  return info;
}"""


def bench_runaway(browser, server: Server, reps: int) -> dict:
    context, page, errors = new_page(browser)
    page.goto(server.lesson_url)
    widget = region(page, "split_history")
    run_and_wait(page, "split_history")  # booted and warm
    isolated = page.evaluate("() => crossOriginIsolated")
    deadline = page.evaluate(
        "() => stepwise.worker.deadlineMs ?? stepwise.debuggers.get('split_history').fn.limits.deadlineMs")
    limit, stop = [], []
    for _ in range(reps):
        # (a) the run deadline stops it
        page.evaluate(SET_RUNAWAY)
        stopped = run_and_wait(page, "split_history")
        info = page.evaluate(RESTORE)
        again = run_and_wait(page, "split_history")
        limit.append({"to_error_ms": stopped["ms"], "status": stopped["text"], "restarted": stopped["restarted"],
                      "next_run_ms": again["ms"], "next_status": again["text"], "next_ran": again["ran"],
                      "max_frame_gap_ms": info["maxFrameGap"], "message": info["message"],
                      "end": (info["end"] or {}).get("reason")})
        # (b) the reader's Stop button, ~200 ms into the run
        page.evaluate(SET_RUNAWAY)
        since = log_length(page)
        widget.get_by_role("button", name="运行", exact=True).click()
        page.wait_for_timeout(200)
        widget.get_by_role("button", name="停止", exact=True).click()
        entries = wait_painted(page, "split_history", since)
        stopped = click_to_paint(entries, "split_history", action="stop")
        run_click = next(e for e in entries if e["kind"] == "click" and e["action"] == "run")
        info = page.evaluate(RESTORE)
        again = run_and_wait(page, "split_history")
        stop.append({"to_error_ms": stopped["ms"], "status": stopped["text"], "restarted": stopped["restarted"],
                     "stop_after_ms": stopped["click_t"] - run_click["t"],
                     "next_run_ms": again["ms"], "next_status": again["text"], "next_ran": again["ran"],
                     "max_frame_gap_ms": info["maxFrameGap"], "message": info["message"],
                     "end": (info["end"] or {}).get("reason")})
    context.close()
    if errors:
        log(f"page errors during runaway runs: {errors[:3]}")

    def summary(samples: list[dict]) -> dict:
        return {"to_error_ms": stats([s["to_error_ms"] for s in samples], 1),
                "next_run_ms": stats([s["next_run_ms"] for s in samples], 1),
                "max_frame_gap_ms": stats([s["max_frame_gap_ms"] for s in samples], 1),
                "all_error": all(s["status"] == ERROR for s in samples),
                "all_usable_again": all(s["next_status"] == FINISHED and s["next_ran"] for s in samples),
                "reboots": sum(s["restarted"] for s in samples), "samples": samples}
    return {"isolated": isolated, "deadline_ms": deadline, "limit": summary(limit), "stop": summary(stop)}


# ---------------------------------------------------------------- recorder overhead (Pyodide)

def load_overhead():
    spec = importlib.util.spec_from_file_location("stepwise_overhead", REPO / "tools" / "overhead.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_overhead(rounds: int, repeat: int) -> dict:
    """Ratios traced/untraced from tools/overhead.py's workloads, several rounds in one Pyodide."""
    runs: list[list] = []
    source = "tools/overhead.py (imported)"
    try:
        overhead = load_overhead()
        needed = ("BENCH_MODULE", "MEASURE", "FLOOR_TEXT", "jobs")
        if not all(hasattr(overhead, name) for name in needed):
            raise AttributeError(f"tools/overhead.py no longer defines all of {needed}")
        from bridge import PyodideNode
        runtime = PyodideNode()
        try:
            bench_dir = "/tmp/stepwise_bench_mod"
            runtime.run(f"import os, sys\nos.makedirs({bench_dir!r}, exist_ok=True)\n"
                        f"open({bench_dir + '/stepwise_bench.py'!r}, 'w').write({overhead.BENCH_MODULE!r})\n"
                        f"sys.path.insert(0, {bench_dir!r})\nresult = 'ok'\n")
            setup = getattr(overhead, "BENCH_SETUP", "")
            code = (f"JOBS = {overhead.jobs(bench_dir[1:])!r}\nREPEAT = {repeat}\n"
                    f"FLOOR_TEXT = {overhead.FLOOR_TEXT!r}\nBENCH_SETUP = {setup!r}\n" + overhead.MEASURE)
            for _ in range(rounds):
                runs.append(json.loads(runtime.run(code, timeout=600)))
            versions = {"pyodide": runtime.pyodide_version, "python": runtime.python_version}
        finally:
            runtime.close()
    except (AttributeError, ImportError, KeyError, ValueError, RuntimeError) as error:
        # The overhead tool changed shape: fall back to running it and reading its table.
        log(f"overhead: import path failed ({error}); running tools/overhead.py instead")
        source = "tools/overhead.py (subprocess)"
        versions = {}
        for _ in range(rounds):
            out = subprocess.run([sys.executable, "tools/overhead.py", "--repeat", str(repeat)], cwd=REPO,
                                 capture_output=True, text=True, check=True, timeout=600).stdout
            rows = []
            for line in out.splitlines():
                match = re.match(r"^(\S.*?)\s+([0-9.]+)\s+([0-9.]+)\s+[0-9.]+x\s+(\S+)\s+(\d+)\s+(\S+)$", line.strip())
                if match:
                    rows.append([match[1], float(match[2]), float(match[3]), match[4], int(match[5]), match[6]])
            runs.append(rows)
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
    return {"source": source, "rounds": rounds, "best_of": repeat, **versions, "workloads": result}


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


# ---------------------------------------------------------------- capacity (node)

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


# ---------------------------------------------------------------- report

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


def row(figure: str, budget: str, limit: float | None, s: dict | None, fmt, *, met: bool | None = None,
        measured: str | None = None) -> dict:
    """One table row. `s` is a stats dict (median/min/max/n); `limit` in the same unit as `s`."""
    if measured is None and s is not None:
        span = f"{fmt(s['min'])}–{fmt(s['max'])}" if s["n"] > 1 else "1 run"
        measured = f"{fmt(s['median'])} ({span}, n={s['n']})"
    ratio = None
    if limit is not None and s is not None and s.get("median") is not None:
        ratio = s["median"] / limit
        if met is None:
            met = ratio <= 1
    return {"figure": figure, "budget": budget, "measured": measured,
            "ratio": None if ratio is None else round(ratio, 2), "met": met}


def table(results: dict) -> list[dict]:
    rows = [{"figure": f"Section `{name}` failed", "budget": "—", "measured": message.splitlines()[0][:200],
             "ratio": None, "met": False} for name, message in results.get("failures", {}).items()]
    nav = results.get("navigation")
    if nav:
        rows.append(row("Navigation → first trace painted, cold cache", "≤ 3 s", 3000, nav["cold"]["painted_ms"],
                        fmt_ms, met=None if nav["cold"]["all_finished"] else False))
        rows.append(row("Navigation → first trace painted, warm cache", "≤ 1.5 s", 1500, nav["warm"]["painted_ms"],
                        fmt_ms, met=None if nav["warm"]["all_finished"] else False))
    rerun = results.get("rerun")
    if rerun:
        p95 = {"n": rerun["n"], "median": rerun["p95"], "min": rerun["p95_by_round"]["min"],
               "max": rerun["p95_by_round"]["max"]}
        p50 = {"n": rerun["n"], "median": rerun["p50"], "min": rerun["p50_by_round"]["min"],
               "max": rerun["p50_by_round"]["max"]}
        note = f"(p95 of {rerun['n']} runs; range = per-round p95, {rerun['rounds']} rounds)"
        rows.append(row("Re-run on a warm worker, click → painted, p95", "≤ 50 ms", 50, p95, fmt_ms,
                        measured=f"{fmt_ms(rerun['p95'])} {note}", met=None if rerun["all_ran"] else False))
        rows.append(row("Re-run on a warm worker, click → painted, p50", "(info)", None, p50, fmt_ms,
                        measured=f"{fmt_ms(rerun['p50'])} (per-round p50 {fmt_ms(p50['min'])}–{fmt_ms(p50['max'])})"))
    over = results.get("overhead")
    if over:
        loads = over["workloads"]
        def find(prefix):
            return next((v for k, v in loads.items() if k.startswith(prefix)), None)
        fmt_x = lambda v: f"{v:.2f}×"  # noqa: E731
        stdlib, loop = find("stdlib-heavy"), find("loop-heavy")
        if stdlib:
            rows.append(row("Recorder overhead, stdlib-heavy (time outside the shown file)", "≤ 1.5×", 1.5,
                            stdlib["ratio"], fmt_x))
        if loop:
            rows.append(row("Recorder overhead, loop-heavy shown code (locals every line)", "≤ 10×", 10,
                            loop["ratio"], fmt_x))
        lesson = {k: v for k, v in loads.items() if "/" in k}
        if lesson:
            medians = [v["ratio"]["median"] for v in lesson.values()]
            worst = max(lesson, key=lambda k: lesson[k]["ratio"]["median"])
            rows.append(row("Recorder overhead, the lesson's worst case vs untraced (Pyodide)", "≤ 5×", 5,
                            lesson[worst]["ratio"], fmt_x,
                            measured=f"{lesson[worst]['ratio']['median']:.1f}× ({worst}: "
                                     f"{lesson[worst]['untraced_ms']['median']:.1f} → "
                                     f"{lesson[worst]['traced_ms']['median']:.1f} ms); median case "
                                     f"{statistics.median(medians):.1f}×"))
        plain = find("plain loop")
        if plain and plain.get("events"):
            per = {k: (plain["traced_ms"][k] - plain["untraced_ms"][k]) * 1000 / plain["events"]
                   for k in ("median", "min", "max")}
            rows.append(row(f"Per step, a {plain['events'] // 1000}k-step plain loop, Pyodide", "≤ 2 µs", 2,
                            {"n": plain["ratio"]["n"], **per}, lambda v: f"{v:.2f} µs"))
    cpy = results.get("overhead_cpython")
    if cpy:
        per = cpy["us_per_step"]
        loop = next((v for k, v in per.items() if k.startswith("plain loop")), None)
        if loop:
            rows.append(row(f"Per step, plain loop, CPython {cpy['python']} settrace (Python Tutor: 14.4 µs)",
                            "≤ 1.4 µs", 1.4, loop, lambda v: f"{v:.2f} µs"))
        # Per-step cost is only meaningful over many steps: the cases of the lesson with ~1,000 events.
        lesson = {k: v for k, v in per.items() if "/" in k and v["events"] >= 500}
        if lesson:
            worst = max(lesson, key=lambda k: lesson[k]["median"])
            rows.append(row(f"Per step, message-building code (the lesson's costliest case, {worst}), CPython "
                            "(Python Tutor: 623 µs)", "≤ 30 µs", 30, lesson[worst], lambda v: f"{v:.1f} µs"))
    mil = results.get("million")
    if mil:
        runs = mil["runs"]
        rows.append(row("1M-event live run in the page: click → ready to step (record + index + transfer)", "≤ 3 s",
                        3000, stats([r["click_to_ready_ms"] for r in runs], 0), fmt_ms,
                        met=None if all(r["events"] >= 1_000_000 and not r["gap"] for r in runs) else False))
        rows.append(row("1M-event live run in the page: longest main-thread task meanwhile", "≤ 50 ms", 50,
                        stats([r["longest_main_task_ms"] for r in runs], 0), fmt_ms))
        moves = [m for m in mil["moves"] if "conditional" not in m["label"]]
        worst = max(moves, key=lambda m: m["max"])
        rows.append(row("1M events in the page: a move + the queries a paint makes, worst", "≤ 16 ms", 16,
                        {"n": len(moves), "median": worst["max"], "min": worst["max"], "max": worst["max"]},
                        fmt_ms, measured=f"{fmt_ms(worst['max'])} max ({worst['label']})"))
        cond = next((m for m in mil["moves"] if "conditional" in m["label"]), None)
        if cond:
            rows.append(row("1M events in the page: first continue to a conditional breakpoint (i == k)", "≤ 16 ms",
                            16, {"n": 5, "median": cond["median"], "min": cond["median"], "max": cond["max"]}, fmt_ms,
                            measured=f"{fmt_ms(cond['median'])} median of 5 (max {fmt_ms(cond['max'])})"))
        if mil.get("heap"):
            rows.append(row("1M events in the page: JS heap after loading", "(info)", None, None, fmt_mb,
                            measured=f"{mil['heap']['used_mb']:.0f} MB"))
    cap = results.get("capacity")
    if cap:
        s = cap["summary"]
        rows.append(row("Trace capacity: events recorded and kept in one run", "≥ 1,000,000", None, None, str,
                        measured=f"{s['kept']:,} kept of {s['events']:,} (gap: {'yes' if s['gap'] else 'none'})",
                        met=s["kept"] >= 1_000_000 and not s["gap"]))
        rows.append(row("1M-event trace: record time in Pyodide (traced run)", "(info)", None, s["record_ms"], fmt_ms))
        rows.append(row("1M-event trace: run_case incl. JSON encoding", "(info)", None, s["run_case_ms"], fmt_ms))
        rows.append(row("1M-event trace: JSON size", "(info)", None, s["bytes"], fmt_mb))
        rows.append(row("1M-event trace: JSON.parse + new Replay (node; the CLI's form)", "(info)", None, s["load_ms"],
                        fmt_ms))
        if "packed_bytes" in s:
            rows.append(row("1M-event trace, packed (what the worker sends): size", "(info)", None, s["packed_bytes"],
                            fmt_mb))
            rows.append(row("1M-event trace, packed: run_case in Pyodide (record + pack)", "(info)", None,
                            s["packed_run_case_ms"], fmt_ms))
            rows.append(row("1M-event trace, packed: index in the worker (node)", "(info)", None,
                            s["packed_index_ms"], fmt_ms))
            rows.append(row("1M-event trace, packed: the page's share (clone + revive + first queries)", "(info)",
                            None, s["hand_over_ms"], fmt_ms))
        plain = [m for m in cap["moves"] if "conditional" not in m["label"]]
        worst = max(plain, key=lambda m: m["move"]["max"])
        moves = sum(m["move"]["n"] for m in plain)
        maxima = [m["move"]["max"] for m in plain]
        rows.append(row("1M events: any step/continue/back (move alone), worst move", "≤ 16 ms", 16,
                        {"n": moves, "median": max(maxima), "min": min(maxima), "max": max(maxima)}, fmt_ms,
                        measured=f"{fmt_ms(max(maxima))} max ({worst['label']}); medians "
                                 f"{fmt_ms(min(m['move']['median'] for m in plain))}–"
                                 f"{fmt_ms(max(m['move']['median'] for m in plain))}; {moves} moves"))
        ui = [m["with_ui_queries"]["max"] for m in plain]
        worst_ui = max(plain, key=lambda m: m["with_ui_queries"]["max"])
        rows.append(row("1M events: move + the queries the page renders (stack, locals, output), worst", "≤ 16 ms",
                        16, {"n": moves, "median": max(ui), "min": min(ui), "max": max(ui)}, fmt_ms,
                        measured=f"{fmt_ms(max(ui))} max ({worst_ui['label']}); p99 ≤ "
                                 f"{fmt_ms(max(m['with_ui_queries']['p99'] for m in plain))}"))
        cond = next((m for m in cap["moves"] if "conditional" in m["label"]), None)
        if cond:
            c = cond["move"]
            rows.append(row("1M events: continue to a conditional breakpoint (first time)", "≤ 16 ms", 16,
                            {"n": c["n"], "median": c["median"], "min": c["min"], "max": c["max"]}, fmt_ms))
    run = results.get("runaway")
    if run:
        labels = (("isolated", "isolated: interrupt buffer"), ("not_isolated", "not isolated: terminate + reboot"))
        for key, label in labels:
            r = run.get(key)
            if not r:
                continue
            rows.append(row(f"Runaway ({label}): click Run → 出错 by the {r['deadline_ms'] / 1000:.1f} s deadline",
                            "≤ 1 s", 1000, r["limit"]["to_error_ms"], fmt_ms,
                            met=None if r["limit"]["all_error"] else False))
            rows.append(row(f"Runaway ({label}): click Stop → 出错", "≤ 1 s", 1000, r["stop"]["to_error_ms"], fmt_ms,
                            met=None if r["stop"]["all_error"] else False))
            both = r["limit"]["samples"] + r["stop"]["samples"]
            nxt = stats([s["next_run_ms"] for s in both], 1)
            rows.append(row(f"Runaway ({label}): next normal run, click → 已完成", "works", None, nxt, fmt_ms,
                            met=r["limit"]["all_usable_again"] and r["stop"]["all_usable_again"]))
    net = results.get("network")
    if net:
        links = [name for name in network.LINKS if name in net]
        for name in links:
            runs = net[name]["runs"]
            budget = {network.FAST: 1000}.get(name, 3000)
            rows.append(row(f"{name}, cold: first trace painted", f"≤ {budget / 1000:.1f} s", budget,
                            stats([r["first_trace_ms"] for r in runs], 1), fmt_ms))
        fast = net.get(network.FAST, {}).get("runs", [])
        if fast:
            kb = stats([r["bytes_before_first_trace"] / 1024 for r in fast], 1)
            rows.append(row("Bytes transferred before the first trace is painted, cold", "≤ 250 KB", 250, kb,
                            lambda v: f"{v:.0f} KB"))
        for name in links:
            runs = net[name]["runs"]
            fast_link = name == network.FAST
            rows.append(row(f"{name}, cold: first live run of an edited input, click → painted (boot included)",
                            "≤ 6 s" if fast_link else "(info)", 6000 if fast_link else None,
                            stats([r["live_cold"]["ms"] for r in runs], 1), fmt_ms,
                            met=None if all(r["live_cold"]["status"] == FINISHED for r in runs) else False))
            rows.append(row(f"{name}: the same after the idle boot finished", "≤ 100 ms" if fast_link else "(info)",
                            100 if fast_link else None,
                            stats([r["live_after_idle_boot"]["ms"] for r in runs], 1), fmt_ms))
    weight = results.get("weight")
    if weight:
        rows.append(row("Page weight without Pyodide (transferred, gzip)", "≤ 150 KB", 150 * 1024, None, fmt_kb,
                        measured=f"{fmt_kb(weight['transferred_bytes'])} ({weight['requests']} requests; "
                                 f"raw {fmt_kb(weight['raw_bytes'])})"))
        rows[-1]["ratio"] = round(weight["transferred_bytes"] / (150 * 1024), 2)
        rows[-1]["met"] = rows[-1]["ratio"] <= 1
    build = results.get("build")
    if build:
        rows.append(row("Site build (`python build.py --out <new dir>`, wall)", "≤ 2 s", 2, build["fresh_wall_s"],
                        lambda v: f"{v:.2f} s"))
        rows.append(row("Site rebuild into the same dir (wall)", "≤ 2 s", 2, build["rebuild_wall_s"],
                        lambda v: f"{v:.2f} s"))
    return rows


def markdown(results: dict, rows: list[dict]) -> str:
    m = results["machine"]
    lines = [
        "# Performance",
        "",
        "Generated by `make bench` (`bench/run.py`); raw figures in `bench/results.json`. Do not edit by hand.",
        "",
        f"Measured {m['date']} on {m['nproc']} cores ({m['platform']}), Python {m['python']}, node {m['node']}, "
        f"{m['chromium']}, Pyodide {m['pyodide']}, commit {m['git']}. The machine is noisy: each figure is the "
        "median of several runs, with min–max and the number of runs; compare ratios, not absolute times.",
        "",
        f"Machine load during this run (1-minute load average as each section started, {m['nproc']} cores): "
        + ", ".join(f"{k} {v}" for k, v in m.get("load_by_section", {}).items())
        + ". A load above the core count means other jobs shared the CPU, and the time figures are pessimistic.",
        "",
        "How to run: `make bench` (about seven minutes; not part of `make test`). It builds the site into a temp "
        "dir, serves it twice with `build.py serve` (gzip; one server with COOP/COEP, one with "
        "`--no-isolation`), drives headless Chromium with Playwright, and runs Pyodide under node.",
        "",
        "What the figures mean:",
        "- **Navigation → first trace painted**: in-page `performance.now()` (0 = navigation start) when "
        "`split_history`'s status shows 已完成 and one animation frame has passed, with 运行 clicked as soon as "
        "the page's script has wired it (DOMContentLoaded). Cold = fresh browser context (empty cache); "
        "warm = the same context navigating again (Pyodide cached as immutable, the rest revalidated).",
        "- **Re-run on a warm worker**: for every lesson case of the three debuggers, switch the case with the "
        "输入 picker (which clears the replay), click 运行, time from the click event to one frame after the "
        "status turns 已完成/出错 (in-page). Several rounds over all 15 cases.",
        "- **Recorder overhead**: `run_case` traced / untraced (setup + entry, best of N, same Pyodide under "
        "node), using the workloads of `tools/overhead.py`; the range is over rounds. **Per step**: (traced − "
        "untraced) / events, in Pyodide (that run) and on this CPython (`tools/overhead.py --cpython`, settrace).",
        "- **Trace capacity**: `bench/capacity.mjs` records a loop of ~1,000,000 events in Pyodide under node "
        "(`run_case(max_events=1_000_000)`), as JSON (timed: parse + `new Replay`) and packed (timed: what the "
        "worker does, then the page's share), and times each kind of move from random points on the replay "
        "revived as the page gets it, alone and with the queries the page makes to render it (`position`, "
        "`stackAt`, `localsAt`, `stdoutUntil`).",
        "- **A million steps in the page**: `bench/million.py` runs the same loop live in Chromium through the "
        "site's own worker (limits that admit it): click → ready to step, PerformanceObserver long tasks on the "
        "page meanwhile, moves with a paint's queries, the JS heap.",
        "- **Runaway**: on the real page, `split_history`'s setup is replaced with `while True: pass`; measured "
        "click 运行 → 出错 (the worker's run deadline stops it) and click 停止 (~200 ms in) → 出错, then the "
        "original code is restored and a normal run must reach 已完成 (timed from its click, so it includes a "
        "reboot when there is one). With and without cross-origin isolation.",
        "- **Page weight**: bytes transferred (encoded body + response headers, Playwright `request.sizes()`) "
        "for every request of the lesson page, including the worker's source fetches, except `/pyodide/*`; "
        "raw = the files' uncompressed sizes.",
        "- **Site build**: wall time of `python build.py --out DIR` as a subprocess (a fresh dir each run, "
        "then rebuilding into an existing dir).",
        "",
        "| figure | budget | measured (median, min–max) | ratio (measured/budget) | met? |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.2f}"
        met = "—" if r["met"] is None else ("yes" if r["met"] else "**no**")
        lines.append(f"| {r['figure']} | {r['budget']} | {r['measured']} | {ratio} | {met} |")
    lines += network_tables(results.get("network"))
    lines += ["", "## Notes", ""]
    lines += notes(results, rows)
    return "\n".join(lines) + "\n"


def network_tables(net: dict | None) -> list[str]:
    """The Pyodide files as npm ships them and as the site serves them, and what the first paint fetched."""
    if not net:
        return []
    mb = lambda v: "—" if v is None else f"{v / 1e6:.2f} MB"  # noqa: E731
    lines = ["", "## Pyodide's files: npm's, and what the site sends", "",
             "Sizes in bytes on the wire: npm's file as a server would send it with on-the-fly gzip (level 6) "
             "before this change; now the build's brotli copy (`.br`, what Chromium takes). The standard library "
             "is split: the booted part (with compiled `.pyc`) comes with the boot, the rest after it.", "",
             "| file | npm, raw | npm, gzip | site, raw | site, brotli |", "|---|---|---|---|---|"]
    for f in net["pyodide_files"]:
        lines.append(f"| `{f['file']}` | {mb(f['npm'])} | {mb(f.get('npm_gzip'))} | {mb(f['served_raw'])} | "
                     f"{mb(f['brotli'])} |")
    fast = net.get(network.FAST, {}).get("runs", [])
    if fast:
        first = fast[0]
        lines += ["", f"Requests before the first trace was painted ({network.FAST}, cold, first run): "
                  + ", ".join(f"`{r['path']}` {r['bytes'] / 1024:.1f} KB ({r['encoding'] or 'identity'})"
                              for r in first["requests_before_first_trace"]) + "."]
    return lines


def notes(results: dict, rows: list[dict]) -> list[str]:
    out: list[str] = []
    nav = results.get("navigation")
    if nav:
        c, w = nav["cold"], nav["warm"]
        out.append("- **Navigation breakdown** (medians): cold — HTML at "
                   f"{fmt_ms(c['html_response_end_ms']['median'])}, "
                   f"运行 clicked at {fmt_ms(c['auto_click_ms']['median'])}, worker ready at "
                   f"{fmt_ms(c['worker_ready_ms']['median'])} (boot {fmt_ms(c['boot_ms_in_worker']['median'])} inside "
                   f"the worker), painted at {fmt_ms(c['painted_ms']['median'])}; warm — clicked at "
                   f"{fmt_ms(w['auto_click_ms']['median'])}, ready at {fmt_ms(w['worker_ready_ms']['median'])} (boot "
                   f"{fmt_ms(w['boot_ms_in_worker']['median'])}), painted at {fmt_ms(w['painted_ms']['median'])}. "
                   + phases(c, w)
                   + "The author's cases are shown from the traces the build recorded: Python is not needed for "
                   "them. The controls are disabled in the HTML until lesson.js wires them, so an early click is "
                   "visibly refused, never silently lost.")
    cap = results.get("capacity")
    if cap:
        rec = cap["record"][-1]
        rate = rec["events"] / (rec["elapsed_ms"] / 1000)
        out.append(f"- **Capacity**: the recorder kept all {rec['events']:,} events ({rate:,.0f} events/s traced "
                   f"in Pyodide under node; untraced the same loop takes {fmt_ms(cap['untraced_ms'])}). As JSON "
                   f"(the CLI's form) the trace is {fmt_mb(rec['bytes'])} and `JSON.parse` + `new Replay` take "
                   f"{fmt_ms(cap['summary']['load_ms']['median'])}; packed (what the worker sends) it is "
                   f"{fmt_mb(cap['summary']['packed_bytes']['median'])}, indexed in the worker in "
                   f"{fmt_ms(cap['summary']['packed_index_ms']['median'])}, and the page's share (structured clone "
                   f"with transfer, `Replay.fromParts`, the first paint's queries) is "
                   f"{fmt_ms(cap['summary']['hand_over_ms']['median'])}. Moves are timed on that revived replay.")
    mil = results.get("million")
    if mil:
        r = mil["runs"][-1]
        phases_ = r.get("worker_phases") or {}
        out.append(f"- **A million steps in the page** (bench/million.py, Chromium, the site's own worker and engine): "
                   f"{r['events']:,} events; of the click → ready time, the worker's run (record, pack, convert) took "
                   f"{fmt_ms(phases_.get('run'))} (traced {fmt_ms(r['stats']['elapsed_ms'])}), its indexing "
                   f"{fmt_ms(phases_.get('index'))}, the message {fmt_ms(r['message_ms'])} and the page's revive "
                   f"{fmt_ms(r['revive_ms'])}; {r['long_tasks']} main-thread tasks over 50 ms. Memory: the Python "
                   "side keeps events and deltas as typed columns (~122 MB peak for 1M events, tracemalloc on "
                   "CPython), the page holds the built indexes (JS heap in the table).")
    run = results.get("runaway")
    if run:
        parts = []
        for key in ("isolated", "not_isolated"):
            r = run.get(key)
            if not r:
                continue
            after = r["limit"]["to_error_ms"]["median"] - r["deadline_ms"]
            gap = max(r["limit"]["max_frame_gap_ms"]["max"], r["stop"]["max_frame_gap_ms"]["max"])
            parts.append(f"{key.replace('_', ' ')} (crossOriginIsolated={str(r['isolated']).lower()}): the stop takes "
                         f"~{after:.0f} ms after the {r['deadline_ms']:.0f} ms deadline, Stop → 出错 "
                         f"{fmt_ms(r['stop']['to_error_ms']['median'])}, worker reboots: "
                         f"{r['limit']['reboots'] + r['stop']['reboots']}, next run "
                         f"{fmt_ms(r['limit']['next_run_ms']['median'])} after a deadline stop and "
                         f"{fmt_ms(r['stop']['next_run_ms']['median'])} after Stop; longest main-thread frame gap "
                         f"while the runaway ran {fmt_ms(gap)}")
        iso = run.get("isolated")
        if iso and iso.get("isolated"):
            samples = iso["limit"]["samples"] + iso["stop"]["samples"]
            rebooted = [x for x in samples if x["restarted"]]
            if rebooted:
                parts.append(f"with isolation, {len(rebooted)} of {len(samples)} interrupted runs gave no answer "
                             "within python-worker.js's 700 ms grace and fell back to terminate + reboot (message: "
                             f"“{rebooted[0]['message'].splitlines()[0]}”; 出错 after "
                             f"{fmt_ms(max(x['to_error_ms'] for x in rebooted))}, next run after "
                             f"{fmt_ms(max(x['next_run_ms'] for x in rebooted))}). The fallback works, but the "
                             "interrupt itself is not reliable under load: worth a look at why `while True: pass` in "
                             "setup sometimes does not see the interrupt buffer (or its answer) within 700 ms")
        out.append("- **Runaway details**: " + "; ".join(parts) + ". Without isolation the next run waits for a "
                   "fresh Pyodide boot, so \"usable again\" costs a boot; the page itself stays responsive (the "
                   "loop runs in the worker).")
    weight = results.get("weight")
    if weight:
        unused = [f for f in weight["files"] if f["path"].endswith(("/cli.py", "/scenario.py", "/__main__.py"))]
        if unused:
            out.append(f"- **Page weight**: {weight['requests']} requests, "
                       f"{fmt_mb(weight['pyodide_transferred_bytes'])} more for `/pyodide/*` (first visit). The "
                       "worker also fetches " + ", ".join(f"`{f['path']}`" for f in unused)
                       + f" ({fmt_kb(sum(f['transferred'] for f in unused))}), which the browser never imports "
                       "(build.py `WORKER_PACKAGES` ships the whole `py/steptrace` package).")
    for r in rows:
        if r["met"] is False:
            out.append(miss_note(r, results))
    return [line for line in out if line]


def phases(cold: dict, warm: dict) -> str:
    """Worker phases: `loadPyodide` (+ source fetches) ends at 'sources', importing the recorder at 'ready'."""
    try:
        parts = []
        for name, d in (("cold", cold), ("warm", warm)):
            load = d["sources_phase_ms"]["median"] - d["auto_click_ms"]["median"]
            imp = d["ready_phase_ms"]["median"] - d["sources_phase_ms"]["median"]
            parts.append(f"{name}: `loadPyodide` and the source fetches end {fmt_ms(d['sources_phase_ms']['median'])} "
                         f"after navigation (~{fmt_ms(load)} after the click), importing the recorder takes "
                         f"{fmt_ms(imp)}")
        return "Worker phases (medians) — " + "; ".join(parts) + ". "
    except (KeyError, TypeError):
        return ""


def miss_note(r: dict, results: dict) -> str:
    figure = r["figure"]
    if figure.startswith("Navigation"):
        return (f"- **Miss — {figure}** ({r['measured']}): the author's case is fetched as a recorded trace "
                "(no Python); see the navigation breakdown above for where the time went.")
    if "first live run" in figure or "after the idle boot" in figure:
        return (f"- **Miss — {figure}** ({r['measured']}): see `network` in results.json for the boot phases; "
                "a cold live run is bounded by the bytes of wasm and the booted standard library on the link, "
                "a warm one by the recorder's run and the page's render (issue 13).")
    if figure.startswith("Re-run"):
        return (f"- **Miss — re-run** ({r['measured']}): the recorded run of the heaviest cases "
                "(prepare_context summary / bad_summary / exhausted: ~800 events, locals checked at every one) "
                "costs ~15–30 ms in Pyodide, JSON ~5–9 ms, then parse, replay indexes and a full render of the "
                "variables and history pictures. What would move it: fewer locals re-checks (only names the "
                "line can touch), a binary or delta-encoded trace instead of JSON, and rendering only the "
                "panels that changed.")
    if "conditional" in figure:
        return (f"- **Miss — {figure}** ({r['measured']}): the first continue evaluates the condition at every "
                "hit of the line up to the match (cached per event; numbers are read as numbers, no preview per "
                "hit), so it is linear in the hits passed — here a line hit ~330,000 times, ~60–90 ns a hit. "
                "Unconditional moves are O(log n). Per-change evaluation does not help this case (`i` changes at "
                "every hit); what would: an index of each name's values (a `name == constant` condition becomes "
                "a search), or evaluating in slices behind a 'searching…' state.")
    if figure.startswith("Per step"):
        return (f"- **Miss — {figure}** ({r['measured']}): a step of a Python-level tracer costs the callback "
                "(~0.3 µs on CPython), `frame.f_locals` and the look at every name a calling line could have "
                "changed; containers are re-walked (their snapshots compared node by node) whenever a line "
                "calls anything, which is what the lesson's message lists cost. Cheap steps (pure lines) look "
                "only at the names written.")
    if figure.startswith("1M-event live run"):
        return (f"- **Miss — {figure}** ({r['measured']}): bounded by recording in Pyodide (~2.3 µs an event "
                "for this loop); packing, indexing and the hand-over add ~0.4 s (see the note above).")
    if figure.startswith("1M events"):
        return (f"- **Miss — {figure}** ({r['measured']}): an outlier (GC pause or a lazily built index). "
                "See results.json `capacity.moves` for the distribution.")
    if figure.startswith("Runaway") and "deadline" in figure:
        run = results["runaway"]
        key = "isolated" if "isolated:" in figure and "not isolated" not in figure else "not_isolated"
        rr = run[key]
        after = rr["limit"]["to_error_ms"]["median"] - rr["deadline_ms"]
        return (f"- **Miss — runaway by deadline, {key.replace('_', ' ')}** ({r['measured']}): by design the page "
                f"waits `deadlineMs` = {rr['deadline_ms']:.0f} ms (site/js/python-worker.js) before stopping, then "
                f"the stop itself takes ~{after:.0f} ms. The recorder's own `time_limit` (0.7 s, from debugger.js) "
                "does not apply because this runaway loop runs in setup, which is untraced. What limits it: a "
                "loaded machine delays the interrupt check and the answer; what would move it: a shorter "
                "deadline (at the cost of cutting slow but legitimate runs).")
    if figure.startswith("Runaway"):
        return f"- **Miss — {figure}** ({r['measured']}): see results.json `runaway`."
    if figure.startswith("Page weight"):
        w = results["weight"]
        top = ", ".join(f"{f['path']} {fmt_kb(f['transferred'])}" for f in w["files"][:5])
        return (f"- **Miss — page weight** ({r['measured']}): largest: {top}. What would move it: minify "
                "the JS/CSS, ship the recorder and sources as one bundle, drop unused Pygments CSS rules.")
    if figure.startswith("Site"):
        return (f"- **Miss — {figure}** ({r['measured']}): Python start-up and imports (Jinja2, Pygments, "
                "markdown-it) are most of it; see `fresh_inner_s` in results.json for the builder's own time.")
    if figure.startswith("Trace capacity"):
        return f"- **Miss — capacity** ({r['measured']}): the 1M-event run was not kept whole."
    return f"- **Miss — {figure}** ({r['measured']})."


def untraced_lesson(results: dict) -> str:
    loads = (results.get("overhead") or {}).get("workloads", {})
    lesson = [v["untraced_ms"]["median"] for k, v in loads.items() if "/" in k]
    if not lesson:
        return "see the overhead rows"
    return (f"see the overhead rows: untraced, the lesson cases take {fmt_ms(min(lesson))}–{fmt_ms(max(lesson))} "
            "in Pyodide")


def floor_text(results: dict) -> str:
    floor = next((v for k, v in results["overhead"]["workloads"].items() if k.startswith("floor")), None)
    return f"{floor['ratio']['median']:.1f}×" if floor else "n/a"


# ---------------------------------------------------------------- main

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (to try the script)")
    parser.add_argument("--only", default="", help="comma-separated sections to run")
    parser.add_argument("--no-write", action="store_true", help="print the table, write nothing")
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite docs/performance.md from the existing bench/results.json")
    args = parser.parse_args()
    if args.report_only:
        results = json.loads((BENCH / "results.json").read_text(encoding="utf-8"))
        rows = table(results)
        results["table"] = rows
        (BENCH / "results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n",
                                            encoding="utf-8")
        (REPO / "docs" / "performance.md").write_text(markdown(results, rows), encoding="utf-8")
        return 0
    only = set(filter(None, args.only.split(",")))
    want = lambda name: not only or name in only  # noqa: E731
    q = args.quick
    started = time.perf_counter()
    results: dict = {"machine": machine()}
    log(f"machine: {results['machine']}")
    tmp = Path(tempfile.mkdtemp(prefix="stepwise-bench-"))
    servers: list[Server] = []
    failures: dict[str, str] = {}

    def attempt(name: str, message: str, measure) -> None:
        """Run one section; a failure is recorded (and shown in the report) instead of ending the benchmark."""
        section(name, message)
        try:
            value = measure()
        except Exception as error:  # noqa: BLE001 - one broken section must not hide the others
            failures[name] = f"{type(error).__name__}: {error}"[:2000]
            log(f"{name} FAILED: {failures[name]}")
            traceback.print_exc()
            return
        if name.startswith("runaway_"):
            results.setdefault("runaway", {})[name.removeprefix("runaway_")] = value
        else:
            results[name] = value

    try:
        if want("build"):
            attempt("build", "site build …", lambda: bench_build(2 if q else 5, tmp))
        browser_sections = [s for s in ("network", "weight", "navigation", "rerun", "runaway", "million") if want(s)]
        if browser_sections:
            from playwright.sync_api import sync_playwright
            isolated = Server(tmp / "site", isolation=True)
            servers.append(isolated)
            plain = Server(tmp / "site-plain", isolation=False)
            servers.append(plain)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                try:
                    if want("network"):
                        attempt("network", "throttled links (DevTools protocol) …",
                                lambda: network.bench_network(browser, new_page, isolated,
                                                              REPO / "node_modules" / "pyodide", 1 if q else 3))
                    if want("weight"):
                        attempt("weight", "page weight …", lambda: bench_weight(browser, isolated))
                    if want("navigation"):
                        attempt("navigation", "navigation → first trace …",
                                lambda: bench_navigation(browser, isolated, 2 if q else 4, 1 if q else 2))
                    if want("rerun"):
                        attempt("rerun", "re-runs on a warm worker …",
                                lambda: bench_rerun(browser, isolated, 1 if q else 4))
                    if want("runaway"):
                        attempt("runaway_isolated", "runaway stop (isolated) …",
                                lambda: bench_runaway(browser, isolated, 1 if q else 3))
                        attempt("runaway_not_isolated", "runaway stop (not isolated) …",
                                lambda: bench_runaway(browser, plain, 1 if q else 3))
                    if want("million"):
                        attempt("million", "a 1,000,000-event live run in the page …",
                                lambda: million.bench_million(browser, new_page, isolated, 1 if q else 3))
                finally:
                    browser.close()
            for server in servers:
                server.close()
            servers.clear()
        if want("overhead"):
            attempt("overhead", "recorder overhead in Pyodide …", lambda: bench_overhead(2 if q else 5, 3))
        if want("overhead_cpython"):
            attempt("overhead_cpython", "recorder cost per step on CPython …",
                    lambda: bench_overhead_cpython(2 if q else 3, 3))
        if want("capacity"):
            attempt("capacity", "trace capacity (1,000,000 events) …",
                    lambda: bench_capacity(1 if q else 2, 2 if q else 3, 100 if q else 300))
    finally:
        for server in servers:
            server.close()
        shutil.rmtree(tmp, ignore_errors=True)
    results["failures"] = failures
    results["total_s"] = round(time.perf_counter() - started, 1)
    results["machine"]["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    results["machine"]["load_by_section"] = LOAD
    rows = table(results)
    results["table"] = rows
    partial = Path(tempfile.gettempdir()) / "stepwise-bench-partial.json"
    partial.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"raw figures kept in {partial} (a report that fails to render loses nothing)")
    text = markdown(results, rows)
    if args.no_write or only:
        print(text)
        if only and not args.no_write:
            log(f"partial run: wrote {partial} only")
    else:
        (BENCH / "results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n",
                                            encoding="utf-8")
        (REPO / "docs" / "performance.md").write_text(text, encoding="utf-8")
        print(text)
        log("wrote bench/results.json and docs/performance.md")
    log(f"done in {results['total_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
