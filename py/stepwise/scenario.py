"""Scenario files: the inputs an author gives each shown function.

A scenario file (TOML) names the shown source, a shared setup script, the
cases (id + zh/en labels) and, per function, which cases it offers, extra
setup lines, the entry code and the diagram stages. Everything is checked
when it is loaded, so an authoring mistake fails the build with the file, the
line and what to fix — never a blank debugger in the browser.
"""
from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from steptrace.limits import Limits

from .pins import Pin, read_pins, unique_line
from .targets import Target, targets

CASE_ID = re.compile(r"^[a-z][a-z0-9_]*$")


class ScenarioError(ValueError):
    """An authoring mistake, located in a file (and a line when known)."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = str(path), line, message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Stage:
    start: str
    zh: str
    en: str
    line: int  # first line of the stage in the shown source


@dataclass(frozen=True)
class Function:
    name: str
    cases: list[str]
    setup: str
    entry: str
    stages: list[Stage]
    first_line: int
    last_line: int
    kind: str = "function"   # or "method", "class" (see stepwise.targets)
    limits: Limits = Limits()
    condition_example: str | None = None      # the placeholder of a breakpoint's condition
    after_run: dict[str, str] | None = None    # {zh, en}: said when a run returns
    history_budget: int | None = None          # the history picture's budget when no local holds it
    outcomes: dict[str, dict] = field(default_factory=dict)   # case -> {"raises": type, "prints": first line}
    setup_line: int | None = None              # where its setup and entry code start in the scenario file
    entry_line: int | None = None
    # Where to change what a proof may fault, by key: "limits" (its own, else the lesson's [limits]) and
    # "outcomes.<case>" for each case it declares; the build's errors name these lines.
    lines: dict[str, int] = field(default_factory=dict)
    notes: list[Pin] = field(default_factory=list)       # step notes (stepwise.pins)
    questions: list[Pin] = field(default_factory=list)   # predict mode's questions


@dataclass
class Scenarios:
    path: Path
    root: Path
    lesson: str
    source: str
    module: str
    setup_path: Path
    setup: str
    labels: dict[str, dict[str, str]]
    functions: dict[str, Function] = field(default_factory=dict)
    # The history picture, when the lesson's data are agent histories (lists of message dicts):
    # {"budget": local holding the byte budget, "summary_marker": ..., "trimmed_marker": ...}.
    history: dict[str, str] | None = None

    @property
    def python_root(self) -> str:
        """The folder (repo path) the shown module is imported from: `py` for `py/s08/core/runtime.py`
        shown as `s08.core.runtime`."""
        return python_root(self.source, self.module)

    def cases_for(self, function: str) -> list[str]:
        return list(self._function(function).cases)

    def code(self, function: str, case: str) -> tuple[str, str]:
        """The (setup, entry) code of one case, exactly as it runs and as the page shows it."""
        spec = self._function(function)
        if case not in self.labels:
            raise KeyError(f"unknown case {case!r}; known: {', '.join(self.labels)}")
        setup = f"scenario = {case!r}\n" + self.setup.rstrip("\n") + "\n"
        if spec.setup.strip():
            setup += spec.setup.strip("\n") + "\n"
        return setup, spec.entry.strip("\n") + "\n"

    def where(self, function: str, file: str, line: int | None) -> str:
        """`path:line` of line `line` of a case's composed `<setup>` or `<entry>` code (see `code`)."""
        spec = self._function(function)
        if line is None:
            return str(self.path)
        if file == "<entry>":
            return f"{self.path}:{spec.entry_line + line - 1}" if spec.entry_line else str(self.path)
        shared = len(self.setup.rstrip("\n").splitlines())
        if line == 1:
            return f"{self.path} (the `scenario = ...` line before the setup)"
        if line <= 1 + shared:
            return f"{self.setup_path}:{line - 1}"
        offset = line - 1 - shared
        return f"{self.path}:{spec.setup_line + offset - 1}" if spec.setup_line else str(self.path)

    def _function(self, name: str) -> Function:
        try:
            return self.functions[name]
        except KeyError:
            raise KeyError(f"unknown function {name!r}; known: {', '.join(self.functions)}") from None


