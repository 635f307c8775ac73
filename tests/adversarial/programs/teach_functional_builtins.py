# Built-ins with lambdas: map, filter, zip (and zip(*...) to unzip, strict=True refusing unequal lengths),
# enumerate with a start, sorted/min/max with key, any/all short-circuiting (shown by a printing
# predicate), reversed, sum with a start, and lazy map objects used up once.
def loud_positive(x):
    print(f"  checking {x}")
    return x > 0


def main():
    numbers = [4, -2, 7, 0, -5, 3]
    print(list(map(lambda x: x * 2, numbers)), list(map(abs, numbers)), list(map(pow, [2, 3], [5, 2])))
    print(list(filter(lambda x: x > 0, numbers)), list(filter(None, [0, 1, "", "a", None, [], [0]])))
    names, ages = ["ann", "bob", "cid"], [31, 25, 42]
    print(list(zip(names, ages)), dict(zip(names, ages)), list(zip("ab", range(10), [True, False])))
    pairs = [(1, "one"), (2, "two"), (3, "three")]
    nums, words = zip(*pairs)
    print(nums, words)
    try:
        list(zip(names, [1, 2], strict=True))
    except ValueError as error:
        print("strict:", error)
    for position, name in enumerate(names, start=1):
        print(f"  {position}. {name}")
    print(list(enumerate("xyz")), sorted(zip(ages, names)), max(zip(ages, names)))
    print(sorted(names, key=lambda n: n[::-1]), min(numbers, key=abs), max(numbers, key=lambda x: -x))
    print("any:", any(map(loud_positive, [-1, 5, 7])))
    print("all:", all(map(loud_positive, [3, -1, 7])))
    print(any([]), all([]), list(reversed(names)), sum([[1], [2, 3]], []), sum([0.1] * 10), sum(range(5), 100))
    lazy = map(str.upper, names)
    print(next(lazy), list(lazy), list(lazy))
    compose = lambda f, g: lambda x: f(g(x))
    inc_then_double = compose(lambda x: x * 2, lambda x: x + 1)
    print(inc_then_double(5), list(map(inc_then_double, range(4))))
    table = [(name, age) for name, age in zip(names, ages) if age > 30]
    print(table, list(filter(lambda p: p[1] < 30, zip(names, ages))))
    matrix = [[1, 2, 3], [4, 5, 6]]
    print(list(map(list, zip(*matrix))), list(map(sum, matrix)), list(map(lambda *col: max(col), *matrix)))
