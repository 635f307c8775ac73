# Shares of a batch, where an empty name makes a pure line (`share = 100 // size`) divide by zero. The
# batch is a list the `for` made its iterator over, and nothing else holds it: unwinding to the handler
# drops the iterator, so the batch dies and its weakref.finalize callback (stdlib code, not traced)
# appends to `released` before the `except` line runs.
import weakref


class Batch(list):                 # a list subclass: a plain list cannot be weakly referenced
    pass


def load(names, released):
    batch = Batch(names)
    weakref.finalize(batch, released.append, "batch")
    return batch


def main():
    released = []
    shares = 0
    try:
        for name in load(["ada", "bob", ""], released):
            size = len(name)
            share = 100 // size
            shares += share
    except ZeroDivisionError:
        print("empty name", shares)
    print(released)
