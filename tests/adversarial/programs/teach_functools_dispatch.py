# functools.wraps keeping a decorated function's name and docstring, a decorator with arguments,
# singledispatch choosing by the first argument's type, and total_ordering filling in comparisons.
import functools
from functools import singledispatch, total_ordering, wraps


def logged(fn):
    @wraps(fn)
    def wrapper(*args, **kwargs):
        print(f"-> {fn.__name__}{args}")
        result = fn(*args, **kwargs)
        print(f"<- {fn.__name__} = {result!r}")
        return result
    return wrapper


def repeat(times):
    def decorate(fn):
        @wraps(fn)
        def wrapper(*args):
            return [fn(*args) for _ in range(times)]
        return wrapper
    return decorate


def bare(fn):
    def wrapper(*args):
        return fn(*args)
    return wrapper


@logged
def add(a, b):
    """Add two numbers."""
    return a + b


@repeat(3)
def greet(name):
    return f"hi {name}"


@bare
def undocumented():
    """Lost docstring."""


@singledispatch
def describe(value):
    return f"something: {value!r}"


@describe.register
def _(value: int):
    return f"an int with {value.bit_length()} bits"


@describe.register
def _(value: list):
    return "a list of " + ", ".join(describe(v) for v in value)


@describe.register(str)
def _describe_str(value):
    return f"a string of length {len(value)}"


@total_ordering
class Money:
    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        return self.cents == other.cents

    def __lt__(self, other):
        print(f"  {self.cents} < {other.cents}?")
        return self.cents < other.cents

    def __repr__(self):
        return f"${self.cents / 100:.2f}"


def main():
    print(add(2, 3), add.__name__, add.__doc__, add.__wrapped__(10, 20))
    print(greet("ann"), greet.__name__)
    print(undocumented.__name__, undocumented.__doc__)
    for value in [7, "seven", [1, "a"], 7.5, True]:
        print(describe(value))
    print(describe.dispatch(bool).__name__, sorted(t.__name__ for t in describe.registry))
    a, b = Money(150), Money(99)
    print(a > b, a >= b, a <= b, b <= b, a != b)
    print(sorted([Money(5), Money(1), Money(3)]))
    print(functools.cmp_to_key(lambda x, y: x - y)(3) < functools.cmp_to_key(lambda x, y: x - y)(4))
