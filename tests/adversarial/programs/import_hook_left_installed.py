# entry: print(main())
# A lesson on the import system: a finder that reports every import, put first on sys.meta_path and
# never taken off (the lesson ends there). The next run must not see it: not in sys.meta_path, and its
# report must not land in the next run's output when that run imports its modules.
import sys


class ImportReporter:
    def find_spec(self, name, path=None, target=None):
        print("importing", name)
        return None                      # let the real finders load it


def main():
    before = sum(type(finder).__name__ == "ImportReporter" for finder in sys.meta_path)
    sys.meta_path.insert(0, ImportReporter())
    try:
        import not_a_real_module_xyz  # noqa: F401
    except ImportError:
        pass
    return before
