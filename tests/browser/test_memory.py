"""The memory picture (issue 30): frames and the objects they reach, drawn once each with arrows, found by
role and name (a region `内存 · <function>`, groups `<type> #<n>`, links `<label> → <type> #<n>`); the
reader's frame choice kept in the link; screenshots under test-artifacts/screenshots/ (desktop, 375 px,
dark)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pages import Widget
from playwright.sync_api import expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
REFERENCE = re.compile(r"^(.+) → (\w+) #(\d+)$")


def memory(widget: Widget):
    return widget.root.get_by_role("region", name=re.compile(r"^(内存|Memory) · "))


def references(region) -> dict[str, str]:
    """Accessible name of each reference link: label -> 'type #n' (the last one for a repeated label)."""
    found = {}
    for name in region.get_by_role("link").evaluate_all("links => links.map(l => l.getAttribute('aria-label'))"):
        match = REFERENCE.match(name or "")
        assert match, name
        found[match[1]] = f"{match[2]} #{match[3]}"
    return found


def pause(widget: Widget, case: str, line: int) -> None:
    widget.reset(case)
    widget.bp(line).click()
    widget.press("debug")
    widget.expect_paused(line)


def test_a_deep_copy_is_another_object_and_an_alias_the_same_one(lesson):
    """trim_results inside its loop: `candidate` is a deep copy of `messages` (another list, other dicts),
    `block` is the very dict the copy holds (one box, two arrows)."""
    page = lesson.page
    widget = Widget(page, "trim_results")
    pause(widget, "old", 61)
    region = memory(widget)
    expect(region).to_be_visible()
    frame = region.get_by_role("group", name="trim_results", exact=True)
    expect(frame).to_be_visible()
    named = references(frame)
    assert named["messages"].startswith("list #") and named["candidate"].startswith("list #")
    assert named["messages"] != named["candidate"], "a deep copy is another list"
    block = named["block"]
    assert block.startswith("dict #")
    # The block's box is drawn once, and the list in the copy that holds it points at it too.
    expect(region.get_by_role("group", name=block, exact=True)).to_have_count(1)
    expect(region.get_by_role("link", name=re.compile(rf"^\[\d+\] → {re.escape(block)}$"))).to_have_count(1)
    # Every object is drawn once: no two boxes share a name.
    boxes = region.locator(".mem-object").evaluate_all("boxes => boxes.map(b => b.getAttribute('aria-label'))")
    assert len(boxes) == len(set(boxes)) > 5
    # An arrow for each reference to a drawn object.
    arrows = region.locator(".mem-arrows > path").count()
    assert arrows == region.locator(".mem-ref[href]").count() > 5
    # The copy's messages are other objects than the original's: their numbers differ item by item.
    original = region.get_by_role("group", name=named["messages"], exact=True)
    copy = region.get_by_role("group", name=named["candidate"], exact=True)
    assert set(references(original).values()).isdisjoint(references(copy).values())


def test_the_current_frame_only_is_kept_in_the_link(open_page):
    """Stepping into split_history from trim_results: both frames are drawn, the current one marked; the
    reader's choice of the current frame alone holds while stepping and comes back from the link."""
    page = open_page().page
    widget = Widget(page, "trim_results")
    pause(widget, "old", 56)
    widget.press("into")
    region = memory(widget)
    expect(region.get_by_role("group", name="split_history", exact=True)).to_be_visible()
    expect(region.get_by_role("group", name="trim_results", exact=True)).to_be_visible()
    expect(region.locator(".mem-frame.current")).to_have_attribute("aria-label", "split_history")
    region.get_by_role("checkbox").check()
    expect(region.get_by_role("group", name="trim_results", exact=True)).to_have_count(0)
    widget.press("over")
    expect(region.get_by_role("group", name="trim_results", exact=True)).to_have_count(0)
    page.evaluate("() => globalThis.stepwise.linkSettled()")
    link = page.evaluate("() => location.hash")
    assert "mem=current" in link
    again = open_page(link.lstrip("#")).page
    other = Widget(again, "trim_results")
    expect(memory(other).get_by_role("checkbox")).to_be_checked()
    expect(memory(other).get_by_role("group", name="trim_results", exact=True)).to_have_count(0)


