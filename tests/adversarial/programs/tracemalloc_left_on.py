# entry: print(main())
# A lesson measuring memory with tracemalloc that never calls tracemalloc.stop(). The next run must
# not find tracing already on (nor run under its cost).
import tracemalloc


def main():
    already = tracemalloc.is_tracing()
    tracemalloc.start()
    data = [str(i) for i in range(1000)]
    traced = tracemalloc.get_traced_memory()[1] > 0    # the amounts differ run to run: not kept
    return already, traced, len(data)
