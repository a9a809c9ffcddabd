"""The Keras callbacks a `fit(callbacks=...)` is given, read from the file: the list (or the
name of the list the file builds) and the call that made each element."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts
from greenlint.rules.syntax import last_name, units


def constructor(facts: FileFacts, node: ast.expr) -> ast.Call | None:
    """The call that made a callback: the element itself, or the one call a name in it is
    assigned from in the file (or notebook)."""
    if isinstance(node, ast.Call):
        return node
    if not isinstance(node, ast.Name):
        return None
    made = [
        a.value
        for tree in units(facts)
        for a in ast.walk(tree)
        if isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)
    ]
    return made[0] if len(made) == 1 and isinstance(made[0], ast.Call) else None


def listed(facts: FileFacts, node: ast.expr) -> list[ast.expr] | None:
    """The callbacks a `callbacks=` argument holds: a literal list or tuple (or a sum of them),
    or the name of one the file binds once, with what it `append`s, `extend`s or `+=`s to it;
    None where greenlint cannot tell (a call's result, a name bound twice)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return list(node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = listed(facts, node.left), listed(facts, node.right)
        return None if left is None or right is None else left + right
    if not isinstance(node, ast.Name):
        return None
    bound, added = [], []
    for tree in units(facts):
        for n in ast.walk(tree):
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets):
                bound.append(n.value)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == node.id:
                added.append(n.value)
            elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
                  and n.func.value.id == node.id and n.func.attr in ("append", "extend", "insert")):
                if n.func.attr == "extend" and n.args:
                    added.append(n.args[0])
                elif n.args:
                    added.append(ast.List(elts=[n.args[-1]], ctx=ast.Load()))
    if len(bound) != 1 or not isinstance(bound[0], (ast.List, ast.Tuple, ast.BinOp)):
        return None
    found = listed(facts, bound[0])
    for value in added:
        more = listed(facts, value) if not isinstance(value, ast.Name) else None
        if found is None or more is None:
            return None
        found += more
    return found


def file_class(facts: FileFacts, call: ast.Call) -> ast.ClassDef | None:
    """The class a callback's constructor call names, where the file (or notebook) defines it
    once, subclassing Keras' `Callback` directly (`class Evaluator(keras.callbacks.Callback)`):
    its whole behaviour is in the file. None for any other class (a library's, one defined twice,
    a subclass of another callback such as `EarlyStopping`)."""
    name = call.func.id if isinstance(call.func, ast.Name) else None
    if name is None:
        return None
    defined = [n for tree in units(facts) for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name]
    if len(defined) != 1 or not defined[0].bases:
        return None
    bases = defined[0].bases
    return defined[0] if all(last_name(base) == "Callback" for base in bases) else None
