# A tour of itertools: groupby (after sorting), accumulate (sums, max, with an initial), product,
# permutations, combinations, chain, islice of an endless count, tee, pairwise, zip_longest, cycle.
import itertools
import operator
from itertools import (accumulate, chain, combinations, count, cycle, groupby, islice, pairwise,
                       permutations, product, tee, zip_longest)


def main():
    words = ["apple", "avocado", "banana", "blueberry", "cherry", "apricot"]
    for letter, group in groupby(sorted(words), key=lambda w: w[0]):
        print(letter, list(group))
    print([(k, len(list(g))) for k, g in groupby("aaabccdddd")])
    print(list(accumulate([3, 1, 4, 1, 5, 9, 2, 6])))
    print(list(accumulate([3, 1, 4, 1, 5, 9, 2, 6], max)))
    print(list(accumulate([1, 2, 3, 4], operator.mul, initial=10)))
    print(list(product("ab", [0, 1])), len(list(product(range(3), repeat=3))))
    print(["".join(p) for p in permutations("abc")])
    print(list(permutations(range(4), 2))[:5], list(combinations("abcd", 2)))
    print(list(chain([1, 2], (3,), "xy")), list(chain.from_iterable([[1], [2, 3], []])))
    evens = (n for n in count(0, 2))
    print(list(islice(evens, 5)), list(islice(count(100), 2, 10, 3)))
    left, right = tee(iter([10, 20, 30]))
    print(next(left), next(left), list(right), list(left))
    print(list(pairwise([1, 4, 9, 16, 25])), [b - a for a, b in pairwise([1, 4, 9, 16, 25])])
    print(list(zip_longest("abc", [1], fillvalue="-")))
    print(list(islice(cycle("RGB"), 7)), list(itertools.repeat("x", 3)))
    print(list(itertools.takewhile(lambda x: x < 5, [1, 3, 5, 2])), list(itertools.dropwhile(lambda x: x < 5, [1, 3, 5, 2])))
    print(list(itertools.compress("abcdef", [1, 0, 1, 0, 1, 1])), list(itertools.starmap(pow, [(2, 3), (3, 2)])))
    if hasattr(itertools, "batched"):          # new in 3.12
        print(list(itertools.batched(range(7), 3)))
    else:
        print([tuple(range(7))[i:i + 3] for i in range(0, 7, 3)])
