# `for ... in range(...)` lines step calm only while `range`, `len`, `enumerate`, `zip` and `reversed` are the
# builtins: here a global, then the builtins module's own name, is a C callable whose iterator writes a list
# a local holds (map(log.append, ...)) at every step, where no Python code runs to be seen.
import builtins
import functools

real_zip = builtins.zip


def walk(xs, log):
    total = 0
    for item in range(xs):
        total = total + item
    return total


def walk_builtin(xs, seen):
    total = 0
    for item in zip(xs):
        total = total + 1
    return total


def main():
    global range
    log = []
    range = functools.partial(map, log.append)
    print(walk([1, 2, 3], log), log)
    del range
    seen = []
    builtins.zip = functools.partial(map, seen.append)
    try:
        print(walk_builtin([4, 5], seen), seen)
    finally:
        builtins.zip = real_zip
    for k in range(2):
        print(k, walk_builtin([k], []))
