"""Ways out of a loop that the program's defaults switch off: the `if` a `break` or `return` sits
under is false when the program runs as it is (`if steps > 0 and counter == steps:` with `steps=-1`,
`if patience and bad >= patience:` with a default patience of 0)."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any, NamedTuple

from greenlint.rules.base import FileFacts, last_name
from greenlint.rules.defaults import DefaultValue, Origin, default_value, unset_default
from greenlint.rules.syntax import SCOPES, calls_of, cell_units, exits, leaves, parameters, scope_body, target_binds

#: Comparisons a loop's way out may test a default with (`steps > 0`, `budget is None`).
COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
#: The literals an identity test (`is`, `is not`) is known against: each is one object. Against any
#: other (`steps is 0.0`) its truth depends on which objects the interpreter made: unknown.
SINGLETONS = (None, True, False, Ellipsis)
#: Conversions that keep a parameter's value (`steps = int(steps)`).
KEEPS = frozenset({"int", "float"})


class DeadTest(NamedTuple):
    """The test a way out of a loop waits on, false with the program's defaults."""

    test: str
    name: str
    value: object
    where: str


def dead_ways(facts: FileFacts, loop: ast.AST, cell: int | None) -> list[DeadTest] | None:
    """The tests the loop's ways out (`exits`) wait on, each false with the program's defaults; None
    where a way out may be taken. An empty list: the loop has no way out at all."""
    found = [_false_by_default(facts, way, loop, cell) for way in exits(loop) if not _drained(facts, way, cell)]
    ways = [way for way in found if way is not None]
    return ways if len(ways) == len(found) else None


def _drained(facts: FileFacts, way: ast.AST, cell: int | None) -> bool:
    """*way* is a `yield` of a generator the file names only to iterate it to its end: each use of
    its name is a call that a `for` loop with no way out of its own runs over (`for stats in
    learn(env):` and no `break`). Such a yield hands a value over and resumes: it ends nothing."""
    function = next((a for a in facts.ancestors(way, cell) if isinstance(a, SCOPES)), None)
    if not isinstance(way, (ast.Yield, ast.YieldFrom)) or not isinstance(function, ast.FunctionDef):
        return False
    calls = calls_of(facts, function, cell)
    named = [n for unit, _ in cell_units(facts) for n in facts.nodes(unit, ast.Name) if n.id == function.name]
    drained = [
        call for unit, call in calls
        if isinstance(loop := facts.parent(call, unit), ast.For) and loop.iter is call and not leaves(loop)
    ]
    return bool(calls) and len(drained) == len(calls) == len(named)


def _false_by_default(facts: FileFacts, way: ast.AST, loop: ast.AST, cell: int | None) -> DeadTest | None:
    """The test of an `if` between *loop* and its way out *way* (in that `if`'s body) that is
    false with the program's defaults; None where every such test may be true."""
    child = way
    for parent in facts.ancestors(way, cell):
        if parent is loop:
            return None
        if isinstance(parent, ast.If) and child in parent.body:
            dead = _false_test(facts, parent.test, cell)
            if dead is not None:
                return dead
        child = parent
    return None


def _false_test(facts: FileFacts, test: ast.expr, cell: int | None) -> DeadTest | None:
    """*test*, or one operand of its `and`, false with the defaults: a name (its truth) or a
    comparison of a name with a literal, the name holding a default (`default_value`) and never
    rebound in its function but by `int()`/`float()` of itself."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return next(filter(None, (_false_test(facts, v, cell) for v in test.values)), None)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in COMPARE:
        left, right = test.left, test.comparators[0]
        name, literal, swapped = (left, right, False) if isinstance(right, ast.Constant) else (right, left, True)
        if not isinstance(literal, ast.Constant):
            return None
        if type(test.ops[0]) in (ast.Is, ast.IsNot) and not any(literal.value is s for s in SINGLETONS):
            return None
        held = _default(facts, name, cell)
        if held is None:
            return None
        compare = COMPARE[type(test.ops[0])]
        try:
            true = compare(literal.value, held.value) if swapped else compare(held.value, literal.value)
        except TypeError:
            return None
        return None if true else DeadTest(ast.unparse(test), ast.unparse(name), held.value, held.where)
    held = _default(facts, test, cell)
    if held is None or held.value:
        return None
    return DeadTest(ast.unparse(test), ast.unparse(test), held.value, held.where)


def _default(facts: FileFacts, expr: ast.expr, cell: int | None) -> DefaultValue | None:
    """The default a name or an option (`args.steps`; None for an option defined with no default) holds
    when the program runs (a library's included: a loop its callers enter with its defaults never ends
    either); None for a literal, where it is unknown, or where the function binding the name rebinds it."""
    if not isinstance(expr, (ast.Name, ast.Attribute)):
        return None
    held = default_value(facts, expr, cell) or unset_default(facts, expr)
    if held is None or held.origin is Origin.LITERAL:
        return None
    if isinstance(expr, ast.Name):
        function = next(
            (a for a in facts.ancestors(expr, cell) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None
        )
        if function is not None and expr.id in parameters(function) and _rebound(function, expr.id):
            return None
    return held


def _rebound(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """*function* binds *name* again, other than `name = int(name)` (or `float`)."""
    for node in scope_body(function):
        if isinstance(node, ast.Assign) and any(target_binds(t, name) for t in node.targets):
            value = node.value
            keeps = (
                len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(value, ast.Call)
                and last_name(value.func) in KEEPS
                and len(value.args) == 1
                and isinstance(value.args[0], ast.Name)
                and value.args[0].id == name
            )
            if not keeps:
                return True
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            if target_binds(node.target, name):
                return True
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            if target_binds(node.optional_vars, name):
                return True
    return False
