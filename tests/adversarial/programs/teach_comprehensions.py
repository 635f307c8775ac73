# List, dict and set comprehensions: filters, nested loops (a matrix transposed and flattened), a dict
# inverted, word lengths counted, a set of remainders, conditional expressions inside, and a generator
# expression feeding sum. Sets hold ints only, so they print in a fixed order.
def main():
    squares = [n * n for n in range(10)]
    evens = [n for n in squares if n % 2 == 0]
    labels = ["even" if n % 2 == 0 else "odd" for n in range(5)]
    print(squares, evens, labels)
    matrix = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    transposed = [[row[i] for row in matrix] for i in range(3)]
    flat = [x for row in matrix for x in row if x % 3 != 0]
    print(transposed, flat)
    pairs = [(i, j) for i in range(4) for j in range(i) if (i + j) % 2]
    print(pairs)
    words = "the quick brown fox jumps over the lazy dog".split()
    lengths = {word: len(word) for word in words}
    by_length = {}
    for word, n in lengths.items():
        by_length.setdefault(n, []).append(word)
    print(lengths, dict(sorted(by_length.items())))
    codes = {"a": 1, "b": 2, "c": 3}
    inverted = {v: k for k, v in codes.items()}
    print(inverted, {k: v for k, v in codes.items() if v != 2})
    remainders = {n % 7 for n in range(100)}
    print(remainders, {len(w) for w in words}, sorted({w[0] for w in words}))
    print(sum(x * x for x in range(101)), max(len(w) for w in words), any(w.startswith("q") for w in words))
    grid = {(r, c): r * c for r in range(3) for c in range(3) if r != c}
    print(grid)
    nested = [[n for n in range(k)] for k in range(5)]
    print(nested, [len(row) for row in nested])
    letters = {ch: words.count(ch) for ch in ["the", "fox", "cat"]}
    print(letters)
