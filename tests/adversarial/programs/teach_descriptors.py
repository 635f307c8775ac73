# Descriptors: a validating descriptor class with __set_name__, __get__ and __set__ reused for several
# fields, a non-data descriptor shadowed by an instance attribute, a lazily computed attribute cached in
# the instance's __dict__, and the descriptor reached through the class.
class Typed:
    def __init__(self, kind, minimum=None):
        self.kind, self.minimum = kind, minimum

    def __set_name__(self, owner, name):
        self.public, self.private = name, "_" + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.private)

    def __set__(self, obj, value):
        if not isinstance(value, self.kind):
            raise TypeError(f"{self.public} must be {self.kind.__name__}, not {type(value).__name__}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"{self.public} must be >= {self.minimum}")
        setattr(obj, self.private, value)


class Lazy:
    def __init__(self, function):
        self.function = function
        self.name = function.__name__

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        print(f"  computing {self.name}")
        value = self.function(obj)
        obj.__dict__[self.name] = value
        return value


class Greeting:
    def __get__(self, obj, objtype=None):
        return f"hello from {objtype.__name__}"


class Product:
    name = Typed(str)
    price = Typed(float, minimum=0.0)
    quantity = Typed(int, minimum=0)
    greeting = Greeting()

    def __init__(self, name, price, quantity):
        self.name, self.price, self.quantity = name, price, quantity

    @Lazy
    def total(self):
        return round(self.price * self.quantity, 2)


def main():
    pen = Product("pen", 1.25, 4)
    print(pen.name, pen.price, pen.quantity, sorted(vars(pen)))
    for field, value in [("price", -1.0), ("quantity", 2.5), ("name", 7)]:
        try:
            setattr(pen, field, value)
        except (TypeError, ValueError) as error:
            print(type(error).__name__, error)
    print(pen.total, pen.total, "total" in vars(pen))
    pen.quantity = 10
    print(pen.total, "(cached: stale)")
    del pen.total
    print(pen.total)
    print(pen.greeting, Product.greeting)
    pen.greeting = "mine"
    print(pen.greeting, type(Product.__dict__["price"]).__name__, Product.price.private)
