"""The trace as one JSON document (docs/trace-format.md): what the CLI prints and the tests read.

`document_text` lays the recorder's chunks out as the document's columnar events and
the lists attached to them, indexed by kept position, and writes the document
(`serialize`: any JSON value). The page gets the same tables as columns of bytes
instead (`packed`).
"""
from __future__ import annotations

import json

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    KeyboardInterrupt,
    UnicodeEncodeError,
    dict,
    enumerate,
    frozenset,
    len,
    map,
    min,
    range,
    set,
    sorted,
    sum,
    type,
    zip,
)
from collections.abc import Callable

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


def _pool_values(recorder: Recorder, chunk_values: list, first: int) -> tuple[list[dict], list[int]]:
    """One chunk's values as the document pools them: (the previews it adds, numbered from `first`, and
    the document's index of each of the chunk's values).

    The recorder keeps numbers raw (see Recorder): they are previewed here, and each distinct
    number (by type and text: -0.0 is not 0.0) is pooled once per chunk, however often it was set, so a
    `like` (a distance back, `values._like`) is measured again."""
    number = recorder.values.number
    added: list[dict] = []
    where: list[int] = []
    numbers: dict[tuple, int] = {}
    for value in chunk_values:
        if type(value) is dict:
            # a number's preview is its value, except a huge int's ("<int with N bits>")
            if value["t"] not in _NUMBER_TYPES or len(value) != 2 or value["r"][:1] == "<":
                at = first + len(added)
                if "like" in value:      # a distance back in the chunk's values: in the document's now
                    value = {**value, "like": at - where[len(where) - value["like"]]}
                where.append(at)
                added.append(value)
                continue
            preview = value
        else:
            preview = number(type(value), value)
        key = (preview["t"], preview["r"])
        ref = numbers.get(key)
        if ref is None:
            ref = numbers[key] = first + len(added)
            added.append(preview)
        where.append(ref)
    return added, where


def document_text(recorder: Recorder, document: dict) -> str:
    """The whole document as JSON text: `document` (all but the tables) and the recorder's tables, laid
    out as the document's columnar events and the lists attached to them, indexed by kept position.

    The values and the locals deltas are written a chunk at a time: as Python objects a number's preview
    or a delta is a dict or two, a few hundred bytes, and holding all of a long run's at once to write
    them cost ~10 times the text; now the text and one chunk's objects are held."""
    table = recorder.table
    index = table.index
    chunks = table.chunks()
    kept = sum(map(whole_events, chunks))
    kinds: list[str] = []            # one string per chunk
    lines: list[int] = []
    frames: list[int] = []
    returns: list[list[int]] = []
    values: list[str] = []           # each chunk's added values, as JSON text without its brackets
    deltas: list[str] = []           # the same for each chunk's locals deltas
    pooled = 0
    for chunk in chunks:
        added, where = _pool_values(recorder, chunk.values, pooled)
        pooled += len(added)
        values.append(serialize(added)[1:-1])
        del added
        whole = whole_events(chunk)
        kinds.append(chunk.kinds[:whole].decode("ascii"))
        lines.extend(chunk.lines[:whole])
        frames.extend(chunk.frames[:whole])
        # a torn last event's deltas and return are left out
        deltas.append(_deltas(chunk, where, index, kept))
        first = chunk.value_base
        returns.extend([index(i), where[ref - first]]
                       for i, ref in zip(chunk.return_event, chunk.return_ref, strict=True))
    head = serialize({**document, "frames": frame_rows(recorder),
                      "events": {"kind": "".join(kinds), "line": lines, "frame": frames}, "gap": gap(table),
                      "returns": [r for r in returns if r[0] < kept], **attached(table, kept)})
    del kinds, lines, frames, returns
    return "".join([head[:-1], ',"values":[', ",".join([text for text in values if text]),
                    '],"locals":[', ",".join([text for text in deltas if text]), "]}"])


def _deltas(chunk: Chunk, where: list[int], index: Callable[[int], int], kept: int) -> str:
    """One chunk's locals deltas of events before `kept`, as the document lists them: JSON text without its
    brackets, written here rather than by the encoder (a long loop has a delta or two a step, and a dict
    each to encode cost more than the run's events). `where`: the document's value index of each of the
    chunk's values (`_pool_values`)."""
    first = chunk.value_base
    deleted: dict[int, list[str]] = {}
    for row, name in chunk.deleted:
        deleted.setdefault(row, []).append(name)
    names, refs, at = chunk.set_names, chunk.set_refs, 0
    quoted = {name: serialize(name) for name in set(names)}
    rows = len(chunk.delta_sets)
    out = []
    for row, (frame, full, count) in enumerate(zip(delta_frames(chunk, rows), full_flags(chunk, rows),
                                                    chunk.delta_sets, strict=True)):
        event = index(chunk.delta_event[row])
        if event < kept:
            sets = ",".join([f"{quoted[names[e]]}:{where[refs[e] - first]}" for e in range(at, at + count)])
            gone = serialize(deleted[row]) if row in deleted else "[]"
            out.append(f'{{"i":{event},"f":{frame},"set":{{{sets}}},"del":{gone},"full":{_BOOLS[full]}}}')
        at += count
    return ",".join(out)


_BOOLS = ("false", "true")


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
