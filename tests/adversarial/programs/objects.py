# Instances, slots, dataclasses, named tuples, enums and exceptions are shown by their fields.
import enum
from collections import namedtuple
from dataclasses import dataclass, field

Point = namedtuple("Point", "x y")


class Color(enum.Enum):
    RED = 1


@dataclass
class Route:
    stops: list = field(default_factory=list)
    cost: float = 0.0


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = 1


class Cache:
    def __init__(self):
        self.hits = 0
        self.store = {}


def main():
    route = Route(["a", "b"], 2.5)
    point = Point(1, 2)
    color = Color.RED
    slotted = Slotted()
    cache = Cache()
    cache.hits += 1
    cache.store["k"] = route
    error = ValueError("bad", 2)
    return cache.hits
