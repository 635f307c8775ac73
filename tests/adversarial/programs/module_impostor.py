# entry: print(main())
# The program puts in sys.modules an object whose class calls itself `module`, with `__file__` and
# `__spec__` properties that print: the run's clean-up (which drops the lesson's modules and stand-ins)
# must tell a module by its type, read its namespace directly, and so never run them.
import sys


class module:
    @property
    def __file__(self):
        print("__file__ was asked")
        return __file__

    @property
    def __spec__(self):
        print("__spec__ was asked")
        return None


def main():
    sys.modules["impostor_for_the_clean_up"] = module()
    return "placed"
