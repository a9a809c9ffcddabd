"""The calibrated path: a call priced by this machine's own time or op model, which `greenlint
calibrate` fitted (`local_work`), power x time from this machine's constants, not the reference
GPU's figure moved by one ratio.
"""

from __future__ import annotations

import math

from greenlint.predict.batch_calls import batch_call_here, first_run_share
from greenlint.predict.calibration import Z80, Overlay, load_note
from greenlint.predict.context import Context
from greenlint.predict.prediction import Basis, Evidence, Prediction, split_energy
from greenlint.predict.work_energy import EXTRAPOLATION_SPREAD, derive, one_batch, time_group, traffic
from greenlint.units import TIMES


def calibrated_work(ctx: Context, api: str, features: dict) -> Prediction | None:
    """A call of a time group this machine's calibration fitted a model for (`local_work`): power x
    time from this machine's own constants, its interval from their spread (a floor stays a floor).
    None where no local model covers the call. A call on one batch (an eager model call, `*_on_batch`)
    is its own overhead measured here plus its step (`batch_calls.batch_call_here`); an eager model
    call with no such workload is None (it runs op by op, not as a step of the fitted calls). A
    `tf.function`'s call running one step (`TRACED_CALL`) is one call of a traced step from Python:
    priced like `train_on_batch`/`predict_on_batch` measured here (`batch_calls.TRACED_STAND_INS`),
    not as a step inside `fit`'s loop, and None where the calibration timed no such call."""
    ov = ctx.overlay
    if ov is not None and ov.local and "ops" in ov.local and ctx.hierarchy.kind(api) == "tensor-op":
        return calibrated_op(ov, api, features)
    group = time_group(ctx.hierarchy.kind(api), api, features)
    if ov is None or not ov.local or group is None or group not in ov.local["time"]:
        return None
    local: dict = ov.local
    model = local["time"][group]
    shaped = one_batch(api, features) is not features
    if shaped and not features.get("in_tf_function"):
        here = batch_call_here(ov, api, features, group)  # its own overhead measured here + its FLOPs
        if here is not None or api.rpartition(".")[2] == "__call__":
            return here
    half = Z80 * model["sd"]
    runs = features.get("runs_count") or features.get("loop_multiplier")
    shared = ""
    if not shaped and isinstance(runs, int) and runs > 1 and model["trace_s"]:
        # the site runs `runs` times in its loop: the first run traces, the others reuse the function
        # (its model's layers' part of the tracing is `traced_layers`', already shared by the runs)
        local = {**local, "time": {**local["time"], group: {**model, "t0": model["call_s"] + (model["t0"] - model["call_s"]) / runs}}}
        shared = f", shared by the {runs} runs of its loop"
    floor = False
    found = ctx.from_work(api, features, local, half)
    if found is None:
        found, floor = ctx.unknown_size_floor(api, features, local, half), True
    if found is None:
        return None
    mu, low, high, note = found
    if shaped:  # one step of a loop: the first call's tracing is paid once, shared by the site's runs
        share, how = first_run_share(local["power"][group]["steady_w"] * model["trace_s"], features)
        mu, low, high = (math.log10(10**v + share) for v in (mu, low, high))
        note += how
    fitted = [m for ms in ov.measured.values() for m in ms if m.workload in model["workloads"]]
    estimated = all(m.estimated for m in fitted)
    epoch = f"{model['per_epoch']:.3g} s per epoch + " if model.get("per_epoch") else ""
    fit = (f"; residuals rms {TIMES}{10 ** model['resid_sd']:.3g} on them"
           + (": a poor fit (a loaded machine?), the interval carries it" if model.get("poor") else "")
           if "resid_sd" in model else "")
    note = (f"this machine's time model ({ov.hardware_id}, fitted by `greenlint calibrate` on "
            f"{', '.join(model['workloads'])}: {model['call_s']:.3g} s per call + {epoch}{model['per_step']:.3g} s "
            f"per step + {model['per_flop']:.3g} s per FLOP, the first call {model['trace_s']:.3g} s more{shared}; "
            f"{local['power'][group]['steady_w']:.3g} W{fit}{load_note(ov.load)}); {note}")
    roof = model.get("roofline")
    if roof and traffic(1.0, one_batch(api, features)) is not None:
        note += (f"; its layers' outputs known, priced by the roofline fitted beside it: {roof['call_s']:.3g} s per call + "
                 f"{roof['per_step']:.3g} s per step + {roof['per_flop']:.3g} s per FLOP (the op model's) + "
                 f"{roof['per_element']:.3g} s per element its steps move (weights, layer outputs)")
    energy = 10**mu
    split = split_energy(energy, fitted[0].shares if fitted else {})
    return Prediction(energy, (10**low, 10**high), split["cpu"], split["gpu"], split["ram"],
                      Basis.CALIBRATED_ESTIMATED if estimated else Basis.CALIBRATED,
                      Evidence(records=len(fitted), api=api, level="work", sources=(ov.hardware_id,), note=note),
                      floor=floor)


