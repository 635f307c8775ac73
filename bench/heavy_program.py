"""Teaching programs that outgrow a naive recorder (issue 29): a growing string and list, deep nesting, deep
recursion, and an object-heavy Dijkstra (a dataclass map of 360 frozen roads, a generator, heapq).
Recorded by bench/heavy.py on CPython and bench/heavy.mjs in Pyodide; line numbers do not matter."""
import heapq
from dataclasses import dataclass, field


def build_string(n):
    text = ""
    for i in range(n):
        text += chr(97 + i % 26)
    return len(text)


def build_list(n):
    items = []
    for i in range(n):
        items.append(i * i)
    return len(items)


def nest(depth):
    data = []
    for _ in range(depth):
        data = [data]
    return data


def count_down(n):
    if n == 0:
        return 0
    return 1 + count_down(n - 1)


@dataclass(frozen=True)
class Road:
    start: tuple
    end: tuple
    minutes: int


@dataclass
class RoadMap:
    roads: list = field(default_factory=list)

    def neighbours(self, place):
        for road in self.roads:
            if road.start == place:
                yield road.end, road.minutes


def grid_map(size):
    roads = []
    for x in range(size):
        for y in range(size):
            for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
                nx, ny = x + dx, y + dy
                if 0 <= nx < size and 0 <= ny < size:
                    roads.append(Road((x, y), (nx, ny), 1 + (x * 7 + y * 3) % 5))
    return RoadMap(roads)


def shortest_path(roadmap, start, goal):
    best = {start: 0}
    queue = [(0, start)]
    done = set()
    while queue:
        so_far, place = heapq.heappop(queue)
        if place == goal:
            return so_far
        if place in done:
            continue
        done.add(place)
        for other, minutes in roadmap.neighbours(place):
            cost = so_far + minutes
            if cost < best.get(other, cost + 1):
                best[other] = cost
                heapq.heappush(queue, (cost, other))
    return None
