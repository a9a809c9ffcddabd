"""Functions that only assemble their arguments into a container: a feed dict built from placeholders
and arrays (`construct_feed_dict(features, support, labels, mask, placeholders)`, in the file or in a
project module it imports). Given the same values, such a call returns a container of the same
values, so a loop calling it with names bound before the loop binds the same value on every pass
(`flow.varying`'s *steady* calls). A function that calls anything else (a draw, a read, a method of an
object it is given), reads a global or yields is not one: its result may differ from call to call."""

from __future__ import annotations

import ast

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts
from greenlint.rules.host_made import ProjectFunctions
from greenlint.rules.syntax import Function, parameters

#: Builtins that make a container or a number of what they are given.
BUILDERS = frozenset({"dict", "list", "tuple", "set", "len", "range", "zip", "enumerate", "int", "float"})
#: What makes a function's result differ between calls whatever its arguments, or hides its body.
_OPAQUE = (ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal, ast.Lambda, ast.FunctionDef,
           ast.AsyncFunctionDef, ast.ClassDef)


class Assembled:
    """Whether a call of a file runs a function that only assembles its arguments (each name judged once)."""

    def __init__(self, facts: FileFacts):
        self.functions = ProjectFunctions(facts)
        self.known: dict[str, bool] = {}

    def __call__(self, call: ast.Call) -> bool:
        if not isinstance(call.func, ast.Name):
            return False
        name = call.func.id
        if name not in self.known:
            found = list(self.functions.named(name))
            self.known[name] = bool(found) and all(assembles(f) for f in found)
        return self.known[name]


def assembles(function: Function) -> bool:
    """*function* returns a value and only puts its parameters (their items and attributes) into
    containers it makes: its calls are BUILDERS and the methods that fill a container of its own
    (`feed_dict.update({...})`), its names its parameters, its own and those builtins."""
    if not isinstance(function, ast.FunctionDef) or function.decorator_list:
        return False
    given = set(parameters(function))
    made = {
        name
        for node in ast.walk(function)
        if isinstance(node, (ast.Assign, ast.For, ast.comprehension))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        for name in flow.targets(target)
    } - given
    returns = False
    for node in (n for statement in function.body for n in ast.walk(statement)):
        if isinstance(node, _OPAQUE):
            return False
        if isinstance(node, ast.Return):
            returns = returns or node.value is not None
        elif isinstance(node, ast.Call):
            func = node.func
            built = isinstance(func, ast.Name) and func.id in BUILDERS and func.id not in given | made
            filled = (
                isinstance(func, ast.Attribute)
                and func.attr in flow.FILLS
                and isinstance(func.value, ast.Name)
                and func.value.id in made
            )
            if not (built or filled):
                return False
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in given | made | BUILDERS:
            return False
    return returns
