# entry: print(main())
# A gc lesson: objects the program itself parks in gc.garbage (the documented list of uncollectable
# objects) keep their finalizer; the put-back drops them after the run's output is captured.
import gc


class Noisy:
    def __del__(self):
        print("noisy finalized")


def main():
    gc.garbage.append(Noisy())
    return len(gc.garbage)
