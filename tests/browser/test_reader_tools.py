"""What a reader of VS Code's debugger reaches for (issue 31): steps that never look stuck, breakpoints
switched off and log points, run to here, the whole file, watches and values over the code."""
from __future__ import annotations

import re
from urllib.parse import parse_qs

from pages import LONG, Widget, shared_link
from playwright.sync_api import expect


def _has_class(name: str) -> re.Pattern:
    return re.compile(rf"(^|\s){name}(\s|$)")


def _watch_box(widget: Widget):
    return widget.root.get_by_role("textbox", name="添加监视表达式", exact=True)


def _watch_values(widget: Widget) -> dict[str, str]:
    return widget.root.evaluate("""root => Object.fromEntries([...root.querySelectorAll('.watch-list li')]
        .map(li => [li.querySelector('.watch-expr').textContent, li.querySelector('.watch-value').textContent]))""")


def test_a_comprehension_line_is_one_step_and_one_hit(lesson):
    """checked_exchange's line 23 is a list comprehension (inlined by Python 3.14: the line goes round
    once per item); line 21's any(...) runs a generator expression on its own line."""
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.root.get_by_role("checkbox", name="整个文件").check()
    widget.bp(23).click()
    widget.press("debug")
    expect(widget.status).to_have_text("已暂停 第23行", timeout=LONG)
    widget.press("continue")   # the second exchange's check: once per call, not once per item
    expect(widget.status).to_have_text("已暂停 第23行")
    expect(widget.root.locator(".step-count")).not_to_have_text("")
    widget.press("continue")
    widget.expect_finished()
    # Step over a comprehension line: the next line, not the same one again.
    widget.bp(23).click()
    widget.bp(21).click()
    widget.press("debug")
    expect(widget.status).to_have_text("已暂停 第21行", timeout=LONG)
    widget.press("over")
    expect(widget.status).to_have_text("已暂停 第23行")
    widget.press("over")
    expect(widget.status).to_have_text("已暂停 第24行")
    widget.press("back")
    expect(widget.status).to_have_text("已暂停 第23行")   # where the line was arrived at
    widget.root.get_by_role("checkbox", name="整个文件").uncheck()


def test_a_step_says_it_calls_the_setups_helpers(lesson):
    """prepare_context's summarize, and archive in archive_error, come from the case's setup, which is
    not recorded: the step on the line that calls one says so (issue 31, item 4). The shown file's own
    archive (the other cases) is stepped into as before."""
    widget = Widget(lesson.page, "prepare_context")
    widget.pause_at("summary", 93)   # the shown file's archive_writer closure: recorded, so nothing said
    for case, line, helper in (("archive_error", 93, "archive"), ("summary", 107, "summarize")):
        widget.reset(case)
        widget.bp(line).click()
        widget.press("debug")
        expect(widget.status).to_have_text(f"已暂停 第{line}行 · 本行调用场景准备的 {helper}（不逐行记录）",
                                           timeout=LONG)
    widget.press("over")
    expect(widget.status).not_to_have_text(re.compile("场景准备"))
    widget.press("back")
    expect(widget.status).to_have_text("已暂停 第107行 · 本行调用场景准备的 summarize（不逐行记录）")


def test_a_closures_cells_are_listed_apart(lesson):
    """archive_writer's save reads `directory` from its closure: Variables lists it under Closure, after
    the locals, as VS Code's Closure scope (issue 31)."""
    widget = Widget(lesson.page, "prepare_context")
    widget.pause_at("summary", 93)
    widget.press("into")
    expect(widget.status).to_have_text(re.compile(r"^已暂停 第7[45]行"))
    widget.press("over")
    closure = widget.variables.get_by_role("term").filter(has_text="directory")
    expect(closure).to_have_count(1)
    scope = widget.variables.locator("dl[aria-label='闭包（外层函数的变量）']")
    expect(scope.locator("dt")).to_have_text(["directory"])
    expect(widget.variables.get_by_role("heading", name="闭包（外层函数的变量）")).to_be_visible()
    expect(widget.variables.locator("dl.vars:not(.closure) dt").first).to_have_text("messages")
    widget.press("out")
    expect(widget.variables.get_by_role("heading", name="闭包（外层函数的变量）")).to_have_count(0)


