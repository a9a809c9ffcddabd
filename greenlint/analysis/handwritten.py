"""Hand-written TF1 updates: a training step's op built without a `tf.train` optimizer.

Research code often writes its optimizer itself: `gs = tf.gradients(loss, params)`, then each
variable written from its gradient (`w.assign(w - lr * m / v)`, `tf.assign_sub(w, lr * g)`), the
writes grouped (`tf.group(*updates)`) and returned or kept (`self.train_op = ...`). Read from the syntax of a project function
alone: a *write* is an `assign`/`assign_add`/`assign_sub` (a variable's method or `tf.assign*`)
given a value derived from a gradient (`tf.gradients`, a tape's `gradient`, a `gradients` function
imported, such as a memory-saving one); an *update* is a write, or a name bound from writes (a
list they are appended to, the group of them). Each element of a `return` that is an update makes
what the function returns there a training step's op (graphrun.py: meta "train_op", the line of
that return), wherever it is returned to and run; so does an update assigned to an attribute. A write of something else (an exponential moving
average `avg.assign(p)`, a counter's `step.assign_add(1)`) is no training, nor are gradients only
read (their norm logged).
"""

from __future__ import annotations

import ast
from typing import Any

from greenlint.analysis import flow, graphrun, trees
from greenlint.analysis.values import Inst, Seq

#: TF1's gradients function, whose loss (`ys`) is the graph a hand-written update trains.
GRADIENTS = frozenset({"tensorflow.gradients", "tensorflow.compat.v1.gradients"})
#: The calls that give gradients: `tf.gradients(loss, params)`, a tape's `gradient(loss, params)`.
GRADIENT_CALLS = frozenset({"gradients", "gradient"})
#: The list methods that add an update to a list.
_ADDS = frozenset({"append", "extend"})


def _called(node: ast.AST) -> str | None:
    """The name a call calls (`gradients` for `tf.gradients(...)` and for `gradients(...)`), or None."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _calls_any(node: ast.AST, called: frozenset) -> bool:
    return any(_called(n) in called for n in trees.walk(node))


def _writes(node: ast.AST, gradients: frozenset) -> bool:
    """Whether *node* holds a write of a variable from a value derived from a gradient."""
    return any(
        isinstance(n, ast.Call) and _called(n) in flow.VARIABLE_WRITES
        and any(flow.names(a) & gradients or _calls_any(a, GRADIENT_CALLS) for a in n.args)
        for n in trees.walk(node)
    )


def _derived(seeds: frozenset, own: list[ast.AST]) -> frozenset:
    """*seeds* and the names the function's own assignments bind from them, transitively; a loop's or a
    comprehension's target from its iterable, item by item through `zip` (`for w, g in zip(params, grads)`
    derives `g` from `grads`, not `w`). An attribute assigned (`self.x = ...`) binds no name here."""
    found = set(seeds)
    changed = bool(found)
    while changed:
        changed = False
        for n in own:
            if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
                bound = _paired(n.target, n.iter, found)
            elif isinstance(n, (ast.Assign, ast.AugAssign)) and flow.names(n.value) & found:
                bound = _bound(n)
            else:
                continue
            if bound - found:
                found |= bound
                changed = True
    return frozenset(found)


def _paired(target: ast.AST, source: ast.AST, found: set) -> frozenset:
    """The names a loop's *target* binds from *found* names its iterable *source* reads: for `zip(a, b)`
    and a tuple target of as many items, each item from its own iterable."""
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id == "zip" \
            and isinstance(target, ast.Tuple) and len(target.elts) == len(source.args):
        return frozenset().union(*(flow.targets(t) for t, a in zip(target.elts, source.args) if flow.names(a) & found))
    return flow.targets(target) if flow.names(source) & found else frozenset()


def may_build_updates(text: str) -> bool:
    """Whether code parsed from *text* may call a gradients function (`GRADIENT_CALLS`, both named
    `gradient...`): the text's test that spares `updates_built` a walk of each function. A non-ASCII
    text's names may be normalised (NFKC): always."""
    return "gradient" in text or not text.isascii()


def updates_built(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, tuple[int, ...]]:
    """The statements of *func* that return a hand-written update or keep it in an attribute
    (`self.train_op = tf.group(*updates)`), by `id` of the node: the positions of the updates among a
    returned tuple's elements, (0,) for a value returned or kept alone."""
    if not any(type(n) is ast.Call and _called(n) in GRADIENT_CALLS for n in trees.walk(func)):
        return {}  # most functions, told by one walk of the tree (its own nodes are a slower one)
    own = [n for n in flow.own_nodes(func) if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    if not any(_called(n) in GRADIENT_CALLS for n in own):
        return {}
    seeds = frozenset().union(*(
        _bound(n) for n in own if isinstance(n, ast.Assign) and _calls_any(n.value, GRADIENT_CALLS)
    ), *(flow.targets(n.target) for n in own if isinstance(n, ast.For) and _calls_any(n.iter, GRADIENT_CALLS)))
    gradients = _derived(seeds, own)
    written: set[str] = set()
    for n in own:
        if isinstance(n, (ast.Assign, ast.AugAssign)) and _writes(n.value, gradients):
            written |= _bound(n)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _ADDS \
                and isinstance(n.func.value, ast.Name) and _writes(n, gradients):
            written.add(n.func.value.id)
    updates = _derived(frozenset(written), own)
    found = {}
    for n in own:
        if isinstance(n, ast.Return) and n.value is not None:
            items = n.value.elts if isinstance(n.value, ast.Tuple) else [n.value]
            positions = tuple(i for i, item in enumerate(items) if flow.names(item) & updates or _writes(item, gradients))
            if positions:
                found[id(n)] = positions if isinstance(n.value, ast.Tuple) else (0,)
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) \
                and (flow.names(n.value) & updates or _writes(n.value, gradients)):
            found[id(n)] = (0,)
    return found


def _bound(node: ast.Assign | ast.AugAssign) -> frozenset:
    """The names an assignment binds (none for an attribute or an item)."""
    return frozenset().union(*map(flow.targets, node.targets if isinstance(node, ast.Assign) else [node.target]))


def as_updates(
    value: Any, positions: tuple[int, ...], line: int, tupled: bool, losses: list, built_in: str | None
) -> Any:
    """*value*, returned at *line* (of the module *built_in*, where not the checked file), with its elements
    at *positions* (the whole of it, not *tupled*) made training steps' ops: their meta "train_op" the line,
    whatever else they were known to be, and "sym" the graph of the loss the function differentiates where
    it is one known (*losses*: the Syms of its `tf.gradients` losses)."""
    meta: dict = graphrun.built(line, built_in)
    if len(losses) == 1:
        meta["sym"] = losses[0]
    if not tupled:
        return _update(value, meta)
    if type(value) is not Seq:
        return value
    return Seq(tuple(_update(v, meta) if i in positions else v for i, v in enumerate(value.items)))


def _update(value: Any, meta: dict) -> Inst:
    if type(value) is Inst and value.meta.get("train_op") is not None:
        return value
    if type(value) is not Inst:
        return Inst(graphrun.OPERATION, "factory", dict(meta))
    return Inst(value.cls, value.how, {**meta, **value.meta, "train_op": meta["train_op"]})
