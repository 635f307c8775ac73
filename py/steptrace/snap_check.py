"""Whether a value still previews as it did, answered from its `Snap` without building a preview.

`previews.Previewer` records, with each preview, what the walk looked at (a `Snap`: ids and lengths
of containers and objects, the exact scalars themselves, the text of text-like nodes). The recorder
asks at every step whether each local still previews the same; walking the value again and comparing
with the snap answers that with no dicts built and, like the preview itself, without running any of
the program's code (the same C-level reads). Below the root no cycle bookkeeping is needed: every node
reached has the id its parent's snap recorded, so it stands where it stood, cycles included.
"""
from __future__ import annotations

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    Exception,
    MemoryError,
    RecursionError,
    all,
    bytearray,
    bytes,
    dict,
    enumerate,
    id,
    len,
    list,
    map,
    next,
    range,
    reversed,
    set,
    slice,
    str,
    tuple,
    type,
    zip,
)
from gc import get_referents as _referents
from itertools import chain, islice, repeat
from operator import is_, itemgetter

from .previews import (
    HELD_TEXT_CAP,
    LENGTH,
    NESTED_STR_CAP,
    NUMBER_TEXT,
    REPR_CAP,
    STR_CAP,
    Previewer,
    Snap,
    shown_items,
)

_str_len, _str_slice = str.__len__, str.__getitem__
_dict_len, _dict_values, _dict_items = dict.__len__, dict.values, dict.items
_list_len, _list_slice = list.__len__, list.__getitem__
_tuple_slice = tuple.__getitem__
_chain = chain.from_iterable
_DICT, _LIST = id(dict), id(list)
WIDE = 40    # nodes from which a snap's kids are checked a level at a time (`LevelPlan`)


