# DAGs of dicts, tuples and frozensets, and the cycle from Python Tutor's corpus.
def main():
    d = {"leaf": 1}
    for i in range(25):
        d = {"a": d, "b": d, "n": i}
    t = (1,)
    for _ in range(25):
        t = (t, t)
    f = frozenset([1])
    for i in range(25):
        f = frozenset([f, (f, i)])
    p = [1, 2]
    u = [p, p, p]
    u[1] = u
    p[0] = u
    return len(u)
