"""A call's figure from its work (power x time, `work_energy`), as the log10 joules of a point and its
interval's ends with a note: the from-work path, and the floor where the code leaves a size unknown.

Both take the work model explicitly (the reference one, or this machine's, `local_work`), so the
calibrated path and the reference paths price work the same way.
"""

from __future__ import annotations

from greenlint.predict.devices import REFERENCE_DEVICE, DeviceModel, GpuSpec, device_work, layers_known
from greenlint.predict.work_energy import (
    DECODE_PIXEL_S,
    MAP_CALL_S,
    ONE_BATCH_METHODS,
    STEP_KINDS,
    TRAINING_FLOPS,
    call_time,
    decoded_pixels,
    derive,
    effective_epochs,
    epochs_ends,
    epochs_of,
    extrapolation_spread,
    flop_s,
    flops_unknown,
    map_calls,
    model_flops,
    model_layers,
    one_batch,
    power_for,
    start_up,
    steps_only,
    time_group,
    traced_layers,
    training_passes,
    unknown_size_span,
    work_log_energy,
)
from greenlint.units import TIMES

#: (log10 J, log10 J of the interval's low and high ends, note).
Span = tuple[float, float, float, str]


def from_work(work: dict, half: float | None, kind: str | None, api: str, features: dict,
              device: GpuSpec | None = None, device_model: DeviceModel | None = None) -> Span | None:
    """The call's figure from its work, None without it. The ends: the fewest and the most epochs
    early stopping allows, each widened by the calibrated half-width *half* and, beyond the longest
    call fitted, `extrapolation_spread`. *kind*: the API's catalog kind; *device*: the GPU a user
    named (`devices.device_work`), priced with *device_model*'s constants (both or neither); or
    REFERENCE_DEVICE, the reference work model's own GPU, which prices only a call whose layers'
    traffic is known (`layers_known`: a named architecture's), the others by the fitted time model."""
    group = time_group(kind, api, features)
    batch = one_batch(api, features)
    y = work_log_energy(work, group, batch)
    if y is None or half is None or group is None:
        return None
    shaped, features = batch is not features, batch
    if flops_unknown(api, features) or steps_only(features):
        return None  # the least the code allows, not a typical model's FLOPs nor batch (`unknown_size_floor`)
    if device is not None and device_model is not None and (device is not REFERENCE_DEVICE or layers_known(features)):
        on_device = device_work(work, group, features, device, device_model, half, not shaped)
        if on_device is not None:
            return on_device
    model = work["time"][group]
    fewest, most = epochs_ends(features)
    (n, flops), (n_fewest, flops_fewest), (n_most, flops_most) = (derive(group, f) for f in (features, fewest, most))
    if n is None or n_fewest is None or n_most is None:
        return None  # not reached: `work_log_energy` priced this work, so its steps are known
    t = call_time(model, group, features, n, flops, not shaped)
    offset = work.get("offsets", {}).get(api, 0.0)
    power = power_for(work, group) or {}  # there is one: `work_log_energy` used it
    shape = ""
    if shaped:
        kind = "training " if group == "training" else ""
        shape = f"one {kind}step on a batch of {features['samples']:g}; " if features["steps"] == 1 else \
            f"{features['steps']:g} {kind}steps on batches of {features['batch_size']:g}; "
    note = (f"power {TIMES} time of its work: {shape}{n:.3g} steps"
            + (f", {flops:.3g} FLOPs" if flops else " (a pass over data: the fitted calls' median FLOPs per step)")
            + _least_flop_said(model, features, flops)
            + _frozen_said(group, features)
            + (f" → about {t:.3g} s (the first call's {model['t0']:.3g} s start-up is paid once, not per step)"
               if shaped else f" → about {t:.3g} s, of which {start_up(model, features):.3g} s start-up"
               + _layers_said(model, features)
               + _epochs_said(model, group, features))
            + _map_said(group, features)
            + _decode_said(group, features)
            + f" → {10**y:.3g} J "
            f"({power['steady_w']:.3g} W steady {TIMES} time, linear in the work past the start-up)")
    t_most = call_time(model, group, most, n_most, flops_most)
    if extrapolation_spread(model, t_most):
        note += (f"; {t_most / model['t_max']:.3g}{TIMES} longer than the longest call the time model "
                 "was fitted on: the interval widened")
    if offset:
        note += f", {TIMES}{10**offset:.3g} for this API's measured call sites"
    if fewest is not features:
        note += (f"; early stopping: between {fewest['epochs']:g} (its patience) and {most['epochs']:g} "
                 f"epochs, {effective_epochs(features):.3g} assumed; the interval spans both")
    if features.get("samples_bound") == "upper":
        note += (f"; at most {features['samples']:g} samples (a slice or filter of data of unknown size): "
                 "priced at that bound, the most its data allows")
    if "wall_s" in features and group == "training":
        note += f"; TimeStopping ends it at most {features['wall_s']:g} s and one epoch in"
    least, largest = work_log_energy(work, group, fewest), work_log_energy(work, group, most)
    if least is None or largest is None:
        return None
    t_fewest = call_time(model, group, fewest, n_fewest, flops_fewest)
    low = least - half - extrapolation_spread(model, t_fewest)
    high = largest + half + extrapolation_spread(model, t_most)
    return y + offset, low + offset, high + offset, note


