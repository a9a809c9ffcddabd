"""Which layers a training step trains: `trainable` as the code sets it, read where Keras reads it.

Keras 2 takes a model's trainable weights at `compile` (its transfer-learning guide: a change of
`trainable` counts from the next `compile`); Keras 3 when it traces the training step, at the first
training call after a `compile` (3.15's TensorFlow trainer: `compile` drops the traced
`train_function`, whose `train_step` reads `trainable_weights`). What trains is known where both
agree: `base.trainable = False`, or `layer.trainable = False` for each layer of
`model.layers[a:b]`, then `compile` and `fit` train the rest; `trainable = True` and a second
`compile` train the whole again, a change without one does not. A change between a `compile` and
the first training call (a GAN's discriminator frozen after its own `compile`, for the combined
model's) trains one thing in Keras 2 and another in Keras 3: unknown. Setting a model's
`trainable` sets each of its layers', and a model that is not trainable has no trainable weights
(Keras 3's `Layer.trainable_weights`), so a layer trains when it and every model holding it do.

Each layer's state is `True`, `False` or None where the code does not say it statically (a value
not a literal, an assignment under an `if` or `except`, a loop over layers that are not listed
here, an assignment in another function than the `compile`'s, or a layer set in two functions: a
function's body is walked once, whether and whenever it is called); `compile` keeps the state of
every layer it reaches (`compiled`). A custom training step traced by a `tf.function`
(`model(x, training=True)` under a `tf.GradientTape` whose `gradient` takes
`model.trainable_variables`) trains what `trainable` leaves in those weights at its first call,
which traces it (the weights are read then, and kept); its graph runs only the gradients its
outputs need. So a state is known there where the step's own function sets it, or one module-level
statement does before the module first runs the step (`taped`); a layer set twice, or a step the
module does not run itself (an API calls it), is unknown. An eager step is priced whole: its tape
differentiates what it recorded, a frozen layer's ops too (measured, TF 2.21 and Keras 3.15 on one
CPU core, six frozen 1024-wide Dense layers under a 1-unit head, 256 rows a step: eager 483 ms a
step whole, 528 ms frozen; traced 375 and 130 ms); so is a `fit` compiled with `run_eagerly`
(`EAGERLY`), and every training call of a module that may run its functions eagerly. A training step's
backward pass (`backward_flops`) takes, from the lowest layer that trains up to the loss, each
layer's input gradient (its forward FLOPs once more) and, for a layer that trains, its weight
gradient (once more again): twice the forward FLOPs where every layer trains
(work_energy.TRAINING_FLOPS = 3 in all), the forward pass alone where none does.
"""

from __future__ import annotations

import ast
from typing import Any

from greenlint.analysis.arrays import is_sym
from greenlint.analysis.values import Const, Inst

#: The meta key of the states a compiled model trains: id of a layer's or model's meta -> True/False/None
#: (None itself until its first training call); and of the states at its `compile` until then.
COMPILED = "compiled_trainable"
AT_COMPILE = "trainable_at_compile"
#: The meta key of where a layer's `trainable` was set: the id of the function walked (id(None) at
#: module level), None once set in two.
SET_IN = "trainable_set_in"
#: The meta key of the line of the one statement that set a layer's `trainable`, None once set by two.
SET_AT = "trainable_set_at"
#: The meta key of whether a model's last `compile` may run its training step eagerly (`run_eagerly`
#: not a literal False): its tape then differentiates its frozen layers too.
EAGERLY = "compiled_eagerly"
#: The states of a model whose training is not known statically.
UNKNOWN: dict[int, bool | None] = {0: None}


def _trains_as_built(meta: dict, where: int) -> bool | None:
    """A layer's own state seen from the function *where*: the last `trainable = ...` set there (None
    if set in another), else the constructor's literal `trainable=`, else True (Keras' default)."""
    if "trainable" in meta:
        return meta["trainable"] if meta.get(SET_IN) == where else None
    given = (meta.get("init") or {}).get("trainable", True)
    return given if type(given) is bool else None


