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
