# f-strings as a formatting lesson shows them: the = specifier, conversions !r !s !a, alignment and fill
# (:>10 :<10 :^10 :*^12), precision (:.3f :.2e :.1%), thousands separators (:, :_), widths from variables,
# signs, bases (:b :o :x :#x), dates, and the older % and str.format beside them.
import datetime
import math


def main():
    name, score, ratio = "Ada", 1234567.891, 0.4567
    items = ["tea", "coffee"]
    print(f"{name=}", f"{score=}", f"{items=}", f"{len(items) = }")
    print(f"{name!r} {name!s} {'café'!a} {items!r}")
    print(f"[{name:>10}] [{name:<10}] [{name:^10}] [{name:*^12}]")
    print(f"{math.pi:.3f} {score:,.2f} {score:_.1f} {12345678:,} {score:.2e} {ratio:.1%}")
    print(f"{score=:,.0f}", f"{math.pi=:.2f}", f"{ratio = :>8.3f}")
    width, precision = 12, 4
    print(f"[{math.e:{width}.{precision}f}] [{math.e:<{width}.{precision}}]")
    print(f"{42:+d} {-42:+d} {42: d} {7:05d} {3.5:08.2f} {-3.5:=+8.2f}")
    print(f"{255:b} {255:o} {255:x} {255:X} {255:#x} {255:#010b} {1_000_000:_x}")
    day = datetime.date(2024, 2, 29)
    moment = datetime.datetime(2024, 2, 29, 13, 5, 9)
    print(f"{day:%A %d %B %Y} {moment:%H:%M:%S} {day!r} {moment.isoformat()}")
    rows = [("apples", 3, 0.5), ("kiwis", 12, 0.25), ("watermelon", 1, 3.999)]
    print(f"{'item':<12}|{'qty':>5}|{'price':>8}")
    print("-" * 27)
    for item, qty, price in rows:
        print(f"{item:<12}|{qty:>5}|{price:>8.2f}")
    print(f"{'total':<12}|{sum(q for _, q, _ in rows):>5}|{sum(q * p for _, q, p in rows):>8.2f}")
    print(f"{{literal braces}} {'nested ' + f'{1 + 1}'} {'yes' if score > 1e6 else 'no'}")
    print("%s scored %.1f (%5d) %r" % (name, score, 42, name), "{0}-{1:>4}-{0}".format("a", "b"))
    print("{name} has {n:03} items".format(name=name, n=len(items)), format(0.1 + 0.2, ".17g"))
