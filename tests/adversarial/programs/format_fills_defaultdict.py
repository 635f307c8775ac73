# An address-book line built with %-formatting over a defaultdict(str), the classic way to let missing
# fields come out empty. The `%` sits on a line of its own that holds only the template (a constant):
# formatting looks up `email` in the defaultdict, whose __missing__ (C) inserts it.
from collections import defaultdict


def main():
    fields = defaultdict(str)
    fields["name"] = "Ada"
    line = (
        "%(name)s <%(email)s>"
        % fields
    )
    width = 40
    pad = width - 10
    print(line, sorted(fields))