def test_screenshots(open_page):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, options in (("desktop", {}), ("phone", {"viewport": {"width": 375, "height": 812}}),
                          ("dark", {"color_scheme": "dark"})):
        page = open_page(**options).page
        widget = Widget(page, "trim_results")
        pause(widget, "old", 61)
        widget.show_panel("内存")
        region = memory(widget)
        expect(region.locator(".mem-arrows > path").first).to_be_attached()
        if name == "phone":   # the picture pans inside its panel: the page is no wider than the screen
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        region.screenshot(path=SCREENSHOTS / f"memory-trim_results-{name}.png", animations="disabled")


# ---------------------------------------------------------------- textbook structures (code of a first course)

STRUCTURES = Path(__file__).resolve().parents[1] / "fixtures" / "py" / "textbook" / "structures.py"
STRUCTURES_PATH = "tests/fixtures/py/textbook/structures.py"


def line_in(function: str, text: str) -> int:
    """The line of structures.py in `function` (a def's name) that starts with `text` (stripped)."""
    lines = STRUCTURES.read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines) if line.strip().startswith(f"def {function}("))
    return next(n for n, line in enumerate(lines[start:], start + 1) if line.strip().startswith(text))


@pytest.fixture(scope="module")
def structures(chromium, lessons_server):
    from conftest import new_page
    opened = new_page(chromium, lessons_server, lesson="structures")
    yield opened
    problems = opened.problems()
    opened.context.close()
    assert not problems, "\n".join(problems)


def paused_in(page, function: str, line: int, hits: int = 1) -> tuple[Widget, object]:
    """The `function` debugger paused at `line` (its `hits`-th time); (widget, its memory region)."""
    widget = Widget(page, function, path=STRUCTURES_PATH)
    widget.bp(line).click()
    widget.press("debug")
    for _ in range(hits - 1):
        widget.expect_paused(line)
        widget.press("continue")
    widget.expect_paused(line)
    return widget, memory(widget)


def box(region, name: str):
    return region.get_by_role("group", name=name, exact=True)


def cell(group) -> tuple[int, int]:
    """The (row, column) the picture's grid gives a box."""
    style = "b => [getComputedStyle(b).gridRowStart, getComputedStyle(b).gridColumnStart].map(Number)"
    return tuple(group.evaluate(style))


def chain(region, start: str, field: str) -> list[str]:
    """The objects met following `field` links from the box named `start`."""
    met = [start]
    while (found := references(box(region, met[-1])).get(field)) is not None:
        met.append(found)
    return met


def test_a_linked_list_is_a_row_of_nodes_that_keep_their_places(structures):
    page = structures.page
    widget, region = paused_in(page, "LinkedList.reverse", line_in("reverse", "current.next_node = previous"))
    frame = references(box(region, "reverse"))
    assert frame["self"].startswith("LinkedList #") and frame["current"].startswith("Node #")
    nodes = chain(region, references(box(region, frame["self"]))["head"], "next_node")
    assert len(nodes) == 4 and all(name.startswith("Node #") for name in nodes)
    for name, data in zip(nodes, "1234", strict=True):
        expect(box(region, name)).to_contain_text(re.compile(rf"data\s*{data}"))
    # Python Tutor's row: the list, then its nodes left to right, in one row.
    cells = [cell(box(region, name)) for name in [frame["self"], *nodes]]
    assert [row for row, _ in cells] == [cells[0][0]] * 5, cells
    assert [column for _, column in cells] == list(range(1, 6)), cells
    lefts = [box(region, name).bounding_box()["x"] for name in nodes]
    assert lefts == sorted(lefts)
    assert region.locator(".mem-arrows > path").count() == region.locator(".mem-ref[href]").count()
    # A turn of the loop later the first node points back at nothing, and no box has moved.
    widget.press("continue")
    widget.expect_paused(line_in("reverse", "current.next_node = previous"))
    assert "next_node" not in references(box(region, nodes[0]))
    assert references(box(region, "reverse"))["previous"] == nodes[0]
    assert [cell(box(region, name)) for name in [frame["self"], *nodes]] == cells
    # The keyboard walks the boxes: one Tab stop, arrow keys to the neighbour.
    first = region.locator(".mem-object[tabindex='0']")
    expect(first).to_have_count(1)
    first.focus()
    start = first.get_attribute("aria-label")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert moved != start and cell(box(region, moved))[1] == cell(box(region, start))[1] + 1


