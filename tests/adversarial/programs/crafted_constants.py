# A function whose code object was rebuilt with a constant the compiler never makes: an object whose
# `strip` is a list's C-level `append`. Its `"marker".strip(x)` lines look like pure text-method lines;
# they change `log`, which the recorder must show.
import types


class Sly:
    pass


def template(log, x):
    y = ""
    y = "marker".strip(x)
    y = "marker".strip(x)
    return log, y


def main():
    log = []
    sly = Sly()
    sly.strip = log.append
    code = template.__code__
    constants = tuple(sly if c == "marker" else c for c in code.co_consts)
    crafted = types.FunctionType(code.replace(co_consts=constants), globals())
    print(crafted(log, "q"))
