"""Work a training loop runs every few steps (GL311's saves, GL321's figures): where a loop runs a
call, made there or in a function of the file it calls; the period of the `if ... % N == 0` that gates
it, N known with the program's defaults; the training steps the loop's own body runs, and those
one pass runs through the file's functions it calls; and whether a call runs after every one of
them (GL311's saves, GL203's host reads)."""

from __future__ import annotations

import ast

from greenlint.rules.base import FileFacts, last_name
from greenlint.rules.defaults import known_value
from greenlint.rules.site import Site, method
from greenlint.rules.syntax import (
    LOOPS,
    SCOPES,
    STEP_METHODS,
    calls_of,
    gate_divisor,
    in_unguarded_step_loop,
    innermost_loop,
    instance_calls,
    is_method,
    located_definitions,
    own_body,
    own_loops,
    period_divisor,
    scope_body,
)


def call_points(
    facts: FileFacts, call: ast.Call, cell: int | None, depth: int = 2
) -> list[tuple[int | None, ast.Call]]:
    """Where a loop runs *call*: the call itself when a loop of its function is around it, else
    the calls of its function (one that always runs it: no `if` of its own around it but one on
    a parameter true with the program's defaults, `if ckpt:` of `def save(..., ckpt=True)`) that
    the file makes in a loop (`save(...)`; a method as `self.save(...)`), or, up to *depth* calls
    further out, where a loop runs those calls (a helper nested in the method the loop calls). A
    loop of the function that runs no training step (over a grid's images, the models saved) is
    the function's own work: the loops that call the function are looked for too."""
    loops = own_loops(facts, call, cell)
    if any(_runs_step(facts, loop, cell) for loop in loops):
        return [(cell, call)]
    here = [(cell, call)] if loops else []
    function = None
    child: ast.AST = call
    for parent in facts.ancestors(call, cell):
        if isinstance(parent, ast.If) and child in parent.body and _on_by_default(facts, parent.test, cell):
            child = parent
            continue
        if isinstance(parent, (ast.If, ast.IfExp, ast.Try, ast.ExceptHandler, ast.Lambda, ast.ClassDef)):
            return here
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = parent
            break
        child = parent
    if function is None:
        return here
    found = here
    for unit_cell, node in [*calls_of(facts, function, cell), *instance_calls(facts, function, cell)]:
        if own_loops(facts, node, unit_cell):
            found.append((unit_cell, node))
        elif depth > 0:
            found.extend(call_points(facts, node, unit_cell, depth - 1))
    return list({id(node): (unit_cell, node) for unit_cell, node in found}.values())  # two paths to one call


def _on_by_default(facts: FileFacts, test: ast.expr, cell: int | None) -> bool:
    """`if ckpt:` where `ckpt` is a parameter of the function around it that is true with the
    program's defaults (its default, no call passing another value)."""
    function = next((p for p in facts.ancestors(test, cell) if isinstance(p, SCOPES)), None)
    if not isinstance(test, ast.Name) or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    arguments = function.args
    if test.id not in {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}:
        return False
    return known_value(facts, test, cell)[0] is True


def loop_period(facts: FileFacts, point: ast.Call, cell: int | None) -> tuple[int, str, ast.AST] | None:
    """(divisor, where its value comes from, the loop) of the `if` between the call and the
    innermost loop around it that runs it on 1 in N passes (`gate_divisor`: in the body of `if
    step % N == 0:`, `np.mod(step, N) == 0`, or after `if step % N != 0: continue`), N known with
    the program's defaults; None otherwise."""
    child: ast.AST = point
    for parent in facts.ancestors(point, cell):
        if isinstance(parent, SCOPES):
            return None
        divisor = gate_divisor(parent, child)
        if divisor is not None:
            value, source = (divisor, "") if isinstance(divisor, int) else known_value(facts, divisor, cell)
            loops = [parent] if isinstance(parent, LOOPS) else own_loops(facts, parent, cell)
            if isinstance(value, int) and not isinstance(value, bool) and loops:
                return value, source, loops[0]
            return None
        if isinstance(parent, LOOPS):
            return None
        child = parent
    return None


def steps_between(facts: FileFacts, loop: ast.AST, gated: ast.AST, cell: int | None) -> bool:
    """Whether the loop runs a training step on the passes a period's `if` skips: a step of its own
    body, or a call there of a function of the file that runs one (as `pass_steps` reads them),
    other than *gated* and not itself thinned out by a period (`loop_period`): in the `else` of the
    `if`, before its `continue`, or outside it."""
    for node in own_body(loop):
        if not isinstance(node, ast.Call) or node is gated:
            continue
        site = facts.site_at(node, cell)
        trains = _is_step(site) if site is not None else bool(_called_steps(facts, node, cell, 2))
        if trains and loop_period(facts, node, cell) is None:
            return True
    return False


def always_due(facts: FileFacts, point: ast.AST, cell: int | None) -> str | None:
    """Why *point* runs on every pass of the loop around it although under `if`s that thin the
    passes out (`period_divisor`): each such `if` (its body, no other condition in its test) divides by a name or
    attribute that is 1 with the program's defaults (`if (counter - 1) % self.n_critic == 0:`,
    `--n_critic` 1), and nothing else between them gates it; that divisor and where its value
    comes from, for a message. None otherwise."""
    child, why = point, None
    for parent in facts.ancestors(point, cell):
        if isinstance(parent, LOOPS):
            return why
        if isinstance(parent, (*SCOPES, ast.IfExp, ast.ExceptHandler)):
            return None
        if isinstance(parent, ast.If):
            divisor = None if isinstance(parent.test, ast.BoolOp) else period_divisor(parent.test)
            if child not in parent.body or not isinstance(divisor, ast.expr) or _literal_residue(parent.test):
                return None
            value, source = known_value(facts, divisor, cell)
            if value != 1 or isinstance(value, bool):
                return None
            why = f"`{ast.unparse(parent.test)}` holds on every pass{source}"
        child = parent
    return None


