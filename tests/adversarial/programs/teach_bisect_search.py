# Searching sorted data: a hand-written binary search printing its probes, bisect_left/bisect_right on
# duplicates, insort keeping a list sorted, grades by breakpoints, bisect with key= (3.10+), and counting
# values in a range with two bisects.
import bisect


def binary_search(items, target):
    lo, hi = 0, len(items) - 1
    probes = []
    while lo <= hi:
        mid = (lo + hi) // 2
        probes.append(items[mid])
        if items[mid] == target:
            return mid, probes
        if items[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1, probes


def grade(score, breakpoints=(60, 70, 80, 90), grades="FDCBA"):
    return grades[bisect.bisect(breakpoints, score)]


def main():
    data = list(range(3, 100, 4))
    print(data)
    for target in [3, 51, 99, 50, 1000]:
        print(target, binary_search(data, target))
    dupes = [1, 2, 2, 2, 3, 5]
    print(bisect.bisect_left(dupes, 2), bisect.bisect_right(dupes, 2), bisect.bisect_left(dupes, 4),
          bisect.bisect(dupes, 0), bisect.bisect(dupes, 9))
    ordered = []
    for value in [5, 1, 4, 1, 5, 9, 2, 6]:
        bisect.insort(ordered, value)
    print(ordered)
    print([grade(s) for s in [33, 99, 77, 70, 89, 90, 100, 60]])
    people = [("ann", 19), ("bob", 25), ("cid", 31), ("dee", 47)]
    index = bisect.bisect_left(people, 30, key=lambda p: p[1])
    print(index, people[index], bisect.bisect_right(people, 25, key=lambda p: p[1]))
    bisect.insort(people, ("eve", 28), key=lambda p: p[1])
    print(people)
    values = sorted([12, 7, 3, 18, 25, 7, 10, 14])
    lo, hi = bisect.bisect_left(values, 7), bisect.bisect_right(values, 14)
    print(values, "between 7 and 14:", values[lo:hi], hi - lo)
