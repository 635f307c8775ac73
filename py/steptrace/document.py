"""The trace as one JSON document (docs/trace-format.md): what the CLI prints and the tests read.

`tables` lays the recorder's chunks out as the document's columnar events and the
lists attached to them, indexed by kept position; `serialize` writes the document.
The page gets the same tables as columns of bytes instead (`packed`).
"""
from __future__ import annotations

import json
from builtins import len, type  # captured at import: a lesson may rebind the builtins

from .recorder import Recorder
from .table import Chunk, EventTable


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

    The recorder keeps numbers raw (see Recorder): they are previewed here, and numbers
    whose preview is one shared object (small ints, bools, None) are pooled once per chunk."""
    number = recorder.values.number
    where: list[int] = []
    shared: dict[int, int] = {}
    for value in chunk_values:
        preview = value if type(value) is dict else number(type(value), value)
        ref = shared.get(id(preview))
        if ref is None:
            ref = shared[id(preview)] = len(values)
            values.append(preview)
        where.append(ref)
    return where


def tables(recorder: Recorder) -> dict:
    """The columnar events and everything attached to them, indexed by kept position."""
    table = recorder.table
    index = table.index
    kinds: list[str] = []
    lines: list[int] = []
    frames: list[int] = []
    deltas, returns, values = [], [], []
    for chunk in table.chunks():
        where = _pool_values(recorder, chunk.values, values)
        whole = whole_events(chunk)
        kinds.extend(chunk.kinds[:whole])
        lines.extend(chunk.lines[:whole])
        frames.extend(chunk.frames[:whole])
        for i, f, set_, del_, full in chunk.deltas:
            deltas.append({"i": index(i), "f": f, "set": {name: where[ref] for name, ref in set_.items()},
                           "del": del_, "full": full})
        returns.extend([index(i), where[ref]] for i, ref in chunk.returns)
    kept = len(kinds)
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
