"""Predict, then reveal (issue 34 item 5) and step notes (item 6), on the s08 lesson: the question the
author put at split_history's cut, the note at prepare_context's commit point. The test-only routes lesson's
part is in test_lessons.py."""
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


def value_of(widget: Widget, name: str):
    """The value Variables shows for `name` (its <dd>)."""
    term = widget.variables.locator("dt").filter(has_text=re.compile(rf"^{re.escape(name)}\b"))
    return term.locator("xpath=following-sibling::dd[1]")


def test_the_question_at_the_cut_hides_cut_until_guessed(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")   # two exchanges, keep_recent=1: the cut is 1
    toggle = widget.root.get_by_role("button", name="预测", exact=True)
    card = widget.root.get_by_role("group", name="预测", exact=True)
    cut = line_of("cut = ")
    toggle.click()
    try:
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(card).to_contain_text("预测模式")
        widget.press("debug")
        widget.expect_paused(line_of("if type(keep_recent) is not int"))
        widget.press("continue")   # predict mode's Continue stops where the author asks
        widget.expect_paused(cut)
        expect(card).to_contain_text(f"问题（第{cut}行）：切口 cut 会是多少？")
        expect(card).to_contain_text("　单步执行，看看答案。")
        widget.press("over")
        widget.expect_paused(cut + 1)
        guess = card.get_by_role("textbox", name="你猜 cut 的新值")
        expect(guess).to_be_visible()
        expect(value_of(widget, "cut")).to_have_class(re.compile(r"\bguess-hidden\b"))
        expect(value_of(widget, "cut").locator("> *").first).not_to_be_visible()
        expect(widget.root.locator(".memory-body")).not_to_be_visible()
        # A guess that is not Python is said, and nothing is scored.
        guess.fill("1 +")
        card.get_by_role("button", name="揭晓").click()
        expect(card).to_contain_text("读不懂对 cut 的猜测")
        expect(card).to_contain_text("得分：0 / 0 · 跳过 0")
        expect(guess).to_have_value("1 +")   # kept, and focused to fix
        expect(guess).to_be_focused()
        guess.fill("2")
        card.get_by_role("button", name="揭晓").click()
        expect(card.get_by_role("listitem")).to_have_text("✗ cut = 1，你猜的是 2")
        expect(card).to_contain_text("讲解：cut = 组数 − keep_recent")
        expect(card).to_contain_text("得分：0 / 1 · 跳过 0")
        expect(value_of(widget, "cut")).not_to_have_class(re.compile(r"\bguess-hidden\b"))
        expect(value_of(widget, "cut")).to_have_text("1")
        # A guess is read as before the step: `cut` itself is not the answer.
        widget.press("back")
        widget.press("over")
        card.get_by_role("textbox", name="你猜 cut 的新值").fill("cut")
        card.get_by_role("button", name="揭晓").click()
        expect(card).to_contain_text("读不懂对 cut 的猜测")
        # Back, and again: an expression over the step's values counts as a guess; the score goes on.
        widget.press("back")
        widget.expect_paused(cut)
        widget.press("over")
        card.get_by_role("textbox", name="你猜 cut 的新值").fill("len(groups) - keep_recent")
        card.get_by_role("textbox", name="你猜 cut 的新值").press("Enter")
        expect(card.get_by_role("listitem")).to_have_text("✓ cut = 1：猜对了")
        expect(card).to_contain_text("得分：1 / 2 · 跳过 1")   # the unreadable `cut` was left: skipped
        # Stepping on without guessing reveals the values and counts a skip.
        widget.press("over")   # the return line builds the result: nothing of split_history's changes
        widget.press("back")
        widget.press("back")
        widget.press("over")
        expect(card.get_by_role("textbox", name="你猜 cut 的新值")).to_be_visible()
        widget.press("over")
        expect(card).to_contain_text("跳过 2")
    finally:
        toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(card).to_be_hidden()
    widget.press("back")
    expect(widget.root.get_by_role("textbox", name="你猜 cut 的新值")).to_have_count(0)


def test_the_note_at_the_commit_point(lesson):
    widget = Widget(lesson.page, "prepare_context")
    check = line_of("if history_bytes(candidate) > budget or")
    note = widget.root.get_by_role("note", name="讲解")
    widget.pause_at("summary", check)
    expect(note).to_be_visible()
    expect(note).to_contain_text(f"📌 第{check}行")
    expect(note).to_contain_text("提交点前的最后一道检查")
    widget.press("over")
    widget.expect_paused(check + 2)   # it fits and is smaller: on to the return
    expect(note).to_be_hidden()
    widget.press("back")
    expect(note).to_be_visible()
    lesson.page.locator("#lang-switch").click()
    try:
        in_english = widget.root.get_by_role("note", name="Note")
        expect(in_english).to_contain_text("The last check before the commit point")
        expect(in_english).to_contain_text(f"📌 Line {check}")
    finally:
        lesson.page.locator("#lang-switch").click()
    expect(note).to_contain_text("提交点前的最后一道检查")
    widget.select("fit")   # a new case: no trace, no note
    expect(note).to_be_hidden()
