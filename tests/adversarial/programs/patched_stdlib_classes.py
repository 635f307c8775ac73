# entry: print(main())
# The program patches methods of stdlib classes whose values the previews show (pathlib, fractions,
# uuid, ipaddress): the previews must not call them (their text is made from the values' fields).
import fractions
import ipaddress
import pathlib
import uuid

CALLS = []


def loud(name, result):
    def method(self, *args):
        CALLS.append(name)
        return result
    return method


def main():
    pathlib.PurePath.as_posix = loud("as_posix", "patched")
    pathlib.PurePath.__str__ = loud("path __str__", "patched")
    fractions.Fraction.__repr__ = loud("Fraction __repr__", "patched")
    uuid.UUID.__str__ = loud("UUID __str__", "patched")
    ipaddress.IPv4Address.__str__ = loud("IPv4 __str__", "patched")
    path = pathlib.PurePosixPath("a", "b")
    half = fractions.Fraction(1, 2)
    tag = uuid.UUID(int=9)
    address = ipaddress.IPv4Address(7)
    return len(CALLS)
