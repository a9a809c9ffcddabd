"""Calls that do no tensor work (a no-work kind: a constructor, an accessor): under the bound the
KB's below-resolution measurements of such calls establish (their figure what those calls took, at a
call's steady power, where that is under it), or the one this machine's calibration measured, or the
reference bound moved by this machine's time ratio.
"""

from __future__ import annotations

from dataclasses import replace

from greenlint.catalog.kinds import NO_WORK_KINDS
from greenlint.predict.calibration import NOISE_SD, Z80, Overlay
from greenlint.predict.context import Context
from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.predict.tables import NEGLIGIBLE_MAX_TIME_S
from greenlint.predict.work_energy import timed_figure
from greenlint.units import TIMES


def no_work(ctx: Context, api: str) -> Prediction | None:
    """A call that does no tensor work whose own measurements do not say otherwise (`reference_bound`),
    under this machine's bound where its calibration sets one; None for any other call."""
    negligible = reference_bound(ctx.model, ctx.hierarchy, api)
    if negligible is None:
        return None
    ov = ctx.overlay
    here = this_machines_bound(ov, ctx.hierarchy) if ov is not None else None
    if here is not None:  # such a call measured on this machine: its bound is this machine's
        bound, how = here
        return replace(negligible, energy_j=bound, interval_j=(0.0, bound),
                       evidence=replace(negligible.evidence, note=f"does no tensor work ({ctx.hierarchy.kind(api)}): {how}"))
    if ov is not None and ov.time_ratio:  # a bound moves with the machine like any figure
        ratio, bound = ov.time_ratio, negligible.interval_j[1] if negligible.interval_j else 0.0
        note = f"{negligible.evidence.note}; {TIMES}{ratio:.3g}, this machine's execution-time ratio"
        return replace(negligible, energy_j=(negligible.energy_j or 0.0) * ratio,
                       interval_j=(0.0, bound * ratio), evidence=replace(negligible.evidence, note=note))
    return negligible


def reference_bound(model: dict, hierarchy: Hierarchy, api: str) -> Prediction | None:
    """A call that does no tensor work (a no-work kind) whose own measurements do not say otherwise:
    under the bound the KB's below-resolution measurements of such calls establish, its figure what
    they took (`work_energy.timed_figure`) where that is under the bound."""
    table = model.get("negligible")
    if not table or hierarchy.kind(api) not in NO_WORK_KINDS:
        return None
    own = model["apis"].get(api)
    if own is not None and (own["n_censored"] < own["n_sites"] or (own.get("time_s") or 0) > NEGLIGIBLE_MAX_TIME_S):
        return None  # measured above the resolution, or too long to be negligible: its own data decide
    bound = table["bound_j"]
    note = (f"does no tensor work ({hierarchy.kind(api)}): {table['n_sites']} measured call sites of "
            f"{table['n_apis']} such APIs (FECoM/Greenlight) were all below the resolution, each under about "
            f"{bound:.3g} J (median bound): an upper bound, not a measurement")
    timed = timed_figure(model.get("work") or {}, table)
    figure = bound
    if timed is not None and 10 ** timed[0] < bound:  # the resolution of their runs is no figure of the call
        figure, note = 10 ** timed[0], f"{note}; {timed[1]}"
    evidence = Evidence(records=table["records"], api=api if own else None, level="kind",
                        sources=tuple(table["sources"]), note=note)
    return Prediction(figure, (0.0, bound), None, None, None, Basis.NEGLIGIBLE, evidence)


def this_machines_bound(ov: Overlay, hierarchy: Hierarchy) -> tuple[float, str] | None:
    """(joules, how) of the bound this machine's calibration sets on a call that does no tensor work:
    the highest 80 % end of its no-work workloads' joules per call (a layer's constructor); None
    where it measured none."""
    found = [m for api, ms in ov.measured.items() if hierarchy.kind(api) in NO_WORK_KINDS for m in ms]
    if not found:
        return None
    top = max(found, key=lambda m: m.per_call_j * 10 ** (Z80 * max(m.sd, NOISE_SD)))
    bound = top.per_call_j * 10 ** (Z80 * max(top.sd, NOISE_SD))
    return bound, (f"such calls measured on this machine ({ov.hardware_id}) by `greenlint calibrate`: "
                   f"{top.workload} {top.per_call_j:.3g} J per call; under about {bound:.3g} J (its 80 % high "
                   "end): an upper bound, not a measurement of this call")
