"""A lesson folder read and checked: lesson.toml, its scenario file (stepwise.scenario) and the zh/en
prose, whose fenced ```debugger and ```source blocks become widgets."""
from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from . import assets, targets
from . import scenario as scenarios
from .course import BuildError, Course
from .snippets import Snippet, file_snippet, function_snippet

LANGS = ("zh", "en")


@dataclass
class Lesson:
    slug: str
    title: dict[str, str]
    summary: dict[str, str]
    scenarios: scenarios.Scenarios
    # Per language, alternating prose HTML and widget specs (same widgets in both).
    parts: dict[str, list] = field(default_factory=dict)
    widgets: list[dict] = field(default_factory=list)
    # Every top-level function and class of the shown source, for the "helpers" part of each setup section.
    functions: list[Snippet] = field(default_factory=list)
    # [first, last] of every definition in the shown source: what the code pane shows around a frame.
    spans: list[list] = field(default_factory=list)   # [first, last, name] (stepwise.targets.spans)
    # (function, case) -> its trace recorded by the build in Pyodide (JSON text).
    traces: dict[tuple[str, str], str] = field(default_factory=dict)
    # What the page's worker writes into Python's file system, as served -> the file on disk (worker_files).
    files: dict[str, Path] = field(default_factory=dict)


def markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    return md


def split_prose(path: Path) -> tuple[str, list[tuple[str, str]], list[str]]:
    """Return (title, widgets [(kind, arg)], prose chunks between them) of one lesson file."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise BuildError(f"{path}:1: a lesson starts with `# Title`")
    title = lines[0][2:].strip()
    chunks, widgets, current, number = [], [], [], 1
    while number < len(lines):
        line = lines[number]
        if line.strip() in ("```debugger", "```source"):
            kind = line.strip()[3:]
            body = []
            number += 1
            while number < len(lines) and lines[number].strip() != "```":
                body.append(lines[number].strip())
                number += 1
            if number == len(lines):
                raise BuildError(f"{path}:{number}: the ```{kind} block is not closed with ```")
            arg = " ".join(b for b in body if b)
            if not arg:
                raise BuildError(f"{path}:{number}: the ```{kind} block is empty; name what it shows")
            widgets.append((kind, arg, number))
            chunks.append("\n".join(current))
            current = []
        else:
            current.append(line)
        number += 1
    chunks.append("\n".join(current))
    return title, widgets, chunks


LESSON_KEYS = {"scenarios": "the scenario file's path from the course's root, one string: one source file per lesson",
               "summary_zh": "the index page's one-line summary in Chinese",
               "summary_en": "the index page's one-line summary in English"}


def load_lesson(folder: Path, course: Course) -> Lesson:
    """One lesson folder, checked: every mistake is a BuildError naming its file and line."""
    meta_path = folder / "lesson.toml"
    try:
        meta = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BuildError(f"{meta_path}: {error}") from None
    unknown = sorted(set(meta) - set(LESSON_KEYS))
    if unknown:
        line = next((n for n, text in enumerate(meta_path.read_text(encoding="utf-8").splitlines(), 1)
                     if re.match(rf"\s*{re.escape(unknown[0])}\s*=", text)), None)
        raise BuildError(f"{meta_path}{f':{line}' if line else ''}: unknown key {unknown[0]!r}; lesson.toml takes "
                         + "; ".join(f"`{key}` ({what})" for key, what in LESSON_KEYS.items()))
    if isinstance(meta.get("scenarios"), list):
        raise BuildError(f"{meta_path}: `scenarios` is a list; a lesson shows one source file, so it names one "
                         "scenario file (a string). Put each further file in a lesson of its own.")
    for key in LESSON_KEYS:
        if not isinstance(meta.get(key), str):
            raise BuildError(f"{meta_path}: missing `{key}` ({LESSON_KEYS[key]})")
    try:
        data = scenarios.load(course.path(meta["scenarios"]), course.root)
    except scenarios.ScenarioError as error:
        raise BuildError(str(error)) from None
    lesson = Lesson(folder.name, {}, {"zh": meta["summary_zh"], "en": meta["summary_en"]}, data)
    source = course.path(data.source)
    tree = ast.parse(source.read_text("utf-8"))
    lesson.functions = [function_snippet(source, node.name, str(meta_path))
                        for node in tree.body if isinstance(node, targets.DEFINITIONS)]
    lesson.spans = targets.spans(tree)
    lesson.files = worker_files(data.source, course)
    md = markdown()
    reference = None
    for lang in LANGS:
        path = folder / f"lesson.{lang}.md"
        if not path.is_file():
            raise BuildError(f"{path}: missing; every lesson needs lesson.zh.md and lesson.en.md")
        title, widgets, chunks = split_prose(path)
        lesson.title[lang] = title
        plain = [(kind, arg) for kind, arg, _ in widgets]
        if reference is None:
            reference = (path, plain)
            lesson.widgets = [widget_spec(kind, arg, data, f"{path}:{line}", course) for kind, arg, line in widgets]
        elif plain != reference[1]:
            raise BuildError(f"{path}: its widget blocks {plain} differ from {reference[0].name}'s "
                             f"{reference[1]}; both languages need the same blocks in the same order")
        lesson.parts[lang] = [Markup(md.render(chunk)) for chunk in chunks]
    return lesson


def worker_files(source: str, course: Course) -> dict[str, Path]:
    """What the worker loads for a lesson: its source, the `__init__` files of the packages above it (from
    the course), and the recorder (from stepwise.assets), each at the path the site serves it at."""
    files = {source: course.path(source)}
    for parent in Path(source).parents:
        init = (parent / "__init__.py").as_posix()
        if course.path(init).is_file():
            files[init] = course.path(init)
    own = assets.worker_python()
    clash = sorted(set(files) & set(own))
    if clash:
        raise BuildError(f"{course.named(course.path(clash[0]))}: the course has a file where the site serves "
                         "Stepwise's recorder; rename its package")
    return dict(sorted({**files, **own}.items()))


def widget_spec(kind: str, arg: str, data: scenarios.Scenarios, where: str, course: Course) -> dict:
    """What one ```debugger or ```source block of the prose shows."""
    if kind == "debugger":
        if arg not in data.functions:
            raise BuildError(f"{where}: unknown function {arg!r} in ```debugger; "
                             f"{data.path.name} has {', '.join(data.functions)}")
        spec = data.functions[arg]
        source = course.path(data.source)
        return {"kind": "debugger", "function": arg, "spec": spec, "snippet": file_snippet(source, arg, where),
                "title": f"{data.source.removeprefix('py/')} · {arg}"}
    parts = arg.split()
    if len(parts) != 2:
        raise BuildError(f"{where}: a ```source block holds `<path> <function>`, got {arg!r}")
    path = course.path(parts[0])
    if not path.is_file():
        raise BuildError(f"{where}: {parts[0]} does not exist")
    return {"kind": "source", "path": parts[0], "function": parts[1],
            "snippet": function_snippet(path, parts[1], where),
            "title": f"{parts[0].removeprefix('py/')} · {parts[1]}"}
