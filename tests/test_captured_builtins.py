"""The recorder's functions use no builtin the program could have rebound.

A program may rebind any builtin (`builtins.len = ...`, tests/adversarial/programs/builtins_rebound*.py),
and the recorder's callbacks, previews, change checks and teardown run while that binding stands. So each
module of py/steptrace that runs during a program captures the builtins its functions use at import
(`from builtins import ...`). Three slipped through before (found one at a time by programs that happened to
rebind them); this finds the rest by reading the code.
"""
from __future__ import annotations

import builtins
import symtable
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "py" / "steptrace"
# (The command line and the scenario loader live in py/stepwise: they never run during a program's run.)
OUTSIDE_A_RUN: set[str] = set()
BUILTIN_NAMES = frozenset(dir(builtins))


def builtins_looked_up_at_call_time(source: str, filename: str) -> set[str]:
    """Builtin names that a function of the module reads as globals the module does not define."""
    module = symtable.symtable(source, filename, "exec")
    defined = {symbol.get_name() for symbol in module.get_symbols()
               if symbol.is_assigned() or symbol.is_imported() or symbol.is_namespace()}
    found: set[str] = set()

    def visit(table: symtable.SymbolTable) -> None:
        for child in table.get_children():
            if child.get_type() == "function":     # class bodies run at import, functions later
                for symbol in child.get_symbols():
                    name = symbol.get_name()
                    if symbol.is_referenced() and symbol.is_global() and name in BUILTIN_NAMES and name not in defined:
                        found.add(name)
            visit(child)

    visit(module)
    return found


def test_the_check_finds_a_builtin_read_by_a_function():
    source = "from builtins import len\n\ndef f(x):\n    return len(x) + sum(x) + [y for y in sorted(x)][0]\n"
    assert builtins_looked_up_at_call_time(source, "<test>") == {"sum", "sorted"}


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.glob("*.py") if p.name not in OUTSIDE_A_RUN),
                         ids=lambda p: p.name)
def test_a_module_that_runs_during_a_program_captures_its_builtins(path):
    missing = builtins_looked_up_at_call_time(path.read_text(encoding="utf-8"), str(path))
    assert not missing, f"{path.name}: add {', '.join(sorted(missing))} to its `from builtins import (...)`"
