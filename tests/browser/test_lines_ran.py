"""Which lines ran (issue 34 item 3), on the s08 lesson: after a run each line that ran shows how many times,
a line that never ran is dimmed, and a line's count (or Alt+J on the line) walks through its runs and round
again. The test-only routes lesson's part is in test_lessons.py."""
from __future__ import annotations

import re

from pages import Widget
from playwright.sync_api import expect


def count_of(widget: Widget, line: int, runs: int):
    return widget.root.get_by_role("button", name=f"第{line}行运行了 {runs} 次：到它下一次运行", exact=True)


def test_counts_dim_and_walk_a_lines_runs(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")   # two exchanges: the loop's body (line 46) runs twice
    widget.press("run")
    widget.expect_finished()
    count = count_of(widget, 46, 2)
    expect(count).to_have_text("2")
    expect(count_of(widget, 48, 1)).to_have_text("1")
    never = widget.root.locator('.dbg-code .line[data-line="41"]')   # the first check's raise
    expect(never).to_have_class(re.compile(r"\bnot-run\b"))
    expect(never.get_by_role("button", name=re.compile("运行了"))).to_have_count(0)
    count.click()
    widget.expect_paused(46)
    expect(widget.variables).to_contain_text(re.compile(r"index( \(已变化\))?\s*1\b"))
    count.click()
    widget.expect_paused(46)
    expect(widget.variables).to_contain_text(re.compile(r"index( \(已变化\))?\s*3\b"))
    count.click()   # after its last run: its first again
    widget.expect_paused(46)
    expect(widget.variables).to_contain_text(re.compile(r"index( \(已变化\))?\s*1\b"))
    # From the keyboard: Alt+J on the focused line does what its count's click does.
    widget.bp(46).focus()
    lesson.page.keyboard.press("Alt+j")
    widget.expect_paused(46)
    expect(widget.variables).to_contain_text(re.compile(r"index( \(已变化\))?\s*3\b"))
    # Another case: the counts are its own.
    widget.reset("mismatch")
    widget.press("run")
    expect(widget.status).to_have_text(re.compile("^(已完成|出错)$"), timeout=60_000)
    runs = lesson.page.evaluate("() => stepwise.debuggers.get('split_history').replay.runsOf(46)")
    expect(count_of(widget, 46, runs)).to_have_text(str(runs))


def test_previous_and_next_change_of_a_variable(lesson):
    """Issue 34 item 2: a variable chosen in Variables, the cursor goes to the step at which it next changes
    and back to where it changed before, in either direction; past its last change it says so."""
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    widget.press("debug")
    widget.expect_paused(46)   # the loop's first pass: index is 1
    nav = widget.root.get_by_role("group", name="变量的变化")
    nav.get_by_role("combobox", name="看哪个变量的变化").select_option("index")
    widget.bp(46).click()   # off: the moves below are the change navigator's alone
    nav.get_by_role("button", name="下一次变化 ▶").click()
    widget.expect_paused(46)
    expect(widget.variables).to_contain_text(re.compile(r"index \(已变化\)\s*3\b"))
    nav.get_by_role("button", name="◀ 上一次变化").click()
    widget.expect_paused(46)
    expect(widget.variables).to_contain_text(re.compile(r"index \(已变化\)\s*1\b"))
    nav.get_by_role("button", name="◀ 上一次变化").click()   # no earlier value: said, and no move
    expect(widget.root.locator(".error-message")).to_have_text("index 在这一步之前没有变化过。")
    widget.expect_paused(46)
    nav.get_by_role("button", name="下一次变化 ▶").click()
    nav.get_by_role("button", name="下一次变化 ▶").click()   # after its last change: said
    expect(widget.root.locator(".error-message")).to_have_text("index 在这一步之后不再变化。")
