"""Build the Stepwise static site, or build and serve it on 127.0.0.1.

    python build.py [--out DIR]                  build into DIR (default dist/)
    python build.py serve [--port N] [--out DIR] build, then serve with COOP/COEP headers

Inputs: each `site/lessons/<slug>/lesson.toml` names its scenario file and its
prose (`lesson.zh.md`, `lesson.en.md`); fenced ```debugger``` and ```source```
blocks in the prose become widgets. Outputs: `index.html`, `<slug>/index.html`,
the front end under `assets/`, the shown sources (byte for byte) and the
recorder under `py/`, and the pinned Pyodide core under `pyodide/`.
Every asset URL is relative, so the folder can be hosted under any path.
"""
from __future__ import annotations

import argparse
import ast
import gzip
import json
import re
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markdown_it import MarkdownIt
from markupsafe import Markup, escape
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES

import pyodide_files

REPO = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO / "py"))
from steptrace.capture import OUTPUT_CAP  # noqa: E402
from stepwise import code_colors, targets  # noqa: E402
from stepwise import scenario as scenarios  # noqa: E402

SITE = REPO / "site"
# Python the worker needs besides the shown sources: the recorder (not its author-side CLI).
WORKER_PACKAGES = ("py/steptrace",)
WORKER_MODULES = ("py/lazy_stdlib.py",)  # imports the standard modules Python was booted without
AUTHOR_ONLY = {"__main__.py", "cli.py", "scenario.py", "targets.py"}
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
       "img-src 'self' data:; style-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'none'")
LANGS = ("zh", "en")
# Token classes drawn in the default text colour: no span needed.
PLAIN_TOKENS = {"", "w", "n", "p", "nx"}


class BuildError(Exception):
    """An authoring mistake: the message names the file, the line and what to fix."""