def python_root(source: str, module: str) -> str:
    """`source` minus the path of `module` (`tests/fixtures/py` for `tests/fixtures/py/textbook/routes.py`
    shown as `textbook.routes`); ValueError when the two do not match."""
    parts = source.replace("\\", "/").split("/")
    names = module.split(".")
    tail = parts[-len(names):]
    if tail[:-1] == names[:-1] and tail[-1] in (names[-1] + ".py",):
        root = parts[:-len(names)]
    elif parts[-1] == "__init__.py" and parts[-len(names) - 1:-1] == names:
        root = parts[:-len(names) - 1]
    else:
        raise ValueError(f"source {source!r} is not where module {module!r} is imported from; "
                         f"expected a path ending in {'/'.join(names)}.py")
    return "/".join(root) or "."


def _line_of(text: str, pattern: str, after: int = 0) -> int | None:
    """1-based line of the first regex match at or after line `after`."""
    for number, line in enumerate(text.splitlines(), 1):
        if number >= after and re.search(pattern, line):
            return number
    return None


def _labels(value: object, where: str, path: Path, line: int | None) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(value.get(k), str) and value[k] for k in ("zh", "en")):
        raise ScenarioError(path, line, f"{where} needs non-empty text for both zh and en, "
                                        'e.g. { zh = "正常", en = "Normal" }')
    return {"zh": value["zh"], "en": value["en"]}


def _compile(code: str, filename: str, path: Path, first_line: int | None, what: str) -> None:
    try:
        compile(code, filename, "exec")
    except SyntaxError as error:
        line = (first_line or 0) + (error.lineno or 1) - 1 if first_line is not None else error.lineno
        raise ScenarioError(path, line, f"{what} has a syntax error: {error.msg}; fix the code") from None


TOP_KEYS = {"lesson", "source", "module", "setup", "cases", "limits", "history", "functions"}


