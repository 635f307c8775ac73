# entry: print(main())
# A lesson on the garbage collector: gc.set_debug(gc.DEBUG_SAVEALL) keeps what a collection finds in
# gc.garbage, to look at it. The lesson never turns it off. The next run must find the collector as
# this one did: debug flags off and gc.garbage empty (nor does the run's garbage stay alive).
import gc


class Node:
    def __init__(self):
        self.me = self


def main():
    seen = (gc.get_debug(), len(gc.garbage))
    gc.set_debug(gc.DEBUG_SAVEALL)
    Node()
    gc.collect()
    return seen, len(gc.garbage) > 0
