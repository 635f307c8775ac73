"""The trace's value table, and "did this value change?" without keeping the value alive.

`previews` builds a bounded preview of any value and its signature; this module
decides when a preview must be built again and stores each preview once per
event-table chunk. A container or object is remembered by its id and its signature
(never by a reference), so the recorder cannot delay a `__del__`, keep a weakref
alive or hold memory the program has let go; a reused id is harmless because the
signature describes everything the preview shows.
"""
from __future__ import annotations

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    all,
    any,
    bool,
    float,
    frozenset,
    id,
    int,
    len,
    list,
    map,
    object,
    reversed,
    slice,
    str,
    type,
    zip,
)
from collections.abc import Callable
from itertools import chain, repeat
from operator import is_

from .identity import ObjectNumbers
from .previews import EXACT_SCALARS, STR_CAP, Previewer, Snap
from .snap_check import SnapCheck

_str_startswith = str.startswith
_list_len, _list_slice = list.__len__, list.__getitem__
_LIST_ID = id(list)
NUMBERS = frozenset(map(id, (int, float, bool, type(None))))
# Characters of text counted as one preview node (~70 bytes of JSON a node) against a chunk's share.
TEXT_PER_NODE = 64
# How many earlier previews with the same short repr a new one is compared with (`ValuePool.intern`).
SAME_TEXT_KEPT = 8


