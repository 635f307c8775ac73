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
    id,
    len,
    list,
    map,
    next,
    slice,
    str,
    tuple,
    type,
)
from itertools import chain, islice
from operator import is_

from .previews import (
    FIELDS_READ,
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
_dict_len, _dict_values, _dict_items, _dict_iter = dict.__len__, dict.values, dict.items, dict.__iter__
_list_len, _list_slice = list.__len__, list.__getitem__
_LIST = id(list)
_tuple_slice = tuple.__getitem__
_chain = chain.from_iterable
_DICT, _LIST = id(dict), id(list)


class SnapCheck:
    """The change check over one previewer's type facts."""

    def __init__(self, previewer: Previewer) -> None:
        self.previewer = previewer
        # address -> object number (`identity`): a node whose object has another number now is stale
        self.bound: dict = {} if previewer.numbers is None else previewer.numbers.bound

    def holds(self, value: object, snap: Snap) -> bool:
        """Would `value` preview exactly as when `snap` was taken?"""
        tag = snap.tag
        if tag == "scalar":
            return snap.held[0] is value
        held = snap.held
        if tag == "data" and snap.kind == _LIST and type(value) is list and len(held) == len(snap.ids):
            # A long loop's commonest check (an exact list of exact scalars, all of them held): read inline
            return _list_len(value) == snap.size and all(map(is_, _list_slice(value, slice(0, len(held))), held)) \
                and (not snap.number or self.bound.get(id(value)) == snap.number)
        self.previewer.start_walk()
        try:
            return self._holds(value, snap, 0)
        except (RecursionError, MemoryError):
            raise
        except Exception:  # noqa: BLE001 - a value changed under the walk: build it again
            return False

    def _holds(self, value: object, snap: Snap, depth: int) -> bool:
        if id(type(value)) != snap.kind or snap.info is not None and self.previewer.info(type(value)) is not snap.info:
            return False
        if snap.number and self.bound.get(id(value)) != snap.number:
            return False                        # another object now, or one whose number was let go
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
                if len(snap.held) == len(ids):   # all exact scalars: as below
                    return len(flat) == len(ids) and all(map(is_, flat, snap.held))
                if list(map(id, flat)) != ids:
                    return False
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
            info = snap.info or previewer.info(type(value))
            ids = snap.ids
            stored = previewer.instance_dict(value, info)
            # The common case read in C: the same keys (the very str objects the preview showed) in the
            # order shown. Else (an order a dataclass's fields set, a key of the program's, a long dict)
            # the fields as the preview reads them.
            names = snap.names
            if stored is not None and _dict_len(stored) == snap.size == len(names) <= FIELDS_READ \
                    and all(map(is_, _dict_iter(stored), names)):
                window = list(islice(_dict_values(stored), len(ids)))
            else:
                pairs = previewer.pairs(value, info)
                if len(pairs) != snap.size or [label for label, _ in pairs] != names:
                    return False
                window = [item for _, item in pairs[:len(ids)]]
        elif tag == "text":           # the length too: the text kept is only the head the preview shows
            return (snap.size < 0 or self._length_of(value, type(value)) == snap.size) \
                and self._text_of(value, type(value), depth) == snap.text
        elif tag == "stub":
            return self._size_of(value, type(value)) == snap.size
        else:                                   # a cycle: the same id, so the same ancestor
            return True
        held = snap.held
        if len(held) == len(ids):   # every item shown an exact scalar, kept alive by the snap: the very
            # objects, compared by identity in C (~3× less than making their ids; `previews._children`
            # holds them in the window's order)
            return len(window) == len(held) and all(map(is_, window, held))
        if list(map(id, window)) != ids:
            return False
        for position, kid in snap.kids:
            if not self._holds(window[position], kid, depth + 1):
                return False
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
