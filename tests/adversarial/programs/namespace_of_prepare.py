# entry: print(main())
# A class body whose namespace comes from a metaclass's __prepare__: a dict subclass with loud methods,
# and a mapping that is no dict at all. Reading either through its own methods would run the program's code.
LOG = []


class LoudDict(dict):
    def items(self):
        LOG.append("items")
        return dict.items(self)

    def get(self, key, default=None):
        LOG.append("get")
        return dict.get(self, key, default)

    def __len__(self):
        LOG.append("len")
        return dict.__len__(self)

    def __iter__(self):
        LOG.append("iter")
        return dict.__iter__(self)

    def __contains__(self, key):
        LOG.append("contains")
        return dict.__contains__(self, key)


class Table:
    """A mapping that is not a dict: the class body stores into it through __setitem__."""
    def __init__(self):
        self.store = {}

    def __getitem__(self, key):
        LOG.append("getitem")
        return self.store[key]

    def __setitem__(self, key, value):
        self.store[key] = value

    def __delitem__(self, key):
        del self.store[key]

    def items(self):
        LOG.append("table items")
        return self.store.items()

    def __len__(self):
        LOG.append("table len")
        return len(self.store)


class Loud(type):
    @classmethod
    def __prepare__(mcs, name, bases):
        return LoudDict()

    def __new__(mcs, name, bases, namespace):
        return super().__new__(mcs, name, bases, dict.copy(namespace))


class Tabled(type):
    @classmethod
    def __prepare__(mcs, name, bases):
        return Table()

    def __new__(mcs, name, bases, namespace):
        return super().__new__(mcs, name, bases, dict(namespace.store))


def main():
    class Body(metaclass=Loud):
        a = 1
        b = a + 1
        for i in range(2):
            b += i
        del i

    class Other(metaclass=Tabled):
        x = 1
        y = 2

    return list(LOG), Body.b, Other.y
