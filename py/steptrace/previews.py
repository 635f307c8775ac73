"""Bounded, JSON-safe previews of Python values, built without running the program's code.

A preview is what the Variables panel shows (docs/trace-format.md, "Value"): a type
name, a short repr and, for data and objects, a structured view the page can expand.
Two promises shape this module:

* **Bounded for any object graph.** A walk visits at most `NODES_CAP` nodes (every
  occurrence counts, so a DAG whose shared paths multiply is cut like a wide tree), at
  most `ITEMS_CAP` items per node and `DEPTH_CAP` levels; a container already on the
  current path is a cycle marker. Long text is sliced before anything touches it.
* **No user code runs.** Contents are read through the builtin base type's own C
  methods (`list.__getitem__`, `dict.values`, member and `__dict__` descriptors) and
  type facts through `type`'s own descriptors, never through the object's `__repr__`,
  `__len__`, `__iter__`, `__eq__`, `__hash__` or `__getattr__`, nor its metaclass's.
  Types are compared by identity, so no metaclass `__eq__`/`__hash__` runs either. The
  only reprs called are those of an allowlist of stdlib value types (exact types only).

Each preview comes with a `Snap`: what the walk looked at, without holding any object
the program might drop (ids and lengths of containers and objects, the immutable
scalars themselves, which pins their ids). While a walk finds the same, the preview is
the same, so "did this value change?" builds no dicts, and an id reused by a new object
is harmless: the walk goes on into its contents.
"""
from __future__ import annotations

import gc
import sys
import types
import weakref

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    AttributeError,
    BaseException,
    Exception,
    IndexError,
    NotImplemented,
    TypeError,
    ValueError,
    all,
    any,
    bool,
    bytearray,
    bytes,
    complex,
    dict,
    enumerate,
    float,
    frozenset,
    id,
    int,
    len,
    list,
    map,
    next,
    property,
    range,
    repr,
    set,
    slice,
    sorted,
    str,
    tuple,
    type,
    zip,
)
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple
from collections.abc import Callable
from itertools import islice, repeat
from operator import is_, itemgetter

from .identity import ObjectNumbers

REPR_CAP = 120          # characters of a short repr
STR_CAP = 200           # characters of a string's text kept in "v"
NESTED_STR_CAP = 60     # the same, for a string inside a container or object
ITEMS_CAP = 16          # items (entries, fields) shown per node
DEPTH_CAP = 5           # nodes nested deeper than this show only "r" (and "len")
NODES_CAP = 400         # nodes per top-level preview, every occurrence counted
LEAVES_CAP = 4096       # short strings whose nested preview is kept (`Previewer._children`)
HELD_TEXT_CAP = 1000    # longer str/bytes are identified by (id, length, hash), not held
HELD_ITEM = 64          # what holding any scalar weighs besides its text (`held_weight`), roughly in bytes
BIG_INT = 10 ** 60

_type_dict = type.__dict__["__dict__"].__get__        # class -> its mappingproxy (no metaclass hooks)
_type_mro = type.__dict__["__mro__"].__get__
_type_name = type.__dict__["__name__"].__get__
_type_qualname = type.__dict__["__qualname__"].__get__
_type_module = type.__dict__["__module__"].__get__
_type_flags = type.__dict__["__flags__"].__get__
_HEAP_TYPE = 1 << 9                                     # Py_TPFLAGS_HEAPTYPE: a class made by the program
_IMMUTABLE_TYPE = 1 << 8                                # Py_TPFLAGS_IMMUTABLETYPE: written in C, not patchable
_str_len, _str_slice = str.__len__, str.__getitem__
_bytes_len = bytes.__len__
_int_repr, _float_repr, _complex_repr = int.__repr__, float.__repr__, complex.__repr__
_dict_len, _dict_iter, _dict_values = dict.__len__, dict.__iter__, dict.values
_list_len, _list_slice = list.__len__, list.__getitem__
_new_object = object.__new__
_tuple_len, _tuple_slice, _tuple_iter = tuple.__len__, tuple.__getitem__, tuple.__iter__
_set_len, _set_iter = set.__len__, set.__iter__
_frozenset_len, _frozenset_iter = frozenset.__len__, frozenset.__iter__
_deque_len, _deque_iter = deque.__len__, deque.__iter__
_odict_iter = OrderedDict.__iter__
_exc_args = BaseException.__dict__["args"].__get__
_function_qualname = types.FunctionType.__dict__["__qualname__"].__get__
_GetSet, _Member = types.GetSetDescriptorType, types.MemberDescriptorType
_int_format = int.__format__
_memoryview_nbytes = memoryview.__dict__["nbytes"].__get__
_memoryview_format = memoryview.__dict__["format"].__get__

_text = itemgetter("r")
_first = itemgetter(0)                                   # a preview's short text
EXACT_SCALARS = frozenset(map(id, (int, float, complex, bool, type(None), str, bytes)))
_NUMBER_NAMES = {id(int): "int", id(float): "float", id(bool): "bool", id(type(None)): "NoneType"}
_SHAPES = {"list": ("[", "]"), "tuple": ("(", ")"), "set": ("{", "}"), "frozenset": ("frozenset({", "})"),
           "dict": ("{", "}"), "deque": ("deque([", "])")}
# Stdlib value types whose own repr runs no user code (exact types only, found in their module).
_REPR_ALLOWED = {
    "builtins": ("range", "slice", "ellipsis"),
    "datetime": ("date", "datetime", "time", "timedelta", "timezone"),
    "decimal": ("Decimal",), "fractions": ("Fraction",), "uuid": ("UUID",),
    "pathlib": ("PurePath", "PurePosixPath", "PureWindowsPath", "Path", "PosixPath", "WindowsPath"),
    "pathlib._local": ("PurePath", "PurePosixPath", "PureWindowsPath", "Path", "PosixPath", "WindowsPath"),  # 3.13
    "re": ("Pattern", "Match"), "ipaddress": ("IPv4Address", "IPv6Address"),
}


def yielded(value: object) -> object:
    """What an async generator yielded: CPython hands its tracers the value in a wrapper of its own
    (a static type with no attribute for it, `async_generator_wrapped_value`), which holds the value
    as its only reference (read in C, with no code of the program's). Any other value as it is."""
    cls = type(value)
    # Not a heap type: CPython's own, not a class of the program's that took the name.
    if _type_name(cls) == "async_generator_wrapped_value" and not _type_flags(cls) & _HEAP_TYPE:
        inside = gc.get_referents(value)
        if len(inside) == 1:
            return inside[0]
    return value


def cut(text: str, cap: int = REPR_CAP) -> str:
    """`text` shortened to `cap` characters, marking the cut with an ellipsis."""
    return text if _str_len(text) <= cap else _str_slice(text, slice(0, cap - 1)) + "…"


def _same_facts(a: TypeInfo | None, b: TypeInfo | None) -> bool:
    """Do two snaps' type facts (possibly from two previewers) describe one class, unchanged?"""
    if a is None or b is None:
        return a is b
    return a.ref() is b.ref() and a.name == b.name and a.size == b.size


