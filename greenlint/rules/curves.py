"""A training run's per-epoch curve that the program needs whole: the history a `fit()` returns, read
epoch by epoch over the fit's own epoch count (`[np.mean([h[i] for h in histories]) for i in
range(num_epochs)]`, a K-fold run averaged per epoch), or several runs' curves combined epoch by epoch
(`np.mean(histories, axis=0)`). Stopping the run early would leave a shorter
series and break that reading: the curve is the program's output, not a cost to cut."""

from __future__ import annotations

import ast

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, argument
from greenlint.rules.base_classes import FUNCTIONS
from greenlint.rules.syntax import COMPREHENSIONS, cell_units, enclosing


def curve_read_per_epoch(facts: FileFacts, fit: ast.Call, cell: int | None) -> bool:
    """Whether the history *fit* returns (bound by the statement around it), or anything made or filled from it
    (`scores = history.history["val_mae"]`, `runs.append(scores)`), is indexed by the variable of a loop or
    comprehension over `range(E)`, E written as the fit's `epochs` argument; or a loop fills a list with them,
    which the program combines epoch by epoch (`_stacked_per_epoch`)."""
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
    trees = [tree for _, tree in cell_units(facts)]
    runs = _runs_gathered(trees, curves)
    for tree in trees:
        for node in ast.walk(tree):
            if runs and _stacked_per_epoch(node, runs):
                return True
            for index in _epoch_variables(node, shown):
                if _indexes(node, index, curves):
                    return True
    return False


def _runs_gathered(trees: list[ast.Module], curves: frozenset[str]) -> frozenset[str]:
    """The lists a loop fills with a curve per pass (`histories.append(history.history["loss"])` in a
    loop over folds or seeds): several runs' curves."""
    found = set()
    for tree in trees:
        for loop in ast.walk(tree):
            if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
                continue
            for node in ast.walk(loop):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "append"
                    and isinstance(node.func.value, ast.Name)
                    and any(flow.names(a) & curves for a in node.args)
                ):
                    found.add(node.func.value.id)
    return frozenset(found)


def _stacked_per_epoch(node: ast.AST, runs: frozenset[str]) -> bool:
    """Whether *node* combines several runs' curves epoch by epoch: a call with `axis=0` on them
    (`np.mean(histories, axis=0)`, `np.array(histories).std(axis=0)`), which needs curves of one length."""
    if not isinstance(node, ast.Call) or not any(
        k.arg == "axis" and isinstance(k.value, ast.Constant) and k.value.value == 0 for k in node.keywords
    ):
        return False
    read = [*node.args, node.func.value] if isinstance(node.func, ast.Attribute) else list(node.args)
    return any(flow.names(expr) & runs for expr in read)


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
