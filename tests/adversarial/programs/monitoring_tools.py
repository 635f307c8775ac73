# A program that takes sys.monitoring tool ids (a profiler of its own) and never gives them back.
import sys


def main():
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        print("no sys.monitoring here")
        return 0
    taken = []
    for tool in (2, 3):
        if monitoring.get_tool(tool) is None:
            monitoring.use_tool_id(tool, "lesson-profiler")
            taken.append(tool)
    print("took", len(taken))
    return len(taken)
