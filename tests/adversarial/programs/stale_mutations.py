# In-place changes of types that used to keep stale previews.
from collections import Counter, OrderedDict, defaultdict, deque


def main():
    groups = defaultdict(list)
    counts = Counter()
    raw = bytearray(b"abc")
    order = OrderedDict(a=1, b=2)
    queue = deque([1, 2])
    for word in ["x", "y", "x"]:
        groups[word].append(len(word))
        counts[word] += 1
        raw[0] += 1
    order.move_to_end("a")
    queue.appendleft(0)
    return sum(counts.values())
