# A raised recursion limit and 20,000-deep recursion (fine untraced).
import sys


def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)


def main():
    sys.setrecursionlimit(100_000)
    print(depth(20_000))
