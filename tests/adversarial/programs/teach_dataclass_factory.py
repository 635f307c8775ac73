# Dataclasses with field(default_factory=...): each instance gets its own list and dict (the shared-list
# pitfall avoided), a field left out of the repr, __post_init__ computing a field, asdict and equality.
from dataclasses import asdict, dataclass, field


@dataclass
class Student:
    name: str
    grades: list = field(default_factory=list)
    tags: dict = field(default_factory=dict)
    password: str = field(default="secret", repr=False)
    average: float = field(init=False, default=0.0)

    def __post_init__(self):
        self.name = self.name.title()
        self.update()

    def add(self, grade):
        self.grades.append(grade)
        self.update()
        return self

    def update(self):
        self.average = sum(self.grades) / len(self.grades) if self.grades else 0.0


_counter = 0


def next_id():
    global _counter
    _counter += 1
    return _counter


@dataclass
class Ticket:
    title: str
    ident: int = field(default_factory=next_id)


def main():
    ann = Student("ann lee")
    bob = Student("bob", [70])
    ann.add(90).add(85)
    bob.add(80)
    ann.tags["club"] = "chess"
    print(ann)
    print(bob)
    print("own lists:", ann.grades is not bob.grades, ann.tags, bob.tags)
    print(asdict(bob))
    print("equal:", Student("x", [1]) == Student("X", [1]), Student("x", [1]) == Student("x", [2]))
    tickets = [Ticket(t) for t in ("bug", "feature", "docs")]
    print(tickets)
    print([t.ident for t in tickets], _counter)