def _weak(cls: type):
    """A weak reference to a class (a strong one only for a static type, which never dies)."""
    try:
        return weakref.ref(cls)
    except TypeError:
        return lambda cls=cls: cls


class TypeInfo:
    """What the previewer needs to know about one type, found once from its MRO and class dicts.

    It holds no strong reference to a class: the descriptors that read an instance's `__dict__` and
    slots would keep theirs alive (a program's weak reference to a class must die as untraced), so
    only the classes that own them are kept, weakly, and the descriptors fetched when used."""

    __slots__ = ("ref", "name", "size", "heap", "kind", "base", "fields", "dict_owner", "slots", "field_order",
                 "field_ids", "breaks_calm", "finalized")

    def __init__(self, cls: type) -> None:
        self.ref = _weak(cls)
        self.name = _type_name(cls)
        mro = _type_mro(cls)
        ids = set(map(id, mro))
        dicts = [_type_dict(klass) for klass in mro]
        own = dicts[0]
        self.size = len(own)                # with the name, tells a class changed since (`info`)
        self.heap = bool(_type_flags(cls) & _HEAP_TYPE)     # only a class of the program's can change
        self.fields: tuple = ()
        self.dict_owner = None              # weakly: the class whose `__dict__` descriptor reads it
        self.slots: list[tuple[str, object]] = []    # (name, the owning class, weakly)
        for klass, mapping in zip(mro, dicts, strict=True):
            descr = named(mapping, "__dict__")
            if self.dict_owner is None and type(descr) is _GetSet:
                self.dict_owner = _weak(klass)
            for name, member in mapping.items():
                if type(member) is _Member and type(name) is str and not name.startswith("__"):
                    self.slots.append((name, _weak(klass)))
        self.base = next((base for base in _BASES if id(base) in ids), None)
        module = _type_module(cls)
        enum = named(_loaded("enum"), "Enum")
        if id(type) in ids:
            self.kind = "class"
        elif id(BaseException) in ids:
            self.kind = "exception"
        elif enum is not None and id(enum) in ids:
            self.kind = "enum"
        elif self.base is tuple and type(named(own, "_fields")) is tuple:
            self.kind, self.fields = "namedtuple", tuple(f for f in named(own, "_fields") if type(f) is str)
        elif self.base is not None:
            self.kind = "data"
        elif _dataclass_fields(dicts) is not None:
            self.kind, self.fields = "dataclass", _dataclass_fields(dicts)
        elif id(cls) in _DESCRIBED:
            self.kind = _DESCRIBED[id(cls)]
        elif type(module) is str and self.name in _REPR_ALLOWED.get(module, ()) \
                and named(_loaded(module), self.name) is cls:
            self.kind = "repr"
        else:
            self.kind = "object"
        self.field_order = {name: i for i, name in enumerate(self.fields)}
        self.field_ids = list(map(id, self.fields))
        self.breaks_calm = _breaks_calm(cls, mro, dicts, ids)
        # A finalizer of the program's: on 3.11 and 3.12 it can run inside the recorder's read of `f_locals`.
        self.finalized = any(_type_flags(klass) & _HEAP_TYPE and named(mapping, "__del__") is not None
                             for klass, mapping in zip(mro, dicts, strict=True))


def _breaks_calm(cls: type, mro: tuple, dicts: list, ids: set) -> int:
    """What meeting this type does to calm steps (`bytecode_effects`): 1, reading it may write (a
    defaultdict's `d[k]`, a step of an iterator written in C that is not one of the interpreter's plain
    ones: it may call anything), so lines that read are not calm; 2, no line is: a class of the
    program's with a dunder or descriptor that is C code (`__eq__ = staticmethod(log.append)`: unseen,
    where a Python one is seen), or a frame (before 3.13 reading its `f_locals` refreshes a dict)."""
    if cls is types.FrameType and not _LIVE_LOCALS or any(id(klass) in _WEAK_TYPES for klass in mro):
        return 2        # (a weak reference's callback may be C code, which runs unseen as its object dies)
    for klass, mapping in zip(mro, dicts, strict=True):
        if _type_flags(klass) & _HEAP_TYPE and not all(map(_seen_member, mapping.items())):
            return 2
    if id(defaultdict) in ids:
        return 1
    for klass, mapping in zip(mro, dicts, strict=True):
        if not _type_flags(klass) & _HEAP_TYPE and named(mapping, "__next__") is not None \
                and id(klass) not in _PLAIN_ITERATORS:
            return 1
    return 0


_FUNCTION = types.FunctionType
_WEAK_TYPES = frozenset(map(id, (weakref.ref, weakref.ProxyType, weakref.CallableProxyType, weakref.finalize,
                                 weakref.WeakValueDictionary, weakref.WeakKeyDictionary, weakref.WeakSet)))
_wrapped = {id(staticmethod): staticmethod.__dict__["__func__"].__get__,
            id(classmethod): classmethod.__dict__["__func__"].__get__}
_property_parts = tuple(property.__dict__[part].__get__ for part in ("fget", "fset", "fdel"))
_LIVE_LOCALS = sys.version_info >= (3, 13)
_TUPLE_GETTER = type(namedtuple("_Pair", "first").__dict__["first"])    # a namedtuple field's reader


def _seen_member(item: tuple) -> bool:
    """Does a class attribute run only Python code (which the recorder sees) when the interpreter uses
    it: a function, a static or class method of one, a property of them, plain data, a member or
    `__dict__` descriptor? Else (a C callable as a dunder, a C descriptor) it may write unseen."""
    name, member = item
    kind = type(member)
    if kind is _FUNCTION or kind is _GetSet or kind is _Member or kind is _TUPLE_GETTER or member is None:
        return True
    unwrap = _wrapped.get(id(kind))
    if unwrap is not None:
        return type(unwrap(member)) is _FUNCTION
    if kind is property:
        return all(part is None or type(part) is _FUNCTION for part in (get(member) for get in _property_parts))
    dunder = type(name) is str and name[:2] == "__" and name[-2:] == "__"
    if dunder and name in _DATA_DUNDERS:
        return True
    if _type_flags(kind) & _HEAP_TYPE:       # an instance of a program's class: its __get__/__call__ is Python
        return True
    descriptor = any(named(_type_dict(klass), "__get__") is not None for klass in _type_mro(kind))
    return not descriptor and not (dunder and any(named(_type_dict(klass), "__call__") is not None
                                                  for klass in _type_mro(kind)))


_DATA_DUNDERS = frozenset({"__module__", "__qualname__", "__doc__", "__slots__", "__annotations__",
                           "__dataclass_fields__", "__dataclass_params__", "__match_args__", "__orig_bases__",
                           "__parameters__", "__type_params__", "__firstlineno__", "__static_attributes__",
                           "__classcell__", "__annotate_func__", "__annotations_cache__", "__weakref__", "__dict__"})


