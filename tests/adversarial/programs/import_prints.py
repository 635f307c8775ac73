# A module that prints at import (stdout and stderr): the output is kept.
import sys

print("imported")
print("warned at import", file=sys.stderr)


def main():
    print("main ran")