# ---------------------------------------------------------------- source code

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
        raise BuildError(f"{where}: {path.relative_to(REPO)} defines no function, class or method {name!r}; "
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


# ---------------------------------------------------------------- lessons

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


LESSON_KEYS = {"scenarios": "the scenario file's path from the repository root, one string: one source file per lesson",
               "summary_zh": "the index page's one-line summary in Chinese",
               "summary_en": "the index page's one-line summary in English"}


def load_lesson(folder: Path) -> Lesson:
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
        data = scenarios.load(REPO / meta["scenarios"], REPO)
    except scenarios.ScenarioError as error:
        raise BuildError(str(error)) from None
    lesson = Lesson(folder.name, {}, {"zh": meta["summary_zh"], "en": meta["summary_en"]}, data)
    source = REPO / data.source
    tree = ast.parse(source.read_text("utf-8"))
    lesson.functions = [function_snippet(source, node.name, str(meta_path))
                        for node in tree.body if isinstance(node, targets.DEFINITIONS)]
    lesson.spans = targets.spans(tree)
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
            lesson.widgets = [widget_spec(kind, arg, data, f"{path}:{line}") for kind, arg, line in widgets]
        elif plain != reference[1]:
            raise BuildError(f"{path}: its widget blocks {plain} differ from {reference[0].name}'s "
                             f"{reference[1]}; both languages need the same blocks in the same order")
        lesson.parts[lang] = [Markup(md.render(chunk)) for chunk in chunks]
    return lesson


def widget_spec(kind: str, arg: str, data: scenarios.Scenarios, where: str) -> dict:
    if kind == "debugger":
        if arg not in data.functions:
            raise BuildError(f"{where}: unknown function {arg!r} in ```debugger; "
                             f"{data.path.name} has {', '.join(data.functions)}")
        spec = data.functions[arg]
        source = REPO / data.source
        return {"kind": "debugger", "function": arg, "spec": spec, "snippet": file_snippet(source, arg, where),
                "title": f"{data.source.removeprefix('py/')} · {arg}"}
    parts = arg.split()
    if len(parts) != 2:
        raise BuildError(f"{where}: a ```source block holds `<path> <function>`, got {arg!r}")
    path = REPO / parts[0]
    if not path.is_file():
        raise BuildError(f"{where}: {parts[0]} does not exist")
    return {"kind": "source", "path": parts[0], "function": parts[1],
            "snippet": function_snippet(path, parts[1], where),
            "title": f"{parts[0].removeprefix('py/')} · {parts[1]}"}


def page_data(lesson: Lesson, root: str, pyodide: str) -> dict:
    """The JSON the page's script reads: sources to load, where Pyodide is, and per function its cases
    and stages."""
    data = lesson.scenarios
    functions = {}
    for widget in lesson.widgets:
        if widget["kind"] != "debugger":
            continue
        spec = widget["spec"]
        functions[spec.name] = {
            "first_line": spec.first_line, "last_line": spec.last_line, "kind": spec.kind,
            "cases": [{"id": c, **data.labels[c]} for c in spec.cases],
            "stages": [{"line": s.line, "zh": s.zh, "en": s.en} for s in spec.stages],
            # Each case's code exactly as it runs: composed once, here (stepwise.scenario).
            "code": {case: list(data.code(spec.name, case)) for case in spec.cases},
            "limits": spec.limits.for_page(), "conditionExample": spec.condition_example,
            "afterRun": spec.after_run, "historyBudget": spec.history_budget,
            "recorded": {case: trace_path(spec.name, case) for case in spec.cases
                         if (spec.name, case) in lesson.traces},
        }
    return {"lesson": lesson.slug, "source": data.source, "module": data.module, "history": data.history,
            "outputCap": OUTPUT_CAP,
            "root": root, "files": worker_files(data.source), "pythonRoot": data.python_root,
            "pyodide": f"pyodide/{pyodide}/",
            "functions": functions, "spans": lesson.spans}


ESBUILD = REPO / "node_modules" / ".bin" / "esbuild"  # pinned in package.json
PAGE_BUNDLE = "lesson.bundle.js"


def bundle_page(js: Path) -> None:
    """The lesson page's module graph as one module (`PAGE_BUNDLE`, beside the modules it is made of):
    first paint then waits for one request, not one round trip per import depth or per six
    modules on an HTTP/1.1 server. The worker and what it imports stay separate modules."""
    if not ESBUILD.is_file():
        raise BuildError(f"{ESBUILD.relative_to(REPO)} is missing: run `npm ci` (package.json pins esbuild)")
    result = subprocess.run([str(ESBUILD), str(SITE / "js" / "lesson.js"), "--bundle", "--format=esm",
                             "--target=es2022", "--minify", "--sourcemap", "--log-level=error",
                             f"--outfile={js / PAGE_BUNDLE}"], capture_output=True, text=True, timeout=120)
    if result.returncode:
        raise BuildError(f"site/js/lesson.js: esbuild could not bundle it:\n{result.stderr.strip()}")


def first_trace(data: dict) -> str | None:
    """The trace a reader most likely asks for first: the first debugger's first case."""
    for spec in data["functions"].values():
        first = spec["cases"][0]["id"]
        return spec["recorded"].get(first)
    return None


def recorder_files() -> list[str]:
    """The recorder modules the worker imports (repo paths), without the author-side CLI."""
    return sorted(str(p.relative_to(REPO)) for package in WORKER_PACKAGES for p in (REPO / package).rglob("*.py")
                  if p.name not in AUTHOR_ONLY)


def worker_files(source: str) -> list[str]:
    """Everything the worker writes into Pyodide's FS for a lesson: its source, packages, the recorder."""
    files = [source, *recorder_files(), *WORKER_MODULES]
    for parent in Path(source).parents:  # package __init__ files of the shown module
        init = parent / "__init__.py"
        if (REPO / init).is_file():
            files.append(str(init))
    return sorted(set(files))


# ---------------------------------------------------------------- output

PROVE_SCRIPT = SITE / "prove" / "prove-cases.mjs"
# A case is proved with this many times the page's time limit: a build judges the program, not how busy
# the machine is (a case near its limit failed one build in three under load). A case proved slower than
# the page's limit still builds, with a note: a reader who edits its input may meet the limit.
BUILD_TIME_FACTOR = 4


def prove_cases(lesson: Lesson) -> list[str]:
    """Run every case of the lesson in the pinned Pyodide (node), as the page will; return the problems
    and keep each case's trace in `lesson.traces` (shipped, so the page shows a case at once).

    A case is an authoring mistake when its setup or entry raises, when it hits a limit, when the
    recorder faults, or when it ends otherwise than its `outcomes` declare. The answers are cached
    under node_modules/.cache, keyed by everything a run depends on.
    """
    import hashlib

    data = lesson.scenarios
    files = worker_files(data.source)
    cases = []
    for name, spec in data.functions.items():
        for case in spec.cases:
            setup, entry = data.code(name, case)
            cases.append({"function": name, "case": case, "source": data.source, "module": data.module,
                          "setup": setup, "entry": entry, "seconds": spec.limits.seconds * BUILD_TIME_FACTOR,
                          "events": spec.limits.events})
    request = {"files": files, "roots": [data.python_root, "py"], "cases": cases}
    digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode() + PROVE_SCRIPT.read_bytes())
    pyodide_meta = REPO / "node_modules" / "pyodide" / "package.json"
    digest.update(pyodide_meta.read_bytes() if pyodide_meta.is_file() else b"")
    for name in files:
        digest.update(name.encode() + (REPO / name).read_bytes())
    cache = REPO / "node_modules" / ".cache" / "stepwise" / f"proof-{digest.hexdigest()[:16]}.json"
    if cache.is_file():
        answers = json.loads(cache.read_text(encoding="utf-8"))
    else:
        node = shutil.which("node")
        if node is None or not pyodide_meta.is_file():
            return [f"{data.path}: cannot prove the cases: Node.js 20+ and `npm ci` (the pinned pyodide) are needed"]
        result = subprocess.run([node, str(PROVE_SCRIPT), str(REPO)], input=json.dumps(request), cwd=REPO,
                                capture_output=True, text=True, timeout=600)
        answers = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
        if result.returncode != 0 or len(answers) != len(cases):
            return [f"{data.path}: proving the cases in Pyodide failed: {result.stderr.strip()[-800:]}"]
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(answers), encoding="utf-8")
    lesson.traces = {(answer["function"], answer["case"]): shipped(answer["trace"])
                     for answer in answers if answer.get("ok")}
    for answer in answers:
        seconds = data.functions[answer["function"]].limits.seconds
        if answer.get("ok") and answer["end"]["status"] != "stopped" and answer["end"].get("ms", 0) > seconds * 1000:
            print(f"note: {data.path}: case {answer['case']!r} of {answer['function']!r} took "
                  f"{answer['end']['ms'] / 1000:.1f} s at build, over the page's {seconds:g} s: a reader who edits "
                  "its input may meet the limit (raise `seconds`, or make the case smaller)", flush=True)
    drew = [answer for answer in answers if answer.get("random")]
    if drew:
        sources = sorted({source for answer in drew for source in answer["random"].split(" and ")})
        print(f"note: {data.path}: {len(drew)} case(s) draw randomness ({', '.join(sources)}): "
              f"{', '.join(answer['function'] + '/' + answer['case'] for answer in drew)}. Their shipped traces "
              "hold the values of the build's fixed seed (py/steptrace/fixed_entropy.py); a reader's live run draws "
              "its own.",
              flush=True)
    return [problem for answer in answers if (problem := case_problem(data, answer))]


