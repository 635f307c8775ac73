"""The memory picture (issue 30): frames and the objects they reach, drawn once each with arrows, found by
role and name (a region `内存 · <function>`, groups `<type> #<n>`, links `<label> → <type> #<n>`); the
reader's frame choice kept in the link; screenshots under test-artifacts/screenshots/ (desktop, 375 px,
dark)."""
from __future__ import annotations

import re
from pathlib import Path

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
        region = memory(widget)
        expect(region.locator(".mem-arrows > path").first).to_be_attached()
        if name == "phone":   # stacked: nothing wider than the screen
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        region.screenshot(path=SCREENSHOTS / f"memory-trim_results-{name}.png", animations="disabled")
