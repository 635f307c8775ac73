"""Object numbers in the trace (docs/trace-format.md "Object numbers"): the same number is the same object at
every step and from every place, a new object never takes an old number, on CPython (settrace) and in
Pyodide (sys.monitoring), through the page's documents."""
from __future__ import annotations

import json

import pytest
from test_recorder import check_document, locals_at

PROGRAM = '''
import copy


class Node:
    def __init__(self, data, next_node=None):
        self.data = data
        self.next_node = next_node


def aliases():
    a = [1, [2]]
    b = a
    c = list(a)
    d = copy.deepcopy(a)
    b.append(3)
    b[1].append(4)
    done = True
    return a


def reuse():
    for attempt in range(20):
        first = [attempt]
        address = id(first)
        del first
        made = [[attempt, attempt] for _ in range(300)]
        hits = [item for item in made if id(item) == address]
        if hits:
            second = hits[0]
            return True
    return False


def fill(board):
    for attempt in range(20):
        addresses = {id(item) for item in board}
        board[:] = [None] * len(board)
        made = [[0, attempt] for _ in range(300)]
        hits = [item for item in made if id(item) in addresses]
        board[0] = hits[0] if hits else [attempt]
        found = bool(hits)
        del made, hits
        if found:
            return True
    return False


def caller():
    board = [[9, n] for n in range(40)]
    hit = fill(board)
    after = board[0]
    return after


def shared():
    item = {"k": 1}
    holder = [item, item]
    index = {"a": item}
    ring = [0]
    ring.append(ring)
    done = True
    return done


def chain(n):
    head = None
    for value in range(n):
        head = Node(value, head)
    cur = head
    steps = 0
    while cur is not None:
        cur = cur.next_node
        steps += 1
    cur = head
    steps = 0
    while steps < 3:
        cur = cur.next_node
        steps += 1
    return steps
'''


def frames_of(doc: dict, function: str) -> list[int]:
    return [frame["id"] for frame in doc["frames"] if frame["function"] == function]


def looks(doc: dict, function: str) -> list[dict[str, dict]]:
    """The locals of `function`'s first frame at each of its events, in order."""
    frame = frames_of(doc, function)[0]
    events = doc["events"]
    return [locals_at(doc, index).get(frame, {}) for index, owner in enumerate(events["frame"]) if owner == frame]


def numbers_in(value: dict) -> set[int]:
    """Every object number a preview shows."""
    found = {value["id"]} if "id" in value else set()
    for item in value.get("items", []):
        found |= numbers_in(item)
    for key, item in value.get("entries", []):
        found |= numbers_in(key) | numbers_in(item)
    for _, item in value.get("fields", []):
        found |= numbers_in(item)
    return found


def check_aliases(doc: dict) -> None:
    last = looks(doc, "aliases")[-1]
    a, b, c, d = (last[name] for name in "abcd")
    assert a["id"] == b["id"], "an alias is the same object"
    assert a == b and a["len"] == 3 and a["items"][1]["len"] == 2, "a change through the alias shows in both"
    assert c["id"] != a["id"] and c["items"][1]["id"] == a["items"][1]["id"], "a shallow copy shares its items"
    assert numbers_in(d).isdisjoint(numbers_in(a)), "a deep copy shares no object"


def check_reuse(doc: dict) -> None:
    steps = looks(doc, "reuse")
    last = steps[-1]
    assert "second" in last, "the interpreter gave the freed list's address to a new list"
    before = [step["first"]["id"] for step in steps if "first" in step]
    assert last["second"]["id"] not in before, "a new object at a freed address takes a new number"


