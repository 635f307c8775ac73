"""Bounded previews and signatures (steptrace.previews, steptrace.values), on CPython.

Property tests over generated values live in tests/bounded/ (run under a memory and time cap)."""
from __future__ import annotations

import json
import time

import pytest

from steptrace import previews as values
from steptrace.previews import Previewer
from steptrace.values import ValuePool


def size(preview: dict) -> int:
    return len(json.dumps(preview, ensure_ascii=False))


def test_str_keeps_capped_text_and_full_length():
    preview = Previewer().preview("abc" * 100)
    assert preview["t"] == "str" and preview["len"] == 300
    assert preview["v"] == ("abc" * 100)[:values.STR_CAP]
    assert len(preview["r"]) <= values.REPR_CAP


def test_ten_megabyte_string_is_bounded_and_fast():
    big = "x" * 10_000_000
    started = time.perf_counter()
    preview = Previewer().preview(big)
    assert time.perf_counter() - started < 0.05
    assert preview["len"] == 10_000_000 and size(preview) < 1000


def test_list_containing_itself_is_marked_cycle():
    loop = [1]
    loop.append(loop)
    preview = Previewer().preview(loop)
    assert preview["items"][1]["cycle"] is True and "items" not in preview["items"][1]
    assert preview["r"] == "[1, [...]]"
    json.dumps(preview)


def test_dict_entries_and_more_count():
    preview = Previewer().preview({i: str(i) for i in range(40)})
    assert preview["len"] == 40 and len(preview["entries"]) == values.ITEMS_CAP
    assert preview["more"] == 40 - values.ITEMS_CAP
    assert preview["entries"][0] == [{"t": "int", "r": "0"}, {"t": "str", "r": "'0'", "v": "0", "len": 1}]


def test_depth_cap_keeps_only_len():
    nested: list = []
    for _ in range(20):
        nested = [nested]
    preview = Previewer().preview(nested)
    node, depth = preview, 0
    while "items" in node:
        node, depth = node["items"][0], depth + 1
    assert depth == values.DEPTH_CAP and node["len"] == 1 and "r" in node


def test_container_repr_is_built_from_bounded_items():
    preview = Previewer().preview([1, "a", (2,), {3}, frozenset(), {"k": None}])
    assert preview["r"] == "[1, 'a', (2,), {3}, frozenset(), {'k': None}]"
    wide = Previewer().preview(["y" * 1000] * 1000)
    assert len(wide["r"]) == values.REPR_CAP and wide["r"].endswith("…]") and size(wide) < 5000


class RaisingRepr:
    def __repr__(self):
        raise ValueError("boom")


class HugeRepr:
    def __repr__(self):
        return "H" * 1_000_000


class Counted:
    calls: list = []

    def __init__(self):
        self.size = 2

    def __repr__(self):
        Counted.calls.append("repr")
        return "counted"

    def __eq__(self, other):
        Counted.calls.append("eq")
        return False

    def __hash__(self):
        Counted.calls.append("hash")
        return 1

    def __lt__(self, other):
        Counted.calls.append("lt")
        return True

    def __len__(self):
        Counted.calls.append("len")
        return 0

    def __iter__(self):
        Counted.calls.append("iter")
        return iter(())

    def __getattr__(self, name):
        Counted.calls.append("getattr")
        raise AttributeError(name)


def test_a_user_repr_is_never_called():
    assert Previewer().preview(RaisingRepr()) == {"t": "RaisingRepr", "r": "<RaisingRepr object>", "fields": [],
                                                  "more": 0}
    huge = Previewer().preview(HugeRepr())
    assert huge["r"] == "<HugeRepr object>" and "err" not in huge


def test_no_dunder_of_the_program_runs():
    value = [Counted(), {Counted(), Counted()}, {"k": Counted()}, (Counted(),)]
    Counted.calls.clear()                          # building the set hashed them; from here on, nothing may
    pool = ValuePool()
    preview, signature = pool.preview(value)
    assert pool.same(value, signature)
    assert preview["items"][0]["r"] == "<Counted size=2>"
    assert Counted.calls == []