def calibrated_graph_run(ctx: Context, api: str, features: dict) -> Prediction | None:
    """A TF1 graph run (`Session.run`, `Tensor.eval`) of a step of known FLOPs on this machine: one call
    from Python into the graph runtime, which runs the graph's raw ops, priced by this machine's op
    model (`local_ops`: such ops timed one call each), one dispatch per step plus the step's FLOPs
    (`derive`) at the op model's cost per FLOP. Not a step of the fitted `fit` loop: that step's cost
    carries Keras' loop (callbacks, the data adapter, logs) and its Dense layers' batch-32 cost per
    FLOP, which a session run does not pay. Where the calibration fitted no op model, or the step's
    FLOPs are unknown, `calibrated_work`'s step of the fitted loop."""
    ov = ctx.overlay
    group = time_group(ctx.hierarchy.kind(api), api, features)
    if ov is None or not ov.local or "ops" not in ov.local or group is None:
        return calibrated_work(ctx, api, features)
    steps, flops = derive(group, one_batch(api, features))
    if steps is None or not flops:
        return calibrated_work(ctx, api, features)
    return calibrated_op(ov, api, {"flops": flops}, calls=steps,
                         what=f"a graph run of {steps:g} {group} step{'s' if steps != 1 else ''}, one call of the "
                              "graph runtime each")


def calibrated_op(ov: Overlay, api: str, features: dict, calls: float = 1.0, what: str = "") -> Prediction | None:
    """A tensor op of stated FLOPs priced by this machine's op model (`local_ops`): dispatch plus
    FLOPs at the cost fitted here, at the power measured here; None without FLOPs. *calls*: the
    dispatches the work makes (a graph run's steps), *what*: the work's name in the note."""
    flops = features.get("flops")
    if isinstance(flops, bool) or not isinstance(flops, (int, float)) or not flops > 0:
        return None
    ops = ov.local["ops"] if ov.local else {}
    seconds = ops["dispatch_s"] * calls + ops["per_flop"] * flops
    energy = ops["steady_w"] * seconds
    lo_f, hi_f = ops["flops"]
    beyond = EXTRAPOLATION_SPREAD * abs(math.log10(min(max(flops, lo_f), hi_f) / flops))
    half = Z80 * ops["sd"] + beyond
    fitted = [m for ms in ov.measured.values() for m in ms if m.workload in ops["workloads"]]
    note = (f"this machine's op model ({ov.hardware_id}, fitted by `greenlint calibrate` on "
            f"{', '.join(ops['workloads'])}: {ops['dispatch_s']:.3g} s dispatch + {ops['per_flop']:.3g} s per "
            f"FLOP at {ops['steady_w']:.3g} W): {what + ', ' if what else ''}{flops:.3g} FLOPs → about {seconds:.3g} s → {energy:.3g} J"
            + ("; beyond the FLOPs fitted: the interval widened" if beyond else ""))
    split = split_energy(energy, fitted[0].shares if fitted else {})
    basis = Basis.CALIBRATED_ESTIMATED if all(m.estimated for m in fitted) else Basis.CALIBRATED
    return Prediction(energy, (energy / 10**half, energy * 10**half), split["cpu"], split["gpu"], split["ram"],
                      basis, Evidence(records=len(fitted), api=api, level="work", sources=(ov.hardware_id,),
                                      note=note))