def shipped(trace: str) -> str:
    """A proven trace as the site ships it: without the recording's timings, which no two builds share."""
    doc = json.loads(trace)
    doc["end"]["ms"] = doc["stats"]["elapsed_ms"] = 0
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def write_embeds(env: Environment, lesson: Lesson, data: dict, strings: dict, folder: Path) -> None:
    """`embed/<function>.html` per debugger: that debugger alone, for an <iframe> on another site. One folder
    down from the lesson page, so its paths to the site root and to the lesson's traces gain a `../`."""
    target = folder / "embed"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir()
    deeper = {**data, "root": "../.."}
    for widget in (w for w in lesson.widgets if w["kind"] == "debugger"):
        name = widget["function"]
        spec = dict(data["functions"][name])
        spec["recorded"] = {case: f"../{path}" for case, path in spec["recorded"].items()}
        own = {**deeper, "functions": {name: spec}}
        html = env.get_template("embed.html").render(lesson=lesson, widget=widget, root="../..", data=own,
                                                     strings=strings, bundle=PAGE_BUNDLE, first_trace=first_trace(own))
        write_whole(target / f"{name}.html", html)


def trace_path(function: str, case: str) -> str:
    """Where a case's recorded trace is served, relative to its lesson page."""
    return f"traces/{function}.{case}.json"


