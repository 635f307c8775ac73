# gc-bound: when the collection comes (the recorder's allocations set it off) varies from run to run
# A gc callback of the program's (another file's code: untraced), put before every other, takes the others
# out of gc.callbacks as a collection starts; that collection's finalizer (untraced too) changes a closure
# variable of the shown frame. The loop's steps after it must show the change.
import gc

HELPERS = '''
import gc


class Finalized:
    def __init__(self, cell):
        self.cell = cell
        self.me = self              # a cycle: only a collection frees it

    def __del__(self):
        self.cell.cell_contents += 100


def hook(phase, info):
    if phase == "start":
        for callback in list(gc.callbacks):
            if callback is not hook:
                gc.callbacks.remove(callback)
'''


def main():
    space = {}
    exec(compile(HELPERS, "<helpers>", "exec"), space)
    count = 0

    def peek():
        return count

    saved = list(gc.callbacks)
    threshold = gc.get_threshold()
    gc.collect()
    gc.callbacks.insert(0, space["hook"])
    space["Finalized"](peek.__closure__[0])
    gc.set_threshold(200)
    x = ""
    for i in range(300):
        x = x + "a"
    gc.set_threshold(*threshold)
    gc.callbacks[:] = saved
    print(len(x))
