"""TF1's training and evaluation loops written as one call, never imported: TF-slim's
`learning.train(train_op, logdir, number_of_steps=...)`, `evaluation.evaluate_once(..., eval_op=...,
num_evals=...)` and `evaluation.evaluation_loop(...)`, and `tf.contrib.training.train(train_op, logdir,
hooks=[...])` (tensorflow/contrib/slim/python/slim/learning.py, evaluation.py; contrib/training).

Each runs its op again and again in a session: listed there as what it runs, a TF1 `Session.run` of
that op (graphrun.py: the graph the op is computed by, on the batch its inputs hold), a training step
for a train driver whatever the op (`create_train_op(total_loss, optimizer)` makes it the loss run
after the optimizer's update), run as often as the call states: `number_of_steps` (at most: the global
step may start above zero), a literal `StopAtStepHook` among `hooks`, `num_evals` (at most: an input
that runs out ends it sooner) per checkpoint evaluated, `max_number_of_evaluations` checkpoints. Where
the call does not state it (`number_of_steps=None`, slim's default: until the process is stopped;
`evaluation_loop` waits for new checkpoints with no end), the runs are unknown and the figure is one
step's, a floor. Checkpoints and summaries written on a timer are not counted here.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from greenlint.analysis.features import argument_values
from greenlint.analysis.runs import UNKNOWN, UPPER, Local
from greenlint.analysis.values import Const, Inst, Seq

#: TF-slim's own package (TF1's contrib without TensorFlow's contrib).
PACKAGE = "tf_slim"
#: The modules the drivers are reached by: TF1's contrib (and slim's own sources), the `tf_slim` package.
PREFIXES = ("tensorflow.contrib.slim.", "tensorflow.contrib.training.", f"{PACKAGE}.")
#: What a driver's step is listed as.
STEP = "tensorflow.compat.v1.Session.run"
STOP_HOOK = "StopAtStepHook"


class Driver(NamedTuple):
    """A driver: its parameters in order, the one holding the op it runs, whether a run of it is a
    training step, and the keywords counting its runs with their defaults (a product; None: no end)."""

    params: tuple[str, ...]
    op: str
    training: bool
    counts: tuple[tuple[str, int | None], ...]


#: The drivers by the last two parts of their path.
DRIVERS = {
    "learning.train": Driver(
        (
            "train_op",
            "logdir",
            "train_step_fn",
            "train_step_kwargs",
            "log_every_n_steps",
            "graph",
            "master",
            "is_chief",
            "global_step",
            "number_of_steps",
        ),
        "train_op",
        True,
        (("number_of_steps", None),),
    ),
    "training.train": Driver(("train_op", "logdir", "master", "is_chief", "scaffold", "hooks"), "train_op", True, ()),
    "evaluation.evaluate_once": Driver(
        ("master", "checkpoint_path", "logdir", "num_evals", "initial_op", "initial_op_feed_dict", "eval_op"),
        "eval_op",
        False,
        (("num_evals", 1),),
    ),
    "evaluation.evaluation_loop": Driver(
        (
            "master",
            "checkpoint_dir",
            "logdir",
            "num_evals",
            "initial_op",
            "initial_op_feed_dict",
            "init_fn",
            "eval_op",
            "eval_op_feed_dict",
            "final_op",
            "final_op_feed_dict",
            "summary_op",
            "summary_op_feed_dict",
            "variables_to_restore",
            "eval_interval_secs",
            "max_number_of_evaluations",
        ),
        "eval_op",
        False,
        (("num_evals", 1), ("max_number_of_evaluations", None)),
    ),
}
#: `create_train_op(total_loss, optimizer, ...)` (slim's learning and contrib.training): the loss, run after
#: the optimizer's update of the variables it is given (`variables_to_train`, else every trainable one).
CREATE_TRAIN_OP = "create_train_op"


def _key(path: str) -> str | None:
    """The last two parts of *path* where it is reached by a driver module's prefix, else None."""
    if not path.startswith(PREFIXES):
        return None
    parts = path.split(".")
    return ".".join(parts[-2:])


