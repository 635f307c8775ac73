# entry: print(main())
# The program rebinds every builtin function and class (not the exceptions: the interpreter raises its
# own) to a stand-in that notes its use, then does the real thing: the recorder, which captured its own
# builtins at import, must call none of them, so the note stays empty, and show true values meanwhile.
import builtins

NOTED = []


def _stand_in(name, real):
    def stand_in(*args, **kwargs):
        NOTED.append(name)
        return real(*args, **kwargs)
    return stand_in


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def main():
    real = dict(vars(builtins))
    names = sorted(name for name, value in real.items() if not name.startswith("_") and callable(value)
                   and not (isinstance(value, type) and issubclass(value, BaseException)))
    put, count, make = setattr, range, Point
    for name in names:
        put(builtins, name, _stand_in(name, real[name]))
    table = {"a": [1, 2], "b": {3, 4}, "c": (5, "six"), "d": b"bytes", "e": 2.5}
    shapes = [make(0, 1), make(2, 3)]
    grid = [[{"k": [r, c]} for c in range(4)] for r in range(4)]     # wide: checked a level at a time
    total = 0
    for i in count(20):
        table["a"].append(i)
        shapes[0].x = i
        grid[i % 4][i % 3]["k"][0] = i
        total += i
    text = "x" * 300
    for name in names:
        put(builtins, name, real[name])
    return sorted(set(NOTED)), total, len(table["a"]), len(text)
