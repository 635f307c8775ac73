# Enum, IntEnum, Flag and auto as a lesson on enumerations shows them: members by name and value, iteration
# in definition order, aliases, comparisons, flags combined and tested, unique refusing a duplicate.
import enum
from enum import Enum, Flag, IntEnum, auto


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1          # an alias of RED


class Weekday(IntEnum):
    MONDAY = auto()
    TUESDAY = auto()
    WEDNESDAY = auto()

    def next(self):
        members = list(type(self))
        return members[(members.index(self) + 1) % len(members)]


class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()
    RW = R | W


class Status(Enum):
    ACTIVE = "active"
    INACTIVE = "inactive"

    @property
    def shout(self):
        return self.value.upper()


def main():
    print(Color.RED, repr(Color.GREEN), Color(3), Color["BLUE"])
    print("alias:", Color.CRIMSON is Color.RED, [c.name for c in Color])
    print("all names:", list(Color.__members__))
    print("enum vs int:", Color.RED == 1, Weekday.MONDAY == 1, Weekday.TUESDAY + 1)
    print(sorted([Weekday.WEDNESDAY, Weekday.MONDAY]), Weekday.WEDNESDAY.next().name)
    p = Perm.R | Perm.X
    print(p, Perm.W in p, Perm.R in p, Perm.RW, Perm(6), bool(Perm(0)))
    print("values:", [m.value for m in Perm])
    print(Status("active").shout, Status.INACTIVE.name)
    try:
        Color(7)
    except ValueError as error:
        print("no member:", error)
    try:
        @enum.unique
        class Bad(Enum):
            A = 1
            B = 1
    except ValueError as error:
        print("unique:", error)
    match Color.GREEN:
        case Color.RED:
            print("red")
        case Color.GREEN:
            print("green matched")
