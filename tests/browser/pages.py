"""Finding the lesson page's controls the way a reader names them (by role and accessible name)."""
from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

PATH = "s08/core/runtime.py"
RECEIPT = re.compile(r"context-[0-9a-f]{12}\.jsonl")
LONG = 30_000  # ms: a first run may wait for Python's boot

ZH = {"run": "运行", "debug": "调试", "continue": "继续", "over": "单步", "into": "步入", "out": "步出",
      "back": "后退", "rinto": "反向步入", "rcontinue": "反向继续", "stop": "停止", "scenario": "输入",
      "not_run": "未运行", "finished": "已完成", "error": "出错", "timeline": "时间线"}
EN = {"run": "Run", "debug": "Debug", "continue": "Continue", "over": "Step over", "into": "Step into",
      "out": "Step out", "back": "Step back", "rinto": "Reverse step into", "rcontinue": "Reverse continue",
      "stop": "Stop", "scenario": "Scenario", "not_run": "Not run",
      "finished": "Finished", "error": "Error", "timeline": "Timeline"}


def paused_zh(line: int) -> str:
    return f"已暂停 第{line}行"


def paused_en(line: int) -> str:
    return f"Paused at line {line}"


class Widget:
    """One debugger region, found by its accessible name."""

    def __init__(self, page: Page, function: str, words: dict = ZH, path: str = PATH):
        self.page = page
        self.function = function
        self.words = words
        self.root = page.get_by_role("region", name=f"{path} · {function}", exact=True)

    # controls
    def button(self, action: str) -> Locator:
        return self.root.get_by_role("button", name=self.words[action], exact=True)

    def bp(self, line: int) -> Locator:
        name = f"断点 第{line}行" if self.words is ZH else f"Breakpoint line {line}"
        return self.root.get_by_role("button", name=name, exact=True)

    def condition(self, line: int) -> Locator:
        name = f"条件 第{line}行" if self.words is ZH else f"Condition line {line}"
        return self.root.get_by_role("textbox", name=name, exact=True)

    def hit_count(self, line: int) -> Locator:
        name = f"命中次数 第{line}行" if self.words is ZH else f"Hit count line {line}"
        return self.root.get_by_role("spinbutton", name=name, exact=True)

    def enter(self, box: Locator, text: str) -> None:
        """Type into a breakpoint's condition or hit-count box and commit it, as a reader does."""
        box.fill(text)
        box.press("Enter")

    @property
    def picker(self) -> Locator:
        return self.root.get_by_role("combobox", name=self.words["scenario"], exact=True)

    @property
    def status(self) -> Locator:
        return self.root.get_by_role("status")

    @property
    def stdout(self) -> Locator:
        return self.root.locator(".stdout")

    @property
    def error_message(self) -> Locator:
        return self.root.locator(".error-message")

    @property
    def variables(self) -> Locator:
        return self.root.locator(".vars-body")

    @property
    def current_lines(self) -> Locator:
        """The shown function's lines marked as the paused step (not a helper's)."""
        return self.root.locator(".dbg-code > .code .line[aria-current=step]")

    # actions
    def select(self, case: str) -> None:
        self.picker.select_option(case)
        expect(self.picker).to_have_value(case)
        expect(self.status).to_have_text(self.words["not_run"])

    def show_panel(self, name: str) -> None:
        """A phone shows one panel at a time: pick `name`'s tab (a wider screen shows every panel, no tabs)."""
        tab = self.root.get_by_role("tab", name=name, exact=True)
        if tab.is_visible():
            tab.click()
            expect(tab).to_have_attribute("aria-selected", "true")

    def press(self, action: str) -> None:
        self.button(action).click()

    def pause_at(self, case: str, line: int) -> None:
        """A clean `case`, a breakpoint on `line`, Debug: paused there."""
        self.reset(case)
        self.bp(line).click()
        self.press("debug")
        self.expect_paused(line)

    def expect_paused(self, line: int) -> None:
        text = paused_zh(line) if self.words is ZH else paused_en(line)
        expect(self.status).to_have_text(text, timeout=LONG)
        expect(self.current_lines).to_have_count(1)
        expect(self.current_lines).to_have_attribute("data-line", str(line))

    def expect_paused_in_helper(self, line: int, function: str) -> None:
        """Paused inside a function the shown one called: the code pane shows that function, its line marked."""
        expect(self.status).to_have_text(paused_zh(line), timeout=LONG)
        current = self.root.locator(".dbg-code .line[aria-current=step]")
        expect(current).to_have_attribute("data-line", str(line))
        expect(current).to_be_visible()
        expect(self.root.locator(".code-caption")).to_contain_text(function)

    def expect_finished(self) -> None:
        expect(self.status).to_have_text(self.words["finished"], timeout=LONG)

    def snapshot(self) -> dict:
        """What a reader sees of the current step: status, marked line, variables, stack, output.

        Archive receipts are random (uuid4) per run, so they read as RECEIPT here.
        """
        shown = self.root.evaluate("""root => ({
            status: root.querySelector('[role=status]').textContent,
            line: root.querySelector('.dbg-code > .code .line[aria-current=step]')?.dataset.line ?? null,
            vars: root.querySelector('.vars-body').innerHTML,
            stack: root.querySelector('.frames').innerText,
            stdout: root.querySelector('.stdout').textContent,
            stage: root.querySelector('.stages li[aria-current=step]')?.dataset.line ?? null,
        })""")
        return {key: RECEIPT.sub("RECEIPT", value) if isinstance(value, str) else value
                for key, value in shown.items()}

    def pressed_breakpoints(self) -> list[int]:
        return self.root.evaluate("""root => [...root.querySelectorAll('.dbg-code > .code button.bp')]
            .filter(b => b.getAttribute('aria-pressed') === 'true').map(b => +b.dataset.line)""")

    def reset(self, case: str) -> None:
        """Back to a clean state on `case` (switching away and back clears breakpoints and replay)."""
        others = [v for v in self.root.locator("select[name=scenario] option").evaluate_all(
            "options => options.map(o => o.value)") if v != case]
        self.picker.select_option(others[0])
        self.select(case)


def differences(left: dict, right: dict) -> str:
    """Short description of how two snapshots differ (the first differing spot of each key)."""
    out = []
    for key in sorted(set(left) | set(right)):
        a, b = str(left.get(key)), str(right.get(key))
        if a == b:
            continue
        at = next((n for n, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        out.append(f"{key}: …{a[max(0, at - 80):at + 120]!r}\n   vs …{b[max(0, at - 80):at + 120]!r}")
    return "\n".join(out)


def shared_link(page: Page) -> str:
    """The page's shareable link (its fragment), once the write the page defers past the paint landed."""
    return page.evaluate("async () => { await stepwise.linkSettled(); return location.hash; }")
