"""A call that runs one batch (`model(x)` eager, an eager training step, `*_on_batch`), priced on this
machine from its own calibration workload: the call's overhead measured here plus its FLOPs' compute.

A step inside `fit` costs this machine's fitted step time (local_work.py): a per-step cost (the
loop's own overhead around the compiled step) and a cost per FLOP. A one-batch call pays another
overhead than that loop's: an eager call dispatches each layer's ops from Python (its gradient and
the optimizer's update too, for a training step under a `tf.GradientTape`), `train_on_batch` and
`predict_on_batch` convert the batch in and the results out on every call. `greenlint calibrate`
times such calls (meter/workloads/models.py: `mlp_call_32`, `mlp_tape_step_32`, `*_on_batch_32`), so

    joules = overhead x layers / the workload's layers + P x per_flop x FLOPs
    overhead = the workload's joules per call - P x per_flop x its FLOPs

with P and per_flop this machine's fitted constants for the call's group (the fitted per-step cost
is the `fit` loop's, which a one-batch call replaces by its own, measured). The overhead grows with
the layers the call dispatches one by one (`n_layers`, as the analysis counts a Sequential's list or a functional graph's layer calls);
where the call's layers are not known it is the workload's as measured, and the note says so. The
compute follows the call's own FLOPs, so x100 the FLOPs is priced as such. Where the calibration fitted a roofline, the compute
is the FLOPs at the op model's cost and the elements the step moves (its weights, its layers' outputs) at a cost
per element: an eager `model(x)` at the roofline's `unfused_per_element` (its ops, each layer's matmul or
convolution, bias and activation, write and read back the outputs one after another: a training step's
passes), `predict_on_batch`'s traced step at a forward pass's.

A `tf.function`'s call whose body runs one step of a model (`TRACED_CALL`, `step: training` or
`inference`) runs a traced graph once per Python call, as `train_on_batch`/`predict_on_batch` run
Keras' own traced step once per call: its overhead is priced from that workload (`TRACED_STAND_INS`),
not from the eager step's op-by-op dispatch nor from a step inside `fit`'s loop.
"""

from __future__ import annotations

import math

from greenlint.catalog.kinds import TRACED_CALL
from greenlint.predict.calibration import NOISE_SD, Z80, Measured, Overlay
from greenlint.predict.prediction import Basis, Evidence, Prediction, split_energy
from greenlint.predict.work_energy import compute_s, derive, flops_unknown, one_batch, pipeline_s, traffic
from greenlint.units import TIMES


def first_run_share(trace_j: float, features: dict) -> tuple[float, str]:
    """(joules each run adds, note) for a one-off cost of a call's first run (*trace_j*: tracing the
    function it runs), shared by the site's runs where the analysis knows them exactly
    (`runs_count`); where it does not, none is added and the note says so (the per-run figure
    cannot carry a cost paid once)."""
    if trace_j <= 0:
        return 0.0, ""
    runs = features.get("runs_count")
    if isinstance(runs, int) and not isinstance(runs, bool) and runs > 0:
        return trace_j / runs, f"; + its first call's {trace_j:.3g} J more (tracing) shared by its {runs:,} runs"
    return 0.0, f"; its first call's {trace_j:.3g} J more (tracing) is not in this figure: its runs are not known"


def _layers(features: dict) -> float | None:
    n = features.get("n_layers")
    return float(n) if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def _compute_s(model: dict, group: str, api: str, features: dict) -> tuple[float, float] | None:
    """(seconds the FLOPs of one batch of this work take at the fitted cost per FLOP, or by the fitted
    roofline where its traffic is known: `compute_s`, an eager call's elements at its `unfused_per_element`;
    its FLOPs)."""
    batch = one_batch(api, features)
    n, flops = derive(group, batch)
    if n is None or flops is None:
        return None
    return compute_s(_stepped(model, api), n, flops, batch), flops


def _stepped(model: dict, api: str) -> dict:
    """The time model of a one-batch call of *api*: an eager `model(x)` (`batch_call_here` prices only eager
    ones) moves its elements at its roofline's `unfused_per_element` (local_work `_rooflines`), its ops one by one."""
    roof = model.get("roofline") or {}
    if api.rpartition(".")[2] != "__call__" or "unfused_per_element" not in roof:
        return model
    return {**model, "roofline": {**roof, "per_element": roof["unfused_per_element"]}}


