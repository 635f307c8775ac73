"""The built site, served as a reader gets it: `build.py serve` in a subprocess (gzip; with or without COOP/COEP)."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

from common import REPO

LESSON = "s08/"  # the lesson page every browser section opens


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`build.py serve` in a subprocess (builds into `out`, then serves it with gzip)."""

    def __init__(self, out: Path, isolation: bool):
        self.out = out
        self.port = free_port()
        command = [sys.executable, "build.py", "serve", "--port", str(self.port), "--out", str(out)]
        if not isolation:
            command.append("--no-isolation")
        self.process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        self.origin = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"build.py serve exited {self.process.returncode}:\n{self.process.stdout.read()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("build.py serve did not answer within 120 s") from None
                time.sleep(0.1)

    @property
    def lesson_url(self) -> str:
        return f"{self.origin}/{LESSON}"

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
