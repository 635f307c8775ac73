"""The site builder: what it writes, and how it refuses authoring mistakes."""
import contextlib
import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html import unescape
from pathlib import Path

import pytest

from stepwise import pyodide_files, site_build, toolchain
from stepwise.course import Course
from stepwise.serving import not_modified

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    site_build.build(out, Course.at(REPO))
    return out


def test_sources_are_copied_byte_for_byte(site):
    for name in ("py/s08/core/runtime.py", "py/steptrace/runner.py", "py/steptrace/recorder.py"):
        assert (site / name).read_bytes() == (REPO / name).read_bytes()


def test_pyodide_is_served_from_the_site_in_a_folder_named_for_its_contents(site):
    import gzip
    import subprocess

    package = toolchain.find().pyodide
    data = json.loads(re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>',
                                (site / "s08" / "index.html").read_text(encoding="utf-8"), re.S).group(1))
    version = json.loads((package / "package.json").read_text())["version"]
    assert re.fullmatch(rf"pyodide/pyodide-{re.escape(version)}-[0-9a-f]{{12}}/", data["pyodide"])
    folder = site / data["pyodide"]
    assert [p.name for p in (site / "pyodide").iterdir()] == [folder.name]   # no older folder left
    for name in pyodide_files.CORE:
        assert (folder / name).read_bytes() == (package / name).read_bytes()
    lock = json.loads((folder / pyodide_files.LOCK).read_text())
    npm_lock = json.loads((package / pyodide_files.LOCK).read_text())
    assert lock == {"info": npm_lock["info"], "packages": {}}
    # Each file's precompressed copies hold exactly the file (brotli checked with node's zlib).
    for name in pyodide_files.SERVED:
        original = (folder / name).read_bytes()
        assert gzip.decompress((folder / (name + ".gz")).read_bytes()) == original, name
        unpacked = subprocess.run(["node", "-e", "process.stdout.write(require('zlib').brotliDecompressSync("
                                   "require('fs').readFileSync(process.argv[1])))", str(folder / (name + ".br"))],
                                  capture_output=True, check=True).stdout
        assert unpacked == original, name
        assert len((folder / (name + ".br")).read_bytes()) < len(original), name


def test_the_page_asks_for_one_module_and_the_first_trace_at_once(site):
    """First paint needs the HTML, then in parallel its CSS, one module and the first trace: the page's
    module graph is bundled (stepwise.site_build bundle_page), so no import waits for another."""
    html = (site / "s08" / "index.html").read_text(encoding="utf-8")
    preloaded = re.findall(r'<link rel="modulepreload" href="\.\./assets/js/([\w.-]+)">', html)
    scripts = re.findall(r'<script type="module" src="\.\./assets/js/([\w.-]+)">', html)
    assert preloaded == scripts == ["lesson.bundle.js"], (preloaded, scripts)
    bundle = (site / "assets" / "js" / "lesson.bundle.js").read_text(encoding="utf-8")
    assert not re.search(r'\bfrom\s*["\']\./', bundle), "the bundle still imports a module of its own"
    assert "pyodide-worker.js" in bundle   # the worker stays a module of its own, found beside the bundle
    assert (site / "assets" / "js" / "pyodide-worker.js").is_file()
    assert '<link rel="preload" href="traces/split_history.normal.json" as="fetch" crossorigin="anonymous">' in html
    assert (site / "s08" / "traces" / "split_history.normal.json").is_file()


def test_pages_use_relative_urls_and_forbid_other_origins(site):
    for page in (site / "index.html", site / "s08" / "index.html"):
        html = unescape(page.read_text(encoding="utf-8"))
        assert "default-src 'self'" in html and "connect-src 'self'" in html
        urls = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert urls and all(not u.startswith(("http:", "https:", "//", "/")) for u in urls), urls


