"""A training run's per-epoch curve that the program needs whole: the history a `fit()` returns, read
epoch by epoch over the fit's own epoch count (`[np.mean([h[i] for h in histories]) for i in
range(num_epochs)]`, a K-fold run averaged per epoch). Stopping the run early would leave a shorter
series and break that reading: the curve is the program's output, not a cost to cut."""

from __future__ import annotations

import ast

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, argument
from greenlint.rules.base_classes import FUNCTIONS
from greenlint.rules.syntax import cell_units, enclosing

#: The nodes that bind a variable per pass: loops and comprehensions' generators.
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def curve_read_per_epoch(facts: FileFacts, fit: ast.Call, cell: int | None) -> bool:
    """Whether the history *fit* returns (bound by the statement around it), or anything made or filled from it
    (`scores = history.history["val_mae"]`, `runs.append(scores)`), is indexed by the variable of a loop or
    comprehension over `range(E)`, E written as the fit's `epochs` argument."""
    epochs = argument(fit, "epochs", 3)
    bound = facts.parent(fit, cell)
    if epochs is None or not isinstance(bound, ast.Assign):
        return False
    seeds = frozenset().union(*(flow.targets(t) for t in bound.targets))
    body = [statement for _, tree in cell_units(facts) for statement in tree.body]
    scope = enclosing(facts, fit, cell)
    if isinstance(scope, FUNCTIONS):
        body += scope.body
    curves = flow.derived(seeds, body, flow.assignments(body, steady=lambda _: True))
    shown = ast.dump(epochs)
    for _, tree in cell_units(facts):
        for node in ast.walk(tree):
            for index in _epoch_variables(node, shown):
                if _indexes(node, index, curves):
                    return True
    return False


def _epoch_variables(node: ast.AST, epochs: str) -> list[str]:
    """The names a loop or comprehension binds per pass of `range(E)`, E dumped as *epochs*."""
    if isinstance(node, (ast.For, ast.AsyncFor)):
        pairs = [(node.target, node.iter)]
    elif isinstance(node, COMPREHENSIONS):
        pairs = [(g.target, g.iter) for g in node.generators]
    else:
        return []
    return [
        target.id
        for target, over in pairs
        if isinstance(target, ast.Name)
        and isinstance(over, ast.Call)
        and isinstance(over.func, ast.Name)
        and over.func.id == "range"
        and len(over.args) == 1
        and ast.dump(over.args[0]) == epochs
    ]


def _indexes(node: ast.AST, index: str, curves: frozenset[str]) -> bool:
    """Whether *node* reads a curve, or an item a loop or comprehension in it takes from one, at `[index]`."""
    items = set(curves)
    for inner in ast.walk(node):
        if isinstance(inner, (ast.For, ast.AsyncFor)) and flow.names(inner.iter) & items:
            items |= flow.targets(inner.target)
        elif isinstance(inner, ast.comprehension) and flow.names(inner.iter) & items:
            items |= flow.targets(inner.target)
    return any(
        isinstance(inner, ast.Subscript)
        and isinstance(inner.slice, ast.Name)
        and inner.slice.id == index
        and flow.names(inner.value) & items
        for inner in ast.walk(node)
    )
