"""Energy from work: one physical model, energy = power x time(work), for every call kind.

A call's time is set by the work it is given (docs/calls-json.md `work`): for `fit`, steps
(epochs x batches, a validation batch at a third of a training one) and FLOPs (3 x forward FLOPs
per trained sample); for `evaluate`/`predict`/`adapt`, batches and forward FLOPs. Per kind,

    time   = t0 + a x steps + b x FLOPs     (t0: the first call's start-up; a: per-step overhead;
                                             b: 1 / throughput)
    energy = P x (time - tau x (1 - exp(-time / tau)))

P is the steady net power of that kind of work on the reference machine and tau the device's
ramp-up: a first-order rise of the power draw from idle, so a call of a second or two draws a
fraction of P and, past about 3 tau, energy grows linearly with time (x10 the steps, x10 the
joules less the fixed ramp deficit P x tau). Energy is net of the idle baseline, CPU + GPU + DRAM:
FECoM/Greenlight's definition. The time models are fitted on the KB's call sites, whose execution
time is measured even when their energy was below the resolution, by robust least squares on log
time with positive coefficients; P and tau on the measurable calls (tools/model/work_fit.py).
A tensor op's FLOPs are costed at DENSE_FLOPS_PER_S. Prediction is arithmetic on the JSON numbers.

Whole training runs of a named architecture (GAISSA's keras.applications) enter the same model
through their FLOPs per sample (predictor.py): no second energy definition for call sites.
"""

from __future__ import annotations

import math

#: Work quantities a call site may carry (docs/calls-json.md `work`), flattened into its features.
WORK_KEYS = ("epochs", "steps_per_epoch", "batch_size", "samples", "validation_samples", "input_shape", "model",
             "params", "flops_per_sample", "flops", "elements", "steps")
#: Kinds with a time model, and the groups they are fitted in. Layer calls and ops are not fitted:
#: the KB measured them only on toy tensors, whose time is all overhead; their FLOPs are costed at
#: DENSE_FLOPS_PER_S on top of the API's measured time (`compute_seconds`).
TIME_GROUPS = {
    "model-training": "training",
    "model-evaluation": "inference",
    "model-inference": "inference",
}
#: Methods costed as a pass over their data in batches (no model FLOPs), like an inference pass.
DATA_PASS_METHODS = frozenset({"adapt"})


def time_group(kind: str | None, api: str) -> str | None:
    """The time model a call uses: by its kind, or `inference` for a pass over data (`adapt`)."""
    if api.rpartition(".")[2] in DATA_PASS_METHODS:
        return "inference"
    return TIME_GROUPS.get(str(kind))


#: Kinds whose FLOPs (`work.flops`) add compute time at DENSE_FLOPS_PER_S.
FLOP_KINDS = frozenset({"layer-call", "tensor-op"})
#: Throughput of one large dense op (a matmul, a convolution over a big tensor): about half the
#: fp32 peak of the GPUs in the measured data (RTX 3070: 20 TFLOPS, RTX 3090: 36 TFLOPS, NVIDIA's
#: specifications), what cuBLAS/cuDNN typically reach. Model calls are not costed by it: their
#: throughput is fitted (small batches run far below peak).
DENSE_FLOPS_PER_S = 1.0e13
#: Extra log10 half-width per decade of time beyond the longest call a time model was fitted on.
EXTRAPOLATION_SPREAD = 0.25
#: A validation pass is a forward pass: about a third of a training step's FLOPs.
VALIDATION_WEIGHT = 1 / 3
#: Backward + update: a trained sample costs about 3 forward passes (Kaplan et al. 2020).
TRAINING_FLOPS = 3.0
#: Fewest call sites with known work and time that fit a group's time model.
MIN_FIT_SITES = 4
#: Work quantities whose `<key>_unknown` flag (analysis.callsite.work_values) marks a pass over
#: data of a size the code does not state.
UNSIZED_KEYS = ("samples", "epochs")
#: The high end assumed where the data's size is unknown: a large real training set per epoch
#: (ImageNet-1k's is 1.28 M images), stated in the note; the low end is one batch.
HIGH_SAMPLES = 1_000_000
#: The high end assumed where `fit`'s epochs are not a literal; the low end is one epoch.
HIGH_EPOCHS = 1_000


