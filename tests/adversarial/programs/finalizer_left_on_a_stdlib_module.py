# entry: print(main())
# The program leaves an object with a finalizer on a stdlib module (json.keep) and on builtins: the run's
# end lets it go, and what its finalizer prints must still be the run's output.
import builtins
import json


class Resource:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("closed", self.name)


def main():
    json.keep = Resource("on json")
    builtins.kept_by_program = Resource("on builtins")
    return "left"
