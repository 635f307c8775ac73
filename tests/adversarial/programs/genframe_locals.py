# setup: from genframe_locals import *\nimport genframe_locals as shown\ndef counter():\n    n = 0\n    while True:\n        n += 1\n        yield n\nshown.counter = counter
# A generator (of the setup: not traced) frame's f_locals dict held by a local: reading the attribute
# again (a calm LOAD_ATTR) refreshes the dict from the frame.
def main():
    gen = counter()
    next(gen)
    frame = gen.gi_frame
    snap = frame.f_locals
    next(gen)
    next(gen)
    again = frame.f_locals
    x = 1
    print(snap["n"], again["n"], x)