class _Sequence:
    """Only to make the interpreter's iterators over a sequence (`iter`, `reversed`) below."""

    def __getitem__(self, index: int) -> int:
        raise IndexError(index)

    def __len__(self) -> int:
        return 0


# Iterators of the interpreter's own whose step writes nothing (a generator's runs Python code, which the
# recorder sees).
_PLAIN_ITERATORS = frozenset(map(id, {type(iterator) for iterator in (
    iter([]), reversed([]), iter(()), iter(range(0)), iter(range(BIG_INT)), iter(""), iter("\u00e9"), iter(b""),
    iter(bytearray()), iter({}), iter({}.values()), iter({}.items()), reversed({}), reversed({}.values()),
    reversed({}.items()), iter(set()), iter(deque()), reversed(deque()), reversed(range(0)), iter(_Sequence()),
    reversed(_Sequence()), iter(memoryview(b"")),
)} | {types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType}))

_DESCRIBED = {id(types.FunctionType): "function", id(types.BuiltinFunctionType): "builtin",
              id(types.MethodType): "method", id(types.GeneratorType): "generator",
              id(types.CoroutineType): "coroutine", id(types.AsyncGeneratorType): "async_generator",
              id(types.ModuleType): "module", id(memoryview): "memoryview"}


def _dataclass_fields(dicts: list) -> tuple | None:
    """Names of a dataclass's real fields in order (not ClassVar/InitVar), from its class dicts."""
    module = _loaded("dataclasses")
    field_type, plain = named(module, "Field"), named(module, "_FIELD")
    for mapping in dicts:
        fields = named(mapping, "__dataclass_fields__")
        if type(fields) is dict:
            names = []
            for name, spec in fields.items():
                if type(name) is str and field_type is not None and type(spec) is field_type:
                    kind = named(_type_dict(field_type), "_field_type")
                    try:
                        if kind.__get__(spec) is not plain:
                            continue
                    except AttributeError:
                        pass
                    names.append(name)
            return tuple(names)
    return None


_module_dict_get = types.ModuleType.__dict__["__dict__"].__get__


def _module_dict(module: object) -> dict:
    """A module's namespace through the C descriptor ({} for anything else)."""
    if module is None:
        return {}
    try:
        found = _module_dict_get(module)
    except TypeError:
        return {}
    return found if type(found) is dict else {}


def only_str_keys(mapping: object) -> bool:
    """Does `mapping` (a dict or mappingproxy) hold exact str keys only? Then a lookup by a str compares
    no key of the program's (one C-level pass over the keys)."""
    return all(map(is_, map(type, mapping), repeat(str)))


def named(mapping: object, key: str) -> object:
    """`mapping[key]` or None, where `mapping` is a dict or a class's mappingproxy whose keys the program
    chose (a namespace, a class dict, `sys.modules`): a key of the program's with the hash of `key` would
    have its `__eq__` called by a plain `get`. With only exact str keys (nearly always) `get` compares
    none of the program's code; else the keys are compared one by one, exact str only."""
    if only_str_keys(mapping):
        return mapping.get(key)
    for found, value in mapping.items():
        if type(found) is str and found == key:
            return value
    return None


def _loaded(name: str) -> dict:
    """The namespace of the module `name` if it is imported, else {} (never imports it)."""
    modules = sys.modules
    return _module_dict(named(modules, name)) if type(modules) is dict else {}


_FLAT = frozenset(map(id, (tuple, list, frozenset)))
_PLAIN_ITEMS_READ = 64


def _posix_path_text(fields: dict) -> str | None:
    """What `str(path)` gives for a posix path with these stored fields, made from them the way pathlib
    does (never by calling it, nor os.path, which a program may patch): its cached text, else its parsed
    drive, root and parts (3.12+ `_tail_cached`, 3.11 `_parts`), else its raw segments (3.12+) joined and
    parsed. None when the fields are not exact str."""
    text = fields.get("_str")
    if type(text) is str:
        return text
    drive, root = fields.get("_drv"), fields.get("_root")
    if type(drive) is str and type(root) is str:
        tail = fields.get("_tail_cached")
        if tail is None and type(fields.get("_parts")) is list:       # 3.11: the parts hold drive + root first
            parts = fields["_parts"]
            tail = parts[1:] if drive or root else parts
        if type(tail) is list and len(tail) <= _PLAIN_ITEMS_READ and all(type(part) is str for part in tail):
            return drive + root + "/".join(tail) or "."
    raw = fields.get("_raw_paths")
    if type(raw) is not list or len(raw) > _PLAIN_ITEMS_READ or not all(type(segment) is str for segment in raw):
        return None
    # os.path.join of the segments, then pathlib's parse (posixpath.splitroot, '.' and empty parts dropped)
    path = raw[0] if raw else ""
    for segment in raw[1:]:
        path = segment if segment.startswith("/") else \
            path + segment if not path or path.endswith("/") else path + "/" + segment
    if path[:1] != "/":
        root, rest = "", path
    elif path[1:2] != "/" or path[2:3] == "/":
        root, rest = "/", path.lstrip("/")
    else:
        root, rest = "//", path[2:]
    return root + "/".join([part for part in rest.split("/") if part and part != "."]) or "."


def _plain(value: object) -> bool:
    """An exact scalar, or a short flat tuple, list or frozenset of them: a repr of it runs no program code."""
    kind = id(type(value))
    if kind in EXACT_SCALARS:
        return True
    if kind in _FLAT and len(value) <= _PLAIN_ITEMS_READ:
        return all(id(type(item)) in EXACT_SCALARS for item in value)
    return False


def _zone_plain(zone: object) -> bool:
    """No tzinfo, or a C `timezone` whose name is an exact str (another tzinfo's repr is its own code)."""
    if zone is None:
        return True
    cls = type(zone)
    if _type_name(cls) != "timezone" or _type_module(cls) != "datetime" or not _type_flags(cls) & _IMMUTABLE_TYPE:
        return False                    # only C's datetime.timezone: no class statement makes an immutable type
    return type(_type_dict(cls)["tzname"](zone, None)) is str


# Builtin bases whose C methods read a subclass's real contents, most specific first.
_BASES = (int, float, complex, str, bytes, bytearray, OrderedDict, defaultdict, Counter, dict, list,
          tuple, set, frozenset, deque)
_DICTS = frozenset(map(id, (dict, OrderedDict, defaultdict, Counter)))
LENGTH = {id(dict): _dict_len, id(OrderedDict): _dict_len, id(defaultdict): _dict_len, id(Counter): _dict_len,
           id(list): _list_len, id(tuple): _tuple_len, id(set): _set_len, id(frozenset): _frozenset_len,
           id(deque): _deque_len}
_ITERATE = {id(set): _set_iter, id(frozenset): _frozenset_iter, id(deque): _deque_iter}
NUMBER_TEXT = {id(int): lambda v: _int_text(v), id(float): _float_repr, id(complex): _complex_repr}


