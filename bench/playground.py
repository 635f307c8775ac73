"""The playground (issue 33) on a 9 Mbps / 150 ms link, cold: open → the editor takes keys (Python boots
after, in the background), and the first run of a 1,000-step program once Python is ready, click → painted
(then a second run, warm)."""
from __future__ import annotations

from urllib.parse import urlencode

from common import stats
from network import FAST, LINKS, throttle
from page import LONG, click_to_paint, log_length, wait_painted

from stepwise.playground import packed_code

# Two steps a pass (the `for` line and its body) for 499 passes, and the lines around: ~1,000 steps.
PROGRAM = "total = 0\nfor n in range(499):\n    total += n\nprint(total)\n"
FN = "main"


def one_open(browser, new_page, origin: str, mbps: float, latency: float) -> dict:
    context, page, errors = new_page(browser)
    throttle(context, page, mbps, latency)
    page.goto(f"{origin}/play/index.html", wait_until="commit")
    page.wait_for_function("() => performance.getEntriesByName('stepwise-editor-ready').length", timeout=LONG,
                           polling=20)
    editor_ms = page.evaluate("() => performance.getEntriesByName('stepwise-editor-ready')[0].startTime")
    page.wait_for_function("() => globalThis.stepwise?.worker?.python", timeout=180_000, polling=50)
    ready_ms = page.evaluate("() => performance.now()")
    page.evaluate("(hash) => { location.hash = hash; }", urlencode({"f": FN, "code": packed_code(PROGRAM)}))
    page.wait_for_function("() => document.querySelectorAll('.dbg-code > .code .line').length === 4", timeout=LONG)
    region = page.get_by_role("region", name="main.py · main", exact=True)
    runs = []
    for _ in range(2):
        since = log_length(page)
        region.get_by_role("button", name="运行", exact=True).click()
        runs.append(click_to_paint(wait_painted(page, FN, since), FN))
        # A new input is a new run (Run again on the same program and input would replay its trace).
        page.get_by_role("textbox", name="输入（每行一次 input()）").fill(f"{len(runs)}\n")
    steps = page.evaluate("() => stepwise.debuggers.get('main').replay?.totalStops ?? null")
    context.close()
    return {"editor_ms": round(editor_ms, 1), "python_ready_ms": round(ready_ms, 1),
            "first_run_ms": round(runs[0]["ms"], 1), "first_run_status": runs[0]["text"],
            "warm_run_ms": round(runs[1]["ms"], 1), "steps": steps, "errors": errors[:5]}


def bench_playground(browser, new_page, server, repeats: int) -> dict:
    mbps, latency = LINKS[FAST]
    runs = [one_open(browser, new_page, server.origin, mbps, latency) for _ in range(repeats)]
    return {"link": FAST, "runs": runs,
            "editor_ms": stats([r["editor_ms"] for r in runs], 1),
            "first_run_ms": stats([r["first_run_ms"] for r in runs], 1),
            "warm_run_ms": stats([r["warm_run_ms"] for r in runs], 1)}
