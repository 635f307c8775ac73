"""Fixed entropy for a build's recordings, so that the same sources give the same shipped trace.

A lesson's program may draw randomness: `uuid4` receipts, a `TemporaryDirectory`'s name, `random.choice`.
While the build proves a case, every source of it that Python code reaches is fixed from one seed:
`os.urandom` (`uuid4`, `secrets`), the `random` module's shared generator and `SystemRandom`, and
`tempfile`'s name sequence. The page's live runs are never under it: a reader's run draws real randomness.
What the program drew is counted, so that the build can say a case's trace holds the seed's values.
String hashing (set order) is fixed by the interpreter's `PYTHONHASHSEED`, which the prover sets at boot.
"""
from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

SEED = 20260101


class Draws:
    """How much randomness the program drew under `fixed`: `urandom` bytes and `random` calls seen."""

    def __init__(self) -> None:
        self.urandom_bytes = 0
        self.random_used = False

    def said(self) -> str | None:
        """A line for the build's output, or None when the program drew nothing."""
        parts = (["os.urandom"] if self.urandom_bytes else []) + (["random"] if self.random_used else [])
        return " and ".join(parts) or None


@contextmanager
def fixed(seed: int = SEED) -> Iterator[Draws]:
    """Within: `os.urandom`, `random`'s shared generator and `tempfile`'s names all follow `seed`. Put back
    after, whatever happened inside."""
    draws = Draws()
    stream = random.Random(seed)

    def urandom(size: int) -> bytes:
        draws.urandom_bytes += size
        return stream.randbytes(size)

    shared = random._inst                    # the generator behind random.random(), random.choice(), …
    saved_state, saved_urandom, saved_private = shared.getstate(), os.urandom, random._urandom
    names = tempfile._get_candidate_names()  # the sequence mkdtemp and TemporaryDirectory draw names from
    saved_rng = names.__dict__.get("_rng"), names.__dict__.get("_rng_pid")
    shared.seed(seed)
    seeded = shared.getstate()
    os.urandom = random._urandom = urandom   # SystemRandom reads random._urandom
    names._rng, names._rng_pid = random.Random(seed), os.getpid()
    try:
        yield draws
    finally:
        draws.random_used = shared.getstate() != seeded
        os.urandom, random._urandom = saved_urandom, saved_private
        shared.setstate(saved_state)
        names._rng, names._rng_pid = saved_rng


def recorded(run: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """`run(*args, **kwargs)` under `fixed`, and what the program drew (None: nothing)."""
    with fixed() as draws:
        result = run(*args, **kwargs)
    return result, draws.said()
