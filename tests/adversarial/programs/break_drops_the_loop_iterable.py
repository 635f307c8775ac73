# Reads names from a freshly loaded batch until the first empty one, then `break`s. The batch is a list
# only the `for` loop's iterator holds: `break` pops that iterator, so the batch dies on the `break`
# line (a line of pure instructions: pop, jump) and its weakref.finalize callback (stdlib code, not
# traced) appends to `released`.
import weakref


class Batch(list):                 # a list subclass: a plain list cannot be weakly referenced
    pass


def load(names, released):
    batch = Batch(names)
    weakref.finalize(batch, released.append, "batch")
    return batch


def main():
    released = []
    count = 0
    for name in load(["ada", "bob", "", "cy"], released):
        if not name:
            break
        count += 1
    done = count * 2
    print(done, released)
