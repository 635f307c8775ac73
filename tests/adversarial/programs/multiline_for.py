# A `for` whose iterator is made on a line of its own: the `for` line holds only GET_ITER/FOR_ITER, the
# iterator (a C one calling list.pop at each step) is never held by a local, so never previewed.
def main():
    stack = [0, 1, 2, 3, 4]
    total = 0
    for item in (
        iter(stack.pop, 0)
    ):
        total = total + item
    seen = set()
    for item in (
        map(seen.add, "abc")
    ):
        total = total + 1
    print(stack, total, sorted(seen))
