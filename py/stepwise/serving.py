"""`stepwise serve`: a built site on 127.0.0.1 as a static host should send it (compressed copies, the
right types, COOP/COEP when asked), and with `--watch` a rebuild whenever a file the build reads changes."""
from __future__ import annotations

import gzip
import shutil
import sys
import threading
import time
import tomllib
from email.utils import formatdate
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from . import assets
from .course import BuildError, Course
from .lessons import Lesson
from .site_build import CSP, build

COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".py", ".svg", ".txt")


def watched_files(lessons: list[Lesson], course: Course) -> dict[Path, float]:
    """Every file a build reads: lesson folders, scenario files and setups, shown sources, the front end."""
    paths: set[Path] = set()
    # The course's scenarios and Python too: a lesson whose scenario file failed to load is not listed.
    for folder in [*course.lessons_dirs, assets.SITE / "templates", assets.SITE / "js", assets.SITE / "css",
                   course.path("scenarios"), course.path("py")]:
        paths.update(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    paths.add(assets.SITE / "i18n.json")
    for meta in (meta for folder in course.lessons_dirs for meta in folder.glob("*/lesson.toml")):
        try:   # a lesson that failed to load is not in `lessons`: its scenario folder is watched all the same
            named = tomllib.loads(meta.read_text(encoding="utf-8")).get("scenarios")
        except (OSError, tomllib.TOMLDecodeError):
            continue
        for name in [named] if isinstance(named, str) else named if isinstance(named, list) else []:
            folder = course.path(str(name)).parent
            if folder.is_dir():
                paths.update(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for lesson in lessons:
        paths.update(lesson.files.values())
        paths.update(path for file in lesson.shown for path in (file.scenarios.path, file.scenarios.setup_path))
    stamps = {}
    for path in paths:
        try:
            stamps[path] = path.stat().st_mtime
        except OSError:
            stamps[path] = -1.0
    return stamps


def watch(out: Path, course: Course, lessons: list[Lesson], every: float = 0.5) -> None:
    """Rebuild whenever a file the build reads changes; a failed rebuild keeps the last good site."""
    def loop(lessons: list[Lesson]) -> None:
        seen = watched_files(lessons, course)
        while True:
            time.sleep(every)
            now = watched_files(lessons, course)
            if now == seen:
                continue
            seen = now
            try:
                lessons = build(out, course)
                seen = watched_files(lessons, course)
            except BuildError as error:
                print(f"rebuild failed (still serving the last good build): {error}", file=sys.stderr, flush=True)
                failed_page(out, str(error))

    threading.Thread(target=loop, args=(lessons,), daemon=True).start()


FAILED_MARK = "<!-- stepwise: build failed -->"


def failed_page(out: Path, message: str) -> None:
    """With no good build in `out` yet, an index page that shows the build's latest error (escaped)."""
    from html import escape
    index = out / "index.html"
    if index.is_file() and not index.read_text(encoding="utf-8").startswith(FAILED_MARK):
        return
    out.mkdir(parents=True, exist_ok=True)
    index.write_text(
        f"{FAILED_MARK}<!doctype html><meta charset=utf-8><title>Build failed</title>"
        f"<h1>The build failed</h1><pre>{escape(message)}</pre><p>Fix it and save: the site is rebuilt.</p>",
        encoding="utf-8")


def not_modified(since: str | None, mtime: float) -> bool:
    """Does an If-Modified-Since header say the browser's copy is as new as the file (seconds)?"""
    from datetime import UTC
    from email.utils import parsedate_to_datetime
    if not since:
        return False
    try:
        when = parsedate_to_datetime(since)
    except (TypeError, ValueError, IndexError, OverflowError):
        return False
    if when.tzinfo is None:   # HTTP dates are GMT; a date without a zone is read as such (as http.server does)
        when = when.replace(tzinfo=UTC)
    return int(mtime) <= when.timestamp()


class SiteHandler(SimpleHTTPRequestHandler):
    """One request to the built site: right MIME types; a file's build-time .br or .gz copy when the browser
    takes it, gzip made here for other text; Pyodide's folder cached for good. `serve` makes a subclass
    with the folder and the isolation set."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json",
                      ".py": "text/plain; charset=utf-8", ".md": "text/plain; charset=utf-8",
                      ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8"}
    out = Path(".")
    isolation = True
    compressed: dict[tuple[str, float], bytes] = {}     # gzip made here, by (path, mtime)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(self.out), **kwargs)

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        accepted = {part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")}
        if path.is_file() and (self._send_built_copy(path, accepted)
                               or "gzip" in accepted and path.suffix in COMPRESSIBLE and self._send_gzipped(path)):
            return
        super().do_GET()

    def _send_built_copy(self, path: Path, accepted: set[str]) -> bool:
        """Compressed at build time (the Pyodide files, traces): the best copy the browser accepts."""
        for encoding, suffix in (("br", ".br"), ("gzip", ".gz")):
            packed = path.with_name(path.name + suffix)
            if encoding in accepted and packed.is_file():
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(path)))
                self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(packed.stat().st_size))
                self.end_headers()
                with packed.open("rb") as stream:
                    shutil.copyfileobj(stream, self.wfile)
                return True
        return False

    def _send_gzipped(self, path: Path) -> bool:
        """Other text, gzipped here once per version of the file; a 304 when the browser's copy is current."""
        stat = path.stat()
        if not_modified(self.headers.get("If-Modified-Since"), stat.st_mtime):
            self.send_response(304)   # revalidation costs no body
            self.end_headers()
            return True
        body = self.compressed.get((str(path), stat.st_mtime))
        if body is None:
            body = self.compressed[(str(path), stat.st_mtime)] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", formatdate(stat.st_mtime, usegmt=True))
        self.end_headers()
        self.wfile.write(body)
        return True

    def end_headers(self) -> None:
        if self.isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        # The embeds' sizing script is for other sites' pages (docs/hosting.md); the rest is this site's own.
        shared = self.path.split("?")[0].endswith("/assets/js/embed-host.js")
        self.send_header("Cross-Origin-Resource-Policy", "cross-origin" if shared else "same-origin")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Vary", "Accept-Encoding")
        # Pyodide's folder is named for what it holds: cache it for good. The rest revalidates (304s).
        pinned = "/pyodide/" in self.path.split("?")[0]
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if pinned else "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - keep the test output quiet
        if "--verbose" in sys.argv:
            super().log_message(format, *args)


class QuietServer(ThreadingHTTPServer):
    """A browser that closes a connection mid-answer (a reload, a cancelled fetch) is no error to print."""

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):   # BrokenPipeError, ConnectionResetError
            super().handle_error(request, client_address)


def serve(out: Path, port: int, isolation: bool = True) -> None:
    """Serve `out` on 127.0.0.1 (`SiteHandler`). With `isolation` the COOP/COEP headers make the page
    cross-origin isolated, so the worker gets a SharedArrayBuffer and a runaway run is interrupted in
    place instead of rebooting the worker."""
    handler = type("Handler", (SiteHandler,), {"out": out, "isolation": isolation, "compressed": {}})
    with QuietServer(("127.0.0.1", port), handler) as server:
        mode = "cross-origin isolated" if isolation else "not isolated"
        print(f"serving {out} on http://127.0.0.1:{server.server_address[1]}/ ({mode})", flush=True)
        server.serve_forever()
