"""`pip install` of this repository gives a `stepwise` command that builds an author's course anywhere on
disk: the wheel is built here, installed into a fresh virtual env, and run from folders outside the
checkout, with nothing of the checkout on its path."""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The bin folder of a fresh venv holding the wheel built from this checkout (and its pinned deps)."""
    where = tmp_path_factory.mktemp("installed")
    # From a copy of the checkout's files (tracked or new, not ignored), as a clone would have them: a build
    # in the checkout itself would leave setuptools' build/ there, whose stale files a later wheel would carry.
    source = where / "source"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(where / "wheel"),
                    str(source)], check=True, capture_output=True, timeout=600)
    subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True, timeout=300)
    wheel = next((where / "wheel").glob("stepwise-*.whl"))
    subprocess.run([str(where / "venv" / "bin" / "pip"), "install", "--quiet", str(wheel)], check=True,
                   capture_output=True, timeout=600)
    return where / "venv" / "bin"


def run(bin_: Path, *args: str, cwd: Path, env: dict | None = None, timeout: int = 600):
    return subprocess.run([str(bin_ / "stepwise"), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def test_the_wheel_holds_the_front_end_and_the_recorder_not_the_checkout(installed, tmp_path):
    probe = subprocess.run([str(installed / "python"), "-c",
                            "import json, stepwise.assets as a; print(json.dumps([str(a.ROOT), a.CHECKOUT, "
                            "{k: str(v) for k, v in a.worker_python().items()}]))"],
                           cwd=tmp_path, capture_output=True, text=True, check=True)
    root, checkout, worker = json.loads(probe.stdout)
    assert not checkout and Path(root).is_relative_to(installed.parent)
    for name in ("site/js/lesson.js", "site/templates/lesson.html", "site/prove/prove-cases.mjs", "package-lock.json"):
        assert (Path(root) / name).read_bytes() == (REPO / name).read_bytes(), name
    assert not (Path(root) / "site" / "lessons").exists() and not (Path(root) / "lessons").exists()
    assert set(worker) >= {"py/steptrace/recorder.py", "py/steptrace/runner.py", "py/lazy_stdlib.py"}
    for served, path in worker.items():
        assert Path(path).is_relative_to(installed.parent), served
        assert Path(path).read_bytes() == (REPO / served).read_bytes(), served


def test_every_command_says_what_it_takes(installed, tmp_path):
    for command in ("new", "build", "serve", "trace"):
        result = run(installed, command, "--help", cwd=tmp_path)
        assert result.returncode == 0 and f"usage: stepwise {command}" in result.stdout, result.stderr
    assert "COURSE_DIR" in run(installed, "build", "--help", cwd=tmp_path).stdout


def test_a_new_course_anywhere_builds_and_serves(installed, tmp_path):
    """`stepwise new` in an empty folder, then `stepwise build` of it from elsewhere, then `serve`."""
    course = tmp_path / "courses" / "week three"
    assert run(installed, "new", "week3", "--root", str(course), cwd=tmp_path).returncode == 0
    tools = {"STEPWISE_NODE_MODULES": str(REPO / "node_modules")}   # the pinned packages, already installed
    built = run(installed, "build", str(course), "--out", str(tmp_path / "site"), cwd=tmp_path, env=tools)
    assert built.returncode == 0, built.stderr
    site = tmp_path / "site"
    assert "week3" in (site / "index.html").read_text(encoding="utf-8")
    assert json.loads((site / "week3" / "traces" / "tally.short.json").read_text(encoding="utf-8"))["events"]
    assert (site / "py" / "week3" / "core" / "tally.py").read_bytes() == \
        (course / "py" / "week3" / "core" / "tally.py").read_bytes()
    assert (site / "assets" / "js" / "lesson.bundle.js").is_file()
    # A mistake in the course is named with its file and line.
    toml = course / "scenarios" / "week3.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('name = "tally"', 'name = "tallly"'), encoding="utf-8")
    broken = run(installed, "build", ".", cwd=course, env=tools)
    assert broken.returncode == 1 and re.search(r"week3\.toml:\d+: unknown function 'tallly'", broken.stderr)
    toml.write_text(toml.read_text(encoding="utf-8").replace('name = "tallly"', 'name = "tally"'), encoding="utf-8")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([str(installed / "stepwise"), "serve", "--port", str(port)], cwd=course,
                              env={**os.environ, **tools}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/week3/embed/tally.html", timeout=5) as answer:
                    assert answer.status == 200 and answer.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.stdout.read().decode()
                time.sleep(0.3)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert (course / "dist" / "week3" / "index.html").is_file()


def test_without_node_the_build_says_what_to_install(installed, tmp_path):
    assert run(installed, "new", "week3", "--root", str(tmp_path), cwd=tmp_path).returncode == 0
    env = {"PATH": str(installed), "STEPWISE_NODE_MODULES": ""}
    result = run(installed, "build", cwd=tmp_path, env=env)
    assert result.returncode == 1
    assert "node is not on PATH" in result.stderr and "Node.js 20+" in result.stderr, result.stderr


def test_the_pinned_npm_packages_are_installed_once_into_the_users_cache(installed, tmp_path):
    """With no node_modules at hand, the installed command fetches the pins of its package-lock with npm
    into the user's cache (here a temporary one), and finds them there the next time."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "STEPWISE_NODE_MODULES": ""}
    code = "from stepwise import toolchain; print(toolchain.find().modules)"
    first = subprocess.run([str(installed / "python"), "-c", code], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=900)
    assert first.returncode == 0, first.stderr
    assert "installing the pinned pyodide" in first.stderr
    modules = Path(first.stdout.strip())
    assert modules.is_relative_to(tmp_path / "cache" / "stepwise")
    pins = json.loads((REPO / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    for name in ("pyodide", "esbuild"):
        version = json.loads((modules / name / "package.json").read_text(encoding="utf-8"))["version"]
        assert version == pins[f"node_modules/{name}"]["version"]
    again = subprocess.run([str(installed / "python"), "-c", code], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=60)
    assert again.returncode == 0 and again.stdout == first.stdout and "installing" not in again.stderr
