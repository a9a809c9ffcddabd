"""Read FECoM/CodeGreen measurement files (.json, .json.xz, .json.gz) and compute each call's energy.

A file is a JSON list; each element maps one raw API signature to a dict with ``energy_data``
(``cpu``/``ram``/``gpu``, each a pandas ``to_json(orient="split")`` string or dict), ``times``,
``settings``, ``input_sizes`` and, in Greenlight, ``project_metadata``. See
``../shared/fecom/README.md`` for the format. A ``null`` series is a component that was not
measured (our meter where a counter is unreadable); the public data always has all three.
Files written by ``greenlint measure`` add ``hardware`` (the machine) and ``meter`` (how it measured,
``executions`` of the call inside one window, static ``features``, ``basis``).
"""

from __future__ import annotations

import gzip
import json
import lzma
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MEASUREMENT_SUFFIXES = (".json", ".json.xz", ".json.gz")
_FECOM_PARENS = re.compile(r"\(.*?\)")
_SERIES = {"cpu": "energy (J)", "ram": "energy (J)", "gpu": "power_draw (W)"}
_TIME_KEYS = ("start_time_execution", "end_time_execution", "start_time_perf", "end_time_perf")


class MeasurementFileError(Exception):
    """A file that cannot be used as a whole; the message says why."""


class RecordError(Exception):
    """One malformed record inside an otherwise readable file."""


def fecom_name(raw_signature: str) -> str:
    """FECoM's cleaned name: its non-greedy regex removes every ``(...)`` (not balanced)."""
    return _FECOM_PARENS.sub("", raw_signature)


def is_measurement_file(path: Path) -> bool:
    return path.name.endswith(MEASUREMENT_SUFFIXES)


def read_measurement_file(path: Path) -> list[Any]:
    """The JSON list in *path*; raises MeasurementFileError for empty, truncated or malformed files."""
    path = Path(path)
    try:
        if path.stat().st_size == 0:
            raise MeasurementFileError("empty file (0 bytes)")
        if path.name.endswith(".xz"):
            with lzma.open(path, "rb") as fh:
                raw = fh.read()
        elif path.name.endswith(".gz"):
            with gzip.open(path, "rb") as fh:
                raw = fh.read()
        else:
            raw = path.read_bytes()
    except (lzma.LZMAError, gzip.BadGzipFile, zlib.error, EOFError) as exc:
        raise MeasurementFileError(f"truncated or corrupt compressed stream ({exc})") from None
    except OSError as exc:
        raise MeasurementFileError(f"cannot read file ({exc.strerror or exc})") from None
    if not raw.strip():
        raise MeasurementFileError("empty file (decompresses to 0 bytes)")
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise MeasurementFileError("not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise MeasurementFileError(f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(data, list):
        raise MeasurementFileError(f"expected a JSON list of records, found a {type(data).__name__}")
    return data


@dataclass(frozen=True)
class RawCall:
    """One record of a measurement file, validated, with its series decoded."""

    raw_signature: str
    times: dict[str, float]
    settings: dict[str, Any]
    input_sizes: dict[str, Any]
    project_metadata: dict[str, Any]
    hardware_id: str | None  # from the meter's ``hardware`` block, where the file has one
    energy_data: dict[str, dict]  # decoded split frames of the measured components (cpu, ram, gpu)
    meter: dict[str, Any]  # greenlint's own ``meter`` block (executions, features, basis), if any


def _decode_series(name: str, blob: Any) -> dict:
    """The split frame of one series, checked to have numeric time and value columns."""
    frame = json.loads(blob) if isinstance(blob, str) else blob
    if not isinstance(frame, dict) or not {"columns", "data"} <= frame.keys():
        raise RecordError(f"energy_data.{name} is not a split-orient frame (columns, data)")
    columns = list(frame["columns"])
    try:
        it, iv = columns.index("time_elapsed"), columns.index(_SERIES[name])
    except ValueError:
        raise RecordError(f"energy_data.{name} lacks 'time_elapsed' or {_SERIES[name]!r} (has {columns})") from None
    try:
        for r in frame["data"]:
            float(r[it]), float(r[iv])
    except (TypeError, ValueError, IndexError):
        raise RecordError(f"energy_data.{name} has a non-numeric or short row") from None
    return frame


def parse_record(item: Any) -> RawCall:
    """Validate one list element; raises RecordError naming what is wrong."""
    if not isinstance(item, dict) or len(item) != 1:
        raise RecordError("expected an object with exactly one key (the API signature)")
    (signature, body), = item.items()
    if not isinstance(body, dict):
        raise RecordError(f"value of {signature!r} is not an object")
    energy, times = body.get("energy_data"), body.get("times")
    if not isinstance(energy, dict) or not isinstance(times, dict):
        raise RecordError("missing energy_data or times")
    missing = [k for k in _TIME_KEYS if not isinstance(times.get(k), (int, float))]
    if missing:
        raise RecordError(f"times lacks {', '.join(missing)}")
    series = {}
    for name in _SERIES:
        if name not in energy:
            raise RecordError(f"energy_data lacks {name} (null marks a component that was not measured)")
        if energy[name] is None:
            continue
        try:
            series[name] = _decode_series(name, energy[name])
        except json.JSONDecodeError as exc:
            raise RecordError(f"energy_data.{name} is not valid JSON ({exc.msg})") from None
    if not series:
        raise RecordError("no component was measured (cpu, ram and gpu are all null)")
    if "gpu" in series and not all(isinstance(times.get(k), (int, float)) for k in ("start_time_nvidia", "end_time_nvidia")):
        raise RecordError("a GPU series without times.start_time_nvidia/end_time_nvidia")
    hardware = body.get("hardware")
    hw_id = hardware.get("hardware_id") if isinstance(hardware, dict) else None
    meter = body.get("meter") if isinstance(body.get("meter"), dict) else {}
    return RawCall(
        raw_signature=signature,
        times=times,
        settings=body.get("settings") or {},
        input_sizes=body.get("input_sizes") or {},
        project_metadata=body.get("project_metadata") or {},
        hardware_id=hw_id if isinstance(hw_id, str) and hw_id else None,
        energy_data=series,
        meter=meter,
    )
