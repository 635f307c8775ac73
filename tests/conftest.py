import sys
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