def test_lesson_page_has_one_debugger_per_function(site):
    html = (site / "s08" / "index.html").read_text(encoding="utf-8")
    for name in ("split_history", "trim_results", "prepare_context"):
        assert f'aria-label="s08/core/runtime.py · {name}"' in html
    assert html.count('class="debugger"') == 3
    assert 'aria-label="断点 第35行"' in html  # real line numbers of the file
    assert 'aria-label="s01/core/runtime.py · run_loop"' in html  # the loop's commit point, from the real file
    assert "prepare(deepcopy(messages))" in unescape(re.sub(r"<[^>]+>", "", html))


# ---------------------------------------------------------------- authoring mistakes

@pytest.fixture
def authoring(tmp_path):
    """A private copy of the lesson and its scenario file, to break on purpose."""
    lessons = tmp_path / "lessons"
    shutil.copytree(REPO / "lessons", lessons)
    scenarios = tmp_path / "scenarios"
    shutil.copytree(REPO / "scenarios", scenarios)
    toml = lessons / "s08" / "lesson.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'scenarios = "scenarios/s08.toml"', f'scenarios = "{scenarios / "s08.toml"}"'), encoding="utf-8")
    return lessons, scenarios / "s08.toml", scenarios / "s08" / "setup.py"


def fails_with(lessons, tmp_path, *patterns):
    result = subprocess.run([sys.executable, str(REPO / "build.py"), "--out", str(tmp_path / "out"),
                             "--lessons", str(lessons)], capture_output=True, text=True, cwd=REPO, timeout=600)
    assert result.returncode == 1, result.stdout + result.stderr
    for pattern in patterns:
        assert re.search(pattern, result.stderr), result.stderr
    return result.stderr


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_unbroken_copy_builds(authoring, tmp_path):
    lessons, _, _ = authoring
    assert subprocess.run([sys.executable, "build.py", "--out", str(tmp_path / "o"), "--lessons", str(lessons)],
                          cwd=REPO, capture_output=True).returncode == 0


