# Recursion as a course teaches it: a recursive sum of a 400-element list (400 frames deep), factorial,
# the Towers of Hanoi moves, permutations by recursion, a binary search, flood fill of a small grid,
# the depth measured by a counter, and mutual recursion (is_even/is_odd) 300 deep.
def rec_sum(items):
    if not items:
        return 0
    return items[0] + rec_sum(items[1:])


def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


def hanoi(n, source, target, spare, moves):
    if n == 0:
        return
    hanoi(n - 1, source, spare, target, moves)
    moves.append((n, source, target))
    hanoi(n - 1, spare, target, source, moves)


def perms(items):
    if len(items) <= 1:
        return [items]
    out = []
    for i, head in enumerate(items):
        for tail in perms(items[:i] + items[i + 1:]):
            out.append([head] + tail)
    return out


def search(items, target, lo=0, hi=None):
    if hi is None:
        hi = len(items) - 1
    if lo > hi:
        return -1
    mid = (lo + hi) // 2
    if items[mid] == target:
        return mid
    if items[mid] < target:
        return search(items, target, mid + 1, hi)
    return search(items, target, lo, mid - 1)


def fill(grid, r, c):
    if not (0 <= r < len(grid) and 0 <= c < len(grid[0])) or grid[r][c] != ".":
        return 0
    grid[r][c] = "#"
    return 1 + fill(grid, r + 1, c) + fill(grid, r - 1, c) + fill(grid, r, c + 1) + fill(grid, r, c - 1)


deepest = 0


def depth(n, level=1):
    global deepest
    deepest = max(deepest, level)
    if n > 0:
        depth(n - 1, level + 1)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def main():
    print(rec_sum(list(range(400))), sum(range(400)))
    print(factorial(25))
    moves = []
    hanoi(4, "A", "C", "B", moves)
    print(len(moves), moves[:4], moves[-1])
    print(["".join(p) for p in perms(list("abc"))])
    data = list(range(0, 200, 3))
    print(search(data, 99), search(data, 100), search(data, 0), search(data, 198))
    grid = [list(row) for row in ["..#..", ".##..", "#...#", "..#.."]]
    print(fill(grid, 0, 0), fill(grid, 0, 4), ["".join(row) for row in grid])
    depth(350)
    print("deepest:", deepest, is_even(300), is_odd(301))
