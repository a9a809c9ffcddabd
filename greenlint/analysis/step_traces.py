"""Which call of a model traces its step: the start-up a call pays for its model's layers.

Keras traces a compiled model's train, test and predict functions into graphs once each, at the
first call that runs them (`make_train_function` and its siblings keep the traced function on the
model), and `compile` drops all three. So a model's first `fit` (or `train_on_batch`) since its
`compile` pays the tracing of its training step, a second `fit` of the same model none; likewise
`evaluate` for the test function and `predict` for the predict one. A `fit` given validation data
(`validation_data`, or a `validation_split` known not to be zero) also traces the test function:
its validation runs `evaluate`, which makes the test function and keeps it (Keras 3.15,
`backend/tensorflow/trainer.py`: `fit` calls `self.evaluate`, whose `make_test_function` returns the
kept one; `Trainer.compile` sets all three to None). That tracing, 3-7 ms a layer against the
fit's 0.15 s (data/model/first_call.json), is left inside the fit's interval, not priced. A call site gets
`traces_step`: True where it is the first of its kind on its model since the model's `compile`,
False where an earlier one already traced it (`traced_at`: that call's line), absent where it is not
known (a model value not known, or an earlier call under a branch, or in another function where the
order of the two is not known): then no tracing is priced, the least. The walk decides for calls in
one function (`seen`, in the order it walks them); calls of one model in several functions are
decided after it (`order`) from where each function's runs start (`Resolver.positions`: the lines of
the calls that reach it from the module's code), where every such call is seen and none is under a
branch. In a loop, the first trip traces and the
others reuse the function, unless the loop (or the call's function) binds the model's name anew (a
model built or compiled per trip: `traces_each_run`, each build traces, shared by the trips of the loops
inside it, `traces_shared_by`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: The methods of a Keras model per function they trace.
STEP_FUNCTIONS = {
    **dict.fromkeys(("fit", "fit_generator", "train_on_batch"), "train"),
    **dict.fromkeys(("evaluate", "evaluate_generator", "test_on_batch"), "test"),
    **dict.fromkeys(("predict", "predict_generator", "predict_on_batch"), "predict"),
}
#: The meta key of a model's traced functions: function -> (id of the walked function, its place
#: (path, line), whether under a branch) of the first call that traced it.
TRACED = "traced_functions"


def seen(meta: dict, method: str, place: tuple[str | None, int], where: int, conditional: bool,
         validates: bool | None = False) -> dict:
    """A method of the model of *meta* called at *place* (path, line) in the function *where* (id of it, under a
    branch where *conditional*; *validates*: a `fit` given validation data, None where that may be): the
    features it gets (module docstring), and the model's traced functions kept for the calls after it
    (`compile` drops them)."""
    if method == "compile":
        meta[TRACED] = {}
        return {}
    function = STEP_FUNCTIONS.get(method)
    if function is None:
        return {}
    traced = meta.setdefault(TRACED, {})
    if validates is not False and function == "train":
        traced.setdefault("test", (where, place, conditional or validates is None))
    first = traced.get(function)
    if first is None:
        traced[function] = (where, place, conditional)
        return {"traces_step": True}
    at, earlier, unsure = first
    if earlier == place:  # the same call walked again
        return {"traces_step": True}
    if at != where or unsure or earlier[0] != place[0]:
        return {}
    return {"traces_step": False, "traced_at": earlier[1]}


#: The most chains of calls `order` follows to one function's body (each is one place its runs start).
MAX_POSITIONS = 64


@dataclass(eq=False)
class ModelCall:
    """A call of a model's `compile` (*function* None) or of a method running one of its step functions
    (*function*: train, test or predict; *validates* as `seen` takes it), at *line* in the function *func*
    (None: the module's code), under a branch where *branched*; *features*: its call site's."""

    model: int  # id of the model's meta
    function: str | None
    validates: bool | None
    line: int
    func: Any
    branched: bool
    features: dict


def order(calls: list[ModelCall], positions: Callable[[Any], list[tuple] | None]) -> None:
    """Set `traces_step`/`traced_at` of the calls of each model made in more than one function, where the
    order they run in is known: every call's function's *positions* (where each of its runs starts, in
    the program's order; None: not known), none under a branch, none whose validation may or may not
    run. Replayed in that order, a call traces where no call of its kind has since the last `compile`
    (a validating `fit` traces the test function too); a call that traces at its first run and at no
    later one gets true, one traced by another at its first run and never itself false, with that
    call's line; any other stays as the walk left it, as does one whose runs each build the model."""
    models: dict[int, list[ModelCall]] = {}
    for call in calls:
        models.setdefault(call.model, []).append(call)
    for group in models.values():
        if len({id(c.func) for c in group}) < 2 or any(c.branched or c.validates is None for c in group):
            continue
        timeline: list[tuple[tuple, int]] = []
        for i, call in enumerate(group):
            starts = positions(call.func)
            if starts is None:
                break
            timeline.extend(((*start, call.line), i) for start in starts)
        else:
            _replay(group, sorted(timeline))


def _replay(group: list[ModelCall], timeline: list[tuple[tuple, int]]) -> None:
    traced: dict[str, ModelCall] = {}
    first: dict[int, ModelCall] = {}  # a call -> the call that traced its kind at its first run
    anew: dict[int, int] = {}  # a call -> the runs at which it traced its kind itself
    for _, i in timeline:
        call = group[i]
        if call.function is None:
            traced = {}
            continue
        tracer = traced.get(call.function)
        if tracer is None:
            tracer = traced[call.function] = call
            anew[i] = anew.get(i, 0) + 1
        if call.validates and call.function == "train":
            traced.setdefault("test", call)
        first.setdefault(i, tracer)
    for i, call in enumerate(group):
        if call.function is None or i not in first or call.features.get("traces_each_run"):
            continue
        if first[i] is call and anew.get(i) == 1:
            call.features["traces_step"] = True
            call.features.pop("traced_at", None)
        elif first[i] is not call and not anew.get(i):
            call.features["traces_step"] = False
            call.features["traced_at"] = first[i].line
