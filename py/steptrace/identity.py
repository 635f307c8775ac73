"""Object numbers: which object a container or instance in a preview is, run-wide (the memory picture).

A preview node of a list, dict, set, deque, tuple that can change, or instance carries `"id": n`, the
object's number. The same number is the same object, at every step and from every place that reaches it;
a number is never given to another object. CPython hands a freed object's address (`id`) to the next
object it makes, and a recorder may keep no object of the program's alive, so an address alone proves
nothing. Two rules tell a new object at an old address:

- **An object a weak reference can follow** (instances, sets, deques, functions): the weak reference says
  whether the numbered object is still the one at that address. Its number lasts while it lives, seen or
  not (a linked list's far nodes keep theirs while a loop walks past them).
- **Any other** (list, dict, tuple, an instance with `__slots__` and no `__weakref__`): its number lasts
  while something the recorder watches reaches it: a local of a live frame at that frame's latest look, or
  a numbered object that is itself reached, through the items its preview shows. Each preview states
  what its node reaches (`link`), each frame what its names hold (`hold`, `let_go`); what nothing reaches
  once a look is over is let go (`settle`), and its address may then be numbered again.

So an object that no look saw die and that leaves everything watched keeps nothing: seen again, it gets a
new number (wrong only the safe way: one object, two numbers over time). What no look can tell: an object
freed and another made at its address within one line, reached where the first was, keeps the number
(`a = None; a = [1]` on one line); a cycle of lists or dicts the program drops keeps its addresses numbered
until the run ends. Nothing here calls the program's code: types are compared by identity, the
weak-reference slot is read through `type`'s own descriptor.
"""
from __future__ import annotations

import weakref

# Captured at import: a lesson may rebind the builtins.
from builtins import id, len, tuple, type

_weakref_offset = type.__dict__["__weakrefoffset__"].__get__
_ref = weakref.ref


class ObjectNumbers:
    """The numbers given so far, what each numbered object reaches, and how often each is reached.

    `entries`: number -> [address, type id, weak reference | None, times reached, numbers it reaches].
    `bound`: address -> the number the object there has now."""

    __slots__ = ("entries", "bound", "next", "pending", "died", "_by_ref", "_callback", "__weakref__")

    def __init__(self) -> None:
        self.entries: dict[int, list] = {}
        self.bound: dict[int, int] = {}
        self.next = 1
        self.pending: list[int] = []      # numbers that may be reached by nothing: looked at by `settle`
        self.died: list[int] = []         # numbers whose objects died (`_died`), not yet let go
        self._by_ref: dict[int, int] = {}   # id of a weak reference -> its number
        self._callback = _died_callback(self)

    def number(self, value: object) -> int:
        """The number of `value`, a container or instance being previewed now; a new one when its address
        is unnumbered, or numbered for another object (another type, or a weak reference gone or elsewhere)."""
        key = id(value)
        number = self.bound.get(key)
        if number is not None:
            entry = self.entries[number]
            ref = entry[2]
            if entry[1] == id(type(value)) and (ref is None or ref() is value):
                return number
            self._retire(number)
        number = self.next
        self.next = number + 1
        cls = type(value)
        ref = _ref(value, self._callback) if _weakref_offset(cls) else None
        if ref is not None:
            self._by_ref[id(ref)] = number
        self.entries[number] = [key, id(cls), ref, 0, ()]
        self.bound[key] = number
        if ref is None:             # (one a weak reference follows waits for `link` to reach something)
            self.pending.append(number)
        return number

    def peek(self, value: object) -> int | None:
        """The number `value` has now, or None; gives none (a change check asks: a preview showing another
        number is stale)."""
        number = self.bound.get(id(value))
        if number is None:
            return None
        entry = self.entries[number]
        ref = entry[2]
        if entry[1] != id(type(value)) or ref is not None and ref() is not value:
            return None
        return number

    def link(self, number: int, reaches: tuple, whole: bool = True) -> None:
        """`number`'s preview was just built showing the numbered objects `reaches` among its items: all of
        them (`whole`), or only the first few (a preview's node budget ran out: what it did not reach may
        still be held, as a fuller preview of the same object elsewhere shows). A node past the depth cap
        shows no items and says nothing."""
        entry = self.entries.get(number)
        if entry is None:
            return
        before = entry[4]
        if before == reaches:
            return
        if not whole:
            reaches = before + tuple([kid for kid in reaches if kid not in before])
            if len(reaches) == len(before):
                return
        entries = self.entries
        for kid in reaches:
            found = entries.get(kid)
            if found is not None:
                found[3] += 1
        entry[4] = reaches
        for kid in before:
            self._let_go(kid)
        if entry[3] <= 0 and reaches:
            self.pending.append(number)

    def hold(self, number: int) -> None:
        """A frame's name holds `number` (from its latest look on)."""
        entry = self.entries.get(number)
        if entry is not None:
            entry[3] += 1

    def let_go(self, number: int) -> None:
        """A frame's name no longer holds `number`: looked at by `settle`."""
        self._let_go(number)

    def _let_go(self, number: int) -> None:
        entry = self.entries.get(number)
        if entry is not None:
            entry[3] -= 1
            if entry[3] <= 0 and (entry[2] is None or entry[4]):    # (a weakly referenced one reaching
                self.pending.append(number)                         # nothing has nothing to let go)

    def settle(self) -> None:
        """After a look: let go of every number nothing reaches (weakly referenced objects keep theirs while
        they live, but what they reach is no longer held through them), and of every object that died."""
        entries = self.entries
        died = self.died
        while died:
            self._retire(died.pop())
        pending = self.pending
        while pending:
            number = pending.pop()
            entry = entries.get(number)
            if entry is None or entry[3] > 0:
                continue
            if entry[2] is not None and entry[2]() is not None:
                reaches, entry[4] = entry[4], ()
                for kid in reaches:
                    self._let_go(kid)
            else:
                self._retire(number)

    def _retire(self, number: int) -> None:
        """`number` is let go of for good: its address may be numbered again, what it reached is not held
        through it."""
        entry = self.entries.pop(number, None)
        if entry is None:
            return
        if entry[2] is not None:
            del self._by_ref[id(entry[2])]
        if self.bound.get(entry[0]) == number:
            del self.bound[entry[0]]
        for kid in entry[4]:
            self._let_go(kid)

    def _died(self, ref: object) -> None:
        """A numbered object died: its address is free at once (a change check must not take a new object
        there for it); the rest waits for `settle`. Runs inside the program's own freeing: only dict and
        list operations, no allocation of note, nothing of the program's."""
        number = self._by_ref.get(id(ref))
        if number is None:
            return
        entry = self.entries.get(number)
        if entry is not None and self.bound.get(entry[0]) == number:
            del self.bound[entry[0]]
        self.died.append(number)


def _died_callback(numbers: ObjectNumbers):
    """A weak reference's callback that holds the table weakly (a run's table dies with its recorder)."""
    table = _ref(numbers)

    def died(ref: object) -> None:
        found = table()
        if found is not None:
            found._died(ref)
    return died
