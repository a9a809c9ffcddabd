"""Functions handed to TF/Keras APIs that call them: how often each runs per call of the API.

A function given to an API runs where the API decides, not where it is named. Keras calls a
callback's hooks from the `fit` it is given to (`callbacks=[...]`): `on_train_begin`/`on_train_end`
once per fit, `on_epoch_begin`/`on_epoch_end` once per epoch, `on_batch_*`/`on_train_batch_*` once per
training batch (eager Python, each time); so do the functions a `LambdaCallback` is built from
(`on_epoch_end=f`) and a `LearningRateScheduler`'s schedule (once per epoch). `Dataset.map(f)` (and
`filter`, `flat_map`, `interleave`) traces f once, at its own line: f's Python runs then, its ops run
in the pipeline's graph per element where the pipeline is consumed (mapped.py prices them there).
A generator function given to `Dataset.from_generator` is called once per pass over the pipeline.

Each such handing is a call of the function (`Resolver.note_call`) made at the API's call, that many
times per run of it (`repeat`), with a note naming who calls it (`Place.via`): a fit's epochs and
steps where its work knows them, else an unknown count that says why.
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis.runs import EXACT, UNKNOWN, UPPER, Local

PER_FIT, PER_EPOCH, PER_BATCH = "fit", "epoch", "batch"

#: The hooks a `fit` calls on the callbacks it is given, and how often per fit.
HOOKS = {
    "on_train_begin": PER_FIT,
    "on_train_end": PER_FIT,
    "on_epoch_begin": PER_EPOCH,
    "on_epoch_end": PER_EPOCH,
    "on_batch_begin": PER_BATCH,
    "on_batch_end": PER_BATCH,
    "on_train_batch_begin": PER_BATCH,
    "on_train_batch_end": PER_BATCH,
}
#: The base class of Keras callbacks.
CALLBACK = "tensorflow.keras.callbacks.Callback"
#: Keras callbacks built from functions: constructor -> {its parameter: how often a fit calls the function given}.
CALLBACK_MAKERS = {
    "tensorflow.keras.callbacks.LambdaCallback": HOOKS,
    "tensorflow.keras.callbacks.LearningRateScheduler": {"schedule": PER_EPOCH},
}
#: A callback value's meta key: the functions it was built from, ((how often, UserFunc), ...).
HANDS = "handed_functions"
#: Dataset methods that trace the function given once, at their call: method -> its parameter.
TRACED_ONCE = {
    "tensorflow.data.Dataset.map": "map_func",
    "tensorflow.data.Dataset.filter": "predicate",
    "tensorflow.data.Dataset.flat_map": "map_func",
    "tensorflow.data.Dataset.interleave": "map_func",
}
#: The Dataset constructor that calls the generator function given once per pass over the pipeline.
FROM_GENERATOR = "tensorflow.data.Dataset.from_generator"
_EACH = "once per {each} of the `{api}` of line {line} where it runs eagerly, once per trace inside a graph"
_OP = "in Python each time the op of the `{api}` of line {line} runs (once per element inside a `Dataset.map`)"
#: APIs calling the functions given as often as their data or the graph holding them decide, which this
#: analysis does not count: API -> (its parameters naming them, who calls them, in words).
UNCOUNTED = {
    "tensorflow.keras.layers.Lambda": (
        ("function",),
        "when the `{api}` layer of line {line} is called on its inputs, and again each time Keras traces the model",
    ),
    "tensorflow.map_fn": (("fn",), _EACH.replace("{each}", "element")),
    "tensorflow.compat.v1.map_fn": (("fn",), _EACH.replace("{each}", "element")),
    "tensorflow.scan": (("fn",), _EACH.replace("{each}", "element")),
    "tensorflow.foldl": (("fn",), _EACH.replace("{each}", "element")),
    "tensorflow.while_loop": (("cond", "body"), _EACH.replace("{each}", "iteration")),
    "tensorflow.compat.v1.while_loop": (("cond", "body"), _EACH.replace("{each}", "iteration")),
    "tensorflow.py_function": (("func",), _OP),
    "tensorflow.numpy_function": (("func",), _OP),
    "tensorflow.compat.v1.py_func": (("func",), _OP),
}


def made_from(api: str, keywords: list, named: dict) -> tuple:
    """The functions a callback built by *api* (`CALLBACK_MAKERS`) is given, each with how often a fit
    calls it: ((per, value), ...), the values as the walk holds them (its caller keeps the project's)."""
    hooks = CALLBACK_MAKERS.get(api)
    if hooks is None:
        return ()
    given = {**named, **{key: value for key, value in keywords if key}}  # (`on_batch_end=` through **kwargs)
    return tuple((hooks[key], value) for key, value in given.items() if key in hooks)


def epochs_run(work: dict) -> tuple[int | None, bool, str]:
    """(epochs a fit runs, whether at most, why) from its work (`work.site_work`): its `epochs` less a
    literal `initial_epoch`; None where either is not known."""
    epochs = work.get("epochs")
    if epochs is None or not isinstance(epochs.value, int):
        return None, False, "its epochs are not known"
    start = work.get("initial_epoch")
    first = 0 if start is None else start.value
    if not isinstance(first, int):
        return None, False, "it resumes from an initial_epoch not known here"
    run = max(0, epochs.value - first)
    upper = epochs.bound == "upper"
    return run, upper, f"{'at most ' if upper else ''}{run} epoch{'s' if run != 1 else ''}"


def repeat(per: str, method: str, line: int, work: dict) -> tuple[Local, str]:
    """How often a function called *per* fit, epoch or batch of the `fit` (*method*) at *line* runs per
    run of that call, from the call's *work*, and who calls it, in words (`Place.via`)."""
    where = f"the `{method}` at line {line}"
    if per == PER_FIT:
        return Local(1, EXACT), f"once per call of {where}"
    if per == PER_EPOCH:
        count, upper, why = epochs_run(work)
        if count is None:
            return Local(None, UNKNOWN), f"once per epoch of {where}; {why}"
        return Local(count, UPPER if upper else EXACT), f"once per epoch of {where}, {why}"
    steps = work.get("steps")
    if steps is None or not isinstance(steps.value, int):
        return Local(None, UNKNOWN), f"once per batch of {where}; its batches are not known"
    upper = steps.bound == "upper"
    return Local(
        steps.value, UPPER if upper else EXACT
    ), f"once per batch of {where}, {'at most ' if upper else ''}{steps.value} batches"


def traced(api: str, line: int) -> tuple[Local, str]:
    """How often a `TRACED_ONCE` method at *line* runs the Python of the function given: once, and why."""
    name = api.rpartition(".")[2]
    return Local(1, EXACT), (
        f"traced once by `Dataset.{name}` at line {line}; its ops run in the pipeline's graph "
        "once per element, where the pipeline is consumed"
    )


def per_pass(line: int) -> tuple[Local, str]:
    """How often `Dataset.from_generator` at *line* calls its generator function: once per pass over the
    pipeline, how many not known here."""
    return Local(None, UNKNOWN), (
        f"once per pass over the `Dataset.from_generator` pipeline of line {line}; how many passes is not known here"
    )


def uncounted(api: str, named: dict, line: int) -> list[tuple[Any, tuple[Local, str]]]:
    """The functions an `UNCOUNTED` API at *line* is given (as the walk holds them), each with an unknown
    count and who calls it, in words."""
    params, how = UNCOUNTED[api]
    via = how.format(api=f"tf.{api.rpartition('.')[2]}" if "layers" not in api else "Lambda", line=line)
    return [(named[p], (Local(None, UNKNOWN), via)) for p in params if p in named]


def unseen_hook(name: str, cls: str) -> str:
    """The run note of the hook *name* of the callback class *cls* where no `fit` given it is seen: who calls it."""
    per = {PER_FIT: "call", PER_EPOCH: "epoch", PER_BATCH: "batch"}[HOOKS[name]]
    return f"{name} is a Keras callback's hook: it runs once per {per} of each `fit` given an instance of `{cls}`, none seen in this file"
