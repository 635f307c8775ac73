# A bare raise in an except block, and exceptions leaving through finally and with.
import contextlib


def reraise():
    try:
        raise ValueError("first")
    except ValueError:
        raise


def through_finally():
    try:
        raise KeyError("k")
    finally:
        note = "cleanup"


def through_with():
    with contextlib.suppress(TypeError):
        raise LookupError("inside with")


def main():
    for fn in (reraise, through_finally, through_with):
        try:
            fn()
        except Exception as error:
            print(type(error).__name__)
    reraise()