# (file, text, replaced by, what stderr must say, the text on the line it names — None: no line)
MISTAKES = {
    "unknown function": ("toml", 'name = "trim_results"', 'name = "trim_result"',
                         r"s08\.toml:(\d+): unknown function 'trim_result'.*defines", 'name = "trim_result"'),
    "unknown function in prose": ("zh", "```debugger\nsplit_history", "```debugger\nsplit_histroy",
                                  r"lesson\.zh\.md:(\d+): unknown function 'split_histroy'", "split_histroy"),
    "missing case field": ("toml", 'pending = { zh = "缺少结果", en = "Missing result" }',
                           'pending = { zh = "缺少结果" }',
                           r"s08\.toml:(\d+): case 'pending' needs non-empty text for both zh and en",
                           'pending = { zh = "缺少结果" }'),
    "duplicate case ids": ("toml", 'cases = ["normal", "pending", "mismatch", "multi"]',
                           'cases = ["normal", "pending", "normal"]',
                           r"s08\.toml:(\d+): function 'split_history' lists case id\(s\) normal more than once",
                           'cases = ["normal", "pending", "normal"]'),
    "duplicate case definition": ("toml", 'normal = { zh = "正常", en = "Normal" }',
                                  'normal = { zh = "正常", en = "Normal" }\nnormal = { zh = "又一个", en = "Again" }',
                                  r"s08\.toml:(\d+): not valid TOML", 'normal = { zh = "又一个", en = "Again" }'),
    "unknown case offered": ("toml", '"normal", "pending", "mismatch", "multi"', '"normal", "pendign"',
                             r"s08\.toml:(\d+): function 'split_history' offers case 'pendign'", '"pendign"'),
    "stage that matches no line": ("toml", 'start = "cut = "', 'start = "cutting = "',
                                   r"s08\.toml:(\d+): stage start 'cutting = ' matches no line of split_history\(\)",
                                   'start = "cutting = "'),
    "languages with other widgets": ("en", "```debugger\ntrim_results\n```", "",
                                     r"lesson\.en\.md:\d+: ```\w+ .+ differs from lesson\.zh\.md:\d+'s ```debugger "
                                     r"trim_results; both languages need the same blocks", None),
    "unknown key in a function": ("toml", 'condition_example = "len(groups) > 1"',
                                  'condition_example = "len(groups) > 1"\nbreakpoint = 3',
                                  r"s08\.toml:(\d+): function 'split_history' has unknown key\(s\) breakpoint",
                                  "breakpoint = 3"),
    "unknown top-level key": ("toml", 'setup = "s08/setup.py"', 'setup = "s08/setup.py"\nsources = ["a.py", "b.py"]',
                              r"s08\.toml:(\d+): unknown top-level key 'sources'; a scenario file takes cases, "
                              r"functions, history, lesson, limits, module, setup, source", "sources = "),
    "unknown top-level table": ("toml", "[limits]", "[limit]",
                                r"s08\.toml:(\d+): unknown top-level key 'limit'", "[limit]"),
    "unknown key in lesson.toml": ("lesson", 'summary_en = ', 'summary = "x"\nsummary_en = ',
                                   r"lesson\.toml:(\d+): unknown key 'summary'; lesson\.toml takes `scenarios`",
                                   'summary = "x"'),
    "one file named twice in lesson.toml": ("lesson", 'summary_en = ', 'summary_en = ',
                                            r"lesson\.toml: two scenario files show py/s08/core/runtime\.py", None),
    "a debugger's file not in the lesson": ("zh", "```debugger\nsplit_history",
                                            "```debugger\npy/s01/core/runtime.py split_history",
                                            r"lesson\.zh\.md:(\d+): py/s01/core/runtime\.py is not a file of this "
                                            r"lesson; lesson\.toml's scenario files show py/s08/core/runtime\.py",
                                            "py/s01/core/runtime.py split_history"),
    "unknown method": ("toml", 'name = "trim_results"', 'name = "Runtime.trim_results"',
                       r"s08\.toml:(\d+): unknown function 'Runtime\.trim_results'", 'name = "Runtime.trim_results"'),
    "limits out of range": ("toml", "seconds = 0.7", "seconds = 0",
                            r"s08\.toml:(\d+): \[limits\]: `seconds` must be more than 0", "[limits]"),
    "unknown limit": ("toml", "seconds = 0.7", "secs = 0.7",
                      r"s08\.toml:(\d+): \[limits\] takes `seconds` and `events`", "[limits]"),
    "history without text": ("toml", 'budget = "budget"', 'budget = ""',
                             r"s08\.toml:(\d+): \[history\] takes non-empty strings", "[history]"),
    "budgeted not names": ("toml", 'budgeted = "messages candidate"', 'budgeted = "messages, candidate"',
                           r"s08\.toml:(\d+): \[history\] `budgeted` names locals", "[history]"),
    "condition example that is not an expression": (
        "toml", 'condition_example = "len(groups) > 1"', 'condition_example = "len(groups) >"',
        r"s08\.toml:(\d+): `condition_example` of 'split_history' is not an expression",
        'condition_example = "len(groups) >"'),
    "step note on a line that is not there": (
        "toml", '{ line = "if history_bytes(candidate) > budget or"', '{ line = "if history_size(candidate)"',
        r"s08\.toml:(\d+): note line 'if history_size\(candidate\)' matches no line of prepare_context\(\) in "
        r"runtime\.py; make it the unique start of one line", 'line = "if history_size(candidate)"'),
    "step note pinned to a stage that is not one": (
        "toml", '{ line = "if history_bytes(candidate) > budget or"', '{ stage = "if history_bytes(candidate)"',
        r"s08\.toml:(\d+): note pinned to stage 'if history_bytes\(candidate\)' of 'prepare_context', which is "
        r"not one of its stages \('def prepare_context'", 'stage = "if history_bytes(candidate)"'),
    "question whose explanation lacks a language": (
        "toml", 'explain = { zh = "cut = 组数', 'explain = { zhs = "cut = 组数',
        r"s08\.toml:(\d+): the `explain` of a question of 'split_history' needs non-empty text for both zh and en",
        'line = "cut = "'),
    "after-run note in one language": (
        "toml", 'after_run = { zh = "入口最后检查 messages == before：输入历史没有被修改。", en = "The entry ends by '
        'checking messages == before: the input history was not modified." }',
        'after_run = { zh = "入口最后检查。" }',
        r"s08\.toml:(\d+): .?after_run.? of 'split_history' needs non-empty text for both zh and en", "after_run"),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_authoring_mistake_names_file_line_and_fix(authoring, tmp_path, mistake):
    lessons, toml, _ = authoring
    which, old, new, pattern, on_line = MISTAKES[mistake]
    path = {"toml": toml, "zh": lessons / "s08" / "lesson.zh.md", "en": lessons / "s08" / "lesson.en.md",
            "lesson": lessons / "s08" / "lesson.toml"}[which]
    edit(path, old, new)
    if mistake == "one file named twice in lesson.toml":
        named = re.search(r'scenarios = (".*?")\n', path.read_text(encoding="utf-8")).group(1)
        edit(path, f"scenarios = {named}", f"scenarios = [{named}, {named}]")
    stderr = fails_with(lessons, tmp_path, pattern)
    if on_line is not None:
        line = int(re.search(pattern, stderr).group(1))
        assert on_line in path.read_text(encoding="utf-8").splitlines()[line - 1], stderr


def test_setup_with_a_syntax_error(authoring, tmp_path):
    lessons, _, setup = authoring
    edit(setup, 'if scenario == "pending":', 'if scenario == "pending"')
    stderr = fails_with(lessons, tmp_path, r"setup\.py:(\d+): the setup file has a syntax error")
    line = int(re.search(r"setup\.py:(\d+)", stderr).group(1))
    assert 'if scenario == "pending"' in setup.read_text(encoding="utf-8").splitlines()[line - 1]


def test_entry_with_a_syntax_error_names_the_toml_line(authoring, tmp_path):
    lessons, toml, _ = authoring
    edit(toml, "    observed = split_history(messages, keep_recent=1)", "    observed = split_history(messages,, 1)")
    stderr = fails_with(lessons, tmp_path, r"s08\.toml:(\d+): the entry of 'split_history' has a syntax error")
    line = int(re.search(r"s08\.toml:(\d+)", stderr).group(1))
    assert "split_history(messages,, 1)" in toml.read_text(encoding="utf-8").splitlines()[line - 1]




# -- the build proves every case in Pyodide (each test boots it once: a few seconds) ---------------------

def test_a_setup_that_raises_names_the_setup_line(authoring, tmp_path):
    lessons, _, setup = authoring
    edit(setup, 'if scenario == "pending":', 'raise RuntimeError("setup broke")\nif scenario == "pending":')
    stderr = fails_with(lessons, tmp_path, r"setup\.py:(\d+): case '\w+' of '\w+' ends with RuntimeError: setup broke "
                                           r"\(raised in its setup\)")
    line = int(re.search(r"setup\.py:(\d+)", stderr).group(1))
    assert setup.read_text(encoding="utf-8").splitlines()[line - 1] == 'raise RuntimeError("setup broke")'


def test_an_entry_that_fails_names_its_line_in_the_scenario_file(authoring, tmp_path):
    lessons, toml, _ = authoring
    edit(toml, "    observed = split_history(messages, keep_recent=1)", "    observed = split_histroy(messages)")
    stderr = fails_with(lessons, tmp_path, r"s08\.toml:(\d+): case 'normal' of 'split_history' ends with NameError")
    line = int(re.search(r"s08\.toml:(\d+)", stderr).group(1))
    assert "split_histroy(messages)" in toml.read_text(encoding="utf-8").splitlines()[line - 1]


def test_a_case_that_ends_otherwise_than_declared(authoring, tmp_path):
    lessons, toml, _ = authoring
    edit(toml, 'condition_example = "len(groups) > 1"',
         'condition_example = "len(groups) > 1"\noutcomes.normal = { raises = "ValueError" }\n'
         'outcomes.pending = { prints = "something else" }')
    stderr = fails_with(lessons, tmp_path, r"s08\.toml:(\d+): case 'normal' of 'split_history' declares raises = "
                                           r"'ValueError', but split_history raised nothing",
                        r"s08\.toml:(\d+): case 'pending' of 'split_history' declares prints = 'something else', "
                        r"but its first line is '工具结果尚未收齐，不能压缩。'")
    lines = toml.read_text(encoding="utf-8").splitlines()
    for case in ("normal", "pending"):   # the line to change: the case's own `outcomes` line
        line = int(re.search(rf"s08\.toml:(\d+): case '{case}'", stderr).group(1))
        assert lines[line - 1].startswith(f"outcomes.{case} = "), stderr


def test_a_case_that_hits_its_limit(authoring, tmp_path):
    lessons, toml, _ = authoring
    edit(toml, "seconds = 0.7", "seconds = 0.0001")
    stderr = fails_with(lessons, tmp_path, r"s08\.toml:(\d+): case 'summary' of 'prepare_context' stopped at the "
                                           r"build's time limit \(0\.0004 s: 4 × the page's 0\.0001 s\) after [\d,]+ "
                                           r"steps in Pyodide; raise `seconds`")
    line = int(re.search(r"s08\.toml:(\d+): case 'summary'", stderr).group(1))
    assert toml.read_text(encoding="utf-8").splitlines()[line - 1] == "[limits]", stderr


def test_a_case_that_cannot_be_stopped_fails_the_build_instead_of_stalling_it(authoring, tmp_path):
    """A loop inside one call into C, and a loop that catches every stop: Pyodide can interrupt neither,
    so the proof's watchdog ends the worker, says which case and why, and goes on with the next case."""
    lessons, toml, setup = authoring
    edit(setup, 'if scenario == "pending":',
         'if scenario == "pending":\n    sum(range(10 ** 15))\n'
         'if scenario == "normal":\n    while True:\n        try:\n            while True:\n                pass\n'
         '        except BaseException:\n            pass\n'
         'if scenario == "pending":')
    stderr = fails_with(lessons, tmp_path, r"case 'pending' of '\w+' could not run in Pyodide: ran past its time limit "
                                           r"\([\d.]+ s\) and could not be stopped",
                        r"case 'normal' of '\w+' could not run in Pyodide: ran past its time limit")
    assert "case 'summary' of 'prepare_context'" not in stderr    # the cases after them were proved


def test_a_case_stuck_in_c_or_swallowing_its_stops_is_kept_up_to_where_it_was(tmp_path):
    """A run that hangs inside one call into C after its shown code has run, and one that swallows every
    stop while the shown code runs: the terminated worker's trace is lost, but runs again stop where the
    first was at its limit (worker_watch.py), and the build says how far each came, not that it could
    not run."""
    lessons, scenarios = tmp_path / "lessons", tmp_path / "scenarios"
    shutil.copytree(REPO / "tests" / "fixtures" / "lessons" / "routes", lessons / "routes")
    shutil.copytree(REPO / "tests" / "fixtures" / "scenarios", scenarios)
    toml = lessons / "routes" / "lesson.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('"tests/fixtures/scenarios/', f'"{scenarios}/'),
                    encoding="utf-8")
    with (scenarios / "routes" / "setup.py").open("a", encoding="utf-8") as setup:
        setup.write("class Stuck(dict):\n    def get(self, key, default=None):\n        return sum(range(10 ** 15))\n"
                    "if scenario == 'town':\n    town.roads = Stuck(town.roads)\n")
    edit(scenarios / "routes.toml", 'print(list(town.neighbours("school")))',
         'while True:\n    try:\n        town.add("a", "b", 1)\n    except BaseException:\n        pass')
    edit(scenarios / "routes.toml", "limits = { seconds = 4.0 }", "limits = { seconds = 1.0 }")
    edit(scenarios / "routes.toml", 'name = "RoadMap"', 'name = "RoadMap"\nlimits = { seconds = 0.5 }')
    stopped = r"case 'town' of 'plan_trip' stopped at the build's time limit \(4 s: 4 × the page's 1 s\) after " \
              r"([\d,]+) steps"
    stderr = fails_with(lessons, tmp_path, stopped)
    steps = int(re.search(stopped, stderr)[1].replace(",", ""))
    assert steps > 10        # the calls into plan_trip, shortest and neighbours before the hang
    assert "case 'town' of 'plan_trip' could not run" not in stderr
    assert re.search(r"case 'town' of 'RoadMap' stopped at the build's time limit \(2 s: 4 × the page's 0\.5 s\) "
                     r"after [\d,]{4,} steps", stderr)


