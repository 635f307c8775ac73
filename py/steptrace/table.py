"""The event table: columnar, in chunks, with a bounded head and a ring-buffered tail.

Memory is bounded by `max_events` whatever the run does. The first half of the
capacity is the head window and is never dropped; the rest is a ring of chunks
holding the most recent events. When the ring is full, its oldest chunk (with
the locals deltas, returns, exceptions and output attached to its events) is
dropped whole and counted, so the document can mark the gap honestly.

Everything a chunk refers to lives in that chunk, so dropping one is O(1) and
leaves no dangling event indexes behind. Frames whose whole life fell into
dropped chunks are forgotten too (see `EventTable.drop_frames`).
"""
from __future__ import annotations

from array import array

# Captured at import: a lesson may rebind the builtins.
from builtins import (
    ValueError,
    bytearray,
    getattr,
    len,
    list,
    max,
    min,
    setattr,
    sum,
    type,
)
from collections import deque
from operator import itemgetter

from .limits import PREVIEW_NODES


class Chunk:
    """Consecutive events and everything recorded at them, as columns.

    A chunk is kept as `array`s and `bytearray`s rather than lists of objects: a million events
    and their locals deltas cost tens of MB, not hundreds, and they are written out as bytes
    without a loop (`packed`). While it is the chunk being written its number columns are lists,
    and `seal` packs them when it closes: in Pyodide appending an int to an `array` costs about twice
    what appending it to a list does (the conversion), and a step appends up to ten."""

    __slots__ = ("start", "kinds", "lines", "frames", "delta_event", "full_rows", "delta_sets", "set_names",
                 "set_refs", "deleted", "return_event", "return_ref", "exceptions", "helpers", "stdout", "ended",
                 "values", "value_base", "sealed", "weight")

    def __init__(self, start: int) -> None:
        self.start = start                  # run-wide index of the chunk's first event
        self.kinds: list | bytearray = []   # b"c", b"l", b"r" or b"x" (as ints) per event
        self.lines: list | array = []
        self.frames: list | array = []
        # Locals deltas, one row each: run-wide event and how many `set` entries it has; the entries
        # follow each other in `set_names`/`set_refs`. A delta's frame is its event's (`delta_frame`), and
        # the few full snapshots are listed by row (`full_rows`): two appends less per step.
        self.delta_event: list | array = []
        self.full_rows: list[int] = []
        self.delta_sets: list | array = []
        self.set_names: list[str] = []
        self.set_refs: list | array = []    # run-wide value indexes (`value_base` + a position in `values`)
        self.deleted: list[tuple] = []      # (delta row, name) of names a delta unbinds
        self.return_event: list | array = []
        self.return_ref: list | array = []  # run-wide value index of each return's value
        self.exceptions: list[tuple] = []   # (event, {"type", "message"})
        self.helpers: list[tuple] = []      # (event, function name) of setup helpers a shown frame called
        self.stdout: list[tuple] = []       # (event, text, stream)
        self.ended: list[int] = []          # frames whose last event is in this chunk
        self.values: list = []              # previews, and numbers kept raw
        self.value_base = 0                 # run-wide value index of values[0]
        self.sealed = False
        self.weight = 0                     # preview nodes its values show (set when it closes)

    def seal(self) -> None:
        """Pack the number columns into arrays, once (appending to them afterwards still works)."""
        if self.sealed:
            return
        # Column by column, and `sealed` last: an interrupt in the middle leaves a chunk that the next
        # call finishes (a column already packed is not a list any more).
        for name in _BYTE_COLUMNS:
            if type(getattr(self, name)) is list:
                setattr(self, name, bytearray(getattr(self, name)))
        for name in _INT_COLUMNS:
            values = getattr(self, name)
            if type(values) is list:
                column = array("i")
                column.fromlist(values)             # a little quicker than array("i", list) in Pyodide
                setattr(self, name, column)
        self.sealed = True


