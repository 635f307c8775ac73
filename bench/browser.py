"""The browser sections: the lesson page in Chromium (Playwright), served by `build.py serve`.

  - weight: every byte the lesson page transfers, except Pyodide's own files;
  - navigation: navigation → the first trace painted, cold and warm cache;
  - rerun: every lesson case re-run on a warm worker, click → painted;
  - runaway: `while True: pass` stopped by the run deadline and by the Stop button, and the run after it.
The throttled links and the million-event run have modules of their own (network.py, million.py).
"""
from __future__ import annotations

from common import log, percentile, stats
from page import ERROR, FINISHED, LONG, click_to_paint, log_length, new_page, region, run_and_wait, wait_painted
from server import Server

CASES = {"split_history": ["normal", "pending", "mismatch", "multi"],
         "trim_results": ["old", "error", "recent", "trim"],
         "prepare_context": ["fit", "trim", "summary", "bad_summary", "archive_error", "exhausted", "recent_large"]}
RUNAWAY = "() => ['while True: pass\\n', 'pass\\n']"
STOP_AFTER_MS = 200  # the runaway section clicks Stop this long after Run

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
        # (b) the reader's Stop button, STOP_AFTER_MS into the run
        page.evaluate(SET_RUNAWAY)
        since = log_length(page)
        widget.get_by_role("button", name="运行", exact=True).click()
        page.wait_for_timeout(STOP_AFTER_MS)
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


# ---------------------------------------------------------------- the memory picture

DRAW_100 = """async (reps) => {
  const { renderMemory, drawArrows } = await import('/assets/js/memory-picture.js');
  // 10 names, each a list of 9 dicts holding a number and a text: 100 objects, 100 arrows.
  const vars = new Map();
  let id = 1;
  for (let v = 0; v < 10; v++) {
    const items = [];
    const list = id++;
    for (let k = 0; k < 9; k++) items.push({ t: 'dict', r: '{…}', len: 2, id: id++, more: 0,
      entries: [[{ t: 'str', r: "'n'", v: 'n', len: 1 }, { t: 'int', r: String(k) }],
                [{ t: 'str', r: "'name'", v: 'name', len: 4 }, { t: 'str', r: "'item'", v: 'item', len: 4 }]] });
    vars.set(`name${v}`, { t: 'list', r: '[…]', len: 9, id: list, items, more: 0 });
  }
  const host = document.querySelector('.memory-body');
  const t = (key, values) => stepwise.i18n.t(key, values);
  const times = [];
  let drawn = 0;
  let cells;
  for (let rep = 0; rep < reps; rep++) {
    const started = performance.now();
    const frames = [{ function: 'f', current: true, vars }];
    const drawnNow = renderMemory(frames, { anchor: 'bench', t, before: null, cells });
    const picture = drawnNow.picture;
    cells = drawnNow.cells;                      // a step after a step: the cells are kept
    host.replaceChildren(picture);
    drawArrows(picture);                         // reads the layout: the paint's cost is in
    times.push(performance.now() - started);
    drawn = picture.querySelectorAll('.mem-object').length;
    if (!picture.querySelector('.mem-more')) throw new Error('no box says what was left out');
  }
  host.replaceChildren();
  return { times, drawn };
}"""


def bench_memory(browser, server: Server, reps: int) -> dict:
    """Drawing one step's memory picture of a step that reaches 100 objects (the boxes up to the picture's cap,
    the "more" box, the arrows, layout included), in the lesson page with its stylesheet."""
    context, page, errors = new_page(browser)
    page.goto(server.lesson_url)
    # After the idle boot of Python: its messages would share the main thread with the drawing.
    page.wait_for_function("() => globalThis.stepwise?.worker?.python", timeout=LONG)
    page.wait_for_timeout(500)
    answer = page.evaluate(DRAW_100, max(reps, 5) * 8)
    context.close()
    if errors:
        log(f"page errors while drawing: {errors[:3]}")
    return {"draw_100_ms": stats(answer["times"][1:]), "objects": 100, "drawn": answer["drawn"]}
