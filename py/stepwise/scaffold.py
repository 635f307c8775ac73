"""`stepwise new <slug>`: a lesson that builds at once, to grow into the author's own.

It is docs/authoring.md's complete small lesson (a test holds the two equal) with the slug put into its
paths: a source file with one function, a scenario file with two cases (one raising, declared), its setup,
lesson.toml and the zh/en prose. Nothing is overwritten.
"""
from __future__ import annotations

import keyword
import re
import sys
from pathlib import Path

SLUG = re.compile(r"^[a-z][a-z0-9_]*$")

SOURCE = '''\
def tally(words):
    """Count each word; the first time a word is seen it gets a new entry."""
    counts = {}
    for word in words:
        if not word:
            raise ValueError("an empty word")
        counts[word] = counts.get(word, 0) + 1
    return counts
'''

SETUP = '''\
from {slug}.core.tally import tally

words = {{"short": ["a", "b", "a"], "empty": ["a", ""]}}[scenario]
'''

SCENARIOS = '''\
lesson = "{slug}"
source = "py/{slug}/core/tally.py"
module = "{slug}.core.tally"
setup = "{slug}/setup.py"

[cases]
short = {{ zh = "三个词", en = "Three words" }}
empty = {{ zh = "空词", en = "An empty word" }}

[[functions]]
name = "tally"
cases = ["short", "empty"]
entry = """
try:
    print(tally(words))
except ValueError as error:
    print("refused:", error)
"""
outcomes.empty = {{ raises = "ValueError", prints = "refused: an empty word" }}
stages = [
  {{ start = "counts = {{}}", zh = "从空表开始。", en = "Start from an empty table." }},
  {{ start = "return counts", zh = "交回计数。", en = "Hand back the counts." }},
]
'''

LESSON = '''\
scenarios = "scenarios/{slug}.toml"
summary_zh = "数词：一个字典如何一步步长大。"
summary_en = "Counting words: how a dict grows step by step."
'''

PROSE = {
    "zh": "# 数词\n\n每个新词在字典里得到一个新条目：\n\n```debugger\ntally\n```\n",
    "en": "# Counting words\n\nEach new word gets a new entry in the dict:\n\n```debugger\ntally\n```\n",
}


def files(slug: str) -> dict[str, str]:
    """The new lesson's files: path (from the course's root) -> text."""
    return {
        f"py/{slug}/__init__.py": "",
        f"py/{slug}/core/__init__.py": "",
        f"py/{slug}/core/tally.py": SOURCE,
        f"scenarios/{slug}/setup.py": SETUP.format(slug=slug),
        f"scenarios/{slug}.toml": SCENARIOS.format(slug=slug),
        f"lessons/{slug}/lesson.toml": LESSON.format(slug=slug),
        f"lessons/{slug}/lesson.zh.md": PROSE["zh"],
        f"lessons/{slug}/lesson.en.md": PROSE["en"],
    }


class ScaffoldError(Exception):
    """A slug that is no name, or files that are already there."""


def scaffold(slug: str, root: Path) -> list[Path]:
    """Write the new lesson under `root`; return the files written. Refuses to overwrite anything."""
    if not SLUG.match(slug) or keyword.iskeyword(slug):
        raise ScaffoldError(f"{slug!r} is not a lesson slug: lower_snake_case, starting with a letter, not a "
                            "Python keyword (e.g. week3)")
    if slug in sys.stdlib_module_names or slug in ("steptrace", "stepwise"):
        raise ScaffoldError(f"{slug!r} is the name of a module the lesson's Python imports; its package would "
                            "hide that module: pick another slug (e.g. week3)")
    planned = {root / path: text for path, text in files(slug).items()}
    present = [path for path in planned if path.exists()]
    if present or (root / "py" / slug).exists():
        raise ScaffoldError(f"{present[0] if present else root / 'py' / slug} already exists; pick another slug")
    for path, text in planned.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(planned)
