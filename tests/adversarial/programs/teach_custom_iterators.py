# Iterators written by hand: a class with __iter__ and __next__ raising StopIteration, an iterable whose
# __iter__ returns a fresh iterator each time (against an iterator that is used up), iteration through
# __getitem__ alone, iter(callable, sentinel), and a for loop spelled out with next().
class Countdown:
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current + 1


class Span:
    def __init__(self, lo, hi, step=1):
        self.lo, self.hi, self.step = lo, hi, step

    def __iter__(self):
        value = self.lo
        while value < self.hi:
            yield value
            value += self.step

    def __len__(self):
        return max(0, (self.hi - self.lo + self.step - 1) // self.step)


class Squares:
    def __getitem__(self, index):
        if index >= 5:
            raise IndexError(index)
        return index * index


class Fibonacci:
    def __init__(self, limit):
        self.limit = limit

    def __iter__(self):
        return FibIterator(self.limit)


class FibIterator:
    def __init__(self, limit):
        self.a, self.b, self.limit = 0, 1, limit

    def __iter__(self):
        return self

    def __next__(self):
        if self.a > self.limit:
            raise StopIteration
        value = self.a
        self.a, self.b = self.b, self.a + self.b
        return value


def main():
    c = Countdown(3)
    print(list(c), list(c), "(used up)")
    s = Span(0, 10, 3)
    print(list(s), list(s), len(s), 6 in s, sum(s))
    print(list(Squares()), 9 in Squares(), list(enumerate(Squares())))
    fib = Fibonacci(50)
    print(list(fib), max(fib), list(zip(fib, fib)))
    it = iter(fib)
    print(next(it), next(it), next(it), list(it), next(it, "default"))
    rolls = iter([3, 5, 6, 2, 6, 1])
    print(list(iter(lambda: next(rolls), 6)), list(rolls))
    iterator = iter(Countdown(2))
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            print("StopIteration ends the loop")
            break
        print("item", item)
    print(iter(c) is c, iter(fib) is fib, type(iter(s)).__name__)