class SnapCheck:
    """The change check over one previewer's type facts."""

    def __init__(self, previewer: Previewer) -> None:
        self.previewer = previewer

    def holds(self, value: object, snap: Snap) -> bool:
        """Would `value` preview exactly as when `snap` was taken?"""
        if snap.tag == "scalar":
            return snap.held[0] is value
        try:
            return self._holds(value, snap, 0)
        except (RecursionError, MemoryError):
            raise
        except Exception:  # noqa: BLE001 - a value changed under the walk: build it again
            return False

    def _holds(self, value: object, snap: Snap, depth: int) -> bool:
        if id(type(value)) != snap.kind or snap.info is not None and self.previewer.info(type(value)) is not snap.info:
            return False
        tag = snap.tag
        if tag == "data":
            base = snap.base
            ids = snap.ids
            if base is list:                     # the common cases first, without helpers
                if _list_len(value) != snap.size:
                    return False
                window = _list_slice(value, slice(0, len(ids)))
            elif base is dict:
                if _dict_len(value) != snap.size:
                    return False
                # Keys, then values, alternate in `ids` (one key more when the walk ran out before its
                # value), as they do in the dict's items laid flat: one C-level pass reads them all.
                flat = list(_chain(_dict_items(value))) if len(ids) == 2 * snap.size else \
                    list(islice(_chain(_dict_items(value)), len(ids)))
                if list(map(id, flat)) != ids:
                    return False
                if snap.nodes >= WIDE:
                    plan = _plan(snap)
                    if plan.from_values:
                        return self._levels(plan.first(flat[1::2]), plan, depth + 1)
                for position, kid in snap.kids:     # the ids matched: only the kids' insides are left
                    if not self._holds(flat[position], kid, depth + 1):
                        return False
                return True
            else:
                if LENGTH[id(base)](value) != snap.size:
                    return False
                if base is tuple:
                    window = _tuple_slice(value, slice(0, len(ids)))
                else:
                    window = shown_items(value, base, self.previewer.items_cap)[:len(ids)]
        elif tag == "object":
            previewer = self.previewer
            pairs = previewer.pairs(value, previewer.info(type(value)))
            if len(pairs) != snap.size or [label for label, _ in pairs] != snap.names:
                return False
            ids = snap.ids
            window = [item for _, item in pairs[:len(ids)]]
        elif tag == "text":           # the length too: the text kept is only the head the preview shows
            return (snap.size < 0 or self._length_of(value, type(value)) == snap.size) \
                and self._text_of(value, type(value), depth) == snap.text
        elif tag == "stub":
            return self._size_of(value, type(value)) == snap.size
        else:                                   # a cycle: the same id, so the same ancestor
            return True
        if list(map(id, window)) != ids:
            return False
        if snap.nodes >= WIDE:
            plan = _plan(snap)
            return self._levels(plan.first(window), plan, depth + 1)
        for position, kid in snap.kids:
            if not self._holds(window[position], kid, depth + 1):
                return False
        return True

    def _levels(self, nodes: tuple, plan: LevelPlan, depth: int) -> bool:
        """`_holds` for a snap's kids (`nodes`), a level at a time (see `LevelPlan`)."""
        for (dicts_of, lists_of, others_of, others, dict_sizes, key_ids, value_ids, list_sizes, item_ids,
             from_values, from_items, held) in plan.levels:
            # Each group's exact type first: then `len`, iteration and traversal are their C methods.
            # (Many levels hold dicts or lists only: an empty group costs no pass.)
            dicts, lists = dicts_of(nodes), lists_of(nodes)
            kids = ()
            if dicts:
                if not all(map(is_, map(type, dicts), repeat(dict))) or list(map(len, dicts)) != dict_sizes:
                    return False
                if held[0]:
                    if not all(map(is_, _chain(dicts), held[0])):
                        return False
                else:
                    keys = list(_chain(dicts))
                    if list(map(id, keys)) != key_ids:
                        return False
                    if held[0] is None:
                        # The very keys whose ids matched: a finalizer run by a collection in this check
                        # could rename one before a second read.
                        held[0] = keys if _short_texts(keys) else False
                values = list(_chain(map(_dict_values, dicts)))
                if list(map(id, values)) != value_ids:
                    return False
                kids = from_values(values)
            if lists:
                if not all(map(is_, map(type, lists), repeat(list))) or list(map(len, lists)) != list_sizes:
                    return False
                items = _referents(*lists) if LISTS_TRAVERSED_LAST_FIRST else list(_chain(lists))
                if list(map(id, items)) != item_ids:
                    return False
                kids += from_items(items)
            for node, snap in zip(others_of(nodes), others, strict=True):
                if not self._holds(node, snap, depth):
                    return False
            nodes = kids
            depth += 1
        return True

    def _text_of(self, value: object, cls: type, depth: int) -> object:
        """What a text-like node's snap keeps, computed again (see `Previewer._node`)."""
        previewer = self.previewer
        info = previewer.info(cls)
        base = info.base
        if base is str:
            return _str_slice(value, slice(0, NESTED_STR_CAP if depth else STR_CAP))
        if base is bytes or base is bytearray:
            return bytes((bytearray.__getitem__ if base is bytearray else bytes.__getitem__)(
                value, slice(0, REPR_CAP)))
        if id(base) in NUMBER_TEXT:
            return NUMBER_TEXT[id(base)](value)
        if info.kind == "enum":
            member = next((v for k, v in previewer.stored_fields(value, info) if k == "_name_"), None)
            return f"{info.name}.{member}" if type(member) is str else f"<{info.name}>"
        return previewer.described(value, info)

    def _length_of(self, value: object, cls: type) -> int:
        """The length a text-like node's preview shows (`len`), read through its base's C method."""
        base = self.previewer.info(cls).base
        if base is str:
            return _str_len(value)
        return (bytearray.__len__ if base is bytearray else bytes.__len__)(value)

    def _size_of(self, value: object, cls: type) -> int:
        previewer = self.previewer
        info = previewer.info(cls)
        if info.kind == "data":
            return LENGTH[id(info.base)](value)
        return len(previewer.pairs(value, info))