def check_caller(doc: dict) -> None:
    """A callee frees the 40 lists its caller's list held and makes others until one takes a freed address
    (40 of them, so the recorder's own lists cannot take every one): every list it made has its own number
    (none of them is ever changed, so one number, one content)."""
    steps = looks(doc, "caller")
    last = steps[-1]
    assert last["hit"]["r"] == "True", "a new list took the freed one's address"
    assert last["after"]["id"] == last["board"]["items"][0]["id"]
    contents: dict[int, set[str]] = {}
    for step in looks(doc, "fill") + steps:
        if "board" in step and "id" in step["board"]["items"][0]:
            held = step["board"]["items"][0]
            contents.setdefault(held["id"], set()).add(held["r"])
    assert len(contents) >= 2 and all(len(texts) == 1 for texts in contents.values()), contents


def check_shared(doc: dict) -> None:
    last = looks(doc, "shared")[-1]
    item = last["item"]["id"]
    assert [part["id"] for part in last["holder"]["items"]] == [item, item]
    assert last["index"]["entries"][0][1]["id"] == item
    ring = last["ring"]
    assert ring["items"][1]["id"] == ring["id"] and ring["items"][1]["cycle"]


def check_chain(doc: dict) -> None:
    """A 1,000-node linked list: the head's preview stops at the caps, the walker's node has the number it
    had in the head's preview, a second walk meets the same numbers, and numbers stay few."""
    steps = looks(doc, "chain")
    walked = [step["cur"] for step in steps if "cur" in step and "id" in step["cur"]]
    head = next(step["head"] for step in steps if step.get("cur") and step["cur"].get("id") == step["head"]["id"])
    shown = []
    node = head
    while "fields" in node:
        shown.append(node["id"])
        node = dict(node["fields"])["next_node"]
    assert 2 <= len(shown) <= 6, "the head's preview stops at the depth cap"
    order = list(dict.fromkeys(part["id"] for part in walked))
    assert order[:len(shown)] == shown, "walking the list meets the numbers its head's preview showed"
    assert len(order) == 1000, "each node has one number, kept through both walks"
    ids = [part["id"] for part in walked]
    moves = [number for number, before in zip(ids, [None, *ids[:-1]], strict=True) if number != before]
    assert moves[-4:] == order[:4], "the second walk meets the first nodes' numbers again"


CHECKS = {"aliases()": check_aliases, "reuse()": check_reuse, "caller()": check_caller, "shared()": check_shared,
          "chain(1000)": check_chain}


@pytest.fixture(scope="module")
def program_on_cpython(tmp_path_factory):
    import sys
    import uuid

    from steptrace.runner import run_case
    folder = tmp_path_factory.mktemp("identity")
    name = f"shown_identity_{uuid.uuid4().hex[:8]}"
    (folder / f"{name}.py").write_text(PROGRAM, encoding="utf-8")
    sys.path.insert(0, str(folder))
    yield lambda entry, **kw: json.loads(run_case(f"{name}.py", name, f"from {name} import *\n", entry,
                                                  time_limit=20, check_looks=True, **kw))
    sys.path.remove(str(folder))
    sys.modules.pop(name, None)


@pytest.mark.parametrize("entry", list(CHECKS))
def test_object_numbers_on_cpython(program_on_cpython, entry):
    doc = program_on_cpython(entry)
    check_document(doc)
    assert doc["end"]["status"] == "returned"
    assert doc["stats"]["stale_looks"] == [], "every number shown is the one the object has (fresh preview)"
    CHECKS[entry](doc)


def test_object_numbers_in_pyodide(pyodide):
    from test_recorder_pyodide import shown_module

    trace = shown_module(pyodide, "shown_identity", PROGRAM)
    for entry, check in CHECKS.items():
        doc = trace(entry, time_limit=20, check_looks=True)
        assert doc["backend"] == "monitoring" and doc["end"]["status"] == "returned", entry
        assert doc["stats"]["stale_looks"] == [], entry
        check(doc)


def test_a_run_with_no_numbers_written_twice_is_the_same(program_on_cpython):
    """The same run numbers its objects alike each time (numbers come from what the program does, not from
    where CPython put its objects)."""
    first, second = program_on_cpython("chain(300)"), program_on_cpython("chain(300)")
    assert first["values"] == second["values"] and first["locals"] == second["locals"]
