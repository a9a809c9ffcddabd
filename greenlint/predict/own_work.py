"""A tensor op's or eager layer call's figure from its own FLOPs and bytes (`work_energy.roofline`) at
the steady power of sustained compute, rescaled by this machine's calibration."""

from __future__ import annotations

from greenlint.predict.context import Context
from greenlint.predict.prediction import Basis, Evidence, Prediction, split_energy
from greenlint.predict.work_energy import ROOFLINE_HALF, power_for, roofline
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
