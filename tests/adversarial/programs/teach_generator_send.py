# Coroutine-style generators: primed with next(), fed with send() (a running average, a grep that waits for
# lines), throw() delivering an exception at the paused yield (handled inside or not), close() raising
# GeneratorExit there (finally runs), and the generator's state along the way.
import inspect


def averager():
    total, count, average = 0.0, 0, None
    while True:
        value = yield average
        if value is None:
            break
        total += value
        count += 1
        average = total / count
    return average


def grep(pattern):
    print(f"looking for {pattern!r}")
    try:
        while True:
            line = yield
            if pattern in line:
                print("found:", line)
    except GeneratorExit:
        print("grep closed")
        raise


def resilient():
    errors = 0
    while True:
        try:
            received = yield errors
            print("got", received)
        except ValueError as error:
            errors += 1
            print("handled", error)


def main():
    avg = averager()
    print(inspect.getgeneratorstate(avg))
    next(avg)
    for value in [10, 20, 60]:
        print("average now", avg.send(value))
    try:
        avg.send(None)
    except StopIteration as stop:
        print("finished with", stop.value, inspect.getgeneratorstate(avg))
    g = grep("py")
    next(g)
    for line in ["python is fun", "java", "pypy too"]:
        g.send(line)
    print(inspect.getgeneratorstate(g))
    g.close()
    print(inspect.getgeneratorstate(g))
    r = resilient()
    print(next(r), r.send("a"), r.throw(ValueError("bad input")), r.send("b"), r.throw(ValueError("again")))
    try:
        r.throw(KeyError("fatal"))
    except KeyError as error:
        print("escaped", repr(error), inspect.getgeneratorstate(r))
    fresh = averager()
    try:
        fresh.send(5)
    except TypeError as error:
        print("unprimed:", error)
    fresh.close()
