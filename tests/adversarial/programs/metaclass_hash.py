# A metaclass whose __hash__ and __eq__ never return: instances of its classes are still shown.
class Meta(type):
    def __hash__(cls):
        while True:
            pass

    def __eq__(cls, other):
        while True:
            pass


class Thing(metaclass=Meta):
    def __init__(self):
        self.size = 3


def main():
    thing = Thing()
    kinds = [type(thing)]
    return thing.size + len(kinds)