def test_objects_show_their_stored_fields():
    from dataclasses import dataclass

    @dataclass
    class Route:
        stops: list
        cost: float = 0.0

    class Slotted:
        __slots__ = ("a", "b")

        def __init__(self):
            self.a = 1

    route = Previewer().preview(Route(["a"], 2.5))
    assert route["r"] == "Route(stops=['a'], cost=2.5)"
    assert [name for name, _ in route["fields"]] == ["stops", "cost"]
    assert Previewer().preview(Slotted())["fields"] == [["a", {"t": "int", "r": "1"}]]
    error = Previewer().preview(ValueError("bad", 2))
    assert error["r"] == "ValueError('bad', 2)" and error["fields"][0][0] == "args"


def test_markup_is_plain_data():
    text = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    preview = Previewer().preview({"html": text})
    assert preview["entries"][0][1]["v"] == text
    assert json.loads(json.dumps(preview))["entries"][0][1]["v"] == text


def test_sets_are_shown_sorted():
    assert Previewer().preview({"b", "c", "a"})["r"] == "{'a', 'b', 'c'}"
    assert Previewer().preview({10, 9, 100})["r"] == "{9, 10, 100}"


def test_huge_int_is_described():
    preview = Previewer().preview(10 ** 5000)
    assert preview["r"].startswith("<int with")


def test_signature_sees_nested_in_place_change():
    previewer = Previewer()
    candidate = [{"role": "user", "content": [{"type": "tool_result", "content": "a" * 900}]}]
    before = previewer.signature(candidate)
    assert previewer.signature(candidate) == before
    candidate[0]["content"][0]["content"] = "moved"
    assert previewer.signature(candidate) != before


def test_signature_tells_equal_looking_scalars_apart():
    previewer = Previewer()
    assert previewer.signature([1]) != previewer.signature([True])
    assert previewer.signature([0.0]) != previewer.signature([-0.0])
    assert previewer.signature(["a"]) != previewer.signature([b"a"])


def test_walks_of_self_referential_wide_and_shared_values_are_bounded():
    previewer = Previewer()
    loop: list = []
    loop.append(loop)
    previewer.signature(loop)
    wide = [[list(range(50)) for _ in range(50)] for _ in range(50)]
    shared = [1]
    for _ in range(60):
        shared = [shared, shared]                 # 2**60 paths through 61 nodes
    started = time.perf_counter()
    for value in (wide, shared):
        assert size(previewer.preview(value)) < 60_000
        previewer.signature(value)
    assert time.perf_counter() - started < 0.5


def test_pool_reuses_unchanged_and_sees_mutation():
    pool = ValuePool()
    messages = [{"content": [{"content": "a"}]}]
    first, key = pool.preview(messages)
    again, same_key = pool.preview(messages)
    assert again is first and same_key == key
    messages[0]["content"][0]["content"] = "b"
    assert not pool.same(messages, key)
    changed, new_key = pool.preview(messages)
    assert changed is not first and new_key != key
    assert changed["items"][0]["entries"][0][1]["items"][0]["entries"][0][1]["v"] == "b"


def test_pool_keeps_no_object_alive():
    import gc
    import weakref

    class Thing:
        pass

    pool = ValuePool()
    thing = Thing()
    holder = [thing, {"k": thing}]
    pool.preview(holder)
    pool.preview(thing)
    ref = weakref.ref(thing)
    del thing, holder
    gc.collect()
    assert ref() is None


def test_pool_equal_content_of_other_type_is_not_shared():
    pool = ValuePool()
    assert pool.preview([1])[0]["r"] == "[1]"
    assert pool.preview([True])[0]["r"] == "[True]"


def test_interning_behind_one_short_repr_compares_with_a_bounded_few():
    """An object mutated on every step behind an unchanging repr: each new preview is compared only
    with the latest few of that repr (was: with all, quadratic; keon/algorithms' Huffman writer ran
    out of time traced). A value changed back still shares its entry."""
    from steptrace.values import SAME_TEXT_KEPT

    class Box:
        pass

    class Counted(dict):   # a preview that counts how often it is compared
        compared = 0

        def __eq__(self, other):
            Counted.compared += 1
            return dict.__eq__(self, other)
        __hash__ = None

    pool, box = ValuePool(), Box()
    refs = []
    for n in range(2_000):
        box.n = n
        refs.append(pool.intern(Counted(pool.previewer.preview(box))))
    assert len(set(refs)) == 2_000
    assert Counted.compared <= 2_000 * SAME_TEXT_KEPT
    box.n = 1_998
    assert pool.intern(Counted(Previewer().preview(box))) == refs[1_998]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.0])
