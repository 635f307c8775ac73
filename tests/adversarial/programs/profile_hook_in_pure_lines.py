# A profile function of the program's hears the C calls of lines that are otherwise pure (text methods
# of a str) and changes a list the frame holds: after such a line the recorder must look at every
# local, not only the names the line writes.
import sys


def main():
    log = []

    def hook(frame, event, arg):
        if event == "c_call":
            log.append(event)

    text = "  a  "
    sys.setprofile(hook)
    text = text.strip()
    text = text.upper()
    text = text.lower()
    sys.setprofile(None)
    print(len(log), text)
