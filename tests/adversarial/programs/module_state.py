# Module state, mutable defaults and caches: the second run must see what the first did.
import functools

COUNTER = [0]


def grow(item, bucket=[]):  # noqa: B006
    bucket.append(item)
    return len(bucket)


@functools.cache
def slow(n):
    value = n * n
    return value


def main():
    COUNTER[0] += 1
    print(COUNTER[0], grow(1), slow(3))