def test_special_floats_are_text(value):
    preview = Previewer().preview([value])
    json.dumps(preview, allow_nan=False)


# -- change detection (what the recorder asks on every step) --------------------------------------
def lesson_like() -> list:
    """Shaped like the lesson's `candidate`: messages with nested content blocks."""
    return [{"role": "user", "content": "先检查，再获准运行。"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "read", "input": {"p": "x"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "正文" * 400}]}]


@pytest.mark.parametrize("extra", [None, RaisingRepr()], ids=["builtin", "with-object"])
def test_pool_sees_deep_in_place_change(extra):
    """candidate[2]['content'][0]['content'] = ...: three containers down, still a change of candidate."""
    pool = ValuePool()
    candidate = lesson_like()
    if extra is not None:
        candidate.append(extra)
    first, snap = pool.preview(candidate)
    assert pool.same(candidate, snap)
    candidate[2]["content"][0]["content"] = "[旧正文已移出]"
    assert not pool.same(candidate, snap)
    changed, new_snap = pool.preview(candidate)
    assert changed is not first and pool.same(candidate, new_snap)
    assert changed["items"][2]["entries"][1][1]["items"][0]["entries"][2][1]["v"] == "[旧正文已移出]"
    assert changed == Previewer().preview(candidate)
    candidate[1]["content"][0]["input"]["p"] = "y"            # four containers down
    assert not pool.same(candidate, new_snap)
    assert pool.preview(candidate)[0] == Previewer().preview(candidate)


def test_in_place_changes_of_other_containers_are_seen():
    from collections import Counter, defaultdict
    pool = ValuePool()
    for value, change in [(defaultdict(list), lambda v: v["x"].append(1)), (Counter(), lambda v: v.update("ab")),
                          (bytearray(b"abc"), lambda v: v.__setitem__(0, 120))]:
        _, signature = pool.preview(value)
        change(value)
        assert not pool.same(value, signature)
        assert pool.preview(value)[0] == Previewer().preview(value)


def test_change_beyond_the_caps_is_harmless():
    """A change the preview cannot show (past the items cap or the depth cap) may go unseen;
    the preview stays right for what it shows and nothing breaks."""
    pool = ValuePool()
    wide = [[i] for i in range(40)]
    deep: list = ["leaf"]
    for _ in range(8):
        deep = [deep]
    value = {"wide": wide, "deep": deep}
    first, snap = pool.preview(value)
    wide[30][0] = "changed"                                     # item 31 of 40: not shown
    inner = deep
    for _ in range(7):
        inner = inner[0]
    inner[0] = "changed too"                                    # below the depth cap
    again, snap2 = pool.preview(value)
    assert again == first == Previewer().preview(value)
    wide[0][0] = "shown"                                        # inside the window: seen
    assert not pool.same(value, snap2)
    assert pool.preview(value)[0] == Previewer().preview(value)


def test_shared_leaf_previews_match_a_fresh_walk_and_stay_bounded():
    """Short strings and small ints inside containers take a shared preview from a bounded cache:
    whatever the cache holds, a preview equals the one a new previewer builds, node cap included."""
    previewer = Previewer()
    for _ in range(3):
        for start in range(0, values.LEAVES_CAP * 2, 97):
            value = {f"k{start + i}": [f"v{start + i}", i - 300, "x" * (values.NESTED_STR_CAP + i % 2)]
                     for i in range(20)}
            assert previewer.preview(value) == Previewer().preview(value)
            assert len(previewer._leaves) <= values.LEAVES_CAP
    side = values.ITEMS_CAP
    nested = [[[f"s{i}.{j}.{k}" for k in range(side)] for j in range(side)] for i in range(side)]
    assert 1 + side + side ** 2 + side ** 3 > values.NODES_CAP   # the walk is cut by the node cap
    fresh = Previewer().preview(nested)
    assert previewer.preview(nested) == fresh and previewer.preview(nested) == fresh   # cold, then cached


