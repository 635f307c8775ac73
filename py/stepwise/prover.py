"""The build's proof: every case of a lesson run in the pinned Pyodide under node (site/prove/), as the
page's worker will run it. A case that raises, hits its limit, faults the recorder or ends otherwise
than declared is an authoring mistake, named with its file and line; each proven case's trace ships
with the site, so the page shows a case before Python has booted."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

from . import assets
from . import scenario as scenarios
from .lessons import Lesson
from .toolchain import Toolchain

PROVE_SCRIPT = assets.SITE / "prove" / "prove-cases.mjs"
# A case is proved with this many times the page's time limit: a build judges the program, not how busy
# the machine is (a case near its limit failed one build in three under load). A case proved slower than
# the page's limit still builds, with a note: a reader who edits its input may meet the limit.
BUILD_TIME_FACTOR = 4


def prove_cases(lesson: Lesson, tools: Toolchain) -> list[str]:
    """Run every case of the lesson in the pinned Pyodide (node), as the page will; return the problems
    and keep each case's trace in `lesson.traces` (shipped, so the page shows a case at once).

    A case is an authoring mistake when its setup or entry raises, when it hits a limit, when the
    recorder faults, or when it ends otherwise than its `outcomes` declare.
    """
    roots = python_roots(lesson)
    problems = []
    for file in lesson.shown:
        data = file.scenarios
        cases = []
        for name, spec in data.functions.items():
            for case in spec.cases:
                setup, entry = data.code(name, case)
                cases.append({"function": name, "case": case, "source": data.source, "module": data.module,
                              "setup": setup, "entry": entry, "seconds": spec.limits.seconds * BUILD_TIME_FACTOR,
                              "events": spec.limits.events})
        try:
            answers = _answers(lesson.files, roots, cases, tools)
        except RuntimeError as error:
            problems.append(f"{data.path}: proving the cases in Pyodide failed: {error}")
            continue
        lesson.traces.update({(answer["function"], answer["case"]): shipped(answer["trace"])
                              for answer in answers if answer.get("ok")})
        _notes(data, answers)
        problems += [problem for answer in answers if (problem := case_problem(data, answer))]
    return problems


def python_roots(lesson: Lesson) -> list[str]:
    """Where the lesson's modules are imported from, in the order they go onto `sys.path` (each at its
    front): the recorder's `py` last, so that it comes first."""
    return [*sorted({file.scenarios.python_root for file in lesson.shown} - {"py"}), "py"]


def _answers(files: dict[str, Path], roots: list[str], cases: list[dict], tools: Toolchain) -> list[dict]:
    """Each case's answer from PROVE_SCRIPT, cached in the toolchain's cache under a key made of everything
    a run depends on: the files' names and bytes (not where they are on disk), the cases, the script and
    the Pyodide version."""
    digest = hashlib.sha256(json.dumps({"files": sorted(files), "roots": roots, "cases": cases},
                                       sort_keys=True).encode() + PROVE_SCRIPT.read_bytes())
    digest.update((tools.pyodide / "package.json").read_bytes())
    for name, path in sorted(files.items()):
        digest.update(name.encode() + path.read_bytes())
    cache = tools.cache / f"proof-{digest.hexdigest()[:16]}.json"
    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    request = {"files": {name: str(path) for name, path in files.items()}, "roots": roots, "cases": cases}
    result = subprocess.run([tools.node, str(PROVE_SCRIPT)], input=json.dumps(request), capture_output=True,
                            text=True, timeout=600,
                            env={**os.environ, "STEPWISE_PYODIDE": str(tools.pyodide / "pyodide.mjs")})
    answers = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    if result.returncode != 0 or len(answers) != len(cases):
        raise RuntimeError(result.stderr.strip()[-800:])
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(answers), encoding="utf-8")
    return answers


def _notes(data: scenarios.Scenarios, answers: list[dict]) -> None:
    """What an author should know though the build passes: slow cases, and cases that draw randomness."""
    for answer in answers:
        seconds = data.functions[answer["function"]].limits.seconds
        if answer.get("ok") and answer["end"]["status"] != "stopped" and answer["end"].get("ms", 0) > seconds * 1000:
            print(f"note: {_case_line(data, answer['function'], answer['case'], 'limits')}: case {answer['case']!r} "
                  f"of {answer['function']!r} took "
                  f"{answer['end']['ms'] / 1000:.1f} s at build, over the page's {seconds:g} s: a reader who edits "
                  "its input may meet the limit (raise `seconds`, or make the case smaller)", flush=True)
    drew = [answer for answer in answers if answer.get("random")]
    if drew:
        sources = sorted({source for answer in drew for source in answer["random"].split(" and ")})
        print(f"note: {data.path}: {len(drew)} case(s) draw randomness ({', '.join(sources)}): "
              f"{', '.join(answer['function'] + '/' + answer['case'] for answer in drew)}. Their shipped traces "
              "hold the values of the build's fixed seed (steptrace/fixed_entropy.py); a reader's live run draws "
              "its own.",
              flush=True)


def shipped(trace: str) -> str:
    """A proven trace as the site ships it: without the recording's timings, which no two builds share."""
    doc = json.loads(trace)
    doc["end"]["ms"] = doc["stats"]["elapsed_ms"] = 0
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))



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
        fix = f"declare raises = {sorted(raised)[0]!r}" if raised else "remove `raises`"
        return (f"{_case_line(data, name, case, 'outcomes')}: {label} declares raises = {declared['raises']!r}, "
                f"but {name} raised {said}; fix the code or the case, or {fix}")
    if exception and exception["type"] != declared.get("raises"):
        if exception.get("in_source"):
            where = f"{data.root / data.source}:{exception['line']}"
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
