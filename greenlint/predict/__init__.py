"""Energy predictions for call sites (see prediction.py for the contract).

`load_predictor()` reads the shipped JSON model (data/model/predictor.json, built by
`python -m tools.model.train`) and this machine's calibration overlay, if `greenlint calibrate` made one.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from greenlint.predict.prediction import Basis, Evidence, Prediction

__all__ = ["Basis", "Evidence", "Prediction", "load_predictor", "model_path"]


def model_path() -> Path:
    from greenlint.paths import DATA_DIR

    return DATA_DIR / "model" / "predictor.json"


@lru_cache(maxsize=4)
def load_predictor(path: str | None = None, *, overlay: bool | str = True, device: str | None = None):
    """The predictor (cached); `tables.ModelError` naming the file when the model is missing or unusable.

    *overlay*: True applies this machine's calibration overlay from the user cache, False none, a
    path the one under that folder of overlays (`<folder>/<hardware id>`, e.g. under `--cache-dir`).
    *device*: a GPU of greenlint/predict/devices.py's table (`--device`) the figures are priced on."""
    from greenlint.predict.loading import load

    root = Path(overlay) if isinstance(overlay, str) else None
    return load(Path(path) if path else model_path(), with_overlay=overlay is not False, overlay_root=root,
                device=device)
