"""Turn one parsed measurement record into the energy fields of a KB record (FECoM's method)."""

from __future__ import annotations

from typing import Any

from greenlint.kb.measurement import RawCall
from greenlint.window import DEFAULT_INTERVAL_S, CallEnergy, baseline_slice, measured_net_j, record_energy

NS = 1_000_000_000
#: Watts above its idle baseline at which a GPU's draw counts as risen (FECoM's GPU tolerance).
GPU_RISE_W = 2.0


def call_energy(call: RawCall) -> CallEnergy:
    """CPU and DRAM on the perf clock, GPU on the nvidia clock: the meter's own `record_energy`."""
    return record_energy({"settings": call.settings, "times": call.times, "energy_data": call.energy_data})


def startup(call: RawCall) -> dict[str, float]:
    """A whole program's start-up (`startup_s`, `startup_j`): from its first line (imports included)
    to the runtime's start on the GPU, the first GPU sample more than `GPU_RISE_W` above the idle
    baseline; its net joules over that span, FECoM's way (`record_energy`). {} without a GPU series,
    or where the GPU never rises (the program ran no device work)."""
    gpu = call.energy_data.get("gpu")
    if not gpu:
        return {}
    cols, rows = gpu["columns"], gpu["data"]
    t = [float(r[cols.index("time_elapsed")]) for r in rows]
    w = [float(r[cols.index("power_draw (W)")]) for r in rows]
    start, end = call.times["start_time_nvidia"], call.times["end_time_nvidia"]
    idle = w[baseline_slice(t, start)]
    if not idle:
        return {}
    level = sum(idle) / len(idle) + GPU_RISE_W
    rise = next((ti for ti, wi in zip(t, w) if start <= ti <= end and wi > level), None)
    if rise is None or rise <= start:
        return {}
    span = rise - start
    times = {**call.times, "end_time_nvidia": rise, "end_time_perf": call.times["start_time_perf"] + span}
    net = measured_net_j(record_energy({"settings": call.settings, "times": times,
                                        "energy_data": {k: v for k, v in call.energy_data.items() if v}}))
    return {"startup_s": round(span, 3), "startup_j": round(net, 4)} if net is not None else {}


def size(value: Any) -> int | None:
    """A pickled input size in bytes; FECoM's null and Greenlight's 0 / 0.0 mean absent."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    return int(value)


def idle_power_w(call: RawCall, e: CallEnergy) -> tuple[float | None, float | None, float | None]:
    """The idle baselines of the call as power (W) for cpu, ram, gpu; None where undefined."""
    interval = float(call.settings.get("measurement_interval_s") or DEFAULT_INTERVAL_S)
    out = []
    for name in ("cpu", "ram", "gpu"):
        c = e.components.get(name)
        if c is None or c.baseline is None:
            out.append(None)
        else:
            out.append(c.baseline if name == "gpu" else c.baseline / interval)
    return tuple(out)


def executions(call: RawCall) -> int:
    """How many back-to-back executions of the call one window covers (the meter's loops), else 1."""
    n = call.meter.get("executions", 1)
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 1 else 1


def features(call: RawCall) -> dict[str, Any]:
    """Extra features a record carries: the meter's static features, basis and executions."""
    out = dict(call.meter.get("features") or {})
    if "basis" in call.meter:
        out["basis"] = call.meter["basis"]
    if executions(call) > 1:
        out["executions"] = executions(call)
    return out


def energy_fields(call: RawCall, e: CallEnergy) -> dict[str, Any]:
    """The KBRecord fields computed from one call's measurements, per execution of the call."""
    n = executions(call)
    main = e.components.get("cpu") or next(iter(e.components.values()))
    fields: dict[str, Any] = {
        "execution_time_s": (call.times["end_time_execution"] - call.times["start_time_execution"]) / NS / n,
        "noise_j": e.noise_j / n if e.noise_j is not None else None,
        "below_resolution": e.below_resolution,
        "upper_bound_j": e.upper_bound_j / n,
        "series_cut_short": main.cut_short,
        "window_samples": main.window_samples,
    }
    for name in ("cpu", "ram", "gpu"):
        c = e.components.get(name)
        fields[f"{name}_gross_j"] = c.gross_j / n if c else None
        fields[f"{name}_net_j"] = c.net_j / n if c and c.net_j is not None else None
    for key in ("args_size", "kwargs_size", "object_size"):
        fields[key] = size(call.input_sizes.get(key))
    return fields
