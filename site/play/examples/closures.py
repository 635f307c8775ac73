def make_counter():
    count = 0

    def tick():
        nonlocal count
        count += 1
        return count

    return tick


first = make_counter()
second = make_counter()
first()
first()
print(first(), second())