class ValuePool:
    """The document's `values` table: each distinct preview once, referred to by index.

    An object seen before under the same id reuses its preview while its signature still
    holds (the same `messages` passed down three calls is previewed once). `items` is the
    current event-table chunk's list (previews are dropped with their chunk); `use` switches
    to the next chunk's list. Indexes are run-wide: `base` + the position in `items`.
    """

    SNAP_CACHE_CAP = 4096    # containers and objects remembered by id
    HELD_CAP = 1 << 21       # what each cache's snaps may hold of the program's scalars (`SnapsById`)
    TEXT_CACHE_CAP = 4096    # short strings previewed once

    def __init__(self, numbers: ObjectNumbers | None = None) -> None:
        self.previewer = Previewer(numbers=numbers)
        self.check = SnapCheck(self.previewer)
        self.items: list[dict] = []
        self.base = 0                           # run-wide index of items[0]
        self._index: dict[int, int] = {}        # id(preview) -> index in `items`
        self._cache = SnapsById(self.SNAP_CACHE_CAP, self.HELD_CAP)    # the values previewed
        self._inner = SnapsById(self.SNAP_CACHE_CAP, self.HELD_CAP)    # what those previews hold (`Previewer.inner`)
        self._texts: dict[str, dict] = {}       # short str -> preview
        self._long_text: dict | None = None     # the last preview of a str longer than STR_CAP (`_text`)
        self._by_text: dict[str, list] = {}     # short repr -> indexes of structured previews with it
        self._kept: list[dict] = []             # previews folded into an equal one (their ids stay valid)
        self._full: dict[int, dict] = {}        # position in `items` -> the whole preview a `like` entry stands for
        self._likes_by_text: dict[str, list] = {}   # short repr -> the latest `like` entries with it
        # Nodes of the previews added since `use` (what the current chunk writes out); past
        # `weight_cap`, `on_heavy` is called once so the recorder closes the chunk (limits.PREVIEW_NODES).
        self.weight = 0
        self.weight_cap = float("inf")
        self.on_heavy: Callable[[], None] | None = None

    def use(self, items: list[dict], base: int = 0) -> None:
        self.items, self.base, self._index, self._by_text, self._kept = items, base, {}, {}, []
        self._full, self._likes_by_text = {}, {}
        self.weight = 0

    def weigh(self, nodes: int) -> None:
        """Count `nodes` against the current chunk's share (a preview taken in, an exception's text)."""
        before = self.weight
        self.weight = before + nodes
        if before < self.weight_cap <= self.weight and self.on_heavy is not None:
            self.on_heavy()

    def number(self, kind: type, value: object) -> dict:
        """Preview of an exact int, float, bool or None."""
        return self.previewer.number(kind, value)

    def intern(self, preview: dict, signature: Snap | None = None) -> int:
        """Run-wide index of `preview`, adding it to the current list once; previews that are equal
        (deep copies, a value changed back, two equal Decimals) share one entry. `signature`: the preview's
        (None for a scalar), whose `nodes` count against the chunk's share when the preview is added."""
        ref = self._index.get(id(preview))
        if ref is None:
            # Equal previews share one entry whatever made them: by content, not by which dict the
            # previewer's cache (keyed by id) handed back, which depends on whether a freed object's
            # address was reused, so that the same program always writes the same table.
            same_text = self._by_text.get(preview["r"])
            if same_text is not None:
                items, full = self.items, self._full
                # A deep compare in C, only when the short repr matches, and only with the latest few:
                # an object mutated on every step behind an unchanging repr (a class's default one)
                # would make each intern compare with all before it, quadratic in a chunk's events. An
                # entry written as a `like` is compared as the whole preview it stands for: else whether
                # an equal value is found would depend on which dict the cache handed back.
                for ref in chain(reversed(same_text), reversed(self._likes_by_text.get(preview["r"], ()))):
                    if full.get(ref, items[ref]) == preview:
                        self._index[id(preview)] = ref
                        self._kept.append(preview)
                        return ref + self.base
                like = _like(items, same_text, preview) or _renumbered(items, same_text, preview)
                if like is not None:
                    self._kept.append(preview)
                    ref = self._index[id(preview)] = len(items)
                    full[ref] = preview
                    self._like_entry(preview["r"], ref)
                    items.append(like)
                    self.weigh(1)
                    return ref + self.base
                if len(same_text) >= SAME_TEXT_KEPT:
                    del same_text[0]
                same_text.append(len(items))
            else:
                self._by_text[preview["r"]] = [len(self.items)]
            ref = self._index[id(preview)] = len(self.items)
            self.items.append(preview)
            nodes = 1 if signature is None else signature.nodes
            if nodes == 1:      # a text-like preview weighs by its text (a 200-character str ~ 8 nodes)
                nodes += (len(preview["r"]) + len(preview.get("v", ""))) // TEXT_PER_NODE
            self.weigh(nodes)
        return ref + self.base

    def preview(self, value: object, failed: Snap | None = None) -> tuple[dict, Snap | None]:
        """(preview, signature) of `value`; the signature is None for exact scalars (compare
        those by identity), else pass it to `same` later. `failed`: a snap of `value` the caller
        has just seen fail, so the cached one is not walked again when it is that same snap (it
        is walked when another frame already rebuilt it)."""
        kind = type(value)
        if id(kind) in EXACT_SCALARS:
            if id(kind) in NUMBERS:
                return self.previewer.number(kind, value), None
            if kind is str:
                return self._text(value), None
            return self.previewer.preview(value), None
        key = id(value)
        cached = self._cache.get(key)
        if cached is None:
            # A container or object met before inside another's preview (a message of a list passed to
            # a function, a dict a local took from a list): its preview there is its preview alone.
            cached = self._inner.get(key)
        if cached is not None:
            if cached[0] is not failed and self.check.holds(value, cached[0]):
                return cached[1], cached[0]
            grown = self.previewer.grown(value, cached, self.check.holds)
            if grown is not None:
                self._cache.put(key, grown[1], grown[0])
                return grown
        previewer = self.previewer
        preview, signature = previewer.preview_and_signature(value, cached, self.check.holds)
        self._cache.put(key, signature, preview)
        for kid_id, kid, kid_preview in previewer.inner:
            self._inner.put(kid_id, kid, kid_preview)
        return preview, signature

    def appended(self, value: list, failed: Snap) -> tuple[dict, Snap, int] | None:
        """(preview, snap, run-wide index) of a long loop's commonest change, as `preview` then `intern` would
        answer, or None (ask them): an exact list of exact scalars appended to past its shown window (its
        first ITEMS_CAP items the very objects its snap holds), written as a `like` of the newest entry with
        its text when that is the one whose items it shares (`_like` would pick it). The cached snap must be
        `failed`, the one the caller just saw fail (`Previewer.grown` would be asked with it). For the current
        chunk only: a full snapshot writes its previews itself."""
        key = id(value)
        cached = self._cache.entries.get(key)
        if cached is None or cached[0] is not failed:
            return None
        snap, preview = cached
        held = snap.held
        shown = preview.get("items")
        if snap.tag != "data" or snap.kind != _LIST_ID or snap.cyclic or len(held) != len(snap.ids) \
                or shown is None or not preview.get("more") or snap.number and self.check.bound.get(key) != snap.number:
            return None
        size = _list_len(value)
        count = len(shown)
        if size <= count or size == snap.size or len(held) != count \
                or not all(map(is_, _list_slice(value, slice(0, count)), held)):
            return None
        grown = {"t": preview["t"], "r": preview["r"], "len": size, "items": shown, "more": size - count}
        if snap.number:
            grown["id"] = snap.number
        texts = self._by_text.get(preview["r"])
        items = self.items
        if texts is None:
            return None
        newest = texts[-1]
        earlier = items[newest]
        if earlier.get("items") is not shown or earlier.keys() != grown.keys() or earlier["t"] != grown["t"] \
                or earlier.get("id", 0) != snap.number \
                or any(map(grown.__eq__, map(items.__getitem__, texts))):
            return None
        snap = snap.resized(size)
        self._cache.put(key, snap, grown)
        ref = self._index[id(grown)] = len(items)
        self._kept.append(grown)
        self._full[ref] = grown
        self._like_entry(grown["r"], ref)
        items.append({"t": grown["t"], "len": size, "more": size - count, "like": ref - newest})
        self.weigh(1)
        return grown, snap, ref + self.base

    def _like_entry(self, text: str, ref: int) -> None:
        """Remember the latest few `like` entries with the short repr `text`: an equal preview met again
        (through a cache miss, when a freed address was reused) is found by content among them too."""
        likes = self._likes_by_text.setdefault(text, [])
        if len(likes) >= SAME_TEXT_KEPT:
            del likes[0]
        likes.append(ref)

    def _text(self, value: str) -> dict:
        """Preview of an exact str: equal short texts share one; a long one that starts with the last long
        one's shown head (`text += ch` in a loop) shares that head (its `v` and `r`), a length apart."""
        if len(value) <= STR_CAP:
            preview = self._texts.get(value)
            if preview is None:
                if len(self._texts) >= self.TEXT_CACHE_CAP:
                    self._texts.clear()
                preview = self._texts[value] = self.previewer.preview(value)
            return preview
        last = self._long_text
        if last is not None and _str_startswith(value, last["v"]):
            return {"t": "str", "r": last["r"], "v": last["v"], "len": len(value)}
        preview = self._long_text = self.previewer.preview(value)
        return preview

    def same(self, value: object, signature: Snap) -> bool:
        """Would `value` preview exactly as when `signature` was taken?"""
        return self.check.holds(value, signature)


