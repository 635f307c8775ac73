# A container's item dies and a new one, made in the same line, takes its memory and so its id: small
# tuples and frozensets (the previewer treats them as unchangeable, like scalars), floats and big ints,
# inside a dict (the item last, so the key order stays), a list and an object. Every one must show as
# changed: the harness compares each look with a fresh preview of every local.


class Box:
    pass


def main():
    d = {"k": (0, 0)}
    e = {"a": 1, "s": frozenset({0})}
    f = {"x": 0.5, "n": 10 ** 30}
    xs = [(0, 0)]
    box = Box()
    box.t = (0, 0)
    for i in range(6):
        d.pop("k"); d["k"] = (i, i + 1)  # noqa: E702 - the old tuple dies before the new one is made
        e.pop("s"); e["s"] = frozenset({i})  # noqa: E702
        f.pop("n"); f["n"] = 10 ** 30 + i  # noqa: E702
        xs[0] = None; xs[0] = (i, -i)  # noqa: E702
        del box.t; box.t = (i, 2 * i)  # noqa: E702
    print(d, e, f, xs, box.t)
