# collections: Counter (most_common, arithmetic, update, elements), deque (append/pop on both ends, rotate,
# maxlen dropping the oldest), defaultdict grouping and counting, namedtuple (_replace, _asdict, _fields,
# unpacking), OrderedDict.move_to_end as an LRU, and ChainMap layering settings.
from collections import ChainMap, Counter, OrderedDict, defaultdict, deque, namedtuple


def main():
    text = "the cat and the hat and the bat"
    words = Counter(text.split())
    print(words, words.most_common(2), words["the"], words["dog"])
    letters = Counter("mississippi")
    print(letters.most_common(), sorted(letters.elements()))
    more = Counter(s=1, x=5)
    print(letters + more, letters - more, letters & more, letters | more)
    letters.update("sss")
    letters.subtract({"i": 4})
    print(letters, letters.total() if hasattr(letters, "total") else sum(letters.values()))
    queue = deque([1, 2, 3])
    queue.append(4)
    queue.appendleft(0)
    print(queue, queue.pop(), queue.popleft(), queue)
    queue.rotate(1)
    print(queue, end=" ")
    queue.rotate(-2)
    print(queue)
    recent = deque(maxlen=3)
    for page in ["home", "about", "blog", "contact", "shop"]:
        recent.append(page)
        print(" ", list(recent))
    groups = defaultdict(list)
    for word in text.split():
        groups[len(word)].append(word)
    counts = defaultdict(int)
    for ch in "hello world":
        counts[ch] += 1
    print(dict(groups), dict(counts), groups.default_factory.__name__, 99 in groups)
    Point = namedtuple("Point", ["x", "y"])
    Person = namedtuple("Person", "name age city", defaults=["Paris"])
    p = Point(3, 4)
    print(p, p.x + p.y, p[0], p._replace(x=10), p._asdict(), Point._fields, Person("ann", 30))
    x, y = p
    print(x * y, p == (3, 4), Point._make([5, 6]), isinstance(p, tuple))
    cache = OrderedDict()
    for key in ["a", "b", "c", "a", "d"]:
        if key in cache:
            cache.move_to_end(key)
        cache[key] = key.upper()
        if len(cache) > 3:
            print("  evict", cache.popitem(last=False))
    print(list(cache.items()))
    defaults = {"theme": "light", "lang": "en", "size": 12}
    user = {"theme": "dark"}
    settings = ChainMap({}, user, defaults)
    settings["size"] = 14
    print(settings["theme"], settings["lang"], settings["size"], settings.maps[0], defaults["size"], len(settings))