@contextlib.contextmanager
def watching(lessons: Path, out: Path):
    """`build.py serve --watch` on `lessons` into `out`; yields (port, the process). Stopped after."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen([sys.executable, "build.py", "serve", "--watch", "--port", str(port), "--out", str(out),
                                "--lessons", str(lessons)], cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=10)


def fetched(url: str, process: subprocess.Popen, what: str, seconds: float = 120) -> str:
    """The body at `url` once the server answers it; fails with `what` if it never does."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return urllib.request.urlopen(url, timeout=2).read().decode()
        except OSError:
            assert time.monotonic() < deadline and process.poll() is None, what
            time.sleep(0.2)


def test_serve_watch_rebuilds_when_a_lesson_file_changes(authoring, tmp_path):
    lessons, _, _ = authoring
    with watching(lessons, tmp_path / "site") as (port, process):
        page = f"http://127.0.0.1:{port}/s08/index.html"
        before = fetched(page, process, "serve did not start")
        # A gzipped asset revalidates with a 304 and no body (the worker asks for modules the page has).
        asset = f"http://127.0.0.1:{port}/assets/js/replay.js"
        first = urllib.request.urlopen(urllib.request.Request(asset, headers={"Accept-Encoding": "gzip"}), timeout=5)
        assert first.headers["Content-Encoding"] == "gzip" and first.headers["Last-Modified"]
        again = urllib.request.Request(asset, headers={"Accept-Encoding": "gzip",
                                                       "If-Modified-Since": first.headers["Last-Modified"]})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(again, timeout=5)
        assert answer.value.code == 304 and answer.value.read() == b""
        prose = lessons / "s08" / "lesson.zh.md"
        prose.write_text(prose.read_text(encoding="utf-8") + "\n新加的一段：WATCHED\n", encoding="utf-8")
        deadline = time.monotonic() + 60
        while "WATCHED" not in urllib.request.urlopen(page, timeout=2).read().decode():
            assert time.monotonic() < deadline, "the page was not rebuilt"
            time.sleep(0.3)
        assert "WATCHED" not in before


