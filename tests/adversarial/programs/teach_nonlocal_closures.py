# Closures: a counter and an accumulator kept alive by nonlocal, several independent counters, a closure
# over a loop variable (the late-binding surprise and its default-argument fix), and the cell contents.
def make_counter(start=0):
    count = start

    def increment(step=1):
        nonlocal count
        count += step
        return count
    return increment


def make_averager():
    total = 0
    n = 0

    def add(value):
        nonlocal total, n
        total += value
        n += 1
        return total / n
    return add


def make_account(balance):
    history = []

    def deposit(amount):
        nonlocal balance
        balance += amount
        history.append(("deposit", amount))
        return balance

    def withdraw(amount):
        nonlocal balance
        if amount > balance:
            raise ValueError(f"cannot withdraw {amount}, balance is {balance}")
        balance -= amount
        history.append(("withdraw", amount))
        return balance
    return deposit, withdraw, history


def broken_counter():
    count = 0

    def increment():
        count += 1          # UnboundLocalError: no nonlocal
        return count
    return increment


def main():
    a, b = make_counter(), make_counter(100)
    print(a(), a(), a(5), b(), a())
    print("cell:", a.__closure__[0].cell_contents, a.__code__.co_freevars)
    avg = make_averager()
    print([avg(v) for v in [10, 20, 30, 40]])
    deposit, withdraw, history = make_account(50)
    deposit(25)
    withdraw(60)
    try:
        withdraw(100)
    except ValueError as error:
        print(error)
    print(history)
    late = [lambda: i for i in range(3)]
    early = [lambda i=i: i for i in range(3)]
    print("late:", [f() for f in late], "early:", [f() for f in early])
    try:
        broken_counter()()
    except UnboundLocalError as error:
        print(type(error).__name__, error)
