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
class ShownFile:
    """One source file a lesson's debuggers step through, with the scenario file that says its cases."""
    scenarios: scenarios.Scenarios
    # Every top-level function and class of the file, for the "helpers" part of each setup section.
    helpers: list[Snippet]
    # [first, last, name] of every definition in it (stepwise.targets.spans): what the code pane shows
    # around a frame, and the function a breakpoint's line is in.
    spans: list[list]

    @property
    def source(self) -> str:
        return self.scenarios.source


@dataclass
class Lesson:
    slug: str
    title: dict[str, str]
    summary: dict[str, str]
    shown: list[ShownFile]      # one per scenario file lesson.toml names, in its order
    # Per language, alternating prose HTML and widget specs (same widgets in both).
    parts: dict[str, list] = field(default_factory=dict)
    widgets: list[dict] = field(default_factory=list)
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


LESSON_KEYS = {"scenarios": "the scenario file's path from the course's folder, or a list of them: one per source "
                            "file the lesson's debuggers show",
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
    lesson = Lesson(folder.name, {}, {"zh": _text(meta, "summary_zh", meta_path),
                                      "en": _text(meta, "summary_en", meta_path)}, _shown(meta, meta_path, course))
    lesson.files = {name: path for file in lesson.shown for name, path in worker_files(file.source, course).items()}
    md = markdown()
    reference = None
    for lang in LANGS:
        path = folder / f"lesson.{lang}.md"
        if not path.is_file():
            raise BuildError(f"{path}: missing; every lesson needs lesson.zh.md and lesson.en.md")
        title, widgets, chunks = split_prose(path)
        lesson.title[lang] = title
        if reference is None:
            reference = (path, widgets)
            lesson.widgets = [widget_spec(kind, arg, lesson, f"{path}:{line}", course) for kind, arg, line in widgets]
        else:
            _same_blocks(path, widgets, *reference)
        lesson.parts[lang] = [Markup(md.render(chunk)) for chunk in chunks]
    return lesson


def _same_blocks(path: Path, widgets: list, reference_path: Path, reference: list) -> None:
    """Both languages show the same widgets in the same order: the first that differs is named, at its
    line in each file."""
    for (kind, arg, line), (their_kind, their_arg, their_line) in zip(widgets, reference, strict=False):
        if (kind, arg) != (their_kind, their_arg):
            raise BuildError(f"{path}:{line}: ```{kind} {arg} differs from {reference_path.name}:{their_line}'s "
                             f"```{their_kind} {their_arg}; both languages need the same blocks in the same order")
    if len(widgets) != len(reference):
        more, fewer = (path, reference_path) if len(widgets) > len(reference) else (reference_path, path)
        raise BuildError(f"{more}: it has {max(len(widgets), len(reference))} widget blocks and {fewer.name} "
                         f"{min(len(widgets), len(reference))}; both languages need the same blocks in the same order")


def _text(meta: dict, key: str, meta_path: Path) -> str:
    if not isinstance(meta.get(key), str):
        raise BuildError(f"{meta_path}: missing `{key}` ({LESSON_KEYS[key]})")
    return meta[key]


def _shown(meta: dict, meta_path: Path, course: Course) -> list[ShownFile]:
    """The files lesson.toml's `scenarios` names, each loaded and checked. Function names are a page's ids
    (a debugger's anchor, `f=` in a link, a trace's file name), so no two files may share one."""
    named = meta.get("scenarios")
    named = [named] if isinstance(named, str) else named
    if not named or not isinstance(named, list) or not all(isinstance(n, str) and n for n in named):
        raise BuildError(f"{meta_path}: missing `scenarios` ({LESSON_KEYS['scenarios']}), e.g. "
                         'scenarios = "scenarios/week3.toml" or scenarios = ["scenarios/a.toml", "scenarios/b.toml"]')
    shown, seen = [], {}
    for name in named:
        try:
            data = scenarios.load(course.path(name), course.root)
        except scenarios.ScenarioError as error:
            raise BuildError(str(error)) from None
        if data.source in {file.source for file in shown}:
            raise BuildError(f"{meta_path}: two scenario files show {data.source}; a lesson names each file once")
        for function in data.functions:
            if function in seen:
                raise BuildError(f"{data.path}: {function!r} is also in {seen[function]}; the debuggers of one "
                                 "lesson need different function names (put one file in a lesson of its own)")
            seen[function] = course.named(data.path)
        source = course.path(data.source)
        tree = ast.parse(source.read_text("utf-8"))
        helpers = [function_snippet(source, node.name, str(meta_path))
                   for node in tree.body if isinstance(node, targets.DEFINITIONS)]
        shown.append(ShownFile(data, helpers, targets.spans(tree)))
    return shown


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


def widget_spec(kind: str, arg: str, lesson: Lesson, where: str, course: Course) -> dict:
    """What one ```debugger block (`<function>`, or `<file> <function>`) or ```source block (`<file>
    <function>`) of the prose shows."""
    parts = arg.split()
    if kind == "debugger":
        return _debugger(parts, lesson, where)
    if len(parts) != 2:
        raise BuildError(f"{where}: a ```source block holds `<path> <function>`, got {arg!r}")
    path = course.path(parts[0])
    if not path.is_file():
        raise BuildError(f"{where}: {parts[0]} does not exist")
    return {"kind": "source", "path": parts[0], "function": parts[1],
            "snippet": function_snippet(path, parts[1], where),
            "title": f"{parts[0].removeprefix('py/')} · {parts[1]}"}


def _debugger(parts: list[str], lesson: Lesson, where: str) -> dict:
    if len(parts) not in (1, 2):
        raise BuildError(f"{where}: a ```debugger block holds `<function>` or `<path> <function>`, got "
                         f"{' '.join(parts)!r}")
    name = parts[-1]
    files = [file for file in lesson.shown if len(parts) == 1 or file.source == parts[0]]
    if not files:
        raise BuildError(f"{where}: {parts[0]} is not a file of this lesson; lesson.toml's scenario files show "
                         f"{', '.join(file.source for file in lesson.shown)}")
    found = next((file for file in files if name in file.scenarios.functions), None)
    if found is None:
        known = "; ".join(f"{file.scenarios.path.name} has {', '.join(file.scenarios.functions)}" for file in files)
        raise BuildError(f"{where}: unknown function {name!r} in ```debugger; {known}")
    data = found.scenarios
    return {"kind": "debugger", "function": name, "spec": data.functions[name], "file": found,
            "labels": data.labels, "snippet": file_snippet(found.scenarios.root / data.source, name, where),
            "title": f"{data.source.removeprefix('py/')} · {name}"}
