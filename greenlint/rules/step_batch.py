"""A Keras model's forward pass run again, in the pass of a training step, on the batch the step
trains it on: `model.evaluate(x, y)` beside `model.train_on_batch(x, y)`, or `model(x)` beside the
forward pass under a `GradientTape` (`logits = model(x, training=True)`), in the pass or in a function
of the file the pass calls on the batch (`train_step(x, y)`). Read by GL205, which
reports it, and GL314, which leaves such an `evaluate()` to it (it scores one batch, not a set)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, argument
from greenlint.rules.site import Site, is_keras_model_method, method
from greenlint.rules.syntax import (
    LOOPS,
    SCOPES,
    bound_between,
    definitions,
    enclosing,
    own_loops,
    parameters,
    positional_parameters,
    same_passes,
)

#: Keras methods that compute the loss and the compiled metrics of the batch they are given:
#: what `train_on_batch` returns of its own forward pass.
SCORES = ("evaluate", "test_on_batch")
#: Keras forward passes that give the model's outputs, which `train_on_batch` does not return.
OUTPUTS = ("__call__", "predict", "predict_on_batch")
#: Nodes that make an input's value anew each time it is read: not compared (`next(batches)`).
_FRESH = (ast.Call, ast.Await, ast.NamedExpr, ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.DictComp, ast.SetComp)


@dataclass(frozen=True)
class RepeatedPass:
    """A forward pass (*site*) of the model a training step (*step*) trains, on the step's batch."""

    site: Site
    step: Site
    #: The step gives what the forward pass computes: `train_on_batch`'s loss and metrics for
    #: `evaluate`/`test_on_batch`; the outputs a tape's forward pass computed for any of them.
    returned: bool
    #: The model and the inputs, as the code writes them.
    model: ast.expr
    given: ast.expr
    #: The pass's call of the file's function the step is taken in (`train_step(x, y)`), if not in the pass itself.
    via: ast.Call | None = None


def repeats(facts: FileFacts) -> list[RepeatedPass]:
    """The file's forward passes of a Keras model run on the batch a training step of the same
    model is given in the same pass (of a loop, or of a function that trains one step: no `if`
    between either and the function), the batch's names not bound again between them; a pass
    that an `if` thins out (`if step % 100 == 0:`) and the step does not share is not one."""
    return facts.once("step_batch.repeats", lambda: list(_gather(facts)))


def _gather(facts: FileFacts) -> Iterator[RepeatedPass]:
    steps = [(s, c) for s in facts.sites if (c := _step_call(facts, s)) is not None]
    if not steps:
        return
    for site in facts.sites:
        call = _forward_call(facts, site)
        if call is None or site.loop_runs == 1:
            continue
        model, given = _model(site, call), _batch(site, call)[0] or call
        found = next(((s, r) for s, c in steps if (r := _same_batch(facts, site, call, s, c)) is not None), None)
        if found is not None:
            yield RepeatedPass(site, found[0], found[1], model, given)
            continue
        called = _called_step(facts, site, call, steps)
        if called is not None and not (
            called[1].lineno < call.lineno and _steers(facts, call, site.callsite.span.cell)
        ):
            yield RepeatedPass(site, called[0], True, model, given, called[1])


def _called_step(
    facts: FileFacts, site: Site, call: ast.Call, steps: list[tuple[Site, ast.Call]]
) -> tuple[Site, ast.Call] | None:
    """A tape's step of *call*'s model taken in a function of the file (`train_step`, its whole
    body one step) that *call*'s pass calls on *call*'s inputs (`train_step(x, y)`, then
    `model(x)`): the step's site and that call; None where there is none."""
    cell, given = site.callsite.span.cell, _batch(site, call)[0]
    loops = own_loops(facts, call, cell)
    if given is None or _fresh(given) or not loops:
        return None
    for step, stepped in steps:
        function = _unconditional_scope(facts, stepped, step.callsite.span.cell)
        fed = _batch(step, stepped)[0]
        if (
            method(step.api) != "__call__"
            or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
            or not isinstance(fed, ast.Name)
            or not _same_model(facts, function, _model(step, stepped), _model(site, call), call, cell)
        ):
            continue
        params = positional_parameters(facts, function, step.callsite.span.cell)
        for node in facts.nodes(cell, ast.Call):
            if fed.id not in params or own_loops(facts, node, cell)[:1] != loops[:1]:
                continue
            passed = argument(node, fed.id, params.index(fed.id))
            if (
                passed is not None
                and ast.dump(passed) == ast.dump(given)
                and _calls(facts, node, function, cell)
                and same_passes(facts, call, node, cell)
                and not bound_between(facts, call, node, (given,), cell)
            ):
                return step, node
    return None


def _calls(
    facts: FileFacts, node: ast.Call, function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None
) -> bool:
    """*node* calls *function*: by its name (`train_step(x, y)`), or as `self.<name>(...)` in its class."""
    if isinstance(node.func, ast.Name):
        return any(f is function for f in definitions(facts, node.func, cell))
    func, owner = node.func, enclosing(facts, node, cell, (ast.ClassDef,))
    named = isinstance(func, ast.Attribute) and ast.unparse(func.value) == "self" and func.attr == function.name
    return named and isinstance(owner, ast.ClassDef) and function in owner.body


