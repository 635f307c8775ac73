# seconds: 4
# gc-bound: whether a new class and instance take dead ones' ids depends on allocations, so runs differ
# Classes of the program's change under their instances: renamed, made a dataclass later, given
# namedtuple-like fields later, collected (a weak reference to the class must die as untraced), and
# made again and again in a loop so that a new class (other name, other fields) and its instance may
# take a dead class's and instance's ids. Every change must show; nothing the recorder keeps may keep
# a class alive.
import dataclasses
import gc
import weakref


class C:
    a: int = 0
    b: int = 0


class P(tuple):
    pass


def make(name, fields):
    return type(name, (tuple,), {"__slots__": (), "_fields": fields})


def main():
    c = C()
    c.b = 1
    c.a = 2
    C.__name__ = "Renamed"
    p = P((1, 2))
    dataclasses.dataclass(C)
    P._fields = ("x", "y")
    n = 1
    C.__name__ = "C"
    A = type("A", (), {})
    o = A()
    ref = weakref.ref(A)
    del o, A
    gc.collect()
    dead = ref() is None
    for i in range(40):
        Q = make("P", ("a", "b"))
        q = Q((1, 2))
        del q, Q
        gc.collect()
        R = make("R%d" % i, ("x", "y"))
        r = R((1, 2))
        del r, R
    print(dead, n, c, p)
