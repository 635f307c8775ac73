# entry: print(main())
# limit-bound: yes (which call meets the limit depends on the stack the recorder itself uses)
# The program rebinds exception classes the recorder catches or raises (RecursionError at the limit,
# StopIteration when a `yield from` ends, BaseException, AttributeError, KeyboardInterrupt): the
# recorder must use its own, so the program sees what it sees untraced, and leave one rebound at the
# end for the run's own clean-up to cope with.
import builtins


def deep(n):
    return deep(n + 1) + 1


def inner():
    yield 1
    yield 2


def outer():
    result = yield from inner()
    return result


class Slotted:
    __slots__ = ("a", "b")


def main():
    saved = {name: getattr(builtins, name) for name in
             ("RecursionError", "StopIteration", "BaseException", "AttributeError", "Exception")}
    real_recursion, real_base = saved["RecursionError"], saved["BaseException"]
    builtins.RecursionError = None
    try:
        deep(0)
        outcome = "no error"
    except real_recursion:
        outcome = "recursion error"
    except real_base as error:
        outcome = "other: " + type(error).__name__
    builtins.RecursionError = saved["RecursionError"]
    noted = []
    builtins.StopIteration = lambda *args: noted.append(args) or saved["StopIteration"](*args)
    total = 0
    for x in outer():
        total += x
    builtins.StopIteration = saved["StopIteration"]
    builtins.BaseException = None
    builtins.AttributeError = type("Other", (saved["Exception"],), {})
    half = Slotted()
    half.a = ValueError("boom")
    builtins.BaseException, builtins.AttributeError = saved["BaseException"], saved["AttributeError"]
    builtins.KeyboardInterrupt = None       # left so: the run's clean-up restores it
    return outcome, len(noted), total, type(half.a).__name__
