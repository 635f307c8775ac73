"""Properties of previews and signatures over generated values (run by tests/test_bounded.py).

These walk arbitrary object graphs, so a regression could loop or exhaust memory; they run in
a child pytest under a memory and time cap, where such a regression fails a test instead of
taking the whole suite down.
"""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from steptrace import previews
from steptrace.previews import Previewer
from steptrace.snap_check import SnapCheck
from steptrace.values import ValuePool

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=300),
    lambda children: st.lists(children, max_size=30) | st.dictionaries(st.text(max_size=10), children, max_size=30)
    | st.tuples(children, children),
    max_leaves=300)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_any_data_gives_bounded_json_safe_preview(value):
    preview = Previewer().preview(value)
    text = json.dumps(preview, ensure_ascii=False, allow_nan=False)
    assert len(text) < 200_000
    assert len(preview["r"]) <= previews.REPR_CAP


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_pool_preview_matches_fresh_preview(value):
    pool = ValuePool()
    pool.preview(value)
    assert pool.preview(value)[0] == Previewer().preview(value)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=60), st.integers(1, 40))
def test_shared_references_cost_nodes_not_paths(picks, doublings):
    """Graphs whose shared references multiply the paths (2**n) stay within the node budget."""
    nodes: list = [[1]]
    for pick in picks:
        a = nodes[pick % len(nodes)]
        b = nodes[(pick * 7) % len(nodes)]
        nodes.append([a, b, (a, b), {"a": a, "b": b}])
    top = nodes[-1]
    for _ in range(doublings):
        top = [top, top]
    previewer = Previewer()
    preview, signature = previewer.preview_and_signature(top)
    assert len(json.dumps(preview)) < 400_000 and snap_nodes(signature) <= previews.NODES_CAP
    assert SnapCheck(previewer).holds(top, signature)


def snap_nodes(snap) -> int:
    return 1 + sum(snap_nodes(kid) for _, kid in snap.kids)


mutable_values = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 2000) | st.floats(allow_nan=False) | st.text(max_size=70),
    lambda children: st.lists(children, max_size=20) | st.dictionaries(st.text(max_size=4), children, max_size=20),
    max_leaves=80)


def _containers(value, found=None):
    found = [] if found is None else found
    if type(value) in (list, dict) and not any(value is seen for seen in found):
        found.append(value)
        for item in (value.values() if type(value) is dict else value):
            _containers(item, found)
    return found


@settings(max_examples=150, deadline=None)
@given(mutable_values.filter(lambda v: type(v) in (list, dict)), st.data())
def test_pool_tracks_any_sequence_of_in_place_changes(value, data):
    """After every in-place change the pool's preview equals a fresh one, and a check says
    'unchanged' only when the fresh preview is indeed the same. Changes include making the
    value share itself (cycles) and share its parts many times over (DAGs)."""
    pool = ValuePool()
    preview, snap = pool.preview(value)
    for _ in range(6):
        target = data.draw(st.sampled_from(_containers(value)))
        new = data.draw(mutable_values)
        if type(target) is list:
            action = data.draw(st.sampled_from(["set", "append", "pop", "cycle", "share"] if target else ["append"]))
            if action == "set":
                target[data.draw(st.integers(0, len(target) - 1))] = new
            elif action == "append":
                target.append(new)
            elif action == "cycle":
                target.append(value)
            elif action == "share":
                target.extend([target[0]] * 8)
            else:
                target.pop(data.draw(st.integers(0, len(target) - 1)))
        else:
            keys = list(target)
            action = data.draw(st.sampled_from(["set", "add", "del"] if keys else ["add"]))
            if action == "set":
                target[data.draw(st.sampled_from(keys))] = new
            elif action == "add":
                target[data.draw(st.text(max_size=4))] = new
            else:
                del target[data.draw(st.sampled_from(keys))]
        fresh = Previewer().preview(value)
        if pool.same(value, snap):
            assert preview == fresh
        preview, snap = pool.preview(value)
        assert preview == fresh


class Hostile:
    """Every dunder a previewer could be tempted to call raises."""

    def __init__(self, payload):
        self.payload = payload

    def __repr__(self):
        raise AssertionError("repr called")

    __str__ = __eq__ = __lt__ = __len__ = __iter__ = __hash__ = __bool__ = __repr__

    def __getattr__(self, name):
        raise AssertionError(f"getattr {name} called")


hostile_values = st.recursive(
    st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=8) | st.builds(Hostile, children)
    | st.dictionaries(st.text(max_size=3), children, max_size=8),
    max_leaves=60)


@settings(max_examples=100, deadline=None)
@given(hostile_values)
def test_objects_are_previewed_without_their_dunders(value):
    previewer = Previewer()
    preview, signature = previewer.preview_and_signature(value)
    json.dumps(preview)
    assert Previewer().signature(value) == signature and SnapCheck(previewer).holds(value, signature)
