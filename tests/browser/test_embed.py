"""Embed anywhere (issue 32): a debugger's own page in an <iframe> of another site. A host page served from
another origin (and with no COOP/COEP) frames two debuggers; each runs, breaks and steps on its own, and
the optional host script sizes each frame to its content."""
from __future__ import annotations

import functools
import http.server
import re
import threading

import pytest
from conftest import region_name
from pages import LONG, Widget
from playwright.sync_api import expect


@pytest.fixture
def host(tmp_path, server):
    """`http://localhost:<port>/host.html`: another origin than the site's (127.0.0.1), framing two debuggers."""
    (tmp_path / "host.html").write_text(f"""<!doctype html><meta charset=utf-8><title>A course blog</title>
<h1>Week 8</h1>
<iframe src="{server}/s08/embed/split_history.html#case=pending" title="split_history · Stepwise"
        style="width: 100%; height: 760px; border: 0"></iframe>
<p>And the next one:</p>
<iframe src="{server}/s08/embed/trim_results.html#lang=en" title="trim_results · Stepwise"
        style="width: 100%; height: 760px; border: 0"></iframe>
<script src="{server}/assets/js/embed-host.js" async></script>
""", encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://localhost:{httpd.server_address[1]}/host.html"
    httpd.shutdown()


def test_two_debuggers_embedded_in_another_sites_page(chromium, host):
    context = chromium.new_context(viewport={"width": 1100, "height": 900}, service_workers="block")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(host)
        first = Widget(page.frame_locator("iframe[title^=split_history]"), "split_history")
        expect(first.picker).to_have_value("pending")      # the link's case
        expect(first.root).to_have_attribute("aria-label", region_name("split_history"))
        # Each frame shows its one debugger only, and runs on its own.
        expect(page.frame_locator("iframe[title^=split_history]").locator("section.debugger")).to_have_count(1)
        first.press("run")
        expect(first.status).to_have_text("已完成", timeout=LONG)
        first.bp(42).click()      # pending: an exchange lacks its result, so line 43 raises
        first.press("debug")
        expect(first.status).to_have_text(re.compile(r"^已暂停 第42行"), timeout=LONG)
        first.press("over")
        expect(first.status).to_have_text(re.compile(r"^已暂停 第43行"))
        # The second frame is in English (its link says so) and runs while the first is paused.
        run = page.frame_locator("iframe[title^=trim_results]").get_by_role("button", name="Run", exact=True)
        run.click()
        expect(page.frame_locator("iframe[title^=trim_results]").get_by_role("status").first).to_have_text(
            "Finished", timeout=LONG)
        # The host script sized each frame to its page (not the snippet's 760 px).
        for title in ("split_history", "trim_results"):
            frame = page.locator(f"iframe[title^={title}]")
            expect(frame).not_to_have_attribute("style", re.compile(r"height: 760px"))
            height = frame.evaluate("f => f.getBoundingClientRect().height")
            inner = page.frame_locator(f"iframe[title^={title}]").locator("body").evaluate(
                "b => b.getBoundingClientRect().bottom + parseFloat(getComputedStyle(b).marginBottom)")
            assert abs(height - inner) <= 2, (title, height, inner)
        # A frame follows its page down as well as up: the setup's details opened, then closed again.
        framed = page.frame_locator("iframe[title^=split_history]")
        before = page.locator("iframe[title^=split_history]").evaluate("f => f.getBoundingClientRect().height")
        framed.locator("details.setup > summary").click()           # open: taller
        page.wait_for_function("([h]) => document.querySelector('iframe[title^=split_history]')"
                               ".getBoundingClientRect().height > h + 50", arg=[before])
        framed.locator("details.setup > summary").click()           # closed again: back down
        page.wait_for_function("([h]) => document.querySelector('iframe[title^=split_history]')"
                               ".getBoundingClientRect().height < h + 5", arg=[before])
        assert errors == []
    finally:
        context.close()


def test_the_embed_button_gives_a_snippet_of_this_state(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.pause_at("normal", 46)
    widget.root.get_by_role("button", name="嵌入代码", exact=True).click()
    box = widget.root.get_by_role("textbox", name="嵌入代码（iframe）", exact=True)
    expect(box).to_be_visible()
    snippet = box.input_value()
    match = re.match(r'<iframe src="([^"]+)" title="([^"]+)" loading="lazy" style="[^"]+"></iframe>\n'
                     r'<script src="([^"]+)/assets/js/embed-host\.js" async></script>$', snippet)
    assert match, snippet
    src, title, _ = match.groups()
    assert "/s08/embed/split_history.html#" in src and "case=normal" in src and "bp=46" in src
    assert re.search(r"step=\d+", src.replace("&amp;", "&"))
    assert title == f"{region_name('split_history')} · Stepwise"
    # Opened, the embed page restores that state: paused on line 46.
    page = lesson.context.new_page()
    try:
        page.goto(src.replace("&amp;", "&"))
        embedded = Widget(page, "split_history")
        expect(embedded.status).to_have_text(re.compile(r"^已暂停 第46行"), timeout=LONG)
    finally:
        page.close()


def test_a_link_chooses_the_theme(open_page, server):
    """theme=dark on a light system (an embed matching a dark host page), and theme=light on a dark one."""
    dark = open_page("f=split_history&theme=dark", color_scheme="light").page
    light = open_page("f=split_history&theme=light", color_scheme="dark").page
    background = "() => getComputedStyle(document.body).backgroundColor"
    assert dark.evaluate(background) == "rgb(20, 22, 26)"      # --bg of the dark theme, #14161a
    assert light.evaluate(background) == "rgb(251, 250, 247)"  # --bg of the light theme, #fbfaf7
    system = open_page("f=split_history", color_scheme="dark").page
    assert system.evaluate(background) == "rgb(20, 22, 26)"