def test_a_binary_search_tree_spreads_down_and_right(structures):
    _, region = paused_in(structures.page, "build_tree", line_in("build_tree", "return root"))
    root = references(box(region, "build_tree"))["root"]
    children = references(box(region, root))
    assert children["left"].startswith("TreeNode #") and children["right"].startswith("TreeNode #")
    expect(box(region, children["left"])).to_contain_text(re.compile(r"key\s*30"))
    expect(box(region, children["right"])).to_contain_text(re.compile(r"key\s*70"))
    expect(region.get_by_role("group", name=re.compile(r"^TreeNode #\d+$"))).to_have_count(6)
    (row, column), left = cell(box(region, root)), cell(box(region, children["left"]))
    right = cell(box(region, children["right"]))
    assert left == (row, column + 1), (row, column, left)
    assert right[1] == column + 1 and right[0] > row


def test_a_graph_as_a_dict_of_lists(structures):
    _, region = paused_in(structures.page, "breadth_first", line_in("breadth_first", "return seen"))
    frame = references(box(region, "breadth_first"))
    graph = references(box(region, frame["graph"]))
    assert set(graph) == {"'home'", "'bakery'", "'park'", "'school'", "'library'"}
    assert all(name.startswith("list #") for name in graph.values()) and len(set(graph.values())) == 5
    expect(box(region, graph["'home'"])).to_contain_text("'bakery'")
    expect(box(region, frame["seen"])).to_contain_text("'library'")


def test_a_class_holding_a_list_of_objects(structures):
    """The second enrol: the student just made is marked new (in words, not colour alone); a step later the
    room's list holds it, the list marked changed, the student no longer new."""
    widget, region = paused_in(structures.page, "Classroom.enrol", line_in("enrol", "self.students.append"), hits=2)
    made = references(box(region, "enrol"))["student"]
    expect(box(region, made)).to_have_class(re.compile(r"\bmade\b"))
    expect(box(region, made)).to_contain_text("新建")
    expect(region.locator(".mem-object.made")).to_have_count(2)   # the student and its scores
    widget.press("over")
    widget.expect_paused(line_in("enrol", "return student"))
    frame = references(box(region, "enrol"))
    room = references(box(region, frame["self"]))
    expect(box(region, room["students"])).to_have_class(re.compile(r"\bchanged\b"))
    expect(box(region, room["students"])).to_contain_text("已变化")
    expect(region.locator(".mem-object.made")).to_have_count(0)
    students = references(box(region, references(box(region, frame["self"]))["students"]))
    assert students["[1]"] == frame["student"], "the object just made is the one the list holds"
    assert students["[0]"] != students["[1]"]
    expect(box(region, frame["student"])).to_contain_text("'Alan'")
    assert references(box(region, frame["student"]))["scores"].startswith("list #")


def test_a_phone_pans_the_picture(chromium, lessons_server):
    from conftest import new_page
    opened = new_page(chromium, lessons_server, lesson="structures", viewport={"width": 375, "height": 812})
    try:
        line = line_in("reverse", "current.next_node = previous")
        widget, region = paused_in(opened.page, "LinkedList.reverse", line)
        widget.show_panel("内存")
        expect(region.locator(".mem-arrows > path").first).to_be_attached()
        assert opened.page.evaluate("() => document.documentElement.scrollWidth") <= 375
        body = region.locator(".memory-body")
        assert body.evaluate("b => b.scrollWidth > b.clientWidth"), "the row of nodes is wider than a phone: it pans"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        region.screenshot(path=SCREENSHOTS / "memory-linked-list-phone.png", animations="disabled")
        assert not opened.problems()
    finally:
        opened.context.close()
