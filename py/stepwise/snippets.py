"""A real file's lines as a page shows them: highlighted by Pygments, one HTML string per line, with the
real line numbers and the span of the function, method or class a widget names."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES

from . import targets
from .course import BuildError

# Token classes drawn in the default text colour: no span needed.
PLAIN_TOKENS = {"", "w", "n", "p", "nx"}


def code_lines(text: str) -> list[Markup]:
    """Highlight Python into one HTML string per source line (tokens split at newlines)."""
    lines: list[list[tuple[str, str]]] = [[]]
    for token, value in PythonLexer(stripnl=False, ensurenl=False).get_tokens(text):
        css = STANDARD_TYPES.get(token) or STANDARD_TYPES.get(token.parent, "")
        css = "" if css in PLAIN_TOKENS else css
        for number, piece in enumerate(value.split("\n")):
            if number:
                lines.append([])
            if not piece:
                continue
            if lines[-1] and lines[-1][-1][0] == css:  # merge neighbours: fewer spans, lighter pages
                lines[-1][-1] = (css, lines[-1][-1][1] + piece)
            else:
                lines[-1].append((css, piece))
    if text.endswith("\n"):
        lines.pop()
    return [Markup("".join(f'<span class="{css}">{escape(piece)}</span>' if css else str(escape(piece))
                           for css, piece in parts)) for parts in lines]


@dataclass
class Snippet:
    """Lines of a real file, highlighted, with real line numbers; `shown` is the target's span
    (the rest is rendered hidden, so a debugger can follow execution anywhere in the file)."""
    name: str
    first: int
    lines: list[Markup]
    shown: tuple[int, int] = (0, 0)

    @property
    def numbered(self) -> list[tuple[int, Markup]]:
        return list(enumerate(self.lines, self.first))


def find_target(path: Path, name: str, where: str) -> targets.Target:
    found = targets.targets(ast.parse(path.read_text(encoding="utf-8")))
    if name not in found:
        raise BuildError(f"{where}: {path.name} defines no function, class or method {name!r}; "
                         f"it has {', '.join(found) or 'none'}")
    return found[name]


def function_snippet(path: Path, name: str, where: str) -> Snippet:
    """The lines of one function, method or class."""
    target = find_target(path, name, where)
    highlighted = code_lines(path.read_text(encoding="utf-8"))
    return Snippet(name, target.first, highlighted[target.first - 1:target.last], (target.first, target.last))


def file_snippet(path: Path, name: str, where: str) -> Snippet:
    """The whole file, with `name`'s span as the part shown first."""
    target = find_target(path, name, where)
    return Snippet(name, 1, code_lines(path.read_text(encoding="utf-8")), (target.first, target.last))