def write_traces(lesson: Lesson, folder: Path) -> None:
    """Each proven case's trace, as the worker would have answered it, plain and gzipped (served as such)."""
    target = folder / "traces"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for (function, case), trace in lesson.traces.items():
        path = folder / trace_path(function, case)
        data = trace.encode("utf-8")
        path.write_bytes(data)
        path.with_name(path.name + ".gz").write_bytes(gzip.compress(data, 9, mtime=0))  # no timestamp: reproducible


def case_problem(data: scenarios.Scenarios, answer: dict) -> str | None:
    """What is wrong with how one case ended in Pyodide, said with the place to fix; None if nothing."""
    name, case = answer["function"], answer["case"]
    spec = data.functions[name]
    label = f"case {case!r} of {name!r}"
    if not answer.get("ok"):
        return f"{data.path}: {label} could not run in Pyodide: {answer.get('error')}"
    end, declared = answer["end"], spec.outcomes.get(case, {})
    if answer["faults"]:
        return f"{data.path}: {label}: the recorder faulted ({answer['faults'][0]}); please report it"
    if end["status"] == "stopped":
        return (f"{_case_line(data, name, case, 'limits')}: {label} stopped at the build's "
                f"{end['reason'].replace('_', ' ')} ({spec.limits.seconds * BUILD_TIME_FACTOR:g} s: "
                f"{BUILD_TIME_FACTOR} × the page's {spec.limits.seconds:g} s) after {answer['events']:,} steps in "
                "Pyodide; raise `seconds` in [limits] or the function's `limits`, or make the case smaller")
    if end["status"] == "failed":
        return f"{data.path}: {label}: the recorder could not start: {end['exception']['message']}"
    exception = end.get("exception")
    call = end.get("call") or {}
    raised = {exception["type"]} if exception else set()
    if call.get("status") == "raised" and call.get("exception"):
        raised.add(call["exception"]["type"])
    if "raises" in declared and declared["raises"] not in raised:
        said = ", ".join(sorted(raised)) or "nothing"
        return (f"{_case_line(data, name, case, 'outcomes')}: {label} declares raises = {declared['raises']!r}, "
                f"but {name} raised {said}")
    if exception and exception["type"] != declared.get("raises"):
        if exception.get("in_source"):
            where = f"{data.source}:{exception['line']}"
        else:
            where = data.where(name, exception.get("file", "<entry>"), exception.get("line"))
        origin = {"<setup>": "its setup", "<entry>": "its entry"}.get(exception.get("file"), data.source)
        return (f"{where}: {label} ends with {exception['type']}: {exception['message']} (raised in {origin}); "
                f"fix the code, or declare it: outcomes.{case} = {{ raises = \"{exception['type']}\" }}")
    first = answer["stdout"].split("\n", 1)[0]
    if "prints" in declared and first != declared["prints"]:
        return (f"{_case_line(data, name, case, 'outcomes')}: {label} declares prints = {declared['prints']!r}, "
                f"but its first line is {first!r}")
    return None