class Snap:
    """What one node's preview was built from, without a reference to the node itself.

    `kind` is the id of its type; for data and objects `size`, the ids of the items (dict:
    keys, then values; object: field values) its preview showed, the exact scalars among
    them held (so their ids cannot be reused while the snap lives), the `kids` snaps of the
    containers and objects among them by position, and the field `names`; for text-like
    and described values the `text` the preview showed. While a walk from the same root
    finds all of this again, the preview is the same (`Previewer.holds`).
    """

    __slots__ = ("kind", "tag", "size", "ids", "held", "kids", "text", "names", "base", "info", "nodes", "cyclic",
                 "weight", "number")

    def __init__(self, kind: int, tag: str, size: int = -1, base: type | None = None) -> None:
        self.kind, self.tag, self.size, self.base = kind, tag, size, base
        self.nodes = 1                      # nodes its preview counted, itself included (see `_reusable`)
        self.weight = 0                     # what the held scalars below it weigh (`held_weight`)
        self.cyclic = False                 # its preview marks a cycle (shows an ancestor's length)
        self.info: TypeInfo | None = None   # a class of the program's: its facts then (see `typed`)
        self.ids: list[int] = []
        self.held: list = []
        self.kids: list[tuple[int, Snap]] = []
        self.text: object = None
        self.names: list[str] | None = None
        self.number = 0                     # the object's number in its preview (`identity`); 0: none

    def __eq__(self, other: object) -> bool:
        if type(other) is not Snap:
            return NotImplemented
        return (self.kind == other.kind and self.tag == other.tag and self.size == other.size
                and self.ids == other.ids and len(self.held) == len(other.held)
                and all(map(is_, self.held, other.held)) and self.kids == other.kids
                and self.text == other.text and self.names == other.names and _same_facts(self.info, other.info)
                and self.number == other.number)

    __hash__ = None  # type: ignore[assignment]

    def resized(self, size: int) -> Snap:
        """This snap but for its `size` (a list grown past its window, `Previewer.grown`); what it shares
        is never changed after a walk."""
        snap = _new_object(Snap)
        snap.kind, snap.tag, snap.size, snap.base, snap.nodes, snap.weight, snap.cyclic, snap.number = \
            self.kind, self.tag, size, self.base, self.nodes, self.weight, self.cyclic, self.number
        snap.info, snap.ids, snap.held, snap.kids, snap.text, snap.names = \
            self.info, self.ids, self.held, self.kids, self.text, self.names
        return snap


