# Class-based context managers: __enter__/__exit__ printing their order, nested withs unwinding in reverse,
# one that swallows the exception (returns True), one that lets it through, and one that re-raises another.
class Tag:
    depth = 0

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("  " * Tag.depth + f"<{self.name}>")
        Tag.depth += 1
        return self

    def __exit__(self, exc_type, exc, tb):
        Tag.depth -= 1
        print("  " * Tag.depth + f"</{self.name}>" + (f" after {exc_type.__name__}" if exc_type else ""))
        return False


class Ignore:
    def __init__(self, *kinds):
        self.kinds = kinds
        self.caught = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, self.kinds):
            self.caught = exc
            print(f"  swallowed {exc_type.__name__}: {exc}")
            return True
        return False


class Transaction:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("begin")
        return self.log

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.log.append("commit")
        else:
            self.log.append("rollback")
            raise RuntimeError("transaction failed") from exc


def main():
    with Tag("html"):
        with Tag("body"), Tag("p"):
            print("      hello")
    try:
        with Tag("outer"):
            with Tag("inner"):
                raise KeyError("k")
    except KeyError as error:
        print("escaped:", repr(error))
    with Ignore(ZeroDivisionError, ValueError) as ignore:
        print("  before")
        1 / 0
        print("  never printed")
    print("after the swallowed block:", repr(ignore.caught))
    try:
        with Ignore(ValueError):
            [][1]
    except IndexError as error:
        print("not swallowed:", error)
    log = []
    with Transaction(log) as entries:
        entries.append("insert 1")
    try:
        with Transaction(log) as entries:
            entries.append("insert 2")
            int("two")
    except RuntimeError as error:
        print(error, "<-", type(error.__cause__).__name__)
    print(log)
