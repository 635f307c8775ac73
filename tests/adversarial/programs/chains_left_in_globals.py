# A linked list of 20,000 nodes and a chain of 20,000 slices left in module globals when the run ends. The
# runner drops the module after every run, where a plain interpreter keeps it to the end: freed at once, such a
# chain overflowed Pyodide's JS stack and Pyodide died (from ~5,000 links). Each node's finalizer counts into a
# module global, which must still be there when it runs, as when the collector frees a module. The class is
# compiled under another file name, so building the list records no events.
import functools

NODE = '''
class Node:
    def __init__(self, next, value):
        self.next = next
        self.value = value

    def __del__(self):
        global freed
        freed += 1
        if freed == LINKS:
            print("every node finalized, the module's globals still there")
'''

LINKS = 20_000
freed = 0
head = None
slices = None


def main():
    global head, slices
    exec(compile(NODE, "<nodes>", "exec"), globals())
    head = functools.reduce(Node, range(LINKS), None)
    slices = functools.reduce(slice, range(LINKS), None)
    print("built", head.value, slices.stop)