class Previewer:
    """Builds previews and their snaps; holds per-type facts and nothing of the program's.

    With `numbers` (a recorder's), each container and instance node carries its object number (`identity`);
    `peek_only`: only numbers already given are read (a check that must change nothing), an unnumbered
    object shows none."""

    def __init__(self, items_cap: int = ITEMS_CAP, depth_cap: int = DEPTH_CAP, nodes_cap: int = NODES_CAP,
                 numbers: ObjectNumbers | None = None, peek_only: bool = False) -> None:
        self.items_cap, self.depth_cap, self.nodes_cap = items_cap, depth_cap, nodes_cap
        self.numbers = numbers
        self._number = None if numbers is None else numbers.peek if peek_only else numbers.number
        self._link = None if numbers is None or peek_only else numbers.link
        self._types: dict[int, TypeInfo] = {}
        self._small: dict = {}               # small int (or (type id, value)) -> its shared preview
        self._leaves: dict[str, dict] = {}   # short exact str -> its shared preview inside a container
        self._nodes = 0
        self._path: set[int] = set()
        self._snap: Snap | None = None       # the snap of the node just previewed (None: a scalar)
        self._reuse: tuple | None = None     # the root's previous preview, by position (`_reusable`)
        self._cycles = 0                     # cycle marks made by the current walk
        self._cuts = 0                       # walks the node or depth cap cut short in the current walk
        self._whole = True                   # the last node's items were all walked (`_children`)
        self._held = 0                       # the weight of the scalars the current walk's snaps hold
        self._plain: dict[int, bool] = {}    # class id -> only str keys in its dict, this walk (`_class_get`)
        self.breaks_calm = 0                 # the most a type met does to calm steps (`TypeInfo.breaks_calm`)
        self.met_finalizer = False           # met a class of the program's with `__del__` (`TypeInfo.finalized`)
        self.era: int | None = None          # `Recorder.epoch`; None: anything may change between walks
        self._plain_era: int | None = None   # the era `_plain` was learnt in
        # (id, snap, preview) of the containers and objects inside the last root whose walk nothing cut and
        # that mark no cycle: each previews alone exactly so (see `ValuePool.preview`).
        self.inner: list[tuple[int, Snap, dict]] = []

    # -- entry points ---------------------------------------------------------------------
    def preview(self, value: object) -> dict:
        """The bounded preview of `value`."""
        return self.preview_and_signature(value)[0]

    def preview_and_signature(self, value: object, before: tuple | None = None,
                              holds: Callable[[object, Snap], bool] | None = None) -> tuple[dict, Snap]:
        """The preview and its signature (a `Snap`; for a scalar, one that holds it).

        `before`: (snap, preview) of an earlier preview of a value at this id, and `holds` the change
        check: the items of a changed list, tuple or dict that still preview as they did then keep
        their previews (a message list that grew by one is not previewed again from scratch). The
        result is the preview a walk from scratch would build."""
        self._nodes = self._cycles = self._cuts = self._held = 0
        self._path = set()
        self.start_walk()
        self.inner = []
        self._reuse = None if before is None or holds is None else self._reusable(value, before, holds)
        try:
            preview = self._node(value, 0)
        finally:
            self._reuse = None
        snap = self._snap
        if snap is None:
            snap = Snap(id(type(value)), "scalar")
            snap.ids.append(id(value))
            snap.held.append(value)
            snap.weight = self._held + HELD_ITEM + held_weight(value, type(value))   # (a tuple held whole: its items)
        return preview, snap

    def start_walk(self) -> None:
        """Forget what the last walks learnt of class dicts: the program may have changed them since, unless
        they were in the same `era` (set by a recorder: no code ran between them that could)."""
        era = self.era
        if era is None or era != self._plain_era:
            self._plain = {}
            self._plain_era = era

    def _reusable(self, value: object, before: tuple, holds: Callable) -> tuple | None:
        """(position -> (id, kid snap, preview), holds) for the containers and objects among the
        earlier preview's items, when they can stand in for this one's: the same type (and class
        facts), a sequence or mapping shown in its own order (not a set: sorted), and a walk the node
        cap did not cut. Scalar items are not reused: the leaf caches make them as cheap."""
        snap, preview = before
        if not snap.kids or snap.tag != "data" or snap.kind != id(type(value)) or snap.nodes >= self.nodes_cap:
            return None
        if snap.info is not None and self.info(type(value)) is not snap.info:
            return None
        ids = snap.ids
        if "items" in preview and snap.base is not set and snap.base is not frozenset:
            items = preview["items"]
            if len(items) != len(ids):
                return None
            return {position: (ids[position], kid, items[position]) for position, kid in snap.kids}, holds
        if "entries" in preview:
            entries = preview["entries"]
            if 2 * len(entries) != len(ids):
                return None
            return {position: (ids[position], kid, entries[position >> 1][position & 1])
                    for position, kid in snap.kids}, holds
        return None

    def grown(self, value: object, before: tuple, holds: Callable[[object, Snap], bool]) -> tuple[dict, Snap] | None:
        """(preview, snap) of an exact list or dict that changed only past the items its earlier preview
        `before` = (snap, preview) showed, or None (walk it). A list appended to, a dict given a key past
        the first ITEMS_CAP: the same items at the same positions, still holding, the same `r` (both
        lengths past what is shown, so both end in "…"). The new preview shares the earlier one's
        `items` or `entries` list, so the step costs a window of ids, not ITEMS_CAP previews, and the
        trace writes the shared list once (`ValuePool.intern`)."""
        snap, preview = before
        cls = type(value)
        if cls is list:
            key, size = "items", _list_len(value)
        elif cls is dict:
            key, size = "entries", _dict_len(value)
        else:
            return None
        if snap.tag != "data" or snap.kind != id(cls) or snap.cyclic or not preview.get("more"):
            return None
        if snap.number and (self.numbers is None or self.numbers.bound.get(id(value)) != snap.number):
            return None
        shown = preview[key]
        if size <= len(shown) or size == snap.size:
            return None
        ids = snap.ids
        window = shown_items(value, cls, self.items_cap)
        if len(window) != len(ids):
            return None
        if len(snap.held) == len(ids):          # exact scalars only (see `SnapCheck._holds`)
            if not all(map(is_, window, snap.held)):
                return None
        elif list(map(id, window)) != ids:
            return None
        for position, kid in snap.kids:
            if not holds(window[position], kid):
                return None
        grown = {"t": preview["t"], "r": preview["r"], "len": size, key: shown, "more": size - len(shown)}
        if snap.number:
            grown["id"] = snap.number
        return grown, snap.resized(size)

    def signature(self, value: object) -> Snap:
        """The signature a preview of `value` would have now."""
        return self.preview_and_signature(value)[1]

    def forget(self) -> None:
        """Drop the per-type facts (their weak references to the classes) and the cached text previews
        (the program's strings): nothing of one run stays with the next."""
        self._types.clear()
        self._leaves.clear()

    def info(self, cls: type) -> TypeInfo:
        """Facts about `cls`, cached by identity (validated, so a reused id is never mistaken)."""
        found = self._types.get(id(cls))
        if found is None or found.ref() is not cls or found.heap and (
                found.name != _type_name(cls) or found.size != len(_type_dict(cls))):  # renamed, or a late @dataclass
            if len(self._types) > 4096:
                self._types.clear()
            found = self._types[id(cls)] = TypeInfo(cls)
            if found.breaks_calm > self.breaks_calm:
                self.breaks_calm = found.breaks_calm
            if found.finalized:
                self.met_finalizer = True
        return found

    def typed(self, cls: type, tag: str, size: int = -1, base: type | None = None) -> Snap:
        """A node's snap; for a class of the program's (a heap type, which can be renamed, changed or
        die and leave its id to another class), with the facts its preview was built from."""
        snap = Snap(id(cls), tag, size, base)
        if _type_flags(cls) & _HEAP_TYPE:
            snap.info = self.info(cls)
        return snap

    # -- nodes -------------------------------------------------------------------------------
    def _node(self, value: object, depth: int) -> dict:
        """Preview one node; leaves its snap in `self._snap` (None for an exact scalar)."""
        self._nodes += 1
        cls = type(value)
        self._snap = None
        if id(cls) in EXACT_SCALARS:
            if cls is str:
                return self._str(value, cls, "str", depth)
            if cls is bytes:
                return self._bytes(value, "bytes")
            return self.number(cls, value)
        info = self.info(cls)
        kind = info.kind
        if kind == "data" or kind == "namedtuple":
            return self._data(value, info, depth)
        if kind in ("object", "dataclass", "exception", "enum"):
            return self._object(value, info, depth)
        snap = self._snap = self.typed(cls, "text")
        snap.text = text = self.described(value, info)
        return {"t": info.name, "r": text}

    def _str(self, value: object, cls: type, name: str, depth: int) -> dict:
        size = _str_len(value)
        cap = NESTED_STR_CAP if depth else STR_CAP
        head = value if size <= cap and cls is str else _str_slice(value, slice(0, cap))
        if cls is not str:
            snap = self._snap = self.typed(cls, "text", size)
            snap.text = head
        short = head if _str_len(head) <= REPR_CAP else _str_slice(head, slice(0, REPR_CAP))
        return {"t": name, "r": cut(repr(short)), "v": head, "len": size}

    def _bytes(self, value: object, name: str) -> dict:
        cls = type(value)
        mutable = id(bytearray) in set(map(id, _type_mro(cls)))
        size = (bytearray.__len__ if mutable else _bytes_len)(value)
        head = bytes((bytearray.__getitem__ if mutable else bytes.__getitem__)(value, slice(0, REPR_CAP)))
        if cls is not bytes:                      # mutable or a subclass: its shown bytes are its snap
            snap = self._snap = self.typed(cls, "text", size)
            snap.text = head
        return {"t": name, "r": cut(repr(head)), "len": size}

    def number(self, cls: type, value: object) -> dict:
        """Preview of an exact int, float, complex, bool or None; small ones are one shared dict."""
        if cls is float:
            return {"t": "float", "r": _float_repr(value)}
        if cls is complex:
            return {"t": "complex", "r": _complex_repr(value)}
        if cls is not int or -256 <= value <= 1024:
            key = value if cls is int else (id(cls), value)
            preview = self._small.get(key)
            if preview is None:
                preview = self._small[key] = {"t": _NUMBER_NAMES[id(cls)], "r": repr(value)}
            return preview
        return {"t": "int", "r": _int_text(value)}

    # -- data: builtin containers, text and numbers, and their subclasses --------------------
    def _data(self, value: object, info: TypeInfo, depth: int) -> dict:
        base, name = info.base, info.name
        if base is str:
            return self._str(value, type(value), name, depth)
        if base is bytes or base is bytearray:
            return self._bytes(value, name)
        if id(base) in NUMBER_TEXT:
            snap = self._snap = self.typed(type(value), "text")
            snap.text = text = NUMBER_TEXT[id(base)](value)
            return {"t": name, "r": text}
        size = LENGTH[id(base)](value)
        key = id(value)
        shape = _SHAPES.get(name) if type(value) is base else None
        snap = self.typed(type(value), "data", size, base)
        if key in self._path:
            snap.tag = "cycle"
            snap.cyclic = True
            self._cycles += 1
            self._snap = snap
            return self._numbered({"t": name, "r": self._shaped(name, shape, "..."), "len": size, "cycle": True},
                                  value, snap)
        if depth >= self.depth_cap or self._nodes >= self.nodes_cap:
            snap.tag = "stub"
            self._snap = snap
            self._cuts += 1
            return self._numbered({"t": name, "r": self._shaped(name, shape, "…" if size else ""), "len": size},
                                  value, snap)
        # Numbered as met (a list before its items); a tuple or frozenset once its items say it is not
        # plain (`_plain_tuple`; one `_frozen` held whole is, and needs no second look).
        if self._number is not None and base is not tuple and base is not frozenset:
            snap.number = self._number(value)
        self._path.add(key)
        start, cycles, held = self._nodes - 1, self._cycles, self._held
        if depth == 0 and self._reuse is not None and info.kind != "namedtuple":
            reuse, self._reuse = self._reuse, None
        else:
            reuse = None
        try:
            window = shown_items(value, base, self.items_cap)
            if id(base) in _DICTS:
                preview = self._entries(window, snap, name, shape, size, depth, reuse)
            elif info.kind == "namedtuple":
                preview = self._named(window, snap, info, size, depth)
            else:
                preview = self._items(window, snap, base, name, shape, size, depth, reuse)
        finally:
            self._path.discard(key)
        snap.nodes = self._nodes - start
        self._held += HELD_ITEM * len(snap.held)
        snap.weight = self._held - held
        snap.cyclic = self._cycles != cycles
        # A small tuple or frozenset of immutable scalars cannot change: held like a scalar (its id
        # then cannot be reused), it needs no walk in the change check.
        if _frozen(value, snap, size):
            self._snap = None
            return preview
        self._snap = snap
        if self._number is not None:
            if not snap.number and not _plain_tuple(value):
                snap.number = self._number(value)
            if snap.number:
                self._linked(preview, snap)
        return preview

    def _children(self, window: list, snap: Snap, depth: int, reuse: tuple | None = None) -> list[dict]:
        """Previews of the window's items while the node budget lasts; fills `snap`.

        The commonest items, short exact strings and small ints, take their shared preview from a
        cache without the general walk (a nested string's preview depends on its text alone).
        `reuse` (the root only, see `_reusable`): a container or object at the position and id it had
        keeps its earlier preview when its snap still holds, its walk fits in what is left of the
        node budget (so a walk now would not cut it either) and it marks no cycle (a mark shows the
        length of an ancestor: the root, which has changed)."""
        shown = []
        held, kids = snap.held, snap.kids
        leaves, small = self._leaves, self._small
        before, holds = reuse if reuse is not None else (None, None)
        for position, item in enumerate(window):
            if self._nodes >= self.nodes_cap:
                self._cuts += 1
                break
            cls = type(item)
            # Sizes first: hashing a long text or a huge int costs as much as reading it all.
            preview = leaves.get(item) if cls is str and _str_len(item) <= NESTED_STR_CAP else \
                small.get(item) if cls is int and -256 <= item <= 1024 else None
            if preview is not None:
                self._nodes += 1
                shown.append(preview)
                held.append(item)
                continue
            if before is not None and position in before:
                old_id, kid, preview = before[position]
                if old_id == id(item) and not kid.cyclic and self._nodes + kid.nodes < self.nodes_cap \
                        and holds(item, kid):
                    self._nodes += kid.nodes
                    self._held += kid.weight
                    shown.append(preview)
                    kids.append((position, kid))
                    continue
            cuts = self._cuts
            shown.append(self._node(item, depth + 1))
            if self._snap is None:
                held.append(item)
                self._held += held_weight(item, cls)
                if cls is str and _str_len(item) <= NESTED_STR_CAP:
                    if len(leaves) >= LEAVES_CAP:
                        leaves.clear()
                    leaves[item] = shown[-1]
            else:
                kid = self._snap
                kids.append((position, kid))
                if cuts == self._cuts and not kid.cyclic and (kid.tag == "data" or kid.tag == "object"):
                    self.inner.append((id(item), kid, shown[-1]))
        snap.ids = list(map(id, window[:len(shown)]))
        self._whole = len(shown) == len(window)
        return shown

    def _items(self, window: list, snap: Snap, base: type, name: str, shape: tuple | None, size: int,
               depth: int, reuse: tuple | None = None) -> dict:
        items = self._children(window, snap, depth, reuse)
        pieces = list(map(_text, items))
        if base is set or base is frozenset:     # hash order varies between runs: sort what is shown
            order = _sorted_positions(window[:len(items)], pieces)
            items, pieces = [items[i] for i in order], [pieces[i] for i in order]
        more = size - len(items)
        inner = ", ".join(pieces)
        if base is tuple and size == 1 and shape is not None:
            inner += ","
        if more:
            inner += ", …" if items else "…"
        return {"t": name, "r": self._shaped(name, shape, inner), "len": size, "items": items, "more": more}

    def _entries(self, window: list, snap: Snap, name: str, shape: tuple | None, size: int, depth: int,
                 reuse: tuple | None = None) -> dict:
        shown = self._children(window, snap, depth, reuse)
        keys, values = shown[0::2], shown[1::2]
        if len(keys) > len(values):
            # An entry whose value did not fit (the node budget ran out) is not shown, but its key stays
            # in the snap: it took its share of the budget, so a cheaper key there would make room.
            del keys[-1]
        entries = list(map(list, zip(keys, values, strict=True)))
        pieces = list(map(": ".join, zip(map(_text, keys), map(_text, values), strict=True)))
        more = size - len(entries)
        inner = ", ".join(pieces)
        if more:
            inner += ", …" if entries else "…"
        if shape is not None:
            text = _cap_shape("{" + inner + "}", "}")
        else:                                    # a dict subclass: Counter({...}), defaultdict({...})
            text = _cap_shape(f"{name}({{{inner}}})", "})")
        return {"t": name, "r": text, "len": size, "entries": entries, "more": more}

    def _named(self, window: list, snap: Snap, info: TypeInfo, size: int, depth: int) -> dict:
        names = info.fields
        shown = self._children(window, snap, depth)
        fields, pieces = [], []
        for index, preview in enumerate(shown):
            label = names[index] if index < len(names) else str(index)
            fields.append([label, preview])
            pieces.append(f"{label}={preview['r']}")
        return {"t": info.name, "r": _cap_shape(f"{info.name}({', '.join(pieces)})", ")"), "len": size,
                "fields": fields, "more": size - len(fields)}

    # -- objects: instances, dataclasses, exceptions, enum members ---------------------------
    def _object(self, value: object, info: TypeInfo, depth: int) -> dict:
        name, kind = info.name, info.kind
        key = id(value)
        snap = self.typed(type(value), "object")
        if key in self._path:
            snap.tag = "cycle"
            snap.cyclic = True
            self._cycles += 1
            self._snap = snap
            return self._numbered({"t": name, "r": f"<{name} …>", "cycle": True}, value, snap)
        pairs = self.pairs(value, info)
        snap.names = [label for label, _ in pairs]
        if kind == "enum":
            member = next((v for k, v in pairs if k == "_name_"), None)
            snap.text = label = f"{name}.{member}" if type(member) is str else f"<{name}>"
            snap.tag = "text"
            snap.names = None
            self._snap = snap
            return {"t": name, "r": label}
        snap.size = len(pairs)
        if depth >= self.depth_cap or self._nodes >= self.nodes_cap:
            snap.tag = "stub"
            self._snap = snap
            self._cuts += 1
            return self._numbered({"t": name, "r": f"<{name} …>" if pairs else f"<{name} object>"}, value, snap)
        if self._number is not None:
            snap.number = self._number(value)
        self._path.add(key)
        start, cycles, held = self._nodes - 1, self._cycles, self._held
        try:
            shown = self._children([item for _, item in pairs[:self.items_cap]], snap, depth)
        finally:
            self._path.discard(key)
        snap.nodes = self._nodes - start
        self._held += HELD_ITEM * len(snap.held)
        snap.weight = self._held - held
        snap.cyclic = self._cycles != cycles
        self._snap = snap
        fields = [[label, preview] for (label, _), preview in zip(pairs, shown, strict=False)]
        pieces = [f"{label}={preview['r']}" for label, preview in fields]
        if kind == "exception":
            args = fields[0][1].get("items", []) if fields else []
            text = f"{name}({', '.join(item['r'] for item in args)})"
        elif kind == "dataclass":
            text = f"{name}({', '.join(pieces)})"
        else:
            text = f"<{name} {', '.join(pieces)}>" if pieces else f"<{name} object>"
        preview = {"t": name, "r": cut(text), "fields": fields, "more": len(pairs) - len(fields)}
        if snap.number:
            self._linked(preview, snap)
        return preview

    # -- object numbers (`identity`) ---------------------------------------------------------
    def _numbered(self, preview: dict, value: object, snap: Snap) -> dict:
        """A node that shows no items (a cycle mark, a node past a cap) with its object's number: the same
        object shown in full elsewhere has it (a tuple of scalars has none, see `_plain_tuple`)."""
        if self._number is not None and not _plain_tuple(value):
            number = self._number(value)
            if number is not None:
                snap.number = preview["id"] = number
        return preview

    def _linked(self, preview: dict, snap: Snap) -> None:
        """`preview` carries its number, and the numbers tell what it reaches: the objects among its items
        (all of them, or some more when the node budget cut its items short)."""
        number = snap.number
        if number is None:          # `peek_only`, and the object was never numbered
            snap.number = 0
            return
        preview["id"] = number
        if self._link is not None:
            self._link(number, tuple([kid.number for _, kid in snap.kids if kid.number]), self._whole)

    def pairs(self, value: object, info: TypeInfo) -> list[tuple[str, object]]:
        """The (name, value) fields an object is shown by: an exception's args first."""
        pairs = self.stored_fields(value, info)
        if info.kind == "exception":
            try:
                args = _exc_args(value)
            except Exception:  # noqa: BLE001 - a broken exception object still gets a preview
                args = ()
            pairs.insert(0, ("args", args if type(args) is tuple else ()))
        return pairs

    def stored_fields(self, value: object, info: TypeInfo) -> list[tuple[str, object]]:
        """(name, value) of what the instance stores: its `__dict__`, then its slots (a dataclass:
        its fields first), read through C descriptors only."""
        pairs: list[tuple[str, object]] = []
        descr = None if info.dict_owner is None else self._class_get(info.dict_owner(), "__dict__")
        if type(descr) is _GetSet:
            try:
                stored = descr.__get__(value)
            except Exception:  # noqa: BLE001
                stored = None
            if type(stored) is dict:
                keys = list(islice(_dict_iter(stored), FIELDS_READ))
                if all(map(is_, map(type, keys), repeat(str))):
                    pairs = list(zip(keys, islice(_dict_values(stored), len(keys)), strict=False))
                else:
                    pairs = [(k if type(k) is str else f"[{_short_key(k)}]", v)
                             for k, v in zip(keys, islice(_dict_values(stored), len(keys)), strict=False)]
        for name, owner in info.slots:
            member = self._class_get(owner(), name)
            if type(member) is not _Member:
                continue
            try:
                pairs.append((name, member.__get__(value)))
            except AttributeError:
                continue
        if info.fields:
            order = info.field_order
            # Stored in field order already (a dataclass's `__init__` sets them so): compared by
            # identity, so a key of the program's runs no `__eq__`.
            if list(map(id, map(_first, pairs[:len(order)]))) != info.field_ids:
                pairs.sort(key=lambda pair: order.get(pair[0], len(order)))
        return pairs

    def instance_dict(self, value: object, info: TypeInfo) -> dict | None:
        """The instance `__dict__` an object is shown by alone (no slots, not an exception), read through
        the C descriptor; None for any other object (then `stored_fields`)."""
        if info.slots or info.dict_owner is None or info.kind == "exception":
            return None
        descr = self._class_get(info.dict_owner(), "__dict__")
        if type(descr) is not _GetSet:
            return None
        try:
            stored = descr.__get__(value)
        except Exception:  # noqa: BLE001
            return None
        return stored if type(stored) is dict else None

    def _class_get(self, klass: type, key: str) -> object:
        """`klass.__dict__[key]` or None, comparing none of the program's keys. A class dict may hold a
        key of the program's (even after the class was made), so whether a plain `get` compares none is
        asked once a class per walk (`_plain`, cleared as each walk starts: `named` would ask every lookup)."""
        mapping = _type_dict(klass)
        only_str = self._plain.get(id(klass))
        if only_str is None:
            only_str = self._plain[id(klass)] = only_str_keys(mapping)
        return mapping.get(key) if only_str else named(mapping, key)

    def _stdlib_repr(self, value: object, info: TypeInfo) -> str:
        """An allowlisted stdlib value's text, made without running any of the program's code. A C
        type's own repr, only while the parts it reads are plain (`_parts_plain`: a slice of the program's
        objects or a pattern over a str subclass would reach their methods). A class written in Python
        (fractions, uuid, ipaddress, pathlib) is never asked at all, since a program may patch its
        methods (or the module functions they call, as 3.12+ paths call os.path.join): its text is made
        here from its fields, as its repr makes it (`_written_text`)."""
        cls = type(value)
        if not _type_flags(cls) & _IMMUTABLE_TYPE:
            text = self._written_text(value, info)
            return cut(text) if text is not None else f"<{info.name} object>"
        if not self._parts_plain(value, info):
            if info.name in ("datetime", "time"):
                zone = _type_dict(cls)["tzinfo"].__get__(value)
                return f"<{info.name} with tzinfo {_type_name(type(zone))}>"
            return f"<{info.name} object>"
        text = repr(value)
        return cut(text) if type(text) is str else f"<{info.name} object>"

    def _written_text(self, value: object, info: TypeInfo) -> str | None:
        """The repr of a Python-written allowlisted value, made from its stored fields (exact ints and
        str only); None when they are not what that class stores (then the value shows as an object)."""
        fields = dict(self.stored_fields(value, info))
        name = info.name
        if name == "Fraction":
            numerator, denominator = fields.get("_numerator"), fields.get("_denominator")
            if type(numerator) is int and type(denominator) is int:
                return f"Fraction({_int_text(numerator)}, {_int_text(denominator)})"
        elif name == "UUID":
            number = fields.get("int")
            if type(number) is int and 0 <= number < 1 << 128:
                digits = _int_format(number, "032x")
                return f"UUID('{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}')"
        elif name == "IPv4Address":
            number = fields.get("_ip")
            if type(number) is int and 0 <= number < 1 << 32:
                return f"IPv4Address('{number >> 24}.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}')"
        elif name in ("PurePosixPath", "PosixPath"):
            text = _posix_path_text(fields)
            if text is not None:
                return f"{name}({text!r})"
        return None

    def _parts_plain(self, value: object, info: TypeInfo) -> bool:
        """Do the parts a C type's repr reads hold exact scalars (or flat tuples and lists of them)?"""
        cls = type(value)
        name = info.name
        members = _type_dict(cls)
        if name == "slice":
            return all(_plain(members[part].__get__(value)) for part in ("start", "stop", "step"))
        if name == "Pattern":
            return _plain(members["pattern"].__get__(value))
        if name == "Match":
            return _plain(members["string"].__get__(value))
        if name == "timezone":
            return _zone_plain(value)
        if name in ("datetime", "time"):
            return _zone_plain(members["tzinfo"].__get__(value))
        return True     # range, memoryview, ellipsis, date, timedelta, C Decimal: only C numbers inside

    def described(self, value: object, info: TypeInfo) -> str:
        """The short text of a function, class, module, generator or allowlisted stdlib value."""
        kind = info.kind
        try:
            if kind == "class":
                return f"<class '{_type_qualname(value)}'>"
            if kind == "function":
                return f"<function {_function_qualname(value)}>"
            if kind == "repr":
                return self._stdlib_repr(value, info)
            if kind == "module":
                module_name = named(_module_dict(value), "__name__")
                return f"<module '{module_name}'>" if type(module_name) is str else "<module>"
            if kind in ("generator", "coroutine", "async_generator"):
                return f"<{kind} {type(value).__dict__['__qualname__'].__get__(value)}>"
            if kind == "method":
                func = types.MethodType.__dict__["__func__"].__get__(value)
                if type(func) is types.FunctionType:
                    return f"<bound method {_function_qualname(func)}>"
                return "<bound method>"
            if kind == "memoryview":    # its repr is an address: the same run would never read the same
                try:
                    return f"<memory {_memoryview_nbytes(value)} bytes, format {_memoryview_format(value)!r}>"
                except ValueError:      # released
                    return "<released memory>"
            if kind == "builtin":
                return f"<built-in {types.BuiltinFunctionType.__dict__['__qualname__'].__get__(value)}>"
        except Exception:  # noqa: BLE001 - a describer must never fail the step
            pass
        return f"<{info.name} object>"

    @staticmethod
    def _shaped(name: str, shape: tuple | None, inner: str) -> str:
        if shape is None:
            return cut(f"{name}([{inner}])") if inner else f"{name}()"
        if not inner and name in ("set", "frozenset"):
            return f"{name}()"
        opening, closing = shape
        return _cap_shape(opening + inner + closing, closing)


