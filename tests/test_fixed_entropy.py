"""A build's recordings under fixed entropy (py/steptrace/fixed_entropy.py): the same draws each time,
counted, and everything put back after."""
from __future__ import annotations

import os
import random
import secrets
import tempfile
import uuid

from steptrace import fixed_entropy


def draw() -> tuple:
    with tempfile.TemporaryDirectory(prefix="lesson-") as folder:
        name = os.path.basename(folder)
    return uuid.uuid4(), random.random(), secrets.token_hex(4), name


def test_the_same_draws_each_time_and_counted():
    with fixed_entropy.fixed() as first_draws:
        first = draw()
    with fixed_entropy.fixed() as second_draws:
        second = draw()
    assert first == second
    assert first_draws.said() == second_draws.said() == "os.urandom and random"
    with fixed_entropy.fixed() as quiet:
        sorted([3, 1, 2])
    assert quiet.said() is None


def test_everything_is_put_back():
    urandom, state = os.urandom, random.getstate()
    with fixed_entropy.fixed():
        random.random()
    assert os.urandom is urandom and random.getstate() == state
    assert draw() != draw()     # real randomness again
    try:
        with fixed_entropy.fixed():
            raise KeyError("inside")
    except KeyError:
        pass
    assert os.urandom is urandom


def test_recorded_runs_a_function_and_says_what_it_drew():
    result, drew = fixed_entropy.recorded(lambda n: [uuid.uuid4() for _ in range(n)], 2)
    again, _ = fixed_entropy.recorded(lambda n: [uuid.uuid4() for _ in range(n)], 2)
    assert result == again and drew == "os.urandom"
