# Class creation in an advanced lesson: a singleton through a metaclass's __call__, a registry filled by
# a metaclass's __new__, __init_subclass__ checking a required attribute, a class made with type(), class
# decorators, and __class_getitem__.
class Singleton(type):
    instances = {}

    def __call__(cls, *args, **kwargs):
        if cls not in cls.instances:
            print(f"  creating the one {cls.__name__}")
            cls.instances[cls] = super().__call__(*args, **kwargs)
        return cls.instances[cls]


class Config(metaclass=Singleton):
    def __init__(self):
        self.values = {}


class Registered(type):
    registry = {}

    def __new__(mcls, name, bases, namespace):
        cls = super().__new__(mcls, name, bases, namespace)
        if bases:
            mcls.registry[name.lower()] = cls
        return cls


class Plugin(metaclass=Registered):
    pass


class Csv(Plugin):
    pass


class Json(Plugin):
    pass


class Command:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "name"):
            raise TypeError(f"{cls.__name__} needs a name")


def add_repr(cls):
    cls.__repr__ = lambda self: f"<{cls.__name__} {vars(self)}>"
    return cls


@add_repr
class Box:
    def __init__(self, size):
        self.size = size

    def __class_getitem__(cls, item):
        return f"{cls.__name__} of {item.__name__}"


def main():
    a, b = Config(), Config()
    a.values["debug"] = True
    print(a is b, b.values, type(Config).__name__)
    print(sorted(Registered.registry), Registered.registry["csv"].__name__, type(Csv).__name__)

    class Ok(Command):
        name = "ok"
    try:
        class Nameless(Command):
            pass
    except TypeError as error:
        print("TypeError:", error)
    Point = type("Point", (), {"x": 0, "shift": lambda self, d: self.x + d})
    print(Point.__name__, Point().shift(5), Ok.name, type(Point) is type)
    print(Box(3), Box[int], type(Box).__name__, isinstance(Box, type))