def test_a_return_step_says_so(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.pause_at("normal", 49)
    widget.press("over")   # the same line again, now returning
    expect(widget.status).to_have_text("已暂停 第49行 · split_history 即将返回")
    # A frame an exception leaves is not said to return: checked_exchange raises at line 32 (mismatch).
    widget.reset("mismatch")
    whole = widget.root.get_by_role("checkbox", name="整个文件")
    whole.check()
    widget.bp(32).click()
    widget.press("debug")
    expect(widget.status).to_have_text("已暂停 第32行", timeout=LONG)
    widget.press("over")
    widget.press("over")
    expect(widget.status).to_have_text("已暂停 第32行 · checked_exchange 因异常退出")
    expect(widget.status).not_to_contain_text("即将返回")
    whole.uncheck()


def test_a_switched_off_breakpoint_is_kept_and_skipped(lesson, open_page):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    widget.bp(48).click()
    switch = widget.root.get_by_role("checkbox", name="启用断点 split_history · 第46行")
    expect(switch).to_be_checked()
    switch.uncheck()
    expect(widget.bp(46)).to_have_attribute("aria-pressed", "true")   # still there, switched off
    expect(widget.root.locator('.line[data-line="46"]')).to_have_class(_has_class("bp-off"))
    widget.press("debug")
    widget.expect_paused(48)
    link = shared_link(lesson.page).removeprefix("#")
    assert parse_qs(link)["off"] == ["46"]
    restored = Widget(open_page(link).page, "split_history")
    restored.expect_paused(48)
    expect(restored.root.get_by_role("checkbox", name="启用断点 split_history · 第46行")).not_to_be_checked()
    switch.check()
    widget.press("debug")
    widget.expect_paused(46)


def test_a_log_point_writes_to_output_and_never_pauses(lesson, open_page):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    log = widget.root.get_by_role("textbox", name="第46行的日志消息（有则不暂停，写入输出）")
    log.fill("index={index} groups={len(groups)} first={messages[index]['role']}")
    log.press("Enter")
    expect(log).to_be_focused()   # the list is redrawn; the box the reader typed in keeps the focus
    expect(widget.root.locator('.line[data-line="46"]')).to_have_class(_has_class("bp-log"))
    widget.press("debug")   # no breakpoint pauses: the first line, as with none
    widget.expect_paused(37)
    expect(widget.stdout.locator(".log-line")).to_have_count(0)
    widget.press("continue")
    widget.expect_finished()
    lines = widget.stdout.locator(".log-line")
    expect(lines).to_have_text(["第46行 ▸ index=1 groups=0 first=assistant",
                                "第46行 ▸ index=3 groups=1 first=assistant"])
    # Paused, Output holds the log as far as the step: one line at the first pass's line 47.
    widget.bp(47).click()
    widget.press("debug")
    widget.expect_paused(47)
    expect(lines).to_have_count(1)
    link = shared_link(lesson.page).removeprefix("#")
    assert parse_qs(link)["log"] == ["46:index={index} groups={len(groups)} first={messages[index]['role']}"]


def test_run_to_here_by_ctrl_click_and_ctrl_f10(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(47).click(modifiers=["Control"])   # before a run: Debug to the line
    widget.expect_paused(47)
    assert widget.pressed_breakpoints() == []      # it set no breakpoint
    widget.bp(48).focus()
    lesson.page.keyboard.press("Control+F10")
    widget.expect_paused(48)
    widget.bp(47).click(modifiers=["Control"])     # never reached again: the run ends
    widget.expect_finished()


def test_the_whole_file_has_a_button_on_every_line_before_a_run(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    expect(widget.bp(14)).to_be_hidden()
    whole = widget.root.get_by_role("checkbox", name="整个文件")
    whole.check()
    expect(widget.bp(14)).to_be_visible()
    widget.bp(14).click()
    widget.press("debug")
    widget.expect_paused_in_helper(14, "checked_exchange")
    expect(widget.root.locator(".bp-list")).to_contain_text("checked_exchange · 第14行")
    whole.uncheck()


def test_watches_follow_the_step_and_the_link(lesson, open_page):
    widget = Widget(lesson.page, "split_history")
    widget.pause_at("normal", 48)
    box = _watch_box(widget)
    for source in ("len(groups)", "[m['role'] for m in messages][:3]", "groups[0][0]['role'].upper()",
                   "max(len(g) for g in groups) if groups else 0", "nothing_here",
                   "[messages[2]['content'][0]['content']]", "deepcopy"):
        box.fill(source)
        box.press("Enter")
    values = _watch_values(widget)
    assert values["len(groups)"] == "2", values
    assert values["groups[0][0]['role'].upper()"] == "ASSISTANT", values   # a text, drawn quoted (q)
    expect(widget.root.locator(".watch-list li").nth(2).locator(".watch-value q")).to_have_text("ASSISTANT")
    assert values["max(len(g) for g in groups) if groups else 0"] == "2", values
    # Not a local: a module global is not in the trace, so the page cannot tell (never a made-up NameError).
    assert values["nothing_here"].startswith("cannot tell: 'nothing_here' is not a local here"), values
    assert values["deepcopy"].startswith("cannot tell: 'deepcopy' is not a local here"), values
    # A text the trace cut shows as cut inside what a watch builds: its head, then an ellipsis.
    assert values["[messages[2]['content'][0]['content']]"].endswith("…]"), values
    assert values["[m['role'] for m in messages][:3]"].startswith("list[3]"), values
    widget.press("back")   # the loop's last look at line 45
    widget.press("back")   # line 47 of the second pass, before its append: one group so far
    widget.expect_paused(47)
    expect(widget.root.locator(".watch-list li").first.locator(".watch-value")).to_have_text("1")
    link = shared_link(lesson.page).removeprefix("#")
    assert parse_qs(link)["watch"][0] == "len(groups)"
    restored = Widget(open_page(link).page, "split_history")
    expect(restored.root.locator(".watch-list li")).to_have_count(7, timeout=LONG)
    expect(restored.root.locator(".watch-list li").first.locator(".watch-value")).to_have_text("1")
    widget.root.get_by_role("button", name="移除监视 nothing_here").click()
    expect(widget.root.locator(".watch-list li")).to_have_count(6)


def test_a_name_in_the_code_shows_its_value_on_hover_and_focus(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.pause_at("normal", 48)
    tip = widget.root.get_by_role("tooltip")
    box = widget.root.locator('.dbg-code .line[data-line="48"] code').evaluate("""code => {
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent.indexOf('groups');
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at + 2); range.setEnd(node, at + 3);
          const r = range.getBoundingClientRect();
          return {x: r.left + r.width / 2, y: r.top + r.height / 2};
        }
        return null;
    }""")
    assert box, "line 48 shows `groups`"
    lesson.page.mouse.move(box["x"], box["y"])
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("groups = ")
    lesson.page.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    widget.bp(45).focus()   # `for index in range(1, len(messages), 2):` names index and messages
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("index = 3")
    expect(tip).to_contain_text("messages = ")


def test_the_page_says_the_limit_of_a_readers_run(lesson):
    """A reader's own run has the lesson's limits (s08: [limits] seconds = 0.7): the page says them before
    the run, not only once a run is stopped (issue 32)."""
    widget = Widget(lesson.page, "split_history")
    expect(widget.root.locator(".live-limit")).to_have_text(
        "每次运行最多 0.7 秒、1,000,000 步；超过就停下，已记录的步骤照常可看。")