class RandomChanges:
    """Nested lists, dicts and objects (a cycle through one root, shared scalars, long and short text)
    and a random in-place change at a time, for the differential tests below."""

    class Box:
        def __init__(self, *fields):
            for index, field in enumerate(fields):
                setattr(self, f"f{index}", field)

    class Text(str):
        pass

    def __init__(self, seed: int) -> None:
        import random
        self.rng = random.Random(seed)
        side = values.ITEMS_CAP
        self.roots = [[self.node(1) for _ in range(side + 2)], {f"r{i}": self.node(1) for i in range(side)},
                      [{"role": "user", "content": [{"type": "text", "text": f"m{i}"}]} for i in range(30)],
                      [{i: [i, f"v{i}"], -i - 1: {"k": i}} for i in range(20)]]     # int keys: read otherwise
        self.roots[0].insert(1, self.roots[0])                    # a cycle through the root, shown

    def leaf(self):
        rng = self.rng
        return rng.choice([rng.randrange(-5, 2000), f"s{rng.randrange(50)}", 1.5, None, (1, "t"),
                           "L" * (values.NESTED_STR_CAP + 5), self.Text("T" * (values.NESTED_STR_CAP + 5))])

    def node(self, depth):
        rng, side = self.rng, values.ITEMS_CAP
        if depth > 2 or rng.random() < 0.3:
            return self.leaf()
        if rng.random() < 0.2:
            return self.Box(*(self.node(depth + 1) for _ in range(rng.randrange(side + 3))))
        if rng.random() < 0.5:
            return [self.node(depth + 1) for _ in range(rng.randrange(side + 3))]
        return {f"k{i}": self.node(depth + 1) for i in range(rng.randrange(side + 3))}

    def change(self, step: int) -> None:
        rng = self.rng
        root = rng.choice(self.roots)
        containers = [root]
        for value in containers:
            if len(containers) < 200:
                kids = value if type(value) is list else list(value.values()) if type(value) is dict else []
                containers += [kid for kid in kids if type(kid) in (list, dict) and kid is not root]
        target = rng.choice(containers)
        keys = list(range(len(target))) if type(target) is list else list(target)
        action = rng.randrange(6)
        if action == 5 and keys:                                   # the last key renamed, its value kept
            last = keys[-1]
            target.insert(len(target), target.pop()) if type(target) is list else \
                target.__setitem__(f"{last}'", target.pop(last))
        elif action == 0 or not keys:
            target.append(self.node(1)) if type(target) is list else target.__setitem__(f"n{step}", self.node(1))
        elif action == 1:
            target[rng.choice(keys)] = self.node(1)
        elif action == 2:
            del target[rng.choice(keys)]
        elif action == 3 and type(target) is list:
            target.insert(0, target.pop())
        else:
            target[rng.choice(keys)] = self.leaf()


def test_a_changed_container_previews_as_a_fresh_walk_would():
    """A changed list, tuple or dict keeps the previews of the items that still hold (ValuePool hands
    the earlier preview to the previewer): after every random change, its preview must equal a new
    previewer's, including where the node cap cuts and where cycles are marked."""
    changes, pool = RandomChanges(20261201), ValuePool()
    for step in range(600):
        changes.change(step)
        for value in changes.roots:
            assert pool.preview(value)[0] == Previewer().preview(value), step


@pytest.mark.parametrize("make", [lambda: [{"a": 1, "b": 2}, {"c": 3}], lambda: [[10, 20], [30]]])
def test_the_check_sees_an_item_move_between_neighbours(make):
    """Two neighbours whose items together read the same after the last of the first
    moved to the front of the second: only their lengths tell."""
    value = make()
    snap = Previewer().preview_and_signature(value)[1]
    first, second = value
    if type(first) is dict:
        moved = first.popitem()
        second_items = list(second.items())
        second.clear()
        second.update([moved, *second_items])
    else:
        second.insert(0, first.pop())
    assert not ValuePool().check.holds(value, snap)


def _reachable(root) -> dict:
    """id -> object for the lists, dicts, tuples, sets and objects reachable from `root`."""
    found, todo = {}, [root]
    while todo:
        value = todo.pop()
        if id(value) in found or type(value) in (str, int, float, bool, type(None), RandomChanges.Text):
            continue
        found[id(value)] = value
        kids = value.values() if isinstance(value, dict) else vars(value).values() \
            if isinstance(value, RandomChanges.Box) else value
        todo.extend(kids)
    return found


