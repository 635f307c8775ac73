# A lesson that rebinds builtins: the recorder keeps showing true values.
import builtins

real_len = builtins.len


def main():
    builtins.len = lambda x: 42
    builtins.repr = lambda x: "fake"
    builtins.id = lambda x: 7
    items = [1, 2, 3]
    size = len(items)
    builtins.len = real_len
    return size
