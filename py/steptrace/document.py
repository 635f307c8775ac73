"""The trace as one JSON document (docs/trace-format.md): what the CLI prints and the tests read.

`tables` lays the recorder's chunks out as the document's columnar events and the
lists attached to them, indexed by kept position; `serialize` writes the document.
The page gets the same tables as columns of bytes instead (`packed`).
"""
from __future__ import annotations

import json

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    KeyboardInterrupt,
    UnicodeEncodeError,
    bool,
    dict,
    enumerate,
    frozenset,
    len,
    min,
    range,
    sorted,
    type,
    zip,
)

from .recorder import Recorder
from .table import Chunk, EventTable, delta_frames, full_flags

_NUMBER_TYPES = frozenset(("int", "float", "bool", "NoneType"))


def serialize(document: dict) -> str:
    """The document as JSON text, never lost to a late stop request.

    A KeyboardInterrupt here (Pyodide's interrupt buffer, set by a watchdog just as the run
    ended) is consumed by being raised, so one more attempt completes.
    """
    for attempt in (1, 2):
        try:
            # Previews are trees (cycles become "cycle" markers), so the circularity check is waste.
            text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), check_circular=False)
            break
        except KeyboardInterrupt:
            if attempt == 2:
                raise
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:   # lone surrogates in some value: escape everything instead
        text = json.dumps(document, ensure_ascii=True, separators=(",", ":"))
    return text


def _pool_values(recorder: Recorder, chunk_values: list, values: list) -> list[int]:
    """Append one chunk's values to the document's pool; return where each landed.

    The recorder keeps numbers raw (see Recorder): they are previewed here, and each distinct
    number (by type and text: -0.0 is not 0.0) is pooled once per chunk, however often it was set."""
    number = recorder.values.number
    where: list[int] = []
    numbers: dict[tuple, int] = {}
    for value in chunk_values:
        if type(value) is dict:
            # a number's preview is its value, except a huge int's ("<int with N bits>")
            if value["t"] not in _NUMBER_TYPES or len(value) != 2 or value["r"][:1] == "<":
                where.append(len(values))
                values.append(value)
                continue
            preview = value
        else:
            preview = number(type(value), value)
        key = (preview["t"], preview["r"])
        ref = numbers.get(key)
        if ref is None:
            ref = numbers[key] = len(values)
            values.append(preview)
        where.append(ref)
    return where


def tables(recorder: Recorder) -> dict:
    """The columnar events and everything attached to them, indexed by kept position."""
    table = recorder.table
    index = table.index
    kinds: list[str] = []            # one string per chunk
    lines: list[int] = []
    frames: list[int] = []
    deltas, returns, values = [], [], []
    for chunk in table.chunks():
        where = _pool_values(recorder, chunk.values, values)
        first = chunk.value_base
        whole = whole_events(chunk)
        kinds.append(chunk.kinds[:whole].decode("ascii"))
        lines.extend(chunk.lines[:whole])
        frames.extend(chunk.frames[:whole])
        deleted: dict[int, list[str]] = {}
        for row, name in chunk.deleted:
            deleted.setdefault(row, []).append(name)
        names, refs, at = chunk.set_names, chunk.set_refs, 0
        rows = len(chunk.delta_sets)
        for row, (frame, full, count) in enumerate(zip(delta_frames(chunk, rows), full_flags(chunk, rows),
                                                        chunk.delta_sets, strict=True)):
            deltas.append({"i": index(chunk.delta_event[row]), "f": frame,
                           "set": {names[e]: where[refs[e] - first] for e in range(at, at + count)},
                           "del": deleted.get(row, []), "full": bool(full)})
            at += count
        returns.extend([index(i), where[ref - first]]
                       for i, ref in zip(chunk.return_event, chunk.return_ref, strict=True))
    kept = len(lines)
    return {"frames": frame_rows(recorder), "events": {"kind": "".join(kinds), "line": lines, "frame": frames},
            "gap": gap(table), "values": values, "locals": [d for d in deltas if d["i"] < kept],
            "returns": [r for r in returns if r[0] < kept], **attached(table, kept)}


def whole_events(chunk: Chunk) -> int:
    """How many of a chunk's events are whole: an interrupt inside the recorder can tear its last one."""
    return min(len(chunk.kinds), len(chunk.lines), len(chunk.frames))


def frame_rows(recorder: Recorder) -> list[dict]:
    return [{"id": fid, "function": name, "parent": parent, "line": line}
            for fid, (name, parent, line) in sorted(recorder.frames.items())]


def gap(table: EventTable) -> dict | None:
    if table.gap_after is None:
        return None
    return {"after": table.gap_after, "dropped": table.dropped}


def attached(table: EventTable, kept: int) -> dict:
    """Exceptions and output at kept events (small lists in both forms of the trace)."""
    index = table.index
    exceptions, stdout = [], []
    for chunk in table.chunks():
        exceptions.extend([index(i), value] for i, value in chunk.exceptions)
        for i, text, stream in chunk.stdout:
            at = index(i) if i >= 0 else -1
            if stdout and stdout[-1][0] == at and len(stdout[-1]) == (2 if stream == "out" else 3):
                stdout[-1][1] += text
            else:
                stdout.append([at, text] if stream == "out" else [at, text, stream])
    return {"exceptions": [x for x in exceptions if x[0] < kept],
            "stdout": [[min(o[0], kept - 1), *o[1:]] for o in stdout]}
