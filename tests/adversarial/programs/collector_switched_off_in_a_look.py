# A finalizer that switches the collector off, run while the recorder looks at the frame (on 3.11 and
# 3.12 settrace reading the frame's locals drops the last reference to the old value): the program
# must find the collector as its own code left it.
import gc


class SwitchesOff:
    def __del__(self):
        gc.disable()


def main():
    x = SwitchesOff()
    y = 1
    x = 2
    y = 3
    print("collector off:", not gc.isenabled(), x, y)
    gc.enable()