def load(path: Path | str, root: Path | str | None = None) -> Scenarios:
    """Read and check one scenario file; `root` is the repo the `source` path is relative to."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioError(path, None, f"cannot read the scenario file: {error.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = getattr(error, "lineno", None) or _line_from_message(str(error))
        raise ScenarioError(path, line, f"not valid TOML: {error}") from None
    if root is None:   # the repo: the nearest folder above the file that holds the source
        folders = path.resolve().parents
        root = next((f for f in folders if isinstance(data.get("source"), str) and (f / data["source"]).is_file()),
                    path.resolve().parent.parent)
    root = Path(root)

    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise ScenarioError(path, _line_of(text, rf"^\s*(\[+\s*)?{re.escape(unknown[0])}\s*[=\]]"),
                            f"unknown top-level key {unknown[0]!r}; a scenario file takes "
                            f"{', '.join(sorted(TOP_KEYS))} (see docs/authoring.md)")
    for key in ("lesson", "source", "module", "setup"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ScenarioError(path, None, f"missing top-level key `{key}` (a non-empty string)")
    source_path = root / data["source"]
    if not source_path.is_file():
        raise ScenarioError(path, _line_of(text, r"^\s*source\s*="),
                            f"source {data['source']!r} does not exist under {root}")
    try:
        python_root(data["source"], data["module"])
    except ValueError as error:
        raise ScenarioError(path, _line_of(text, r"^\s*module\s*="), str(error)) from None
    source_text = source_path.read_text(encoding="utf-8")
    try:
        tree = ast.parse(source_text, filename=str(source_path))
    except SyntaxError as error:
        raise ScenarioError(source_path, error.lineno, f"the shown source does not parse: {error.msg}") from None
    defined = targets(tree)

    setup_path = path.parent / data["setup"]
    if not setup_path.is_file():
        raise ScenarioError(path, _line_of(text, r"^\s*setup\s*="),
                            f"setup file {data['setup']!r} does not exist in {path.parent} (`setup` is relative to the "
                            "scenario file's folder)")
    setup = setup_path.read_text(encoding="utf-8")
    _compile(setup, "<setup>", setup_path, None, "the setup file")

    raw_cases = data.get("cases")
    if not isinstance(raw_cases, dict) or not raw_cases:
        raise ScenarioError(path, None, "missing [cases] table: one `id = { zh = ..., en = ... }` per case")
    labels = {}
    for case_id, value in raw_cases.items():
        line = _line_of(text, rf"^\s*{re.escape(case_id)}\s*=")
        if not CASE_ID.match(case_id):
            raise ScenarioError(path, line, f"case id {case_id!r} must be lower_snake_case")
        labels[case_id] = _labels(value, f"case {case_id!r}", path, line)

    scenarios = Scenarios(path, root, data["lesson"], data["source"], data["module"], setup_path, setup, labels)
    lesson_limits = _limits(data.get("limits", {}), Limits(), path, _line_of(text, r"^\s*\[limits\]"), "[limits]")
    scenarios.history = _history(data.get("history"), path, _line_of(text, r"^\s*\[history\]"))
    functions = data.get("functions")
    if not isinstance(functions, list) or not functions:
        raise ScenarioError(path, None, "missing [[functions]] entries")
    for spec in functions:
        scenarios.functions[spec.get("name", "")] = _function(spec, text, path, source_path, source_text,
                                                              defined, labels, scenarios.functions, lesson_limits)
    return scenarios


def _line_from_message(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None


FUNCTION_KEYS = {"name", "cases", "setup", "entry", "stages", "limits", "condition_example", "after_run",
                 "history_budget", "outcomes", "notes", "questions"}
HISTORY_KEYS = {"budget": "the local that holds the byte budget, e.g. \"budget\"",
                "summary_marker": "text that starts a summary message",
                "trimmed_marker": "text that replaces a trimmed result",
                "budgeted": "the locals the budget applies to, space-separated, e.g. \"messages candidate\" "
                            "(the budget line is drawn on them and on what the function returns; default: "
                            "on every history)"}


def _history(raw: object, path: Path, line: int | None) -> dict[str, str] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not raw or set(raw) - set(HISTORY_KEYS) or \
            not all(isinstance(value, str) and value for value in raw.values()):
        described = "; ".join(f"`{key}`: {what}" for key, what in HISTORY_KEYS.items())
        raise ScenarioError(path, line, f"[history] takes non-empty strings: {described}")
    names = raw.get("budgeted", "").split()
    if not all(name.isidentifier() for name in names):
        raise ScenarioError(path, line, f"[history] `budgeted` names locals, space-separated, "
                                        f"e.g. \"messages candidate\"; got {raw['budgeted']!r}")
    return dict(raw)


def _limits(raw: object, base: Limits, path: Path, line: int | None, where: str) -> Limits:
    """`base` with what `raw` ({seconds, events}) sets, checked."""
    if not isinstance(raw, dict) or set(raw) - {"seconds", "events"}:
        raise ScenarioError(path, line, f"{where} takes `seconds` and `events`, "
                                        "e.g. { seconds = 2.5, events = 1000000 }")
    seconds, events = raw.get("seconds", base.seconds), raw.get("events", base.events)
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not isinstance(events, int):
        raise ScenarioError(path, line, f"{where}: `seconds` is a number and `events` a whole number")
    limits = Limits(float(seconds), events)
    problem = limits.problem()
    if problem:
        raise ScenarioError(path, line, f"{where}: {problem}")
    return limits


class _Entry:
    """One [[functions]] entry being read: where its keys sit in the file, for errors with a line."""

    def __init__(self, name: str, text: str, path: Path, at: int | None) -> None:
        self.name, self.text, self.path, self.at = name, text, path, at

    def line(self, pattern: str) -> int | None:
        """The line of the entry's first line matching `pattern` (a regex), from its `name` on."""
        return _line_of(self.text, pattern, self.at or 0)

    def key_line(self, key: str) -> int | None:
        return self.line(rf"^\s*{re.escape(key)}\s*=")

    def error(self, line: int | None, message: str) -> ScenarioError:
        return ScenarioError(self.path, line, message)


