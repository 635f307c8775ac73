# A method call written over two lines: the call sits on the attribute's line, its receiver was made on
# the line above. Here the "strip" is a list's C-level `append`, and the object `list.count` compares
# with has a C-level `__eq__` that appends too: no Python code runs, no event, yet `log` changes on a
# line that looks like a pure text-method line. And `~flag` on a bool warns (3.12+): the warnings
# machinery appends to the list `catch_warnings(record=True)` gave the frame.
import types
import warnings


class Eq:
    pass


def main():
    log = []
    ns = types.SimpleNamespace(strip=log.append)
    n = (ns
         .strip("appended"))
    Eq.__eq__ = log.append
    items = [Eq()]
    c = (items
         .count("compared"))
    flag = True
    y = z = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = ~flag
        z = y + 1
        z = z * 2
    print(n, c, log, y, z, len(caught))
