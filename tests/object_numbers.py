"""Object numbers in previews (`"id"`, docs/trace-format.md) for tests that compare with a fresh preview."""
from __future__ import annotations


def unnumbered(value: object) -> object:
    """`value` (a preview, or any JSON part of one) without its object numbers: what a previewer with no
    numbering makes of the same object."""
    if isinstance(value, dict):
        return {key: unnumbered(part) for key, part in value.items() if key != "id"}
    if isinstance(value, list):
        return [unnumbered(part) for part in value]
    return value


def renumbered(base: dict, ids: list[int]) -> dict:
    """`base` with its object numbers replaced, in walk order, by `ids` (a `like` with `ids`, docs/trace-format.md)."""
    numbers = iter(ids)

    def walk(node: dict) -> dict:
        copy = dict(node)
        if "id" in node:
            copy["id"] = next(numbers)
        if "items" in node:
            copy["items"] = [walk(item) for item in node["items"]]
        if "entries" in node:
            copy["entries"] = [[walk(key), walk(value)] for key, value in node["entries"]]
        if "fields" in node:
            copy["fields"] = [[name, walk(value)] for name, value in node["fields"]]
        return copy
    copy = walk(base)
    assert next(numbers, None) is None, "more ids than numbers"
    return copy
