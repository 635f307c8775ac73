# seconds: 4
# An exception raised 20,000 calls deep, caught and kept in a module global when the run ends: its traceback
# holds 20,000 entries and frames. Freed at once with the module, it would overflow Pyodide's JS stack; the
# runner's depth-first gathering lets go of the entries outermost first and the frames innermost first.
import sys

kept = None


def down(n):
    if n == 0:
        raise ValueError("bottom")
    down(n - 1)


def main():
    global kept
    sys.setrecursionlimit(100_000)
    try:
        down(20_000)
    except ValueError as error:
        kept = error
    print("kept", kept)
