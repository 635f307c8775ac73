# functools.lru_cache (hits and misses in cache_info, cache_clear, maxsize evicting), partial fixing
# arguments, and reduce folding a list with and without an initial value.
import functools
import operator
from functools import lru_cache, partial, reduce


@lru_cache(maxsize=None)
def ways(n):
    """Ways to climb n stairs taking 1 or 2 steps."""
    if n <= 1:
        return 1
    return ways(n - 1) + ways(n - 2)


@lru_cache(maxsize=2)
def square(x):
    print(f"  computing {x}^2")
    return x * x


def power(base, exponent):
    return base ** exponent


def main():
    print(ways(30), ways.cache_info())
    ways.cache_clear()
    print(ways.cache_info())
    for x in [1, 2, 1, 3, 1, 2]:
        print("square", x, "=", square(x))
    print(square.cache_info())
    cube = partial(power, exponent=3)
    two_to = partial(power, 2)
    print([cube(i) for i in range(5)], [two_to(i) for i in range(5)])
    print(cube.args, cube.keywords, two_to.args)
    print(reduce(operator.add, [1, 2, 3, 4]), reduce(lambda a, b: a * b, range(1, 6), 1))
    print(reduce(lambda acc, word: acc + word[0], ["alpha", "beta", "gamma"], ""))
    steps = []

    def traced_max(a, b):
        steps.append((a, b))
        return a if a > b else b
    print(reduce(traced_max, [3, 9, 2, 11, 5]), steps)
    try:
        reduce(operator.add, [])
    except TypeError as error:
        print("empty:", error)
    print(functools.reduce(operator.or_, [{1}, {2, 3}, {3, 4}]))
