"""Every lesson's page, and the test-only textbook lesson driven as a reader would.

The site is built with lessons/ and tests/fixtures/lessons (`lessons_server`). Every case of
every debugger on every page is Run and its output compared with untraced CPython: a lesson
added the README's way is covered with no test edited. The textbook lesson (shortest routes:
a dataclass, a generator, recursion, a closure, a class and an exception) is then stepped:
into a method, `self` opened, a caller's frame chosen, a condition on an attribute, a deep stack.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pages import ZH, Widget, shared_link
from playwright.sync_api import expect
from test_every_lesson import CASES, LESSONS, SCENARIO_OF, normalise, outcome, run_here

ROUTES = Path(__file__).resolve().parents[1] / "fixtures" / "py" / "textbook" / "routes.py"
ROUTES_PATH = "tests/fixtures/py/textbook/routes.py"
LINES = ROUTES.read_text(encoding="utf-8").splitlines()


def line_of(text: str) -> int:
    """The real line number of the one line of routes.py that starts with `text` (stripped)."""
    hits = [n for n, line in enumerate(LINES, 1) if line.strip().startswith(text)]
    assert len(hits) == 1, (text, hits)
    return hits[0]


@pytest.fixture(scope="module")
def pages(chromium, lessons_server):
    """One booted page per lesson, shared by the module's tests."""
    from conftest import new_page
    opened = {slug: new_page(chromium, lessons_server, lesson=slug) for slug, _ in LESSONS}
    yield opened
    problems = [problem for watched in opened.values() for problem in watched.problems()]
    for watched in opened.values():
        watched.context.close()
    assert not problems, "\n".join(problems)


def widget_for(pages, slug: str, name: str) -> Widget:
    data = SCENARIO_OF[(slug, name)]
    return Widget(pages[slug].page, name, path=data.source.removeprefix("py/"))


@pytest.mark.parametrize("slug, name, case", CASES)
def test_every_case_runs_in_the_page_as_in_cpython(pages, slug, name, case):
    widget = widget_for(pages, slug, name)
    widget.select(case)
    widget.press("run")
    expect(widget.status).to_have_text(re.compile(f"^({ZH['finished']}|{ZH['error']})$"), timeout=60_000)
    expected = outcome(run_here(SCENARIO_OF[(slug, name)], name, case, record=False))
    shown = widget.stdout.text_content()
    assert normalise(shown) == (expected["stdout"] or "（没有输出）")   # an empty run says so


def into_route(pages) -> tuple[Widget, int]:
    """plan_trip on the town case, stepped into its first `cache.route(a, b)`; (widget, the call's line)."""
    widget = widget_for(pages, "routes", "plan_trip")
    call = line_of("leg_minutes, path = cache.route(a, b)")
    widget.pause_at("town", call)
    widget.press("into")
    widget.expect_paused_in_helper(line_of("key = (start, goal)"), "route")
    return widget, call


def test_step_into_a_method_inspect_self_and_choose_a_frame(pages):
    widget, call = into_route(pages)
    # The method's lines are shown, with breakpoint buttons; plan_trip's are not.
    expect(widget.bp(line_of("if key in self.saved:"))).to_be_visible()
    expect(widget.root.locator(f'.dbg-code .line[data-line="{call}"]')).to_be_hidden()
    # `self` is the cache: an object whose fields open like a dict's entries.
    self_value = widget.variables.locator("details").first
    expect(self_value).to_contain_text("RouteCache")
    self_value.locator("summary").click()
    for field in ("roadmap", "size", "hits", "saved"):
        expect(self_value).to_contain_text(field)
    # The caller's frame: its line (the call), its variables at this step.
    frames = widget.root.locator(".frames button")
    expect(frames).to_have_count(2)
    frames.nth(1).click()
    expect(widget.root.locator(".dbg-code .line.caller")).to_have_attribute("data-line", str(call))
    expect(widget.variables).to_contain_text("stops")
    widget.press("out")   # back in plan_trip, after the call
    widget.expect_paused(call + 1)


def test_condition_on_an_attribute(pages):
    widget = widget_for(pages, "routes", "RouteCache.route")
    widget.select("town")
    line = line_of("key = (start, goal)")
    widget.bp(line).click()
    widget.enter(widget.condition(line), "len(self.saved) >= 2 and self.hits == 0")
    widget.press("debug")
    widget.expect_paused(line)
    # The third leg (library to school): two routes are saved, none reused yet.
    expect(widget.variables).to_contain_text(re.compile(r"start\s*library\s*goal\s*school"))


