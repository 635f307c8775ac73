# A cache of loaded records held weakly (WeakValueDictionary), a textbook use of weak references (a
# dict subclass: plain dicts cannot be weakly referenced). The summary line %-formats a freshly loaded
# record that nothing else keeps: the `%` sits on the template's own line (only a constant: a "pure"
# line), drops the record, and the dictionary's callback (stdlib code, not traced) removes its entry
# from `cache`, and weakref.finalize (stdlib) appends to `closed`.
import weakref


class Record(dict):
    pass


def load(name, cache, closed):
    record = Record(title=name.title())
    cache[name] = record
    weakref.finalize(record, closed.append, name)
    return record


def main():
    cache = weakref.WeakValueDictionary()
    closed = []
    keep = load("index", cache, closed)
    summary = (
        "loaded %(title)s"
        % load("draft", cache, closed)
    )
    width = 40
    pad = width - len(summary)
    print(summary, sorted(cache.keys()), closed, keep["title"], pad)
