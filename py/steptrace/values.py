"""Bounded, JSON-safe previews of Python values, and cheap change fingerprints.

A preview is what the Variables panel shows: a type name, a short repr and, for
the builtin containers, a structured view the page can expand. It must stay
small whatever the value is (a 10 MB string, a list holding itself, an object
whose ``__repr__`` raises or is slow), so builtin containers never go through
``repr``: their short repr is assembled here from the bounded child previews.
Only objects of other types get their own ``repr`` called, and its result is
cut; a type whose ``repr`` once took too long is not asked again in that run.

The fingerprint answers "did this value change since the last step?" without
building a preview: for a container it is the lengths and identities of what
the preview would show, so an in-place change anywhere inside the shown window
(``block['content'] = ...`` inside ``candidate``) changes it.
"""
from __future__ import annotations

import marshal
import re
import time
from itertools import islice
from typing import Any

REPR_CAP = 120          # characters of a short repr
STR_CAP = 200           # characters of a string's text kept in "v"
NESTED_STR_CAP = 60     # the same, for a string inside a container
ITEMS_CAP = 16          # items shown per container
DEPTH_CAP = 5           # containers nested deeper than this show only "r" and "len"
NODES_CAP = 400         # nodes per top-level preview
SLOW_REPR = 0.02        # seconds; a type whose repr took longer is not asked again
MARSHAL_VERSION = 0     # no back-references and no interning flags: bytes depend on content only
MARSHAL_TEXT_CAP = 20_000  # characters of text seen in a value still fingerprinted with marshal
MARSHAL_ITEMS_CAP = 10_000  # items of a container still fingerprinted with marshal
MARSHAL_BYTES_CAP = 128_000  # marshal bytes kept as a fingerprint

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
SEQUENCES = (list, tuple, set, frozenset)
CONTAINERS = frozenset({list, tuple, set, frozenset, dict})
MUTABLE = frozenset({list, set, dict})
SCALARS = frozenset({int, float, bool, type(None), complex, str, bytes})
NUMBERS = {int: "int", float: "float", bool: "bool", type(None): "NoneType"}
BIG_INT = 10 ** 60
STRINGS_CACHED = 50_000
_OPEN_CLOSE = {list: ("[", "]"), tuple: ("(", ")"), set: ("{", "}"), frozenset: ("frozenset({", "})"),
               dict: ("{", "}")}


def cut(text: str, cap: int = REPR_CAP) -> str:
    """`text` shortened to `cap` characters, marking the cut with an ellipsis."""
    return text if len(text) <= cap else text[:cap - 1] + "…"


def _describe(error: BaseException) -> str:
    try:
        message = str(error)
    except Exception:  # noqa: BLE001 - a broken __str__ must not break the recorder
        message = "<unprintable>"
    return cut(f"{type(error).__name__}: {message}", 200)


