# entry: print(main())
# A local holds `locals()`. Before 3.13 that is the frame's own f_locals dict, which CPython refreshes
# at every trace event, so it changes at lines that never name it (here after `del a` and pure lines).
def main():
    a = 1
    b = 2
    snap = locals()
    e = 3               # a name after `snap` in the frame's order: the look's last changed value is an int
    e = 4               # a pure line after it: `snap` changes too
    del a
    c = b + 1
    d = c * 2
    return d            # not what `snap` holds: under 3.11's settrace it differs from untraced (README)
