# entry: print(main())
# Stdlib values whose own repr the previews call (slice, re.Pattern/Match, Fraction, UUID, IPv4Address,
# PurePosixPath, timezone) built from the program's objects: that repr would reach the program's methods.
import fractions
import ipaddress
import pathlib
import re
import uuid
from datetime import datetime, timedelta, timezone

CALLS = []


class Loud:
    def __repr__(self):
        CALLS.append("Loud.__repr__")
        return "Loud()"

    def __str__(self):
        CALLS.append("Loud.__str__")
        return "loud"


class Text(str):
    def __repr__(self):
        CALLS.append("Text.__repr__")
        return str.__repr__(self)

    def endswith(self, *args):
        CALLS.append("Text.endswith")
        return str.endswith(self, *args)


class Number(int):
    def to_bytes(self, *args, **kw):
        CALLS.append("Number.to_bytes")
        return int.to_bytes(self, *args, **kw)

    def __format__(self, spec):
        CALLS.append("Number.__format__")
        return int.__format__(self, spec)


def main():
    cut = slice(Loud(), 3)
    plain_cut = slice(1, 3)
    pattern = re.compile(Text("ab+"))
    found = pattern.match(Text("abb"))
    half = fractions.Fraction(1, 2)
    half._numerator = Loud()
    tag = uuid.UUID(int=Number(5))
    address = ipaddress.IPv4Address(Number(7))
    path = pathlib.PurePosixPath(Text("a/"), "b")
    zone = timezone(timedelta(hours=1), Text("zone"))
    when = datetime(2026, 1, 1, tzinfo=zone)
    plain = [fractions.Fraction(3, 4), uuid.UUID(int=9), pathlib.PurePosixPath("x", "y"), datetime(2026, 1, 2)]
    return len(CALLS), CALLS[:4]
