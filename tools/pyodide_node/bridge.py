"""Drive Python code inside real Pyodide (npm `pyodide`, under node) from CPython.

Tests and benchmarks use one long-lived node process per session: booting
Pyodide costs seconds, a request costs milliseconds.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import threading
from pathlib import Path

DRIVER = Path(__file__).with_name("driver.mjs")
REPO = DRIVER.parents[2]


class PyodideError(RuntimeError):
    """Python code run inside Pyodide raised; the message is its traceback."""


class PyodideNode:
    def __init__(self, boot_timeout: float = 120.0) -> None:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node is not on PATH; install Node.js 20+ to run the Pyodide tests")
        if not (REPO / "node_modules" / "pyodide").is_dir():
            raise RuntimeError("node_modules/pyodide is missing; run `npm ci` in the repo root")
        self._process = subprocess.Popen(
            [node, str(DRIVER)], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        self._stderr: list[str] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self._next_id = 0
        ready = self._read(boot_timeout)
        if ready.get("type") != "ready":
            raise RuntimeError(f"Pyodide driver did not boot: {ready}")
        self.python_version: str = ready["python"]
        self.pyodide_version: str = ready["pyodide"]

    def _drain_stderr(self) -> None:
        for line in self._process.stderr:
            self._stderr.append(line)

    def _read(self, timeout: float) -> dict:
        result: list[str] = []
        reader = threading.Thread(target=lambda: result.append(self._process.stdout.readline()))
        reader.start()
        reader.join(timeout)
        if reader.is_alive() or not result or not result[0]:
            tail = "".join(self._stderr[-20:])
            self.close()
            raise RuntimeError(f"Pyodide driver gave no answer within {timeout}s; stderr:\n{tail}")
        return json.loads(result[0])

    def run(self, code: str, timeout: float = 120.0) -> str:
        """Run `code` in a fresh namespace in Pyodide; return what it assigned to `result`."""
        self._next_id += 1
        self._process.stdin.write(json.dumps({"type": "exec", "id": self._next_id, "code": code}) + "\n")
        self._process.stdin.flush()
        answer = self._read(timeout)
        if answer.get("id") != self._next_id:
            raise RuntimeError(f"out-of-order answer from the Pyodide driver: {answer}")
        if not answer["ok"]:
            raise PyodideError(answer["error"])
        return answer["value"]

    def run_json(self, code: str, timeout: float = 120.0):
        return json.loads(self.run(code, timeout))

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.stdin.close()
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
