import sys
import uuid
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
REPO = TESTS.parent
sys.path.insert(0, str(REPO / "tools" / "pyodide_node"))  # the Pyodide bridge, shared with bench/ and tools/
sys.path.insert(0, str(REPO / "py"))

from bridge import PyodideNode  # noqa: E402


@pytest.fixture(scope="session")
def pyodide():
    """One real Pyodide (Python 3.14) under node for the whole session."""
    runtime = PyodideNode()
    yield runtime
    runtime.close()


# tests/bounded/ runs in a capped child process (tests/test_bounded.py), never in this one.
collect_ignore = ["bounded"]


@pytest.fixture
def fresh_module(tmp_path):
    """fresh_module(text, prefix) -> run(entry, setup="", **kw): `text` written as a module of a new name on
    sys.path; `run` answers `run_case`'s JSON text for `entry`, after `from <module> import *` and `setup`.
    Taken away after."""
    from steptrace.runner import run_case
    made: list[str] = []

    def make(text: str, prefix: str = "shown"):
        name = f"{prefix}_{uuid.uuid4().hex[:8]}"
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        made.append(name)
        return lambda entry, setup="", **kw: run_case(f"{name}.py", name, f"from {name} import *\n{setup}", entry,
                                                      **kw)

    sys.path.insert(0, str(tmp_path))
    yield make
    sys.path.remove(str(tmp_path))
    for name in made:
        sys.modules.pop(name, None)
