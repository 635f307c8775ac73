# Every route to stdout and stderr, in order.
import logging
import sys
import warnings

OUT = sys.stdout


def main():
    print("one")
    print("two", file=sys.__stdout__)
    OUT.write("three\n")
    sys.stdout.buffer.write(b"four\n")
    sys.stdout.reconfigure(line_buffering=True)
    print("five", file=sys.stderr)
    sys.__stderr__.write("six\n")
    logging.warning("seven")
    warnings.warn("eight")
    print("nine", end="")
