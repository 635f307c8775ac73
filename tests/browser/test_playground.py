"""The playground (play/index.html): a reader's own program typed into the editor and stepped with the
whole debugger, input() fed from the input box, a syntax error said at its line before anything runs,
the examples menu, and a shared link that brings all of it back."""
from __future__ import annotations

import re
import subprocess
import sys
from urllib.parse import parse_qs

import pytest
from conftest import new_page
from pages import Widget, shared_link
from playwright.sync_api import expect

PROGRAM = """\
def double(items):
    out = []
    for item in items:
        out.append(item * 2)
    return out

numbers = [1, 2, 3]
same = numbers
print(double(same), numbers is same)
"""


@pytest.fixture
def play(chromium, server):
    watched = new_page(chromium, server, lesson="play")
    yield watched
    problems = watched.problems()
    watched.context.close()
    assert not problems, "\n".join(problems)


def widget_of(page) -> Widget:
    return Widget(page, "main", path="main.py")


def type_program(page, text: str) -> None:
    """Replace the editor's text as a reader pasting it would: select all, then insert the text as it is."""
    editor = page.get_by_role("textbox", name="Python 代码编辑器")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def test_a_typed_program_runs_breaks_and_steps_with_the_whole_debugger(play):
    page = play.page
    type_program(page, PROGRAM)
    widget = widget_of(page)
    expect(widget.bp(9)).to_be_visible()   # the debugger's code pane follows the editor
    widget.bp(4).click()
    widget.press("debug")
    widget.expect_paused_in_helper(4, "double")
    expect(widget.variables).to_contain_text(re.compile(r"item( \(已变化\))?\s*1"))
    widget.press("continue")
    widget.expect_paused_in_helper(4, "double")
    widget.bp(4).click()   # off: Continue runs to the end
    widget.press("continue")
    widget.expect_finished()
    expect(widget.stdout).to_have_text("[2, 4, 6] True")
    # The memory picture draws the module's two names on one list (no __name__ or __builtins__ in it).
    memory = widget.root.get_by_role("region", name=re.compile("^内存 · "))
    numbers = memory.get_by_role("link", name=re.compile(r"^numbers → list #\d+$")).get_attribute("aria-label")
    expect(memory.get_by_role("link", name=f"same → {numbers.split(' → ')[1]}", exact=True)).to_have_count(1)
    expect(widget.variables).not_to_contain_text("__builtins__")
    # One program, one case: nothing to compare with; Predict works here as on a lesson page.
    expect(widget.root.get_by_role("combobox", name="和哪个输入对比")).to_be_hidden()
    expect(widget.root.get_by_role("button", name="预测", exact=True)).to_be_enabled()


def test_input_lines_feed_input_and_one_too_few_is_said(play):
    page = play.page
    page.get_by_role("link", name="input()：读几个数求和").click()
    widget = widget_of(page)
    stdin = page.get_by_role("textbox", name="输入（每行一次 input()）")
    expect(stdin).to_have_value("3\n4\n5\n6\n")
    assert widget.pressed_breakpoints() == [4]
    widget.press("run")
    widget.expect_finished()
    text = "\n".join(["from pathlib import Path", "exec(Path('main.py').read_text())"])
    expected = subprocess.run([sys.executable, "-c", text], input="3\n4\n5\n6\n", capture_output=True, text=True,
                              cwd=_example_folder(), check=True).stdout
    expect(widget.stdout).to_have_text(expected.rstrip("\n"))
    stdin.fill("2\n4\n")
    widget.press("run")
    # Left where input() found no line (an uncaught exception pauses at its raise), and said so.
    expect(widget.status).to_have_text("已暂停 第4行 · 异常抛出", timeout=60_000)
    expect(page.get_by_role("alert")).to_have_text(re.compile("input\\(\\) 要的行比输入框里的多"))


def _example_folder():
    """A folder holding the input example as main.py (CPython's untraced output is the oracle)."""
    import tempfile
    from pathlib import Path
    folder = Path(tempfile.mkdtemp())
    source = Path(__file__).resolve().parents[2] / "site" / "play" / "examples" / "input_sum.py"
    (folder / "main.py").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def test_a_syntax_error_is_marked_at_its_line_and_nothing_runs(play):
    page = play.page
    type_program(page, "print('before')\nif True\nprint('never')\n")
    widget = widget_of(page)
    widget.press("run")
    expect(page.get_by_role("alert")).to_have_text(re.compile(r"^第 2 行有语法错误：.+（程序没有运行）$"))
    expect(widget.stdout).not_to_contain_text("before")
    # Fixed, the program runs and the mark goes.
    type_program(page, "print('before')\nif True:\n    print('now')\n")
    expect(page.get_by_role("alert")).to_be_hidden()
    widget.press("run")
    widget.expect_finished()
    expect(widget.stdout).to_have_text("before\nnow")


def test_every_example_opens_with_its_breakpoints_and_runs(play):
    page = play.page
    links = page.get_by_role("navigation", name="示例").get_by_role("link")
    expect(links).to_have_count(12)
    widget = widget_of(page)
    for n in range(links.count()):
        links.nth(n).click()
        params = parse_qs(links.nth(n).get_attribute("href").removeprefix("#"))
        expect(widget.root.locator(".bp[aria-pressed=true]")).to_have_count(len(params["bp"]))
        widget.press("run")
        widget.expect_finished()


