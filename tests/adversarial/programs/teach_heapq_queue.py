# heapq as a priority queue of tuples: pushes and pops in priority order, ties broken by a counter (so the
# tasks themselves are never compared), heappushpop and heapreplace, heapify, nsmallest and nlargest with a
# key, merge of sorted lists, and Dijkstra's shortest paths on a small graph.
import heapq
import itertools


def dijkstra(graph, start):
    distance = {start: 0}
    queue = [(0, start)]
    visited = []
    while queue:
        d, node = heapq.heappop(queue)
        if node in visited:
            continue
        visited.append(node)
        for neighbour, weight in graph[node]:
            candidate = d + weight
            if candidate < distance.get(neighbour, float("inf")):
                distance[neighbour] = candidate
                heapq.heappush(queue, (candidate, neighbour))
    return distance, visited


def main():
    tasks = []
    order = itertools.count()
    for priority, task in [(3, "write"), (1, "plan"), (2, "test"), (1, "coffee"), (3, "ship")]:
        heapq.heappush(tasks, (priority, next(order), task))
    print("heap list:", tasks)
    while tasks:
        priority, _, task = heapq.heappop(tasks)
        print(f"  do {task} (priority {priority})")
    numbers = [9, 4, 7, 1, 8, 2]
    heapq.heapify(numbers)
    print(numbers, numbers[0])
    print(heapq.heappushpop(numbers, 0), heapq.heappushpop(numbers, 5), numbers)
    print(heapq.heapreplace(numbers, 10), numbers)
    print([heapq.heappop(numbers) for _ in range(len(numbers))])
    people = [("ann", 31), ("bob", 25), ("cid", 42), ("dee", 25), ("eve", 38)]
    print(heapq.nsmallest(2, people, key=lambda p: p[1]), heapq.nlargest(2, people, key=lambda p: p[1]))
    print(heapq.nsmallest(3, [5, 1, 8, 3, 9, 2]), heapq.nlargest(1, "hello"))
    print(list(heapq.merge([1, 4, 9], [2, 3, 10], [0, 5])))
    graph = {"a": [("b", 7), ("c", 9), ("f", 14)], "b": [("a", 7), ("c", 10), ("d", 15)],
             "c": [("a", 9), ("b", 10), ("d", 11), ("f", 2)], "d": [("b", 15), ("c", 11), ("e", 6)],
             "e": [("d", 6), ("f", 9)], "f": [("a", 14), ("c", 2), ("e", 9)]}
    distance, visited = dijkstra(graph, "a")
    print(dict(sorted(distance.items())), visited)
    try:
        heapq.heappush(broken := [(1, {"x": 1})], (1, {"y": 2}))
        print(broken)
    except TypeError as error:
        print("equal priorities compare the payloads:", error)
