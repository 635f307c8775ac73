# __repr__ with a visible side effect: output and counters must be as untraced.
calls = []


class Noisy:
    def __repr__(self):
        print("repr ran")
        calls.append(1)
        return "Noisy()"

    def __str__(self):
        print("str ran")
        return "noisy"


def main():
    value = Noisy()
    items = [value, value]
    print("calls:", len(calls))
    return len(items)
