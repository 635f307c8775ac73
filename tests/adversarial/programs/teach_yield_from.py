# yield from delegating to sub-generators: values passed through, send() forwarded, the sub-generator's
# return value as the value of the yield from (StopIteration.value), recursive flattening of nested
# lists, and a pipeline of generators.
def inner(label):
    received = []
    for i in range(3):
        got = yield f"{label}{i}"
        if got is not None:
            received.append(got)
    return received


def outer():
    first = yield from inner("a")
    print("  inner a returned", first)
    second = yield from inner("b")
    print("  inner b returned", second)
    return len(first) + len(second)


def flatten(items):
    for item in items:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item


def numbers(n):
    yield from range(n)


def squares(source):
    for x in source:
        yield x * x


def evens(source):
    for x in source:
        if x % 2 == 0:
            yield x


def tally():
    count = 0
    while True:
        item = yield
        if item is None:
            return count
        count += item


def delegator(results):
    while True:
        results.append((yield from tally()))


def main():
    gen = outer()
    print(next(gen))
    print(gen.send("x"))
    print(next(gen), gen.send("y"))
    print(gen.send("z"), next(gen))
    try:
        gen.send("w")
    except StopIteration as stop:
        print("outer returned", stop.value)
    print(list(flatten([1, [2, [3, [4, [5]]]], 6, [[7], 8]])))
    print(list(evens(squares(numbers(10)))), sum(squares(evens(numbers(7)))))
    results = []
    d = delegator(results)
    next(d)
    for value in [1, 2, 3, None, 10, 20, None]:
        d.send(value)
    print("tallies:", results)