def _num(x) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x <= 0:
        return None
    return float(x)


def derive(group: str, f: dict) -> tuple[float | None, float | None]:
    """(steps, FLOPs) of a `fit` or `evaluate`/`predict` call from its features, None where the
    work does not say. Steps are batches (Keras' default batch size 32 where none is given);
    a validation step counts a third of a training step, like its FLOPs."""
    fps = _num(f.get("flops_per_sample"))
    batch = _num(f.get("batch_size")) or 32.0
    samples = _num(f.get("samples"))
    if group == "training":
        epochs = effective_epochs(f)
        steps = _num(f.get("steps_per_epoch"))
        split = _num(f.get("validation_split")) or 0.0
        train = samples * (1 - split) if samples is not None else None
        if steps is None and train is None or epochs is None:
            return None, None
        if steps is None:
            steps = math.ceil(train / batch)
        else:  # Keras draws steps_per_epoch batches per epoch, whatever the data's size
            train = steps * batch
        val = _num(f.get("validation_samples")) or (samples * split if samples else 0.0)
        passes = epochs * (steps + VALIDATION_WEIGHT * math.ceil(val / batch))
        flops = epochs * fps * (TRAINING_FLOPS * train + val) if fps else None
        return passes, flops
    steps = _num(f.get("steps"))
    literal = f.get("data", f.get("x"))
    if samples is None and steps is None and isinstance(literal, (list, tuple)) and literal:
        samples = float(len(literal))  # a literal list passed as the data: one sample per element
    if steps is None and samples is not None:
        steps = math.ceil(samples / batch)
    n = samples if samples is not None else (steps * batch if steps is not None else None)
    return steps, (n * fps if n and fps else None)


def least_epochs(f: dict) -> float:
    """The fewest epochs early stopping allows: `epochs_least` (its patience + 1, analysis/work.py),
    else 1; never more than the epochs written."""
    epochs = _num(f.get("epochs")) or 1.0
    return min(_num(f.get("epochs_least")) or 1.0, epochs)


def effective_epochs(f: dict) -> float | None:
    """Epochs run: the literal count, or under early stopping (`epochs` an upper bound) the
    geometric middle of the least (`least_epochs`) and the bound (`epochs_ends` for the interval)."""
    epochs = _num(f.get("epochs"))
    if epochs is None:
        return None
    return math.sqrt(epochs * least_epochs(f)) if f.get("epochs_bound") == "upper" else epochs


def epochs_ends(f: dict) -> tuple[dict, dict]:
    """The features of the fewest and of the most epochs a call may run: under early stopping
    `least_epochs` and the written bound, else the call itself twice."""
    if f.get("epochs_bound") != "upper" or _num(f.get("epochs")) is None:
        return f, f
    most = {k: v for k, v in f.items() if k != "epochs_bound"}
    return {**most, "epochs": least_epochs(f)}, most


def compute_seconds(f: dict) -> float | None:
    """Seconds of compute a layer call's or op's FLOPs add, at DENSE_FLOPS_PER_S."""
    flops = _num(f.get("flops"))
    return flops / DENSE_FLOPS_PER_S if flops is not None else None


def power_for(work: dict, group: str | None) -> dict | None:
    """The power model of a kind group (`steady_w`, `ramp_s`), or the pooled one (`all`)."""
    power = work.get("power") or {}
    return power.get(group or "all") or power.get("all")


def energy_at(power: dict, seconds: float) -> float:
    """Joules of a call lasting *seconds*: P x (t - tau x (1 - exp(-t / tau))), the integral of a
    power draw rising from idle to P with time constant tau; linear in t once t >> tau."""
    p, tau = power["steady_w"], power["ramp_s"]
    return p * (seconds + tau * math.expm1(-seconds / tau))


def time_of(model: dict, n: float, flops: float | None) -> float:
    """Seconds for a call of the group `model` with `n` steps and `flops` FLOPs."""
    if flops is None:
        flops = n * model["flops_per_step"]
    return model["t0"] + model["per_step"] * n + model["per_flop"] * flops


