"""The per-API lookup: a figure from the KB's measurements of this API (or, never measured, of the
nearest group of the hierarchy that lends one), rescaled to this machine, scaled by the call's
literal features (epochs, steps, tensor size, feature slopes) or replaced by its work's figure, with
the interval the model's calibration gives its group.
"""

from __future__ import annotations

import math
from dataclasses import replace

from greenlint.predict.context import Context
from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.prediction import Basis, Evidence, Prediction, split_energy
from greenlint.predict.tables import MIN_GROUP_MEASURED, SINGLE, feature_shift, interval_group, lookup
from greenlint.predict.work_energy import FLOP_KINDS, WORK_KEYS, timed_figure, unknown_size
from greenlint.units import TIMES

#: Epochs assumed for measured `fit`-like calls whose records do not say how many they ran:
#: a typical value in the TensorFlow tutorials the public KB measured (5 to 100 epochs).
ASSUMED_EPOCHS = 10
#: Extra log10 spread (one sd) for that assumption: a factor of about 2.5 either way.
ASSUMED_EPOCHS_SD = 0.4
_EPOCH_KINDS = {"model-training"}
_EPOCH_METHODS = {"fit", "fit_generator", "train"}
#: Literal step counts that multiply a training call's work, scaled only against a measured reference.
_STEP_FEATURES = ("steps_per_epoch", "steps")
#: Features that say how much work a call does: without one, a never-measured API gets no figure.
_WORK_FEATURES = frozenset(WORK_KEYS) - {"model", "batch_size", "input_shape"} | {"tensor_bytes"}


