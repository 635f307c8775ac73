# Class attributes against instance attributes: a shared counter on the class, an instance attribute
# shadowing a class one, the shared mutable class list bug, __dict__ of each, classmethods and
# staticmethods, and changing the class attribute afterwards (seen by instances that do not shadow it).
class Dog:
    species = "canis familiaris"
    count = 0
    tricks = []                  # shared by every dog: the bug

    def __init__(self, name):
        self.name = name
        Dog.count += 1
        self.own_tricks = []

    def add_trick(self, trick):
        self.tricks.append(trick)
        self.own_tricks.append(trick)

    @classmethod
    def from_string(cls, text):
        return cls(text.strip().title())

    @staticmethod
    def is_good_name(name):
        return name.isalpha() and len(name) > 1

    @classmethod
    def population(cls):
        return f"{cls.count} dogs of {cls.species}"


class Puppy(Dog):
    species = "canis lupus familiaris (young)"


def main():
    rex, fido = Dog("Rex"), Dog.from_string("  fido ")
    rex.add_trick("roll")
    fido.add_trick("sit")
    print(rex.tricks, fido.tricks, rex.tricks is Dog.tricks)
    print(rex.own_tricks, fido.own_tricks)
    fido.species = "wolf?"
    print(rex.species, fido.species, Dog.species)
    print(sorted(vars(fido)), "species" in vars(rex))
    Dog.species = "dog"
    print(rex.species, fido.species)
    del fido.species
    print(fido.species)
    print(Dog.population(), Puppy("Bit").count, Dog.count, Puppy.population())
    print(Dog.is_good_name("Rex"), rex.is_good_name("R2"), Dog.is_good_name("X"))
    rex.count = 100
    print(rex.count, Dog.count, fido.count)
    print(Puppy.tricks is Dog.tricks, Puppy.species, Dog.species)
    print(type(Dog.__dict__["from_string"]).__name__, type(Dog.__dict__["is_good_name"]).__name__)