def children(meta: dict) -> list[dict]:
    """The metas of a model's layers known here (a layer list, a subclass's layers, a functional
    graph's layers and models), in the order they were added; [] for a layer or an unlisted model."""
    items = meta.get("layers") or meta.get("sub_layers") or ()
    found = [item.meta for item in items if type(item) is Inst and not is_sym(item)]
    graph = meta.get("graph")
    if graph is not None:
        found.extend(owner for _, owner in graph.params.values())
    return found


def set_trainable(meta: dict, state: bool | None, where: int, line: int) -> None:
    """`x.trainable = state` on a layer or model, in the function *where* at *line*: its layers' too,
    as Keras' setter does."""
    meta["trainable"], meta[SET_IN] = state, where if meta.get(SET_IN, where) == where else None
    meta[SET_AT] = line if SET_AT not in meta else None
    for child in children(meta):
        set_trainable(child, state, where, line)


def assigned(value: Any, conditional: bool) -> bool | None:
    """The state an assignment `x.trainable = value` sets: a literal bool outside a branch, else None."""
    if conditional or type(value) is not Const or type(value.value) is not bool:
        return None
    return value.value


#: The methods that trace a compiled model's training step.
TRAINING_METHODS = frozenset({"fit", "fit_generator", "train_on_batch"})


def seen(meta: dict, method: str, conditional: bool, where: int) -> None:
    """A method of the model of *meta* called in the function *where*: `compile` keeps what trains
    then (`AT_COMPILE`, with *where*), and its next training call what it trains from then on
    (`COMPILED`): those states where they are still the compile's as its function sees them, else
    unknown (module docstring); unknown too under a branch."""
    if method == "compile":
        meta[COMPILED], meta[AT_COMPILE] = (UNKNOWN, None) if conditional else (None, (where, compiled(meta, where)))
    elif method in TRAINING_METHODS and COMPILED in meta and meta[COMPILED] is None:
        at, states = meta.pop(AT_COMPILE, None) or (0, UNKNOWN)  # (none kept: unknown)
        meta[COMPILED] = states if not conditional and compiled(meta, at) == states else UNKNOWN


def compiled(meta: dict, where: int) -> dict[int, bool | None]:
    """The state of the model of *meta* and of every layer it reaches, seen from the function
    *where* (`_trains_as_built`), by id of their meta: what its `compile` trains (module docstring),
    the model's own among them. A model as a block (a base in a bigger model) whose layers do not
    all share its state is None: which of its FLOPs train is not known."""
    states: dict[int, bool | None] = {}

    def walk(node: dict, held: bool | None) -> set[bool | None]:
        own = _trains_as_built(node, where)
        state = None if own is None or held is None else own and held
        below = {state}
        for child in children(node):
            below |= walk(child, state)
        states[id(node)] = state if len(below) == 1 or node is meta else None  # (the compiled model: its own)
        return below

    walk(meta, True)
    return states


def taped(meta: dict, where: int, first: int | None) -> dict[int, bool | None]:
    """What a training step under a tape in the function *where* trains of the model of *meta*
    (module docstring): each state as `compiled` sees it from that function, else from the module
    where each layer the module sets was set by one statement before the line *first* (of the
    module's first statement that runs the step; None: not known)."""
    own, module = compiled(meta, where), compiled(meta, id(None))
    found: list[dict] = []

    def reach(node: dict) -> None:
        found.append(node)
        for child in children(node):
            reach(child)

    reach(meta)
    before = first is not None and all(node.get(SET_AT) is not None and node[SET_AT] < first for node in found
                                       if node.get(SET_IN) == id(None))
    return {key: module[key] if state is None and before else state for key, state in own.items()}


#: A model's attributes listing the weights its `trainable` flags leave in training.
TRAINABLE_WEIGHTS = frozenset({"trainable_variables", "trainable_weights"})


def differentiates(body: ast.AST, model: ast.expr) -> bool:
    """*body* takes a gradient, and every `gradient(target, sources)` call of it has as its sources
    the trainable weights of the model called as *model* (`tape.gradient(loss,
    model.trainable_variables)`): what the step's backward pass computes is what `trainable` says."""
    calls = [node for node in ast.walk(body) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == "gradient"]
    called = ast.dump(model)
    return bool(calls) and all(
        len(call.args) == 2 and isinstance(source := call.args[1], ast.Attribute)
        and source.attr in TRAINABLE_WEIGHTS and ast.dump(source.value) == called for call in calls)


