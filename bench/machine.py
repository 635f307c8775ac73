"""The machine a benchmark ran on (cores, versions, commit, load), recorded with its figures."""
from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
import sys

from common import PYODIDE_PACKAGE, REPO
from page import CHROMIUM


def machine() -> dict:
    def version(command: list[str]) -> str:
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip()
        except OSError as error:
            return f"unavailable ({error})"
    return {"nproc": os.cpu_count(), "platform": platform.platform(), "python": sys.version.split()[0],
            "node": version(["node", "--version"]), "chromium": version([CHROMIUM, "--version"]),
            "pyodide": json.loads((PYODIDE_PACKAGE / "package.json").read_text())["version"],
            "loadavg_at_start": loadavg(),
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "git": version(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
            + (" (dirty)" if version(["git", "-C", str(REPO), "status", "--porcelain"]) else "")}


def loadavg() -> list[float]:
    """The 1-, 5- and 15-minute load averages now (other work sharing the CPU makes time figures pessimistic)."""
    return [round(x, 2) for x in os.getloadavg()]
