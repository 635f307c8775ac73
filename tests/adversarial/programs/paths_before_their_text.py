# entry: print(main())
# Paths whose text pathlib has not cached yet (3.12+ computes it with os.path's join on first use), with
# that join replaced by the program: showing them must not call it. Also paths from iterdir (3.14 keeps
# a DirEntryInfo beside them).
import os
import pathlib
import posixpath

CALLS = []
REAL_JOIN = posixpath.join


def counting_join(*parts):
    CALLS.append(len(parts))
    return REAL_JOIN(*parts)


def main():
    posixpath.join = counting_join
    try:
        joined = pathlib.PurePosixPath("/tmp") / "x"
        plain = pathlib.PurePosixPath("a", "b")
        odd = pathlib.PurePosixPath("a//b/")
        count = len(CALLS)
    finally:
        posixpath.join = REAL_JOIN
    os.makedirs("listed", exist_ok=True)
    open("listed/one.txt", "w").close()
    found = sorted(pathlib.Path("listed").iterdir())
    first = found[0]
    return count, str(first)
