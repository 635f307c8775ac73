"""Command line for authors: start a lesson, build a course's site or serve it, trace one case.

    stepwise new week3                    # a lesson that builds at once (py/, scenarios/, lessons/)
    stepwise build [COURSE_DIR] [--out DIR]
    stepwise serve [COURSE_DIR] [--watch] [--port N]
    stepwise trace py/s08/core/runtime.py --scenario scenarios/s08.toml \\
        --function split_history --case normal [--summary]

A course is a folder anywhere on disk (stepwise.course says its layout). A build that meets an
authoring mistake prints it with file, line and the fix, and exits with status 1; `new` and
`trace` exit with status 2 on a bad argument.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from steptrace.runner import BACKENDS, RunnerError
from steptrace.watchdog import run_case_watched

from . import scaffold
from . import scenario as scenarios
from .course import BuildError, Course


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stepwise", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, what in (("build", "build a course's static site"),
                       ("serve", "build a course's site and serve it on 127.0.0.1")):
        _site_options(commands.add_parser(name, help=what, description=what), serving=name == "serve")
    trace = commands.add_parser("trace", help="run one scenario case and print its trace")
    trace.add_argument("source", help="the shown file, as its scenario file names it (from the course's folder), "
                                       "e.g. py/s08/core/runtime.py")
    trace.add_argument("--scenario", required=True, help="scenario file, e.g. scenarios/s08.toml")
    trace.add_argument("--function", required=True)
    trace.add_argument("--case", required=True)
    trace.add_argument("--summary", action="store_true", help="a readable line-by-line listing")
    trace.add_argument("--backend", choices=BACKENDS, default="auto")
    trace.add_argument("--max-events", type=int, help="default: the scenario file's limits")
    trace.add_argument("--time-limit", type=float, help="seconds; default: the scenario file's limits")
    new = commands.add_parser("new", help="start a lesson that builds at once (docs/authoring.md's example)")
    new.add_argument("slug", help="the lesson's name, lower_snake_case, e.g. week3")
    new.add_argument("--root", type=Path, default=Path("."),
                     help="the course's folder, holding py/, scenarios/ and lessons/ (default: here)")
    args = parser.parse_args(argv)
    if args.command == "new":
        return _new(args.slug, args.root)
    if args.command in ("build", "serve"):
        return _site(args)
    try:
        text, root = _trace(args)
    except (scenarios.ScenarioError, RunnerError, KeyError, OSError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"steptrace: error: {message}", file=sys.stderr)
        return 2
    out = sys.stdout
    if args.summary:
        out.write(summary(json.loads(text), root))
    else:
        out.write(text + "\n")
    return 0


def _site_options(parser: argparse.ArgumentParser, serving: bool) -> None:
    parser.add_argument("course", nargs="?", type=Path, default=Path("."), metavar="COURSE_DIR",
                        help="the course's folder, holding lessons/, scenarios/ and its code (default: here)")
    parser.add_argument("--out", type=Path, help="where the site is written (default: COURSE_DIR/dist)")
    parser.add_argument("--lessons", type=Path, action="append",
                        help="a folder of lesson folders instead of COURSE_DIR/lessons (repeatable)")
    if serving:
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--watch", action="store_true",
                            help="rebuild when a lesson, scenario, source or front-end file changes")
        parser.add_argument("--no-isolation", action="store_true",
                            help="serve without COOP/COEP (a runaway run then reboots the worker)")
        parser.add_argument("--verbose", action="store_true", help="log every request")


def _site(args: argparse.Namespace) -> int:
    """`build` and `serve`. Serving with --watch survives a failed build: the site then shows the error
    (or keeps the last good build) and is rebuilt on the next save."""
    from .serving import failed_page, serve, watch
    from .site_build import build

    out = (args.out or args.course / "dist").resolve()
    watching = args.command == "serve" and args.watch
    try:
        course = Course.at(args.course, [folder.resolve() for folder in args.lessons or []] or None)
    except BuildError as error:
        print(f"stepwise: error: {error}", file=sys.stderr)
        return 2
    try:
        lessons = build(out, course)
    except BuildError as error:
        print(f"build failed: {error}", file=sys.stderr, flush=True)
        if not watching:
            return 1
        print("watching: fix the file above and save; the site is rebuilt then", file=sys.stderr, flush=True)
        failed_page(out, str(error))
        lessons = []
    if args.command == "serve":
        if watching:
            watch(out, course, lessons)
        serve(out, args.port, isolation=not args.no_isolation)
    return 0


def _new(slug: str, root: Path) -> int:
    try:
        written = scaffold.scaffold(slug, root)
    except scaffold.ScaffoldError as error:
        print(f"stepwise: error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    print(f"next: `stepwise serve {root} --watch`, then edit py/{slug}/core/tally.py and "
          f"scenarios/{slug}.toml (docs/authoring.md has every key)")
    return 0


def _trace(args: argparse.Namespace) -> tuple[str, Path]:
    loaded = scenarios.load(args.scenario)
    source = args.source.replace("\\", "/")
    if source != loaded.source:
        raise RunnerError(f"{args.scenario} is about {loaded.source!r}, not {source!r}")
    if not (loaded.root / source).is_file():
        raise RunnerError(f"source file {source!r} does not exist under {loaded.root}")
    if args.function not in loaded.functions:
        raise RunnerError(f"unknown function {args.function!r}; known: {', '.join(loaded.functions)}")
    cases = loaded.cases_for(args.function)
    if args.case not in cases:
        raise RunnerError(f"unknown case {args.case!r} for {args.function}; known: {', '.join(cases)}")
    setup, entry = loaded.code(args.function, args.case)
    py_root = str(loaded.root / loaded.python_root)
    if py_root not in sys.path:
        sys.path.insert(0, py_root)
    limits = loaded.functions[args.function].limits
    # Watched: a case looping inside one call into C, or catching every stop, is still stopped.
    text = run_case_watched(source, loaded.module, setup, entry, function=args.function, case=args.case,
                            max_events=args.max_events or limits.events,
                            time_limit=args.time_limit or limits.seconds, backend=args.backend)
    return text, loaded.root


def summary(document: dict, root: Path | None = None) -> str:
    """One line per event: index, indented by frame depth, line number, source text, changes, output."""
    source_lines: list[str] = []
    if root is not None:
        try:
            source_lines = (Path(root) / document["source"]).read_text(encoding="utf-8").splitlines()
        except OSError:
            pass
    frames = {f["id"]: f for f in document["frames"]}

    def depth(frame_id: int | None) -> int:
        level = 0
        while frame_id is not None and frame_id in frames and frames[frame_id]["parent"] is not None:
            frame_id = frames[frame_id]["parent"]
            level += 1
        return level

    deltas: dict[int, list[dict]] = {}
    for delta in document["locals"]:
        deltas.setdefault(delta["i"], []).append(delta)
    returns = dict((i, v) for i, v in document["returns"])
    exceptions = dict((i, v) for i, v in document["exceptions"])
    stdout: dict[int, str] = {}
    for entry in document["stdout"]:
        stdout[entry[0]] = stdout.get(entry[0], "") + entry[1]
    events = document["events"]
    values = document["values"]
    gap = document["gap"]
    out = [f"# {document['source']} · {document['function']} · {document['case']} "
           f"({document['backend']}, Python {document['python']})"]
    if -1 in stdout:
        out.append(f"      stdout: {stdout[-1]!r}")
    marks = {"c": "call", "l": "", "r": "return", "x": "raise"}
    for i, kind in enumerate(events["kind"]):
        line, frame = events["line"][i], events["frame"][i]
        text = source_lines[line - 1].strip() if 0 < line <= len(source_lines) else ""
        label = marks[kind]
        if kind == "c":
            text = f"{frames.get(frame, {}).get('function', '?')}()"
        parts = [f"{i:6} {'  ' * depth(frame)}{line:4}  {(label + ' ') if label else ''}{text}"]
        for delta in deltas.get(i, ()):
            if delta["set"]:
                parts.append("  | " + ", ".join(f"{k}={values[v]['r']}" for k, v in delta["set"].items()))
            if delta["del"]:
                parts.append("  | del " + ", ".join(delta["del"]))
        if i in returns:
            parts.append(f"  -> {values[returns[i]]['r']}")
        if i in exceptions:
            parts.append(f"  !! {exceptions[i]['type']}: {exceptions[i]['message']}")
        out.append("".join(parts))
        if i in stdout:
            out.append(f"      stdout: {stdout[i]!r}")
        if gap is not None and i == gap["after"]:
            out.append(f"       ... {gap['dropped']} events not kept ...")
    end = document["end"]
    ending = end["status"] + (f" ({end['reason']})" if end["reason"] else "")
    if end["exception"]:
        ending += f": {end['exception']['type']}: {end['exception']['message']} (line {end['exception']['line']})"
    stats = document["stats"]
    out.append(f"# {ending}; {stats['events']} events, {stats['kept']} kept, {stats['calls']} calls, "
               f"{stats['elapsed_ms']} ms")
    for file in document["files"]:
        out.append(f"# file {file['path']} ({file['size']} bytes)")
    return "\n".join(out) + "\n"
