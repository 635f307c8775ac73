# The walrus operator: in a while loop reading chunks, keeping a computed value in a comprehension's filter,
# in an if with a regex match, accumulating inside a comprehension, and the name it leaves behind.
import io
import re


def expensive(x):
    return x * x - 10


def main():
    stream = io.StringIO("alpha beta gamma delta epsilon")
    chunks = []
    while chunk := stream.read(7):
        chunks.append(chunk)
    print(chunks)
    values = [3, 1, 4, 1, 5, 9, 2, 6]
    kept = [y for x in values if (y := expensive(x)) > 0]
    print(kept, "last y:", y)
    total = 0
    running = [total := total + v for v in values]
    print(running, "total:", total)
    for line in ["name: Ada", "age 36", "city: London"]:
        if (match := re.match(r"(\w+): (\w+)", line)) is not None:
            print("field", match.group(1), "=", match.group(2))
        else:
            print("no field in", repr(line))
    numbers = iter(range(1, 100))
    found = []
    while (n := next(numbers)) < 40:
        if n % 7 == 0:
            found.append(n)
    print(found, "stopped at", n)
    data = {"a": 1, "b": 0}
    if (count := len(data)) > 1:
        print(f"{count} keys")
    print([(name, length) for name in ["ant", "bee", "wasp"] if (length := len(name)) > 3])
    pairs = {k: v for k in "abc" if (v := ord(k) - 96) != 2}
    print(pairs, (first := values[0]) + first)