def _case_line(data: scenarios.Scenarios, name: str, case: str, about: str) -> str:
    """`path:line` of what to change about a case: its `outcomes.<case>` line or the `limits` it runs under
    (`Function.lines`), else the function's `entry` line."""
    spec = data.functions[name]
    line = spec.lines.get(f"outcomes.{case}" if about == "outcomes" else "limits") or spec.entry_line
    return f"{data.path}:{line}" if line else str(data.path)


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
    backgrounds = code_colors.theme_backgrounds((SITE / "css" / "site.css").read_text(encoding="utf-8"))
    light = code_colors.readable_css("default", ".code", backgrounds["light"], "#000000")
    dark = code_colors.readable_css("github-dark", ".code", backgrounds["dark"], "#ffffff")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"


def environment(strings: dict) -> Environment:
    """Jinja2 with `t(key, lang)` over the zh/en strings the page's script also reads."""
    env = Environment(loader=FileSystemLoader(SITE / "templates"), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)

    def t(key: str, lang: str = "zh", **values) -> str:
        return strings[lang][key].format(**values)

    env.globals.update(t=t, csp=CSP, langs=LANGS)
    env.filters["tojson_script"] = lambda value: Markup(
        json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e"))
    return env


def write_whole(path: Path, text: str) -> None:
    """Write through a temporary name and rename: `serve --watch` may be sending the old page meanwhile,
    and a reader must get the old page or the new one, never a cut one."""
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    part.replace(path)


def build(out: Path, lessons_dirs: Path | list[Path] = SITE / "lessons") -> list[Lesson]:
    started = time.perf_counter()
    lessons_dirs = [lessons_dirs] if isinstance(lessons_dirs, Path) else lessons_dirs
    lessons = [load_lesson(folder) for lessons_dir in lessons_dirs for folder in sorted(lessons_dir.iterdir())
               if (folder / "lesson.toml").is_file()]
    if not lessons:
        raise BuildError(f"{', '.join(map(str, lessons_dirs))}: no lesson folders (each needs a lesson.toml)")
    problems = [problem for lesson in lessons for problem in prove_cases(lesson)]
    if problems:
        raise BuildError("\n  ".join(problems))
    out.mkdir(parents=True, exist_ok=True)
    try:
        pyodide = pyodide_files.install(out / "pyodide", [*recorder_files(), *WORKER_MODULES])
    except pyodide_files.PyodideMissing as error:
        raise BuildError(str(error)) from None
    assets = out / "assets"
    if assets.exists():
        shutil.rmtree(assets)
    shutil.copytree(SITE / "js", assets / "js")
    bundle_page(assets / "js")
    shutil.copytree(SITE / "css", assets / "css")
    # One stylesheet: the token colours go at the end of the site's (a request fewer before first paint).
    sheet = assets / "css" / "site.css"
    sheet.write_text(themed(sheet.read_text(encoding="utf-8") + "\n/* Token colours (build.py pygments_css) */\n"
                            + pygments_css()), encoding="utf-8")
    copied = set()
    for lesson in lessons:
        for name in worker_files(lesson.scenarios.source):
            if name not in copied:
                (out / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(REPO / name, out / name)  # byte for byte
                copied.add(name)
    strings = json.loads((SITE / "i18n.json").read_text(encoding="utf-8"))
    env = environment(strings)
    write_whole(out / "index.html", env.get_template("index.html").render(lessons=lessons, root="."))
    for lesson in lessons:
        (out / lesson.slug).mkdir(exist_ok=True)
        data = page_data(lesson, "..", pyodide)
        html = env.get_template("lesson.html").render(lesson=lesson, root="..", data=data, strings=strings,
                                                      bundle=PAGE_BUNDLE, first_trace=first_trace(data))
        write_whole(out / lesson.slug / "index.html", html)
        write_traces(lesson, out / lesson.slug)
        write_embeds(env, lesson, data, strings, out / lesson.slug)
    print(f"built {len(lessons)} lesson(s) into {out} in {time.perf_counter() - started:.2f} s", flush=True)
    return lessons


# ---------------------------------------------------------------- serve

COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".py", ".svg", ".txt")


def watched_files(lessons: list[Lesson], lessons_dirs: list[Path]) -> dict[Path, float]:
    """Every file a build reads: lesson folders, scenario files and setups, shown sources, the site."""
    paths: set[Path] = set()
    # The repository's scenarios and Python too: a lesson whose scenario file failed to load is not listed.
    for folder in [*lessons_dirs, SITE / "templates", SITE / "js", SITE / "css", REPO / "scenarios", REPO / "py"]:
        paths.update(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    paths.add(SITE / "i18n.json")
    for meta in (meta for folder in lessons_dirs for meta in folder.glob("*/lesson.toml")):
        try:   # a lesson that failed to load is not in `lessons`: its scenario folder is watched all the same
            named = tomllib.loads(meta.read_text(encoding="utf-8")).get("scenarios")
        except (OSError, tomllib.TOMLDecodeError):
            continue
        if isinstance(named, str) and (REPO / named).parent.is_dir():
            paths.update(p for p in (REPO / named).parent.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for lesson in lessons:
        data = lesson.scenarios
        paths.update({data.path, data.setup_path, REPO / data.source})
    stamps = {}
    for path in paths:
        try:
            stamps[path] = path.stat().st_mtime
        except OSError:
            stamps[path] = -1.0
    return stamps


def watch(out: Path, lessons_dirs: list[Path], lessons: list[Lesson], every: float = 0.5) -> None:
    """Rebuild whenever a file the build reads changes; a failed rebuild keeps the last good site."""
    import threading

    def loop(lessons: list[Lesson]) -> None:
        seen = watched_files(lessons, lessons_dirs)
        while True:
            time.sleep(every)
            now = watched_files(lessons, lessons_dirs)
            if now == seen:
                continue
            seen = now
            try:
                lessons = build(out, lessons_dirs)
                seen = watched_files(lessons, lessons_dirs)
            except BuildError as error:
                print(f"rebuild failed (still serving the last good build): {error}", file=sys.stderr, flush=True)
                failed_page(out, str(error))

    threading.Thread(target=loop, args=(lessons,), daemon=True).start()


FAILED_MARK = "<!-- stepwise: build failed -->"


def failed_page(out: Path, message: str) -> None:
    """With no good build in `out` yet, an index page that shows the build's latest error (escaped)."""
    from html import escape
    index = out / "index.html"
    if index.is_file() and not index.read_text(encoding="utf-8").startswith(FAILED_MARK):
        return
    out.mkdir(parents=True, exist_ok=True)
    index.write_text(
        f"{FAILED_MARK}<!doctype html><meta charset=utf-8><title>Build failed</title>"
        f"<h1>The build failed</h1><pre>{escape(message)}</pre><p>Fix it and save: the site is rebuilt.</p>",
        encoding="utf-8")


def not_modified(since: str | None, mtime: float) -> bool:
    """Does an If-Modified-Since header say the browser's copy is as new as the file (seconds)?"""
    from datetime import UTC
    from email.utils import parsedate_to_datetime
    if not since:
        return False
    try:
        when = parsedate_to_datetime(since)
    except (TypeError, ValueError, IndexError, OverflowError):
        return False
    if when.tzinfo is None:   # HTTP dates are GMT; a date without a zone is read as such (as http.server does)
        when = when.replace(tzinfo=UTC)
    return int(mtime) <= when.timestamp()


class SiteHandler(SimpleHTTPRequestHandler):
    """One request to the built site: right MIME types; a file's build-time .br or .gz copy when the browser
    takes it, gzip made here for other text; Pyodide's folder cached for good. `serve` makes a subclass
    with the folder and the isolation set."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json",
                      ".py": "text/plain; charset=utf-8", ".md": "text/plain; charset=utf-8",
                      ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8"}
    out = Path(".")
    isolation = True
    compressed: dict[tuple[str, float], bytes] = {}     # gzip made here, by (path, mtime)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(self.out), **kwargs)

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        accepted = {part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")}
        if path.is_file() and (self._send_built_copy(path, accepted)
                               or "gzip" in accepted and path.suffix in COMPRESSIBLE and self._send_gzipped(path)):
            return
        super().do_GET()

    def _send_built_copy(self, path: Path, accepted: set[str]) -> bool:
        """Compressed at build time (the Pyodide files, traces): the best copy the browser accepts."""
        for encoding, suffix in (("br", ".br"), ("gzip", ".gz")):
            packed = path.with_name(path.name + suffix)
            if encoding in accepted and packed.is_file():
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(path)))
                self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(packed.stat().st_size))
                self.end_headers()
                with packed.open("rb") as stream:
                    shutil.copyfileobj(stream, self.wfile)
                return True
        return False

    def _send_gzipped(self, path: Path) -> bool:
        """Other text, gzipped here once per version of the file; a 304 when the browser's copy is current."""
        stat = path.stat()
        if not_modified(self.headers.get("If-Modified-Since"), stat.st_mtime):
            self.send_response(304)   # revalidation costs no body
            self.end_headers()
            return True
        body = self.compressed.get((str(path), stat.st_mtime))
        if body is None:
            body = self.compressed[(str(path), stat.st_mtime)] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", formatdate(stat.st_mtime, usegmt=True))
        self.end_headers()
        self.wfile.write(body)
        return True

    def end_headers(self) -> None:
        if self.isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        # The embeds' sizing script is for other sites' pages (docs/hosting.md); the rest is this site's own.
        shared = self.path.split("?")[0].endswith("/assets/js/embed-host.js")
        self.send_header("Cross-Origin-Resource-Policy", "cross-origin" if shared else "same-origin")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Vary", "Accept-Encoding")
        # Pyodide's folder is named for what it holds: cache it for good. The rest revalidates (304s).
        pinned = "/pyodide/" in self.path.split("?")[0]
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if pinned else "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - keep the test output quiet
        if "--verbose" in sys.argv:
            super().log_message(format, *args)


class QuietServer(ThreadingHTTPServer):
    """A browser that closes a connection mid-answer (a reload, a cancelled fetch) is no error to print."""

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):   # BrokenPipeError, ConnectionResetError
            super().handle_error(request, client_address)


def serve(out: Path, port: int, isolation: bool = True) -> None:
    """Serve `out` on 127.0.0.1 (`SiteHandler`). With `isolation` the COOP/COEP headers make the page
    cross-origin isolated, so the worker gets a SharedArrayBuffer and a runaway run is interrupted in
    place instead of rebooting the worker."""
    handler = type("Handler", (SiteHandler,), {"out": out, "isolation": isolation, "compressed": {}})
    with QuietServer(("127.0.0.1", port), handler) as server:
        mode = "cross-origin isolated" if isolation else "not isolated"
        print(f"serving {out} on http://127.0.0.1:{server.server_address[1]}/ ({mode})", flush=True)
        server.serve_forever()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", choices=["build", "serve"], default="build")
    parser.add_argument("--out", type=Path, default=REPO / "dist")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--lessons", type=Path, action="append",
                        help="folder of lesson folders (repeatable; default site/lessons)")
    parser.add_argument("--no-isolation", action="store_true",
                        help="serve without COOP/COEP (runaway runs then reboot the worker)")
    parser.add_argument("--verbose", action="store_true", help="log every request when serving")
    parser.add_argument("--watch", action="store_true", help="serve: rebuild when a lesson, scenario, source "
                                                             "or site file changes")
    args = parser.parse_args(argv)
    lessons_dirs = args.lessons or [SITE / "lessons"]
    try:
        lessons = build(args.out, lessons_dirs)
    except BuildError as error:
        print(f"build failed: {error}", file=sys.stderr, flush=True)
        if not (args.command == "serve" and args.watch):
            return 1
        # Watching: keep serving the last good build (or a page that says what failed), rebuild on a save.
        print("watching: fix the file above and save; the site is rebuilt then", file=sys.stderr, flush=True)
        failed_page(args.out, str(error))
        lessons = []
    if args.command == "serve":
        if args.watch:
            watch(args.out, lessons_dirs, lessons)
        serve(args.out, args.port, isolation=not args.no_isolation)
    return 0


if __name__ == "__main__":
    sys.exit(main())
