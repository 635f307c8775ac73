# entry: print(main())
# The program reads, then changes, state the interpreter keeps between runs: the int-to-str digit limit,
# the decimal context, attributes of stdlib modules (added and replaced), the unraisable hook, the
# switch interval and the umask. The next run must read what this one read.
import decimal
import json
import math
import os
import sys


def main():
    umask = os.umask(0o077)
    os.umask(umask)
    seen = [sys.get_int_max_str_digits(), decimal.getcontext().prec, getattr(json, "mark", None), math.pi,
            sys.unraisablehook is sys.__unraisablehook__, sys.getswitchinterval(), umask]
    sys.set_int_max_str_digits(640)
    decimal.getcontext().prec = 3
    json.mark = "left by a run"
    math.pi = 3
    sys.unraisablehook = print
    sys.setswitchinterval(0.5)
    os.umask(0o027 if umask != 0o027 else 0o022)
    return seen
