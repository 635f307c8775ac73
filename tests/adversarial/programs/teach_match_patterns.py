# Structural pattern matching: literal and or-patterns, sequence patterns with *rest, mapping patterns with
# **rest, class patterns (positional through __match_args__ and by keyword), guards, as-bindings, and the
# wildcard, run over a list of commands and shapes.
from dataclasses import dataclass


@dataclass
class Point:
    x: float
    y: float


@dataclass
class Circle:
    center: Point
    radius: float


class Rect:
    __match_args__ = ("corner", "width", "height")

    def __init__(self, corner, width, height):
        self.corner, self.width, self.height = corner, width, height


def command(text):
    match text.split():
        case []:
            return "nothing"
        case ["quit" | "exit"]:
            return "bye"
        case ["go", ("north" | "south" | "east" | "west") as direction]:
            return f"going {direction}"
        case ["go", other]:
            return f"cannot go {other}"
        case ["take", first, *rest] if rest:
            return f"take {first} and {len(rest)} more: {rest}"
        case ["take", item]:
            return f"take {item}"
        case [verb, *_]:
            return f"unknown verb {verb!r}"


def area(shape):
    match shape:
        case Circle(Point(x=0, y=0), r):
            return f"circle at origin r={r}"
        case Circle(center=Point(x, y), radius=r) if r > 10:
            return f"big circle at ({x}, {y})"
        case Circle(radius=r):
            return f"circle {3.14159 * r * r:.2f}"
        case Rect(_, w, h) if w == h:
            return f"square {w * h}"
        case Rect(Point(x, y), w, h):
            return f"rect from ({x}, {y}) area {w * h}"
        case Point():
            return "a point has no area"
        case _:
            return f"not a shape: {type(shape).__name__}"


def event(payload):
    match payload:
        case {"type": "click", "pos": (x, y)}:
            return f"click at {x},{y}"
        case {"type": "key", "key": str(key), **extra} if extra:
            return f"key {key} with {sorted(extra)}"
        case {"type": "key", "key": str() as key}:
            return f"key {key}"
        case {"type": kind}:
            return f"unhandled {kind}"
        case int(n) | float(n) if n < 0:
            return "negative number"
        case [int(), int()] | (int(), int()):
            return "pair of ints"
        case None:
            return "none"
        case _:
            return "??"


def main():
    for text in ["", "quit", "go north", "go up", "take lamp", "take lamp key rope", "dance now"]:
        print(repr(text), "->", command(text))
    for shape in [Circle(Point(0, 0), 2), Circle(Point(1, 2), 11), Circle(Point(1, 1), 1),
                  Rect(Point(0, 0), 3, 3), Rect(Point(1, 1), 2, 5), Point(3, 4), "triangle"]:
        print(area(shape))
    for payload in [{"type": "click", "pos": (3, 4)}, {"type": "key", "key": "q", "shift": True, "alt": False},
                    {"type": "key", "key": "a"}, {"type": "scroll"}, -5, -2.5, [1, 2], (3, 4), None, "x"]:
        print(event(payload))