def _function(spec: dict, text: str, path: Path, source_path: Path, source_text: str,
              defined: dict[str, Target], labels: dict, seen: dict, lesson_limits: Limits) -> Function:
    entry_of = _named_entry(spec, text, path, source_path, defined, seen)
    name = entry_of.name
    cases = _cases(spec, entry_of, labels)
    setup, entry = spec.get("setup", ""), spec["entry"]
    if not isinstance(setup, str) or not isinstance(entry, str) or not entry.strip():
        raise entry_of.error(entry_of.at, f"`setup` and `entry` of {name!r} must be strings; `entry` must call it")
    setup_line, entry_line = entry_of.key_line("setup"), entry_of.key_line("entry")
    _compile(setup, "<setup>", path, setup_line, f"the setup of {name!r}")
    _compile(entry.strip("\n"), "<entry>", path, entry_line + 1 if entry_line else None, f"the entry of {name!r}")
    node = defined[name]
    stages = _stages(spec.get("stages", []), entry_of, node, source_text.splitlines(), source_path)
    notes, questions = (read_pins(spec.get(key), key, function=name, node=node, lines=source_text.splitlines(),
                                  stages={s.start: s.line for s in stages}, line_of=entry_of.line,
                                  fail=entry_of.error, source_name=source_path.name) for key in ("notes", "questions"))
    limits = _limits(spec.get("limits", {}), lesson_limits, path, entry_of.key_line("limits"),
                     f"the limits of {name!r}")
    after_run = spec.get("after_run")
    if after_run is not None:
        after_run = _labels(after_run, f"`after_run` of {name!r}", path, entry_of.key_line("after_run"))
    budget = spec.get("history_budget")
    if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool) or budget <= 0):
        raise entry_of.error(entry_of.key_line("history_budget"),
                             f"`history_budget` of {name!r} must be a positive whole number of bytes")
    outcomes = _outcomes(spec.get("outcomes", {}), entry_of, cases)
    own_limits = entry_of.key_line("limits") if "limits" in spec else None   # (a later entry's is not its)
    lines = {"limits": own_limits or _line_of(text, r"^\s*\[limits\]")}
    for case in outcomes:   # `outcomes.<case> = {...}`, else the `outcomes` table's own line
        lines[f"outcomes.{case}"] = entry_of.line(rf"^\s*outcomes\.{re.escape(case)}\s*=") or \
            entry_of.key_line("outcomes")
    return Function(name, list(cases), setup, entry, stages, node.first, node.last, node.kind, limits,
                    _condition_example(spec.get("condition_example"), entry_of), after_run, budget, outcomes,
                    _code_start(text, setup_line if setup.strip() else None, setup),
                    _code_start(text, entry_line, entry), {k: v for k, v in lines.items() if v}, notes, questions)


def _named_entry(spec: dict, text: str, path: Path, source_path: Path, defined: dict[str, Target],
                 seen: dict) -> _Entry:
    """The entry's `name`, checked: given, listed once, defined by the shown file; its keys known."""
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise ScenarioError(path, _line_of(text, r"^\s*\[\[functions\]\]"), "a [[functions]] entry has no `name`")
    entry = _Entry(name, text, path, _line_of(text, rf"^\s*name\s*=\s*[\"']{re.escape(name)}[\"']") or None)
    if name in seen:
        raise entry.error(entry.at, f"function {name!r} is listed twice; merge the two entries")
    if name not in defined:
        raise entry.error(entry.at, f"unknown function {name!r}: {source_path.name} defines "
                                    f"{', '.join(defined) or 'no functions or classes'} (a function defined inside "
                                    "another has no debugger of its own: its enclosing function's steps into it)")
    for key in ("cases", "entry"):
        if key not in spec:
            raise entry.error(entry.at, f"function {name!r} is missing `{key}`")
    unknown = sorted(set(spec) - FUNCTION_KEYS)
    if unknown:
        raise entry.error(entry.key_line(unknown[0]), f"function {name!r} has unknown key(s) {', '.join(unknown)}; "
                                                     f"a [[functions]] entry takes {', '.join(sorted(FUNCTION_KEYS))}")
    return entry


