"""The lesson page on slow links: Chromium's network throttled through the DevTools protocol.

For each link (`LINKS`), in a fresh browser context (cold HTTP cache):
  1. navigate; the probe clicks split_history's Run at DOMContentLoaded; time to the painted result and
     every byte the page fetched before that paint (by request);
  2. at once, edit the case's call ("修改输入") and Run it: the first live run, Python booted on demand
     (the idle boot may already be under way) — click → painted, and the worker's boot phases;
and in another fresh context, the same edited run after the idle boot has finished (Python ready).
Bytes are the encoded body sizes Chromium reports (what crossed the wire, before decompression),
for the page and for its worker alike.
"""
from __future__ import annotations

import json
from pathlib import Path

LINKS = {"9 Mbps / 150 ms": (9.0, 150), "1.6 Mbps / 560 ms": (1.6, 560)}
FAST = "9 Mbps / 150 ms"
FN = "split_history"
EDITED_CALL = "print(split_history(messages, keep_recent=2)['older'])\n"
PAINTED = "([fn, since]) => __bench.log.slice(since).some((e) => e.kind === 'painted' && e.fn === fn)"


def throttle(context, page, mbps: float, latency_ms: float) -> None:
    """Emulate the link for the page and the workers it starts (same DevTools target)."""
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    rate = mbps * 1_000_000 / 8  # bytes per second
    session.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                       "downloadThroughput": rate, "uploadThroughput": rate})


class Requests:
    """Every finished request of a context: path, encoding, bytes on the wire and when it ended (ms since
    the page's time origin)."""

    def __init__(self, context, origin: str):
        self.origin = origin
        self.rows: list[dict] = []
        self.time_origin: float | None = None
        context.on("requestfinished", self._finished)

    def _finished(self, request) -> None:
        try:
            sizes = request.sizes()
            response = request.response()
            headers = response.all_headers() if response else {}
        except Exception:  # noqa: BLE001 - a request of a closed page: nothing to count
            return
        timing = request.timing
        body = max(sizes["responseBodySize"], int(headers.get("content-length", 0) or 0))
        self.rows.append({"path": request.url.removeprefix(self.origin),
                          "encoding": headers.get("content-encoding", ""),
                          "bytes": body + sizes["responseHeadersSize"], "body": body,
                          "start_epoch_ms": timing["startTime"],
                          "end_epoch_ms": timing["startTime"] + max(timing["responseEnd"], 0)})

    def before(self, page_ms: float) -> list[dict]:
        cut = self.time_origin + page_ms
        return [r for r in self.rows if r["end_epoch_ms"] <= cut]


def edit_and_run(page, region) -> dict:
    """Open the edit box, change the call, press Run; the click → painted time of that live run."""
    region.get_by_role("button", name="修改输入", exact=True).click()
    region.get_by_role("textbox", name="调用入口", exact=True).fill(EDITED_CALL)
    since = page.evaluate("() => __bench.log.length")
    page.evaluate("""() => { const worker = stepwise.worker, run = worker.run.bind(worker);
        worker.run = (request) => { const handle = run(request);
            handle.result.then(() => { __bench.marks.answered = performance.now(); }); return handle; }; }""")
    region.get_by_role("button", name="运行", exact=True).click()
    page.wait_for_function(PAINTED, arg=[FN, since], timeout=180_000, polling=20)
    log = page.evaluate("since => __bench.log.slice(since)", since)
    click = next(e for e in log if e["kind"] == "click" and e["action"] == "run")
    painted = next(e for e in log if e["kind"] == "painted" and e["fn"] == FN)
    stdout = region.locator(".stdout").inner_text()
    worker_ms = page.evaluate(f"() => stepwise.debuggers.get('{FN}').lastRunMs")
    answered = page.evaluate("() => __bench.marks.answered ?? null")
    return {"ms": round(painted["t"] - click["t"], 1), "status": painted["text"], "stdout": stdout,
            "clicked_at_ms": round(click["t"], 1), "worker_ms": worker_ms and round(worker_ms, 1),
            # click → the worker's answer arrived (boot, queue, run, message) and answer → painted (page)
            "to_answer_ms": answered and round(answered - click["t"], 1),
            "page_ms": answered and round(painted["t"] - answered, 1)}


