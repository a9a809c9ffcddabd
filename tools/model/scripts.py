"""Whole scripts priced the way the linter prices them (data/kb/script_sites.csv: every call greenlint
resolves in FECoM's converted tutorials), and the held-device term fitted on their whole-program runs
(greenlint/predict/held.py)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from greenlint.analysis.callsite import estimator_method
from greenlint.analysis.values import Const
from greenlint.analysis.work import estimator_work
from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.predictor import Predictor
from greenlint.predict.site_predictions import work_values
from tools.model.intervals import quantile
from tools.model.sites import WHOLE_RUN_DATASETS
from tools.model.table_fit import round_sig

#: Keras model methods whose matched call sites always carry `samples` (analysis.work._loop_work).
_SIZED_METHODS = frozenset({"fit", "evaluate", "predict"})
_MODEL_CLASSES = frozenset({"Model", "Sequential", "Functional"})


def has_static_features(features: dict) -> bool:
    return "loop_multiplier" in features


def as_linted(api: str, features: dict) -> dict:
    """A KB call site's stored features as the linter passes them now: with the `samples_unknown` /
    `epochs_unknown` flags (predict.site_predictions.work_values) that data/kb/static_features.csv,
    written before they existed, does not store. A Keras model's fit/evaluate/predict matched in
    its source always had a `samples` entry (and `fit` an `epochs` one), so a missing value was
    unknown. An Estimator's `train`, `evaluate` or `predict` matched in its source gets the flags
    `analysis.work.estimator_work` gives its literal `steps` and `max_steps` (the arguments the table
    keeps; the sources show none given otherwise): with no stop it runs until its input_fn's data ends,
    its size (and a train's epochs) unknown. The same dict where nothing is flagged."""
    owner, _, method = api.rpartition(".")
    if estimator_method(api) and has_static_features(features):
        work = work_values(estimator_work(method, {k: Const(features[k]) for k in ("steps", "max_steps") if k in features}))
        return {**features, **work} if work else features
    if (method not in _SIZED_METHODS or not owner.startswith("tensorflow.keras.")
            or owner.rpartition(".")[2] not in _MODEL_CLASSES or not has_static_features(features)):
        return features
    flags = {}
    if not any(k in features for k in ("samples", "steps", "steps_per_epoch")):
        flags["samples_unknown"] = True
    if method == "fit" and "epochs" not in features:
        flags["epochs_unknown"] = True
    return {**features, **flags} if flags else features


@dataclass(frozen=True)
class ScriptCalls:
    """A script's call sites priced: what the code lens sums for a file."""

    total_j: float  # sum over the sites with a figure of prediction x runs (unknown runs counted once)
    sites: int
    no_figure: int  # sites the predictor gives no figure (names the catalog does not know)
    runs_unknown: int


def script_calls(predictor: Predictor, calls: Sequence[tuple[str, dict, int | None]]) -> ScriptCalls:
    total, none, unknown_runs = 0.0, 0, 0
    for api, features, runs in calls:
        p = predictor.predict(api, as_linted(api, features))
        if p.energy_j is None:
            none += 1
            continue
        if runs is None:
            unknown_runs += 1
        total += p.energy_j * (1 if runs is None else runs)
    return ScriptCalls(total, len(calls), none, unknown_runs)


def whole_runs(records: Sequence) -> dict[str, list]:
    """project -> its whole-program runs with a net energy and a duration (series complete)."""
    out: dict[str, list] = defaultdict(list)
    for r in records:
        if (r.dataset in WHOLE_RUN_DATASETS and r.net_j is not None and not r.series_cut_short
                and r.execution_time_s and r.execution_time_s > 0):
            out[r.project].append(r)
    return dict(out)


def fit_held(records: Sequence, scripts: dict, model: dict, hierarchy: Hierarchy) -> dict | None:
    """The held-device term of a program (greenlint/predict/held.py) from the whole-program runs of
    the scripts in *scripts* (project -> calls) that *records* hold: `watts`, the median over the runs
    of their net draw (net J / s: the device held at its working draw while the program runs, calls
    or not), and `seconds_per_site`, the median over the programs of the time the program ran beyond
    what *model* prices (its calls' figures times their runs, and its start-up), at that draw, per call
    site; `interval_s` their 10th-90th percentiles (none below 0). None without such a program."""
    runs = {p: rs for p, rs in whole_runs(records).items() if scripts.get(p)}
    if not runs:
        return None
    watts = statistics.median(r.net_j / r.execution_time_s for rs in runs.values() for r in rs)
    predictor = Predictor(model, hierarchy=hierarchy, model_bytes=b"")
    start = predictor.startup()
    once = start.energy_j if start is not None and start.energy_j is not None else 0.0
    per_site = []
    for project, rs in sorted(runs.items()):
        calls = script_calls(predictor, scripts[project])
        measured = statistics.median(r.net_j for r in rs)
        per_site.append((measured - calls.total_j - once) / watts / calls.sites)
    return {"watts": round_sig(watts), "seconds_per_site": round_sig(max(0.0, statistics.median(per_site))),
            "interval_s": [round_sig(max(0.0, quantile(per_site, q))) for q in (0.1, 0.9)],
            "programs": len(runs), "runs": sum(len(rs) for rs in runs.values())}