def test_serve_watch_survives_a_failed_first_build(authoring, tmp_path):
    """An author starts `serve --watch` on a broken scenario file: the server stays up, its index page says
    what failed, and saving the fix brings the lesson (issue 32)."""
    lessons, toml, _ = authoring
    edit(toml, "[limits]", "[limit]")
    out = tmp_path / "site"
    with watching(lessons, out) as (port, process):
        index = fetched(f"http://127.0.0.1:{port}/", process, "serve did not start")
        assert "The build failed" in index and "unknown top-level key &#x27;limit&#x27;" in index
        edit(toml, "[limit]", "[limits]")
        fetched(f"http://127.0.0.1:{port}/s08/index.html", process, "the fixed lesson was not built")
        # A reader who leaves mid-download (a reload): no traceback in the author's log.
        wasm = next(out.glob("pyodide/*/pyodide.asm.wasm")).relative_to(out).as_posix()
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port)) as client:
                client.sendall(f"GET /{wasm} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                client.recv(1024)
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        time.sleep(1)
        process.terminate()
        output = process.communicate(timeout=10)[0]
    assert "s08.toml" in output and "watching: fix the file above and save" in output
    assert "Traceback" not in output, output


def test_if_modified_since_is_read_as_gmt_whatever_the_server_zone(monkeypatch):
    """A date sent without a zone is GMT (as http.server reads it), not the server's local time."""
    import time
    monkeypatch.setenv("TZ", "Asia/Shanghai")   # UTC+8: a local-time reading would be 8 hours off
    time.tzset()
    try:
        noon = 1796040000                           # Mon, 30 Nov 2026 12:00:00 GMT
        assert not_modified("Mon, 30 Nov 2026 12:00:00 GMT", noon)
        assert not_modified("Mon, 30 Nov 2026 12:00:00", noon)
        assert not not_modified("Mon, 30 Nov 2026 12:00:00", noon + 1)
        assert not not_modified("Mon, 30 Nov 2026 11:00:00 GMT", noon)
        assert not not_modified("not a date", noon)
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_every_reason_a_run_stops_for_has_page_text_in_both_languages(tmp_path, monkeypatch):
    """The page says "stopped after N steps: <reason>" from `reason_<end.reason>` (debugger.js): every
    reason a run ends with is one of STOP_REASONS (four runs stopped four ways), and each has its words."""
    from steptrace.limits import STOP_REASONS
    from steptrace.runner import run_case
    (tmp_path / "stopping.py").write_text("import sys\n\ndef spin():\n    while True:\n        pass\n\n"
                                          "def audit():\n    sys.addaudithook(print)\n\n"
                                          "def interrupt():\n    raise KeyboardInterrupt\n\n"
                                          "def leave():\n    import os\n    os._exit(0)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    ends = [json.loads(run_case("stopping.py", "stopping", "from stopping import *\n", f"{entry}()\n",
                                time_limit=0.2))["end"] for entry in ("spin", "audit", "interrupt", "leave")]
    assert [(end["status"], end["reason"]) for end in ends] == [
        ("stopped", "time_limit"), ("stopped", "audit_hook"), ("stopped", "interrupted"), ("stopped", "process")]
    assert {end["reason"] for end in ends} <= set(STOP_REASONS)
    strings = json.loads((REPO / "site" / "i18n.json").read_text(encoding="utf-8"))
    for language in ("zh", "en"):
        assert {f"reason_{reason}" for reason in STOP_REASONS} <= set(strings[language]), language


