"""Driving the lesson page in Debian's Chromium with Playwright: a page with the probe (bench/probe.js) in it,
finding a debugger, clicking Run and waiting until its result is painted. Shared by the browser sections."""
from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from pathlib import Path

from common import BENCH

CHROMIUM = os.environ.get("STEPWISE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PATH = "s08/core/runtime.py"  # the shown file of the lesson page: its debuggers are regions named after it
FINISHED, ERROR, RUNNING = "已完成", "出错", "运行中"
LONG = 60_000  # ms: a Playwright wait that covers a cold Pyodide boot on a slow machine
PROBE = (BENCH / "probe.js").read_text(encoding="utf-8")


@contextmanager
def chromium():
    """A headless Chromium for the length of the block."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


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


BENCH_PAGE = '''<!doctype html>
<meta charset="utf-8">
<title>__TITLE__</title>
<script type="application/json" id="bench-data">__DATA__</script>
<script type="module" src="./__NAME__.mjs"></script>
'''


def write_bench_page(site: Path, name: str, package: str, modules: dict[str, str], script: str, data: dict) -> str:
    """A page `name`.html in the built `site` whose module (`script`, a file of its own: the site's
    Content-Security-Policy allows no inline script) reads `data` from #bench-data, with `modules`
    (file name -> text) in py/`package`/ for the worker, booted with the lesson page's own options
    (`data["options"]`). Returns the page's path."""
    html = (site / "s08" / "index.html").read_text(encoding="utf-8")
    lesson = json.loads(re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>', html,
                                  re.S).group(1))
    folder = site / "py" / package
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    for file, text in modules.items():
        (folder / file).write_text(text, encoding="utf-8")
    files = [*lesson["files"], *(f"py/{package}/{file}" for file in ("__init__.py", *modules))]
    options = {"root": lesson["root"].removeprefix("../") or ".", "files": files,
               "pythonRoots": lesson["pythonRoots"], "pyodide": lesson["pyodide"]}
    text = json.dumps({"options": options, **data}).replace("</", "<\\/")
    page = BENCH_PAGE.replace("__TITLE__", name).replace("__NAME__", name).replace("__DATA__", text)
    (site / f"{name}.html").write_text(page, encoding="utf-8")
    (site / f"{name}.mjs").write_text(script, encoding="utf-8")
    return f"{name}.html"


def bench_page_result(browser, new_page, server, path: str, answer: str, timeout_ms: int) -> dict:
    """Open the bench page at `path` and wait for what it leaves in `window[answer]`; its error, or one of
    the page's own, fails the section with what the page said."""
    context, page, errors = new_page(browser)
    page.goto(f"{server.origin}/{path}")
    try:
        page.wait_for_function(f"() => window.{answer}", timeout=timeout_ms, polling=200)
    except Exception as error:  # noqa: BLE001 - say what the page said, then fail the section
        raise RuntimeError(f"{path} did not finish; page errors {errors[:5]}") from error
    result = page.evaluate(f"() => window.{answer}")
    context.close()
    if "error" in result:
        raise RuntimeError(f"{path}: {result['error']}; page errors {errors[:3]}")
    return result


def run_standalone(bench, prefix: str) -> None:
    """`python bench/<section>.py [repeats]`: build and serve the site, run `bench(browser, new_page,
    server, repeats)` in Chromium, print its figures."""
    import sys
    import tempfile

    from server import Server
    server = Server(Path(tempfile.mkdtemp(prefix=prefix)) / "site", isolation=True)
    try:
        with chromium() as browser:
            print(json.dumps(bench(browser, new_page, server, int(sys.argv[1]) if sys.argv[1:] else 1), indent=1))
    finally:
        server.close()
