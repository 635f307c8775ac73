"""The static site of a course: an index, a page per lesson (and per debugger, to embed elsewhere), each
proven case's trace, the shown sources byte for byte, the recorder, the front end and the pinned Pyodide.
Every URL in it is relative, so the folder can be hosted under any path."""
from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from steptrace.capture import OUTPUT_CAP

from . import assets, pyodide_files, toolchain
from .course import BuildError, Course
from .lessons import LANGS, Lesson, load_lesson
from .playground import write_playground
from .prover import prove_cases, python_roots
from .stylesheet import pygments_css, themed
from .toolchain import Toolchain

CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
       "img-src 'self' data:; style-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'none'")


def page_data(lesson: Lesson, root: str, pyodide: str) -> dict:
    """The JSON the page's script reads: the files the worker loads, where Pyodide is, each shown file's
    module and definitions, and per function its file, cases and stages."""
    functions = {}
    for widget in lesson.widgets:
        if widget["kind"] != "debugger":
            continue
        spec, data = widget["spec"], widget["file"].scenarios
        functions[spec.name] = {
            "source": data.source, "first_line": spec.first_line, "last_line": spec.last_line, "kind": spec.kind,
            "cases": [{"id": c, **data.labels[c]} for c in spec.cases],
            "stages": [{"line": s.line, "zh": s.zh, "en": s.en} for s in spec.stages],
            # Each case's code exactly as it runs: composed once, here (stepwise.scenario).
            "code": {case: list(data.code(spec.name, case)) for case in spec.cases},
            "limits": spec.limits.for_page(), "conditionExample": spec.condition_example,
            "afterRun": spec.after_run, "historyBudget": spec.history_budget,
            "notes": [pin.for_page() for pin in spec.notes], "questions": [pin.for_page() for pin in spec.questions],
            "recorded": {case: trace_path(spec.name, case) for case in spec.cases
                         if (spec.name, case) in lesson.traces},
        }
    sources = {file.source: {"module": file.scenarios.module, "history": file.scenarios.history, "spans": file.spans}
               for file in lesson.shown}
    return {"lesson": lesson.slug, "outputCap": OUTPUT_CAP, "root": root, "files": list(lesson.files),
            "pythonRoots": python_roots(lesson), "pyodide": f"pyodide/{pyodide}/",
            "sources": sources, "functions": functions}


PAGE_BUNDLE = "lesson.bundle.js"     # playground.PLAY_BUNDLE is play.js's


def bundle_page(js: Path, tools: Toolchain) -> None:
    """Each page's module graph as one module beside the modules it is made of: `PAGE_BUNDLE` (lesson.js)
    and the playground's `PLAY_BUNDLE` (play.js: lesson.js and CodeMirror). First paint then waits for one
    request, not one round trip per import depth or per six modules on an HTTP/1.1 server. The worker and
    what it imports stay separate modules."""
    # From the copies in `js`: the source map then names the served modules, wherever the site is built;
    # the pinned npm packages (CodeMirror) are found through NODE_PATH.
    result = subprocess.run([str(tools.esbuild), str(js / "lesson.js"), str(js / "play.js"), "--bundle",
                             "--format=esm", "--target=es2022", "--minify", "--sourcemap", "--log-level=error",
                             f"--outdir={js}", "--entry-names=[name].bundle"], capture_output=True, text=True,
                            timeout=120, env={**os.environ, "NODE_PATH": str(tools.modules)})
    if result.returncode:
        raise BuildError(f"{assets.SITE / 'js'}: esbuild could not bundle the pages' scripts:\n{result.stderr.strip()}")


def first_trace(data: dict) -> str | None:
    """The trace a reader most likely asks for first: the first debugger's first case."""
    for spec in data["functions"].values():
        first = spec["cases"][0]["id"]
        return spec["recorded"].get(first)
    return None


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


def environment(strings: dict) -> Environment:
    """Jinja2 with `t(key, lang)` over the zh/en strings the page's script also reads."""
    env = Environment(loader=FileSystemLoader(assets.SITE / "templates"), autoescape=True, undefined=StrictUndefined,
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


def build(out: Path, course: Course) -> list[Lesson]:
    """Build the course's site into `out`; raise BuildError, naming file and line, on an authoring mistake."""
    started = time.perf_counter()
    lessons = [load_lesson(folder, course) for lessons_dir in course.lessons_dirs
               for folder in sorted(lessons_dir.iterdir()) if (folder / "lesson.toml").is_file()]
    if not lessons:
        raise BuildError(f"{', '.join(map(str, course.lessons_dirs))}: no lesson folders (each needs a lesson.toml; "
                         "`stepwise new <slug>` writes one)")
    try:
        tools = toolchain.find()
    except toolchain.ToolchainMissing as error:
        raise BuildError(f"cannot prove the cases: {error}") from None
    problems = [problem for lesson in lessons for problem in prove_cases(lesson, tools)]
    if problems:
        raise BuildError("\n  ".join(problems))
    out.mkdir(parents=True, exist_ok=True)
    try:
        pyodide = pyodide_files.install(out / "pyodide", assets.worker_python(), tools)
    except pyodide_files.PyodideMissing as error:
        raise BuildError(str(error)) from None
    write_front_end(out / "assets", tools)
    for lesson in lessons:
        for name, path in lesson.files.items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, out / name)  # byte for byte
    strings = json.loads((assets.SITE / "i18n.json").read_text(encoding="utf-8"))
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
    write_playground(env, out, strings, list(assets.worker_python()), pyodide)
    print(f"built {len(lessons)} lesson(s) into {out} in {time.perf_counter() - started:.2f} s", flush=True)
    return lessons


def write_front_end(target: Path, tools: Toolchain) -> None:
    """The scripts (and the lesson page's bundle) and the one stylesheet, under the site's `assets/`."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(assets.SITE / "js", target / "js")
    bundle_page(target / "js", tools)
    shutil.copytree(assets.SITE / "css", target / "css")
    # One stylesheet: the token colours go at the end of the site's (a request fewer before first paint).
    sheet = target / "css" / "site.css"
    sheet.write_text(themed(sheet.read_text(encoding="utf-8") + "\n/* Token colours (stepwise.stylesheet) */\n"
                            + pygments_css()), encoding="utf-8")
