"""A call that writes, reads or converts a model (`Model.save`, `save_weights`, `load_weights`,
`keras.models.save_model`, `load_model`, `tf.saved_model.load`, `TFLiteConverter.convert`): the bytes
it moves are what the model holds. Where the analysis counted the model's weights (`params`): its API's
figure, the fixed cost its measured call sites show (they saved tutorial-sized models, whose bytes take
microseconds), plus those bytes at a disk's bandwidth and the work model's steady power. Where it did
not, nothing in the code bounds the bytes: the figure is a floor, the least its API's measured calls
show, up to a stated most (`HIGH_PARAMS`), never an upper bound.
"""

from __future__ import annotations

from dataclasses import replace

from greenlint.predict.context import Context
from greenlint.predict.prediction import Basis, Prediction
from greenlint.predict.work_energy import DISK_B_PER_S, ELEMENT_BYTES, ROOFLINE_HALF, power_for
from greenlint.units import TIMES

#: Methods and functions whose work is a model's bytes, written or read (of kind `io`, or, for
#: `load_model`, `model-construction`).
MODEL_FILE_CALLS = frozenset({"save", "save_weights", "load_weights", "save_model", "load", "load_model",
                              "restore", "export", "export_saved_model"})
#: A converter's `convert` (`tf.lite.TFLiteConverter`, TF-TRT's `Converter`) rewrites the model it was
#: made from: its bytes too.
CONVERTER = "Converter"
#: Of those, the ones that write or read a whole model, its optimizer's state too where it is compiled: up
#: to two slots per weight (Adam's moments), so up to three times the weights' bytes.
WHOLE_MODEL_CALLS = frozenset({"save", "save_model", "load_model"})
OPTIMIZER_COPIES = 3
#: The most a model is taken to hold where the analysis does not count its weights: 10^9 parameters
#: (4 GB of float32), about three times keras.applications' largest (ConvNeXtXLarge, 350 M; Liu et al.
#: 2022); stated in the note, not inferred. The least is none: the fixed cost alone.
HIGH_PARAMS = 1e9


def moves_weights(ctx: Context, api: str) -> bool:
    """A call that writes, reads or converts a model (`MODEL_FILE_CALLS`, a converter's `convert`); not a
    dataset's save or load (`tf.data`). Its `params` are bytes to add (`weights_io`), never work that lets
    a never-measured API borrow a related group's figure (`lookup_figure`): a save's cost is not its
    class's other methods' (`fit`)."""
    owner, _, leaf = api.rpartition(".")
    if api.startswith("tensorflow.data."):
        return False
    if leaf == "convert":
        return owner.endswith(CONVERTER)
    return leaf in MODEL_FILE_CALLS and ctx.hierarchy.kind(api) in ("io", "model-construction")


