"""Capture stdout inside Python, attributing each write to the step that made it.

Pyodide's batched stdout hands lines to JavaScript and drops a last line
without a newline (pyodide#4139); replacing `sys.stdout` with this writer keeps
every character, including `print(..., end="")`, and tells which event wrote it.
"""
from __future__ import annotations

import io
import sys
from collections.abc import Callable

STDOUT_CAP = 1_000_000   # characters kept for the whole run


class StdoutCapture(io.TextIOBase):
    """A text stream standing in for sys.stdout during a run."""

    def __init__(self, sink: Callable[[str], None] | None = None, cap: int = STDOUT_CAP) -> None:
        super().__init__()
        self.sink = sink
        self.cap = cap
        self.parts: list[str] = []
        self.size = 0
        self.truncated = False
        self._saved = None

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if type(text) is not str:
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if not text:
            return 0
        room = self.cap - self.size
        kept = text if len(text) <= room else text[:max(room, 0)]
        if len(kept) < len(text):
            self.truncated = True
        if kept:
            self.parts.append(kept)
            self.size += len(kept)
            if self.sink is not None:
                self.sink(kept)
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.parts)

    def __enter__(self) -> StdoutCapture:
        self._saved = sys.stdout
        sys.stdout = self
        return self

    def __exit__(self, *exc_info: object) -> None:
        sys.stdout = self._saved
