# Functions of the shown file reached through wrappers: every one is recorded.
import contextlib
import functools


@functools.cache
def cached(n):
    total = n * 2
    return total


@contextlib.contextmanager
def opened(name):
    handle = name.upper()
    yield handle
    closing = True


def logged(fn):
    @functools.wraps(fn)
    def inner(*args):
        result = fn(*args)
        return result
    return inner


@logged
def wrapped(x):
    y = x + 1
    return y


class Box:
    @functools.cached_property
    def area(self):
        side = 3
        return side * side


@functools.singledispatch
def show(value):
    kind = "other"
    return kind


@show.register
def _(value: int):
    kind = "int"
    return kind


TABLE = {"double": lambda v: v * 2}


def main():
    print(cached(2), cached(2))
    with opened("f") as handle:
        print(handle)
    print(wrapped(1), Box().area, show(1), show("s"), TABLE["double"](4))
