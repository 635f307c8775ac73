# entry: print(main())
# A lesson on the import system adds a path hook (sys.path_hooks, a list sys keeps) that reports the
# folders it is asked about, and never removes it. The next run must not find it (nor print from it).
import sys


def reporting_hook(path):
    print("asked about a folder")
    raise ImportError              # not ours: let the next hook handle it


def main():
    before = sum(getattr(hook, "__name__", "") == "reporting_hook" for hook in sys.path_hooks)
    sys.path_hooks.insert(0, reporting_hook)
    sys.path_importer_cache.clear()
    return before
