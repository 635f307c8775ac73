# A preview keeps only the head of long text: a bytearray that grows past it, and str subclass items
# that die and are replaced (at the same address, so the same id) by longer ones with the same head.
# The shown length changes every time, so every one is a change.


class S(str):
    pass


def main():
    ba = bytearray(b"x" * 130)
    for i in range(3):
        ba.append(65)
    d = {"k": S("a" * 70)}
    xs = [S("b" * 70)]
    for i in range(1, 5):
        t, u = "a" * (70 + i), "b" * (70 + i)
        d.pop("k"); d["k"] = S(t)  # noqa: E702 - the old item dies before the new one is made
        xs[0] = None; xs[0] = S(u)  # noqa: E702
    print(len(ba), len(d["k"]), len(xs[0]))
