# setup: from c_dunder import *\nimport c_dunder as shown\nfrom functools import partial\nL = shown.LOG\nclass Eq:\n    __eq__ = staticmethod(L.append)\n    __hash__ = None\nclass Lt:\n    __lt__ = staticmethod(partial(L.insert, 0))\nclass Hashy:\n    __hash__ = staticmethod(L.pop)\nclass Sized:\n    __len__ = staticmethod(L.pop)\nclass Item:\n    __getitem__ = staticmethod(L.pop)\nclass Attr:\n    __getattr__ = staticmethod(L.append)\nclass Fmt:\n    __format__ = staticmethod(L.append)\nclass Prop:\n    p = property(staticmethod(L.append))\nshown.Eq, shown.Lt, shown.Hashy, shown.Sized, shown.Item, shown.Attr, shown.Fmt, shown.Prop = Eq, Lt, Hashy, Sized, Item, Attr, Fmt, Prop
# Classes whose dunder methods are C callables (bound list methods, partials): not Python code, so
# the calm ops that call them (==, <, hashing in a set display, truth, [], attribute, f-string) write unseen.
LOG = [10, 11, 12, 13, 14, 15, 16]


def main():
    log = LOG
    a = Eq()
    same = a == 3
    b = Lt()
    less = b < 5
    h = Hashy()
    group = {h}
    s = Sized()
    if s:
        n = 1
    item = Item()
    got = item[0]
    at = Attr()
    missing = at.whatever
    fm = Fmt()
    try:
        text = f"{fm:spec}"
    except TypeError:
        text = "x"
    pr = Prop()
    val = pr.p
    n = 0
    print(len(log), log[:8], same, less, got, missing, val, n)
