"""Fifty teaching programs of our own (tests/fixtures/play_corpus/: aliasing, recursion, closures, classes,
exceptions, generators, sorting, strings, dicts, input()) opened in the playground from a link, as a
shared program arrives, and run: the output is what CPython prints for the file with its input piped in,
the page's trace has as many events as the same program recorded by the node Pyodide the tests use (two
hosts, one recorder: the step count is the trace's), and the memory picture is drawn without error at every
10th step."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
from conftest import new_page
from pages import ZH, Widget
from playwright.sync_api import expect

from stepwise.playground import packed_code

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "play_corpus"
PROGRAMS = sorted(CORPUS.glob("*.py"))


def stdin_of(program: Path) -> str:
    given = program.with_suffix(".stdin")
    return given.read_text(encoding="utf-8") if given.is_file() else ""


def untraced(program: Path) -> tuple[str, int]:
    done = subprocess.run([sys.executable, program.name], input=stdin_of(program), cwd=program.parent,
                          capture_output=True, text=True, timeout=60)
    return done.stdout, done.returncode


@pytest.fixture(scope="module")
def play(chromium, server):
    watched = new_page(chromium, server, lesson="play")
    yield watched
    watched.context.close()


def test_the_corpus_is_fifty_programs():
    assert len(PROGRAMS) == 50
    assert sum(1 for program in PROGRAMS if program.with_suffix(".stdin").is_file()) >= 8


@pytest.mark.parametrize("program", PROGRAMS, ids=[program.stem for program in PROGRAMS])
def test_a_program_runs_in_the_playground_as_in_cpython(play, pyodide, program):
    page = play.page
    since = play.mark()
    text = program.read_text(encoding="utf-8")
    params = {"f": "main", "code": packed_code(text)}
    if stdin_of(program):
        params["stdin"] = stdin_of(program)
    page.evaluate("(hash) => { location.hash = hash; }", urlencode(params))
    widget = Widget(page, "main", path="main.py")
    expect(widget.root.locator(".dbg-code > .code .line")).to_have_count(len(text.rstrip("\n").split("\n")))
    widget.press("run")
    out, status = untraced(program)
    # A program that raises is left paused where it raised, with what it printed until then.
    expect(widget.status).to_have_text(ZH["finished"] if status == 0 else re.compile(r"^已暂停 第\d+行 · 异常抛出$"),
                                       timeout=60_000)
    assert widget.stdout.text_content() == (out or "（没有输出）")
    # Every 10th step, and the last: the memory picture is drawn (at least the module's frame), nothing fails.
    drawn = page.evaluate("""() => {
      const widget = stepwise.debuggers.get("main");
      const slider = widget.root.querySelector(".timeline input");
      const stops = widget.replay.totalStops;
      const steps = [];
      for (let step = 1; step <= stops + 1; step += 10) steps.push(step);
      steps.push(stops + 1);
      const frames = [];
      for (const step of steps) {
        slider.value = String(step);
        slider.dispatchEvent(new Event("input"));
        frames.push(widget.root.querySelectorAll(".memory-body [role=group]").length);
      }
      return { max: Number(slider.max), stops, frames, events: widget.replay.eventCount };
    }""")
    assert drawn["max"] == drawn["stops"] + 1
    recorded = json.loads(pyodide.run("import json\nfrom steptrace.whole_program import run_program\n"
                                      f"result = run_program({text!r}, {stdin_of(program)!r})"))
    assert drawn["events"] == recorded["stats"]["events"], (drawn["events"], recorded["stats"])
    assert all(count >= 1 for count in drawn["frames"][1:]), drawn
    assert play.problems(since) == []
