# gc-bound: collections run at nearly every allocation here, so where each finalizer lands varies by run
# A collector that runs at every allocation the interpreter counts (threshold 1), and garbage whose
# finalizer appends to a list the frame holds: the recorder's own allocations during a look set off
# collections too. A finalizer run after a look read `log` and before the line runs would leave the look
# showing a stale `log`: the recorder looks at every local again when a collection ran during a look.
import gc


class Noisy:
    def __init__(self, log):
        self.log = log
        self.me = self               # only a collection frees it

    def __del__(self):
        self.log.append(len(self.log))


def main():
    log = []
    before = gc.get_threshold()
    gc.set_threshold(1)
    try:
        for _ in range(200):
            Noisy(log)
            i = 0                    # lines whose looks allocate
            i += 1
            i += 2
    finally:
        gc.set_threshold(*before)
    gc.collect()
    print(len(log), sorted(log) == list(range(len(log))), i)
