# Finalizers that run as the run's objects go, as they would go untraced and without the runner: two chains
# held by the frame that raised (with enough else for the runner to free what it holds an object at a time),
# finalized one chain after the other; a module big enough for that too, whose finalizer lists its globals
# (and sorts them: all names).
data = [[number] for number in range(600)]


class Node:
    def __init__(self, name, next=None):
        self.name = name
        self.next = next

    def __del__(self):
        print("del", self.name)


class Keeper:
    def __del__(self):
        names = sorted(globals())
        print("module finalizer sees", len(data), "rows and", "Node" in names and "main" in names)


keeper = Keeper()


def chain(tag, length):
    head = None
    for position in reversed(range(length)):
        head = Node(f"{tag}{position}", head)
    return head


def main():
    padding = [[number] for number in range(600)]
    a = chain("a", 3)
    b = chain("b", 3)
    raise ValueError(f"{a.name} {b.name} {len(padding)}")
