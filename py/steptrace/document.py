"""The trace as one JSON document (docs/trace-format.md): what the CLI prints and the tests read.

`document_text` lays the recorder's chunks out as the document's columnar events and
the lists attached to them, indexed by kept position, and writes the document
(`serialize`: any JSON value). The page gets the same tables as columns of bytes
instead (`packed`).
"""
from __future__ import annotations

import json
from bisect import bisect_left

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    KeyboardInterrupt,
    UnicodeEncodeError,
    bool,
    dict,
    frozenset,
    int,
    len,
    list,
    map,
    min,
    set,
    sorted,
    sum,
    type,
    zip,
)
from collections.abc import Callable, Iterator
from operator import itemgetter
from typing import BinaryIO

from .previews import BIG_INT
from .recorder import Recorder
from .table import Chunk, EventTable, delta_frames, full_flags

_int_repr = int.__repr__
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


def _pool_values(recorder: Recorder, chunk_values: list, first: int) -> tuple[str, int, list[int]]:
    """One chunk's values as the document pools them: (the JSON text of the previews it adds, numbered
    from `first`, without brackets; how many; the document's index of each of the chunk's values).

    The recorder keeps numbers raw (see Recorder): they are previewed here, and each distinct
    number (by type and text: -0.0 is not 0.0) is pooled once per chunk, however often it was set, so a
    `like` (a distance back, `values._like`) is measured again. A long loop sets a new number a step:
    an exact int, bool or None is looked up by itself first (equal ones preview alike) and its entry
    written as text here; the other previews go to the encoder a run at a time."""
    number = recorder.values.number
    pieces: list[str] = []
    run: list[dict] = []             # previews waiting for one encoder call
    where: list[int] = []
    numbers: dict = {}               # (type, value) of an exact int, bool or None, and (t, r): index
    written = 0                      # entries in `pieces`
    for value in chunk_values:
        kind = type(value)
        if kind is dict:
            # a number's preview is its value, except a huge int's ("<int with N bits>")
            if value["t"] not in _NUMBER_TYPES or len(value) != 2 or value["r"][:1] == "<":
                at = first + written + len(run)
                if "like" in value:      # a distance back in the chunk's values: in the document's now
                    value = {**value, "like": at - where[len(where) - value["like"]]}
                where.append(at)
                run.append(value)
                continue
            raw, preview = None, value
        elif kind is not int and kind is not bool and value is not None:   # a float: -0.0 == 0.0
            raw, preview = None, number(kind, value)
        else:
            raw = (kind, value)
            ref = numbers.get(raw)
            if ref is not None:
                where.append(ref)
                continue
            if kind is int and -BIG_INT < value < BIG_INT:    # most of a long loop's: inline
                text = _int_repr(value)
                key = ("int", text)
                ref = numbers.get(key)
                if ref is None:
                    ref = numbers[key] = first + written + len(run)
                    if run:                 # joins the run: one encoder call for a mixed chunk
                        run.append({"t": "int", "r": text})
                    else:
                        written += 1
                        pieces.append(f'{{"t":"int","r":"{text}"}}')
                numbers[raw] = ref
                where.append(ref)
                continue
            preview = number(kind, value)
        key = (preview["t"], preview["r"])
        ref = numbers.get(key)
        if ref is None:
            ref = numbers[key] = first + written + len(run)
            if run or preview["r"][:1] == "<":  # a huge int's text: encoded as any other
                run.append(preview)
            else:                               # a number's repr: nothing in it to escape
                written += 1
                pieces.append(f'{{"t":"{preview["t"]}","r":"{preview["r"]}"}}')
        if raw is not None:
            numbers[raw] = ref
        where.append(ref)
    count = written + len(run)
    if run:
        pieces.append(serialize(run)[1:-1])
    return ",".join(pieces), count, where


def document_text(recorder: Recorder, document: dict) -> str:
    """The whole document as JSON text (`document_pieces` joined once)."""
    return "".join(document_pieces(recorder, document))


def write_document(recorder: Recorder, document: dict, out: BinaryIO) -> None:
    """The whole document into `out` as UTF-8, a piece at a time: the run's process never holds the text
    (build_list(200_000)'s is 42 MB, and as one str and its bytes it was twice that at once)."""
    for piece in document_pieces(recorder, document):
        out.write(piece.encode("utf-8"))
    out.flush()


def document_pieces(recorder: Recorder, document: dict) -> Iterator[str]:
    """The document as JSON text in pieces: `document` (all but the tables) with the events, then each
    chunk's values, each chunk's locals deltas, and the returns last (they need every chunk's value index).

    The values and the locals deltas are written a chunk at a time: as Python objects a number's preview
    or a delta is a dict or two, a few hundred bytes, and holding all of a long run's at once to write
    them cost ~10 times the text; now one chunk's objects and text are held, and the value indexes."""
    table = recorder.table
    index = table.index
    chunks = table.chunks()
    kept = sum(map(whole_events, chunks))
    kinds: list[str] = []            # one string per chunk
    lines: list[int] = []
    frames: list[int] = []
    for chunk in chunks:
        whole = whole_events(chunk)
        kinds.append(chunk.kinds[:whole].decode("ascii"))
        lines.extend(chunk.lines[:whole])
        frames.extend(chunk.frames[:whole])
    head = serialize({**document, "frames": frame_rows(recorder),
                      "events": {"kind": "".join(kinds), "line": lines, "frame": frames}, "gap": gap(table),
                      **attached(table, kept), "closures": closures(recorder)})
    del kinds, lines, frames
    yield head[:-1]
    del head
    yield ',"values":['
    returns: list[list[int]] = []
    wheres: list[list[int]] = []     # each chunk's values' indexes in the document (`_pool_values`)
    pooled = 0
    for chunk in chunks:
        added, count, where = _pool_values(recorder, chunk.values, pooled)
        if added:
            yield "," + added if pooled else added
        pooled += count
        wheres.append(where)
        first = chunk.value_base
        returns.extend([index(i), where[ref - first]]
                       for i, ref in zip(chunk.return_event, chunk.return_ref, strict=True))
    yield '],"locals":['
    written = False
    for chunk, where in zip(chunks, wheres, strict=True):
        text = _deltas(chunk, where, index, kept)          # a torn last event's deltas are left out
        if text:
            yield "," + text if written else text
            written = True
    yield '],"returns":' + serialize([r for r in returns if r[0] < kept]) + "}"


