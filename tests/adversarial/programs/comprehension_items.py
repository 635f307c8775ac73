# setup: from comprehension_items import *\nimport sys\nimport comprehension_items as shown\nclass Sneaky:\n    def __init__(self, n):\n        self.n = n\n    def __mul__(self, other):\n        frame = sys._getframe(1)\n        frame.f_locals["other"] = "changed by %d" % self.n\n        frame.f_locals["x"] = 5\n        return self.n\nclass Pair:\n    def __init__(self, a, b):\n        self.a, self.b = a, b\n    def __iter__(self):\n        shown.LOG.append("unpacked")\n        return iter((self.a, self.b))\nclass Weird:\n    def __hash__(self):\n        return 5\n    def __eq__(self, other):\n        shown.LOG.append("compared")\n        return False\nclass Dying:\n    def __neg__(self):\n        return Dying()\n    def __mod__(self, other):\n        return 0\n    def __del__(self):\n        shown.LOG.append("freed")\nclass Cycle:\n    def __init__(self, into):\n        self.me, self.into = self, into\n    def __del__(self):\n        self.into.append(Sneaky(9))\nfrom gc import collect\ndef garbage(into):\n    collect()\n    for _ in range(200):\n        Cycle(into)\nshown.Sneaky, shown.Pair, shown.Weird, shown.Dying, shown.garbage, shown.collect = Sneaky, Pair, Weird, Dying, garbage, collect\nclass Freed:\n    def __init__(self, into):\n        self.into = into\n    def __del__(self):\n        self.into.append(Sneaky(3))\nclass Rebinds:\n    def __init__(self, into):\n        self.into = into\n    def __rmul__(self, other):\n        sys._getframe(1).f_locals["k"] = 3\n        self.into.append(Sneaky(4))\n        return 0\nclass Talker:\n    def __hash__(self):\n        return 5\n    def __eq__(self, other):\n        sys._getframe(1).f_locals["other"] = "changed by a key"\n        return False\nclass Evil:\n    def __rmul__(self, other):\n        sys._getframe(1).f_locals["k"] = 1\n        return Talker()\ndef count(n):\n    sys._getframe(1).f_locals["k"] = Evil()\n    return n\nshown.Freed, shown.Rebinds, shown.Evil, shown.count = Freed, Rebinds, Evil, count\nclass BoxTalker:\n    def __init__(self, box):\n        self.box = box\n    def __hash__(self):\n        return 5\n    def __eq__(self, other):\n        self.box.append(other)\n        return False\nclass BoxEvil:\n    def __init__(self, setk, box):\n        self.setk, self.box = setk, box\n    def __rmul__(self, other):\n        self.setk(1)\n        return BoxTalker(self.box)\nclass Idx:\n    def __init__(self, setk, box):\n        self.setk, self.box = setk, box\n    def __index__(self):\n        self.setk(BoxEvil(self.setk, self.box))\n        return 8\nshown.Idx = Idx
# gc-bound: when the collection that runs the finalizers comes depends on allocations
# Comprehensions run inline from 3.12, every iteration a step of this frame. Items of the program's
# whose dunders run there (setup defines them: the recorder sees no call): one that writes the frame's
# variables through f_locals and leaves the comprehension's own name a scalar; pairs unpacked inside
# the item; a key whose __eq__ runs as a later scalar key is added; a value freed as a later key
# replaces it; and garbage whose finalizer puts such an item into the list being iterated.
LOG = []


def with_items_of_the_program():
    log = LOG
    other = "before"
    numbers = [1, 2, 3, Sneaky(1), 4, Sneaky(2), 6]
    doubled = [x * 2 for x in numbers]
    pairs = [(1, 2), (3, 4), Pair(5, 6), (7, 8)]
    sums = [a + b for j, (a, b) in enumerate(pairs)]
    table = {"a": (1, 2), "c": Pair(5, 6), "d": (7, 8)}
    firsts = [a for k, (a, b) in table.items()]
    keyed = [Weird(), 1, 2, 5, 3, 5, 4]
    keys = {x for x in keyed}
    counts = {x: 0 for x in keyed}
    dying = [Dying(), 1, 2, 3]
    signs = {x % 2: -x for x in dying}
    return other, doubled, sums, firsts, len(keys), len(counts), len(signs), len(log)


def changed_in_the_first_iteration():
    """What runs before a comprehension's second iteration: the old value of a walrus target freed, the
    dunder of a name its expressions read, a range argument's call. Each can put the program's objects
    into what the comprehension iterates or builds."""
    other = "before"
    xs = [1, 2, 3, 4, 5]
    y = Freed(xs)
    firsts = [(y := x) * 2 for x in xs]
    ys = [1, 2, 3, 4, 5]
    k = Rebinds(ys)
    scaled = [x * k for x in ys]
    k = Evil()
    keyed = {x * k: 0 for x in range(8)}
    k = 2
    counted = {x * k: 0 for x in range(count(8))}
    # (When the old `y` dies depends on the interpreter: 3.11's settrace keeps it to the next event.)
    return other, len(firsts) >= 5, scaled[:5], len(keyed), len(counted)


def range_of_the_outer_name():
    """range(j) reads the `j` from before the comprehension (an object of the program's, whose
    __index__ makes `k` one too), then the comprehension takes `j` as its own name."""
    box = []
    k = 2

    def setk(value):
        nonlocal k
        k = value

    j = Idx(setk, box)
    keyed = {j * k: 0 for j in range(j)}
    return box, len(keyed)


def collected_midway():
    """On CPython 3.12 and 3.13 the collection comes while the comprehension runs (its tuples count
    towards it), and the finalizers put Sneaky(9) into `plain` after its items were judged. When it comes
    depends on allocations, so nothing printed depends on it."""
    other = "before"
    plain = list(range(1500))
    garbage(plain)
    squares = [(x * 1, (x, x)) for x in plain]
    collect()                        # whatever was not collected yet: its finalizers run now
    return len(squares) >= 1500, other in ("before", "changed by 9")


def main():
    print(with_items_of_the_program())
    print(changed_in_the_first_iteration())
    print(range_of_the_outer_name())
    print(collected_midway())
