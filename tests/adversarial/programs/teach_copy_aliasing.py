# Names and objects: aliasing (two names, one list), is against ==, shallow copies (slice, list(), copy.copy)
# sharing inner lists, deepcopy not sharing them, a function mutating its argument against rebinding it,
# the [[0] * 3] * 3 grid bug, += on a list against on a tuple, and copying a dict of lists.
import copy


def mutate(items):
    items.append("added by mutate")


def rebind(items):
    items = ["rebound"]
    return items


def main():
    a = [1, 2, 3]
    b = a
    b.append(4)
    print(a, b, a is b, a == [1, 2, 3, 4], a is [1, 2, 3, 4])
    nested = [[1, 2], [3, 4]]
    shallow = nested[:]
    also_shallow = copy.copy(nested)
    deep = copy.deepcopy(nested)
    nested[0].append(99)
    nested.append([5])
    print(nested, shallow, also_shallow, deep)
    print(shallow[0] is nested[0], deep[0] is nested[0], shallow is nested)
    data = ["original"]
    mutate(data)
    result = rebind(data)
    print(data, result)
    grid = [[0] * 3] * 3
    grid[0][0] = 1
    good = [[0] * 3 for _ in range(3)]
    good[0][0] = 1
    print(grid, good, grid[0] is grid[1])
    t = (1, [2])
    t[1].append(3)
    try:
        t[1] += [4]
    except TypeError as error:
        print("TypeError:", error, "but t is now", t)
    x = [1]
    y = x
    x += [2]
    z = x
    z = z + [3]
    print(x, y, z, x is y, x is z)
    config = {"users": ["ann"], "level": 1}
    clone = dict(config)
    deep_clone = copy.deepcopy(config)
    clone["users"].append("bob")
    clone["level"] = 2
    print(config, clone, deep_clone)
    s1 = "hello"
    s2 = s1
    s1 += " world"
    print(s1, s2, s1 is s2)
