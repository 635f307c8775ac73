# Items of a set with a user __lt__ and __hash__: sorting them for display must not call them.
calls = []


class Item:
    def __init__(self, n):
        self.n = n

    def __lt__(self, other):
        calls.append("lt")
        return self.n < other.n

    def __hash__(self):
        return self.n

    def __eq__(self, other):
        calls.append("eq")
        return self is other


def main():
    items = {Item(3), Item(1), Item(2)}
    count = len(calls)
    print("calls", count)
    return count