class Previewer:
    """Builds previews for one run; remembers which types have a slow repr."""

    def __init__(self, str_cap: int = STR_CAP, items_cap: int = ITEMS_CAP, depth_cap: int = DEPTH_CAP,
                 nodes_cap: int = NODES_CAP) -> None:
        self.str_cap, self.items_cap, self.depth_cap, self.nodes_cap = str_cap, items_cap, depth_cap, nodes_cap
        self.slow_types: set[type] = set()
        self._strings: dict[int, tuple] = {}   # id(str) -> (str, top?, preview): keys repeat a lot
        self._subtrees: dict[int, tuple] = {}  # id -> (obj, depth, marshal bytes, preview, nodes, text)
        self._small: dict[Any, dict] = {}      # small int -> preview; (type, value) for bool and None
        self._nodes = 0

    # -- previews -----------------------------------------------------------------------
    def preview(self, value: Any) -> dict:
        """The bounded preview of `value` (see docs/trace-format.md, "Value").

        Afterwards `self.complete` tells whether the preview covered all of `value`
        with only builtin data inside and little text (then `marshal` can fingerprint it).
        """
        self._nodes = 0
        self._text = 0
        self.complete = True
        self.builtin = True
        return self._value(value, 0, set())

    def _value(self, value: Any, depth: int, path: set[int]) -> dict:
        self._nodes += 1
        kind = type(value)
        if kind is str:
            self._text += len(value)
            cached = self._strings.get(id(value))
            if cached is not None and cached[0] is value and cached[1] == (depth == 0):
                return cached[2]
            preview = self._str(value, self.str_cap if depth == 0 else NESTED_STR_CAP)
            if len(self._strings) >= STRINGS_CACHED:
                self._strings.clear()
            self._strings[id(value)] = (value, depth == 0, preview)
            return preview
        if kind in NUMBERS:
            return self.number(kind, value)
        if kind in CONTAINERS:
            if not depth:
                return self._container(value, kind, depth, path)
            return self._subtree(value, kind, depth, path)
        if kind is bytes or kind is bytearray:
            self._text += len(value)
            return {"t": kind.__name__, "r": cut(repr(value[:REPR_CAP])), "len": len(value)}
        self.complete = self.builtin = False
        return self._other(value, kind)

    def _str(self, value: str, cap: int) -> dict:
        size = len(value)
        head = value if size <= cap else value[:cap]
        return {"t": "str", "r": cut(repr(head[:REPR_CAP])), "v": head, "len": size}

    def number(self, kind: type, value: Any) -> dict:
        """Preview of an int, float, bool or None; small ones are one shared dict."""
        if kind is float:
            return {"t": "float", "r": repr(value)}
        if kind is not int or -256 <= value <= 1024:
            key = value if kind is int else (kind, value)
            preview = self._small.get(key)
            if preview is None:
                preview = self._small[key] = {"t": NUMBERS[kind], "r": repr(value)}
            return preview
        if not -BIG_INT < value < BIG_INT:
            return {"t": "int", "r": f"<int with {value.bit_length()} bits>"}
        return {"t": "int", "r": repr(value)}

    def _subtree(self, value: Any, kind: type, depth: int, path: set[int]) -> dict:
        """A nested container: reuse its earlier preview while its content (marshal bytes) is the same."""
        key = id(value)
        hit = self._subtrees.get(key)
        if hit is not None and hit[0] is value and hit[1] == depth:
            try:
                same = marshal.dumps(value, MARSHAL_VERSION) == hit[2]
            except (ValueError, TypeError):
                same = False
            if same and self._nodes + hit[4] <= self.nodes_cap:
                self._nodes += hit[4] - 1
                self._text += hit[5]
                return hit[3]
        complete, nodes, text = self.complete, self._nodes, self._text
        self.complete = True
        preview = self._container(value, kind, depth, path)
        if self.complete and self._text - text <= MARSHAL_TEXT_CAP:
            try:
                content = marshal.dumps(value, MARSHAL_VERSION)
            except (ValueError, TypeError):
                content = None
            if content is not None:
                if len(self._subtrees) >= STRINGS_CACHED:
                    self._subtrees.clear()
                self._subtrees[key] = (value, depth, content, preview, self._nodes - nodes + 1, self._text - text)
        self.complete = complete and self.complete
        return preview

    def _container(self, value: Any, kind: type, depth: int, path: set[int]) -> dict:
        size = len(value)
        name = kind.__name__ if kind in _OPEN_CLOSE else type(value).__name__
        key = id(value)
        if key in path:
            self.complete = self.builtin = False
            return {"t": name, "r": self._shape(kind, "..."), "len": size, "cycle": True}
        if depth >= self.depth_cap or self._nodes >= self.nodes_cap:
            self.complete = False
            return {"t": name, "r": self._shape(kind, "…" if size else ""), "len": size}
        path.add(key)
        shown = 0
        cap, nodes_cap, child = self.items_cap, self.nodes_cap, self._value
        depth += 1
        try:
            if kind is dict:
                entries = []
                for k, v in value.items():
                    if shown >= cap or self._nodes >= nodes_cap:
                        break
                    entries.append([child(k, depth, path), child(v, depth, path)])
                    shown += 1
                inner = ", ".join([f"{k['r']}: {v['r']}" for k, v in entries])
                result = {"t": name, "r": "", "len": size, "entries": entries}
            else:
                items = []
                for item in self._ordered(value, kind):
                    if shown >= cap or self._nodes >= nodes_cap:
                        break
                    items.append(child(item, depth, path))
                    shown += 1
                inner = ", ".join([item["r"] for item in items])
                if kind is tuple and size == 1:
                    inner += ","
                result = {"t": name, "r": "", "len": size, "items": items}
        except RuntimeError as error:  # changed size during iteration (another frame's view)
            path.discard(key)
            return {"t": name, "r": self._shape(kind, "…"), "len": size, "err": _describe(error)}
        path.discard(key)
        more = size - shown
        if more or self._text > MARSHAL_TEXT_CAP:
            self.complete = False
        if more:
            inner += ", …" if shown else "…"
        result["r"] = self._shape(kind, inner)
        result["more"] = more
        return result

    def _ordered(self, value: Any, kind: type):
        """Items in a stable order: sets are sorted when small and sortable (hash order varies)."""
        if (kind is set or kind is frozenset) and len(value) <= self.items_cap:
            try:
                return sorted(value)
            except Exception:  # noqa: BLE001 - unorderable items: keep iteration order
                return value
        if kind is list or kind is tuple:
            return value[:self.items_cap]
        return value

    @staticmethod
    def _shape(kind: type, inner: str) -> str:
        if kind is set and not inner:
            return "set()"
        if kind is frozenset and not inner:
            return "frozenset()"
        opening, closing = _OPEN_CLOSE[kind]
        text = opening + inner + closing
        return text if len(text) <= REPR_CAP else text[:REPR_CAP - 1 - len(closing)] + "…" + closing

    def _other(self, value: Any, kind: type) -> dict:
        result = {"t": kind.__name__}
        if kind in self.slow_types:
            result["r"] = f"<{kind.__name__} object>"
            result["err"] = "repr skipped: it was slow earlier in this run"
            return result
        started = time.perf_counter()
        try:
            text = repr(value)
            if type(text) is not str:
                raise TypeError("__repr__ returned non-string")
            if " at 0x" in text[:REPR_CAP * 2]:   # addresses differ run to run and mean nothing here
                text = _ADDRESS.sub("", text[:REPR_CAP * 2]) + text[REPR_CAP * 2:]
            result["r"] = cut(text)
            if len(text) > REPR_CAP:
                result["err"] = f"repr cut: {len(text)} characters"
        except (KeyboardInterrupt, MemoryError):
            raise
        except BaseException as error:  # noqa: BLE001 - user __repr__ may raise anything
            result["r"] = f"<{kind.__name__} object>"
            result["err"] = _describe(error)
        if time.perf_counter() - started > SLOW_REPR:
            self.slow_types.add(kind)
        return result

    # -- fingerprints ---------------------------------------------------------------------
    def fingerprint(self, value: Any) -> Any:
        """A cheap value equal between two calls iff the shown window of `value` is unchanged.

        Covers the same window as the preview (items cap, depth cap, node budget): the
        lengths of containers and the identities of their shown items and keys, so any
        in-place change the preview could show changes it. Scalars are their identity.
        """
        if type(value) not in CONTAINERS:
            return id(value)
        cap, depth_cap = self.items_cap, self.depth_cap
        budget = self.nodes_cap
        parts: list = []
        stack = [(value, 0)]
        while stack:
            node, depth = stack.pop()
            kind = type(node)
            if kind is list or kind is tuple:
                items = node[:cap]
            elif kind is dict:
                items = list(islice(node.values(), cap))
                parts.extend(map(id, islice(node, cap)))
            elif len(node) <= cap:
                items = sorted(node, key=id)
            else:
                parts.append(len(node))
                parts.append(id(node))
                continue
            parts.append(len(node))
            parts.extend(map(id, items))
            budget -= len(items) + 1
            if depth + 1 < depth_cap and budget > 0:
                for item in items:
                    if type(item) in CONTAINERS:
                        stack.append((item, depth + 1))
        return parts


