# Special methods on a Vector and a Money class: __repr__ against __str__, __eq__ with __hash__ (objects
# as dict keys and in sets), arithmetic with __add__/__mul__/__rmul__/__neg__, __abs__, __bool__, __len__,
# __getitem__, __contains__, __iter__, and NotImplemented falling back to the other operand.
import math


class Vector:
    def __init__(self, *components):
        self.components = tuple(components)

    def __repr__(self):
        return f"Vector{self.components}"

    def __str__(self):
        return "<" + ", ".join(f"{c:g}" for c in self.components) + ">"

    def __eq__(self, other):
        if not isinstance(other, Vector):
            return NotImplemented
        return self.components == other.components

    def __hash__(self):
        return hash(self.components)

    def __add__(self, other):
        return Vector(*(a + b for a, b in zip(self.components, other.components)))

    def __mul__(self, scalar):
        if not isinstance(scalar, (int, float)):
            return NotImplemented
        return Vector(*(c * scalar for c in self.components))

    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __abs__(self):
        return math.hypot(*self.components)

    def __bool__(self):
        return any(self.components)

    def __len__(self):
        return len(self.components)

    def __getitem__(self, index):
        return self.components[index]

    def __iter__(self):
        return iter(self.components)

    def __contains__(self, value):
        return value in self.components


class Unhashable:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v


def main():
    v, w = Vector(3, 4), Vector(1, 2)
    print(repr(v), str(v), v, [v, w])
    print(v + w, v * 2, 3 * w, -v, abs(v), len(v), v[0], v[-1], v[::-1], 4 in v, list(w))
    print(bool(Vector(0, 0)), bool(v), v == Vector(3, 4), v != w, v == (3, 4))
    print(sorted({v, Vector(3, 4), w, Vector(1, 2)}, key=abs))
    lengths = {v: abs(v), w: round(abs(w), 3)}
    print(lengths[Vector(3, 4)], len(lengths))
    x, y = v
    print(x, y, sum(v), max(w), f"{v!r} {v!s}")
    try:
        v * "a"
    except TypeError as error:
        print("TypeError:", error)
    print(Unhashable(1) == Unhashable(1), Unhashable.__hash__)
    try:
        {Unhashable(1)}
    except TypeError as error:
        print("TypeError:", error)