def test_deep_recursion_folds_the_stack(pages):
    widget = widget_for(pages, "routes", "plan_trip")
    widget.select("grid")
    base = line_of("return [place]")
    # rebuild_path's lines show once execution is there; before the run, set its breakpoint through
    # the widget's API (a reader would step in once and click the line).
    pages["routes"].page.evaluate("([name, line]) => stepwise.debuggers.get(name).toggleBreakpoint(line)",
                                  ["plan_trip", base])
    widget.press("debug")
    widget.expect_paused(base)
    rows = widget.root.locator(".frames li")
    more = widget.root.get_by_role("button", name=re.compile(r"还有 \d+ 层"))
    expect(more).to_be_visible()
    folded = rows.count()
    assert folded == 7, folded   # first 3, "… N more", last 3
    hidden = int(re.search(r"\d+", more.inner_text()).group())
    more.click()
    expect(rows).to_have_count(folded - 1 + hidden)
    expect(widget.root.locator(".frames button").first).to_contain_text("rebuild_path")


def test_the_memory_picture_draws_a_method_and_its_caller_sharing_objects(pages):
    """Textbook code in the memory picture: the method's `self` and its caller's `cache` are one object,
    drawn once with an arrow from each frame; the map the cache holds is the caller's `roadmap`."""
    widget, _ = into_route(pages)
    memory = widget.root.get_by_role("region", name=re.compile("^内存 · "))
    method = memory.get_by_role("group", name="route", exact=True)
    caller = memory.get_by_role("group", name="plan_trip", exact=True)
    own = method.get_by_role("link", name=re.compile(r"^self → RouteCache #\d+$")).get_attribute("aria-label")
    cache = own.split(" → ")[1]
    expect(caller.get_by_role("link", name=f"cache → {cache}", exact=True)).to_have_count(1)
    box = memory.get_by_role("group", name=cache, exact=True)
    expect(box).to_have_count(1)
    held = box.get_by_role("link", name=re.compile(r"^roadmap → RoadMap #\d+$")).get_attribute("aria-label")
    expect(caller.get_by_role("link", name=held, exact=True)).to_have_count(1)


def test_a_callers_view_of_an_object_is_its_newest(pages):
    """Inside route, `self.saved[key] = found` changes the cache plan_trip holds: the caller's frame shows the
    cache as it is now (one object, seen from every frame), not as plan_trip last looked at it."""
    widget, call = into_route(pages)
    line = line_of("return found")
    widget.bp(line).click()
    widget.press("continue")
    widget.expect_paused_in_helper(line, "route")
    widget.root.locator(".frames button").nth(1).click()
    expect(widget.root.locator(".dbg-code .line.caller")).to_have_attribute("data-line", str(call))
    cache = widget.variables.locator("details").filter(has_text="RouteCache").first
    cache.locator("summary").first.click()
    expect(cache).to_contain_text(re.compile(r"saved\s*=\s*dict\[1\]\s*\{\('home', 'school'\)"))
    pages["routes"].page.evaluate("([name, line]) => stepwise.debuggers.get(name).toggleBreakpoint(line)",
                                  ["plan_trip", line])


def test_a_second_file_steps_with_its_own_code_breakpoints_memory_and_link(pages, chromium, lessons_server):
    """The routes lesson shows two files (lesson.toml names two scenario files): the errands debugger
    steps through errands.py — its title, code pane, breakpoints, helpers and memory picture are that
    file's — while plan_trip's stays on routes.py, and a link to a paused step in the second file opens
    there again."""
    from urllib.parse import parse_qs

    from conftest import new_page
    page = pages["routes"].page
    errands_path = "tests/fixtures/py/textbook/errands.py"
    lines = (ROUTES.parent / "errands.py").read_text(encoding="utf-8").splitlines()
    gathered = next(n for n, text in enumerate(lines, 1) if text.strip().startswith("waited = 0"))
    errands = Widget(page, "run_errands", path=errands_path)
    expect(errands.root.locator(".dbg-code")).to_contain_text("asyncio.run(errands(todo))")
    expect(errands.root.locator(".dbg-code")).not_to_contain_text("def plan_trip")
    expect(widget_for(pages, "routes", "plan_trip").root.locator(".dbg-code")).not_to_contain_text("async def")
    # Its setup section lists errands.py's functions, not routes.py's.
    helpers = errands.root.locator(".helpers .helper")
    errands.root.locator("details.setup summary").click()
    expect(helpers.filter(has_text="async def ticks")).to_have_count(1)
    expect(helpers.filter(has_text="class RouteCache")).to_have_count(0)
    errands.reset("two")
    # A breakpoint in errands(), a coroutine the entry reaches through asyncio.run, for now only in the API.
    page.evaluate("([name, line]) => stepwise.debuggers.get(name).toggleBreakpoint(line)", ["run_errands", gathered])
    errands.press("debug")
    errands.expect_paused_in_helper(gathered, "errands")
    expect(errands.variables).to_contain_text("bakery (3 min)")
    memory = errands.root.get_by_role("region", name=re.compile("^内存 · "))
    expect(memory.get_by_role("group", name="errands", exact=True)).to_have_count(1)
    link = shared_link(page).removeprefix("#")
    params = parse_qs(link)
    assert params["f"] == ["run_errands"] and params["bp"] == [str(gathered)], params
    shown = errands.snapshot()
    reopened = new_page(chromium, lessons_server, link, lesson="routes")
    try:
        again = Widget(reopened.page, "run_errands", path=errands_path)
        expect(again.status).to_have_text(shown["status"], timeout=60_000)
        assert again.pressed_breakpoints() == [gathered]
        assert reopened.problems() == []
    finally:
        reopened.context.close()


