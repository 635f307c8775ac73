# Inheritance: overriding and extending with super(), cooperative multiple inheritance in a diamond (each
# __init__ runs once, in MRO order), the MRO printed, isinstance/issubclass, __init_subclass__ registering
# subclasses, a mixin, and an inconsistent MRO refused.
class Animal:
    registry = []

    def __init_subclass__(cls, sound="...", **kwargs):
        super().__init_subclass__(**kwargs)
        cls.sound = sound
        Animal.registry.append(cls.__name__)

    def __init__(self, name):
        print(f"  Animal.__init__({name})")
        self.name = name

    def speak(self):
        return f"{self.name} says {self.sound}"


class Dog(Animal, sound="woof"):
    def __init__(self, name, tricks=()):
        super().__init__(name)
        print("  Dog.__init__")
        self.tricks = list(tricks)

    def speak(self):
        return super().speak() + "!"


class Puppy(Dog, sound="yip"):
    def speak(self):
        return super().speak().upper()


class Base:
    def __init__(self, **kwargs):
        print("  Base.__init__", sorted(kwargs))
        self.log = ["Base"]


class Left(Base):
    def __init__(self, left=0, **kwargs):
        print("  Left.__init__ before super")
        super().__init__(**kwargs)
        self.log.append("Left")
        self.left = left


class Right(Base):
    def __init__(self, right=0, **kwargs):
        print("  Right.__init__ before super")
        super().__init__(**kwargs)
        self.log.append("Right")
        self.right = right


class Bottom(Left, Right):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.log.append("Bottom")


class ReprMixin:
    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class Pet(ReprMixin, Dog, sound="purr"):
    pass


def main():
    rex = Dog("Rex", ["sit"])
    print(rex.speak(), Puppy("Bit").speak())
    print(Animal.registry, Puppy.sound, Dog.sound)
    b = Bottom(left=1, right=2, extra=3)
    print(b.log, b.left, b.right)
    print([cls.__name__ for cls in Bottom.__mro__])
    print([cls.__name__ for cls in Puppy.mro()])
    print(isinstance(Puppy("p"), Animal), issubclass(Bottom, Right), issubclass(Right, Left))
    print(Pet("Tom"))
    try:
        class Broken(Left, Base, Right):
            pass
    except TypeError as error:
        print("refused:", error)
