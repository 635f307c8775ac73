# A program that adds an audit hook, which no run could take out again: it would see the recorder's own
# audited calls (the monitoring backend's sys._getframe at every event) and run there, in this run and in
# every later one of the interpreter. The run stops at the call instead, traced or not, and the hook is
# never added; what ran before it is kept.
import sys

SEEN = []


def hook(event, args):
    SEEN.append(event)


def main():
    print("before")
    total = 0
    for number in range(5):
        total += number
    sys.addaudithook(hook)
    print("after", len(SEEN), total)