def test_which_lines_ran_in_textbook_code(pages):
    """The routes lesson's plan_trip: the call into the cache runs once a leg, its count walks the legs."""
    widget = widget_for(pages, "routes", "plan_trip")
    widget.reset("town")
    widget.press("run")
    widget.expect_finished()
    call = line_of("leg_minutes, path = cache.route(a, b)")
    count = widget.root.get_by_role("button", name=re.compile(f"^第{call}行运行了 \\d+ 次：到它下一次运行$"))
    runs = int(count.inner_text())
    assert runs >= 2, runs
    steps = []
    for _ in range(runs + 1):
        count.click()
        widget.expect_paused(call)
        steps.append(widget.root.locator(".step-count").inner_text())
    assert len(set(steps[:runs])) == runs and steps[runs] == steps[0], steps


def at_the_loop(pages):
    """plan_trip on the town case paused at its loop's first pass (no breakpoint left); (widget, change navigator)."""
    widget = widget_for(pages, "routes", "plan_trip")
    body = line_of("for a, b in zip(stops, stops[1:]):")
    widget.pause_at("town", body)
    widget.bp(body).click()
    return widget, widget.root.get_by_role("group", name="变量的变化")


def test_next_change_of_a_variable_in_textbook_code(pages):
    """plan_trip's `minutes` grows once a leg: Next change walks those steps (each at the line after the
    addition), Previous change walks back, whatever the calls into the cache in between."""
    widget, nav = at_the_loop(pages)
    nav.get_by_role("combobox", name="看哪个变量的变化").select_option("minutes")
    after = line_of("legs.append(path)")
    seen = []
    for _ in range(2):
        nav.get_by_role("button", name="下一次变化 ▶").click()
        widget.expect_paused(after)
        seen.append(widget.root.locator(".step-count").inner_text())
    nav.get_by_role("button", name="◀ 上一次变化").click()
    widget.expect_paused(after)
    assert widget.root.locator(".step-count").inner_text() == seen[0] != seen[1]


def test_step_notes_and_predict_mode_in_textbook_code(pages):
    """Issue 34 items 5 and 6 on plan_trip: a line's note shows on its line, a stage's all through the stage;
    predict mode stops at the author's question, hides both names the line sets, and scores the guesses."""
    widget = widget_for(pages, "routes", "plan_trip")
    widget.reset("town")
    note = widget.root.get_by_role("note", name="讲解")
    add = line_of("minutes += leg_minutes")
    widget.bp(add).click()
    widget.press("debug")
    widget.expect_paused(add)
    expect(note).to_contain_text("每段的分钟数累加进总数。")
    widget.bp(add).click()
    widget.press("over")
    expect(note).to_be_hidden()
    back = line_of("return minutes, legs")
    widget.bp(back).click()
    widget.press("continue")
    widget.expect_paused(back)
    expect(note).to_contain_text("📌 本阶段 全部路段规划完毕。")
    widget.bp(back).click()

    toggle = widget.root.get_by_role("button", name="预测", exact=True)
    card = widget.root.get_by_role("group", name="预测", exact=True)
    widget.reset("town")
    toggle.click()
    try:
        widget.press("debug")
        widget.press("continue")
        start = line_of("minutes, legs = 0, []")
        widget.expect_paused(start)
        expect(card).to_contain_text("这一行之后 minutes 是多少？")
        widget.press("over")
        card.get_by_role("textbox", name="你猜 minutes 的新值").fill("0")
        card.get_by_role("textbox", name="你猜 legs 的新值").fill("[1]")
        card.get_by_role("button", name="揭晓").click()
        expect(card.get_by_role("listitem")).to_have_text(["✓ minutes = 0：猜对了", "✗ legs = []，你猜的是 [1]"])
        expect(card).to_contain_text("讲解：总数从0开始")
        expect(card).to_contain_text("得分：1 / 2")
        widget.press("continue")   # on to the next question: the first leg's addition
        widget.expect_paused(add)
        expect(card).to_contain_text("这一段之后总分钟数是多少？")
    finally:
        toggle.click()


