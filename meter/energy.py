"""Net energy of a measurement record, through `meter.window` (the KB's arithmetic, shared).

The KB computes the same numbers when it ingests the file; the meter computes them first to
report what it measured. Components that are `null` (not measured) are left out, never 0 J.
"""

from __future__ import annotations

import json

from meter.window import DEFAULT_INTERVAL_S, CallEnergy, component_energy


def record_energy(body: dict) -> CallEnergy:
    settings, times = body["settings"], body["times"]
    interval = float(settings.get("measurement_interval_s") or DEFAULT_INTERVAL_S)
    n_base = int(round(float(settings.get("wait_per_stable_check_loop_s") or 20) / interval))
    comps = {}
    for comp, blob in body["energy_data"].items():
        if blob is None:
            continue
        frame = json.loads(blob) if isinstance(blob, str) else blob
        cols, rows = frame["columns"], frame["data"]
        value_col = cols.index("power_draw (W)" if comp == "gpu" else "energy (J)")
        clock = "nvidia" if comp == "gpu" else "perf"
        comps[comp] = component_energy(
            [r[cols.index("time_elapsed")] for r in rows],
            [r[value_col] for r in rows],
            times[f"start_time_{clock}"],
            times[f"end_time_{clock}"],
            kind="power" if comp == "gpu" else "energy",
            interval_s=interval,
            baseline_samples=n_base,
        )
    return CallEnergy(comps)


def measured_net_j(energy: CallEnergy) -> float | None:
    """The total net energy, or None when nothing was measured (`CallEnergy.net_j` sums to 0 then)."""
    return energy.net_j if energy.components else None
