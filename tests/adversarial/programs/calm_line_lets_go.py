# Calm lines (a name rebound to None) that let go of the last reference to an object whose death runs
# code: a finalizer and a weak reference's callback of the shown file (on 3.11 they run inside the
# recorder's own refresh of `f_locals`, where nothing is traced), and a weak reference whose callback is
# a C method (`log.append`: no Python code at all). Each writes a list the frame holds.
import weakref


class Resource:
    def __init__(self, log):
        self.log = log

    def __del__(self):
        self.log.append("closed")


class Thing:
    pass


def main():
    log = []
    res = Resource(log)
    res = None
    n = 1
    obj = Thing()
    ref = weakref.ref(obj, lambda r: log.append("dead"))
    obj = None
    n = n + 1
    other = Thing()
    kept = weakref.ref(other, log.append)
    other = None
    n = n + 1
    print(log[:2], len(log), n, ref() is None, kept() is None)
