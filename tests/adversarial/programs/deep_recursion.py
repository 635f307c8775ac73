# seconds: 4
# A raised recursion limit and 20,000-deep recursion (fine untraced). Slowed down by the harness's checks, the
# checked run may meet its time limit deep down: its stop then unwinds 20,000 frames (see runaway_deep_down).
import sys


def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)


def main():
    sys.setrecursionlimit(100_000)
    print(depth(20_000))