def _like(items: list[dict], candidates: list[int], preview: dict) -> dict | None:
    """`preview` written as a `like` of an earlier entry (docs/trace-format.md): when one of `candidates`
    (entries with the same `r`) shows the same items, entries or text and differs only in `len` and
    `more` (a list appended to, a text grown at its end), its type, the keys it does not share and the
    distance back to the one that has them. By content, not by which dict shares what, so the same program
    writes the same table; the shared part is the very object in the common case, compared by identity."""
    for key in _SHARED:
        shown = preview.get(key)
        if shown is not None:
            break
    else:
        return None
    size = len(preview)
    for ref in reversed(candidates):
        earlier = items[ref]              # (an entry written as a `like` has fewer keys: passed over)
        if len(earlier) == size and earlier["t"] == preview["t"] and earlier.keys() == preview.keys():
            part = earlier[key]
            if part is shown or part == shown:
                like = {name: part for name, part in preview.items()
                        if name == "t" or part is not earlier[name] and part != earlier[name]}
                like["like"] = len(items) - ref
                return like
    return None


_SHARED = ("items", "entries", "v")


def _renumbered(items: list[dict], candidates: list[int], preview: dict) -> dict | None:
    """`preview` written as a `like` of an earlier entry that shows the very same but for object numbers (a
    copy, a deep copy: docs/trace-format.md): `{"t", "like": n, "ids": [...]}`, its numbers in the order a
    walk meets them. None when no candidate (entries with the same `r`) is such a twin."""
    for ref in reversed(candidates):
        earlier = items[ref]
        if "like" not in earlier and earlier["t"] == preview["t"]:
            ids: list[int] = []
            if _twins(earlier, preview, ids) and ids:
                return {"t": preview["t"], "like": len(items) - ref, "ids": ids}
    return None


