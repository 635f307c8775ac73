"""Browser fixtures: one built-and-served site and one headless Chromium per session.

Every page (`open_page`, or a module's shared `lesson` page) records its requests, page errors and console errors; the
fixture's teardown asserts that nothing left the origin and nothing went wrong on the page.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright import sync_api as playwright_sync

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("STEPWISE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
BOOT_TIMEOUT = 30_000  # ms: Pyodide's boot is a few seconds; leave room for a slow machine

# The page's three debuggers (function -> region name).
PATH = "s08/core/runtime.py"
FUNCTIONS = ("split_history", "trim_results", "prepare_context")


def region_name(function: str) -> str:
    return f"{PATH} · {function}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(out: Path, *options: str):
    """Run `build.py serve` into `out` on a free port; yield its origin once it answers."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", str(port), "--out", str(out), *options],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    origin = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"build.py serve exited {process.returncode}:\n{process.stdout.read()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("build.py serve did not answer within 120 s") from None
                time.sleep(0.1)
        yield origin
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def lessons_server(tmp_path_factory):
    """The site with the test-only lessons (tests/fixtures/lessons) added; yields the origin."""
    yield from _serve(tmp_path_factory.mktemp("dist-lessons"), "--lessons", "lessons",
                      "--lessons", "tests/fixtures/lessons")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """Build into a temp dir and serve it (COOP/COEP + CSP); yields the origin."""
    yield from _serve(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def plain_server(tmp_path_factory):
    """The same site without COOP/COEP: no SharedArrayBuffer, so stopping means a worker reboot."""
    yield from _serve(tmp_path_factory.mktemp("site-plain"), "--no-isolation")


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: `make setup` installs Debian's chromium", pytrace=False)
    with playwright_sync.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


class Watched:
    """A page plus what it did: requests (page and its workers), page errors, console errors."""

    def __init__(self, context, page, origin):
        self.context = context
        self.page = page
        self.origin = origin
        self.requests: list[str] = []
        self.errors: list[str] = []
        # The context's "request" event also sees the dedicated worker's fetches (Pyodide's files).
        context.on("request", lambda request: self.requests.append(request.url))
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on("console", lambda message: message.type == "error"
                and self.errors.append(f"console.error: {message.text}"))
        page.on("worker", lambda worker: worker.on("console", lambda message: message.type == "error"
                and self.errors.append(f"worker console.error: {message.text}")))

    def mark(self) -> tuple[int, int]:
        return len(self.requests), len(self.errors)

    def problems(self, since: tuple[int, int] = (0, 0)) -> list[str]:
        """Foreign requests and page/console errors recorded after `since`."""
        out = []
        foreign = [url for url in self.requests[since[0]:]
                   if not (url.startswith(self.origin + "/") or url.startswith(("data:", "blob:")))]
        if foreign:
            out.append(f"requests left the origin {self.origin}: {sorted(set(foreign))}")
        if self.errors[since[1]:]:
            out.append("errors on the page:\n  " + "\n  ".join(self.errors[since[1]:]))
        return out


def new_page(browser, origin, hash_="", *, viewport=None, color_scheme=None, wait_boot=True,
             lesson: str = "s08", before_load=None) -> Watched:
    """A fresh context (no remembered language) with the lesson page open and Python booted."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                  color_scheme=color_scheme, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(BOOT_TIMEOUT)
    watched = Watched(context, page, origin)
    if before_load is not None:
        before_load(context)
    page.goto(f"{origin}/{lesson}/index.html" + (f"#{hash_}" if hash_ else ""))
    if wait_boot:
        # A function, not a string: the page's CSP forbids eval, and a string predicate is eval'd.
        page.wait_for_function("() => globalThis.stepwise?.worker?.python", timeout=BOOT_TIMEOUT)
    return watched


@pytest.fixture
def open_page(chromium, server, request):
    """open_page(hash="", origin=None, viewport=None, color_scheme=None) -> Watched; checked and closed after."""
    opened: list[Watched] = []

    def open_(hash_: str = "", origin: str | None = None, **options) -> Watched:
        watched = new_page(chromium, origin or server, hash_, **options)
        opened.append(watched)
        return watched

    yield open_
    problems = []
    for watched in opened:
        problems += watched.problems()
        watched.context.close()
    if problems:
        pytest.fail(f"{request.node.name}: " + "\n".join(problems), pytrace=False)


@pytest.fixture(scope="module")
def shared_page(chromium, server):
    """One booted lesson page for a whole test module (tests reset the widget they use)."""
    watched = new_page(chromium, server)
    yield watched
    watched.context.close()


@pytest.fixture
def lesson(shared_page, request):
    """The module's shared page; whatever went wrong on it during this test fails this test."""
    since = shared_page.mark()
    yield shared_page
    problems = shared_page.problems(since)
    if problems:
        pytest.fail(f"{request.node.name}: " + "\n".join(problems), pytrace=False)
