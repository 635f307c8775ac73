# entry: print(main())
# Non-str keys hashing like the names the previews look up ("__dict__", "__str__", "_fields",
# "__dataclass_fields__" in class dicts; "enum", "dataclasses", "datetime" in sys.modules): a plain
# lookup of those names compares with the key and calls its __eq__.
import sys

CALLS = [0]


class Twin:
    def __init__(self, name):
        self.name = name

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        CALLS[0] += 1
        return False


class Plain:
    locals()[Twin("__dict__")] = 1
    locals()[Twin("_fields")] = 2
    locals()[Twin("__dataclass_fields__")] = 3

    def __init__(self):
        self.x = 1


class Failure(Exception):
    locals()[Twin("__str__")] = 4
    locals()[Twin("__dict__")] = 5


def main():
    keys = [Twin("enum"), Twin("dataclasses"), Twin("datetime")]
    for key in keys:
        sys.modules[key] = None
    start = CALLS[0]
    thing = Plain()
    thing.x = 2
    try:
        raise Failure("boom")
    except Failure as error:
        caught = error

    class Late:
        pass
    late = Late()
    end = CALLS[0]
    for key in keys:
        del sys.modules[key]
    return start, end
