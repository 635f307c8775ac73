# entry: print(main())
import locale


def main():
    before = locale.setlocale(locale.LC_ALL)
    locale.setlocale(locale.LC_ALL, "C.UTF-8")
    locale.setlocale(locale.LC_NUMERIC, "C.UTF-8")
    return before
