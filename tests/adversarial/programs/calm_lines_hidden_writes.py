# setup: from calm_lines_hidden_writes import *\nimport calm_lines_hidden_writes as shown\nclass Noisy:\n    def __init__(self, log):\n        self.log = log\n    @property\n    def size(self):\n        self.log.append("read")\n        return len(self.log)\n    def __eq__(self, other):\n        self.log.append("compared")\n        return False\n    __hash__ = None\ndef feed(log, n):\n    for i in range(n):\n        log.append(i)\n        yield i\nshown.Noisy, shown.feed = Noisy, feed
# Calm lines (loads, compares, arithmetic: no call, no store into an object) while an object a local
# holds changes all the same: a property and an __eq__ of a class the setup made (code the recorder does
# not trace) append to a list, a generator of the setup's appends as a `for` takes each item, a
# defaultdict's read inserts a key, an iterator calls a list's pop at each step, and a line that binds
# one name twice (its first list may die and the second take its address).
from collections import defaultdict


def main():
    log = []
    noisy = Noisy(log)
    seen = 0
    while seen < 3:
        seen = noisy.size
    same = noisy == seen
    steps = 0
    for item in feed(log, 3):
        steps = steps + item
    source = feed(log, 3)
    for item in source:
        steps = steps + item
    counts = defaultdict(int)
    total = counts["a"] + counts["b"]
    line = "%(c)s" % counts
    stack = [0, 1, 2, 3]
    popping = iter(stack.pop, 0)
    for item in popping:
        total = total + item
    box = [1, 2]; box = None; box = [3]  # noqa: E702
    print(log, same, steps, dict(counts), line, stack, total, box)
