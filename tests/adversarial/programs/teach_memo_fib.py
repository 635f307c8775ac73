# Memoisation by hand: fib with a dict passed down (and a module-level memo), counting calls with and
# without it, fib(300) as a big int, and the memo's keys after a run.
calls = 0


def slow_fib(n):
    global calls
    calls += 1
    if n < 2:
        return n
    return slow_fib(n - 1) + slow_fib(n - 2)


def fib(n, memo=None):
    if memo is None:
        memo = {}
    if n in memo:
        return memo[n]
    if n < 2:
        result = n
    else:
        result = fib(n - 1, memo) + fib(n - 2, memo)
    memo[n] = result
    return result


MEMO = {0: 0, 1: 1}


def fib_global(n):
    if n not in MEMO:
        MEMO[n] = fib_global(n - 1) + fib_global(n - 2)
    return MEMO[n]


def fib_iter(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def main():
    global calls
    print("slow fib(15) =", slow_fib(15), "in", calls, "calls")
    memo = {}
    print("memo fib(15) =", fib(15, memo), "memo holds", len(memo), "entries")
    print(sorted(memo.items())[:6])
    big = fib(300)
    print("fib(300) =", big, "digits:", len(str(big)))
    print(fib_global(90), len(MEMO), fib_iter(90) == fib_global(90))
    print([fib_global(i) for i in range(12)])
