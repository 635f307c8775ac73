# entry: print(main())
# A lesson on Ctrl-C: it installs its own SIGINT handler and never puts the default back. The next run
# must find the default handler (else a page's interrupt would call this run's function, not stop it).
import signal


def polite(signum, frame):
    print("not now, please")


def main():
    before = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    signal.signal(signal.SIGINT, polite)
    return before
