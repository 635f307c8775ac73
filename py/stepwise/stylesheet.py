"""The site's one stylesheet: site/css/site.css, with the code's token colours (AA on every code
background, stepwise.code_colors) and a theme a link may choose over the system's."""
from __future__ import annotations

import re

from . import assets, code_colors

DARK = "@media (prefers-color-scheme: dark) {"


def themed(css: str) -> str:
    """The stylesheet with a theme a link may choose (`theme=dark|light`, on `<html data-theme>`) over the
    system's: each dark block is kept for the system's choice unless the page asks for light, and its
    rules are repeated for a page that asks for dark. The blocks hold plain rules (no nesting)."""
    out, rest = [], css
    while DARK in rest:
        before, _, after = rest.partition(DARK)
        depth, end = 1, 0
        while depth:
            depth += {"{": 1, "}": -1}.get(after[end], 0)
            end += 1
        body, rest = after[:end - 1], after[end:]
        out += [before, DARK, _scoped(body, ':not([data-theme="light"])'), "}\n",
                _scoped(body, '[data-theme="dark"]')]
    out.append(rest)
    out.append('\n:root[data-theme="dark"] { color-scheme: dark; }\n'
               ':root[data-theme="light"] { color-scheme: light; }\n')
    return "".join(out)


def _scoped(rules: str, theme: str) -> str:
    """Each rule of `rules` with every selector under `:root` with `theme` (`:root` itself gains it). Under
    `:where(...)`, which adds nothing to a selector's specificity: a rule outside the dark block that
    overrode it (`.setup pre.code` over `.code`) still does."""
    def scope(selector: str) -> str:
        selector = selector.strip()
        if selector.startswith(":root"):
            return f":root{theme}{selector[len(':root'):]}"
        return f":where(:root{theme}) {selector}"
    return "".join(f"{', '.join(scope(s) for s in head.split(','))} {{{body}}}\n"
                   for head, body in re.findall(r"([^{}]+)\{([^{}]*)\}", rules))


def pygments_css() -> str:
    """The code's token colours, AA on every background a code line has (stepwise.code_colors)."""
    backgrounds = code_colors.theme_backgrounds((assets.SITE / "css" / "site.css").read_text(encoding="utf-8"))
    light = code_colors.readable_css("default", ".code", backgrounds["light"], "#000000")
    dark = code_colors.readable_css("github-dark", ".code", backgrounds["dark"], "#ffffff")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"
