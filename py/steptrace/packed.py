"""The trace as columns of bytes: what the browser worker sends to the page.

A million-event trace is ~64 MB as JSON; parsing that is a second of one thread.
Packed, the event table, the locals deltas, the returns and the numbers are typed
columns (`array` bytes, little-endian, which is what wasm and x86 write) that the
worker turns into transferable buffers, and only the small rest is JSON: the
header (the document without its big tables), and the non-number previews as one
JSON list. docs/trace-format.md ("Packed form") lists every column; the page's
`site/js/trace-columns.js` reads them, and reads the JSON document the same way.
"""
from __future__ import annotations

from array import array

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    ImportError,
    bool,
    bytearray,
    bytes,
    dict,
    enumerate,
    float,
    int,
    len,
    list,
    map,
    range,
    set,
    sorted,
    type,
)
from itertools import compress

from .document import attached, closures, gap, looked_up, serialize, whole_events
from .recorder import Recorder
from .table import full_flags

PACKED_FORM = 2   # the header's "packed": which columns there are (2: a delta's frame is not sent)

# value kinds: a preview (JSON), or a number kept raw by the recorder
PREVIEW, INT, FLOAT, BOOL, NONE = range(5)
_KINDS = {dict: PREVIEW, int: INT, float: FLOAT, bool: BOOL, type(None): NONE}
PREVIEW_BYTE, NONE_BYTE = bytes([PREVIEW]), bytes([NONE])
_IS_PREVIEW = bytes([kind == PREVIEW for kind in range(256)])   # `bytes.translate` table: kind -> 0/1

if array("i").itemsize != 4 or array("d").itemsize != 8:   # pragma: no cover - no such platform here
    raise ImportError("packed traces need 4-byte ints and 8-byte doubles")


def _shifted(column: array, by: int) -> array:
    """`column` with `by` added to each entry (the same array when `by` is 0, as it is without a gap)."""
    return column if not by else array(column.typecode, map(by.__add__, column))


def _kinds(values: list) -> bytes:
    """The value-kind byte of each value. A long loop's chunk often holds values of one type only: then
    one C-level pass that finds so (a set of their types) is all it costs."""
    types = set(map(type, values))
    if len(types) == 1:
        return bytes([_KINDS[types.pop()]]) * len(values)
    return bytes(looked_up(_KINDS, list(map(type, values))))


def _numbers(values: list, kinds: bytes) -> list:
    """The number column's entries for one chunk's values: the number itself, 0 for a preview or None.
    Previews are few among a long loop's numbers (a return value now and then): they are found by
    C-level searches of `kinds` and zeroed in a copy, not by a Python-level pass over every value."""
    numbers = None
    for byte in (PREVIEW_BYTE, NONE_BYTE):
        at = kinds.find(byte)
        while at >= 0:
            if numbers is None:
                numbers = list(values)
            numbers[at] = 0
            at = kinds.find(byte, at + 1)
    return values if numbers is None else numbers


def pack(recorder: Recorder, document: dict) -> dict:
    """{"header": JSON text, "previews": JSON text, "columns": {name: bytes}} for one run.

    `document` holds the fields every trace has (format, source, end, stats, ...); the
    tables come from the recorder's chunks, exactly as `document.document_text` lays them out."""
    table = recorder.table
    kind = bytearray()
    line, frame = array("i"), array("i")
    delta_event, delta_sets = array("i"), array("i")
    delta_full = bytearray()
    set_names: list[str] = []
    set_value = array("i")
    deleted: list[list] = []
    value_kind = bytearray()
    value_number = array("d")
    previews: list[dict] = []
    return_event, return_value = array("i"), array("i")
    base = 0
    for chunk in table.chunks():
        shift = table.index(chunk.start) - chunk.start      # the gap lies between chunks
        whole = whole_events(chunk)
        kind += chunk.kinds[:whole]
        line += chunk.lines[:whole]
        frame += chunk.frames[:whole]
        first_row = len(delta_event)
        deleted.extend([first_row + row, name] for row, name in chunk.deleted)
        delta_event += _shifted(chunk.delta_event, shift)
        delta_full += full_flags(chunk, len(chunk.delta_sets))
        delta_sets += chunk.delta_sets
        set_names.extend(chunk.set_names)
        moved = base - chunk.value_base                     # values dropped before this chunk, if any
        set_value += _shifted(chunk.set_refs, moved)
        return_event += _shifted(chunk.return_event, shift)
        return_value += _shifted(chunk.return_ref, moved)
        values = chunk.values
        kinds = _kinds(values)
        value_kind += kinds
        value_number.fromlist(_numbers(values, kinds))
        previews.extend(compress(values, kinds.translate(_IS_PREVIEW)))   # C-level: no pass per value
        base += len(values)
    names = {name: n for n, name in enumerate(dict.fromkeys(set_names))}
    set_name = array("i")
    set_name.fromlist(looked_up(names, set_names))
    kept = len(kind)
    while delta_event and delta_event[-1] >= kept:        # a torn last event: drop what it recorded
        count = delta_sets.pop()
        del set_name[len(set_name) - count:], set_value[len(set_value) - count:]
        delta_event.pop(), delta_full.pop()
        deleted = [d for d in deleted if d[0] < len(delta_event)]
    while return_event and return_event[-1] >= kept:
        return_event.pop(), return_value.pop()
    rows = sorted(recorder.frames.items())
    functions: dict[str, int] = {}
    header = {**document, "packed": PACKED_FORM, "gap": gap(table), "names": list(names), **attached(table, kept),
              "closures": closures(recorder),
              "deleted": deleted, "functions": None}
    columns = {
        "kind": bytes(kind), "line": line.tobytes(), "frame": frame.tobytes(),
        "frame_id": array("i", [fid for fid, _ in rows]).tobytes(),
        "frame_parent": array("i", [-1 if row[1] is None else row[1] for _, row in rows]).tobytes(),
        "frame_line": array("i", [row[2] for _, row in rows]).tobytes(),
        "frame_function": array("i", [functions.setdefault(row[0], len(functions)) for _, row in rows]).tobytes(),
        "delta_event": delta_event.tobytes(),
        "delta_full": bytes(delta_full), "delta_sets": delta_sets.tobytes(),
        "set_name": set_name.tobytes(), "set_value": set_value.tobytes(),
        "value_kind": bytes(value_kind), "value_number": value_number.tobytes(),
        "return_event": return_event.tobytes(), "return_value": return_value.tobytes(),
    }
    header["functions"] = list(functions)
    return {"header": serialize(header), "previews": serialize(previews), "columns": columns}
