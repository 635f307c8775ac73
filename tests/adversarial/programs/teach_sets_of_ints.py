# Sets of numbers (ints hash to themselves, so they print in a fixed order): union, intersection, difference,
# symmetric difference, subset tests, duplicates removed, membership against a list, frozenset as a dict key,
# set comprehensions, and add/discard/remove/pop. Sets of strings are printed sorted.
def main():
    evens = {n for n in range(0, 20, 2)}
    threes = set(range(0, 20, 3))
    print(evens | threes, evens & threes, evens - threes, evens ^ threes)
    print(evens.union([99]), threes.intersection(range(10)), evens.isdisjoint({1, 3}), {0, 6} <= evens & threes)
    print({2, 4} < evens, evens > {2}, {1, 2} == {2, 1}, len({1, 1, 1, 2, 2, 3}))
    numbers = [5, 3, 5, 1, 3, 9, 1]
    print(sorted(set(numbers)), list(dict.fromkeys(numbers)))
    s = {1, 2, 3}
    s.add(4)
    s.add(2)
    s.discard(10)
    s.remove(1)
    try:
        s.remove(10)
    except KeyError as error:
        print("KeyError:", error)
    print(s, s.pop(), s)
    groups = {frozenset({1, 2}): "pair", frozenset({3}): "single"}
    print(groups[frozenset({2, 1})], frozenset({1, 2}) | {3})
    words = ["apple", "banana", "cherry", "avocado", "blueberry"]
    initials = {w[0] for w in words}
    print(sorted(initials), sorted({len(w) for w in words}), "a" in initials)
    seen, duplicates = set(), []
    for n in [4, 8, 15, 16, 23, 42, 8, 15]:
        if n in seen:
            duplicates.append(n)
        seen.add(n)
    print(duplicates, sorted(seen))
    a = {1, 2, 3}
    b = a
    a |= {4}
    a = a | {5}
    print(a, b)
    empty = set()
    print(empty, type({}).__name__, bool(empty), {x % 5 for x in range(100)})
