"""The slot variables an optimizer keeps for each weight it trains, which a save of its state writes
with the weights (a TF1 `Saver` of every variable, a compiled Keras model's `save`): TF1's optimizers
(their `_create_slots`) and Keras' (their `build`). A Keras option that adds a slot (`SGD(momentum=0.9)`,
`RMSprop(momentum=...)` or `centered=True`, `Adam(amsgrad=True)`) counts where given as a literal; an
optimizer not listed has no known count."""

from __future__ import annotations

from typing import Any

from greenlint.analysis.trainable import children
from greenlint.analysis.values import Const, Inst

#: TF1's optimizers: gradient descent none; Momentum's and Adagrad's accumulator; Adam's two moments,
#: Adadelta's two accumulators, RMSProp's mean square and momentum, Ftrl's accumulator and linear term.
TF1 = {
    f"tensorflow.compat.v1.train.{name}": count
    for name, count in (
        ("GradientDescentOptimizer", 0),
        ("MomentumOptimizer", 1),
        ("AdagradOptimizer", 1),
        ("AdamOptimizer", 2),
        ("AdadeltaOptimizer", 2),
        ("RMSPropOptimizer", 2),
        ("FtrlOptimizer", 2),
    )
}
#: Keras' optimizers at their defaults (SGD without momentum none; RMSprop its mean square; Adagrad
#: and Lion one accumulator; Adam, AdamW, Nadam, Adamax two moments, Adadelta and Ftrl two accumulators).
KERAS = {
    "SGD": 0,
    "RMSprop": 1,
    "Adagrad": 1,
    "Lion": 1,
    "Adam": 2,
    "AdamW": 2,
    "Nadam": 2,
    "Adamax": 2,
    "Adadelta": 2,
    "Ftrl": 2,
}
#: The options of a Keras optimizer that each add one slot where set (a momentum above 0, a true flag).
KERAS_EXTRA = {"SGD": ("momentum",), "RMSprop": ("momentum", "centered"), "Adam": ("amsgrad",), "AdamW": ("amsgrad",)}
KERAS_PATH = "tensorflow.keras.optimizers."


def keras_slots(optimizer: Any) -> int | None:
    """The slots per weight of the Keras optimizer a `compile` is given: a name (`"adam"`, as Keras'
    `optimizers.get` reads it) or an instance of a listed class; None otherwise."""
    if type(optimizer) is Const and isinstance(optimizer.value, str):
        name = next((k for k in KERAS if k.lower() == optimizer.value.lower()), None)
        return None if name is None else KERAS[name]
    if type(optimizer) is not Inst or not optimizer.cls.startswith(KERAS_PATH):
        return None
    name = optimizer.cls[len(KERAS_PATH) :]
    if name not in KERAS:
        return None
    init = optimizer.meta.get("init") or {}
    return KERAS[name] + len([o for o in KERAS_EXTRA.get(name, ()) if _adds(init.get(o))])


def _adds(value: object) -> bool:
    """An option's literal that adds a slot: true, or a number above 0 (a momentum)."""
    return value is True or (isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0)


#: The meta key of a Keras model's slots per weight, those of its last `compile`'s optimizer.
COMPILED = "optimizer_slots"


def compiled(meta: dict, optimizer: Any, conditional: bool) -> None:
    """A `compile` of the model of *meta* given *optimizer*: keep its slots per weight (`keras_slots`),
    none known under a branch or for an optimizer not listed."""
    found = None if conditional else keras_slots(optimizer)
    if found is None:
        meta.pop(COMPILED, None)
    else:
        meta[COMPILED] = found


#: The meta key of a Keras optimizer's trained model: the one whose trainable variables its
#: `apply_gradients` was given (`zip(grads, m.trainable_variables)`), None once given another's.
TRAINS = "trains"


def applied(meta: dict, model: Any) -> None:
    """An `apply_gradients` of the Keras optimizer of *meta* on *model*'s trainable variables (None:
    on variables not known): the model it trains, None where it trains more than one or not known."""
    kept = meta.get(TRAINS, model)
    meta[TRAINS] = model if kept is model and type(model) is Inst else None


def checkpoint_slots(models: list[Inst], tracked: list[Any]) -> tuple[int, Inst] | None:
    """(slots per weight, the model they are kept for) of the one Keras optimizer of a
    `tf.train.Checkpoint`'s *tracked* values that has a known count and trains one of its *models*
    (`applied`), none of whose layers the code freezes; None otherwise (none, or more than one)."""
    found = [(keras_slots(v), v.meta.get(TRAINS)) for v in tracked if type(v) is Inst and v.cls.startswith(KERAS_PATH)]
    if len(found) != 1:
        return None
    count, model = found[0]
    if count is None or type(model) is not Inst or not any(model is m for m in models):
        return None
    return (count, model) if _never_frozen(model.meta) else None


def _never_frozen(meta: dict) -> bool:
    """No `trainable` set on the layer or model of *meta*, nor on any it holds (all train)."""
    own = "trainable" not in meta and (meta.get("init") or {}).get("trainable", True) is True
    return own and all(_never_frozen(child) for child in children(meta))
