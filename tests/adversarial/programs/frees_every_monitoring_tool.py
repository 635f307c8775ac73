# entry: print(main())
# backend-bound: what is recorded stops where the program frees the recorder's tool
# The program frees every sys.monitoring tool it finds in use, then takes id 0 for itself and keeps it:
# the run must still end as it ends untraced, and the recorder must not free the program's tool.
import sys


def helper(n):
    return n * 2


def main():
    before = helper(1)
    monitoring = getattr(sys, "monitoring", None)
    mine = None
    if monitoring is not None:
        for tool in range(6):
            if monitoring.get_tool(tool) is not None:
                monitoring.set_events(tool, 0)
                monitoring.free_tool_id(tool)
        monitoring.use_tool_id(0, "program's own")
        mine = monitoring.get_tool(0)
    after = helper(2)
    if monitoring is not None:
        monitoring.free_tool_id(0)
    return before, after, mine