def test_stepwise_new_writes_the_guides_example_and_it_builds(tmp_path):
    """`stepwise new tally` in a folder of its own writes docs/authoring.md's complete small lesson, block for
    block (each block's first line names its file), and `stepwise build` of that folder builds it at once,
    with its cases proved: a course anywhere on disk, not inside this repository."""
    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    shown = {path: body for _, path, body in
             re.findall(r"^(`{3,4})[a-z]+\n# file: (\S+)\n(.*?)^\1$", guide, re.S | re.M)}
    course = tmp_path / "my course"
    stepwise = [sys.executable, "-m", "stepwise"]
    written = subprocess.run([*stepwise, "new", "tally", "--root", str(course)], capture_output=True, text=True,
                             timeout=60)
    assert written.returncode == 0, written.stderr
    for path, body in shown.items():
        assert (course / path).read_text(encoding="utf-8") == body, f"the guide's {path} is not what `new` writes"
    again = subprocess.run([*stepwise, "new", "tally", "--root", str(course)], capture_output=True, text=True,
                           timeout=60)
    assert again.returncode == 2 and "already exists" in again.stderr
    result = subprocess.run([*stepwise, "build", "."], cwd=course, capture_output=True, text=True, timeout=600)
    assert len(shown) == 6
    assert result.returncode == 0, result.stderr
    out = course / "dist"
    assert (out / "tally" / "index.html").is_file()
    assert (out / "tally" / "traces" / "tally.empty.json").is_file()
    assert (out / "tally" / "embed" / "tally.html").is_file()
    assert (out / "py" / "tally" / "core" / "tally.py").read_bytes() == (course / "py/tally/core/tally.py").read_bytes()