def test_what_a_preview_holds_previews_alone_as_it_did_inside():
    """The containers and objects a root's walk previewed whole (no cap cut them, no cycle mark) are kept
    by id (`Previewer.inner`) to stand for a preview of their own: each must be exactly that, preview and
    snap, however deep, wide, cyclic or changed the roots around them."""
    changes = RandomChanges(11)
    deep = [[[[[[[["bottom"]]]]]]], {"k": [[[[[1]]]]]}]
    wide = [[list(range(30)) for _ in range(20)] for _ in range(3)]
    inside = [1, [2]]
    inside[1].append(inside[1])                                 # a cycle within an item, and one to the root
    inside.append([inside, {"x": inside[1]}])
    roots = changes.roots + [deep, wide, inside, {"s": {3, 1, 2}, "f": frozenset({"b", "a"}), "t": (1, [2])}]
    previewer = ValuePool().previewer
    kept = set()
    for step in range(150):
        changes.change(step)
        for root in roots:
            previewer.preview_and_signature(root)
            inner, objects = previewer.inner, _reachable(root)
            for key, snap, preview in inner:
                alone = previewer.preview_and_signature(objects[key])
                assert alone == (preview, snap), (step, preview)
                kept.add(snap.tag)
    assert kept == {"data", "object"}


def test_a_container_met_inside_an_earlier_preview_is_not_previewed_again(monkeypatch):
    """A local that takes a list out of a message list passed in (`blocks = request['content']`) gets the
    preview the message list's walk made of it, after a change check; once changed, a walk of its own."""
    pool = ValuePool()
    messages = [{"role": "user", "content": [{"type": "text", "text": f"m{i}"}]} for i in range(3)]
    whole, _ = pool.preview(messages)
    walks = []
    walk = pool.previewer.preview_and_signature
    monkeypatch.setattr(pool.previewer, "preview_and_signature", lambda *args: walks.append(args) or walk(*args))
    blocks = messages[1]["content"]
    assert pool.preview(blocks)[0] is whole["items"][1]["entries"][1][1] and walks == []
    blocks.append("more")
    assert pool.preview(blocks)[0]["len"] == 2 and len(walks) == 1


def test_a_dict_whose_traversal_is_not_its_values_is_still_checked_by_its_values():
    """A dict's C traversal depends on its layout: an instance's `__dict__` may give nothing (3.13+) or
    its values in its class's order, a dict with other keys gives keys too. Side by side, or at the id of a
    dict that died, such traversals can line up with the ids a snap expects while a value changed (found
    by a helper): a check reads dicts by their values, in order."""

    class Point:
        def __init__(self, x):
            self.x = x

    point = Point(1)
    table = [point.__dict__, {1: 1}, list(range(16)), list(range(16, 32))]
    pool = ValuePool()
    snap = pool.preview(table)[1]
    point.x = 2
    assert not pool.check.holds(table, snap)

    class Pair:
        pass

    first = Pair()
    first.b, first.a = 0, 0                          # the class's shared keys: b, then a
    for detached in (False, True):
        holder = [{"a": 1, "b": 2}, list(range(16)), list(range(16, 32))]
        recorded, snap = pool.preview(holder)
        assert pool.check.holds(holder, snap)
        holder[0] = None                             # the dict dies; a __dict__ may take its address
        pair = Pair()
        pair.a, pair.b = 2, 1
        holder[0] = vars(pair)
        if detached:
            del pair
        assert not pool.check.holds(holder, snap) or Previewer().preview(holder) == recorded


