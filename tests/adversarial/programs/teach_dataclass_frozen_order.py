# Frozen dataclasses (assignment refused, hashable, usable as dict keys), order=True comparing field by
# field, sorting them, and dataclasses.replace making a changed copy.
import dataclasses
from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0
    label: str = field(default="", compare=False)

    def __str__(self):
        return f"{self.major}.{self.minor}.{self.patch}{'-' + self.label if self.label else ''}"


@dataclass(order=True)
class Card:
    sort_index: int = field(init=False, repr=False)
    rank: int
    suit: str

    def __post_init__(self):
        self.sort_index = self.rank * 10 + "CDHS".index(self.suit)


def main():
    v = Version(1, 4, 2, "beta")
    try:
        v.major = 2
    except dataclasses.FrozenInstanceError as error:
        print("frozen:", error)
    versions = [Version(2), Version(1, 10), Version(1, 4, 2), Version(1, 4), v]
    print([str(x) for x in sorted(versions)])
    print("max:", max(versions), "min:", min(versions))
    print("compare ignores label:", v == Version(1, 4, 2), v < Version(1, 5))
    released = {Version(1, 0): "first", Version(2, 0): "second"}
    print(released[Version(1)], hash(Version(3)) == hash(Version(3)))
    bumped = dataclasses.replace(v, patch=v.patch + 1, label="")
    print(v, "->", bumped, repr(bumped))
    cards = [Card(10, "S"), Card(2, "H"), Card(10, "C"), Card(14, "D")]
    cards.sort()
    print(cards)
    print([f.name for f in dataclasses.fields(Card)])