class LevelPlan:
    """A snap's kids, level by level, for `SnapCheck._levels`: the exact dicts and lists among them that
    the preview showed whole are checked together by C-level passes (their lengths, then the ids of all
    their keys, values and items, which the walk of each would compare one node at a time); any other
    kid (a tuple, an object, a subclass, a node cut short) is walked by `_holds`. The kids of the
    dicts and lists make the next level. Equivalent to walking each kid: the same reads, the same
    comparisons, no code of the program's (exact builtin types only).

    Two shortcuts (in Pyodide each C-level pass costs about as much per node as the rest of the check):
    - the lists' items are read in one call, `gc.get_referents` (each type's C traversal), when this
      interpreter's traversal of an exact list gives every item last first (`LISTS_TRAVERSED_LAST_FIRST`,
      checked once). Not the dicts' values: a dict's traversal depends on its layout (an instance's
      `__dict__` may give nothing, or its values in its class's order; other keys come with their values),
      which can differ between two dicts at one id;
    - keys that are all short exact str (immutable, no finalizer: holding them changes nothing the
      program can see, as `Snap.held` does) are held once they matched, and compared by identity."""

    __slots__ = ("first", "from_values", "levels")

    def __init__(self, snap: Snap) -> None:
        positions = [position for position, _ in snap.kids]
        # A dict's kids stand at odd positions when they are values (a container key is walked alone).
        self.from_values = snap.base is dict and all(position & 1 for position in positions)
        self.first = _getter([position >> 1 for position in positions] if self.from_values else positions)
        self.levels = []
        kids = [kid for _, kid in snap.kids]
        while kids:
            dicts = [i for i, kid in enumerate(kids) if _whole(kid, _DICT) and
                     all(position & 1 for position, _ in kid.kids)]
            lists = [i for i, kid in enumerate(kids) if _whole(kid, _LIST)]
            flat = set(dicts) | set(lists)
            others = [i for i in range(len(kids)) if i not in flat]
            from_values, after = [], []
            base = 0
            for i in dicts:
                for position, kid in kids[i].kids:
                    from_values.append(base + (position >> 1))
                    after.append(kid)
                base += kids[i].size
            item_ids, from_items, items_after = [], [], []
            for i in lists:                     # in the order the lists' items are read (see above)
                start, size, ids = len(item_ids), kids[i].size, kids[i].ids
                item_ids.extend(reversed(ids) if LISTS_TRAVERSED_LAST_FIRST else ids)
                for position, kid in kids[i].kids:
                    from_items.append(start + (size - 1 - position if LISTS_TRAVERSED_LAST_FIRST else position))
                    items_after.append(kid)
            self.levels.append((
                _getter(dicts), _getter(lists), _getter(others), [kids[i] for i in others],
                [kids[i].size for i in dicts], [x for i in dicts for x in kids[i].ids[0::2]],
                [x for i in dicts for x in kids[i].ids[1::2]], [kids[i].size for i in lists], item_ids,
                _getter(from_values), _getter(from_items), [None]))    # the held keys (False: none)
            kids = after + items_after


def _whole(snap: Snap, kind: int) -> bool:
    """An exact dict or list (no class facts to check) whose preview showed every item."""
    if snap.tag != "data" or snap.kind != kind or snap.info is not None:
        return False
    return len(snap.ids) == (2 * snap.size if kind == _DICT else snap.size)


def _lists_traversed_last_first() -> bool:
    """Does `gc.get_referents(a, b)` give every item of a, last first, then b's? (CPython's list traversal.)"""
    first, second = [[], [], []], [[], []]
    return list(map(id, _referents(first, second))) == list(map(id, [*reversed(first), *reversed(second)]))


LISTS_TRAVERSED_LAST_FIRST = _lists_traversed_last_first()


def _short_texts(keys: list) -> bool:
    """Are these keys all exact str of at most HELD_TEXT_CAP characters (fit to be held)?"""
    return all(map(is_, map(type, keys), repeat(str))) and all(map(HELD_TEXT_CAP.__ge__, map(len, keys)))


def _getter(positions: list[int]):
    """seq -> tuple of its items at `positions` (itemgetter, which returns a bare item for one)."""
    if not positions:
        return _nothing
    if len(positions) == 1:
        only = positions[0]
        return lambda seq: (seq[only],)
    return itemgetter(*positions)


def _nothing(seq) -> tuple:
    return ()


def _plan(snap: Snap) -> LevelPlan:
    plan = snap.plan
    if plan is None:
        plan = snap.plan = LevelPlan(snap)
    return plan
