# entry: print(main())
# After an instance was shown, the program swaps its base class's "__dict__" entry for a key of its own
# that hashes the same (through gc.get_referents, the class dict itself): no lookup may call its __eq__.
import gc

CALLS = [0]


class Twin:
    def __hash__(self):
        return hash("__dict__")

    def __eq__(self, other):
        CALLS[0] += 1
        return False


class Base:
    pass


class Sub(Base):
    pass


def main():
    thing = Sub()
    thing.a = 1
    namespace = next(ref for ref in gc.get_referents(Base) if type(ref) is dict)
    del namespace["__dict__"]
    namespace[Twin()] = 0
    thing.a = 2
    return CALLS[0]
