# entry: print(main())
# Stdlib values whose repr is written in Python (a path, a UUID, an address, a fraction) are shown while
# the program has rebound `str`, which those reprs call: the recorder must not call them then (the
# stand-in notes each call), and show the values again once `str` is back.
import builtins
import fractions
import ipaddress
import pathlib
import uuid

NOTED = []


def main():
    real = builtins.str

    def stand_in(*args, **kwargs):
        NOTED.append("str")
        return real(*args, **kwargs)

    path, ident = pathlib.PurePosixPath("/tmp/a"), uuid.UUID(int=5)
    address, part = ipaddress.IPv4Address(1), fractions.Fraction(1, 3)
    builtins.str = stand_in
    total = 0
    for i in range(3):
        total += i
    builtins.str = real
    total += 1
    return len(NOTED), total
