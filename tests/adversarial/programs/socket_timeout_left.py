# entry: print(main())
import socket


def main():
    before = socket.getdefaulttimeout()
    socket.setdefaulttimeout(2.5)
    return before
