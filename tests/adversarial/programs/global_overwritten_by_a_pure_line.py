# setup: from global_overwritten_by_a_pure_line import *\nimport global_overwritten_by_a_pure_line as shown\nclass Held:\n    def __del__(self, log=shown.LOG):\n        log.append("dropped")\nshown.Held = Held
# A pure line that overwrites a global holding an object whose finalizer (the setup's: code the recorder
# does not trace) appends to a list the frame holds. The recorder cannot tell a global unbound (it is no
# variable of the frame), so the step after such a line must show it.
LOG = []
KEEP = None


def overwrite(log):
    global KEEP
    KEEP = 0
    done = 1
    return done, len(log)


def main():
    global KEEP
    KEEP = Held()  # noqa: F821 - the setup defines it
    print(overwrite(LOG), LOG)
