"""Run the property tests of tests/bounded/ in a child pytest under a memory and time cap.

A regression there (a walk by path through a shared graph, a loop in a previewer) must fail
one test, not take the machine's memory or the CI's time. The child gets this run's
`--hypothesis-seed` when one was given.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent
MEMORY_CAP = 3 * 1024 ** 3      # bytes of address space for the child
TIME_CAP = 900                  # seconds


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def test_value_properties_within_caps(request):
    command = [sys.executable, "-m", "pytest", str(TESTS / "bounded"), "-q", "-p", "no:cacheprovider",
               "-o", "addopts="]
    seed = request.config.getoption("hypothesis_seed", default=None)
    if seed is not None:
        command.append(f"--hypothesis-seed={seed}")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS.parent / "py"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(command, cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=TIME_CAP,
                          preexec_fn=_cap_memory)
    assert done.returncode == 0, f"bounded property tests failed:\n{done.stdout[-6000:]}\n{done.stderr[-2000:]}"
    assert " passed" in done.stdout