def _least_flop_said(model: dict, features: dict, flops: float | None) -> str:
    """How a lower bound's FLOPs are timed (`work_energy.flop_s`) in words, where not at the fitted cost."""
    each = flop_s(model, features)
    if not flops or each == model["per_flop"]:
        return ""
    return f" at {1 / each:.3g} FLOP/s (a lower bound's: one large op's throughput, not whole runs' average)"


def _layers_said(model: dict, features: dict) -> str:
    """The start-up's share for tracing the model's layers (`start_up`), in words: priced, or why none is."""
    each, traced = model.get("per_layer_start", 0.0), traced_layers(features)
    if not each:
        return ""
    if features.get("traces_step") is False:
        return f" (none for tracing: its model's call at line {features.get('traced_at')} traced this step)"
    if not traced:
        return " (none for tracing: whether an earlier call traced its model's step is not known)"
    layers = model_layers(features) or 1
    shared = traced < layers
    return (f" ({layers} layers traced at {each:.2g} s each"
            + (f", once for its loop's {layers / traced:.0f} runs)" if shared else ")"))


def _frozen_said(group: str, features: dict) -> str:
    """The forward passes a trained sample costs where some layers are frozen (`training_passes`), in words."""
    passes = training_passes(features)
    if group != "training" or passes >= TRAINING_FLOPS:
        return ""
    return (f" ({passes:.3g} forward passes a trained sample, not {TRAINING_FLOPS:g}: the backward pass of the "
            "layers it trains, the others frozen)")


def _map_said(group: str, features: dict) -> str:
    """The calls of its pipeline's `Dataset.map` functions in words (`map_calls`), "" where none are priced."""
    calls = map_calls(features, epochs_of(group, features))
    if not calls:
        return ""
    return (f"; its dataset's map: {calls:.3g} calls of its function(s) at {MAP_CALL_S:.2g} s each "
            f"(= {calls * MAP_CALL_S:.3g} s, in the time; what their ops compute on each element is not counted)")


def _decode_said(group: str, features: dict) -> str:
    """The pixels its pipeline decodes from image files in words (`decoded_pixels`), "" where none are priced."""
    pixels = decoded_pixels(features, epochs_of(group, features))
    if not pixels:
        return ""
    return (f"; its files' decode: {pixels:.3g} pixels (each sample's image at image_size, every pass; the files' "
            f"own size is not known) at {DECODE_PIXEL_S:.2g} s each (= {pixels * DECODE_PIXEL_S:.3g} s, in the time)")


def _epochs_said(model: dict, group: str, features: dict) -> str:
    """The epochs' set-up in the start-up's words (`per_epoch` x epochs), where the time model has a
    per-epoch cost (a calibration fitted one); "" otherwise."""
    per_epoch = model.get("per_epoch") or 0.0
    if not per_epoch:
        return ""
    epochs = epochs_of(group, features)
    return f", {per_epoch * epochs:.3g} s the set-up of {epochs:.3g} epoch{'s' if epochs != 1 else ''}"


def unknown_size_floor(work: dict, half: float | None, kind: str | None, api: str, features: dict) -> Span | None:
    """`work_energy.unknown_size_span` (data size, epochs or model FLOPs unknown) of the call's work
    (`one_batch`; a one-batch call or a step, `step`, on a batch it does not size: one step of at least one
    sample) with this API's offset from the work model, None where it does not apply."""
    group = time_group(kind, api, features)
    batch = one_batch(api, features)
    if batch is features and (api.rpartition(".")[2] in ONE_BATCH_METHODS or features.get("step") in STEP_KINDS):
        batch = {**features, "epochs": 1, "one_step": True}  # one step on a batch of unstated size
    span = unknown_size_span(work, group, batch, half or 0.0, model_flops(api))
    if span is None or half is None:
        return None
    offset = work.get("offsets", {}).get(api, 0.0)
    mu, low, high, note = span
    return mu + offset, low + offset, high + offset, note
