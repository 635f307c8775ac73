# setup: import hash_twin_keys as shown\nclass Twin:\n    calls = 0\n    def __init__(self, name):\n        self.name = name\n    def __hash__(self):\n        return hash(self.name)\n    def __eq__(self, other):\n        Twin.calls += 1\n        return False\nshown.__dict__[Twin("range")] = "in the module's globals"\nshown.Twin = Twin
# entry: print(shown.main(), shown.Twin.calls)
# A key that is not a str in the module's globals, hashing like `range`, which the recorder looks up
# when a loop starts (is `range` the builtin?): a lookup by name would call the key's __eq__, which
# counts its calls, so the count must be the untraced one. (A key like that written into a frame's
# locals is not here: on 3.11 `frame.f_locals` itself compares it with every local's name.)


def main():
    total = 0
    for k in range(4):
        for i in range(3):
            total += i
    return total
