"""Calls in graphs: one that only builds a graph (symbolic tensors, a tf.function's trace, a TF1
graph node) costs 0 J at its line, its work counted where the graph runs; a TF1 graph run
(`Session.run`, `Tensor.eval`) is priced from the step the analysis gives it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from greenlint.catalog.kinds import EXECUTE_IN_GRAPH_MODE, GRAPH_RUNS, NO_WORK_KINDS
from greenlint.predict.context import Context
from greenlint.predict.prediction import Basis, Evidence, Prediction, split_energy
from greenlint.predict.work_energy import STEP_KINDS


def symbolic_note(features: dict) -> str:
    """Where the work of a call that only builds a graph is counted (docs/calls-json.md `symbolic`)."""
    if features.get("graph_mode"):
        return "builds a TF1 graph node: 0 J here; its work is counted where Session.run runs the graph"
    if features.get("in_keras_step"):
        return ("inside a Keras model's call or train_step: 0 J here; its work is counted where the model runs "
                "(fit, predict, a call on data), in the model's FLOPs per sample")
    if features.get("in_tf_function"):
        return ("traced into a tf.function's graph: 0 J here; its work is counted at the model call the "
                "function runs, each time the function is called")
    return ("called on Keras symbolic tensors (functional API): 0 J here; its work is counted in the model's "
            "FLOPs per sample where the model runs (fit, predict, a call on data)")


def in_graph(ctx: Context, api: str, features: dict,
             calibrated: Callable[[dict], Prediction | None] = lambda f: None) -> Prediction | None:
    """The figure of a call the graph it is in decides: 0 J where it only builds the graph, a TF1
    graph run's (`graph_run`, *calibrated* its figure by this machine's time model); None for a call
    that runs eagerly."""
    if features.get("symbolic") is True:
        return Prediction.symbolic(symbolic_note(features))
    if features.get("in_tf_function") is True and ctx.hierarchy.kind(api) in NO_WORK_KINDS:
        return Prediction.symbolic("does no tensor work, in a tf.function's body: it runs when the function "
                                   "is traced, not each time the function is called (0 J per call)")
    if features.get("graph_mode"):  # a TF1 graph program: the work runs in Session.run
        if api in GRAPH_RUNS:
            return graph_run(ctx, api, features, calibrated)
        if ctx.hierarchy.kind(api) not in EXECUTE_IN_GRAPH_MODE:
            return Prediction.symbolic(symbolic_note({"graph_mode": True}))
    return None


def graph_run(ctx: Context, api: str, features: dict,
              calibrated: Callable[[dict], Prediction | None] = lambda f: None) -> Prediction:
    """A run of a TF1 graph (`Session.run`, `Tensor.eval`): priced from the step the analysis gives it
    (`work.step`: one training step, or one run, of the graph on its batch) by the one work model, a
    floor where the graph's FLOPs are unknown; never from another program's measured runs of the same
    API (their graphs are not this one); a floor too where those FLOPs are a lower bound (some op's
    work unknown: analysis/symops.py) or the batch fed is not known (one sample priced). Where this
    machine is calibrated, a step of known FLOPs is priced by its own models (*calibrated*:
    `calibrated.calibrated_graph_run` of these features, its op model's dispatch and cost per FLOP,
    None where no local model covers them). Unknown without a step."""
    if features.get("step") in STEP_KINDS:
        # FLOPs known on a batch the code does not size: one sample's work, the least the code allows
        unsized = features.get("flops_per_sample") is not None and features.get("samples") is None
        sized = {**features, "samples": 1} if unsized else features
        least = [why for why, holds in (("the batch fed is not known (one sample priced)", unsized),
                                        ("the graph's FLOPs are its ops' of known work alone",
                                         features.get("flops_per_sample_bound") == "lower")) if holds]
        here = calibrated(sized) if features.get("flops_per_sample") is not None else None
        if here is not None:
            if not least:
                return here
            return replace(here, floor=True, evidence=replace(
                here.evidence, note=f"{here.evidence.note}; the least the code allows: {', '.join(least)}"))
        point = ctx.from_work(api, sized)
        found = point or ctx.unknown_size_floor(api, features)
        if found is not None:
            mu, low, high, note = found
            if point is not None and least:  # its high end as where the FLOPs and the batch are unknown
                note += "; the least the code allows: " + ", ".join(least)
                ceiling = ctx.unknown_size_floor(api, {k: v for k, v in features.items()
                                                       if k not in ("flops_per_sample", "flops_per_sample_bound")})
                high = max(high, ceiling[2]) if ceiling is not None else high
            energy = 10**mu
            split = split_energy(energy, ctx.group_shares(api))
            pred = Prediction(energy, (10**low, 10**high), split["cpu"], split["gpu"], split["ram"],
                              Basis.PREDICTED, Evidence(api=api, level="work", note=note),
                              floor=point is None or bool(least))
            ov = ctx.overlay
            if ov is not None and ov.time_ratio:  # a work figure moves with the machine like any other
                pred = replace(pred, energy_j=energy * ov.time_ratio,
                               interval_j=(10**low * ov.time_ratio, 10**high * ov.time_ratio),
                               basis=Basis.CALIBRATED_RESCALED,
                               evidence=replace(pred.evidence, note=f"{note}; {ctx.rescale_note}"))
            return pred
    return Prediction.unknown("it runs the graph ops it is given: their work sets the cost, and greenlint does "
                              "not follow the graph")
