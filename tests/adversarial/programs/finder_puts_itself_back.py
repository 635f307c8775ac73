# entry: print(main())
# An import-hook lesson: a logging meta path finder. When the finder object is let go, its finalizer
# appends a fresh one (a finder that insists on staying): the run's put-back drops it, and it is back.
import sys


class Logger:
    def find_spec(self, name, path=None, target=None):
        print("importing", name)
        return None

    def __del__(self, meta_path=sys.meta_path, times=[]):
        if len(times) < 1:
            times.append(1)
            meta_path.append(Logger())


def main():
    before = sum(type(finder).__name__ == "Logger" for finder in sys.meta_path)
    sys.meta_path.append(Logger())
    import colorsys
    return before
