def helper(t, i):
    y = t % 1000
    return y + i


def main(n):
    total = 0
    for i in range(n):
        total += i
        if i % 100 == 0:
            total = helper(total, i)
    return total


class Link:
    def __init__(self, value, rest):
        self.value = value
        self.rest = rest


def chain(n):
    """Objects at every step (the memory picture's case): a linked list of up to 20 links, begun again."""
    head = None
    for i in range(n):
        head = Link(i, head if i % 20 else None)
    return head.value
