# A run that leaves builtins patched: the next run must not see it.
import builtins


def main():
    print("sorted is", "real" if sorted([2, 1]) == [1, 2] else "patched")
    builtins.sorted = lambda x: "patched"
    return 1
