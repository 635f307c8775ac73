# Type hints a course introduces: typing.NamedTuple with defaults and methods, TypedDict (a plain dict at
# run time), a Protocol checked structurally with runtime_checkable, Optional and Union in signatures,
# a generic function with TypeVar, get_type_hints, and annotations that are not enforced.
from typing import NamedTuple, Optional, Protocol, TypedDict, TypeVar, Union, get_type_hints, runtime_checkable

T = TypeVar("T")


class Coordinate(NamedTuple):
    lat: float
    lon: float
    label: str = "?"

    def flipped(self) -> "Coordinate":
        return Coordinate(self.lon, self.lat, self.label)


class Movie(TypedDict):
    title: str
    year: int


@runtime_checkable
class Drawable(Protocol):
    def draw(self) -> str:
        ...


class Circle:
    def draw(self) -> str:
        return "()"


class Text:
    pass


def first(items: list[T]) -> Optional[T]:
    return items[0] if items else None


def double(value: Union[int, str]) -> Union[int, str]:
    return value * 2


def greet(name: str, excited: bool = False) -> str:
    return f"Hello, {name}{'!' if excited else '.'}"


def main():
    c = Coordinate(48.85, 2.35, "Paris")
    print(c, c.flipped(), c._fields, c._field_defaults, Coordinate(1, 2))
    lat, lon, _ = c
    print(lat + lon, c._asdict(), isinstance(c, tuple))
    movie: Movie = {"title": "Alien", "year": 1979}
    print(movie, type(movie).__name__, Movie.__annotations__ == {"title": str, "year": int})
    print(isinstance(Circle(), Drawable), isinstance(Text(), Drawable), [s.draw() for s in [Circle()]])
    print(first([3, 4]), first([]), first("abc"), double(4), double("ab"))
    hints = get_type_hints(greet)
    print({name: getattr(kind, "__name__", str(kind)) for name, kind in hints.items()})
    print(greet("Ada"), greet("Ada", excited=True), greet(42))
    print(get_type_hints(first)["return"] == Optional[T], T.__name__, Coordinate.__annotations__)
