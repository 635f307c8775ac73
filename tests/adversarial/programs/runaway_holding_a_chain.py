# runaway: yes: a local holds a linked list of 20,000 nodes when the stop lands. Freeing the stopped frame
# freed the list at once, which overflowed the JS stack in Pyodide, which then died. The class is compiled
# under another file name, so building the list records no events.
import functools

NODE = '''
class Node:
    def __init__(self, next, value):
        self.next = next
        self.value = value
'''


def main():
    namespace = {}
    exec(compile(NODE, "<nodes>", "exec"), namespace)
    head = functools.reduce(namespace["Node"], range(20_000), None)
    while True:
        head.value += 1
