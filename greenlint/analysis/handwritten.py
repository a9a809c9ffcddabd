"""Hand-written TF1 updates: a training step's op built without a `tf.train` optimizer.

Research code often writes its optimizer itself: `gs = tf.gradients(loss, params)`, then each
variable written from its gradient (`w.assign(w - lr * m / v)`, `tf.assign_sub(w, lr * g)`), the
writes grouped (`tf.group(*updates)`) and returned. Read from the syntax of a project function
alone: a *write* is an `assign`/`assign_add`/`assign_sub` (a variable's method or `tf.assign*`)
given a value derived from a gradient (`tf.gradients`, a tape's `gradient`, a `gradients` function
imported, such as a memory-saving one); an *update* is a write, or a name bound from writes (a
list they are appended to, the group of them). Each element of a `return` that is an update makes
what the function returns there a training step's op (graphrun.py: meta "train_op", the line of
that return), wherever it is returned to and run. A write of something else (an exponential moving
average `avg.assign(p)`, a counter's `step.assign_add(1)`) is no training, nor are gradients only
read (their norm logged).
"""

from __future__ import annotations

import ast
from typing import Any

from greenlint.analysis import flow, trees
from greenlint.analysis.values import Inst, Seq

#: The calls that give gradients: `tf.gradients(loss, params)`, a tape's `gradient(loss, params)`.
GRADIENT_CALLS = frozenset({"gradients", "gradient"})
#: The calls that write a variable: its methods, and TF1's functions of the same names.
WRITES = frozenset({"assign", "assign_add", "assign_sub"})
#: The list methods that add an update to a list.
_ADDS = frozenset({"append", "extend"})
#: The class of the op a training step fetches (graphrun.OPERATION).
_OPERATION = "tensorflow.Operation"


def _called(node: ast.AST) -> str | None:
    """The name a call calls (`gradients` for `tf.gradients(...)` and for `gradients(...)`), or None."""
    if type(node) is not ast.Call:
        return None
    func = node.func
    return func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else None


def _calls_any(node: ast.AST, called: frozenset) -> bool:
    return any(_called(n) in called for n in trees.walk(node))


def _writes(node: ast.AST, gradients: frozenset) -> bool:
    """Whether *node* holds a write of a variable from a value derived from a gradient."""
    return any(
        _called(n) in WRITES and any(flow.names(a) & gradients or _calls_any(a, GRADIENT_CALLS) for a in n.args)
        for n in trees.walk(node)
    )


def updates_returned(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, tuple[int, ...]]:
    """The `return` statements of *func* that return a hand-written update, by `id` of the node: the
    positions of the updates among a returned tuple's elements, (0,) for a value returned alone."""
    own = [n for n in flow.own_nodes(func) if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    if not any(_called(n) in GRADIENT_CALLS for n in own):
        return {}
    seeds = frozenset().union(*(
        flow.targets(t) for n in own if type(n) is ast.Assign and _calls_any(n.value, GRADIENT_CALLS) for t in n.targets
    ), *(flow.targets(n.target) for n in own if type(n) is ast.For and _calls_any(n.iter, GRADIENT_CALLS)))
    gradients = flow.derived(seeds, func.body)
    gradients |= frozenset().union(*(  # `[p.assign_sub(lr * g) for p, g in zip(params, grads)]`
        flow.targets(n.target) for n in own if type(n) is ast.comprehension and flow.names(n.iter) & gradients
    ))
    written = set()
    for n in own:
        if type(n) in (ast.Assign, ast.AugAssign) and _writes(n.value, gradients):
            written |= flow.targets(n.target) if type(n) is ast.AugAssign else frozenset().union(*map(flow.targets, n.targets))
        elif type(n) is ast.Call and _called(n) in _ADDS and type(n.func.value) is ast.Name and _writes(n, gradients):
            written.add(n.func.value.id)
    updates = flow.derived(frozenset(written), func.body)
    found = {}
    for n in own:
        if type(n) is ast.Return and n.value is not None:
            items = n.value.elts if type(n.value) is ast.Tuple else [n.value]
            positions = tuple(i for i, item in enumerate(items) if flow.names(item) & updates or _writes(item, gradients))
            if positions:
                found[id(n)] = positions if type(n.value) is ast.Tuple else (0,)
    return found


def as_updates(value: Any, positions: tuple[int, ...], line: int, tupled: bool) -> Any:
    """*value*, returned at *line*, with its elements at *positions* (the whole of it, not *tupled*)
    made training steps' ops: their meta "train_op" the line, whatever else they were known to be."""
    if not tupled:
        return _update(value, line)
    if type(value) is not Seq:
        return value
    return Seq(tuple(_update(v, line) if i in positions else v for i, v in enumerate(value.items)))


def _update(value: Any, line: int) -> Inst:
    if type(value) is Inst and value.meta.get("train_op") is not None:
        return value
    if type(value) is not Inst:
        return Inst(_OPERATION, "factory", {"train_op": line})
    return Inst(value.cls, value.how, {**value.meta, "train_op": line})