def test_two_builds_with_fresh_proofs_are_byte_identical(authoring, tmp_path):
    """Reproducible builds (issue 32): the lesson's cases proved twice from scratch (a run draws uuid4
    receipts, temp dir names and the run's timings) give byte-identical sites; the build says which cases
    draw randomness, and no compressed copy carries a timestamp."""
    import uuid as uuid_module
    lessons, _, setup = authoring
    setup.write_text(setup.read_text(encoding="utf-8") + f"# {uuid_module.uuid4().hex}: a proof of its own\n",
                     encoding="utf-8")
    cache = toolchain.find().cache
    sites, notes = [], []
    for n in range(2):
        before = set(cache.glob("proof-*.json"))
        out = tmp_path / f"out{n}"
        result = subprocess.run([sys.executable, "build.py", "--out", str(out), "--lessons", str(lessons)],
                                cwd=REPO, capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, result.stderr
        made = set(cache.glob("proof-*.json")) - before
        assert len(made) == 1, "the case proofs were not recorded afresh"
        made.pop().unlink()
        sites.append(out)
        notes.append(result.stdout)
    first = {p.relative_to(sites[0]): p.read_bytes() for p in sites[0].rglob("*") if p.is_file()}
    second = {p.relative_to(sites[1]): p.read_bytes() for p in sites[1].rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [path for path in first if first[path] != second[path]] == []
    trace = json.loads(first[Path("s08/traces/prepare_context.summary.json")])
    assert trace["end"]["ms"] == 0 and trace["stats"]["elapsed_ms"] == 0
    assert all(first[path][4:8] == b"\0\0\0\0" for path in first if path.suffix == ".gz")   # gzip MTIME
    assert re.search(r"note: .*s08\.toml: \d+ case\(s\) draw randomness \(os\.urandom\): .*prepare_context/summary",
                     notes[0])


@pytest.mark.parametrize("slug, said", [("class", "keyword"), ("json", "hide that module"), ("Week3", "lower_snake"),
                                        ("steptrace", "hide that module")])
def test_stepwise_new_refuses_a_slug_that_could_not_build(tmp_path, capsys, slug, said):
    from stepwise import cli
    assert cli.main(["new", slug, "--root", str(tmp_path)]) == 2
    assert said in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_two_files_in_one_lesson_need_different_function_names(tmp_path):
    """A lesson may show several files (lesson.toml's `scenarios` a list), but a function name is a page's id
    (its debugger's anchor, `f=` in a link, its traces' file names): two files that both offer `tally` are
    refused, with the file that has it first."""
    stepwise = [sys.executable, "-m", "stepwise"]
    for slug in ("week1", "week2"):
        assert subprocess.run([*stepwise, "new", slug, "--root", str(tmp_path)], capture_output=True).returncode == 0
    shutil.rmtree(tmp_path / "lessons" / "week2")
    edit(tmp_path / "lessons" / "week1" / "lesson.toml", 'scenarios = "scenarios/week1.toml"',
         'scenarios = ["scenarios/week1.toml", "scenarios/week2.toml"]')
    result = subprocess.run([*stepwise, "build", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 1
    assert re.search(r"week2\.toml: 'tally' is also in scenarios/week1\.toml; the debuggers of one lesson need "
                     r"different function names", result.stderr), result.stderr