def driver(path: str) -> tuple[str, Driver] | None:
    """The driver *path* names (`tensorflow.contrib.slim.learning.train`), with its name; None otherwise."""
    key = _key(path)
    return (key, DRIVERS[key]) if key in DRIVERS else None


def creates_train_op(path: str) -> bool:
    """Whether *path* names `create_train_op` (slim's `learning`, `tf.contrib.training`)."""
    return _key(path) in ("learning." + CREATE_TRAIN_OP, "training." + CREATE_TRAIN_OP)


def train_op_inputs(args: list, keywords: list) -> tuple[Any, Any, dict]:
    """`create_train_op`'s loss, its optimizer, and what an optimizer's update is given of its other
    arguments: the variables it trains (`var_list`, where given), the global step it moves (where given;
    left out, the graph's)."""
    named = argument_values(
        ["total_loss", "optimizer", "global_step", "update_ops", "variables_to_train"], args, keywords
    )
    given = {"var_list": None} if "variables_to_train" in named else {}
    if "global_step" in named:
        given["global_step"] = named["global_step"]
    return named.get("total_loss"), named.get("optimizer"), given


def named(found: Driver, args: list, keywords: list) -> dict:
    """The driver's arguments by parameter name."""
    return argument_values(list(found.params), args, keywords)


def runs(name: str, found: Driver, given: dict, spread: bool) -> tuple[Local, str, str | None]:
    """How often the driver *name* runs its op per call (*given*: its arguments by name; *spread*: a
    `**kwargs` not known among them), why, and where a count is None (slim's default for the steps),
    which count makes it run until the process is stopped (`number_of_steps None: its default`)."""
    if not found.counts:
        return (*hook_steps(given.get("hooks")), None)
    count, parts, options = 1, [], []
    for key, default in found.counts:
        value = given[key] if key in given else None if spread else Const(default)
        if type(value) is Const and value.value is None:  # (slim's default for the steps: no end)
            stated = f"the default of --{value.option}" if value.option else "given" if key in given else "its default"
            endless = f"{key} None: {stated}"
            return Local(None, UNKNOWN), f"{name} runs it until the process is stopped ({endless})", endless
        if type(value) is not Const or not (type(value.value) is int and value.value > 0):
            return Local(None, UNKNOWN), f"{name} runs it as often as its {key} says, not a count known here", None
        count *= value.value
        options.append(value.option)
        parts.append(f"{key}={value.value}" if key in given else f"{key}'s default, {value.value}")
    return (
        Local(count, UPPER, counted=", ".join(o for o in options if o)),
        f"{name} runs it at most {count} times ({', '.join(parts)})",
        None,
    )


def hook_steps(hooks: Any) -> tuple[Local, str]:
    """How many steps a monitored training given *hooks* runs, and why: a `StopAtStepHook`'s literal
    `num_steps` (or `last_step`: at most, the global step may start above zero), else unknown."""
    for hook in hooks.items if type(hooks) is Seq else ():
        if type(hook) is not Inst or not hook.cls.endswith("." + STOP_HOOK):
            continue
        init = hook.meta.get("init") or {}
        for key in ("num_steps", "last_step"):
            count = init.get(key)
            if type(count) is int and not isinstance(count, bool) and count > 0:
                return Local(count, UPPER), f"until its StopAtStepHook's {key}={count}"
        return Local(None, UNKNOWN), "until its StopAtStepHook stops it, its step count not known here"
    return Local(None, UNKNOWN), "until a hook stops it, no StopAtStepHook of a literal step count given"


def note(name: str, training: bool, why: str) -> str:
    """The basis note of the step a driver *name* runs."""
    what = (
        "its train op: one training step of the graph the op is computed by"
        if training
        else "its eval op: one run of the graph the op is computed by"
    )
    return f"{name} runs {what}, listed as that session run; {why}"
