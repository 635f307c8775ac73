"""Bounded, JSON-safe previews of Python values, and cheap change fingerprints.

A preview is what the Variables panel shows: a type name, a short repr and, for
the builtin containers, a structured view the page can expand. It must stay
small whatever the value is (a 10 MB string, a list holding itself, an object
whose ``__repr__`` raises or is slow), so builtin containers never go through
``repr``: their short repr is assembled here from the bounded child previews.
Only objects of other types get their own ``repr`` called, and its result is
cut; a type whose ``repr`` once took too long is not asked again in that run.

A container's preview comes with a `Snap`: what it was built from (its length and
the identities of the items in its shown window, recursively). "Did this value change
since the last step?" is answered from the snap without building a preview, and only
within the window the preview shows (items cap, depth cap, node budget): an in-place
change anywhere inside it (``block['content'] = ...`` inside ``candidate``) is seen, one
beyond it is invisible in the preview and need not be. Large nested builtin data is
checked with `marshal` instead (one C call; a change beyond the window then costs a
rebuild that finds the same preview). A changed container's preview is rebuilt reusing
what did not change: nested containers whose snaps still hold, and, for a flat list or
dict (scalars only), every entry but the changed ones.
"""
from __future__ import annotations

import marshal
import re
import time
from itertools import islice
from operator import is_, is_not
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
MARSHAL_BYTES_CAP = 128_000  # marshal bytes kept to share equal previews
MARSHAL_CHECK_BOXES = 1     # a value with more containers than this is checked with marshal...
MARSHAL_CHECK_CAP = 64_000  # ...while its marshal bytes stay this small (else with its snap)

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
SEQUENCES = (list, tuple, set, frozenset)
CONTAINERS = frozenset({list, tuple, set, frozenset, dict})
MUTABLE = frozenset({list, set, dict})
SCALARS = frozenset({int, float, bool, type(None), complex, str, bytes})
NUMBERS = {int: "int", float: "float", bool: "bool", type(None): "NoneType"}
LEAVES = frozenset({str, int, float, bool, type(None), bytes})   # immutable, previewed without repr
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


class Snap:
    """What one container's preview was built from: enough to tell cheaply whether it still holds.

    `keys` are the items in the container's shown window (a dict: its first keys, `vals`
    its first values), held so that `is` compares them; `kids` the snaps of the containers
    (and bytearrays) shown inside it. The preview of builtin data is a function of which
    objects these are (strings and numbers are immutable), so while every one of them is
    the same object the preview is the same too, and an in-place change anywhere inside
    the shown window replaces one of them. A stub (a
    container past the depth cap or the node budget, a cycle) shows only its length; a
    bytearray keeps its shown bytes. `content`: the marshal bytes the value is checked
    against instead (big nested builtin data, see `MARSHAL_CHECK_BOXES`).

    A `pure` snap (builtin data, no cycle, nothing cut by the depth cap or the node budget)
    keeps its `preview` for reuse wherever the container shows up again; a `flat` one (only
    scalars inside) keeps the `pieces` of its short repr, so one changed entry is patched.
    """

    __slots__ = ("obj", "kind", "size", "keys", "vals", "kids", "head", "content", "height", "nodes", "text", "boxes",
                 "complete", "pure", "flat", "pieces", "own", "preview")

    def __init__(self, obj: Any, kind: type, size: int, keys: list | None = None, vals: list | None = None,
                 kids: list | tuple = (), head: bytes | None = None) -> None:
        self.obj, self.kind, self.size = obj, kind, size
        self.keys, self.vals, self.kids, self.head = keys, vals, kids, head
        self.content = None
        self.pure = self.flat = False




def _positions(new: list, old: list) -> list[int]:
    """Indexes (below the shorter length) where two lists hold different objects."""
    flags = list(map(is_not, new, old))
    found: list[int] = []
    at = -1
    for _ in range(flags.count(True)):
        at = flags.index(True, at + 1)
        found.append(at)
    return found


