"""A tensor op's or eager layer call's figure from its own FLOPs and bytes (`work_energy.roofline`) at
the steady power of sustained compute, rescaled by this machine's calibration; where the code does not
size its tensors, a floor (`unsized_work`)."""

from __future__ import annotations

from dataclasses import replace

from greenlint.predict.context import Context
from greenlint.predict.prediction import Basis, Evidence, Prediction, split_energy
from greenlint.predict.tables import positive_number
from greenlint.predict.work_energy import DISPATCH_S, ROOFLINE_HALF, power_for, roofline
from greenlint.units import TIMES


def own_work(ctx: Context, api: str, features: dict) -> Prediction | None:
    """A tensor op's or eager layer call's figure from its own work (`work_energy.roofline`) at the
    steady power of sustained compute (the training group's), rescaled by this machine's calibration; None where its work is unknown."""
    found = roofline(features)
    power = power_for(ctx.model.get("work") or {}, "training")  # sustained compute's steady power
    if found is None or not power:
        return None
    seconds, how = found
    energy = power["steady_w"] * seconds
    note = (f"from its own work on the reference GPU: {how} → about {seconds:.3g} s {TIMES} "
            f"{power['steady_w']:.3g} W steady = {energy:.3g} J; the interval is the device constants' "
            f"uncertainty ({TIMES}{10**ROOFLINE_HALF:.2g} either way), not a measurement of this API")
    ov = ctx.overlay
    basis = Basis.PREDICTED
    if ov is not None and ov.time_ratio:
        energy *= ov.time_ratio
        basis = Basis.CALIBRATED_RESCALED
        note += "; " + ctx.rescale_note
    half = 10**ROOFLINE_HALF
    split = split_energy(energy, ctx.group_shares(api))
    return Prediction(energy, (energy / half, energy * half), split["cpu"], split["gpu"], split["ram"], basis,
                      Evidence(api=api, level="work", note=note))


def unsized_work(ctx: Context, api: str, features: dict, measured: Prediction) -> Prediction:
    """A tensor op's or eager layer call whose tensors the code does not size (no FLOPs, elements
    nor bytes): a floor, not its API's figure *measured* on other programs' tensors, which says
    nothing of this call's and, multiplied by a loop's runs, would dominate a script's total. That
    holds for a bound too (`Basis.BOUNDED`: other programs' calls were all under the resolution of
    their runs, itself no figure of this call's). The least is one dispatch (`work_energy.DISPATCH_S`)
    at sustained compute's steady power; the stated most the high end of *measured*. *measured*
    itself where the work is known or it has no figure."""
    power = power_for(ctx.model.get("work") or {}, "training")
    if (measured.energy_j is None or measured.interval_j is None or not power
            or any(positive_number(features.get(k)) is not None for k in ("flops", "elements", "tensor_bytes"))):
        return measured
    least = power["steady_w"] * DISPATCH_S
    ov = ctx.overlay
    if ov is not None and ov.time_ratio:
        least *= ov.time_ratio  # the reference figure's interval was rescaled alike
    most = max(measured.interval_j[1], measured.energy_j, least)
    note = (f"its tensors' sizes are not known from the code: at least one dispatch ({DISPATCH_S:.2g} s {TIMES} "
            f"{power['steady_w']:.3g} W = {least:.3g} J), at most the high end of its figure from other "
            f"programs' tensors ({most:.3g} J), which is not this call's: a floor, not a point")
    split = split_energy(least, ctx.group_shares(api))
    evidence = replace(measured.evidence, note="; ".join(filter(None, [measured.evidence.note, note])))
    basis = Basis.FROM_DATA if measured.basis is Basis.BOUNDED else measured.basis  # a range, as any floor
    return replace(measured, energy_j=least, interval_j=(least, most), cpu_j=split["cpu"], gpu_j=split["gpu"],
                   ram_j=split["ram"], basis=basis, evidence=evidence, multiplier=1.0, floor=True)
