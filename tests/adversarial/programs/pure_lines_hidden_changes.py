# seconds: 4
# setup: from pure_lines_hidden_changes import *\nimport pure_lines_hidden_changes as shown\nclass Cycle:\n    def __init__(self):\n        self.me = self\n    def __del__(self):\n        shown.LOG.append(len(shown.LOG))\nshown.Cycle = Cycle
# gc-bound: where in the loop the collections run depends on allocations, so runs differ in when `log` grows
# Loops of pure lines (arithmetic on scalars, tuples) while something else changes what the frame shows:
# a garbage cycle whose finalizer (defined by the setup: code the recorder does not trace) appends to a
# list the frame holds, a weak reference whose object dies in that collection, an in-place add on a list
# another name shares, and a name deleted by a pure line.
import gc
import weakref

LOG = []


class Target:
    pass


def main():
    log = LOG
    keep = Target()
    keep.cycle = keep            # only a cycle keeps it: it dies in the next collection
    ref = weakref.ref(keep)
    del keep
    gc.collect()
    for _ in range(3):
        Cycle()                  # garbage with a finalizer: a collection the loop's tuples set off frees it
    i = 0
    while i < 3 * gc.get_threshold()[0]:   # then pure lines only: a compare, a tuple, an add
        pair = (i, -i)
        i += 1
    shared = [1]
    alias = shared
    shared += [2]                # the list changes in place: `alias` shows it too
    total = 0
    spare = 7
    while total < 50:
        total += 3
        del spare                # a pure line that unbinds a name
        spare = total
    gc.collect()                 # when the loop's collections ran depends on allocations: end the same way
    print(len(log), ref() is None, alias, total, pair)