def _twins(earlier: dict, preview: dict, ids: list[int]) -> bool:
    """Are the two previews the same but for their numbers? Appends `preview`'s numbers to `ids` in walk order:
    a node's own, then those of its `items`, `entries` (key, value) and `fields` (values), in order."""
    if earlier is preview:
        return _numbers_of(preview, ids)
    if len(earlier) != len(preview) or ("id" in earlier) != ("id" in preview):
        return False
    if "id" in preview:
        ids.append(preview["id"])
    for key, part in preview.items():
        if key == "id":
            continue
        other = earlier.get(key, _MISSING)
        if key == "items":
            if len(other) != len(part) or not all(map(_twins, other, part, repeat(ids))):
                return False
        elif key == "entries":
            if len(other) != len(part) or not all(_twins(old[0], new[0], ids) and _twins(old[1], new[1], ids)
                                                  for old, new in zip(other, part, strict=True)):
                return False
        elif key == "fields":
            if len(other) != len(part) or not all(
                    old[0] == new[0] and _twins(old[1], new[1], ids) for old, new in zip(other, part, strict=True)):
                return False
        elif other != part:
            return False
    return True


def _numbers_of(preview: dict, ids: list[int]) -> bool:
    """Appends the numbers of one preview to `ids` in walk order (see `_twins`); True."""
    if "id" in preview:
        ids.append(preview["id"])
    for item in preview.get("items", ()):
        _numbers_of(item, ids)
    for key, value in preview.get("entries", ()):
        _numbers_of(key, ids)
        _numbers_of(value, ids)
    for _, value in preview.get("fields", ()):
        _numbers_of(value, ids)
    return True


_MISSING = object()


class SnapsById:
    """(Snap, preview) by the id of the value previewed; holds no container or object, only the exact scalars
    the snaps hold (so their ids cannot be reused). Those stay alive after the program dropped them, so the
    cache keeps at most `count_cap` entries and `weight_cap` of held scalars (`Snap.weight`: HELD_ITEM each,
    plus texts' lengths and big ints' bytes); past either it lets all go at once. Lists of long texts made
    and dropped over and over must not pile up here."""

    __slots__ = ("entries", "weight", "count_cap", "weight_cap")

    def __init__(self, count_cap: int, weight_cap: int) -> None:
        self.entries: dict[int, tuple[Snap, dict]] = {}
        self.weight = 0
        self.count_cap, self.weight_cap = count_cap, weight_cap

    def get(self, key: int) -> tuple[Snap, dict] | None:
        return self.entries.get(key)

    def put(self, key: int, snap: Snap, preview: dict) -> None:
        entries = self.entries
        replaced = entries.pop(key, None)
        if replaced is not None:
            self.weight -= replaced[0].weight
        if snap.weight > self.weight_cap:
            return
        if len(entries) >= self.count_cap or self.weight + snap.weight > self.weight_cap:
            entries.clear()
            self.weight = 0
        entries[key] = (snap, preview)
        self.weight += snap.weight
