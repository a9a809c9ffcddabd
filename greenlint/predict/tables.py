"""The predictor model's format and its lookups: what the runtime reads from data/model/predictor.json.

The model is JSON (`dumps`, `read_model`), versioned by MODEL_VERSION. Per API: the mean log10 J
over its call sites, their spread, CPU/GPU/DRAM shares and the reference values of scalable
features; per group of the fallback chain (class, module, family, kind, global): the median and
spread of its member APIs. `tools/model/train.py` fits it; `tools/model/table_fit.py` fits the tables.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.prediction import Basis

MODEL_VERSION = 2
#: The command that builds the model file in a source checkout (an install ships it).
TRAIN_COMMAND = "python -m tools.model.train"
#: Spread (log10) assumed when nothing else is known.
DEFAULT_SD = 1.0
#: Calibration group of APIs measured in a single tutorial: between a seen and an unseen API.
SINGLE = "api_single"
#: Largest shift (log10) a feature slope may apply: a factor 30 either way.
MAX_SHIFT = 1.5
#: Fewest member APIs measured above the resolution before a fallback group (class, module, family,
#: kind) lends its figure to an API never measured: with one or two, the "group" is those APIs, and
#: their cost is borrowed by whatever shares a module with them (a constructor priced as a `fit`).
MIN_GROUP_MEASURED = 3
#: A call of a no-work kind (`NO_WORK_KINDS`) whose own measurements took longer than this (median
#: execution time) is not treated as negligible: at the 10-70 W the KB's calls draw, a quarter of a
#: second is several joules, above the resolution (a session's start, a strategy's device set-up).
NEGLIGIBLE_MAX_TIME_S = 0.25


class ModelError(ValueError):
    """The model file is missing, unreadable or of another version; the message names the file."""


def read_model(path: Path) -> tuple[dict, bytes]:
    """The model and its bytes; a ModelError naming the file and what to do when it cannot be used."""
    if not path.is_file():
        raise ModelError(
            f"{path}: no predictor model. An installed greenlint ships it (reinstall greenlint); a source "
            f"checkout builds it with `{TRAIN_COMMAND}` (or `make data`)"
        )
    try:
        data = path.read_bytes()
        model = json.loads(data)
    except (OSError, ValueError) as exc:
        raise ModelError(f"{path}: cannot read the predictor model ({exc})") from exc
    if not isinstance(model, dict) or model.get("version") != MODEL_VERSION:
        raise ModelError(
            f"{path}: predictor model version {model.get('version') if isinstance(model, dict) else '?'} "
            f"is not {MODEL_VERSION}; rebuild it with `{TRAIN_COMMAND}`"
        )
    return model, data


def dumps(model: dict) -> str:
    """The model file's text: sorted keys, no whitespace, no NaN."""
    return json.dumps(model, sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n"


def positive_number(x) -> float | None:
    """x as a float when it is a positive number (not a bool), else None."""
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0 else None


def log_feature(features: dict, name: str) -> float | None:
    """log10 of a positive numeric feature, None where it is absent or not a positive number."""
    v = positive_number(features.get(name))
    return math.log10(v) if v is not None else None


def feature_shift(tables: dict, entry: dict, features: dict) -> float:
    """log10 shift of an API's prediction for a call's static features (0 without a reference)."""
    ref = entry.get("ref_log", {})
    shift = 0.0
    for feat, b in tables.get("slopes", {}).items():
        x = log_feature(features, feat)
        if x is not None and feat in ref:
            shift += b * (x - ref[feat])
    return max(-MAX_SHIFT, min(MAX_SHIFT, shift))

def lookup(tables: dict, api: str, hierarchy: Hierarchy) -> tuple[str, str, float, float, dict]:
    """(level, key, mu, sd, entry): the nearest level with data and its predictive log10 spread.

    A fallback group lends its figure only with `MIN_GROUP_MEASURED` measurable member APIs; with
    none such, the level is `global` and the entry empty (the predictor then has no figure).
    """
    entry = tables["apis"].get(api)
    if entry is not None:
        return "api", api, entry["mu"], math.hypot(entry["sd"], entry["se"]), entry
    sigma_w = tables["sigma_w"]
    for level, key in hierarchy.chain(api):
        g = tables["groups"].get(level, {}).get(key)
        if g and level != "global" and g.get("n_measured", 0) >= MIN_GROUP_MEASURED:
            # a new API = a new member of the group (tau) plus a new call site of it (sigma_w)
            sd = math.sqrt(g["tau"] ** 2 * (1 + 1 / g["n_apis"]) + sigma_w**2)
            return level, key, g["mu"], sd, g
    return "global", "*", tables["global_mu"], math.hypot(DEFAULT_SD, sigma_w), {}

def interval_group(basis: Basis, level: str, entry: dict) -> str:
    """The calibration group of a lookup prediction: `bounded`, `api_single` or its fallback level."""
    if basis is Basis.BOUNDED:
        return "bounded"
    if level == "api" and entry.get("n_tutorials") == 1:
        return SINGLE
    return level
