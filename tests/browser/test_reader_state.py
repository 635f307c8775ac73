"""What a reader set up stays as they left it (issue 31): containers opened in Variables stay open
across steps and in the link, and going back works after a run that raised."""
from __future__ import annotations

import re
from urllib.parse import parse_qs

from pages import EN, LONG, ZH, Widget, shared_link
from playwright.sync_api import expect

PAUSED = re.compile(r"^已暂停 第\d+行( · .+)?$")


def _summary(widget: Widget, path: str):
    """The summary of the container at `path` in Variables (values-view.js `Opened` paths)."""
    return widget.variables.locator(f'details[data-path="{path}"] > summary')


def _open_paths(widget: Widget) -> list[str]:
    return widget.variables.evaluate("body => [...body.querySelectorAll('details[open]')].map(d => d.dataset.path)")


def _visible_open(widget: Widget) -> list[str]:
    """Open containers the reader can see (not inside a closed one)."""
    return widget.variables.evaluate("""body => [...body.querySelectorAll('details[open]')]
        .filter(d => !d.parentElement.closest('details:not([open])')).map(d => d.dataset.path)""")


def test_opened_values_stay_open_across_steps_and_in_the_link(lesson, open_page):
    widget = Widget(lesson.page, "split_history")
    widget.pause_at("normal", 48)
    _summary(widget, "split_history:messages").click()
    _summary(widget, "split_history:messages/0").click()
    assert _open_paths(widget) == ["split_history:messages", "split_history:messages/0"]
    widget.press("over")
    expect(widget.status).not_to_have_text("已暂停 第48行")
    # A move paints Variables anew: what the reader opened is open again, its items shown.
    assert _open_paths(widget) == ["split_history:messages", "split_history:messages/0"]
    expect(widget.variables.locator('details[data-path="split_history:messages/0"] .v-key').first).to_be_visible()
    widget.press("back")
    assert _open_paths(widget) == ["split_history:messages", "split_history:messages/0"]
    link = shared_link(lesson.page).removeprefix("#")
    assert parse_qs(link)["open"] == ["split_history:messages", "split_history:messages/0"]

    restored = Widget(open_page(link).page, "split_history")
    restored.expect_paused(48)
    assert _open_paths(restored) == ["split_history:messages", "split_history:messages/0"]
    # Closed, a container stays closed at the next step; what was open inside it opens with it again
    # (as VS Code's Variables do).
    _summary(widget, "split_history:messages").click()
    widget.press("over")
    assert _visible_open(widget) == []
    _summary(widget, "split_history:messages").click()
    assert _visible_open(widget) == ["split_history:messages", "split_history:messages/0"]
    _summary(widget, "split_history:messages/0").click()
    _summary(widget, "split_history:messages").click()
    # (a details element tells of its toggle in a task of its own: the link follows it)
    lesson.page.wait_for_function(
        "async () => { await stepwise.linkSettled(); return !location.hash.includes('open='); }")


def test_going_back_works_after_a_run_that_raised(lesson):
    page = lesson.page
    widget = Widget(page, "split_history")
    widget.reset("normal")
    _edit_entry(widget, "parts = split_history(messages, keep_recent=1)\nraise ValueError('after the call')\n")
    try:
        widget.press("run")
        expect(widget.status).to_have_text(ZH["error"], timeout=LONG)
        for action in ("back", "rinto", "rcontinue"):
            expect(widget.button(action)).to_be_enabled()
        widget.press("back")      # the last step of the shown function
        expect(widget.status).to_have_text(PAUSED)
        widget.press("continue")  # on to the end again: the error is said once more
        expect(widget.status).to_have_text(ZH["error"])
        widget.button("back").focus()
        page.keyboard.press("Shift+F10")
        expect(widget.status).to_have_text(PAUSED)
    finally:
        _restore(widget)


def _edit_entry(widget: Widget, code: str) -> None:
    widget.root.get_by_role("button", name="修改输入", exact=True).click()
    widget.root.get_by_role("textbox", name="调用入口", exact=True).fill(code)


def _restore(widget: Widget) -> None:
    widget.root.get_by_role("button", name="恢复", exact=True).click()


