"""The page as it looks: English one switch away, a phone-width layout, dark mode, and screenshots
of each debugger paused mid-way, saved for a human to look at under test-artifacts/screenshots/
(not test-results/, which pytest-playwright empties at every session start).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pages import EN, LONG, ZH, Widget
from playwright.sync_api import expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

# (function, case, breakpoint line, continues after the first hit): an interesting moment of each.
MOMENTS = [
    ("split_history", "multi", 48, 0),       # after the loop: both groups copied, the cut next
    ("trim_results", "error", 61, 0),        # inside the loop: the old error result being replaced
    ("prepare_context", "summary", 105, 0),  # state['summaries'] += 1: trimming was not enough
]


FIRST_CASE = {"split_history": "normal", "trim_results": "old", "prepare_context": "fit"}


@pytest.fixture(scope="module", autouse=True)
def screenshot_dir():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def _pause(widget: Widget, case: str, line: int, extra: int = 0) -> None:
    widget.reset(case)
    widget.bp(line).click()
    widget.press("debug")
    widget.expect_paused(line)
    for _ in range(extra):
        widget.press("continue")
        widget.expect_paused(line)


def test_english_is_one_switch_away(lesson):
    page = lesson.page
    switch = page.locator("#lang-switch")
    expect(switch).to_have_text("English")
    for function in ("split_history", "trim_results", "prepare_context"):
        Widget(page, function).reset(FIRST_CASE[function])
    zh_title = page.title()
    switch.click()
    try:
        expect(switch).to_have_text("中文")
        assert page.evaluate("() => document.documentElement.lang") == "en"
        expect(page).to_have_title(re.compile(r"^[\x00-\x7f·]+$"))   # the English lesson title
        assert page.title() != zh_title
        for function in ("split_history", "trim_results", "prepare_context"):
            widget = Widget(page, function, EN)
            expect(widget.root).to_be_visible()
            for action in ("run", "debug", "continue", "over", "into", "out", "back", "rinto", "rcontinue", "stop"):
                expect(widget.button(action)).to_have_count(1)
            expect(widget.status).to_have_text("Not run")
            expect(widget.picker).to_have_count(1)
            expect(widget.root.get_by_role("slider", name="Timeline", exact=True)).to_have_count(1)
            first = int(widget.root.locator(".dbg-code > .code button.bp:visible").first.get_attribute("data-line"))
            expect(widget.bp(first)).to_have_count(1)
        # Case labels follow the language; a paused status reads in English too.
        widget = Widget(page, "split_history", EN)
        expect(widget.picker.locator("option[value=multi]")).to_have_text("Several calls in one group")
        widget.bp(48).click()
        expect(widget.bp(48)).to_have_attribute("aria-pressed", "true")
        widget.press("debug")
        widget.expect_paused(48)
    finally:
        if switch.text_content() == "中文":
            switch.click()
    # Switching back while paused relabels everything in place, the pause kept.
    expect(switch).to_have_text("English")
    zh = Widget(page, "split_history", ZH)
    expect(zh.status).to_have_text("已暂停 第48行")
    expect(zh.bp(48)).to_have_attribute("aria-pressed", "true")
    expect(zh.button("debug")).to_have_count(1)


def test_screenshots_of_each_debugger_paused(lesson, screenshot_dir):
    page = lesson.page
    for function, case, line, extra in MOMENTS:
        widget = Widget(page, function)
        _pause(widget, case, line, extra)
        widget.root.screenshot(path=screenshot_dir / f"{function}-{case}-line{line}.png", animations="disabled")


def test_dark_mode(lesson, screenshot_dir):
    page = lesson.page
    widget = Widget(page, "prepare_context")
    _pause(widget, "summary", 105)
    page.emulate_media(color_scheme="dark")
    try:
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        widget.root.screenshot(path=screenshot_dir / "dark-prepare_context-summary.png", animations="disabled")
        Widget(page, "trim_results").root.screenshot(path=screenshot_dir / "dark-trim_results.png",
                                                     animations="disabled")
    finally:
        page.emulate_media(color_scheme="light")
    channels = [int(c) for c in background[background.index("(") + 1:-1].split(",")[:3]]
    assert sum(channels) < 3 * 100, f"dark mode keeps a light background: {background}"


def test_phone_width_has_no_horizontal_scroll(lesson, screenshot_dir):
    page = lesson.page
    page.set_viewport_size({"width": 375, "height": 800})
    try:
        widget = Widget(page, "split_history")
        widget.reset("multi")
        widths = page.evaluate("() => [document.documentElement.scrollWidth, document.body.scrollWidth]")
        assert max(widths) <= 375 + 1, f"idle page is wider than 375 px: {widths}"
        widget.button("run").scroll_into_view_if_needed()
        expect(widget.button("run")).to_be_visible()
        expect(widget.button("run")).to_be_in_viewport()
        # Paused, with variables, stack and the history picture filled in: still no sideways scroll.
        _pause(widget, "multi", 48)
        widths = page.evaluate("() => [document.documentElement.scrollWidth, document.body.scrollWidth]")
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > 376 && getComputedStyle(e).position !== 'fixed'
                         && !e.closest('[style*=overflow], pre, .code, .vars-body, .history'))
            .slice(0, 5).map(e => e.tagName + '.' + e.className)""")
        widget.root.screenshot(path=screenshot_dir / "narrow-375-split_history-multi.png", animations="disabled")
        widget.button("debug").scroll_into_view_if_needed()
        page.screenshot(path=screenshot_dir / "narrow-375-viewport.png", animations="disabled")
        assert max(widths) <= 375 + 1, f"paused page is wider than 375 px: {widths}; wide elements: {wide}"
        # The paused line and what it changed are on screen together (the panels are far below).
        widget.press("over")
        current = widget.root.locator(".dbg-code .line[aria-current=step]")
        current.scroll_into_view_if_needed()
        strip = widget.root.locator(".line-values")
        expect(strip).to_be_visible()
        expect(strip).to_contain_text("这一步改变了")
        expect(current).to_be_in_viewport()
        expect(strip).to_be_in_viewport()
        # A where-from jump puts ↩ beside the timeline: it wraps rather than widen the page.
        widget.variables.get_by_role("button", name="groups 从哪来：到写入它的那一步", exact=True).click()
        expect(widget.root.locator("button.jump-back")).to_be_visible()
        widths = page.evaluate("() => [document.documentElement.scrollWidth, document.body.scrollWidth]")
        assert max(widths) <= 375 + 1, f"the page after a jump is wider than 375 px: {widths}"
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_a_phone_shows_one_panel_at_a_time(open_page, screenshot_dir):
    """At 375 x 812 the panels are tabs under the toolbar: one shown, each reachable in a tap, every
    tab a touch target; screenshots in both languages and both themes."""
    for lang, scheme in (("zh", "light"), ("en", "light"), ("zh", "dark"), ("en", "dark")):
        link = "f=split_history&case=normal&bp=48&step=1" + ("&lang=en" if lang == "en" else "")
        page = open_page(link, viewport={"width": 375, "height": 812}, color_scheme=scheme).page
        widget = Widget(page, "split_history", words=ZH if lang == "zh" else EN)
        expect(widget.status).not_to_have_text(widget.words["not_run"], timeout=LONG)
        tabs = widget.root.get_by_role("tab")
        expect(tabs).to_have_count(8)
        variables, watch = ("变量", "监视") if lang == "zh" else ("Variables", "Watch")
        expect(widget.root.get_by_role("tab", name=variables)).to_have_attribute("aria-selected", "true")
        expect(widget.variables).to_be_visible()
        expect(widget.stdout).to_be_hidden()
        for box in tabs.evaluate_all("tabs => tabs.map(t => t.getBoundingClientRect().height)"):
            assert box >= 24, f"a tab is {box} px tall (touch targets are 24 px at least)"
        widget.root.get_by_role("tab", name=watch).click()
        expect(widget.root.locator(".watch-add")).to_be_visible()
        expect(widget.variables).to_be_hidden()
        page.keyboard.press("ArrowLeft")   # WAI-ARIA tabs: arrows move along the row
        expect(widget.root.get_by_role("tab", name=variables)).to_be_focused()
        expect(widget.variables).to_be_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        page.screenshot(path=screenshot_dir / f"phone-375x812-{lang}-{scheme}.png", animations="disabled")


