# own-pyodide: after many programs in one Pyodide this run has overflowed node's JS stack now and then
# (2 of ~8 full runs, 2026-12-01); alone it passes, and a fresh Pyodide records 120,000 levels
# A raised recursion limit and 20,000-deep recursion (fine untraced); 5,000 in Pyodide, where the full test
# suite's runs overflowed node's JS stack now and then at 20,000 (2026-12-01, cause not found).
import sys


def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)


def main():
    sys.setrecursionlimit(100_000)
    print(depth(5_000 if sys.platform == "emscripten" else 20_000))
