# Abstract base classes: an ABC whose abstract methods block instantiation until a subclass implements them
# all, an abstract property, a concrete template method calling the abstract steps, isinstance against
# collections.abc (Sized, Iterable registered by __len__/__iter__), and register() for a virtual subclass.
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence, Sized


class Shape(ABC):
    @abstractmethod
    def area(self):
        ...

    @property
    @abstractmethod
    def name(self):
        ...

    def describe(self):
        return f"{self.name} with area {self.area():.2f}"


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side ** 2

    @property
    def name(self):
        return "square"


class HalfDone(Shape):
    def area(self):
        return 0


class Bag:
    def __init__(self, *items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)


class Point:
    pass


def main():
    try:
        Shape()
    except TypeError as error:
        print("TypeError:", error)
    try:
        HalfDone()
    except TypeError as error:
        print("TypeError:", error)
    print(Square(3).describe(), sorted(Shape.__abstractmethods__), sorted(HalfDone.__abstractmethods__))
    bag = Bag(1, 2, 3)
    print(isinstance(bag, Sized), isinstance(bag, Iterable), isinstance(bag, Sequence), len(bag), list(bag))
    print(isinstance([], Sequence), isinstance({}, Mapping), isinstance("s", Sequence), isinstance(3, Iterable))
    Shape.register(Point)
    print(isinstance(Point(), Shape), issubclass(Point, Shape), Point.__mro__[-1].__name__)
