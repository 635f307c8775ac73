# entry: print(main())
# backend-bound: what is recorded stops where the program switches tracing off
# The program switches every tracer and monitoring callback off inside a frame that holds an object with
# a finalizer, then returns: the object must die at that return, as untraced (a recorder that kept
# anything of the frame between events would keep it alive until the run's end).
import sys


class Resource:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("closed", self.name)


def inner():
    held = Resource("inner")
    x = 1
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is not None:
        for tool in range(6):
            if monitoring.get_tool(tool) is not None:
                monitoring.set_events(tool, 0)
                for event in (monitoring.events.LINE, monitoring.events.PY_RETURN, monitoring.events.PY_UNWIND,
                              monitoring.events.PY_YIELD):
                    monitoring.register_callback(tool, event, None)
    sys.settrace(None)
    return x


def main():
    inner()
    print("after inner")
    return "done"
