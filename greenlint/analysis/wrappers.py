"""Calls of another module's function whose work is spent in a TF call it makes (a wrapper).

Research code hides its heaviest calls behind its own helpers: `checkpoint.save(ep)` on a project
class whose `save` calls `tf.train.CheckpointManager.save`, `train(obs, actions, ...)` on what a
project's `function(inputs, outputs, updates)` returns, whose `__call__` runs a session. Inside the
helper's module that TF call is a call site whose runs come from its callers, which are in another
module: unknown there. So a function (or method) records `runs`, the first TF call where a call of it
spends its work, or the first made in one of its loops where one comes before them (`SPENT_KINDS`, a TF1
graph run, a checkpoint's save, a `tf.function` whose body differentiates a model's variables: a training
step, differentiated.py), made in its body or in a
function it calls (a method calling `self.forward(x)` where the class of the instance defines
`forward`, late bound: a base's loop spends its work in its subclass's method); the project summary
carries it (`ExtFunc.runs`, `ExtClass.runs`), and a call of
such a function in another module is a call site of that API (`features.receiver` "wrapper",
`features.via` where the TF call is; `features.fed` where that call is a graph run whose `feed_dict` reads
what the helper's parameters give it), counted by that module's loops. Its work is what can be told
at the call: none of the wrapped call's arguments is known there (a graph run: one run of the
graph on a batch not known, one training step of it where its fetches hold an optimizer's update
of the helper's own or the caller's argument for the helper's parameter they are, `Spent`; a
model's fit or predict: the model's size unknown). Where the helper's module counts the call itself
(its runs taken from the scripts beside that call it, none in a loop of unknown length:
`Imports.counted_there`) and the call's own arguments tell nothing more (wrapped.py), it is no site:
the wrapped call's site lists that work once. A call of the
module's own such function is one too where the function's sites cannot count it: made in a loop
of unknown length (`Resolver.uncounted_wrappers`); and a call of another module's function given
what `K.function` returned, which it calls, is a run of that graph, given a Keras model it calls, at
least one forward pass of it (`Resolver.given_function_call`: `evaluate(model, dataset)`).
"""

from __future__ import annotations

from greenlint.analysis import graphrun
from greenlint.analysis.callsite import Work
from greenlint.analysis.values import Spent
from greenlint.analysis.work import INFERRED, UNKNOWN, q, untyped_work
from greenlint.catalog.kinds import GRAPH_RUNS, TRACED_CALL

#: Kinds of the TF calls a wrapper's call is listed as: a model's training, evaluation or inference.
SPENT_KINDS = frozenset({"model-training", "model-evaluation", "model-inference"})
#: Methods of kind `io` a wrapper's call is listed as: saving a checkpoint or a model.
SAVES = frozenset({"save", "save_weights"})
#: What a wrapper's call site is (`features.receiver`).
WRAPPER = "wrapper"
#: A Keras model's forward call: where a function given a model that it calls spends its work.
MODEL_CALL = "tensorflow.keras.Model.__call__"
#: Arguments of the wrapped call that its wrapper may pass it: not known at a call of the wrapper whose
#: walk is not followed, never Keras' defaults (the wrapper's `epochs=epochs` is the caller's value).
PASSED = ("epochs", "batch_size")


def spends(api: str, kind: str) -> bool:
    """Whether a call of *api* (of catalog kind *kind*) is where a wrapper spends its work."""
    leaf = api.rpartition(".")[2]
    if api in GRAPH_RUNS or api == graphrun.FUNCTION_CALL:  # a session's run, calling what K.function built
        return True
    if kind in SPENT_KINDS:
        return leaf != "__call__"
    return kind == "io" and leaf in SAVES


def note(name: str, where: str, followed: bool = False) -> str:
    """The basis note of a wrapper's call site; *followed*: its work told by the wrapped call walked with
    this call's arguments (wrapped.py)."""
    if followed:
        return f"a call of {name}, which spends its work in {where}: listed as that call, walked with this call's arguments"
    return f"a call of {name}, which spends its work in {where}: listed as that call, its arguments not known here"


def handed_model_work() -> Work:
    """The work of a call of a function given a Keras model that it calls (`evaluate(model, ds)`): at
    least one forward pass of the model, on batches not known there (a floor)."""
    return {
        "step": q("inference", INFERRED, "a forward pass of the model it is given, which it calls: at least one "
                                         "batch per call"),
        "samples": q(None, UNKNOWN, "the batches it is called on are not known here"),
    }


def step_given(runs: Spent, named: dict) -> str | None:
    """The step a call of a wrapper whose graph run fetches what its caller gives it (`Spent.fetched`)
    is, given its arguments by parameter name (*named*): "training" where the argument for the fetches
    holds an optimizer's update (`model.run_batch(model.train_op, feed)`), else the wrapped run's own."""
    if runs.fetched and graphrun.train_op_line(named.get(runs.fetched[-1])) is not None:
        return "training"
    return runs.step


def spent_work(api: str, features: dict, step: str | None = None) -> Work:
    """The work of a call listed as the TF call *api* in which it spends its work, none of that
    call's arguments known: a graph run on a batch not known (a floor), one training step of it where
    *step* says so (`Spent.step`, `step_given`), a model's method on data of a size not known, run for
    epochs and on batches not known (`PASSED`: unknown, not Keras' defaults)."""
    if api in GRAPH_RUNS and step == "training":
        return {**graphrun.run_work(None, None), "step": q(
            "training", INFERRED, "its fetches hold an optimizer's update: one training step of the graph on "
                                  "the batch fed")}
    if api in GRAPH_RUNS:  # its fetches are the wrapped run's, not known here: a training step's update or not
        return {**graphrun.run_work(None, None), "step": q(
            "inference", INFERRED, "its fetches are not known here: one run of the graph without an optimizer's "
                                   "update, the least a call does")}
    if api == graphrun.FUNCTION_CALL:
        return graphrun.function_work(None, None, {})
    if api == MODEL_CALL:
        return handed_model_work()
    if api == TRACED_CALL:  # a tf.function whose body differentiates a model's variables (differentiated.py)
        return {
            "step": q("training", INFERRED, "one training step of the tf.function it calls: the least a call does"),
            "samples": q(None, UNKNOWN, "the batch the tf.function is handed is not known here"),
            "flops_per_sample": q(None, UNKNOWN, "the models the tf.function trains are not known here"),
        }
    work = untyped_work(api, {}, features)
    for key in PASSED:
        if key in work and work[key].provenance == INFERRED:  # a default assumed, not read
            work[key] = q(None, UNKNOWN, f"{key}: what the wrapper passes the call is not known here (not Keras' default)")
    return work
