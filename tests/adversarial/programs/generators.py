# Generators, yield from, generator expressions and closures.
def count(n):
    i = 0
    while i < n:
        yield i
        i += 1


def relay(n):
    yield from count(n)
    yield -1


def adder(k):
    def add(x):
        return x + k
    return add


def main():
    values = list(relay(3))
    lazy = (v * 2 for v in values)
    first = next(lazy)
    unused = count(10)
    next(unused)
    return sum(values) + first + adder(1)(1)