def extrapolation_spread(model: dict, seconds: float) -> float:
    """Extra log10 half-width for a call longer than the longest the time model was fitted on:
    EXTRAPOLATION_SPREAD per decade beyond it (the fitted linearity is evidence only in range)."""
    longest = model.get("t_max")
    return EXTRAPOLATION_SPREAD * math.log10(seconds / longest) if longest and seconds > longest else 0.0


def work_log_energy(work: dict, group: str | None, features: dict) -> float | None:
    """log10 J of a call from its work (`energy_at` its `time_of`), or None where the work or the model is missing."""
    model = work.get("time", {}).get(group or "")
    power = power_for(work, group)
    if not model or not power:
        return None
    n, flops = derive(group, features)
    if n is None:
        return None
    t = time_of(model, n, flops)
    return math.log10(energy_at(power, t)) if t > 0 else None


def unknown_size(features: dict) -> bool:
    """The resolver looked for the call's data size (or epochs) and could not know it statically."""
    return any(features.get(f"{key}_unknown") is True for key in UNSIZED_KEYS)


def stated_most(training: bool, f: dict) -> str:
    """What the high end of a floor (data size or epochs unknown) assumes, from the call's features
    (its work merged in): `1,000,000 samples per epoch and 1,000 epochs`; "" where nothing is unknown."""
    most = []
    if _num(f.get("samples")) is None and _num(f.get("steps_per_epoch" if training else "steps")) is None:
        most.append(f"{HIGH_SAMPLES:,} samples" + (" per epoch" if training else ""))
    if training and _num(f.get("epochs")) is None:
        most.append(f"{HIGH_EPOCHS:,} epochs")
    elif training and f.get("epochs_bound") == "upper":
        most.append(f"all {f['epochs']:g} epochs")
    return " and ".join(most)


def unknown_size_span(work: dict, group: str | None, f: dict, half: float) -> tuple[float, float, float, str] | None:
    """(log10 J of the figure, of the interval's low and high ends, note) for a pass over data
    whose size, or a `fit` whose epochs, the resolver could not know; None where the work is
    known (`derive`) or nothing says it is unknown. *half*: the work model's log10 half-width.

    The figure is the least work the code allows: one batch per epoch (per pass), one epoch
    where epochs are unknown or early stopping may end training; the low end is that less *half*.
    The high end is up to HIGH_SAMPLES samples per epoch and the epochs written (HIGH_EPOCHS where
    none are), stated in the note, not inferred, plus *half*. Never a typical data set's size: the
    code does not say it, so the figure does not.
    """
    if group is None or not unknown_size(f) or derive(group, f)[0] is not None:
        return None
    batch = _num(f.get("batch_size")) or 32.0
    low, high, unknown, least = dict(f), dict(f), [], []
    low.pop("epochs_bound", None)
    high.pop("epochs_bound", None)
    if _num(f.get("samples")) is None and _num(f.get("steps_per_epoch" if group == "training" else "steps")) is None:
        low["samples"], high["samples"] = batch, max(float(HIGH_SAMPLES), batch)
        unknown.append("data size")
        least.append("one batch per epoch" if group == "training" else "one batch")
    if group == "training" and _num(f.get("epochs")) is None:
        low["epochs"], high["epochs"] = 1, HIGH_EPOCHS
        unknown.append("epochs")
        least.append("one epoch")
    elif group == "training" and f.get("epochs_bound") == "upper":
        low["epochs"] = least_epochs(f)
        least.append(f"{low['epochs']:g} epoch{'s' if low['epochs'] != 1 else ''} (early stopping)")
    lo, hi = work_log_energy(work, group, low), work_log_energy(work, group, high)
    if lo is None or hi is None:
        return None
    n, flops = derive(group, low)
    t = time_of(work["time"][group], n, flops)
    beyond = extrapolation_spread(work["time"][group], time_of(work["time"][group], *derive(group, high)))
    note = (f"{' and '.join(unknown)} unknown: the figure is the least the code allows "
            f"({' and '.join(least)}: {n:.3g} step{'s' if n != 1 else ''}, about {t:.3g} s); "
            f"the interval's high end assumes up to {stated_most(group == 'training', f)} (stated, not inferred)")
    return lo, lo - half, max(hi, lo) + half + beyond, note