class Previewer:
    """Builds previews for one run; remembers which types have a slow repr."""

    def __init__(self, str_cap: int = STR_CAP, items_cap: int = ITEMS_CAP, depth_cap: int = DEPTH_CAP,
                 nodes_cap: int = NODES_CAP) -> None:
        self.str_cap, self.items_cap, self.depth_cap, self.nodes_cap = str_cap, items_cap, depth_cap, nodes_cap
        self.slow_types: set[type] = set()
        self._top_strings: dict[int, tuple] = {}     # id(str) -> (str, preview) at top level
        self._nested_strings: dict[int, tuple] = {}  # the same inside a container (shorter cap)
        self._subtrees: dict[int, Snap] = {}         # id(container) -> pure Snap of a nested preview
        self._small: dict[Any, dict] = {}            # small int -> preview; (type, value) for bool and None
        self._nodes = 0
        self._text = 0
        self._boxes = 0
        self._deepest = 0
        self._impure = False
        self.complete = True
        self.builtin = True
        self.snap: Snap | None = None

    # -- previews -----------------------------------------------------------------------
    def preview(self, value: Any, base: Snap | None = None) -> dict:
        """The bounded preview of `value` (see docs/trace-format.md, "Value").

        Afterwards `self.complete` tells whether the preview covered all of `value` with
        only builtin data inside and little text (then equal `marshal` bytes mean an equal
        preview), and `self.snap` is the container's Snap (None for other values). `base`:
        the snap of an earlier preview of the same container, to patch if it was flat.
        """
        self._nodes = 1
        self._text = 0
        self._boxes = 0
        self._deepest = 0
        self._impure = False
        self.complete = True
        self.builtin = True
        self.snap = None
        kind = type(value)
        if kind in CONTAINERS:
            preview, snap = self._container(value, kind, 0, set(), base)
            if self._text > MARSHAL_TEXT_CAP:
                self.complete = False
            snap.boxes = self._boxes
            self.snap = snap
            return preview
        return self._node(value, kind, 0, None, [])

    def _node(self, value: Any, kind: type, depth: int, path: set[int] | None, kids: list) -> dict:
        """Preview of one value (already counted in `_nodes`); container and bytearray snaps go to `kids`."""
        if kind is str:
            self._text += len(value)
            if depth:
                cached = self._nested_strings.get(id(value))
                if cached is None or cached[0] is not value:
                    cached = self._nested_str(value)
                return cached[1]
            cached = self._top_strings.get(id(value))
            if cached is not None and cached[0] is value:
                return cached[1]
            preview = self._str(value, self.str_cap)
            if len(self._top_strings) >= STRINGS_CACHED:
                self._top_strings.clear()
            self._top_strings[id(value)] = (value, preview)
            return preview
        if kind in NUMBERS:
            return self.number(kind, value)
        if kind in CONTAINERS:
            preview, snap = self._subtree(value, kind, depth, path)
            kids.append(snap)
            return preview
        if kind is bytes or kind is bytearray:
            self._text += len(value)
            head = value[:REPR_CAP]
            if kind is bytearray:
                kids.append(Snap(value, kind, len(value), None, None, (), bytes(head)))
            return {"t": kind.__name__, "r": cut(repr(head)), "len": len(value)}
        self.complete = self.builtin = False
        self._impure = True
        return self._other(value, kind)

    def _nested_str(self, value: str) -> tuple:
        entry = (value, self._str(value, NESTED_STR_CAP))
        strings = self._nested_strings
        if len(strings) >= STRINGS_CACHED:
            strings.clear()
        strings[id(value)] = entry
        return entry

    def _leaf(self, value: Any, kind: type) -> dict:
        """Preview of a scalar inside a container (its text is counted by the caller)."""
        if kind is str:
            cached = self._nested_strings.get(id(value))
            if cached is None or cached[0] is not value:
                cached = self._nested_str(value)
            return cached[1]
        if kind is int and -256 <= value <= 1024:
            preview = self._small.get(value)
            if preview is not None:
                return preview
        return self._node(value, kind, 1, None, [])

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

    def _subtree(self, value: Any, kind: type, depth: int, path: set[int]) -> tuple[dict, Snap]:
        """A nested container: reuse its earlier preview while everything it showed is the same object."""
        hit = self._subtrees.get(id(value))
        if hit is not None:
            if hit.obj is not value:
                hit = None
            elif (depth + hit.height < self.depth_cap and self._nodes + hit.nodes <= self.nodes_cap
                  and self.unchanged(hit)):
                self._nodes += hit.nodes - 1
                self._text += hit.text
                self._boxes += hit.boxes
                if depth + hit.height > self._deepest:
                    self._deepest = depth + hit.height
                if not hit.complete:
                    self.complete = False
                return hit.preview, hit
        complete, impure, deepest = self.complete, self._impure, self._deepest
        nodes, text, boxes = self._nodes, self._text, self._boxes
        self.complete, self._impure, self._deepest = True, False, depth
        preview, snap = self._container(value, kind, depth, path, hit)
        height = self._deepest - depth
        if deepest > self._deepest:
            self._deepest = deepest
        if not self._impure:
            # no cycle, nothing cut by the depth cap or the node budget, builtin data only:
            # the same preview holds wherever this container shows up again, as long as it fits
            snap.pure = True
            snap.preview = preview
            snap.height = height
            snap.nodes = self._nodes - nodes + 1
            snap.text = self._text - text
            snap.boxes = self._boxes - boxes
            snap.complete = self.complete
            if len(self._subtrees) >= STRINGS_CACHED:
                self._subtrees.clear()
            self._subtrees[id(value)] = snap
        self.complete = complete and self.complete
        self._impure = impure or self._impure
        return preview, snap

    def _container(self, value: Any, kind: type, depth: int, path: set[int],
                   base: Snap | None = None) -> tuple[dict, Snap]:
        size = len(value)
        name = kind.__name__
        key = id(value)
        if key in path:
            self.complete = self.builtin = False
            self._impure = True
            return {"t": name, "r": self._shape(kind, "..."), "len": size, "cycle": True}, Snap(value, kind, size)
        if depth >= self.depth_cap or self._nodes >= self.nodes_cap:
            self.complete = False
            self._impure = True
            return {"t": name, "r": self._shape(kind, "…" if size else ""), "len": size}, Snap(value, kind, size)
        cap, nodes_cap = self.items_cap, self.nodes_cap
        if kind is dict:
            keys, vals = list(islice(value, cap)), list(islice(value.values(), cap))
        else:
            keys, vals = (value[:cap] if kind is list or kind is tuple else list(islice(value, cap))), None
        self._boxes += 1
        if depth > self._deepest:
            self._deepest = depth
        if base is not None and base.flat and base.kind is kind:
            patched = self._patch(value, kind, size, keys, vals, base)
            if patched is not None:
                return patched
        path.add(key)
        shown = 0
        kids: list = []
        flat = True
        node, strings, small = self._node, self._nested_strings, self._small
        depth += 1
        nodes, text = self._nodes, self._text
        start = text
        try:
            if kind is dict:
                entries = []
                for k, v in value.items():
                    if shown >= cap or nodes >= nodes_cap:
                        if shown < cap:
                            self._impure = True
                        break
                    nodes += 1
                    kind_k = type(k)
                    if kind_k is str:
                        text += len(k)
                        cached = strings.get(id(k))
                        if cached is None or cached[0] is not k:
                            cached = self._nested_str(k)
                        kp = cached[1]
                    elif kind_k is int and -256 <= k <= 1024 and k in small:
                        kp = small[k]
                    else:
                        if kind_k not in LEAVES:
                            flat = False
                        self._nodes, self._text = nodes, text
                        kp = node(k, kind_k, depth, path, kids)
                        nodes, text = self._nodes, self._text
                    nodes += 1
                    kind_v = type(v)
                    if kind_v is str:
                        text += len(v)
                        cached = strings.get(id(v))
                        if cached is None or cached[0] is not v:
                            cached = self._nested_str(v)
                        vp = cached[1]
                    elif kind_v is int and -256 <= v <= 1024 and v in small:
                        vp = small[v]
                    else:
                        if kind_v not in LEAVES:
                            flat = False
                        self._nodes, self._text = nodes, text
                        vp = node(v, kind_v, depth, path, kids)
                        nodes, text = self._nodes, self._text
                    entries.append([kp, vp])
                    shown += 1
                self._nodes, self._text = nodes, text
                pieces = [f"{k['r']}: {v['r']}" for k, v in entries]
                result = {"t": name, "r": "", "len": size, "entries": entries}
            else:
                items = []
                for item in self._ordered(value, kind):
                    if shown >= cap or nodes >= nodes_cap:
                        if shown < cap:
                            self._impure = True
                        break
                    nodes += 1
                    kind_i = type(item)
                    if kind_i is str:
                        text += len(item)
                        cached = strings.get(id(item))
                        if cached is None or cached[0] is not item:
                            cached = self._nested_str(item)
                        items.append(cached[1])
                    elif kind_i is int and -256 <= item <= 1024 and item in small:
                        items.append(small[item])
                    else:
                        if kind_i not in LEAVES:
                            flat = False
                        self._nodes, self._text = nodes, text
                        items.append(node(item, kind_i, depth, path, kids))
                        nodes, text = self._nodes, self._text
                    shown += 1
                self._nodes, self._text = nodes, text
                pieces = [item["r"] for item in items]
                result = {"t": name, "r": "", "len": size, "items": items}
        except RuntimeError as error:  # changed size during iteration (another frame's view)
            path.discard(key)
            if nodes > self._nodes:
                self._nodes, self._text = nodes, text
            self.complete = False
            self._impure = True
            return ({"t": name, "r": self._shape(kind, "…"), "len": size, "err": _describe(error)},
                    Snap(value, kind, -1))
        path.discard(key)
        snap = Snap(value, kind, size, keys, vals, kids)
        if flat and kind is not set and kind is not frozenset and shown == len(keys):
            snap.flat = True
            snap.pieces = pieces
            snap.own = self._text - start
            snap.preview = result
        return self._finish(result, kind, size, shown, pieces), snap

    def _finish(self, result: dict, kind: type, size: int, shown: int, pieces: list) -> dict:
        """Set the short repr and `more` of a container preview."""
        inner = ", ".join(pieces)
        if kind is tuple and size == 1:
            inner += ","
        more = size - shown
        if more or self._text > MARSHAL_TEXT_CAP:
            self.complete = False
        if more:
            inner += ", …" if shown else "…"
        result["r"] = self._shape(kind, inner)
        result["more"] = more
        return result

    def _patch(self, value: Any, kind: type, size: int, keys: list, vals: list | None,
               base: Snap) -> tuple[dict, Snap] | None:
        """Rebuild a flat list/tuple/dict preview from `base`, re-previewing only the changed items.

        None when it cannot (an item is no longer a scalar, or the node budget might bind).
        """
        shown = len(keys)
        per = 1 if vals is None else 2
        if self._nodes + shown * per > self.nodes_cap:
            return None
        before = len(base.keys)
        redo = _positions(keys, base.keys)
        if vals is not None:
            moved = _positions(vals, base.vals)
            if moved:
                redo = sorted({*redo, *moved}) if redo else moved
        if shown > before:
            redo.extend(range(before, shown))
        own = base.own
        pieces = base.pieces[:shown]
        text = self._text
        leaf = self._leaf
        if vals is not None:
            entries = base.preview["entries"]
            for gone_k, gone_v in entries[shown:]:
                own -= gone_k.get("len", 0) + gone_v.get("len", 0)
            entries = entries[:shown]
            for i in redo:
                k, v = keys[i], vals[i]
                kind_k, kind_v = type(k), type(v)
                if kind_k not in LEAVES or kind_v not in LEAVES:
                    self._text = text
                    return None
                kp, vp = leaf(k, kind_k), leaf(v, kind_v)
                own += kp.get("len", 0) + vp.get("len", 0)
                piece = f"{kp['r']}: {vp['r']}"
                if i < before:
                    gone_k, gone_v = entries[i]
                    own -= gone_k.get("len", 0) + gone_v.get("len", 0)
                    entries[i], pieces[i] = [kp, vp], piece
                else:
                    entries.append([kp, vp])
                    pieces.append(piece)
            result = {"t": kind.__name__, "r": "", "len": size, "entries": entries}
        else:
            items = base.preview["items"]
            for gone in items[shown:]:
                own -= gone.get("len", 0)
            items = items[:shown]
            for i in redo:
                item = keys[i]
                kind_i = type(item)
                if kind_i not in LEAVES:
                    self._text = text
                    return None
                preview = leaf(item, kind_i)
                own += preview.get("len", 0)
                if i < before:
                    own -= items[i].get("len", 0)
                    items[i], pieces[i] = preview, preview["r"]
                else:
                    items.append(preview)
                    pieces.append(preview["r"])
            result = {"t": kind.__name__, "r": "", "len": size, "items": items}
        self._nodes += shown * per
        self._text = text + own
        snap = Snap(value, kind, size, keys, vals, ())
        snap.flat = True
        snap.pieces = pieces
        snap.own = own
        snap.preview = result
        return self._finish(result, kind, size, shown, pieces), snap

    def unchanged(self, snap: Snap) -> bool:
        """Does the container still hold what its preview was built from (see `Snap`)?"""
        value = snap.obj
        if len(value) != snap.size:
            return False
        content = snap.content
        if content is not None:
            try:
                return marshal.dumps(value, MARSHAL_VERSION) == content
            except (ValueError, TypeError):
                return False
        keys = snap.keys
        if keys is None:
            head = snap.head
            return head is None or value[:REPR_CAP] == head
        # equal lengths, so `map` walks exactly the window; `is_` calls no user code
        vals = snap.vals
        if vals is not None and not all(map(is_, value.values(), vals)):
            return False
        if not all(map(is_, value, keys)):
            return False
        unchanged = self.unchanged
        for kid in snap.kids:
            if not unchanged(kid):
                return False
        return True

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

    A container bound to a name is previewed again only when it changed: its change key
    is the `Snap` of its last preview, and `same(snap)` compares the identities of what
    that preview showed (down to the depth cap, within the items cap and node budget), so
    an in-place change anywhere in the shown window is seen and one beyond it (invisible
    in the preview) is not. An unchanged object seen before (the same `messages` passed
    down three calls) reuses its preview; nested containers reuse theirs while unchanged.
    Equal builtin data shown whole shares one preview (keyed by its `marshal` bytes).

    Indexes are local to the list in `items` (one per event-table chunk, so previews
    are dropped with their chunk); `use` switches to the next chunk's list.
    """

    CACHE_CAP = 20_000

    def __init__(self, previewer: Previewer | None = None) -> None:
        self.previewer = previewer or Previewer()
        self.items: list[dict] = []
        self._index: dict[int, int] = {}        # id(preview) -> index in `items`
        self._cache: dict[int, tuple] = {}      # id(object) -> (object, Snap | None, preview)
        self._by_content: dict[tuple, dict] = {}  # (type, marshal bytes) -> preview
        self._texts: dict[str, dict] = {}       # short str -> preview
        self.same = self.previewer.unchanged

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

    def key(self, value: Any, like: Any = None) -> Any:
        """The change key of container `value` as it is now (a fresh Snap; compare with `same`)."""
        return self.preview(value)[1]

    def preview(self, value: Any) -> tuple[dict, Any]:
        """(preview, change key) of `value`, reusing the preview of an unchanged container."""
        kind = type(value)
        if kind not in CONTAINERS:
            if kind in NUMBERS:
                return self.number(kind, value), None
            if kind is str:
                if len(value) <= STR_CAP:   # short text: equal text, one preview (new objects every step)
                    preview = self._texts.get(value)
                    if preview is None:
                        if len(self._texts) >= self.CACHE_CAP:
                            self._texts.clear()
                        preview = self._texts[value] = self.previewer.preview(value)
                    return preview, None
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
            if self.same(cached[1]):
                return cached[2], cached[1]
            return self._build(value, cached)
        return self._build(value, None)

    def refresh(self, value: Any, snap: Snap) -> tuple[dict, Any]:
        """(preview, key) of container `value` whose earlier key `snap` no longer holds."""
        cached = self._cache.get(id(value))
        if cached is not None and cached[0] is value:
            if cached[1] is not snap and self.same(cached[1]):
                return cached[2], cached[1]   # another name saw the change first
            return self._build(value, cached)
        return self._build(value, None)

    def _build(self, value: Any, cached: tuple | None) -> tuple[dict, Any]:
        previewer = self.previewer
        preview = previewer.preview(value, cached[1] if cached is not None else None)
        snap = previewer.snap
        content = None
        if previewer.builtin and (previewer.complete or snap.boxes > MARSHAL_CHECK_BOXES) \
                and len(value) <= MARSHAL_ITEMS_CAP and previewer._text <= MARSHAL_TEXT_CAP:
            try:
                content = marshal.dumps(value, MARSHAL_VERSION)
            except (ValueError, TypeError):
                content = None
        if content is not None:
            if snap.boxes > MARSHAL_CHECK_BOXES and len(content) <= MARSHAL_CHECK_CAP:
                snap.content = content   # one C call checks nested data faster than a walk
            if previewer.complete and len(content) <= MARSHAL_BYTES_CAP:
                # equal builtin data, equal preview: share one entry
                preview = self._by_content.setdefault((type(value), content), preview)
        if cached is not None and not previewer.complete and preview is not cached[2] and preview == cached[2]:
            preview = cached[2]   # changed only where the preview does not show
        if len(self._cache) >= self.CACHE_CAP:
            self._cache.clear()
            self._by_content.clear()
        self._cache[id(value)] = (value, snap, preview)
        return preview, snap
