"""axe-core (node_modules, pinned) over the lesson page as readers meet it: paused, finished, editing an
input, in both themes, both languages and at phone width. Every WCAG 2.2 A/AA rule and axe's best
practices must pass (contrast on the paused line, 24 px touch targets, landmarks named uniquely, …)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pages import EN, LONG, Widget
from playwright.sync_api import expect

AXE = (Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
RUN = """async (tags) => {
  const result = await axe.run(document, { resultTypes: ["violations"], runOnly: { type: "tag", values: tags } });
  return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help}; first at ${v.nodes[0].target.join(" ")}`
    + `: ${v.nodes[0].failureSummary.split("\\n").slice(1, 2).join("")}`);
}"""


def _violations(page) -> list[str]:
    page.evaluate(AXE)          # through the DevTools protocol: the page's CSP allows no injected script
    return page.evaluate(RUN, TAGS)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_paused_page_passes_axe(open_page, scheme):
    page = open_page("f=split_history&case=normal&bp=48&step=3", color_scheme=scheme).page
    expect(Widget(page, "split_history").status).to_have_text("已暂停 第40行", timeout=LONG)
    assert _violations(page) == []


def test_a_finished_english_page_with_an_open_editor_passes_axe(open_page):
    page = open_page("f=trim_results&case=old&step=end&lang=en", color_scheme="dark").page
    widget = Widget(page, "trim_results", words=EN)
    widget.expect_finished()
    widget.root.get_by_role("button", name="Edit input", exact=True).click()
    assert _violations(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_trace_questions_pass_axe(open_page, scheme):
    """Issue 34's parts on screen at once: a guess pending in Predict, a comparison, a where-from answer with
    its Back button, a step note, the line counts."""
    page = open_page("f=split_history&case=normal", color_scheme=scheme).page
    widget = Widget(page, "split_history")
    widget.root.get_by_role("button", name="预测", exact=True).click()
    widget.press("debug")
    widget.press("continue")
    widget.press("over")
    expect(widget.root.get_by_role("textbox", name="你猜 cut 的新值")).to_be_visible(timeout=LONG)
    widget.root.get_by_role("combobox", name="和哪个输入对比").select_option("mismatch")
    expect(widget.root.locator(".compare-parting")).to_be_attached(timeout=LONG)
    assert _violations(page) == []
    widget.root.get_by_role("button", name="揭晓").click()   # an empty guess: said
    widget.variables.get_by_role("button", name="groups 从哪来：到写入它的那一步", exact=True).click()
    expect(widget.root.locator("button.jump-back")).to_be_visible()
    other = Widget(page, "prepare_context")
    other.pause_at("summary", 115)
    expect(other.root.get_by_role("note", name="讲解")).to_be_visible()
    assert _violations(page) == []


def test_the_phone_layout_passes_axe(open_page):
    page = open_page("f=prepare_context&case=fit&step=2", viewport={"width": 375, "height": 812}).page
    expect(Widget(page, "prepare_context").status).to_have_text(re.compile("^已暂停"), timeout=LONG)
    assert _violations(page) == []


def test_the_first_tab_offers_a_skip_to_the_first_debugger(open_page):
    page = open_page().page
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="跳到第一个调试器", exact=True)
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("section.debugger").first).to_be_focused()
    page.locator("#lang-switch").click()
    expect(page.get_by_role("link", name="Skip to the first debugger", exact=True)).to_have_count(1)