def test_history_picture_labels_follow_the_language(lesson):
    """The budget mark under the messages picture is read in the page's language (zh by default)."""
    page = lesson.page
    widget = Widget(page, "prepare_context")
    _pause(widget, "summary", 105)
    mark = widget.root.locator(".history .budget-mark").first
    expect(mark).to_be_attached()
    label = mark.evaluate("m => getComputedStyle(m, '::after').content + ' ' + m.textContent")
    assert "budget" not in label.lower(), (
        f"the zh page labels the budget mark in English: {label!r} "
        "(site/css/site.css .budget-mark::after { content: \"budget\" })")


def test_the_budget_line_is_drawn_only_where_the_budget_applies(lesson):
    """prepare_context's budget governs messages and candidate ([history] budgeted), not `prefix`."""
    widget = Widget(lesson.page, "prepare_context")
    _pause(widget, "summary", 108)   # after summary = summarize(deepcopy(prefix))
    pictures = widget.root.locator(".history figure.history-picture")
    prefix = pictures.filter(has=lesson.page.locator("figcaption", has_text="prefix:"))
    messages = pictures.filter(has=lesson.page.locator("figcaption", has_text="messages:"))
    expect(prefix).to_have_count(1)
    expect(messages).to_have_count(1)
    expect(prefix.locator(".budget-mark")).to_have_count(0)
    expect(prefix.locator(".budget-text")).to_have_count(0)
    expect(messages.locator(".budget-mark")).to_have_count(1)


