"""Which call of a model traces its step: the start-up a call pays for its model's layers.

Keras traces a compiled model's train, test and predict functions into graphs once each, at the
first call that runs them (`make_train_function` and its siblings keep the traced function on the
model), and `compile` drops all three. So a model's first `fit` (or `train_on_batch`) since its
`compile` pays the tracing of its training step, a second `fit` of the same model none; likewise
`evaluate` for the test function and `predict` for the predict one. A call site gets
`traces_step`: True where it is the first of its kind the walk has seen on its model since the
model's `compile`, False where an earlier one of the same function, not under a branch, already
traced it (`traced_at`: that call's line), absent where it is not known (a model value not known,
or the earlier call in another function or under a branch, whose order against this one the walk
does not know): then no tracing is priced, the least. In a loop, the first trip traces and the
others reuse the function, unless the loop (or the call's function) binds the model's name anew (a
model built or compiled per trip: `traces_each_run`, each build traces, shared by the trips of the loops
inside it, `traces_shared_by`).
"""

from __future__ import annotations

#: The methods of a Keras model per function they trace.
STEP_FUNCTIONS = {
    **dict.fromkeys(("fit", "fit_generator", "train_on_batch"), "train"),
    **dict.fromkeys(("evaluate", "evaluate_generator", "test_on_batch"), "test"),
    **dict.fromkeys(("predict", "predict_generator", "predict_on_batch"), "predict"),
}
#: The meta key of a model's traced functions: function -> (id of the walked function, its place
#: (path, line), whether under a branch) of the first call that traced it.
TRACED = "traced_functions"


def seen(meta: dict, method: str, place: tuple[str | None, int], where: int, conditional: bool) -> dict:
    """A method of the model of *meta* called at *place* (path, line) in the function *where* (id of it, under a
    branch where *conditional*): the features it gets (module docstring), and the model's traced
    functions kept for the calls after it (`compile` drops them)."""
    if method == "compile":
        meta[TRACED] = {}
        return {}
    function = STEP_FUNCTIONS.get(method)
    if function is None:
        return {}
    traced = meta.setdefault(TRACED, {})
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
