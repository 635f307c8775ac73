"""Two cases side by side (issue 34 item 4), on the s08 lesson: split_history's `normal` and `mismatch` take
the same path until the ID check, where one goes on and the other raises; the page says at which step and
where each goes, goes there, and from there shows the second case at the step the first is on. The routes
lesson's part is in test_lessons.py."""
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


def test_normal_and_mismatch_part_at_the_id_check(lesson):
    widget = Widget(lesson.page, "split_history")
    widget.reset("normal")
    pick = widget.root.get_by_role("combobox", name="和哪个输入对比")
    pane = widget.root.get_by_role("group", name="对比", exact=True)
    expect(pick.locator("option")).to_have_text(["（不对比）", "缺少结果", "ID不符", "一组多调用"])
    pick.select_option("mismatch")
    expect(pane).to_contain_text("对比：正常 ↔ ID不符")
    check = line_of("if any(type(i) is not str for i in found)")
    raises = line_of("raise ValueError('每个工具请求必须有且只有一个同ID结果。')")
    parting = pane.locator(".compare-parting")
    expect(parting).to_contain_text(re.compile(rf"在第\d+步分开：正常 到第\d+行，ID不符 到第{raises}行。"))
    step = int(re.search(r"在第(\d+)步", parting.inner_text()).group(1))
    expect(pane).to_contain_text("那一步值不同的变量：")
    pane.get_by_role("button", name="到分开处").click()
    expect(widget.root.locator(".step-count")).to_contain_text(f"第 {step} /")
    # The other case is at the same step: its line is outlined in the code and named in the pane.
    expect(pane).to_contain_text(f"ID不符 的第{step}步：第{raises}行（checked_exchange）")
    expect(widget.root.locator(".dbg-code .line.compare-line")).to_have_attribute("data-line", str(raises))
    # A step back: both are on the ID check, at the same step.
    widget.press("back")
    expect(widget.current_lines).to_have_attribute("data-line", str(check))
    back = int(re.search(r"第 ([\d,]+) /", widget.root.locator(".step-count").inner_text()).group(1))
    assert back < step
    expect(pane).to_contain_text(f"ID不符 的第{back}步：第{check}行（checked_exchange）")
    expect(widget.root.locator(".dbg-code .line.compare-line")).to_have_attribute("data-line", str(check))
    expect(pane.get_by_role("term").filter(has_text="found")).to_have_text("found (与另一条不同)")
    # The same case cannot be the second; no comparison hides the pane.
    widget.select("mismatch")
    expect(pick).to_have_value("")
    expect(pane).to_be_hidden()
    expect(pick.locator("option")).to_have_text(["（不对比）", "正常", "缺少结果", "一组多调用"])
