"""A call that writes or reads a model's weights (`Model.save`, `save_weights`, `load_weights`,
`keras.models.save_model`): its API's figure, the fixed cost its measured call sites show (they saved
tutorial-sized models, whose bytes take microseconds), plus the bytes of the weights the analysis
counted (`params`) at a disk's bandwidth and the work model's steady power.
"""

from __future__ import annotations

from dataclasses import replace

from greenlint.predict.context import Context
from greenlint.predict.prediction import Basis, Prediction
from greenlint.predict.work_energy import DISK_B_PER_S, ELEMENT_BYTES, ROOFLINE_HALF, power_for
from greenlint.units import TIMES

#: Methods and functions whose work is a model's weights written or read.
WEIGHT_FILE_CALLS = frozenset({"save", "save_weights", "load_weights", "save_model"})
#: Of those, the ones that write a whole model, its optimizer's state too where it is compiled: up to two
#: slots per weight (Adam's moments), so up to three times the weights' bytes.
WHOLE_MODEL_SAVES = frozenset({"save", "save_model"})
OPTIMIZER_COPIES = 3


def moves_weights(ctx: Context, api: str) -> bool:
    """A call that writes or reads a model's weights (`WEIGHT_FILE_CALLS`, of kind `io`). Its `params`
    are bytes to add (`weights_io`), never work that lets a never-measured API borrow a related group's
    figure (`lookup_figure`): a save's cost is not its class's other methods' (`fit`)."""
    return api.rpartition(".")[2] in WEIGHT_FILE_CALLS and ctx.hierarchy.kind(api) == "io"


def weights_io(ctx: Context, api: str, features: dict, figure: Prediction) -> Prediction:
    """*figure* (the API's own, `lookup_figure`) plus the energy of writing or reading the model's
    weights where the analysis counted them (`params`); *figure* itself for any other call.

    A bound (the API measured only below the resolution) stays a bound, raised by the bytes' energy,
    until the least of that energy passes it: the figure then rests on the work, a point."""
    leaf = api.rpartition(".")[2]
    params = features.get("params")
    if (not moves_weights(ctx, api) or isinstance(params, bool)
            or not isinstance(params, (int, float)) or params <= 0 or figure.energy_j is None
            or figure.interval_j is None):
        return figure
    power = power_for(ctx.model.get("work") or {}, None)
    if not power:
        return figure
    size = params * ELEMENT_BYTES
    spread = 10**ROOFLINE_HALF
    joules = power["steady_w"] * size / DISK_B_PER_S
    most = OPTIMIZER_COPIES if leaf in WHOLE_MODEL_SAVES and features.get("include_optimizer") is not False else 1
    low, high = figure.interval_j
    least, top = joules / spread, high + joules * spread * most
    bound = low <= 0
    point = bound and least > high  # the bytes alone exceed what the bound allows the rest
    energy = figure.energy_j + joules
    note = (f"plus its model's weights: {params:,.0f} {TIMES} {ELEMENT_BYTES} bytes (float32) = {size:.3g} bytes "
            f"at {DISK_B_PER_S:.3g} B/s (a disk; {TIMES}{spread:.2g} either way) {TIMES} {power['steady_w']:.3g} W "
            f"steady = {joules:.3g} J")
    if most > 1:
        note += f"; the high end allows the optimizer's state, up to {most}{TIMES} the weights"
    if point:
        note += "; more than the bound on the rest: the figure rests on the work"
    evidence = replace(figure.evidence, note="; ".join(n for n in (figure.evidence.note, note) if n))
    scale = energy / figure.energy_j if figure.energy_j > 0 else None
    split = {c: (v * scale if v is not None and scale is not None else None)
             for c, v in (("cpu", figure.cpu_j), ("gpu", figure.gpu_j), ("ram", figure.ram_j))}
    basis = Basis.FROM_DATA if point and figure.basis is Basis.BOUNDED else figure.basis
    return replace(figure, energy_j=energy, interval_j=(least if point else low if bound else low + least, top),
                   cpu_j=split["cpu"], gpu_j=split["gpu"], ram_j=split["ram"], basis=basis, evidence=evidence)
