"""Bounded previews and change keys (steptrace.values), on CPython."""
from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steptrace import values
from steptrace.values import Previewer, ValuePool


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


def test_repr_that_raises_is_reported():
    preview = Previewer().preview(RaisingRepr())
    assert preview["t"] == "RaisingRepr" and preview["err"] == "ValueError: boom"
    assert preview["r"] == "<RaisingRepr object>"


def test_huge_repr_is_cut():
    preview = Previewer().preview(HugeRepr())
    assert len(preview["r"]) == values.REPR_CAP and preview["err"].startswith("repr cut")


def test_slow_repr_type_is_not_asked_again(monkeypatch):
    calls = []

    class Slow:
        def __repr__(self):
            calls.append(1)
            time.sleep(0.03)
            return "slow"
    previewer = Previewer()
    assert previewer.preview(Slow())["r"] == "slow"
    again = previewer.preview(Slow())
    assert len(calls) == 1 and "skipped" in again["err"]


def test_markup_is_plain_data():
    text = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    preview = Previewer().preview({"html": text})
    assert preview["entries"][0][1]["v"] == text
    assert json.loads(json.dumps(preview))["entries"][0][1]["v"] == text


def test_sets_are_shown_sorted():
    assert Previewer().preview({"b", "c", "a"})["r"] == "{'a', 'b', 'c'}"


def test_huge_int_is_described():
    preview = Previewer().preview(10 ** 5000)
    assert preview["r"].startswith("<int with")


def test_fingerprint_sees_nested_in_place_change():
    previewer = Previewer()
    candidate = [{"role": "user", "content": [{"type": "tool_result", "content": "a" * 900}]}]
    before = previewer.fingerprint(candidate)
    assert previewer.fingerprint(candidate) == before
    candidate[0]["content"][0]["content"] = "moved"
    assert previewer.fingerprint(candidate) != before


def test_fingerprint_of_self_referential_and_wide_values_is_bounded():
    previewer = Previewer()
    loop: list = []
    loop.append(loop)
    previewer.fingerprint(loop)
    wide = [[list(range(50)) for _ in range(50)] for _ in range(50)]
    started = time.perf_counter()
    previewer.fingerprint(wide)
    assert time.perf_counter() - started < 0.05


def test_pool_reuses_unchanged_and_sees_mutation():
    pool = ValuePool()
    messages = [{"content": [{"content": "a"}]}]
    first, key = pool.preview(messages)
    again, same_key = pool.preview(messages)
    assert again is first and same_key == key
    messages[0]["content"][0]["content"] = "b"
    changed, new_key = pool.preview(messages)
    assert changed is not first and new_key != key
    assert changed["items"][0]["entries"][0][1]["items"][0]["entries"][0][1]["v"] == "b"


def test_pool_shares_equal_content():
    pool = ValuePool()
    a, _ = pool.preview([{"x": "1"}])
    b, _ = pool.preview([{"x": "1"}])
    assert a is b
    assert pool.intern(a) == pool.intern(b)


def test_pool_equal_content_of_other_type_is_not_shared():
    pool = ValuePool()
    assert pool.preview([1])[0]["r"] == "[1]"
    assert pool.preview([True])[0]["r"] == "[True]"


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
    assert len(preview["r"]) <= values.REPR_CAP


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_pool_preview_matches_fresh_preview(value):
    pool = ValuePool()
    pool.preview(value)
    assert pool.preview(value)[0] == Previewer().preview(value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.0])
def test_special_floats_are_text(value):
    preview = Previewer().preview([value])
    json.dumps(preview, allow_nan=False)


# -- change detection from snaps (what the recorder asks on every step) ---------------------------
def lesson_like() -> list:
    """Shaped like the lesson's `candidate`: messages with nested content blocks."""
    return [{"role": "user", "content": "先检查，再获准运行。"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "read", "input": {"p": "x"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "正文" * 400}]}]


@pytest.mark.parametrize("extra", [None, RaisingRepr()], ids=["builtin", "with-object"])
def test_pool_sees_deep_in_place_change(extra):
    """candidate[2]['content'][0]['content'] = ...: three containers down, still a change of candidate
    (checked with marshal for builtin data, with the snap walk when an object is inside)."""
    pool = ValuePool()
    candidate = lesson_like()
    if extra is not None:
        candidate.append(extra)
    first, snap = pool.preview(candidate)
    assert pool.same(snap)
    candidate[2]["content"][0]["content"] = "[旧正文已移出]"
    assert not pool.same(snap)
    changed, new_snap = pool.preview(candidate)
    assert changed is not first and pool.same(new_snap)
    assert changed["items"][2]["entries"][1][1]["items"][0]["entries"][2][1]["v"] == "[旧正文已移出]"
    assert changed == Previewer().preview(candidate)
    candidate[1]["content"][0]["input"]["p"] = "y"            # four containers down
    assert not pool.same(new_snap)
    assert pool.preview(candidate)[0] == Previewer().preview(candidate)


def test_flat_dict_change_is_patched_and_exact():
    pool = ValuePool()
    counts = {f"w{i}": i for i in range(24)}
    _, snap = pool.preview(counts)
    assert snap.flat
    counts["w3"] = 1000
    patched, snap2 = pool.preview(counts)
    assert snap2.flat and patched == Previewer().preview(counts)
    counts["w20"] = 5                                           # beyond the 16 shown entries
    assert pool.same(snap2)


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
    assert not pool.same(snap2)
    assert pool.preview(value)[0] == Previewer().preview(value)


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
    """After every in-place change the pool's (patched, reused) preview equals a fresh one, and
    a check says 'unchanged' only when the fresh preview is indeed the same."""
    pool = ValuePool()
    preview, snap = pool.preview(value)
    for _ in range(6):
        target = data.draw(st.sampled_from(_containers(value)))
        new = data.draw(mutable_values)
        if type(target) is list:
            action = data.draw(st.sampled_from(["set", "append", "pop", "cycle"] if target else ["append"]))
            if action == "set":
                target[data.draw(st.integers(0, len(target) - 1))] = new
            elif action == "append":
                target.append(new)
            elif action == "cycle":
                target.append(value)
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
        if pool.same(snap):
            assert preview == fresh
        preview, snap = pool.preview(value)
        assert preview == fresh
