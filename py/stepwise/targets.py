"""What a lesson can point at in a source file: functions, methods and classes, by dotted name.

A debugger or source block names a top-level function (`plan_trip`), a method
(`RouteCache.route`, nested classes too: `Outer.Inner.method`) or a class
(`RouteCache`: the class and all its methods). Lines are the real file's; a
target's first line is its first decorator, which is also what the interpreter
reports as the code's first line (`co_firstlineno`), so a recorded frame can be
matched to the definition it runs.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class Target:
    name: str     # dotted: "plan_trip", "RouteCache.route", "RouteCache"
    kind: str     # "function", "method" or "class"
    first: int    # first line, decorators included
    last: int


def first_line(node: ast.AST) -> int:
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def targets(tree: ast.Module) -> dict[str, Target]:
    """Every function, class and method a lesson may name, in source order."""
    found: dict[str, Target] = {}

    def visit(nodes: list[ast.stmt], prefix: str, in_class: bool) -> None:
        for node in nodes:
            if not isinstance(node, DEFINITIONS):
                continue
            name = prefix + node.name
            if isinstance(node, ast.ClassDef):
                kind = "class"
            else:
                kind = "method" if in_class else "function"
            found[name] = Target(name, kind, first_line(node), node.end_lineno)
            if isinstance(node, ast.ClassDef):
                visit(node.body, name + ".", True)

    visit(tree.body, "", False)
    return found


def spans(tree: ast.Module) -> list[list]:
    """[first, last, name] of every definition in the file, nested ones included, sorted: the page shows
    the smallest one around a paused frame (a lambda or genexpr shows its enclosing function), and names
    the function a breakpoint's line is in."""
    return sorted([first_line(node), node.end_lineno, node.name] for node in ast.walk(tree)
                  if isinstance(node, DEFINITIONS))
