"""Capture everything the program writes to stdout and stderr, in order, per step.

During a run `sys.stdout`, `sys.stderr` *and* `sys.__stdout__`/`sys.__stderr__`
are capture streams, so every route lands here: `print`, `print(file=sys.__stdout__)`,
a module-level `OUT = sys.stdout` (the shown module is imported during the run),
`sys.stdout.buffer.write(b"…")`, `reconfigure(…)`, `logging` (its handlers write to
the `sys.stderr` of the moment) and `warnings`. Each write is attributed to the step
that made it and tagged with its stream. Not captured: bytes written to the file
descriptors themselves (`os.write(1, …)`, a C library's printf); `fileno()` says so
the way `io.StringIO` does (`io.UnsupportedOperation`).

Threads the program starts write into the capture too while the run lasts; one it leaves running is
abandoned: it goes on, and what it writes while a later run captures is dropped (`_ABANDONED`).

Pyodide's batched stdout hands lines to JavaScript and drops a last line without a
newline (pyodide#4139); capturing in Python keeps every character.
"""
from __future__ import annotations

import _thread
import codecs
import io
import sys

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    TypeError,
    bytes,
    getattr,
    issubclass,
    len,
    max,
    memoryview,
    set,
    setattr,
    str,
    super,
    tuple,
    type,
    zip,
)
from collections.abc import Callable

OUTPUT_CAP = 1_000_000   # characters kept for the whole run, both streams together
# Threads a run left running (their idents): what they write while a later run captures is dropped, so
# nothing of one run reaches another's output. Between runs they write to the host's streams.
_ABANDONED: set[int] = set()
_get_ident = _thread.get_ident
_exact_str = str.__str__   # a str subclass's text as an exact str, in C (its own __str__ is not called)


class _Budget:
    """The characters both streams may still keep."""

    def __init__(self, cap: int) -> None:
        self.left = cap
        self.truncated = False


class CapturedBinary(io.RawIOBase):
    """`stream.buffer`: bytes decoded as UTF-8 (split characters kept across writes)."""

    def __init__(self, text: CapturedStream) -> None:
        super().__init__()
        self._text = text
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        self._text.write(self._decoder.decode(bytes(view)))
        return len(view)

    def flush(self) -> None:
        self._text.write(self._decoder.decode(b"", final=True))


class CapturedStream(io.TextIOBase):
    """A text stream standing in for stdout or stderr during a run."""

    def __init__(self, name: str, sink: Callable[[str, str], None] | None, budget: _Budget) -> None:
        super().__init__()
        self.stream = name                # "out" or "err"
        self._sink = sink
        self._budget = budget
        self.parts: list[str] = []
        self.buffer = CapturedBinary(self)

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        return "strict"

    @property
    def line_buffering(self) -> bool:
        return True

    @property
    def name(self) -> str:
        return "<stdout>" if self.stream == "out" else "<stderr>"

    @property
    def mode(self) -> str:
        return "w"

    @property
    def write_through(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def reconfigure(self, **options: object) -> None:
        """Accepted and ignored: the capture is already UTF-8 and unbuffered."""

    def write(self, text: str) -> int:
        if type(text) is not str:
            if not issubclass(type(text), str):
                raise TypeError(f"write() argument must be str, not {type(text).__name__}")
            text = _exact_str(text)         # a str subclass, as a real stream takes it (no method of its own runs)
        if not text:
            return 0
        if _ABANDONED and _get_ident() in _ABANDONED:
            return len(text)                # a thread an earlier run left running (see _ABANDONED)
        budget = self._budget
        kept = text if len(text) <= budget.left else text[:max(budget.left, 0)]
        if len(kept) < len(text):
            budget.truncated = True
        if kept:
            budget.left -= len(kept)
            self.parts.append(kept)
            if self._sink is not None:
                self._sink(kept, self.stream)
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.parts)


_NAMES = ("stdout", "stderr", "__stdout__", "__stderr__")


class OutputCapture:
    """Swaps both streams (and the interpreter's originals) for capture streams while active."""

    def __init__(self, sink: Callable[[str, str], None] | None = None) -> None:
        self._budget = _Budget(OUTPUT_CAP)
        self.out = CapturedStream("out", sink, self._budget)
        self.err = CapturedStream("err", sink, self._budget)
        self._saved: tuple = ()

    @property
    def truncated(self) -> bool:
        return self._budget.truncated

    def __enter__(self) -> OutputCapture:
        alive = set(sys._current_frames())
        _ABANDONED.intersection_update(alive)   # an ident may be reused once its thread has ended
        self._threads_before = alive
        self._saved = tuple(getattr(sys, name) for name in _NAMES)
        sys.stdout = sys.__stdout__ = self.out
        sys.stderr = sys.__stderr__ = self.err
        return self

    def __exit__(self, *exc_info: object) -> None:
        for name, stream in zip(_NAMES, self._saved, strict=True):
            setattr(sys, name, stream)
        _ABANDONED.update(set(sys._current_frames()) - self._threads_before)