def held_weight(item: object, cls: type) -> int:
    """What holding an exact scalar keeps alive besides HELD_ITEM, roughly in bytes: a text's length, a big
    int's bytes. (A tuple held whole counts nothing here: its items were counted as its walk held them.)"""
    if cls is str:
        return _str_len(item)
    if cls is bytes:
        return _bytes_len(item)
    if cls is int:
        return int.bit_length(item) >> 3
    return 0


def _plain_tuple(value: object, depth: int = 0) -> bool:
    """An exact tuple or frozenset of at most ITEMS_CAP immutable scalars (or of such tuples): a value, drawn
    where it is held, with no object number. Decided by the value alone, so every place shows it alike."""
    cls = type(value)
    if cls is tuple:
        if _tuple_len(value) > ITEMS_CAP:
            return False
    elif cls is not frozenset or _frozenset_len(value) > ITEMS_CAP:
        return False
    if depth > DEPTH_CAP:     # (deeper than any tuple `_frozen` holds whole, which is plain)
        return False
    for item in (_tuple_iter if cls is tuple else _frozenset_iter)(value):
        kind = type(item)
        if id(kind) not in EXACT_SCALARS and not (
                (kind is tuple or kind is frozenset) and _plain_tuple(item, depth + 1)):
            return False
    return True


