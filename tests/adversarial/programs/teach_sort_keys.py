# Sorting with keys that print when they are called (each element's key computed once), reverse=True,
# stability shown by sorting by a second key then the first, itemgetter/attrgetter, cmp_to_key with a
# printing comparison, and sort() in place against sorted() returning a new list.
from functools import cmp_to_key
from operator import attrgetter, itemgetter


class Employee:
    def __init__(self, name, dept, salary):
        self.name, self.dept, self.salary = name, dept, salary

    def __repr__(self):
        return f"{self.name}/{self.dept}/{self.salary}"


def noisy_len(word):
    print(f"  key({word!r}) = {len(word)}")
    return len(word)


def compare(a, b):
    print(f"  compare {a} {b}")
    return (a > b) - (a < b)


def main():
    words = ["banana", "kiwi", "apple", "fig", "cherry", "date"]
    print("sorted by length:")
    by_length = sorted(words, key=noisy_len)
    print(by_length, "(kiwi before date: stable)")
    print(sorted(words, key=len, reverse=True), "reverse keeps equal keys in order too")
    print(sorted(words), sorted(words, key=str.upper, reverse=True))
    print(sorted(["b", "A", "c", "B", "a"]), sorted(["b", "A", "c", "B", "a"], key=str.lower))
    staff = [Employee("ann", "ops", 50), Employee("bob", "dev", 70), Employee("cid", "ops", 70),
             Employee("dee", "dev", 50), Employee("eve", "dev", 90)]
    by_salary = sorted(staff, key=attrgetter("salary"), reverse=True)
    print(by_salary)
    two_pass = sorted(sorted(staff, key=attrgetter("name")), key=attrgetter("dept"))
    print(two_pass, "== one pass:", two_pass == sorted(staff, key=attrgetter("dept", "name")))
    print(sorted(staff, key=lambda e: (e.dept, -e.salary)))
    pairs = [(2, "b"), (1, "z"), (2, "a"), (1, "y")]
    print(sorted(pairs, key=itemgetter(0)), sorted(pairs), sorted(pairs, key=itemgetter(1, 0)))
    print("with a comparison function:")
    print(sorted([3, 1, 2], key=cmp_to_key(compare)))
    numbers = [5, 2, 8, 1]
    result = numbers.sort()
    print(result, numbers, max(words, key=len), min(words, key=lambda w: w[-1]))
    scores = {"ann": 90, "bob": 85, "cid": 90, "dee": 70}
    print(sorted(scores, key=scores.get, reverse=True), sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])))
