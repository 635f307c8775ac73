"""Failure drills through the real page and the real worker: each ends in a clear state within its
bound, the page stays responsive, and the next run works.

The bounds here are liveness bounds (generous, so a busy CI machine does not flake); the real
latencies are measured by `make bench` (docs/performance.md).
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

from lesson_harness import run_plain
from pages import ZH, Widget
from playwright.sync_api import expect

from stepwise import scenario

SCENARIOS = scenario.load(Path(__file__).resolve().parents[2] / "scenarios" / "s08.toml")
ERROR = ZH["error"]
LIVENESS_S = 6.0


def replace_code(page, function: str, setup: str, entry: str) -> None:
    """Make a debugger run other setup/entry code (as an author's mistake or a hostile input would)."""
    page.evaluate("""([name, setup, entry]) => {
        const d = stepwise.debuggers.get(name);
        d.original ??= d.code.bind(d);
        d.code = () => [setup, entry];
        d.setCase(d.fn.cases[1].id);
    }""", [function, setup, entry])


def restore_code(page, function: str) -> None:
    page.evaluate("""name => {
        const d = stepwise.debuggers.get(name);
        if (d.original) d.code = d.original;
        d.setCase(d.fn.cases[0].id);
    }""", function)


def expect_next_run_works(page, function: str = "split_history") -> None:
    restore_code(page, function)
    widget = Widget(page, function)
    widget.press("run")
    widget.expect_finished()
    setup, entry = SCENARIOS.code(function, SCENARIOS.cases_for(function)[0])
    expect(widget.stdout).to_have_text(run_plain(setup, entry)["stdout"].rstrip("\n"))


def run_until_error(page, function: str, bound_s: float) -> tuple[float, str]:
    widget = Widget(page, function)
    started = time.monotonic()
    widget.press("run")
    expect(widget.status).to_have_text(ERROR, timeout=int(bound_s * 1000) + 5_000)
    elapsed = time.monotonic() - started
    assert elapsed <= bound_s, f"took {elapsed:.2f} s to reach a clear state (bound {bound_s} s)"
    return elapsed, widget.error_message.inner_text()


# ---------------------------------------------------------------- runaway code

def test_runaway_loop_is_interrupted_when_isolated(open_page):
    page = open_page().page
    assert page.evaluate("() => crossOriginIsolated")
    replace_code(page, "split_history", "while True:\n    pass\n", "pass\n")
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "运行超过" in message and "超过时间上限" in message    # past its limit: stopped as the time limit
    assert page.evaluate("() => stepwise.worker.python")  # same worker, interrupted in place
    expect_next_run_works(page)


def test_a_programs_own_sigint_handler_does_not_outlive_its_run(open_page):
    """A run that installs its own SIGINT handler (the page's Stop is SIGINT in Pyodide): the next run's
    runaway is still interrupted in place, by the time limit, in the same worker."""
    page = open_page().page
    replace_code(page, "split_history", "import signal\nsignal.signal(signal.SIGINT, lambda *_: None)\n", "pass\n")
    widget = Widget(page, "split_history")
    widget.press("run")
    widget.expect_finished()
    page.evaluate("() => { window.__worker = stepwise.worker.worker; }")
    replace_code(page, "split_history", "while True:\n    pass\n", "pass\n")
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "超过时间上限" in message
    assert page.evaluate("() => stepwise.worker.worker === window.__worker")   # interrupted, not rebooted
    expect_next_run_works(page)


def test_an_interrupt_the_program_catches_is_sent_again(open_page):
    """The program catches the first stop (`except BaseException`) and loops on (a finalizer that swallows
    it does the same): the page sees in shared memory that Python took the interrupt but the code did not stop,
    and interrupts again, in place, instead of rebooting the worker."""
    page = open_page().page
    setup = "try:\n    while True:\n        pass\nexcept BaseException:\n    pass\nwhile True:\n    pass\n"
    replace_code(page, "split_history", setup, "pass\n")
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "运行超过" in message and "超过时间上限" in message, message
    assert page.evaluate("() => stepwise.worker.python")
    expect_next_run_works(page)


# Drive the worker directly: run split_history's case (or other setup code), wait in the page's own task
# until the worker says, in shared memory, that the code has ended, then stop — before the page could
# read the worker's "phase" message (what a busy page thread or a deadline firing late amounts to).
STOP_AFTER_THE_CODE_ENDED = """async ([setup, kinds]) => {
    const d = stepwise.debuggers.get("split_history");
    const [caseSetup, entry] = d.code();
    const worker = stepwise.worker;
    await worker.boot();
    const { result } = worker.run({ source: d.lesson.source, module: d.lesson.module, setup: setup ?? caseSetup,
                                    entry, function: d.name, case: d.caseId, limits: d.fn.limits });
    while (!worker.pending) await new Promise((resolve) => setTimeout(resolve, 0));
    const shared = new Uint8Array(worker.interrupt);
    if (setup) { await new Promise((resolve) => setTimeout(resolve, 300)); worker.stop(kinds[0]); }
    const started = performance.now();
    while (!Atomics.load(shared, 1)) {   // busy: the page reads no message meanwhile
        const waited = performance.now() - started;
        if (waited > 20_000) return `the code never ended (interrupt byte: ${Atomics.load(shared, 0)})`;
        // An interrupt the worker dropped is sent again by the page's timers: let them run.
        if (waited > 3_000) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const kind of kinds.slice(setup ? 1 : 0)) worker.stop(kind);
    const answer = await result;
    return { type: answer.type, stopKind: answer.stopKind ?? null, restarted: !worker.python };
}"""


def test_a_stop_after_the_code_ended_keeps_the_trace(open_page):
    page = open_page().page
    for _ in range(5):   # the race is won or lost in the worker's first steps of writing: try it a few times
        answer = page.evaluate(STOP_AFTER_THE_CODE_ENDED, [None, ["stopped"]])
        assert answer == {"type": "trace", "stopKind": None, "restarted": False}, answer


def test_a_second_stop_keeps_the_first_ones_kind_and_the_trace(open_page):
    """The reader's Stop, then the deadline before the page saw the code end: one interrupt, the
    reader's reason, and the trace written since."""
    page = open_page().page
    answer = page.evaluate(STOP_AFTER_THE_CODE_ENDED, ["while True:\n    pass\n", ["stopped", "runaway"]])
    assert answer == {"type": "trace", "stopKind": "stopped", "restarted": False}, answer


def test_a_stop_before_the_code_starts_ends_the_run_with_its_trace(open_page):
    """Stop as soon as the run is sent: the worker takes the interrupt only once the run's isolation
    is set up (a KeyboardInterrupt there would tear it), so the run ends stopped, with its (empty)
    trace, in the same worker; and the next run is unaffected."""
    page = open_page().page
    answer = page.evaluate("""async () => {
        const d = stepwise.debuggers.get("split_history");
        const [setup, entry] = d.code();
        const worker = stepwise.worker;
        await worker.boot();
        const { result } = worker.run({ source: d.lesson.source, module: d.lesson.module, setup, entry,
                                        function: d.name, case: d.caseId, limits: d.fn.limits });
        while (!worker.pending) await new Promise((resolve) => setTimeout(resolve, 0));
        worker.stop("stopped");
        const answer = await result;
        return { type: answer.type, stopKind: answer.stopKind ?? null, restarted: !worker.python };
    }""")
    assert answer == {"type": "trace", "stopKind": "stopped", "restarted": False}, answer
    expect_next_run_works(page)


def test_a_busy_page_still_sends_a_dropped_interrupt_again(open_page):
    """The page's thread is busy for a second right after Stop, so it looks at the shared buffer only
    then: an interrupt the program caught is sent again, not taken for a hang (no reboot)."""
    page = open_page().page
    setup = "try:\n    while True:\n        pass\nexcept BaseException:\n    pass\nwhile True:\n    pass\n"
    answer = page.evaluate("""async (setup) => {
        const d = stepwise.debuggers.get("split_history");
        const worker = stepwise.worker;
        await worker.boot();
        const { result } = worker.run({ source: d.lesson.source, module: d.lesson.module, setup,
                                        entry: "pass\\n", function: d.name, case: d.caseId, limits: d.fn.limits });
        while (!worker.pending) await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => setTimeout(resolve, 300));
        worker.stop("stopped");
        const until = performance.now() + 1_000;
        while (performance.now() < until) { /* a long task on the page */ }
        const answer = await result;
        return { type: answer.type, stopKind: answer.stopKind ?? null, restarted: !worker.python };
    }""", setup)
    assert answer == {"type": "trace", "stopKind": "stopped", "restarted": False}, answer


def test_a_run_stuck_in_c_keeps_its_trace_up_to_its_limit(open_page):
    """The shown code runs to its end, then the entry loops inside one call into C, where no interrupt
    reaches it: the worker is terminated, fresh ones run the case again to where the first one was
    (py/steptrace/worker_watch.py), and the reader gets that trace: every step the shown code took, the
    output printed before, and an end that says the time limit."""
    page = open_page().page
    setup, entry = SCENARIOS.code("split_history", SCENARIOS.cases_for("split_history")[0])
    widget = Widget(page, "split_history")
    stats = "() => stepwise.debuggers.get('split_history').trace.stats"
    replace_code(page, "split_history", setup, 'print("before")\n' + entry)
    widget.press("run")
    widget.expect_finished()
    steps = page.evaluate(stats)["events"]
    stops = page.evaluate("() => stepwise.debuggers.get('split_history').replay.totalStops")
    replace_code(page, "split_history", setup, 'print("before")\n' + entry + "sum(range(10 ** 15))\n")
    started = time.monotonic()
    widget.press("run")
    expect(widget.error_message).to_contain_text(f"已在 {stops:,} 步后停止（记录了 {steps:,} 个事件）：超过时间上限",
                                                 timeout=20_000)
    assert time.monotonic() - started < 15
    assert "运行超过" in widget.error_message.inner_text()
    assert widget.stdout.inner_text().startswith("before")
    expect_next_run_works(page)


def test_a_run_that_swallows_every_stop_keeps_its_trace(open_page):
    """The shown code runs in a loop that catches every stop: the page's interrupts are swallowed, the
    worker is terminated, and a fresh one runs the case to where the first was stopped."""
    page = open_page().page
    setup, entry = SCENARIOS.code("split_history", SCENARIOS.cases_for("split_history")[0])
    looped = "while True:\n    try:\n" + "".join(f"        {line}\n" for line in entry.splitlines() if line.strip())
    replace_code(page, "split_history", setup, looped + "    except BaseException:\n        pass\n")
    widget = Widget(page, "split_history")
    widget.press("run")
    expect(widget.error_message).to_contain_text("个事件）：超过时间上限", timeout=20_000)
    assert "运行超过" in widget.error_message.inner_text()
    expect_next_run_works(page)


def test_runaway_loop_reboots_the_worker_without_isolation(open_page, plain_server):
    page = open_page(origin=plain_server).page
    assert not page.evaluate("() => crossOriginIsolated")
    replace_code(page, "split_history", "while True:\n    pass\n", "pass\n")
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "运行超过" in message
    expect_next_run_works(page)


def test_stop_button_stops_a_runaway(open_page):
    page = open_page().page
    replace_code(page, "split_history", "while True:\n    pass\n", "pass\n")
    page.evaluate("() => { stepwise.worker.deadlineMs = 60_000; }")  # only the reader's Stop may end it
    widget = Widget(page, "split_history")
    widget.press("run")
    expect(widget.status).to_have_text("运行中")
    started = time.monotonic()
    widget.press("stop")
    expect(widget.status).to_have_text(ERROR, timeout=5_000)
    assert time.monotonic() - started < LIVENESS_S
    assert "已按要求停止" in widget.error_message.inner_text()
    expect_next_run_works(page)


def test_a_run_past_its_capacity_says_which_events_were_left_out_and_keeps_its_end(open_page):
    """More events than the function's capacity: the middle is dropped, and the page says which events
    (numbered as the run's) at the end, where the last call's output and return are still shown."""
    page = open_page().page
    setup, entry = SCENARIOS.code("split_history", SCENARIOS.cases_for("split_history")[0])
    page.evaluate("() => { const d = stepwise.debuggers.get('split_history');"
                  " d.fn.limits = {...d.fn.limits, maxEvents: 1000}; }")
    looped = "for round in range(40):\n" + "".join(f"    {line}\n" for line in entry.splitlines() if line.strip())
    replace_code(page, "split_history", setup, looped + "print('last round', round)\n")
    widget = Widget(page, "split_history")
    widget.press("run")
    widget.expect_finished()
    stats = page.evaluate("() => { const t = stepwise.debuggers.get('split_history').trace; return [t.stats, t.gap]; }")
    events, gap = stats[0]["events"], stats[1]
    assert gap and gap["dropped"] > 0
    expect(widget.error_message).to_contain_text(
        f"本次运行共 {events:,} 个事件，其中第 {gap['after'] + 1:,}–{gap['after'] + gap['dropped']:,} 个")
    expect(widget.stdout).to_contain_text("last round 39")


# ---------------------------------------------------------------- errors that end a run

RECURSIVE_SUMMARY = """
def summarize(prefix):
    # A summary model that compacts again: unbounded recursion through the shown file.
    return prepare_context(messages, question, state, archive, summarize, budget=1600)
"""


def test_unbounded_recursion_through_the_shown_file(open_page):
    page = open_page().page
    setup, entry = SCENARIOS.code("prepare_context", "summary")
    limit = '"max_summaries": 0 if scenario == "exhausted" else 2'
    assert limit in setup
    setup = setup.replace(limit, '"max_summaries": 10**9') + RECURSIVE_SUMMARY
    replace_code(page, "prepare_context", setup, entry)
    _, message = run_until_error(page, "prepare_context", bound_s=LIVENESS_S)
    # Each level archives and trims, so the recorder's time limit or the page's deadline may come first.
    assert any(word in message for word in ("RecursionError", "超过时间上限", "运行超过")), message
    expect_next_run_works(page, "prepare_context")


def test_unbounded_recursion_outside_the_shown_file(open_page):
    page = open_page().page
    replace_code(page, "split_history", "def dive(n):\n    return dive(n + 1)\n", "dive(0)\n")
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "RecursionError" in message
    assert "准备代码第2行" in message   # named as the setup's line, not a line of the shown file
    expect_next_run_works(page)


def test_memory_error(open_page):
    page = open_page().page
    replace_code(page, "split_history", "from s08.core.runtime import split_history\n",
                 "hoard = bytearray(2**31 - 1)\n")  # 2 GiB: more than a wasm32 heap can give
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "MemoryError" in message
    expect_next_run_works(page)


def test_a_worker_that_dies_is_replaced(open_page):
    page = open_page().page
    page.evaluate("() => stepwise.worker.worker.terminate()")  # kill it from outside, as a crash would
    replace_code(page, "split_history", "pass\n", "pass\n")   # a live run (recorded cases need no worker)
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "重新启动" in message
    expect_next_run_works(page)


def test_a_fatal_interpreter_error_reboots_the_worker(open_page):
    """Freeing a 20,000-deep nested list overflows the JS stack in Pyodide itself (untraced too):
    the interpreter is dead after it. The page says so, boots a new one, and the next run works."""
    watched = open_page()
    page = watched.page
    replace_code(page, "split_history", "deep = []\nfor _ in range(20_000):\n    deep = [deep]\n",
                 "deep = None\n")
    before = len(watched.errors)
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "重新启动" in message
    # Pyodide reports its own fatal error on the console: expected here, and nothing else.
    reported = watched.errors[before:]
    assert reported and all(line.startswith(("console.error", "worker console.error")) for line in reported)
    assert any("Maximum call stack size exceeded" in line or "fatal" in line for line in reported), reported
    del watched.errors[before:]
    expect_next_run_works(page)


def test_a_recorder_that_cannot_start_says_so_and_the_runtime_is_replaced(open_page):
    """Setup takes every sys.monitoring tool id: the recorder cannot start. The page says so and boots
    a new interpreter, where the next run works."""
    page = open_page().page
    take_all = "import sys\nfor tool in range(6):\n    sys.monitoring.use_tool_id(tool, 'x')\n"
    replace_code(page, "split_history", take_all, "pass\n")
    _, message = run_until_error(page, "split_history", bound_s=LIVENESS_S)
    assert "RecorderError" in message and "记录器无法启动" in message
    expect_next_run_works(page)


def test_a_runaway_setup_is_stopped_by_the_page(open_page):
    """Setup code is not traced, so in Pyodide only the page's deadline can stop it."""
    page = open_page().page
    replace_code(page, "split_history", "n = 0\nwhile True:\n    try:\n        n += 1\n"
                 "    except BaseException:\n        pass\n", "pass\n")
    run_until_error(page, "split_history", bound_s=LIVENESS_S)
    expect_next_run_works(page)


# ---------------------------------------------------------------- hostile values

HOSTILE_SETUP = """
from s08.core.runtime import prepare_context, archive_writer


class Loud:
    def __repr__(self):
        raise RuntimeError("repr exploded")

    def __call__(self, messages):
        raise OSError("no archive here")


messages = [{"role": "user", "content": "<script>window.__xss = 1</script>" + "y" * 600}]
huge = "<img src=x onerror=window.__xss=2>" + "x" * (10 * 1024 * 1024)
loop = []
loop.append(loop)
state = {"archives": loop, "summaries": 0, "max_summaries": 1}
archive = Loud()
"""
HOSTILE_ENTRY = """
try:
    prepare_context(messages, huge, state, archive, print, budget=400)
except (ValueError, OSError) as error:
    print(error)
"""


def test_hostile_values_render_bounded_and_inert(open_page):
    watched = open_page()
    page = watched.page
    replace_code(page, "prepare_context", HOSTILE_SETUP, HOSTILE_ENTRY)
    widget = Widget(page, "prepare_context")
    widget.press("debug")
    expect(widget.status).to_have_text(re.compile("已暂停"), timeout=20_000)
    for details in widget.variables.locator("details").all():
        details.evaluate("d => d.open = true")
    text = widget.variables.inner_text()
    assert "<img src=x onerror=window.__xss=2>" in text and "<script>window.__xss = 1</script>" in text
    assert "10,485,794" in text  # the full length is said; the value itself is cut
    assert len(text) < 20_000
    assert "<Loud object>" in text and "repr exploded" not in text  # shown from its type: its repr never runs
    assert widget.root.locator(".vars-body img, .vars-body script").count() == 0
    assert page.evaluate("() => window.__xss") is None
    widget.press("continue")
    widget.expect_finished()
    expect(widget.stdout).to_have_text("no archive here")


# ---------------------------------------------------------------- races

def test_rapid_switching_and_double_clicks_never_show_a_stale_trace(open_page):
    page = open_page().page
    widget = Widget(page, "prepare_context")
    widget.button("run").dblclick()
    widget.expect_finished()
    for case in ("summary", "trim", "bad_summary", "fit"):  # each run is superseded by the next switch
        widget.picker.select_option(case)
        widget.press("run")
    widget.picker.select_option("exhausted")
    widget.press("run")
    widget.expect_finished()
    setup, entry = SCENARIOS.code("prepare_context", "exhausted")
    expect(widget.stdout).to_have_text(run_plain(setup, entry)["stdout"].rstrip("\n"))
    expect(widget.picker).to_have_value("exhausted")
    # Switch away while a run is on its way: the answer must not land on the new case.
    widget.picker.select_option("summary")
    widget.press("run")
    widget.picker.select_option("fit")
    page.wait_for_timeout(300)
    expect(widget.status).to_have_text(ZH["not_run"])
    assert widget.root.locator(".vars-body").inner_text() == ""


# ---------------------------------------------------------------- offline

def test_csp_forbids_other_origins(open_page, server):
    watched = open_page()
    page = watched.page
    response = page.request.get(f"{server}/s08/index.html")
    assert "connect-src 'self'" in response.headers["content-security-policy"]
    outcome = page.evaluate("""() => fetch('http://127.0.0.2:9/probe').then(() => 'sent', e => 'blocked')""")
    assert outcome == "blocked"
    assert not [u for u in watched.requests if u.startswith("http://127.0.0.2")], "the CSP stops it before it leaves"
    watched.errors.clear()  # the CSP violation report in the console is the expected outcome here


def test_every_file_comes_from_the_site(open_page, server):
    watched = open_page()
    Widget(watched.page, "trim_results").press("run")
    Widget(watched.page, "trim_results").expect_finished()
    assert any(re.search(r"/pyodide/pyodide-[^/]+/pyodide.asm.wasm$", u) for u in watched.requests)
    assert all(u.startswith(server + "/") or u.startswith("data:") for u in watched.requests), json.dumps(
        [u for u in watched.requests if not u.startswith(server)])
