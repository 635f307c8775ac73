# setup: import program_monitoring_tool as shown, sys\nBOX = []\nif hasattr(sys, "monitoring"):\n    mon = sys.monitoring\n    mon.use_tool_id(4, "lesson")\n    def seen(code, line):\n        if code.co_name == "spin":\n            BOX.append(line)\n    mon.register_callback(4, mon.events.LINE, seen)\n    mon.set_events(4, mon.events.LINE)
# entry: print(shown.spin(BOX, 5))\nif hasattr(sys, "monitoring"):\n    sys.monitoring.set_events(4, 0)\n    sys.monitoring.register_callback(4, sys.monitoring.events.LINE, None)\n    sys.monitoring.free_tool_id(4)
# backend-bound: whether its callback runs before or after the recorder's at a line depends on the backend
# A sys.monitoring tool of the program's (3.12+; set up by setup, a file the recorder does not trace)
# appends to a list the shown frame holds at every line: every step must show what it did.


def spin(box, n):
    total = 0
    i = 0
    while i < n:
        total += i
        i += 1
    return total