class ValuePool:
    """The document's `values` table: each distinct preview once, referred to by index.

    A container bound to a name is previewed again only when it changed; an unchanged
    object seen before (the same `messages` passed down three calls) reuses its preview.
    Change keys: for builtin data of bounded size, the `marshal` bytes of the value (C
    speed, exact types, every nested change shows); otherwise the bounded
    `Previewer.fingerprint`, which sees changes inside the shown window only.

    Indexes are local to the list in `items` (one per event-table chunk, so previews
    are dropped with their chunk); `use` switches to the next chunk's list.
    """

    CACHE_CAP = 20_000

    def __init__(self, previewer: Previewer | None = None) -> None:
        self.previewer = previewer or Previewer()
        self.items: list[dict] = []
        self._index: dict[int, int] = {}        # id(preview) -> index in `items`
        self._cache: dict[int, tuple] = {}      # id(object) -> (object, key, preview)
        self._by_content: dict[tuple, dict] = {}  # (type, marshal bytes) -> preview

    def use(self, items: list[dict]) -> None:
        self.items, self._index = items, {}

    def number(self, kind: type, value: Any) -> dict:
        """Preview of an int, float, bool or None (see `Previewer.number`)."""
        return self.previewer.number(kind, value)

    def intern(self, preview: dict) -> int:
        """Index of `preview` in the current list, adding it once."""
        ref = self._index.get(id(preview))
        if ref is None:
            ref = self._index[id(preview)] = len(self.items)
            self.items.append(preview)
        return ref

    def key(self, value: Any, like: Any) -> Any:
        """The change key of container `value`, of the same kind as the earlier key `like`."""
        if type(like) is bytes:
            try:
                return marshal.dumps(value, MARSHAL_VERSION)
            except (ValueError, TypeError):
                return None
        return self.previewer.fingerprint(value)

    def preview(self, value: Any) -> tuple[dict, Any]:
        """(preview, change key) of `value`, reusing the preview of an unchanged container."""
        kind = type(value)
        if kind not in CONTAINERS:
            if kind in NUMBERS:
                return self.number(kind, value), None
            if kind is str:
                cached = self._cache.get(id(value))
                if cached is not None and cached[0] is value:
                    return cached[2], None
                preview = self.previewer.preview(value)
                if len(self._cache) >= self.CACHE_CAP:
                    self._cache.clear()
                    self._by_content.clear()
                self._cache[id(value)] = (value, None, preview)
                return preview, None
            return self.previewer.preview(value), None
        cached = self._cache.get(id(value))
        if cached is not None and cached[0] is value:
            key = self.key(value, cached[1])
            if key == cached[1]:
                return cached[2], key
        previewer = self.previewer
        preview = previewer.preview(value)
        key = None
        if previewer.builtin and len(value) <= MARSHAL_ITEMS_CAP and previewer._text <= MARSHAL_TEXT_CAP:
            try:
                key = marshal.dumps(value, MARSHAL_VERSION)
            except (ValueError, TypeError):
                key = None
            if key is not None and len(key) > MARSHAL_BYTES_CAP:
                key = None
        if key is None:
            key = previewer.fingerprint(value)
        elif previewer.complete:   # equal builtin data, equal preview: share one entry
            preview = self._by_content.setdefault((type(value), key), preview)
        if len(self._cache) >= self.CACHE_CAP:
            self._cache.clear()
            self._by_content.clear()
        self._cache[id(value)] = (value, key, preview)
        return preview, key