def _deltas(chunk: Chunk, where: list[int], index: Callable[[int], int], kept: int) -> str:
    """One chunk's locals deltas of events before `kept`, as the document lists them: JSON text without its
    brackets, written here rather than by the encoder (a long loop has a delta or two a step, and a dict
    each to encode cost more than the run's events), by C-level passes over whole columns. `where`: the
    document's value index of each of the chunk's values (`_pool_values`)."""
    first = chunk.value_base
    counts = chunk.delta_sets
    rows = len(counts)
    events = chunk.delta_event[:rows]
    shift = index(chunk.start) - chunk.start            # the gap lies between chunks
    if shift:
        events = list(map(shift.__add__, events))
    rows = bisect_left(events, kept)                     # a torn last event's rows (rows are in event order)
    if not rows:
        return ""
    whole = sum(counts[:rows])
    quoted = {name: serialize(name) for name in set(chunk.set_names[:whole])}
    names = looked_up(quoted, chunk.set_names[:whole])
    refs = chunk.set_refs[:whole]
    values = looked_up(where, list(map((-first).__add__, refs))) if first else looked_up(where, list(refs))
    sets = list(map(_SET.format, names, values))
    if counts[:rows].count(1) != rows:                 # some rows set none or several names
        sets = _grouped(sets, counts[:rows])
    gone: dict[int, list[str]] = {}
    for row, name in chunk.deleted:
        gone.setdefault(row, []).append(name)
    deleted = ["[]"] * rows
    for row, names_gone in gone.items():
        if row < rows:
            deleted[row] = serialize(names_gone)
    fulls = map(_BOOLS.__getitem__, full_flags(chunk, rows))
    return ",".join(map(_DELTA.format, events[:rows], delta_frames(chunk, rows), sets, deleted, fulls))


def _grouped(sets: list[str], counts: list[int]) -> list[str]:
    """Each row's `"name":value` texts joined, from the rows' counts."""
    out, at = [], 0
    for count in counts:
        out.append(",".join(sets[at:at + count]))
        at += count
    return out


def looked_up(mapping: dict | list, keys: list) -> list:
    """[mapping[k] for k in keys], in one C-level call (in Pyodide about a third of what a `map` of
    `mapping.__getitem__` costs: 34 vs 106 ms for 670k names)."""
    if len(keys) < 2:
        return [mapping[key] for key in keys]
    return list(itemgetter(*keys)(mapping))


_SET = "{}:{}"
_DELTA = '{{"i":{},"f":{},"set":{{{}}},"del":{},"full":{}}}'
_BOOLS = ("false", "true")


def whole_events(chunk: Chunk) -> int:
    """How many of a chunk's events are whole: an interrupt inside the recorder can tear its last one."""
    return min(len(chunk.kinds), len(chunk.lines), len(chunk.frames))


def frame_rows(recorder: Recorder) -> list[dict]:
    return [{"id": fid, "function": name, "parent": parent, "line": line}
            for fid, (name, parent, line) in sorted(recorder.frames.items())]


def closures(recorder: Recorder) -> list:
    """`[frame id, [name, ...]]` for each frame whose function has free variables: which of its locals are
    its closure's cells (the page shows them apart, as a debugger's Closure scope)."""
    return [[fid, list(names)] for fid, names in sorted(recorder.closures.items())]


def gap(table: EventTable) -> dict | None:
    if table.gap_after is None:
        return None
    return {"after": table.gap_after, "dropped": table.dropped}


def attached(table: EventTable, kept: int) -> dict:
    """Exceptions, setup helpers called and output at kept events (small lists in both forms of the
    trace)."""
    index = table.index
    exceptions, helpers, stdout = [], [], []
    for chunk in table.chunks():
        exceptions.extend([index(i), value] for i, value in chunk.exceptions)
        helpers.extend([index(i), name] for i, name in chunk.helpers)
        for i, text, stream in chunk.stdout:
            at = index(i) if i >= 0 else -1
            if stdout and stdout[-1][0] == at and len(stdout[-1]) == (2 if stream == "out" else 3):
                stdout[-1][1] += text
            else:
                stdout.append([at, text] if stream == "out" else [at, text, stream])
    return {"exceptions": [x for x in exceptions if x[0] < kept],
            "helpers": [h for h in helpers if h[0] < kept],
            "stdout": [[min(o[0], kept - 1), *o[1:]] for o in stdout]}
