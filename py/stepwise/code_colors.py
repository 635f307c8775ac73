"""The shown code's token colours (Pygments), made readable on every background a code line can have.

A line of code sits on the panel, on the paused line's yellow, on a caller's blue, or on a setup box:
the colours site/css/site.css gives `--panel`, `--panel-2`, `--current` and `--caller`, in light and dark
themes. Pygments' own styles fall short of WCAG AA (4.5:1) on some of these (the default style's
`#A2F` operator words on the paused line: 4.2:1), so each token colour is moved toward black (light
theme) or white (dark) by the least that reaches AA on all of them. The backgrounds are read from the
stylesheet itself: one place says what they are.
"""
from __future__ import annotations

import re

from pygments.formatters import HtmlFormatter

AA = 4.5
BACKGROUNDS = ("--panel", "--panel-2", "--current", "--caller")


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two #rgb / #rrggbb colours."""
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def theme_backgrounds(stylesheet: str) -> dict[str, list[str]]:
    """The code backgrounds of the light theme (the first `:root`) and of the dark one (the `:root` inside
    `prefers-color-scheme: dark`), as colours."""
    light = re.search(r":root\s*\{(.*?)\}", stylesheet, re.S)
    dark = re.search(r"prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{(.*?)\}", stylesheet, re.S)
    if not light or not dark:
        raise ValueError("site.css: expected a :root block and a dark-mode :root block that set the theme colours")
    themes = {}
    for name, block in (("light", light.group(1)), ("dark", dark.group(1))):
        found = dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})\b", block))
        missing = [key for key in BACKGROUNDS if key not in found and name == "light"]
        if missing:
            raise ValueError(f"site.css: the {name} theme sets no {', '.join(missing)}")
        # The dark theme inherits what it does not set again.
        themes[name] = [found.get(key) or themes["light"][BACKGROUNDS.index(key)] for key in BACKGROUNDS]
    return themes


def readable_css(style: str, selector: str, backgrounds: list[str], toward: str) -> str:
    """Pygments' CSS for `style` under `selector`, every token colour moved toward `toward` (#000000 or
    #ffffff) until it reaches AA on each of `backgrounds`."""
    css = HtmlFormatter(style=style).get_style_defs(selector)

    def fix(match: re.Match) -> str:
        return match.group(1) + _readable(match.group(2), backgrounds, toward)

    # Foreground colours only (`color:`), not backgrounds (a highlighted line's, an error token's).
    return re.sub(r"((?<![-\w])color:\s*)(#[0-9a-fA-F]{3,6})\b", fix, css)


def _readable(colour: str, backgrounds: list[str], toward: str) -> str:
    for step in range(21):
        mixed = _mix(colour, toward, step / 20)
        if min(contrast(mixed, background) for background in backgrounds) >= AA:
            return colour if step == 0 else mixed
    return toward


def _rgb(colour: str) -> tuple[int, int, int]:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def _mix(colour: str, toward: str, share: float) -> str:
    mixed = [round(a + (b - a) * share) for a, b in zip(_rgb(colour), _rgb(toward), strict=True)]
    return "#" + "".join(f"{channel:02x}" for channel in mixed)


def _luminance(colour: str) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = map(linear, _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
