# setup: from pure_method_lines import *\nimport pure_method_lines as shown\nclass Cycle:\n    def __init__(self):\n        self.me = self\n    def __del__(self, log=shown.LOG):\n        log.append("freed")\nshown.Cycle = Cycle
# gc-bound: when the loop's collections run depends on allocations, so runs differ in when `log` grows
# Lines that call text methods of scalars (once cheap steps that looked only at the names they write) next
# to what could change other names behind them: a str subclass whose `strip` appends to a list the
# frame holds, a codec search function of the program's (reached by `encode`), an int asked for a
# text method (AttributeError), and garbage whose finalizer appends to a list the frame holds while
# the method calls allocate.
import codecs
import gc

LOG = []


class Loud(str):
    def strip(self, chars=None):
        LOG.append("strip of a subclass")
        return str.strip(self, chars)


def search(name):
    if name == "stepwise_loud":                  # codecs hands it the name normalized
        LOG.append("codec looked up")
        return codecs.lookup("utf-8")
    return None


def main():
    log = LOG
    codecs.register(search)
    text = "The quick, brown fox; jumps over the lazy dog. " * 3
    words = []
    for raw in text.split():
        word = raw.strip(".,;").lower()
        word = word.replace("o", "0").upper().center(9, "*")
        words.append(word)
        for _ in range(20):
            Cycle()                          # garbage with a finalizer, freed by some later allocation
            word = word.strip("*").lower().strip("*").center(9, "*")
    sly = Loud("  sly  ")
    sly = sly.strip()                        # a subclass: its strip is the program's, and appends to log
    sly = sly.strip()                        # now an exact str: pure
    raw = text.encode("stepwise-loud")       # the program's codec search runs, and appends to log
    count = 7
    try:
        count = count.strip()
    except AttributeError as error:
        kind = type(error).__name__
    head, _, tail = text.partition(",")
    parts = head.split(" ", maxsplit=1)
    codecs.unregister(search)
    gc.collect()                             # the last garbage goes before the run ends, the same way
    print(len(words), words[:3], sly, len(raw), kind, tail[:6], parts, log.count("strip of a subclass"),
          log.count("codec looked up"), "freed" in log)
