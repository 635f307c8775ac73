# A frame's locals die the moment it stops: on a return, an unwind, a generator's close or its loss,
# and a frame ended mid-loop. A recorder that kept a frame (or a view of its variables) alive would
# move each "closed" line after the line printed next.
class Resource:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("closed", self.name)


def returns():
    held = Resource("returned")
    total = 0
    for i in range(3):
        total += i
    return total


def raises():
    held = Resource("raised")
    count = 1
    count += 1
    raise ValueError(count)


def yields():
    held = Resource("generator")
    step = 0
    while True:
        step += 1
        yield step


def main():
    returns()
    print("after return")
    try:
        raises()
    except ValueError:
        print("after raise")
    closed = yields()
    next(closed)
    next(closed)
    closed.close()
    print("after close")
    dropped = yields()
    next(dropped)
    dropped = None
    print("after drop")
    return "done"