def delta_frames(chunk: Chunk, rows: int) -> list[int]:
    """The frame of each of the chunk's first `rows` deltas: its event's (a delta is written at the event
    of its frame, in the same chunk)."""
    start = chunk.start
    if rows == 0:
        return []
    if rows == 1:
        return [chunk.frames[chunk.delta_event[0] - start]]
    return list(itemgetter(*[event - start for event in chunk.delta_event[:rows]])(chunk.frames))


def full_flags(chunk: Chunk, rows: int) -> bytearray:
    """0/1 per delta of the chunk's first `rows`: 1 for a full snapshot."""
    full = bytearray(rows)
    for row in chunk.full_rows:
        if row < rows:
            full[row] = 1
    return full


_BYTE_COLUMNS = ("kinds",)
_INT_COLUMNS = ("lines", "frames", "delta_event", "delta_sets", "set_refs", "return_event", "return_ref")


MIN_EVENTS = 2   # the smallest table: one head and one tail chunk
CHUNK_WEIGHT_MIN = 1_000   # preview nodes: a chunk holds at least a couple of the biggest previews


class EventTable:
    """Head window + tail ring of chunks; `current` is the chunk being written.

    Both windows are bounded twice: in events (`max_events`, half each) and in preview nodes
    (`preview_nodes`, half each; a chunk's `weight`, set as it closes): a run whose every step makes a
    big preview keeps fewer events, never more memory."""

    def __init__(self, max_events: int, preview_nodes: int = PREVIEW_NODES) -> None:
        if max_events < MIN_EVENTS:
            raise ValueError(f"max_events must be at least {MIN_EVENTS}")
        self.chunk_size = max(1, min(4096, max_events // 16))
        total = max(2, -(-max_events // self.chunk_size))   # kept <= max_events rounded up to a chunk
        self.head_chunks = total // 2
        self.tail_chunks = max(1, total - self.head_chunks)   # including `current`
        # A chunk closes early once it holds this many preview nodes, so no one chunk is a window's worth.
        self.chunk_weight = max(CHUNK_WEIGHT_MIN, preview_nodes // 16)
        self.window_weight = preview_nodes // 2
        self.head_weight = self.tail_weight = 0
        self.head: list[Chunk] = []
        self.tail: deque[Chunk] = deque()
        self.current = Chunk(0)
        self.dropped = 0
        self.gap_after: int | None = None   # run-wide index of the last head event, once a gap exists
        self.in_tail = False                # past the head window: frames re-snapshot per chunk
        self.serial = 0                     # bumps with each new tail chunk
        self.head_last_frame = None         # frames with an id above it were created after the head

    def rotate(self, next_start: int, last_frame_id: int) -> list[int]:
        """Close the current chunk (full, or heavy), open the next; return frame ids now forgettable."""
        closing, forgettable = self.current, []
        closing.seal()
        if not self.in_tail:
            self.head.append(closing)
            self.head_weight += closing.weight
            if len(self.head) == self.head_chunks or self.head_weight >= self.window_weight:
                self.in_tail = True
                self.head_last_frame = last_frame_id
        else:
            self.tail.append(closing)
            self.tail_weight += closing.weight
            while len(self.tail) >= self.tail_chunks or (self.tail_weight > self.window_weight and len(self.tail) > 1):
                old = self.tail.popleft()
                self.tail_weight -= old.weight
                if self.gap_after is None:
                    self.gap_after = old.start - 1
                self.dropped += len(old.kinds)
                forgettable += [f for f in old.ended if f > self.head_last_frame]
        if self.in_tail:
            self.serial += 1
        self.current = Chunk(next_start)
        return forgettable

    def chunks(self) -> list[Chunk]:
        """Every kept chunk, sealed: for once the run is over (the current chunk is sealed too)."""
        self.current.seal()
        return [*self.head, *self.tail, self.current]

    def kept(self) -> int:
        return sum(len(c.kinds) for c in (*self.head, *self.tail, self.current))

    def index(self, run_index: int) -> int:
        """Run-wide event index -> index into the kept table (what the document uses)."""
        if self.gap_after is None or run_index <= self.gap_after:
            return run_index
        return run_index - self.dropped
