"""The s08 lesson page in a real browser: every case's run, breakpoints, stepping, the picker, keys,
values shown as text, and the output. One booted page serves the whole module (`lesson`); each
test resets the widget it uses, and fails if the page logged an error or reached another origin.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from lesson_harness import run_plain
from pages import EN, LONG, ZH, Widget, differences, shared_link
from playwright.sync_api import expect

from stepwise import scenario

REPO = Path(__file__).resolve().parents[2]

SCENARIOS = scenario.load(REPO / "scenarios" / "s08.toml")
CASES = [(name, case) for name, fn in SCENARIOS.functions.items() for case in fn.cases]


@pytest.fixture(scope="module")
def cpython():
    """Each case's untraced CPython outcome (the reference the page must agree with)."""
    return {(name, case): run_plain(*SCENARIOS.code(name, case)) for name, case in CASES}


def test_the_page_shows_every_function_and_case(lesson):
    page = lesson.page
    for name, fn in SCENARIOS.functions.items():
        widget = Widget(page, name)
        expect(widget.root).to_be_visible()
        values = widget.picker.locator("option").evaluate_all("options => options.map(o => o.value)")
        assert values == list(fn.cases)
        expect(widget.status).to_have_text(ZH["not_run"])
        for action in ("run", "debug"):
            expect(widget.button(action)).to_be_enabled()
        for action in ("continue", "over", "into", "out", "back", "stop"):
            expect(widget.button(action)).to_be_disabled()


@pytest.mark.parametrize(("function", "case"), CASES, ids=[f"{f}-{c}" for f, c in CASES])
def test_run_matches_cpython(lesson, cpython, function, case):
    """Run shows the end of the case: the status and the stdout the same case prints in CPython."""
    expected = cpython[(function, case)]
    widget = Widget(lesson.page, function)
    widget.reset(case)
    widget.press("run")
    if "setup_error" in expected:
        expect(widget.status).to_have_text(ZH["error"], timeout=LONG)
        return
    widget.expect_finished()
    assert widget.stdout.text_content() == expected["stdout"]
    expect(widget.current_lines).to_have_count(0)
    # The files the run left in its temp dir (archive snapshots): as many as CPython's run left.
    expect(widget.root.locator(".files-body details.file")).to_have_count(len(expected["files"]))
    # "Setup and call" shows exactly the code that ran (the same text stepwise.scenario builds).
    setup, entry = SCENARIOS.code(function, case)
    assert widget.root.locator(".setup-code").text_content() == setup
    assert widget.root.locator(".entry-code").text_content() == entry
    # A function that raised (the entry caught and printed it) names the exception in the output panel.
    observed = expected["observed"]
    if isinstance(observed, dict) and set(observed) == {"error"}:
        expect(widget.error_message).to_be_visible()
        expect(widget.error_message).to_contain_text(observed["error"])


