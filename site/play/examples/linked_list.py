class Node:
    def __init__(self, value, next=None):
        self.value = value
        self.next = next


def reverse(head):
    previous = None
    while head is not None:
        head.next, previous, head = previous, head, head.next
    return previous


head = Node(1, Node(2, Node(3)))
head = reverse(head)
while head:
    print(head.value)
    head = head.next
