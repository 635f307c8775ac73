# entry: print(main())
import sys


def first(agen):
    print("first iteration of", agen)


def main():
    before = sys.get_asyncgen_hooks()
    sys.set_asyncgen_hooks(firstiter=first)
    return before.firstiter is None
