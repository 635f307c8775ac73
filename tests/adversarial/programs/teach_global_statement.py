# Global variables: reading a global inside a function, the global statement to rebind one, a local that
# shadows it, the UnboundLocalError when a function assigns a name it also reads, a mutable global changed
# without global, globals() looked up by name, and a function that creates a new global.
counter = 0
settings = {"debug": False}
name = "module"


def read_only():
    return f"counter is {counter}"


def increment(by=1):
    global counter
    counter += by
    return counter


def shadow():
    name = "local"
    return name


def broken():
    total = counter + 1      # counter is local here because of the assignment below
    counter = total
    return counter


def toggle():
    settings["debug"] = not settings["debug"]     # mutating needs no global statement


def create():
    global created_later
    created_later = "made inside a function"


def main():
    print(read_only())
    increment()
    increment(5)
    print(read_only(), counter)
    print(shadow(), name)
    try:
        broken()
    except UnboundLocalError as error:
        print(type(error).__name__ + ":", error)
    toggle()
    toggle()
    toggle()
    print(settings)
    print("created_later" in globals())
    create()
    print(created_later, globals()["counter"], "counter" in locals())
    x = 10

    def outer():
        x = 20

        def inner():
            global x_seen
            x_seen = x
            return x
        return inner()
    print(outer(), x, x_seen)