def _same_model(
    facts: FileFacts,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    inside: ast.expr,
    outside: ast.expr,
    call: ast.Call,
    cell: int | None,
) -> bool:
    """*inside* (read in *function*) and *outside* (read at *call*) are one model: a name *function*
    neither takes nor binds, or `self.<name>` in methods of one class."""
    if ast.dump(inside) != ast.dump(outside):
        return False
    if isinstance(inside, ast.Name):
        return inside.id not in parameters(function) and not any(
            isinstance(n, ast.Name) and n.id == inside.id and isinstance(n.ctx, ast.Store) for n in ast.walk(function)
        )
    owner = enclosing(facts, call, cell, (ast.ClassDef,))
    return isinstance(owner, ast.ClassDef) and function in owner.body


def _step_call(facts: FileFacts, site: Site) -> ast.Call | None:
    """The call of a Keras training step: `train_on_batch`, or a model's forward pass under a tape."""
    tape = is_keras_model_method(site.api, ("__call__",)) and site.work_value("step") == "training"
    return facts.node(site) if tape or is_keras_model_method(site.api, ("train_on_batch",)) else None


def _forward_call(facts: FileFacts, site: Site) -> ast.Call | None:
    """The call of a Keras forward pass that trains nothing."""
    if not is_keras_model_method(site.api, SCORES + OUTPUTS) or site.work_value("step") == "training":
        return None
    return facts.node(site)


def _model(site: Site, call: ast.Call) -> ast.expr:
    """The model a call runs: the callee of a call (`model(x)`), the receiver of a method."""
    return call.func.value if isinstance(call.func, ast.Attribute) and method(site.api) != "__call__" else call.func


def _batch(site: Site, call: ast.Call) -> tuple[ast.expr | None, ast.expr | None]:
    """The inputs and the targets a Keras call is given (no targets for a model's call)."""
    if method(site.api) == "__call__":
        return argument(call, "inputs", 0), None
    return argument(call, "x", 0), argument(call, "y", 1)


def _same_batch(facts: FileFacts, site: Site, call: ast.Call, step: Site, stepped: ast.Call) -> bool | None:
    """Whether the step gives what *call* computes (`RepeatedPass.returned`) where *call* runs its model
    on the step's batch in the step's pass; None where it does not."""
    cell = site.callsite.span.cell
    if step.callsite.span.cell != cell or ast.dump(_model(site, call)) != ast.dump(_model(step, stepped)):
        return None
    (given, targets), (fed, labels) = _batch(site, call), _batch(step, stepped)
    if given is None or fed is None or ast.dump(given) != ast.dump(fed) or _fresh(given):
        return None
    trained, scores = method(step.api) == "train_on_batch", method(site.api) in SCORES
    if trained and scores and (targets and ast.dump(targets)) != (labels and ast.dump(labels)):
        return None  # other targets: another loss
    if not _same_pass(facts, call, stepped, cell) or bound_between(facts, call, stepped, (given, targets), cell):
        return None
    if call.lineno > stepped.lineno and _steers(facts, call, cell):
        return None  # the updated model's figure decides what the pass does next
    return scores or not trained


def _fresh(expr: ast.expr) -> bool:
    """The input holds a call or a comprehension: its value may differ at each reading."""
    return any(isinstance(n, _FRESH) for n in ast.walk(expr))


def _same_pass(facts: FileFacts, call: ast.Call, stepped: ast.Call, cell: int | None) -> bool:
    """Both calls run on the same passes of the same loop (`same_passes`); or, outside loops, in the
    same function with no condition between either and it (a function that trains one step)."""
    loops = own_loops(facts, call, cell)
    if loops:
        return own_loops(facts, stepped, cell)[:1] == loops[:1] and same_passes(facts, call, stepped, cell)
    scopes = [_unconditional_scope(facts, node, cell) for node in (call, stepped)]
    return scopes[0] is not None and scopes[0] is scopes[1]


def _unconditional_scope(facts: FileFacts, node: ast.AST, cell: int | None) -> ast.AST | None:
    """The scope around *node* where nothing conditional or repeated lies between them; else None."""
    for parent in facts.ancestors(node, cell):
        if isinstance(parent, SCOPES):
            return parent
        if isinstance(parent, (*LOOPS, ast.If, ast.IfExp, ast.Try, ast.ExceptHandler, ast.BoolOp)):
            return None
    return None


def _steers(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The call's value decides what its loop (or function) does: the call, or a name bound from it
    there, is read in the test of an `if`, `while` or `assert` (a policy's KL divergence after its
    update that ends the updates, a line search's loss)."""
    body = next((a for a in facts.ancestors(call, cell) if isinstance(a, (*LOOPS, *SCOPES))), None)
    if body is None:
        return False
    statement = next(a for a in [call, *facts.ancestors(call, cell)] if isinstance(a, ast.stmt))
    stored = statement.targets if isinstance(statement, ast.Assign) else [getattr(statement, "target", None)]
    seeds = frozenset().union(*(flow.targets(t) for t in stored if t is not None))
    bound = flow.derived(seeds, getattr(body, "body", []))
    tests = [n.test for n in ast.walk(body) if isinstance(n, (ast.If, ast.While, ast.IfExp, ast.Assert))]
    return any(call in ast.walk(test) or flow.names(test) & bound for test in tests)