def one_link(browser, new_page, lesson_url: str, origin: str, mbps: float, latency: float) -> dict:
    context, page, errors = new_page(browser, auto_run=FN)
    requests = Requests(context, origin)
    throttle(context, page, mbps, latency)
    page.goto(lesson_url, wait_until="commit")
    page.wait_for_function(PAINTED, arg=[FN, 0], timeout=120_000, polling=20)
    state = page.evaluate("""() => ({origin: performance.timeOrigin, marks: __bench.marks,
        painted: __bench.log.find((e) => e.kind === 'painted').t,
        connection: navigator.connection ? {downlink: navigator.connection.downlink,
            effectiveType: navigator.connection.effectiveType, saveData: navigator.connection.saveData} : null})""")
    requests.time_origin = state["origin"]
    first_paint_ms = state["painted"]
    before = requests.before(first_paint_ms)
    region = page.locator(f'section.debugger[data-function="{FN}"]')
    live = edit_and_run(page, region)
    boot = page.evaluate("() => ({marks: __bench.marks, boot_ms: stepwise.worker.bootMs})")
    context.close()

    # After the idle boot: a fresh cold context, wait until Python is ready, then the same edited run.
    context, page, more_errors = new_page(browser)
    throttle(context, page, mbps, latency)
    page.goto(lesson_url, wait_until="commit")
    page.wait_for_function("() => __bench.marks.ready", timeout=180_000, polling=50)
    ready_ms = page.evaluate("() => __bench.marks.ready")
    warm = edit_and_run(page, page.locator(f'section.debugger[data-function="{FN}"]'))
    context.close()
    return {"mbps": mbps, "latency_ms": latency, "connection": state["connection"],
            "first_trace_ms": round(first_paint_ms, 1), "bytes_before_first_trace": sum(r["bytes"] for r in before),
            "requests_before_first_trace": sorted(({k: r[k] for k in ("path", "encoding", "bytes")} for r in before),
                                                  key=lambda r: -r["bytes"]),
            "live_cold": live, "boot": boot,
            "all_requests": sorted(({k: r[k] for k in ("path", "encoding", "bytes")}
                                    | {"from_ms": round(r["start_epoch_ms"] - state["origin"]),
                                       "to_ms": round(r["end_epoch_ms"] - state["origin"])} for r in requests.rows),
                                   key=lambda r: -r["bytes"]),
            "idle_boot_ready_ms": round(ready_ms, 1), "live_after_idle_boot": warm,
            "errors": (errors + more_errors)[:5]}


def pyodide_files(site: Path, package: Path) -> list[dict]:
    """Each Pyodide file as npm ships it (raw, and gzip level 6 as `build.py serve` sent it before the
    build precompressed it) and as the site serves it (raw, .gz, .br)."""
    import gzip

    rows = []
    folder = next((site / "pyodide").iterdir())
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "python_stdlib_rest.zip",
                 "pyodide-lock.json"):
        served, original = folder / name, package / name
        size = lambda path: path.stat().st_size if path.is_file() else None  # noqa: E731
        rows.append({"file": name, "npm": size(original),
                     "npm_gzip": len(gzip.compress(original.read_bytes(), 6)) if original.is_file() else None,
                     "served_raw": size(served), "gzip": size(served.with_name(name + ".gz")),
                     "brotli": size(served.with_name(name + ".br"))})
    return rows


def bench_network(browser, new_page, server, package: Path, repeats: int, links=LINKS) -> dict:
    results = {}
    for name, (mbps, latency) in links.items():
        runs = [one_link(browser, new_page, server.lesson_url, server.origin, mbps, latency) for _ in range(repeats)]
        results[name] = {"runs": runs}
    results["pyodide_files"] = pyodide_files(server.out, package)
    return results


if __name__ == "__main__":  # a quick look without the whole benchmark: python bench/network.py
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    import tempfile

    from common import PYODIDE_PACKAGE
    from page import chromium, new_page
    from server import Server
    server = Server(Path(tempfile.mkdtemp(prefix="stepwise-net-")) / "site", isolation=True)
    try:
        with chromium() as browser:
            links = {name: link for name, link in LINKS.items() if not sys.argv[1:] or name.startswith(sys.argv[1])}
            result = bench_network(browser, new_page, server, PYODIDE_PACKAGE, 1, links)
    finally:
        server.close()
    for name, link in result.items():
        if name == "pyodide_files":
            continue
        for r in link["runs"]:
            print(name, json.dumps({k: r[k] for k in ("first_trace_ms", "bytes_before_first_trace",
                                                        "live_cold", "idle_boot_ready_ms", "live_after_idle_boot",
                                                        "connection", "errors")}, ensure_ascii=False))
            for row in r["all_requests"][:12]:
                print("   ", row)
    print(json.dumps(result["pyodide_files"], indent=1))
