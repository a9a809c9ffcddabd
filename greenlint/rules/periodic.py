"""Work a training loop runs every few steps (GL311's saves, GL321's figures): where a loop runs a
call, made there or in a function of the file it calls; the period of the `if ... % N` that gates
it, N known with the program's defaults; and the training steps the loop's own body runs."""

from __future__ import annotations

import ast

from greenlint.analysis.runs import remainder
from greenlint.rules.base import FileFacts, Site, method
from greenlint.rules.defaults import known_value
from greenlint.rules.syntax import LOOPS, SCOPES, STEP_METHODS, calls_of, own_body, own_loops


def call_points(facts: FileFacts, call: ast.Call, cell: int | None) -> list[tuple[int | None, ast.Call]]:
    """Where a loop runs *call*: the call itself when a loop of its function is around it, else
    the calls of its function (one that always runs it: no `if` of its own around it) that
    the file makes in a loop (`save(...)`; a method as `self.save(...)`)."""
    if own_loops(facts, call, cell):
        return [(cell, call)]
    function = None
    for parent in facts.ancestors(call, cell):
        if isinstance(parent, (ast.If, ast.IfExp, ast.Try, ast.ExceptHandler, ast.Lambda, ast.ClassDef)):
            return []
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = parent
            break
    if function is None:
        return []
    return [
        (unit_cell, node) for unit_cell, node in calls_of(facts, function, cell) if own_loops(facts, node, unit_cell)
    ]


def loop_period(facts: FileFacts, point: ast.Call, cell: int | None) -> tuple[int, str, ast.AST] | None:
    """(divisor, where its value comes from, the loop) of the `if ... % N ...` between the call
    and the innermost loop around it, N known with the program's defaults; None otherwise."""
    child: ast.AST = point
    for parent in facts.ancestors(point, cell):
        if isinstance(parent, (*LOOPS, *SCOPES)):
            return None
        if isinstance(parent, ast.If) and child in parent.body:
            for node in ast.walk(parent.test):
                found = remainder(node)  # `step % N`, `np.mod(step, N)`
                if found is not None:
                    value, source = known_value(facts, found[1], cell)
                    loops = own_loops(facts, parent, cell)
                    if isinstance(value, int) and not isinstance(value, bool) and loops:
                        return value, source, loops[0]
                    return None
        child = parent
    return None


def training_steps(facts: FileFacts, loop: ast.AST, cell: int | None) -> list[Site]:
    """The training steps the loop's own body runs: the call sites of step methods, and those the
    analysis found to run a training step (a TF1 `Session.run` that fetches the optimizer's update,
    a `tf.function` whose traced body trains a model)."""
    found = []
    for node in own_body(loop):
        site = facts.site_at(node, cell) if isinstance(node, ast.Call) else None
        if site is not None and (site.work_value("step") == "training" or method(site.api) in STEP_METHODS):
            found.append(site)
    return found
