# runaway: yes: 20,000 calls deep, then a loop that never ends. The stop unwinds every frame: under
# sys.monitoring a new stop raised at each unwound frame chained 20,000 exceptions, and freeing such a chain
# (or one traceback that long) at once overflowed the JS stack in Pyodide, which then died.
import sys


def down(n):
    if n == 0:
        while True:
            pass
    return down(n - 1)


def main():
    sys.setrecursionlimit(100_000)
    down(20_000)