def _cases(spec: dict, entry: _Entry, labels: dict) -> list[str]:
    """The case ids the entry offers: each defined in [cases], each once."""
    cases, name = spec["cases"], entry.name
    if not isinstance(cases, list) or not cases or not all(isinstance(c, str) for c in cases):
        raise entry.error(entry.at, f"`cases` of {name!r} must be a non-empty list of case ids")
    for case in cases:
        if case not in labels:
            raise entry.error(entry.key_line("cases"),
                              f"function {name!r} offers case {case!r}, which [cases] does not define")
    duplicates = sorted({c for c in cases if cases.count(c) > 1})
    if duplicates:
        raise entry.error(entry.key_line("cases"),
                          f"function {name!r} lists case id(s) {', '.join(duplicates)} more than once")
    return cases


def _stages(raw_stages: object, entry: _Entry, node: Target, lines: list[str], source_path: Path) -> list[Stage]:
    """The diagram's stages: each the unique start of a line of the function, in source order."""
    name = entry.name
    if not isinstance(raw_stages, list):
        raise entry.error(entry.key_line("stages"), f"`stages` of {name!r} must be a list of {{ start, zh, en }}")
    stages = []
    for raw in raw_stages:
        if not isinstance(raw, dict) or not isinstance(raw.get("start"), str) or not raw["start"]:
            raise entry.error(entry.key_line("stages"),
                              f"each stage of {name!r} needs `start` (the start of a line in the function)")
        where = entry.line(re.escape(raw["start"]))
        label = _labels(raw, f"stage {raw['start']!r}", entry.path, where)
        line = unique_line(raw["start"], node, lines)
        if isinstance(line, str):
            raise entry.error(where, f"stage start {raw['start']!r} {line} of {name}() in "
                                     f"{source_path.name}; make it the unique start of one line")
        stages.append(Stage(raw["start"], label["zh"], label["en"], line))
    if [s.line for s in stages] != sorted(s.line for s in stages):
        raise entry.error(entry.at, f"the stages of {name!r} must be listed in source order")
    return stages


def _condition_example(example: object, entry: _Entry) -> str | None:
    """The breakpoint-condition placeholder, when given: an expression."""
    if example is None:
        return None
    where, name = entry.key_line("condition_example"), entry.name
    if not isinstance(example, str) or not example.strip():
        raise entry.error(where, f"`condition_example` of {name!r} must be a condition, e.g. \"i > 2\"")
    try:
        compile(example, "<condition>", "eval")
    except SyntaxError as error:
        raise entry.error(where, f"`condition_example` of {name!r} is not an expression: {error.msg}") from None
    return example


def _outcomes(outcomes: object, entry: _Entry, cases: list[str]) -> dict:
    """What the build checks per case: `raises` and/or `prints`, for cases the entry offers."""
    if not isinstance(outcomes, dict) or not all(
            case in cases and isinstance(value, dict) and value and set(value) <= {"raises", "prints"}
            and all(isinstance(v, str) and v for v in value.values()) for case, value in outcomes.items()):
        raise entry.error(entry.line(r"^\s*outcomes"),
                          f"`outcomes` of {entry.name!r} maps a case it offers to {{ raises = \"ExceptionName\" }} "
                          f"and/or {{ prints = \"its first line of output\" }}")
    return outcomes


def _code_start(text: str, line: int | None, code: str) -> int | None:
    """The scenario-file line of a code string's first line of code (a multi-line string puts it on the next;
    TOML drops that first newline, and the case's code drops leading blank lines)."""
    if line is None:
        return None
    opening = text.splitlines()[line - 1].rstrip()
    start = line + 1 if opening.endswith(('"""', "'''")) else line
    return start + len(code) - len(code.lstrip("\n")) if code.startswith("\n") else start
