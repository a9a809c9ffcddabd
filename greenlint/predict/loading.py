"""Read the model file and this machine's calibration overlay into a Predictor."""

from __future__ import annotations

import hashlib
import json
import logging
import statistics
from collections import defaultdict
from pathlib import Path

from greenlint.predict.predictor import Overlay, Predictor, time_ratio
from greenlint.predict.tables import read_model

log = logging.getLogger(__name__)


def load(path: Path, *, with_overlay: bool = True) -> Predictor:
    """The predictor of the model file at *path* (a ModelError naming it when it is missing or unusable)."""
    model, data = read_model(path)
    overlay = find_overlay(model) if with_overlay else None
    return Predictor(model, model_bytes=data, overlay=overlay)


def overlay_dir() -> Path | None:
    """This machine's calibration KB directory, if `greenlint calibrate` wrote one."""
    try:
        from greenlint.hardware import hardware_id

        from greenlint.paths import cache_dir

        d = cache_dir() / "calibration" / hardware_id()
    except Exception as exc:  # no meter package or no hardware id: no overlay, not an error
        log.debug("no calibration overlay: %s", exc)
        return None
    return d if d.is_dir() and any(d.iterdir()) else None


def find_overlay(model: dict, directory: Path | None = None) -> Overlay | None:
    directory = directory or overlay_dir()
    if directory is None:
        return None
    from greenlint.kb import load_kb
    from greenlint.predict.hierarchy import Hierarchy
    from greenlint.predict.sites import build_sites
    from greenlint.predict.table_fit import fit_tables

    try:
        records = load_kb(directory)
    except Exception as exc:  # a broken overlay must not stop the linter; say which one
        log.warning("%s: calibration overlay ignored (%s)", directory, exc)
        return None
    times = per_api_times(records)
    if not times:
        return None
    tables = fit_tables(build_sites(records), Hierarchy(use_default=False))
    ratio, n = time_ratio(times, model)
    digest = hashlib.sha256(json.dumps([tables, times], sort_keys=True).encode()).hexdigest()[:16]
    return Overlay(directory.name, tables, times, ratio, n, digest)


def per_api_times(records) -> dict[str, float]:
    """Median execution time per API over records that have one (energy measured or not)."""
    by_api: dict[str, list[float]] = defaultdict(list)
    for r in records:
        if r.execution_time_s and r.execution_time_s > 0:
            by_api[r.api].append(r.execution_time_s)
    return {api: statistics.median(ts) for api, ts in sorted(by_api.items())}
