# Files in the temp dir and the working directory are listed; a FIFO is not read.
import os
import tempfile


def main():
    with open("notes.txt", "w") as stream:
        stream.write("in the working directory")
    folder = tempfile.mkdtemp(prefix="lesson-")
    with open(os.path.join(folder, "a.txt"), "w") as stream:
        stream.write("in the temp dir")
    if hasattr(os, "mkfifo"):
        os.mkfifo(os.path.join(folder, "pipe"))
    os.symlink("/etc/passwd", os.path.join(folder, "link"))
    print(sorted(os.listdir(folder)))