def test_breakpoint_pauses_step_moves_back_returns_continue_finishes(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(48).click()
    expect(widget.bp(48)).to_have_attribute("aria-pressed", "true")
    widget.press("debug")
    widget.expect_paused(48)
    # The diagram's active stage is the one the paused line belongs to ("cut = " starts at 48).
    expect(widget.root.locator(".stages li[aria-current=step]")).to_have_attribute("data-line", "48")
    at_48 = widget.snapshot()
    widget.press("over")
    widget.expect_paused(49)
    expect(widget.root.locator(".stages li[aria-current=step]")).to_have_attribute("data-line", "49")
    widget.press("back")
    widget.expect_paused(48)
    again = widget.snapshot()
    assert again == at_48, differences(again, at_48)
    widget.press("continue")
    widget.expect_finished()
    assert widget.stdout.text_content() == "已生成候选；原历史保持不变。\n"
    expect(widget.error_message).to_contain_text("输入历史没有被修改")   # the lesson's after-run note


def test_continue_stops_at_every_hit_then_finishes(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")  # two exchanges: the loop body runs twice
    widget.bp(46).click()
    widget.press("debug")
    widget.expect_paused(46)
    first = widget.snapshot()
    widget.press("continue")
    widget.expect_paused(46)
    assert widget.snapshot()["vars"] != first["vars"]  # the second iteration: index and groups moved on
    widget.press("continue")
    widget.expect_finished()
    expect(widget.button("continue")).to_be_disabled()
    expect(widget.button("back")).to_be_enabled()


def test_step_into_then_back_is_the_same_step(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    widget.press("debug")
    widget.expect_paused(46)
    before = widget.snapshot()
    widget.press("into")
    widget.expect_paused_in_helper(14, "checked_exchange")  # its first line, shown from the same file
    expect(widget.root.locator('.dbg-code .line[data-line="46"]')).to_be_hidden()
    frames = widget.root.locator(".frames li button")
    expect(frames).to_have_count(2)
    # Choosing the caller's frame shows its code, its line (the call) and its variables at this step.
    frames.nth(1).click()
    expect(widget.root.locator(".dbg-code .line.caller")).to_have_attribute("data-line", "46")
    expect(widget.root.locator('.dbg-code .line[data-line="46"]')).to_be_visible()
    expect(widget.variables).to_contain_text("groups")
    expect(frames.nth(1)).to_have_attribute("aria-current", "true")
    widget.press("back")
    widget.expect_paused(46)
    again = widget.snapshot()
    assert again == before, differences(again, before)


def test_timeline_follows_the_steps(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    slider = widget.root.get_by_role("slider", name=ZH["timeline"], exact=True)
    expect(slider).to_be_disabled()
    widget.bp(48).click()
    widget.press("debug")
    widget.expect_paused(48)
    expect(slider).to_be_enabled()
    step = int(slider.input_value())
    widget.press("over")
    widget.expect_paused(49)
    assert int(slider.input_value()) == step + 1


def test_switching_the_case_clears_breakpoints_and_replay(lesson):
    page = lesson.page
    widget = Widget(page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    widget.bp(48).click()
    widget.press("debug")
    widget.expect_paused(46)
    assert widget.pressed_breakpoints() == [46, 48]
    assert "bp=46&bp=48" in unquote(shared_link(page))
    widget.picker.select_option("multi")
    expect(widget.status).to_have_text(ZH["not_run"])
    assert widget.pressed_breakpoints() == []
    expect(widget.root.locator("[aria-current]")).to_have_count(0)
    expect(widget.root.locator(".vars-body > *")).to_have_count(0)
    expect(widget.root.locator(".has-bp")).to_have_count(0)
    for action in ("continue", "over", "into", "out", "back", "rinto", "rcontinue", "stop"):
        expect(widget.button(action)).to_be_disabled()
    hash_ = unquote(shared_link(page))
    assert "case=multi" in hash_ and "bp=" not in hash_ and "step=" not in hash_
    # The new case runs from scratch: Debug without breakpoints pauses on the first line.
    widget.press("debug")
    widget.expect_paused(37)


def test_keyboard_shortcuts(lesson):
    page = lesson.page
    widget = Widget(page, "split_history")
    widget.reset("normal")
    line = widget.bp(46)
    line.focus()
    page.keyboard.press("F9")
    expect(line).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("F9")
    expect(line).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("F9")
    expect(line).to_have_attribute("aria-pressed", "true")
    assert widget.pressed_breakpoints() == [46]

    page.keyboard.press("F5")  # Debug: to the first breakpoint
    widget.expect_paused(46)
    page.keyboard.press("F11")  # Step into checked_exchange
    widget.expect_paused_in_helper(14, "checked_exchange")
    page.keyboard.press("Shift+F11")  # Step out: back in split_history, after the call (as VS Code) ...
    widget.expect_paused(47)
    # ... which shows what the helper returned, as VS Code's "(return) checked_exchange".
    expect(widget.variables.locator("dt.special")).to_have_text("⟵ checked_exchange 的返回值")
    page.keyboard.press("F10")  # Step over
    widget.expect_paused(45)
    page.keyboard.press("F5")  # Continue: the loop's second pass hits 46 again
    widget.expect_paused(46)
    page.keyboard.press("F5")
    widget.expect_finished()


def test_variables_show_values_not_ids(lesson):
    """The Variables panel shows each local's value (a list as list[N], an int as its repr)."""
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(48).click()
    widget.press("debug")
    widget.expect_paused(48)
    shown = widget.root.evaluate("""root => Object.fromEntries([...root.querySelectorAll('.vars-body dt')]
        .map(dt => [dt.firstChild.textContent, dt.nextElementSibling.textContent]))""")
    assert shown.get("keep_recent") == "1", shown
    # messages is a list of 5 dicts; groups a list of 2 exchanges.
    assert shown.get("messages", "").startswith("list[5]"), f"messages shows {shown.get('messages')!r}: {shown}"
    assert shown.get("groups", "").startswith("list[2]"), f"groups shows {shown.get('groups')!r}: {shown}"
    # The picture of the messages list (one block per message) appears for a history.
    expect(widget.root.locator(".history")).to_be_visible()


PAYLOAD = '<img src=x onerror="window.__xss=1">'


def _patch_code(page, function, extra):
    """Make the widget run its case with `extra` appended to the setup (restored by _unpatch)."""
    page.evaluate("""([name, extra]) => {
        const d = stepwise.debuggers.get(name);
        const original = Object.getPrototypeOf(d).code.bind(d);
        d.code = () => { const [setup, entry] = original(); return [setup + extra, entry]; };
    }""", [function, extra])


def _unpatch(page, function):
    page.evaluate("name => { delete stepwise.debuggers.get(name).code; }", function)


def _open_all(widget):
    """Expand every list/dict in the Variables panel, as a reader would (they fill lazily on toggle)."""
    closed = widget.variables.locator("details:not([open]) > summary")
    for _ in range(200):
        if not closed.count():
            return
        closed.first.click()  # one at a time: opening one adds new closed ones below it
    raise AssertionError("the Variables panel kept growing closed containers")


def test_values_are_text_not_markup(lesson):
    page = lesson.page
    literal = json.dumps(PAYLOAD)  # a valid Python string literal for this ASCII payload
    # A nested value: the question inside the messages list.
    widget = Widget(page, "split_history")
    _patch_code(page, "split_history", f"messages[0]['content'] = {literal}\nbefore = deepcopy(messages)\n")
    try:
        widget.reset("normal")
        widget.bp(48).click()
        widget.press("debug")
        widget.expect_paused(48)
        _open_all(widget)
        expect(widget.variables.get_by_text(PAYLOAD).first).to_be_visible()
    finally:
        _unpatch(page, "split_history")
    # A top-level str local: prepare_context's question.
    other = Widget(page, "prepare_context")
    _patch_code(page, "prepare_context", f"question = {literal}\n")
    try:
        other.reset("fit")
        other.bp(90).click()
        other.press("debug")
        other.expect_paused(90)
        expect(other.variables.get_by_text(PAYLOAD).first).to_be_visible()
    finally:
        _unpatch(page, "prepare_context")
    for region in (widget, other):
        assert region.root.locator("img").count() == 0
    assert page.evaluate("() => window.__xss") is None
    widget.reset("normal")
    other.reset("fit")


def test_no_request_leaves_the_origin(lesson, server):
    widget = Widget(lesson.page, "trim_results")
    widget.reset("old")
    widget.press("run")
    widget.expect_finished()
    urls = lesson.requests
    assert any(url.endswith("pyodide.asm.wasm") for url in urls), "the worker's fetches were not recorded"
    assert any("/py/" in url and url.endswith(".py") for url in urls), "the shown sources were not fetched"
    foreign = [url for url in urls if not url.startswith((server + "/", "data:", "blob:"))]
    assert foreign == []


def test_deep_link_restores_case_breakpoints_and_step(lesson, open_page):
    """A link copied from a paused debugger opens on the same case, breakpoints and step."""
    widget = Widget(lesson.page, "trim_results")
    widget.reset("error")
    widget.bp(58).click()
    widget.bp(61).click()
    widget.press("debug")
    widget.expect_paused(58)
    widget.press("continue")
    widget.expect_paused(61)
    widget.press("over")
    widget.press("over")  # mid-statement: 61-62 is one assignment, so this may still be line 61
    expect(widget.status).to_have_text(re.compile(r"^已暂停 第\d+行( · .+)?$"))
    shown = widget.snapshot()
    link = shared_link(lesson.page).removeprefix("#")
    from urllib.parse import parse_qs
    params = parse_qs(link)
    assert params["f"] == ["trim_results"] and params["case"] == ["error"]
    assert params["bp"] == ["58", "61"] and int(params["step"][0]) > 0

    restored = Widget(open_page(link).page, "trim_results")
    expect(restored.picker).to_have_value("error")
    expect(restored.status).to_have_text(shown["status"], timeout=LONG)
    assert restored.pressed_breakpoints() == [58, 61]
    again = restored.snapshot()
    assert again == shown, differences(again, shown)
    # The restored replay is live: Continue goes on from there (58, the loop header, hits again).
    restored.press("continue")
    restored.expect_paused(58)
    restored.press("continue")
    restored.expect_finished()


def test_conditions_never_decide_silently(lesson):
    """A condition that fails at a hit stops there and says why (as bdb does); one that does not
    parse leaves its breakpoint off, and says so, instead of counting as true or false."""
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")  # two exchanges: line 46 runs twice
    widget.bp(46).click()
    widget.enter(widget.condition(46), "missing > 1")
    widget.press("debug")
    widget.expect_paused(46)
    expect(widget.error_message).to_contain_text("第46行断点的条件在这里出错")
    expect(widget.error_message).to_contain_text("missing")
    widget.press("continue")
    widget.expect_paused(46)
    widget.press("continue")
    widget.expect_finished()

    widget.reset("normal")
    widget.bp(46).click()
    widget.enter(widget.condition(46), "index >")
    expect(widget.root.locator(".bp-error")).to_have_text("条件在第8列无法解析，断点未启用。")   # one language
    widget.press("debug")
    widget.expect_finished()   # the broken condition neither stopped nor silently passed as a hit


def test_time_travel_moves_and_keys_after_a_click(lesson):
    """Step back is the reverse of Step over (a call is stepped back over whole), Reverse step into goes
    back into the callee, Reverse continue to the previous hit; keys keep working after mouse clicks."""
    page = lesson.page
    widget = Widget(page, "split_history")
    widget.reset("normal")  # two exchanges: line 46 (the call to checked_exchange) runs twice
    widget.bp(46).click()
    widget.button("debug").click()           # a click: the button is disabled while running
    widget.expect_paused(46)
    page.keyboard.press("F10")               # keys still reach the widget
    widget.expect_paused(47)
    page.keyboard.press("Shift+F10")         # Step back: over the whole call, to the calling line
    widget.expect_paused(46)
    widget.root.locator(".vars-body").click()   # a click on a panel keeps focus in the widget too
    page.keyboard.press("F10")
    widget.expect_paused(47)
    widget.press("rinto")                    # back into the callee: its last stop
    expect(widget.status).to_have_text(re.compile(r"^已暂停 第\d+行( · .+)?$"))
    expect(widget.root.locator(".code-caption")).to_contain_text("checked_exchange")
    widget.press("continue")                 # to the second hit of 46
    widget.expect_paused(46)
    page.keyboard.press("Shift+F5")          # Reverse continue: the previous hit
    widget.expect_paused(46)
    assert widget.root.locator(".frames button").count() == 1
    widget.press("rcontinue")                # no earlier hit: the first stop
    expect(widget.status).to_have_text(re.compile(r"^已暂停 第\d+行( · .+)?$"))
    # The keys are listed in a help popover.
    toggle = widget.root.get_by_role("button", name="键盘快捷键", exact=True)
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    help_list = widget.root.locator(".keys-help")
    for key in ("F5", "F10", "Shift+F10", "Shift+F5", "Alt+Shift+F11", "F9"):
        expect(help_list).to_contain_text(key)
    toggle.click()
    expect(help_list).to_be_hidden()


def test_an_invalid_hit_count_is_refused_and_said(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    widget.enter(widget.hit_count(46), "0")
    expect(widget.root.locator(".bp-error")).to_contain_text("命中次数须为从 1 起的整数")
    widget.enter(widget.hit_count(46), "2")
    expect(widget.root.locator(".bp-error")).to_have_count(0)
    widget.press("debug")
    widget.expect_paused(46)
    expect(widget.variables).to_contain_text(re.compile(r"index[^0-9]*3"))   # the second pass (index 1, then 3)


def test_deep_link_keeps_conditions_hit_counts_the_finished_state_and_language(lesson, open_page):
    """Conditions and hit counts travel in the link; so do a finished run and the language. A link
    followed within the page is restored too, and a link that cannot be followed says so."""
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    widget.bp(46).click()
    widget.enter(widget.hit_count(46), "2")
    widget.enter(widget.condition(46), "index >= 1")
    widget.press("run")
    widget.expect_finished()
    link = shared_link(lesson.page).removeprefix("#")
    from urllib.parse import parse_qs
    params = parse_qs(link)
    assert params["bp"] == ["46:2:index >= 1"] and params["step"] == ["end"]

    opened = open_page(link + "&lang=en").page
    restored = Widget(opened, "split_history", EN)
    expect(restored.status).to_have_text(EN["finished"], timeout=LONG)
    expect(restored.condition(46)).to_have_value("index >= 1")
    expect(restored.hit_count(46)).to_have_value("2")
    assert opened.evaluate("() => document.documentElement.lang") == "en"
    # Followed within the page: an unknown case and a step past the end are said, and fallen back from.
    opened.evaluate("() => { location.hash = 'f=split_history&case=nosuch&step=999&lang=en'; }")
    expect(restored.error_message).to_contain_text('scenario "nosuch" does not exist', timeout=LONG)
    expect(restored.picker).to_have_value("normal")
    expect(restored.status).to_have_text(EN["finished"], timeout=LONG)
    expect(restored.error_message).to_contain_text("step 999 is past the end")
    expect(restored.error_message).to_contain_text('scenario "nosuch" does not exist')


def test_edit_input_runs_live_travels_in_the_link_and_resets(lesson, open_page):
    """The reader edits the case's call: Run and Debug run it live against the unmodified source; a
    syntax error is said at its line before anything runs; the link carries the edit; Reset restores."""
    page = lesson.page
    widget = Widget(page, "split_history")
    widget.reset("normal")
    widget.root.get_by_role("button", name="修改输入", exact=True).click()
    entry = widget.root.get_by_role("textbox", name="调用入口", exact=True)
    entry.fill("print(split_history(messages, keep_recent=2)['older'])\n")
    # Python highlighting under the edited text (the same token classes as the shown source).
    view = widget.root.locator(".edit-box:has(textarea.edit-entry) .edit-view")
    expect(view.locator("span.nb")).to_have_text("print")
    expect(view.locator("span.s")).to_have_text("'older'")
    expect(view.locator("span.mi")).to_have_text("2")
    widget.press("run")
    widget.expect_finished()
    expect(widget.stdout).to_have_text("[]")          # keep_recent=2: nothing is older
    link = shared_link(page).removeprefix("#")
    assert "input=" in link
    entry.fill("print(split_history(messages,\n")
    widget.press("run")
    expect(widget.status).to_have_text(ZH["error"], timeout=LONG)
    expect(widget.error_message).to_contain_text("SyntaxError")
    expect(widget.error_message).to_contain_text("调用入口第1行")
    # The link opens the edited input elsewhere.
    restored = Widget(open_page(link).page, "split_history")
    restored.press("run")
    restored.expect_finished()
    expect(restored.stdout).to_have_text("[]")
    # Reset: the author's case again, shown from its recorded trace.
    widget.root.get_by_role("button", name="恢复", exact=True).click()
    widget.press("run")
    widget.expect_finished()
    expect(widget.stdout).to_have_text("已生成候选；原历史保持不变。")


def test_an_edited_input_imports_from_the_rest_of_the_standard_library(lesson):
    """Python boots with only the modules a boot and the recorder need; any other standard module
    still imports (the rest of the library arrives after boot, or on the first import that needs it)."""
    page = lesson.page
    widget = Widget(page, "split_history")
    widget.reset("normal")
    widget.root.get_by_role("button", name="修改输入", exact=True).click()
    entry = widget.root.get_by_role("textbox", name="调用入口", exact=True)
    entry.fill("import statistics, fractions, html.parser, encodings.cp1252\n"
               "print(statistics.median([3, 1, 2]), fractions.Fraction(6, 4), 'é'.encode('cp1252'))\n")
    widget.press("run")
    widget.expect_finished()
    expect(widget.stdout).to_have_text("2 3/2 b'\\xe9'")
    widget.root.get_by_role("button", name="恢复", exact=True).click()