def test_a_shared_link_brings_back_program_breakpoints_input_and_step(play, chromium, server):
    page = play.page
    type_program(page, "name = input('Name? ')\ngreeting = 'Hello, ' + name\nprint(greeting)\n")
    page.get_by_role("textbox", name="输入（每行一次 input()）").fill("Ada\n")
    widget = widget_of(page)
    widget.bp(3).click()
    widget.press("debug")
    widget.expect_paused(3)
    link = shared_link(page).removeprefix("#")
    assert {"code", "stdin", "bp", "step"} <= set(parse_qs(link)), link
    again = new_page(chromium, server, link, lesson="play")
    try:
        restored = widget_of(again.page)
        expect(restored.status).to_have_text(widget.status.inner_text(), timeout=60_000)
        assert restored.pressed_breakpoints() == [3]
        expect(restored.variables).to_contain_text("Hello, Ada")
        expect(again.page.get_by_role("textbox", name="输入（每行一次 input()）")).to_have_value("Ada\n")
        assert again.problems() == []
    finally:
        again.context.close()


def test_a_standard_module_imports_and_a_package_says_why_not(play):
    page = play.page
    widget = widget_of(page)
    type_program(page, "import statistics\nprint(statistics.mean([1, 2, 3, 4]))\n")
    widget.press("run")
    widget.expect_finished()
    expect(widget.stdout).to_have_text("2.5")
    type_program(page, "import numpy\n")
    widget.press("run")
    expect(widget.status).to_have_text("已暂停 第1行 · 异常抛出", timeout=60_000)
    expect(page.get_by_role("alert")).to_have_text(re.compile("No module named 'numpy'：练习场只有 Python 标准库"))


def test_the_embed_code_frames_the_program_in_its_state(play, chromium):
    """"Copy embed code" gives an iframe of play/embed/main.html with the program, input and breakpoints in
    its link; that page (no examples menu) opens with all of them, and runs."""
    from html import unescape
    page = play.page
    type_program(page, "word = input()\nprint(word.upper())\n")
    page.get_by_role("textbox", name="输入（每行一次 input()）").fill("shout\n")
    widget = widget_of(page)
    widget.bp(2).click()
    widget.root.get_by_role("button", name="嵌入代码", exact=True).click()
    snippet = widget.root.get_by_role("textbox", name="嵌入代码（iframe）").input_value()
    src = unescape(re.search(r'<iframe src="([^"]+)"', snippet).group(1))
    assert "/play/embed/main.html#" in src and "code=" in src and "stdin=" in src, src
    context = chromium.new_context()
    try:
        embedded = context.new_page()
        embedded.goto(src)
        embedded.wait_for_function("() => globalThis.stepwise?.worker?.python", timeout=120_000)
        expect(embedded.get_by_role("navigation", name="示例")).to_be_hidden()
        framed_widget = widget_of(embedded)
        assert framed_widget.pressed_breakpoints() == [2]
        framed_widget.press("run")
        framed_widget.expect_finished()
        expect(framed_widget.stdout).to_have_text("SHOUT")
    finally:
        context.close()


def test_a_named_call_runs_after_the_module_and_travels_in_the_link(play):
    page = play.page
    type_program(page, "def main():\n    greeting = 'hi'\n    print(greeting)\n\nprint('loaded')\n")
    call = page.get_by_role("textbox", name="然后调用（可不填）")
    call.fill("main()")
    call.press("Enter")
    widget = widget_of(page)
    widget.bp(3).click()
    widget.press("debug")
    widget.expect_paused_in_helper(3, "main")
    expect(widget.variables).to_contain_text("greeting")
    widget.press("continue")
    widget.expect_finished()
    expect(widget.stdout).to_have_text("loaded\nhi")
    assert parse_qs(shared_link(page).removeprefix("#"))["call"] == ["main()"]


def test_an_uncaught_exception_leaves_the_reader_where_it_was_raised_with_its_traceback(play):
    page = play.page
    type_program(page, "def find(d, k):\n    return d[k]\n\nprices = {'tea': 3}\nprint(find(prices, 'tea'))\n"
                       "print(find(prices, 'cake'))\n")
    widget = widget_of(page)
    widget.press("run")
    expect(widget.status).to_have_text("已暂停 第2行 · 异常抛出", timeout=60_000)
    expect(widget.root.locator(".code-caption")).to_contain_text("find")
    expect(widget.stdout).to_have_text("3")
    expect(page.get_by_role("alert")).to_have_text(
        'Traceback (most recent call last):\n  File "main.py", line 6, in <module>\n'
        '  File "main.py", line 2, in find\nKeyError: \'cake\'')
    widget.press("back")   # the replay goes on from there, both ways
    expect(widget.status).to_have_text(re.compile(r"^已暂停 第\d+行"))


def test_a_runaway_stops_at_the_readers_limit_and_keeps_its_steps(play):
    page = play.page
    type_program(page, "n = 0\nwhile True:\n    n += 1\n")
    limit = page.get_by_role("spinbutton", name="时间上限（秒）")
    limit.fill("0.5")
    limit.press("Enter")
    widget = widget_of(page)
    widget.press("run")
    expect(widget.status).not_to_have_text(re.compile("运行中|未运行"), timeout=60_000)
    # Stopped by the reader's 0.5 s, not the default 2.5 s.
    end = page.evaluate("() => stepwise.debuggers.get('main').trace.end")
    assert (end["status"], end["reason"]) == ("stopped", "time_limit") and end["ms"] < 1500, end
    steps = page.evaluate("() => stepwise.debuggers.get('main').replay?.totalStops ?? 0")
    assert steps > 100, steps
    assert parse_qs(shared_link(page).removeprefix("#"))["seconds"] == ["0.5"]
    widget.press("back")   # the partial trace is stepped like any other
    expect(widget.status).to_have_text(re.compile(r"^已暂停 第[23]行"))
