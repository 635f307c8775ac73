"""Where did this come from (issue 34 item 1), on the s08 lesson: a variable, an item of a list, an object of
the memory picture and a parameter each go to the step that wrote them, the status says where, asking again
goes to the write before, and Back (↩, Alt+←) retraces the jumps. The routes lesson's part (an object changed
through an alias in a callee, a parameter passed by the caller's line) is in test_lessons.py."""
from __future__ import annotations

import re
from pathlib import Path

from pages import Widget
from playwright.sync_api import expect

RUNTIME = (Path(__file__).resolve().parents[2] / "py" / "s08" / "core" / "runtime.py").read_text(encoding="utf-8")


def line_of(text: str) -> int:
    hits = [n for n, line in enumerate(RUNTIME.splitlines(), 1) if line.strip().startswith(text)]
    assert len(hits) == 1, (text, hits)
    return hits[0]


def where_from(scope, what: str):
    return scope.get_by_role("button", name=f"{what} 从哪来：到写入它的那一步", exact=True)


def landed(widget: Widget, line: int) -> None:
    """Paused on `line` by a where-from jump (the status then says where the value came from)."""
    expect(widget.status).to_have_text(re.compile(rf"^已暂停 第{line}行 · 来源："), timeout=30_000)
    expect(widget.current_lines).to_have_attribute("data-line", str(line))


def step_of(widget: Widget) -> int:
    return int(re.search(r"第 ([\d,]+) /", widget.root.locator(".step-count").inner_text()).group(1).replace(",", ""))


def test_a_variable_an_item_and_a_parameter(lesson):
    widget = Widget(lesson.page, "split_history")
    cut = line_of("cut = ")
    widget.pause_at("normal", cut)
    at_cut = step_of(widget)
    # groups is bound once, at `groups = []`: the appends change its list, not the name.
    where_from(widget.variables, "groups").click()
    made = line_of("groups = []")
    landed(widget, made)
    expect(widget.status).to_have_text(re.compile(rf"^已暂停 第{made}行 · 来源：groups 在第{made}行被赋值（第\d+步）$"))
    # The ⤺ that was clicked is drawn again: focus stays in the widget, so its keys go on working.
    lesson.page.keyboard.press("F10")
    landed_next = widget.root.locator(".dbg-code .line[aria-current=step]")
    expect(landed_next).not_to_have_attribute("data-line", str(made))
    back = widget.root.get_by_role("button", name=f"↩ 回到第{at_cut}步")
    back.click()
    widget.expect_paused(cut)
    expect(back).to_be_hidden()
    # An item: groups[1] was put there by the loop's second append.
    groups = widget.variables.locator('details[data-path="split_history:groups"]')
    if groups.get_attribute("open") is None:   # the page is shared: an earlier test may have opened it
        groups.locator("summary").first.click()
    where_from(widget.variables, "groups[1]").click()
    append = line_of("groups.append(")
    landed(widget, append)
    expect(widget.status).to_contain_text(f"来源：groups[1] 在第{append}行被赋值")
    expect(widget.variables).to_contain_text(re.compile(r"index\s*3\b"))   # the second pass
    # The jump shows the line about to write: groups[1] is not there yet. index was set by the loop's line;
    # asked again, the write before: the loop's first pass.
    loop = line_of("for index in range(1, len(messages), 2):")
    where_from(widget.variables, "index").click()
    landed(widget, loop)
    expect(widget.status).to_contain_text(f"来源：index 在第{loop}行被赋值")
    expect(widget.variables).to_contain_text(re.compile(r"index\s*1\b"))
    second = step_of(widget)
    where_from(widget.variables, "index").click()
    landed(widget, loop)
    assert step_of(widget) < second
    expect(widget.variables.get_by_text("index", exact=True)).to_have_count(0)   # before its first pass
    # The parameter came from the case's entry (the shown function is called there).
    where_from(widget.variables, "messages").click()
    expect(widget.status).to_contain_text("来源：messages 由本例的入口代码传入（第1步）")
    # Back retraces the jumps, last first, from the keyboard too.
    widget.root.focus()
    lesson.page.keyboard.press("Alt+ArrowLeft")
    landed_plain = widget.root.locator(".dbg-code .line[aria-current=step]")
    expect(landed_plain).to_have_attribute("data-line", str(loop))
    for _ in range(3):
        lesson.page.keyboard.press("Alt+ArrowLeft")
    widget.expect_paused(cut)
    assert step_of(widget) == at_cut
    expect(widget.root.locator("button.jump-back")).to_be_hidden()


def test_an_object_of_the_memory_picture(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.pause_at("normal", line_of("cut = "))
    memory = widget.root.locator(".memory-body")
    link = memory.get_by_role("link", name=re.compile(r"^groups → list #\d+$"))
    name = link.get_attribute("aria-label").split(" → ")[1]
    where_from(memory, name).click()
    append = line_of("groups.append(")
    landed(widget, append)
    expect(widget.status).to_contain_text(f"来源：{name} 在第{append}行被修改")
    # Again: the append before; then where it was made.
    where_from(memory, name).click()
    landed(widget, append)
    expect(widget.variables).to_contain_text(re.compile(r"index\s*1\b"))
    where_from(memory, name).click()
    made = line_of("groups = []")
    landed(widget, made)
    expect(widget.status).to_contain_text(f"来源：{name} 在第{made}行创建或第一次出现")
    # An item of a box: groups[1] was put there by the second append.
    widget.pause_at("normal", line_of("cut = "))
    where_from(memory, f"{name}[1]").click()
    landed(widget, append)
    expect(widget.status).to_contain_text(f"来源：{name}[1] 在第{append}行被赋值")
    expect(widget.variables).to_contain_text(re.compile(r"index\s*3\b"))
    # Alt+W on a focused box asks the same.
    widget.pause_at("normal", line_of("cut = "))
    box = memory.locator(f'.mem-object[data-id="{name.split("#")[1]}"]')
    box.focus()
    lesson.page.keyboard.press("Alt+w")
    landed(widget, append)
