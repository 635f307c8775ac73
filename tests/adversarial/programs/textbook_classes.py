# Textbook data structures as a course would write them: a binary search tree, a linked list reversed in
# place, a stack class, a dataclass with methods. Objects point at each other and change field by field.
from dataclasses import dataclass


class Node:
    def __init__(self, key):
        self.key = key
        self.left = None
        self.right = None


def insert(root, key):
    if root is None:
        return Node(key)
    if key < root.key:
        root.left = insert(root.left, key)
    else:
        root.right = insert(root.right, key)
    return root


def in_order(root, out):
    if root is not None:
        in_order(root.left, out)
        out.append(root.key)
        in_order(root.right, out)
    return out


class Link:
    def __init__(self, value, next=None):
        self.value = value
        self.next = next


def reverse(head):
    previous = None
    while head is not None:
        following = head.next
        head.next = previous
        previous = head
        head = following
    return previous


class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        return self.items.pop()


@dataclass
class Point:
    x: float
    y: float

    def moved(self, dx, dy):
        self.x += dx
        self.y += dy
        return self


def main():
    root = None
    for key in [50, 30, 70, 20, 40, 60, 80, 35]:
        root = insert(root, key)
    keys = in_order(root, [])
    head = None
    for value in range(5):
        head = Link(value, head)
    head = reverse(head)
    values = []
    while head:
        values.append(head.value)
        head = head.next
    stack = Stack()
    for ch in "(a[b]{c})":
        if ch in "([{":
            stack.push(ch)
        elif ch in ")]}":
            stack.pop()
    p = Point(1.0, 2.0)
    for step in range(3):
        p.moved(step, -step)
    print(keys, values, stack.items, p)
