# Dunders that never return, raise or lie: the recorder touches none of them.
class Hang:
    def __repr__(self):
        while True:
            pass

    def __len__(self):
        while True:
            pass

    def __iter__(self):
        while True:
            yield 1

    def __eq__(self, other):
        while True:
            pass

    def __hash__(self):
        while True:
            pass

    def __getattr__(self, name):
        while True:
            pass


class Liar(list):
    def __len__(self):
        return -1

    def __iter__(self):
        raise RuntimeError("no iteration")

    @property
    def __class__(self):
        raise RuntimeError("no class")


def main():
    hang = Hang()
    liar = Liar([1, 2, 3])
    box = {"hang": hang, "liar": liar}
    return list.__len__(liar) + len(box)
