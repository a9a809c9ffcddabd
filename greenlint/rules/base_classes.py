"""The classes a class's bases name, in the file or in the project modules it imports them from
(read from their text, never imported): where a base class's loop drives a method its
subclass gives (a template method); and the other way, the file's classes derived from one."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts
from greenlint.rules.callbacks import imported_from_project, read_tree
from greenlint.rules.syntax import cell_units

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def classes_named(facts: FileFacts, base: ast.expr) -> list[ast.ClassDef]:
    """The classes a base class name stands for: those of the file, else those of the project
    modules the file imports it from."""
    if not isinstance(base, ast.Name):
        return []
    local = [n for unit, _ in cell_units(facts) for n in facts.nodes(unit, ast.ClassDef) if n.name == base.id]
    if local:
        return local
    found = []
    for path, name in imported_from_project(facts, base.id) or ():
        read = read_tree(path) if path is not None else None
        if read is not None:
            found += [n for n in read[1].body if isinstance(n, ast.ClassDef) and n.name == name]
    return found


def with_derived(facts: FileFacts, name: str) -> frozenset[str]:
    """The class *name* and the classes of the file derived from it, directly or not (by the names
    their bases give)."""
    classes = [node for unit, _ in cell_units(facts) for node in facts.nodes(unit, ast.ClassDef)]
    found = {name}
    grown = True
    while grown:
        grown = False
        for node in classes:
            if isinstance(node, ast.ClassDef) and node.name not in found \
                    and any(isinstance(base, ast.Name) and base.id in found for base in node.bases):
                found.add(node.name)
                grown = True
    return frozenset(found)
