# A class body with a non-str key in its namespace, and class-level code.
class Odd:
    locals()[1] = "one"
    vars()[("t",)] = 2
    size = 3


def main():
    return Odd.size
