# backend-bound: only under settrace has a frame a trace function of the recorder's to wrap
# Under settrace a frame's own trace function (`frame.f_trace`, the recorder's) is wrapped by the program:
# the wrapper runs at every line event before the recorder's and changes a closure variable of the frame,
# so the frame's later steps must show what it did.
import sys


def main():
    count = 0
    frame = sys._getframe()
    recorders = frame.f_trace

    def wrapper(f, event, arg):
        nonlocal count
        count += 1
        if recorders is not None:
            recorders(f, event, arg)
        return wrapper

    if recorders is not None:
        frame.f_trace = wrapper
    x = 0
    x = x + 1
    x = x + 1
    x = x + 1
    x = x + 1
    frame.f_trace = recorders
    del frame
    print(x)
