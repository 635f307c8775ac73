# __del__ and weakref callbacks happen exactly when untraced; getrefcount is unchanged.
import sys
import weakref

log = []


class Resource:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("closed", self.name)


def main():
    a = Resource("a")
    ref = weakref.ref(a, lambda _: log.append("callback"))
    a = None
    print("after a", ref() is None, log)
    b = [Resource("b")]
    b.pop()
    print("after b")
    c = []
    print("refs", sys.getrefcount(c))
    return len(log)
