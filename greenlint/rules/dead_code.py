"""Code that never runs: a function of a script that nothing calls. A rule whose claim needs the
code to run on a hot path (a loop's work repeated per pass) has nothing to claim there."""

from __future__ import annotations

import ast
import os

from greenlint.analysis.entry_runners import is_main_guard
from greenlint.analysis.project import project_index
from greenlint.rules.base import FileFacts
from greenlint.rules.base_classes import FUNCTIONS
from greenlint.rules.framework_calls import called_by_framework
from greenlint.rules.syntax import cell_units, uncalled


def never_runs(facts: FileFacts, node: ast.AST, cell: int | None) -> bool:
    """Whether *node* lies in a function that never runs: one of a script (a module that runs as
    the program under `if __name__ == "__main__":`, which no project module imports) that the file
    neither calls nor names (`syntax.uncalled`), nor a framework calls (`called_by_framework`); a
    method only of a class of no base outside the file (a `Thread`'s `run`, a gym `Env`'s `step` are
    called by their library), not a dunder (`__call__`, `__iter__`: called by Python's syntax).
    A library module's functions are its users' to call: never so."""
    if cell is not None or not _script(facts):
        return False
    for owner in facts.ancestors(node, cell):
        if not isinstance(owner, FUNCTIONS) or owner.name.startswith("__"):
            continue
        around = facts.parent(owner, cell)
        method = isinstance(around, ast.ClassDef)
        if isinstance(around, ast.ClassDef) and not _bases_in_file(facts, around):
            continue
        if uncalled(facts, owner.name, method) and not called_by_framework(facts, owner, cell):
            return True
    return False


def _script(facts: FileFacts) -> bool:
    """Whether the file runs as the program (a top-level `if __name__ == "__main__":`) and no project
    module imports it."""
    tree = facts.module(None)
    if tree is None or not any(isinstance(s, ast.If) and is_main_guard(s.test) for s in tree.body):
        return False
    return not project_index().callers(os.path.abspath(facts.path))


def _bases_in_file(facts: FileFacts, owner: ast.ClassDef) -> bool:
    """Whether each base of the class is `object` or a class the file defines (none: a plain class)."""
    defined = {c.name for _, tree in cell_units(facts) for c in ast.walk(tree) if isinstance(c, ast.ClassDef)}
    return all(isinstance(b, ast.Name) and (b.id == "object" or b.id in defined) for b in owner.bases)
