# setup: from scalar_then_object import *\nimport scalar_then_object as shown\nclass Sneaky:\n    def __init__(self, box):\n        self.box = box\n    def __add__(self, other):\n        self.box.append(other)\n        return 0\nshown.Sneaky = Sneaky
# A name that held an int comes to hold an object whose `__add__` (setup code, not traced) appends to a
# list the frame shows: `y = x + 1` is a pure line by its bytecode (once a cheap step while x was an int), and must not
# be once x is that object (the recorder's `scalars` of the frame must drop x when it stops being one).


def main():
    box = []
    x = 1
    for k in range(4):
        y = x + 1
        x = Sneaky(box) if k == 1 else 2 if k == 0 else x
    print(box, y)
