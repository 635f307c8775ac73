# setup: from del_c_callable import *\nimport del_c_callable as shown\nfrom functools import partial\nclass Held:\n    __del__ = staticmethod(partial(shown.LOG.append, "gone"))\nshown.Held = Held
# A class whose __del__ is a C callable: its instance dies on a calm line (a store).
LOG = []


def main():
    log = LOG
    thing = Held()
    thing = None
    n = 1
    print(log, n)
