# seconds: 4
# An exception raised 20,000 calls deep that nothing catches: the run ends "raised". Its traceback has 20,000
# entries; freed at once it overflowed the JS stack in Pyodide (traced or not), which then died.
import sys


def down(n):
    if n == 0:
        raise ValueError("bottom")
    return down(n - 1)


def main():
    sys.setrecursionlimit(100_000)
    down(20_000)
