# entry: print(main())
# A lesson on the collector calls gc.freeze() (objects moved to the permanent generation, never
# collected) and never gc.unfreeze(). The next run must not start with frozen objects, and the
# garbage cycles this run leaves must still be collected (their finalizers run) after it.
import gc


class Cycle:
    def __init__(self, name):
        self.name = name
        self.me = self

    def __del__(self):
        print("freed", self.name)


def main():
    frozen_before = gc.get_freeze_count() > 0
    keep = Cycle("before freeze")
    gc.freeze()
    del keep
    gc.collect()
    return frozen_before
