# entry: print(main())
# A lesson on Ctrl-C whose handler object, when let go, installs a fresh one of itself (a "sticky"
# handler). Put back after the run, the dropped handler's finalizer puts the lesson's handler back.
import signal


class Sticky:
    def __call__(self, signum, frame):
        print("not now, please")

    def __del__(self, signal=signal, times=[]):
        if len(times) < 1:                 # once: a handler that came back once is enough to show it
            times.append(1)
            signal.signal(signal.SIGINT, Sticky())


def main():
    before = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    signal.signal(signal.SIGINT, Sticky())
    return before