def freezes(states: dict[int, bool | None]) -> bool:
    """Whether *states* (a `compile`'s) leave some layer out of training, all of them known."""
    return False in states.values() and None not in states.values()


def backward_flops(passes: list[tuple[int | None, float | None]], states: dict[int, bool | None],
                   weightless: frozenset[int] = frozenset()) -> float | None:
    """Backward FLOPs per sample of a network's *passes* (id of the layer's meta, or None for an op
    of no layer; its forward FLOPs per sample, None where unknown) in forward order, under a
    compile's *states*: each pass from the lowest that trains up once more its FLOPs (its input
    gradient), twice for one that trains (and its weight gradient); an op of no layer trains with
    the layers around it. A layer of no weights (*weightless*: a `Rescaling` in front of a frozen
    base, an activation) has no weight gradient, so it neither trains nor needs the gradient of its
    input. None where a pass's state is not known."""
    if any(key is not None and states.get(key, True) is None for key, _ in passes):
        return None
    trains = [key is None or (bool(states.get(key, True)) and key not in weightless) for key, _ in passes]
    lowest = next((i for i, (key, _) in enumerate(passes) if key is not None and trains[i]), len(passes))
    return float(sum(flops * (2 if trains[i] else 1) for i, (_, flops) in enumerate(passes)
                     if i >= lowest and flops is not None))


def trainable_params(weights: list[tuple[int, int]], states: dict[int, bool | None]) -> int:
    """The parameters a compile's *states* train, of *weights* (id of a layer's meta, its parameters)."""
    return sum(params for key, params in weights if states.get(key, True))


def listed_layers(model: Inst, bounds: tuple[int | None, int | None] | None) -> list[dict] | None:
    """The metas of `model.layers[a:b]` (*bounds*; None: the whole list) where the model's layers
    are listed here; the model's own meta alone for the whole list of a model whose layers are not
    (its layers all set is the model set); None otherwise."""
    listed = children(model.meta) if not model.meta.get("graph") else None  # a graph's order is not Keras'
    if listed:
        return listed if bounds is None else listed[slice(*bounds)]
    return [model.meta] if bounds is None and not model.meta.get("graph") else None


def loop_sets(node: ast.For) -> tuple[ast.expr, tuple[int | None, int | None] | None, bool | None] | None:
    """(the model, the literal bounds of its `layers[a:b]` or None for all, the state set) of a
    loop `for layer in model.layers[a:b]` whose body sets `layer.trainable`, None for any other
    loop; the state None where the body sets it under a condition or to a value not a literal, or
    the bounds are not literals (then of all its layers)."""
    it, target = node.iter, node.target
    cut = it.slice if isinstance(it, ast.Subscript) else None
    holder = it.value if isinstance(it, ast.Subscript) else it
    if not isinstance(target, ast.Name) or not isinstance(holder, ast.Attribute) or holder.attr != "layers" \
            or type(holder.value) not in (ast.Name, ast.Attribute):
        return None
    sets = [n for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Assign) and any(
        isinstance(t, ast.Attribute) and t.attr == "trainable" and isinstance(t.value, ast.Name)
        and t.value.id == target.id for t in n.targets)]
    if not sets:
        return None
    last = sets[-1].value
    plain = all(n in node.body and isinstance(n.value, ast.Constant) and type(n.value.value) is bool for n in sets)
    bounds = _literal_bounds(cut) if cut is not None else None
    known = plain and (cut is None or bounds is not None)
    state = last.value if known and isinstance(last, ast.Constant) else None
    return holder.value, bounds, state if type(state) is bool else None


def _literal_bounds(cut: ast.expr) -> tuple[int | None, int | None] | None:
    """(lower, upper) of a slice `[a:b]` of literal ints (either left out), None otherwise."""
    if not isinstance(cut, ast.Slice) or cut.step is not None:
        return None
    ends = []
    for end in (cut.lower, cut.upper):
        try:
            value = None if end is None else ast.literal_eval(end)
        except (ValueError, TypeError):
            return None
        if value is not None and type(value) is not int:
            return None
        ends.append(value)
    return ends[0], ends[1]
