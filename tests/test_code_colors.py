"""The shown code's token colours reach WCAG AA on every background site.css gives a code line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pygments.formatters import HtmlFormatter

from stepwise import code_colors

FOREGROUND = r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})\b"
SITE_CSS = (Path(__file__).resolve().parents[1] / "site" / "css" / "site.css").read_text(encoding="utf-8")


@pytest.mark.parametrize(("theme", "style", "toward"), [("light", "default", "#000000"),
                                                        ("dark", "github-dark", "#ffffff")])
def test_every_token_colour_reaches_aa_on_every_code_background(theme, style, toward):
    backgrounds = code_colors.theme_backgrounds(SITE_CSS)[theme]
    assert len(backgrounds) == 4
    css = code_colors.readable_css(style, ".code", backgrounds, toward)
    colours = re.findall(FOREGROUND, css)
    assert len(colours) > 20
    worst = min((code_colors.contrast(c, b), c, b) for c in colours for b in backgrounds)
    assert worst[0] >= code_colors.AA, worst
    # Only what fell short moved, by the least that reaches AA: most colours stay Pygments' own.
    original = re.findall(FOREGROUND, HtmlFormatter(style=style).get_style_defs(".code"))
    kept = sum(a == b for a, b in zip(original, colours, strict=True))
    assert 0 < len(colours) - kept < len(colours) // 2, (kept, len(colours))


def test_a_stylesheet_without_the_theme_blocks_is_refused_with_what_to_write():
    with pytest.raises(ValueError, match="dark-mode :root"):
        code_colors.theme_backgrounds(":root { --panel: #fff; }")
    with pytest.raises(ValueError, match="sets no --current"):
        code_colors.theme_backgrounds(":root { --panel: #fff; --panel-2: #eee; --caller: #ddd; }\n"
                                      "@media (prefers-color-scheme: dark) { :root { --panel: #000; } }")