def test_a_check_sees_a_key_a_finalizer_renames_while_it_runs():
    """A collection during a check may run a finalizer that renames a key after the keys were compared
    (found by a helper): every later check must see the renamed dict as changed. Tried at each collection
    of the first check."""
    import gc

    acted_at = 0
    for nth in range(1, 400):
        pool = ValuePool()
        root = [{"a": [i]} for i in range(20)]
        recorded, snap = pool.preview(root)
        seen = {"collections": 0, "acted": False}

        def rename(phase, info, seen=seen, first=root[0], nth=nth):
            if phase == "start":
                seen["collections"] += 1
                if seen["collections"] == nth and not seen["acted"]:
                    seen["acted"] = True
                    first["b"] = first.pop("a")         # same size, same value, another key

        threshold = gc.get_threshold()
        gc.callbacks.append(rename)
        gc.set_threshold(1)
        try:
            pool.check.holds(root, snap)
        finally:
            gc.set_threshold(*threshold)
            gc.callbacks.remove(rename)
        if not seen["acted"]:
            break
        acted_at = nth
        assert not pool.check.holds(root, snap) or Previewer().preview(root) == recorded, nth
    assert acted_at > 5                                 # the first check did run through collections


def test_the_caches_weigh_a_tuple_held_whole():
    """A tuple of long texts is held like a scalar (it cannot change); the snap that holds it weighs its
    texts, so the by-id cache keeps no more of them than HELD_CAP (found by a helper)."""
    pool = ValuePool()
    kept = []
    for i in range(40):
        rows = tuple(tuple(f"{i}-{k}-{j}" + "x" * 990 for j in range(16)) for k in range(16))
        kept.append(pool.preview(rows)[1])
        del rows
    assert kept[0].weight > 250_000
    held = sum(entry[0].weight for entry in pool._cache.entries.values())
    assert held == pool._cache.weight <= pool.HELD_CAP


def test_a_snap_weighs_every_scalar_it_holds():
    """Floats kept alive count too, not only texts (found by a helper: rows of floats filled `_inner`)."""
    row = [j + 0.5 for j in range(16)]
    snap = Previewer().preview_and_signature([row, ["x" * 500], (1.5, "y" * 300)])[1]
    assert snap.weight >= 19 * values.HELD_ITEM + 500 + 300


def test_keys_are_compared_by_identity_and_call_no_code():
    """A key replaced by an equal str, or by a str subclass that hashes and compares equal, is a change
    (as the ids say), and telling so runs none of the subclass's methods."""
    calls = []

    class Key(str):
        def __eq__(self, other):
            calls.append("eq")
            return str.__eq__(self, other)

        def __hash__(self):
            calls.append("hash")
            return str.__hash__(self)

    value = [{"role": "user", "content": "text"} for _ in range(3)]
    snap = Previewer().preview_and_signature(value)[1]
    check = ValuePool().check
    assert check.holds(value, snap)
    value[1].pop("content")
    value[1]["".join(["con", "tent"])] = "text"          # equal, not the same object
    assert not check.holds(value, snap)
    value[1].clear()
    value[1].update(role="user", content="text")         # the interned key again
    assert check.holds(value, snap)
    value[2].clear()
    value[2].update({Key("role"): "user", "content": "text"})    # the same dict, its first key replaced
    calls.clear()
    assert not check.holds(value, snap)
    assert calls == []


def test_an_unchanged_item_is_cut_where_a_fresh_walk_would_cut_it():
    """An item that still holds is not reused when the items before it grew so much that a walk now
    reaches the node cap inside it."""
    side = values.ITEMS_CAP

    class Row:
        def __init__(self, *cells):
            self.cells = list(cells)

    for make in (list, lambda cells: Row(*cells)):             # the items after: containers, objects
        before = []
        root = [before] + [make(range(side)) for _ in range(10)]
        pool = ValuePool()
        whole = pool.preview(root)[0]
        assert whole == Previewer().preview(root)
        before += [list(range(side)) for _ in range(14)]           # now the walk is cut among the rest
        fresh = Previewer().preview(root)
        assert fresh["items"][1:] != whole["items"][1:]
        assert pool.preview(root)[0] == fresh


def test_an_item_marking_a_cycle_is_not_reused():
    """A cycle mark shows its ancestor's length: an unchanged item whose preview marks the root (the
    root itself, or a list holding it) is walked again when the root changes."""
    root = [None]
    root += [root, [root]]
    pool = ValuePool()
    assert pool.preview(root)[0] == Previewer().preview(root)
    root.append(None)
    assert pool.preview(root)[0] == Previewer().preview(root)