def test_recorded_cases_show_without_python(chromium, server):
    """The author's cases come from traces recorded by the build: with Python unreachable, Run and
    Debug still show every move; only a live run would need the runtime."""
    from conftest import new_page
    def no_runtime(context):   # nothing of Pyodide can be fetched, by the page or its worker
        context.route("**/pyodide/**", lambda route: route.abort())

    watched = new_page(chromium, server, wait_boot=False, before_load=no_runtime)
    page = watched.page
    try:
        widget = Widget(page, "split_history")
        widget.reset("normal")
        widget.press("run")
        widget.expect_finished()
        expect(widget.stdout).to_have_text("已生成候选；原历史保持不变。")
        widget.bp(46).click()
        widget.press("debug")
        widget.expect_paused(46)
        widget.press("over")
        widget.expect_paused(47)
        page.wait_for_timeout(2500)   # past the idle boot, which cannot succeed here
        assert page.evaluate("() => stepwise.worker.python") is None
        expect(widget.status).to_have_text("已暂停 第47行")
        fetched = [url for url in watched.requests if "/traces/" in url]
        assert fetched and all("split_history.normal" in url for url in fetched)   # only the case shown
    finally:
        watched.context.close()


def test_an_import_before_the_rest_of_the_library_arrived_fetches_it_there_and_then(chromium, server):
    """The worker's background download of the rest of the standard library fails (here: aborted);
    a program importing from it still runs: py/lazy_stdlib.py fetches the archive synchronously."""
    from conftest import new_page
    requests = []

    def first_fails(context):
        def handle(route):
            requests.append(route.request.url)
            if len(requests) == 1:
                route.abort()
            else:
                route.continue_()
        context.route("**/python_stdlib_rest.zip", handle)

    watched = new_page(chromium, server, before_load=first_fails)
    page = watched.page
    try:
        page.wait_for_function("() => stepwise.worker.python")
        page.wait_for_timeout(300)                       # the background download has been refused
        assert len(requests) == 1
        widget = Widget(page, "split_history")
        widget.reset("normal")
        widget.root.get_by_role("button", name="修改输入", exact=True).click()
        widget.root.get_by_role("textbox", name="调用入口", exact=True).fill(
            "import statistics\nprint(statistics.median([5, 1, 3]))\n")
        widget.press("run")
        widget.expect_finished()
        expect(widget.stdout).to_have_text("3")
        assert len(requests) == 2                        # fetched once more, by the import
        watched.errors[:] = [e for e in watched.errors if "python_stdlib_rest.zip" not in e]
    finally:
        watched.context.close()