def test_the_language_a_reader_switches_to_is_kept_in_the_link(open_page):
    page = open_page().page
    page.locator("#lang-switch").click()
    expect(page.locator("html")).to_have_attribute("data-lang", "en")
    assert parse_qs(shared_link(page).removeprefix("#")).get("lang") == ["en"]
    widget = Widget(page, "split_history", words=EN)
    widget.press("run")
    widget.expect_finished()
    page.wait_for_function("() => location.hash.includes('step=end')")
    assert parse_qs(shared_link(page).removeprefix("#"))["lang"] == ["en"]
    page.locator("#lang-switch").click()
    expect(page.locator("html")).to_have_attribute("data-lang", "zh")
    page.wait_for_function("() => !location.hash.includes('lang=')")


def test_an_edited_input_gets_no_author_words_and_is_told_what_was_cut(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.press("run")
    widget.expect_finished()
    expect(widget.error_message).to_contain_text("入口最后检查")      # the author's entry: their words
    _edit_entry(widget, "parts = split_history(messages, keep_recent=1)\nprint('y' * 1_500_000)\nprint('END')\n")
    try:
        widget.press("run")
        widget.expect_finished()
        expect(widget.error_message).not_to_contain_text("入口最后检查")
        expect(widget.error_message).to_contain_text("输出超过 1,000,000 个字符")
    finally:
        _restore(widget)


def test_a_stopped_run_counts_its_steps_as_the_timeline_does(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    _edit_entry(widget, "while True:\n    split_history(messages, keep_recent=1)\n")
    try:
        widget.press("run")
        expect(widget.error_message).to_contain_text("步后停止", timeout=LONG)
        said = re.search(r"已在 ([\d,]+) 步后停止", widget.error_message.text_content()).group(1)
        widget.press("back")
        expect(widget.status).to_have_text(PAUSED)
        total = re.search(r"/ ([\d,]+) 步", widget.root.locator(".step-count").text_content()).group(1)
        assert said == total
    finally:
        _restore(widget)


def test_the_boot_bar_covers_no_widget_a_link_lands_on(open_page):
    page = open_page("f=prepare_context&case=fit").page
    widget = Widget(page, "prepare_context")
    expect(widget.picker).to_have_value("fit")
    page.wait_for_function("() => window.scrollY > 0")     # the link scrolled its widget to the top
    # As while Python boots (here it may be ready already: a warm cache boots in under a second).
    page.evaluate("() => { document.querySelector('.boot').dataset.state = ''; }")
    bar = page.locator(".boot").bounding_box()
    for part in (widget.root.locator(".dbg-title"), widget.picker):
        box = part.bounding_box()     # (both relative to the viewport)
        apart = box["y"] >= bar["y"] + bar["height"] or box["y"] + box["height"] <= bar["y"]
        assert apart, f"the boot bar {bar} covers {box}"


def test_each_panel_is_a_landmark_named_for_its_widget(lesson):
    """Eight panels a widget, three widgets: each region's name begins with the panel's word and says whose."""
    page = lesson.page
    names = page.evaluate("""() => [...document.querySelectorAll('section.debugger section.panel')]
        .map(s => s.getAttribute('aria-labelledby').split(' ')
          .map(id => document.getElementById(id).textContent.trim()).join(' '))""")
    assert len(names) == len(set(names)) == 8 * 3, names
    for function in ("split_history", "trim_results", "prepare_context"):
        for word in ("断点", "图示", "变量", "内存", "调用栈", "输出", "文件"):
            expect(page.get_by_role("region", name=f"{word} · {function}", exact=True)).to_have_count(1)


def test_the_toolbar_is_one_tab_stop_walked_with_arrows(lesson):
    page = lesson.page
    widget = Widget(page, "split_history")
    widget.reset("normal")
    stops = "root => [...root.querySelectorAll('.toolbar button')].filter(b => !b.tabIndex).map(b => b.textContent)"
    assert widget.root.evaluate(stops) == ["运行"]
    widget.button("run").focus()
    page.keyboard.press("ArrowRight")
    expect(widget.button("debug")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")                 # wraps to the last enabled control: the keys help
    expect(widget.root.locator(".keys-toggle")).to_be_focused()
    page.keyboard.press("Home")
    expect(widget.button("run")).to_be_focused()
    widget.bp(48).click()
    widget.press("debug")
    widget.expect_paused(48)
    widget.button("over").focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")                 # disabled controls are passed over: Stop is enabled now
    expect(widget.button("stop")).to_be_focused()
    assert widget.root.evaluate(stops) == ["停止"]   # Tab comes back to where the reader was
    page.keyboard.press("Shift+Tab")
    expect(widget.button("stop")).not_to_be_focused()
    page.keyboard.press("Tab")
    expect(widget.button("stop")).to_be_focused()


def test_the_hit_count_box_shows_its_whole_placeholder(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    room = widget.hit_count(46).evaluate("""input => {
        const style = getComputedStyle(input);
        const probe = document.createElement("span");
        probe.style.font = style.font;
        probe.style.whiteSpace = "pre";
        probe.textContent = input.placeholder;
        document.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        const inside = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { text, inside, placeholder: input.placeholder };
    }""")
    assert room["placeholder"] == "第几次"
    assert room["text"] + 16 <= room["inside"], room       # 16 px: the number box's spin buttons
    widget.bp(46).click()


def test_a_screen_reader_hears_each_move_even_on_the_same_line(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.pause_at("normal", 48)
    announce = widget.root.locator(".announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    assert widget.status.get_attribute("aria-live") == "off"     # said once, by the announcer
    heard = [announce.text_content()]
    for _ in range(3):
        widget.press("into")
        heard.append(announce.text_content())
    assert all(text.startswith(("已暂停", "已完成")) and "步" in text for text in heard), heard
    assert len(set(heard)) == len(heard), heard     # no two moves read alike


def test_histories_drawn_together_share_one_scale(lesson):
    """trim_results' candidate, trimmed, is drawn narrower than the messages it came from, in proportion."""
    widget = Widget(lesson.page, "trim_results")
    widget.pause_at("old", 63)
    drawn = widget.root.evaluate("""root => [...root.querySelectorAll('.history-picture')].map(figure => ({
        caption: figure.querySelector('figcaption').textContent,
        width: [...figure.querySelectorAll('.history-bar .msg:not(.msg-free)')]
          .reduce((sum, block) => sum + block.getBoundingClientRect().width, 0) }))""")
    by_name = {d["caption"].split(":")[0]: d for d in drawn}
    assert {"messages", "candidate"} <= set(by_name), drawn
    size = {name: int(re.search(r"≈([\d,]+)", d["caption"]).group(1).replace(",", "")) for name, d in by_name.items()}
    assert size["candidate"] * 1.5 < size["messages"], size
    drawn_ratio = by_name["candidate"]["width"] / by_name["messages"]["width"]
    assert abs(drawn_ratio - size["candidate"] / size["messages"]) < 0.05, (drawn_ratio, size)


def test_the_breakpoints_list_says_whose_line(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    expect(widget.root.locator(".bp-list .bp-line")).to_have_text("split_history · 第46行")
    widget.bp(46).click()


def test_on_a_phone_the_toolbar_stays_in_reach_and_code_wraps(open_page):
    page = open_page("f=trim_results&case=old&bp=61&step=1", viewport={"width": 375, "height": 812}).page
    widget = Widget(page, "trim_results")
    expect(widget.status).to_have_text(PAUSED, timeout=LONG)
    code = widget.root.locator(".dbg-code > .code")
    sideways = code.evaluate("pane => pane.scrollWidth - pane.clientWidth")
    assert sideways <= 1, f"the code pane scrolls sideways by {sideways} px"
    # A wrapped line goes on under its own indentation, two characters further in (line 46 of
    # split_history-like code: `checked_exchange(...)` in a `for` in a function).
    starts = widget.root.locator('.dbg-code .line[data-line="61"] code').evaluate("""code => {
        const range = document.createRange();
        range.selectNodeContents(code);
        const boxes = [...range.getClientRects()];
        const ch = parseFloat(getComputedStyle(code).fontSize) * 0.6;
        return { lines: new Set(boxes.map(b => Math.round(b.top))).size,
                 first: code.textContent.search(/\\S/), left: code.getBoundingClientRect().left,
                 wrapped: Math.min(...boxes.filter(b => b.top > boxes[0].top + 2).map(b => b.left)), ch };
    }""")
    assert starts["lines"] > 1, starts
    # The continuation starts right of where the line's own text does (its indentation + 2 characters).
    assert starts["wrapped"] - starts["left"] > starts["first"] * starts["ch"] * 0.9, starts
    widget.root.locator(".vars-body").scroll_into_view_if_needed()     # down to Variables, far below the code
    expect(widget.button("over")).to_be_in_viewport()
    widget.press("over")
    expect(widget.status).to_have_text(PAUSED)
    expect(widget.root.locator(".vars-body")).to_be_in_viewport()      # stepping did not move the page back