def lookup_figure(ctx: Context, api: str, features: dict, notes: list[str]) -> Prediction:
    """The figure of a call no earlier path priced (`predictor.Predictor.predict`'s order): this API's
    measurements or its group's, or its work's figure where the work is known; *notes*: what the
    earlier steps said (the pooled name), continued here. Unknown where a never-measured API's work
    is not known from the code (a related group's figure would be a constant borrowed from others)."""
    ov = ctx.overlay
    measurable: float | None = None  # log10 J of the measurable calls, where most were below the resolution
    rescale = 0.0  # log10 of this machine's time ratio, where it rescales the reference figures
    rescaled = False  # by the overlay's time ratio: labelled `calibrated here, rescaled`
    if (ov is not None and api in ov.times and ctx.model["apis"].get(api, {}).get("time_s")
            and not unknown_size(features)):  # an unknown size: the work-matched ratio below, not this one
        # only time was measurable here: the reference energy x this API's own time ratio
        level, key, mu, sd, entry = lookup(ctx.model, api, ctx.hierarchy)
        ratio = ov.times[api] / entry["time_s"]
        rescale = math.log10(ratio)  # also rescales an unknown-size floor (`unknown_size_floor`)
        mu += rescale
        basis = Basis.CALIBRATED_ESTIMATED
        notes.append(
            f"timed on this machine ({ov.hardware_id}, no energy counter): reference energy x{ratio:.3g}, "
            "its execution-time ratio"
        )
    else:
        level, key, mu, sd, entry = lookup(ctx.model, api, ctx.hierarchy)
        basis = Basis.FROM_DATA if level == "api" else Basis.PREDICTED
        if level != "api":
            notes.append(f"no measurements of this API; generalised from its {level} ({key})")
        elif entry.get("n_censored") == entry.get("n_sites"):
            basis = Basis.BOUNDED
            notes.append(
                f"all {entry['n_sites']} measured call sites were below the resolution (each under about "
                f"{entry.get('bound_j') or 0:.3g} J): an upper bound, not a measurement"
            )
        elif 2 * entry.get("n_censored", 0) > entry.get("n_sites", 0) and entry.get("bound_j"):
            # most measured calls were below the resolution, a few well above it (`get_file` of a large
            # archive, `.numpy()` of a large tensor): a call of it costs, on average, the mixture's mean
            basis = Basis.BOUNDED
            measurable = mu
            mu, share, quick = mixture_mean(mu, entry, ctx.model.get("work") or {})
            notes.append(
                f"{entry['n_censored']} of {entry['n_sites']} measured call sites were below the resolution "
                f"(each under about {entry['bound_j']:.3g} J, taken at {quick}, at most the measurable figure) and "
                f"{share:.0%} measurable "
                f"(about {10**measurable:.3g} J): the expected energy of a call, {10**mu:.3g} J, with no lower end"
            )
        elif entry.get("n_censored"):
            notes.append(
                f"{entry['n_censored']} of {entry['n_sites']} measured call sites were below the "
                "resolution (bounds; the figure rests on the measurable ones)"
            )
        if ov is not None and ov.time_ratio:
            rescale = math.log10(ov.time_ratio)
            mu += rescale
            rescaled = True
            notes.append(ctx.rescale_note)
    from_work = ctx.from_work(api, features) if basis is not Basis.CALIBRATED_ESTIMATED else None
    if from_work is not None:
        work_mu, low, high, note = from_work
        notes.append(note)
        if basis is Basis.BOUNDED:
            basis = Basis.FROM_DATA  # the figure rests on the work's time, not on the bounds
        pred = _finish(ctx, api, work_mu + rescale, 0.0, 1.0, 0.0, basis, entry, key, level, notes, rescaled)
        return replace(pred, interval_j=(10 ** (low + rescale), 10 ** (high + rescale)))
    span = ctx.unknown_size_floor(api, features)
    if span is not None:  # data size, epochs or model FLOPs unknown: the least the code allows, up to a stated most
        mu, low, high, note = span
        notes.append(note)
        basis = Basis.FROM_DATA if basis is Basis.BOUNDED else basis
        pred = _finish(ctx, api, mu + rescale, 0.0, 1.0, 0.0, basis, entry, key, level, notes, rescaled)
        return replace(pred, interval_j=(10 ** (low + rescale), 10 ** (high + rescale)), floor=True)
    if level == "global":
        return Prediction.unknown(
            f"{api} was never measured and no related group (class, module, family, kind) has "
            f"{MIN_GROUP_MEASURED} measured APIs to generalise from: no figure"
        )
    if level != "api" and ctx.hierarchy.kind(api) in FLOP_KINDS:
        return Prediction.unknown(
            f"{api} was never measured and its FLOPs and tensor sizes are not known from the code: a related "
            f"group's figure ({key}) would be a constant borrowed from other APIs, so no figure"
        )
    if level != "api" and not _WORK_FEATURES & features.keys():
        return Prediction.unknown(
            f"{api} was never measured and its work is not known from the code: a related group's "
            f"figure ({key}) would be a constant borrowed from other APIs, so no figure"
        )
    shift = feature_shift(ctx.model, entry, features) if level == "api" else 0.0
    if shift:
        mu += shift
        used = [f"{f} {features[f]}" for f in ctx.model["slopes"] if f in entry["ref_log"] and f in features]
        notes.append(f"x{10**shift:.3g} for its static features ({', '.join(used)}) against this API's measured call sites")
    factor, extra_sd = _scale(ctx, api, level, entry, features, notes)
    ks = ctx.model["calibration"]["k"]
    group = interval_group(basis, level, entry)
    k = ks.get(group, ks["api" if group in ("bounded", SINGLE) else "global"])
    half = k * math.hypot(sd, extra_sd)
    timed = timed_figure(ctx.model.get("work") or {}, entry) if basis is Basis.BOUNDED and measurable is None and level == "api" else None
    if timed is not None and timed[0] + rescale < mu:
        notes.append(timed[1])
    pred = _finish(ctx, api, mu, half, factor, shift, basis, entry, key, level, notes, rescaled)
    if timed is not None and timed[0] + rescale < mu:
        lower = 10 ** (timed[0] + rescale - mu)  # the point only: the high end stays the bounds' calibrated one
        return replace(pred, energy_j=_times(pred.energy_j, lower), cpu_j=_times(pred.cpu_j, lower),
                       gpu_j=_times(pred.gpu_j, lower), ram_j=_times(pred.ram_j, lower))
    if measurable is None:
        return pred
    # the interval reaches the measurable calls' high end, not the bounds'
    high = max(factor * 10 ** (measurable + shift + rescale + half), pred.energy_j or 0.0)
    return replace(pred, interval_j=(0.0, high))


