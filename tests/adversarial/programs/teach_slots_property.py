# Properties with a getter, a validating setter and a deleter; a computed read-only property; __slots__
# refusing a new attribute, and slots in a subclass. As a course on classes shows them.
class Temperature:
    def __init__(self, celsius):
        self.celsius = celsius          # goes through the setter

    @property
    def celsius(self):
        print("  get celsius")
        return self._celsius

    @celsius.setter
    def celsius(self, value):
        print(f"  set celsius to {value}")
        if value < -273.15:
            raise ValueError(f"{value} is below absolute zero")
        self._celsius = value

    @celsius.deleter
    def celsius(self):
        print("  delete celsius")
        del self._celsius

    @property
    def fahrenheit(self):
        return self.celsius * 9 / 5 + 32


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"


class Point3(Point):
    __slots__ = ("z",)

    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z

    def __repr__(self):
        return f"Point3({self.x}, {self.y}, {self.z})"


def main():
    t = Temperature(20)
    print("fahrenheit:", t.fahrenheit)
    t.celsius = 100
    print("fahrenheit:", t.fahrenheit)
    try:
        t.celsius = -300
    except ValueError as error:
        print("refused:", error)
    try:
        t.fahrenheit = 0
    except AttributeError as error:
        print("read-only:", type(error).__name__)
    del t.celsius
    print("has _celsius:", hasattr(t, "_celsius"))
    p = Point(1, 2)
    p.x += 10
    try:
        p.z = 3
    except AttributeError as error:
        print("slots refuse:", error)
    print(p, "has __dict__:", hasattr(p, "__dict__"))
    q = Point3(1, 2, 3)
    q.z *= 2
    print(q, Point3.__slots__, Point.__slots__)
    print(sorted(name for name in dir(q) if not name.startswith("__")))
