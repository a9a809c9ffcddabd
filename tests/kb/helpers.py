"""Small constructed measurement files in the FECoM/CodeGreen format."""

from __future__ import annotations

import gzip
import json
import lzma
from pathlib import Path

STEP = 0.5


def split_frame(columns: list[str], rows: list[list[float]]) -> str:
    return json.dumps({"columns": columns, "index": list(range(len(rows))), "data": rows})


def measurement(
    signature: str = "tensorflow.keras.Sequential.fit()",
    *,
    n: int = 80,
    start: int = 45,
    end: int = 50,
    cpu_idle: float = 17.0,
    cpu_extra: float = 10.0,
    ram_idle: float = 3.5,
    gpu_idle: float = 20.0,
    gpu_extra: float = 40.0,
    cpu_rows: int | None = None,
    sizes: dict | None = None,
    metadata: dict | None = None,
    gpu: bool = True,
) -> dict:
    """One record: flat idle series with extra load on samples [start, end); call from t[start] to t[end]."""
    t = [STEP * (i + 1) for i in range(n)]
    cpu = [[t[i], cpu_idle + (cpu_extra if start <= i < end else 0.0)] for i in range(cpu_rows or n)]
    ram = [[t[i], ram_idle] for i in range(cpu_rows or n)]
    g = [[1.7e9 + t[i], gpu_idle + (gpu_extra if start <= i < end else 0.0), t[i], 40] for i in range(n)]
    body = {
        "energy_data": {
            "cpu": split_frame(["time_elapsed", "energy (J)"], cpu),
            "ram": split_frame(["time_elapsed", "energy (J)"], ram),
            "gpu": split_frame(["timestamp", "power_draw (W)", "time_elapsed", "temperature"], g) if gpu else None,
        },
        "times": {
            "start_time_execution": 1_000_000_000_000,
            "end_time_execution": 1_000_000_000_000 + int((end - start) * STEP * 1e9),
            "start_time_perf": t[start],
            "end_time_perf": t[end],
            "start_time_nvidia": t[start],
            "end_time_nvidia": t[end],
            "sys_start_time_perf": 0,
            "sys_start_time_nvidia": 0,
            "begin_stable_check_time": 0,
            "begin_temperature_check_time": 0,
        },
        "cpu_temperatures": split_frame(["time_elapsed", "temperature", "timestamp"], []),
        "settings": {"measurement_interval_s": 0.5, "wait_per_stable_check_loop_s": 20},
        "input_sizes": sizes if sizes is not None else {"args_size": 100, "kwargs_size": None, "object_size": 0},
    }
    if metadata is not None:
        body["project_metadata"] = metadata
    return {signature: body}


def write(path: Path, data, *, raw: bytes | None = None) -> Path:
    """Write *data* as JSON at *path*, compressed by its suffix (.xz, .gz) unless *raw* bytes are given."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = raw if raw is not None else json.dumps(data).encode()
    if raw is None and path.name.endswith(".xz"):
        payload = lzma.compress(payload)
    elif raw is None and path.name.endswith(".gz"):
        payload = gzip.compress(payload)
    path.write_bytes(payload)
    return path