def expand(details) -> None:
    """Open a container in Variables unless it is: what a reader opened stays open across tests of a page."""
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    expect(details).to_have_attribute("open", "")


def test_where_from_through_an_alias_and_a_call_in_textbook_code(pages):
    """Issue 34 item 1 on plan_trip: route's `start` was passed by plan_trip's call line; the cache's `saved`
    was set in __init__; an entry of it, seen from plan_trip, was set inside route through `self`."""
    widget, call = into_route(pages)
    widget.variables.get_by_role("button", name="start 从哪来：到写入它的那一步", exact=True).click()
    expect(widget.current_lines).to_have_attribute("data-line", str(call))
    expect(widget.status).to_contain_text(f"来源：start 由第{call}行的调用传入")
    add = line_of("minutes += leg_minutes")
    widget.bp(add).click()
    widget.press("continue")
    widget.expect_paused(add)
    widget.bp(add).click()
    expand(widget.variables.locator('details[data-path="plan_trip:cache"]'))
    widget.variables.get_by_role("button", name="cache.saved 从哪来：到写入它的那一步", exact=True).click()
    expect(widget.status).to_contain_text(f"来源：cache.saved 在第{line_of('self.saved = {}')}行被赋值")
    widget.root.get_by_role("button", name=re.compile("^↩ 回到第")).click()
    widget.expect_paused(add)
    expand(widget.variables.locator('details[data-path="plan_trip:cache.saved"]'))
    widget.variables.get_by_role("button", name="cache.saved[('home', 'school')] 从哪来：到写入它的那一步",
                                 exact=True).click()
    put = line_of("self.saved[key] = found")
    expect(widget.status).to_contain_text(f"来源：cache.saved[('home', 'school')] 在第{put}行被赋值")
    expect(widget.root.locator(".code-caption")).to_contain_text("route")


def test_two_cases_side_by_side_in_textbook_code(pages):
    """Issue 34 item 4 on plan_trip: the town and no_route cases part inside `shortest`, where one finds a
    route and the other runs out of places; from there the second run is shown at the first one's step."""
    widget = widget_for(pages, "routes", "plan_trip")
    widget.reset("town")
    widget.press("run")
    widget.expect_finished()
    pick = widget.root.get_by_role("combobox", name="和哪个输入对比")
    pane = widget.root.get_by_role("group", name="对比", exact=True)
    pick.select_option("no_route")
    parting = pane.locator(".compare-parting")
    expect(parting).to_contain_text(re.compile(r"在第\d+步分开：小镇 到第\d+行，无路可走 到第\d+行。"), timeout=60_000)
    step = int(re.search(r"在第(\d+)步", parting.inner_text()).group(1))
    pane.get_by_role("button", name="到分开处").click()
    expect(widget.root.locator(".step-count")).to_contain_text(f"第 {step} /")
    other = int(re.search(r"无路可走 到第(\d+)行", parting.inner_text()).group(1))
    expect(pane).to_contain_text(re.compile(rf"无路可走 的第{step}步：第{other}行（\w+）"))
    expect(widget.root.locator(".dbg-code .line.compare-line")).to_have_attribute("data-line", str(other))
    pick.select_option("")
    expect(pane).to_be_hidden()
    expect(widget.root.locator(".dbg-code .line.compare-line")).to_have_count(0)


def test_next_change_of_an_object_through_an_alias_in_textbook_code(pages):
    """Issue 34 item 2 for objects: plan_trip's cache.saved (a dict) is changed inside route, through `self`;
    its next change is seen there, not when plan_trip next looks."""
    widget, nav = at_the_loop(pages)
    select = nav.get_by_role("combobox", name="看哪个变量的变化")
    label = select.locator("option").filter(has_text=re.compile(r"^cache\.saved · dict #\d+$")).inner_text()
    select.select_option(label=label)
    nav.get_by_role("button", name="下一次变化 ▶").click()
    expect(widget.root.locator(".code-caption")).to_contain_text("route")
    expect(widget.current_lines).to_have_attribute("data-line", str(line_of("while len(self.saved) > self.size:")))
    nav.get_by_role("button", name="◀ 上一次变化").click()   # made in __init__: seen first there
    expect(widget.root.locator(".code-caption")).to_contain_text("__init__")