def mixture_mean(measurable_mu: float, entry: dict, work: dict) -> tuple[float, float, str]:
    """(log10 of the mean joules, the measurable share, what a quick call was taken at) of a call of an API
    whose call sites were mostly below the resolution: the measurable share at its figure (log10
    *measurable_mu*), the rest at what they took at a call's steady power (`work_energy.timed_figure` of
    their median time, `censored_time_s`), or at half their median bound (`bound_j`: between 0 and it)
    where that is less or no time was kept; never above the measurable calls' figure (a bound is the
    resolution of its site's run, which can exceed what was measured, and the run is not the call)."""
    share = (entry["n_sites"] - entry["n_censored"]) / entry["n_sites"]
    measurable = 10**measurable_mu
    quick, how = entry["bound_j"] / 2, "half"
    timed = timed_figure(work, {"time_s": entry.get("censored_time_s")})
    if timed is not None and 10 ** timed[0] < quick:
        quick, how = 10 ** timed[0], f"their median {entry['censored_time_s']:.3g} s {TIMES} a call's steady power"
    return math.log10(share * measurable + (1 - share) * min(quick, measurable)), share, how


def _times(value: float | None, factor: float) -> float | None:
    return None if value is None else value * factor


def _finish(ctx: Context, api: str, mu, half, factor, shift, basis, entry, key, level, notes, rescaled=False) -> Prediction:
    """The prediction at log10 *mu* +- *half* times *factor*; *rescaled*: by the overlay's time ratio."""
    energy = factor * 10**mu
    lo, hi = factor * 10 ** (mu - half), factor * 10 ** (mu + half)
    if basis is Basis.BOUNDED:
        # the measurements say only "below": an upper bound, no lower end. Its high end is not the largest
        # bound seen: a bound is the resolution of a quick call's run, and a call that runs long enough to
        # be measured exceeds it; the bounded factor is calibrated on such calls (tools/model/intervals.py)
        lo = 0.0
    split = split_energy(energy, entry.get("shares") or ctx.group_shares(api))
    evidence = Evidence(
        records=int(entry.get("records", 0)),
        api=key,
        level=level,
        sources=tuple(entry.get("sources", ())),
        note="; ".join(notes) or None,
    )
    return Prediction(
        energy_j=energy,
        interval_j=(lo, hi),
        cpu_j=split["cpu"],
        gpu_j=split["gpu"],
        ram_j=split["ram"],
        basis=Basis.CALIBRATED_RESCALED if rescaled else basis,
        evidence=evidence,
        multiplier=factor * 10**shift,
    )


def _scale(ctx: Context, api: str, level: str, entry: dict, features: dict, notes: list[str]) -> tuple[float, float]:
    """The factor for literal features (epochs, steps, tensor size) and its extra log10 sd."""
    factor, extra = 1.0, 0.0
    ref = entry.get("ref", {}) if level == "api" else {}
    epochs = _positive(features.get("epochs"))
    if epochs is not None and _is_training(ctx.hierarchy, api):
        if "epochs" in ref:
            factor *= epochs / ref["epochs"]
            notes.append(f"scaled by epochs {epochs:g} / {ref['epochs']:g} measured")
        else:
            factor *= epochs / ASSUMED_EPOCHS
            extra = math.hypot(extra, ASSUMED_EPOCHS_SD)
            notes.append(
                f"scaled by epochs {epochs:g} / {ASSUMED_EPOCHS} assumed: the measurements do not record "
                f"their epochs, so {ASSUMED_EPOCHS} (typical of the measured tutorials) was assumed and "
                "the interval widened"
            )
    for feat in _STEP_FEATURES:
        steps = _positive(features.get(feat))
        if steps is None or not _is_training(ctx.hierarchy, api):
            continue
        if feat in ref:
            factor *= steps / ref[feat]
            notes.append(f"scaled by {feat} {steps:g} / {ref[feat]:g} measured")
        else:
            notes.append(f"{feat} not scaled: the measurements do not record theirs")
    size = _positive(features.get("tensor_bytes"))
    if size is not None:
        exps = ctx.model.get("size_exponents", {})
        b = exps.get("per_api", {}).get(api)
        if b is None:
            b = exps.get("per_method", {}).get(api.rpartition(".")[2])
        if b is not None and "args_size" in ref:
            factor *= (size / ref["args_size"]) ** b
            notes.append(f"scaled by input size ({size:g} / {ref['args_size']:g} bytes)^{b:.2f} (data-size sweeps)")
        else:
            notes.append("input size not scaled: no data-size sweep or reference size for this API")
    return factor, extra

def _is_training(hierarchy: Hierarchy, api: str) -> bool:
    if api.rpartition(".")[2] in _EPOCH_METHODS:
        return True
    return hierarchy.kind(api) in _EPOCH_KINDS



def _positive(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or math.isinf(value):
        return None
    return float(value)