def weights_io(ctx: Context, api: str, features: dict, figure: Prediction) -> Prediction:
    """*figure* (the API's own, `lookup_figure`) plus the energy of the model's bytes: those of the weights
    the analysis counted (`params`), else a floor up to HIGH_PARAMS' (`_unknown_model`); *figure* itself
    for any other call, or where *figure* has no interval.

    A bound (the API measured only below the resolution) stays a bound, raised by the bytes' energy,
    until the least of that energy passes it: the figure then rests on the work, a point."""
    leaf = api.rpartition(".")[2]
    if not moves_weights(ctx, api) or figure.energy_j is None or figure.interval_j is None:
        return figure
    power = power_for(ctx.model.get("work") or {}, None)
    if not power:
        return figure
    params = features.get("params")
    copies = (OPTIMIZER_COPIES if leaf in WHOLE_MODEL_CALLS and features.get("include_optimizer") is not False
              else 1)
    if isinstance(params, bool) or not isinstance(params, (int, float)) or params <= 0:
        entry = ctx.model["apis"].get(api) or {}
        bound = entry.get("bound_j") if entry.get("n_censored") and figure.evidence.level == "api" else None
        return _unknown_model(figure, figure.energy_j, figure.interval_j, bound, power["steady_w"], copies)
    size = params * ELEMENT_BYTES
    spread = 10**ROOFLINE_HALF
    joules = power["steady_w"] * size / DISK_B_PER_S
    low, high = figure.interval_j
    least, top = joules / spread, high + joules * spread * copies
    bound = low <= 0
    point = bound and least > high  # the bytes alone exceed what the bound allows the rest
    energy = figure.energy_j + joules
    note = (f"plus its model's weights: {params:,.0f} {TIMES} {ELEMENT_BYTES} bytes (float32) = {size:.3g} bytes "
            f"at {DISK_B_PER_S:.3g} B/s (a disk; {TIMES}{spread:.2g} either way) {TIMES} {power['steady_w']:.3g} W "
            f"steady = {joules:.3g} J")
    if copies > 1:
        note += f"; the high end allows the optimizer's state, up to {copies}{TIMES} the weights"
    if point:
        note += "; more than the bound on the rest: the figure rests on the work"
    evidence = replace(figure.evidence, note="; ".join(n for n in (figure.evidence.note, note) if n))
    scale = energy / figure.energy_j if figure.energy_j > 0 else None
    split = {c: (v * scale if v is not None and scale is not None else None)
             for c, v in (("cpu", figure.cpu_j), ("gpu", figure.gpu_j), ("ram", figure.ram_j))}
    basis = Basis.FROM_DATA if point and figure.basis is Basis.BOUNDED else figure.basis
    return replace(figure, energy_j=energy, interval_j=(least if point else low if bound else low + least, top),
                   cpu_j=split["cpu"], gpu_j=split["gpu"], ram_j=split["ram"], basis=basis, evidence=evidence)


def _unknown_model(figure: Prediction, energy: float, interval: tuple[float, float], bound_j: float | None,
                   steady_w: float, copies: int) -> Prediction:
    """A floor: the model's bytes are not counted, so nothing bounds them. Like any floor (`unknown_size_span`),
    its figure is the least work's central figure and its low end that figure's spread below: the API's
    fixed cost, what its measured calls show (*energy*, *interval*; a bound, which has no low end, mirrors its
    high end), yet no more than half the bound its quick calls were measured under (*bound_j*: they were
    small models; a measurable call of a large one must not raise the least). The high end adds HIGH_PARAMS'
    bytes (*copies* of them for a whole model), stated in the note."""
    low, high = interval
    low = low if low > 0 else energy**2 / high if high > 0 else 0.0
    least = min(energy, bound_j / 2) if bound_j else energy
    spread = 10**ROOFLINE_HALF
    joules = steady_w * HIGH_PARAMS * ELEMENT_BYTES * copies / DISK_B_PER_S
    note = (f"a floor: the model's size is not known from the code, so the figure is the least its API's measured "
            f"calls show ({least:.3g} J) and the interval's high end assumes up to {HIGH_PARAMS:.3g} parameters "
            f"(float32{f', {copies}{TIMES} for the optimizer' if copies > 1 else ''}) at {DISK_B_PER_S:.3g} B/s "
            f"(stated, not inferred)")
    evidence = replace(figure.evidence, note="; ".join(n for n in (figure.evidence.note, note) if n))
    scale = least / energy if energy > 0 else 0.0
    split = {c: (v * scale if v is not None else None)
             for c, v in (("cpu", figure.cpu_j), ("gpu", figure.gpu_j), ("ram", figure.ram_j))}
    basis = Basis.FROM_DATA if figure.basis is Basis.BOUNDED else figure.basis
    return replace(figure, energy_j=least, interval_j=(min(low, least), high + joules * spread), cpu_j=split["cpu"],
                   gpu_j=split["gpu"], ram_j=split["ram"], basis=basis, evidence=evidence, floor=True)