#: The one-batch method whose calibration workload stands for a traced function's call of each kind of
#: step: like that call, it runs a traced step (Keras' compiled train/predict function) once per call.
TRACED_STAND_INS = {"training": "train_on_batch", "inference": "predict_on_batch"}


def _workload(overlay: Overlay, api: str, features: dict) -> tuple[str, Measured] | None:
    """(its API, the calibration workload) that runs one batch of the same kind of step as this call
    (training or inference, for a model call; for a traced function's call, the `TRACED_STAND_INS`
    method's), nearest in FLOPs per sample."""
    step = features.get("step")
    if api == TRACED_CALL:
        method = TRACED_STAND_INS.get(str(step))
        found = [(a, m) for a, ms in sorted(overlay.measured.items()) if a.rpartition(".")[2] == method for m in ms]
    else:
        found = [
            (api, m)
            for m in overlay.measured.get(api, ())
            if one_batch(api, m.features) is not m.features and m.features.get("step") == step
        ]
    mine = features.get("flops_per_sample") or 1.0
    return min(found, key=lambda am: abs(math.log(mine / (am[1].features.get("flops_per_sample") or 1.0))),
               default=None)


def batch_call_here(overlay: Overlay, api: str, features: dict, group: str) -> Prediction | None:
    """The figure of a one-batch call of *api* (`work_energy.one_batch`) from its workload measured
    here and this machine's time model of *group* (`overlay.local`); None where the call does not
    run one batch, its FLOPs are unknown, or the calibration measured no such workload."""
    local = overlay.local or {}
    model, power = local.get("time", {}).get(group), local.get("power", {}).get(group)
    if model is None or power is None or one_batch(api, features) is features or flops_unknown(api, features):
        return None
    found = _workload(overlay, api, features)
    if found is None:
        return None
    their_api, m = found
    theirs, mine = _compute_s(model, group, their_api, m.features), _compute_s(model, group, api, features)
    if theirs is None or mine is None:
        return None
    watts = power["steady_w"]
    overhead = max(m.per_call_j - watts * theirs[0], 0.0)
    layers, their_layers = _layers(features), _layers(m.features)
    ratio = layers / their_layers if layers and their_layers else 1.0
    drawn = pipeline_s(one_batch(api, features), 1.0)  # a batch a loop drew from a mapped pipeline
    compute = watts * (mine[0] + drawn)
    first = overlay.first_j.get(m.workload)
    share, shared = first_run_share(first - m.per_call_j if first else 0.0, features)
    energy = overhead * ratio + compute + share
    sd = math.hypot(max(m.sd, NOISE_SD), model["sd"])
    note = (
        f"one batch, priced on this machine ({overlay.hardware_id}) from `greenlint calibrate`'s {m.workload}: "
        f"{m.per_call_j:.3g} J per call, of which {overhead:.3g} J the call's own overhead beyond its FLOPs' "
        f"compute at this machine's fitted cost per FLOP"
    )
    if layers and their_layers:
        note += f", {TIMES}{ratio:.3g} for {layers:g} layers dispatched against its {their_layers:g}"
    else:
        note += " (this call's layers unknown: the workload's overhead as measured)"
        sd = math.hypot(sd, math.log10(2.0))  # the overhead follows the layers, which the code does not say here
    roof = (_stepped(model, api).get("roofline") or {}) if traffic(1.0, one_batch(api, features)) is not None else {}
    cost = (f" at {roof['per_flop']:.3g} s each and the elements they move at {roof['per_element']:.3g} s each (the "
            "fitted roofline)" if roof else f" at {model['per_flop']:.3g} s each")
    fed = f" and its batch's input pipeline, {drawn:.3g} s (map calls, file decodes)" if drawn else ""
    note += f"; + this call's {mine[1]:.3g} FLOPs{cost}{fed} → {compute:.3g} J ({watts:.3g} W)"
    note += f"{shared} → {energy:.3g} J"
    half = 10 ** (Z80 * sd)
    split = split_energy(energy, m.shares or {})
    basis = Basis.CALIBRATED_ESTIMATED if m.estimated else Basis.CALIBRATED
    return Prediction(
        energy,
        (energy / half, energy * half),
        split["cpu"],
        split["gpu"],
        split["ram"],
        basis,
        Evidence(records=len(m.per_repeat_j), api=api, level="work", sources=(overlay.hardware_id,), note=note),
    )
