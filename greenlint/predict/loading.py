"""Read the model file and this machine's calibration overlay into a Predictor."""

from __future__ import annotations

import logging
from pathlib import Path

from greenlint.predict.calibration import Overlay, read_overlay
from greenlint.predict.predictor import Predictor
from greenlint.predict.tables import read_model

log = logging.getLogger(__name__)


def load(path: Path, *, with_overlay: bool = True, overlay_root: Path | None = None,
         device: str | None = None) -> Predictor:
    """The predictor of the model file at *path* (a ModelError naming it when it is missing or
    unusable), with this machine's overlay from *overlay_root* (default: the user cache's
    `calibration/`) unless *with_overlay* is false, priced on the GPU *device* names (a ValueError
    naming it when the device table does not hold it)."""
    from greenlint.hardware import calibration_overlay
    from greenlint.paths import calibration_dir
    from greenlint.predict.devices import device_names, gpu_spec

    spec = None
    if device is not None and (spec := gpu_spec(device)) is None:
        raise ValueError(f"unknown device {device!r}; known: {device_names()}")
    model, data = read_model(path)
    found = calibration_overlay(overlay_root or calibration_dir()) if with_overlay else None
    return Predictor(model, model_bytes=data, overlay=find_overlay(model, found), device=spec)


def find_overlay(model: dict, directory: Path | None = None) -> Overlay | None:
    """The overlay in *directory*, None where there is none; a broken one is ignored with a warning naming it."""
    if directory is None:
        return None
    try:
        return read_overlay(directory, model)
    except Exception as exc:  # a broken overlay must not stop the linter; say which one
        log.warning("%s: calibration overlay ignored (%s)", directory, exc)
        return None
