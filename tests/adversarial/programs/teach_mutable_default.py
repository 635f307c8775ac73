# The classic mutable default argument bug: a default list created once at def time and shared between
# calls (seen in __defaults__), the None-sentinel fix, a default evaluated once (a counter), and a
# dict default that accumulates across calls.
def append_to(item, target=[]):
    target.append(item)
    return target


def append_fixed(item, target=None):
    if target is None:
        target = []
    target.append(item)
    return target


created = []


def stamp():
    created.append(len(created) + 1)
    return created[-1]


def labelled(name, number=stamp()):
    return f"{name}#{number}"


def register(key, value, registry={}):
    registry[key] = value
    return registry


def main():
    first = append_to(1)
    second = append_to(2)
    print(first, second, first is second)
    print("defaults now:", append_to.__defaults__)
    print(append_to(3, []), append_to(4))
    print(append_fixed(1), append_fixed(2), append_fixed(3, [0]))
    print(labelled("a"), labelled("b"), labelled("c", 99), "stamps:", created)
    register("x", 1)
    register("y", 2)
    print(register("z", 3))
    a = [[]] * 3
    a[0].append("shared")
    b = [[] for _ in range(3)]
    b[0].append("own")
    print(a, b)