def _frozen(value: object, snap: Snap, size: int) -> bool:
    cls = type(value)
    if (cls is not tuple and cls is not frozenset) or snap.kids or size > ITEMS_CAP or len(snap.held) != size:
        return False
    return all(type(item) not in (str, bytes) or len(item) <= HELD_TEXT_CAP for item in snap.held)


def shown_items(value: object, base: type, cap: int) -> list:
    """The items a preview shows, read through the builtin base's C methods: a sequence's first
    `cap` items; a dict's first `cap` keys and values interleaved (k0, v0, k1, v1, …)."""
    if base is list:
        return _list_slice(value, slice(0, cap))
    if base is tuple:
        return list(_tuple_slice(value, slice(0, cap)))
    if id(base) not in _DICTS:
        return list(islice(_ITERATE[id(base)](value), cap))
    keys = list(islice(_dict_iter(value), cap))
    vals = list(islice(_dict_values(value), len(keys)))
    if base is OrderedDict and keys:
        ordered = list(islice(_odict_iter(value), cap))
        if all(id(type(k)) in EXACT_SCALARS for k in ordered):   # lookups hash builtin keys only
            keys, vals = ordered, [dict.__getitem__(value, k) for k in ordered]
    window = [None] * (2 * len(keys))
    window[0::2], window[1::2] = keys, vals
    return window


FIELDS_READ = 64     # instance attributes read per object (ITEMS_CAP of them are shown)


def _sorted_positions(values: list, texts: list[str]) -> list[int]:
    """Display order of a set's shown items: by value when all are exact numbers or all exact
    strings (builtin comparisons only), else by their short text."""
    positions = range(len(values))
    kinds = {id(type(v)) for v in values}
    if kinds and (kinds <= _ORDERED_NUMBERS or kinds == {id(str)}):
        return sorted(positions, key=values.__getitem__)
    return sorted(positions, key=texts.__getitem__)


_ORDERED_NUMBERS = frozenset(map(id, (int, float, bool)))


def _cap_shape(text: str, closing: str) -> str:
    return text if len(text) <= REPR_CAP else text[:REPR_CAP - 1 - len(closing)] + "…" + closing


def _int_text(value: object) -> str:
    if not -BIG_INT < value < BIG_INT:
        return f"<int with {int.bit_length(value)} bits>"
    return _int_repr(value)


def _short_key(key: object) -> str:
    return cut(repr(key), 40) if id(type(key)) in EXACT_SCALARS else _type_name(type(key))
