"""What an author pins to a line or a stage of a shown function: step notes and predict-mode questions.

A scenario entry may list

    notes = [{ line = "cut = ", zh = "...", en = "..." },            # shown while the cursor is on that line
             { stage = "return {", zh = "...", en = "..." }]         # ... anywhere in that stage
    questions = [{ line = "cut = ", zh = "...", en = "...",          # asked there in predict mode, before the
                   explain = { zh = "...", en = "..." } }]           # line runs; the explanation after the guess

`line` is the unique start of one line of the function, as a stage's `start` is; `stage` names a stage by
its `start`. Pins are checked when the scenario file loads, so a note that would never show is an error
with its line, not a silent absence in the page.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .targets import Target


@dataclass(frozen=True)
class Pin:
    line: int                  # the line of the shown source it is pinned to (a stage's: its first line)
    zh: str
    en: str
    stage: bool = False        # pinned to the stage that starts at `line` (a note then shows in all of it)
    explain: dict[str, str] | None = None   # a question's explanation, shown after the reader's guess

    def for_page(self) -> dict:
        data: dict = {"line": self.line, "zh": self.zh, "en": self.en}
        if self.stage:
            data["stage"] = True
        if self.explain:
            data["explain"] = self.explain
        return data


def unique_line(start: str, node: Target, lines: Sequence[str]) -> int | str:
    """The one line of the function `node` whose text starts with `start`; else what is wrong, in words."""
    hits = [n for n in range(node.first, node.last + 1) if lines[n - 1].strip().startswith(start)]
    if len(hits) == 1:
        return hits[0]
    return "matches no line" if not hits else f"matches lines {hits}"


def read_pins(raw: object, key: str, *, function: str, node: Target, lines: Sequence[str], stages: dict[str, int],
              line_of: Callable[[str], int | None], fail: Callable[[int | None, str], Exception],
              source_name: str) -> list[Pin]:
    """The `notes` or `questions` (`key`) of one [[functions]] entry, checked. `stages` maps each stage's
    start to its line; `line_of(regex)` finds a line in the entry; `fail(line, message)` makes the error."""
    if raw is None:
        return []
    shape = ('{ line = "start of a line", zh = "...", en = "..." }' if key == "notes" else
             '{ line = "start of a line", zh = "...", en = "...", explain = { zh = "...", en = "..." } }')
    if not isinstance(raw, list):
        raise fail(line_of(rf"^\s*{key}\s*="), f"`{key}` of {function!r} must be a list of {shape}")
    pins = []
    for item in raw:
        where = line_of(rf"^\s*{key}\s*=")
        if not isinstance(item, dict) or ("line" in item) == ("stage" in item):
            raise fail(where, f"each of the {key} of {function!r} needs either `line` or `stage`: {shape}")
        anchor = item.get("line", item.get("stage"))
        if isinstance(anchor, str) and anchor:
            where = line_of(rf"\b(line|stage)\s*=\s*[\"']{re.escape(anchor)}") or where
        allowed = {"line", "stage", "zh", "en"} | ({"explain"} if key == "questions" else set())
        unknown = sorted(set(item) - allowed)
        if unknown:
            raise fail(where, f"a pin in `{key}` of {function!r} has unknown key(s) {', '.join(unknown)}; "
                              f"it takes {', '.join(sorted(allowed))}")
        if not isinstance(anchor, str) or not anchor:
            raise fail(where, f"`line`/`stage` of a pin in `{key}` of {function!r} must be a non-empty string")
        text = _text(item, f"a pin in `{key}` of {function!r}", where, fail)
        if "stage" in item:
            if anchor not in stages:
                raise fail(where, f"{key[:-1]} pinned to stage {anchor!r} of {function!r}, which is not one of its "
                                  f"stages ({', '.join(map(repr, stages)) or 'it has none'}); use a stage's `start`")
            line = stages[anchor]
        else:
            found = unique_line(anchor, node, lines)
            if isinstance(found, str):
                raise fail(where, f"{key[:-1]} line {anchor!r} {found} of {function}() in {source_name}; "
                                  "make it the unique start of one line")
            line = found
        explain = _text(item["explain"], f"the `explain` of a question of {function!r}", where, fail) \
            if "explain" in item else None
        pins.append(Pin(line, text["zh"], text["en"], "stage" in item, explain))
    return pins


def _text(value: object, what: str, where: int | None, fail: Callable[[int | None, str], Exception]) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(value.get(k), str) and value[k].strip() for k in ("zh", "en")):
        raise fail(where, f'{what} needs non-empty text for both zh and en, e.g. {{ zh = "...", en = "..." }}')
    return {"zh": value["zh"], "en": value["en"]}