def _literal_residue(test: ast.expr) -> bool:
    """`a % n == 3`: never true where n is 1 (a residue written as an expression, `n - 1`, is 0 then)."""
    return isinstance(test, ast.Compare) and any(
        isinstance(e, ast.Constant) and e.value != 0 for e in (test.left, *test.comparators)
    )


def training_steps(facts: FileFacts, loop: ast.AST, cell: int | None) -> list[Site]:
    """The training steps the loop's own body runs: the call sites of step methods, and those the
    analysis found to run a training step (a TF1 `Session.run` that fetches the optimizer's update,
    a `tf.function` whose traced body trains a model)."""
    found = []
    for node in own_body(loop):
        site = facts.site_at(node, cell) if isinstance(node, ast.Call) else None
        if site is not None and _is_step(site):
            found.append(site)
    return found


def pass_steps(facts: FileFacts, loop: ast.AST, cell: int | None, depth: int = 2) -> list[Site]:
    """The training steps one pass of the loop runs: those of its own body (`training_steps`), and
    those of each function of the file it calls there that runs one step a call (`train_step(x, y)`,
    `self.step(batch)` around a `Session.run` fetching the update): the steps of that function's
    own body, or, up to *depth* calls further in, of the functions it calls so. A function with a
    step in a loop of its own runs many a call (an epoch): it and the loop calling it are not
    followed, nor a name the file defines more than once, nor a method called on anything but
    `self` (`env.step(action)` is no call of the file's `Agent.step`)."""
    found = training_steps(facts, loop, cell)
    for node in own_body(loop):
        if isinstance(node, ast.Call) and facts.site_at(node, cell) is None:
            found.extend(_called_steps(facts, node, cell, depth))
    return found


def _called_steps(facts: FileFacts, call: ast.Call, cell: int | None, depth: int) -> list[Site]:
    """The training steps a call of a function of the file runs, where it runs one step a call
    (pass_steps); none otherwise."""
    defined = located_definitions(facts, call.func, cell)
    if len(defined) != 1:
        return []
    function, unit = defined[0]
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    on_self = (
        isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id == "self"
    )
    if is_method(facts, function, unit) != on_self or not on_self and not isinstance(call.func, ast.Name):
        return []  # `env.step(action)` is not the file's `Agent.step`
    if any(isinstance(n, LOOPS) and _runs_step(facts, n, unit) for n in scope_body(function)):
        return []
    found = training_steps(facts, function, unit)
    if depth > 0:
        for node in own_body(function):
            if isinstance(node, ast.Call) and node is not call and facts.site_at(node, unit) is None:
                found.extend(_called_steps(facts, node, unit, depth - 1))
    return found


def every_step(facts: FileFacts, site: Site, called: bool = False) -> bool:
    """The call runs after every training step of a loop: one calling a step method on the same
    model (`in_unguarded_step_loop`), or a call the analysis found to train that runs one step a
    call (`one_step`) on the same receiver (session); with *called*, also a step that a function
    of the file the loop calls runs (`pass_steps`: a step method, or a call that runs one step)."""
    if in_unguarded_step_loop(facts, site):
        return True
    loop, guarded = innermost_loop(facts, site)
    cell = site.callsite.span.cell
    if loop is None or guarded:
        return False
    steps = training_steps(facts, loop, cell)
    if any(step.repeats(same=("receiver",)) and one_step(facts, step, cell) for step in steps):
        return True
    inner = [s for s in pass_steps(facts, loop, cell) if all(s is not t for t in steps)] if called else []
    return any(
        step.repeats(same=("receiver",))
        and (method(step.api) in STEP_METHODS or one_step(facts, step, step.callsite.span.cell))
        for step in inner
    )


def one_step(facts: FileFacts, step: Site, cell: int | None) -> bool:
    """A call of *step* runs one training step: a TF1 graph run, or a traced function of the file
    with no loop in its body (`train_multiple_steps(it)` looping over `tf.range(n)` runs n)."""
    from greenlint.catalog.kinds import GRAPH_RUNS  # on first need: a warm run loads no catalog

    if step.api in GRAPH_RUNS:
        return True
    call = facts.node(step)
    defined = facts.functions_named(last_name(call.func)) if call is not None else ()
    return bool(defined) and not any(isinstance(n, LOOPS) for _, f in defined for n in ast.walk(f))


def _is_step(site: Site) -> bool:
    """The call site runs a training step (a step method, or what the analysis found to train)."""
    return site.work_value("step") == "training" or method(site.api) in STEP_METHODS


def _runs_step(facts: FileFacts, loop: ast.AST, cell: int | None) -> bool:
    """A training step runs in the loop's body, in it or in a loop nested there."""
    todo = [*getattr(loop, "body", ()), *getattr(loop, "orelse", ())]
    while todo:
        node = todo.pop()
        if isinstance(node, SCOPES):
            continue
        site = facts.site_at(node, cell) if isinstance(node, ast.Call) else None
        if site is not None and _is_step(site):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False