def test_a_dict_entry_cut_by_the_node_cap_is_watched_by_its_key():
    """The walk ran out after a key and before its value: the entry is not shown, but a cheaper key
    there would leave room for it, so the key stays in the change check."""
    side = values.ITEMS_CAP
    heavy = [[[0] * side for _ in range(side)]] + [[0] * side for _ in range(7)] + [[]]
    value = {"a": heavy, (1, 2, 3): "v"}
    pool = ValuePool()
    assert pool.preview(value)[0] == Previewer().preview(value)
    del value[(1, 2, 3)]
    value[2] = "v"
    fresh = Previewer().preview(value)
    assert fresh["more"] == 0                      # the cheaper key made room: the entry shows now
    assert pool.preview(value)[0] == fresh


def test_huge_numbers_and_texts_in_a_container_are_not_hashed():
    """The leaf caches look a string or an int up only when it is short or small: hashing reads all of it."""
    huge, long_text = 1 << 80_000_000, "y" * 20_000_000            # 10 MB each

    class Asked(dict):
        """A cache that notes the size of every key it is asked for."""
        sizes: list[int] = []

        def get(self, key, default=None):
            self.sizes.append(key.bit_length() if type(key) is int else len(key))
            return super().get(key, default)

    previewer = Previewer()
    previewer._leaves, previewer._small = Asked(), Asked(previewer._small)
    started = time.perf_counter()
    for _ in range(3):
        previewer.preview([huge] * values.ITEMS_CAP)
        previewer.preview([long_text + str(_)] * 4)
    assert Asked.sizes == []                    # neither cache was asked for a huge key (nor hashed one)
    assert time.perf_counter() - started < 0.1
    previewer.preview([5, "short"])
    assert set(Asked.sizes) == {3, 5}           # ...while small ones are still looked up (5: 3 bits, "short")


def test_forget_drops_the_programs_strings():
    text = "".join(["sec", "ret-token"])
    previewer = Previewer()
    previewer.preview([text])
    previewer.forget()
    assert not any(key is text for key in previewer._leaves)


def test_stdlib_values_show_their_repr_only_while_their_parts_are_plain():
    import fractions
    import pathlib
    import re
    import uuid
    from datetime import UTC, datetime, timedelta, timezone

    calls = []

    class Loud:
        def __repr__(self):
            calls.append("repr")
            return "Loud()"

    class Text(str):
        def __repr__(self):
            calls.append("Text repr")
            return str.__repr__(self)

    previewer = Previewer()
    shown = {name: previewer.preview(value)["r"] for name, value in {
        "fraction": fractions.Fraction(3, 4), "uuid": uuid.UUID(int=9), "path": pathlib.PurePosixPath("x", "y"),
        "slice": slice(1, 3), "pattern": re.compile("ab+"), "utc": datetime(2026, 1, 2, tzinfo=UTC),
    }.items()}
    assert shown == {"fraction": "Fraction(3, 4)", "uuid": "UUID('00000000-0000-0000-0000-000000000009')",
                     "path": "PurePosixPath('x/y')", "slice": "slice(1, 3, None)", "pattern": "re.compile('ab+')",
                     "utc": "datetime.datetime(2026, 1, 2, 0, 0, tzinfo=datetime.timezone.utc)"}
    odd = fractions.Fraction(1, 2)
    odd._numerator = Loud()
    named_zone = timezone(timedelta(hours=1), Text("zone"))
    assert [previewer.preview(value)["r"] for value in (
        slice(Loud(), 3), re.compile(Text("ab+")), odd, named_zone, datetime(2026, 1, 1, tzinfo=named_zone))] == [
        "<slice object>", "<Pattern object>", "<Fraction object>", "<timezone object>",
        "<datetime with tzinfo timezone>"]
    # A path keeps the program's str subclass from 3.12 (3.11 splits it into plain parts): either way no call.
    assert previewer.preview(pathlib.PurePosixPath(Text("a"), "b"))["r"] in ("PurePosixPath('a/b')",
                                                                             "<PurePosixPath object>")
    assert calls == []


def test_a_memoryview_shows_its_size_and_format_not_its_address():
    view = memoryview(bytearray(8)).cast("I")
    assert Previewer().preview(view)["r"] == "<memory 8 bytes, format 'I'>"
    view.release()
    assert Previewer().preview(view)["r"] == "<released memory>"
