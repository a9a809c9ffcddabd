"""The predictions of a file's call sites: each site's features with its work and runs (what the
predictor reads), one prediction per distinct input, a figure that overflows made unknown and a
predictor's failure kept as an unknown prediction of that site."""

from __future__ import annotations

import marshal
import math
import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from greenlint.analysis.callsite import Runs, Work
from greenlint.predict.prediction import Prediction

Predict = Callable[[str, dict], Prediction]

#: Per predictor, its predictions by (api, features, work), shared by the files of a process:
#: a project repeats the same calls in many files. Dropped with the predictor.
_MEMOS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MEMO_SIZE = 20_000  # distinct predictions kept per predictor (a long editor session starts again)


def predict_sites(predict: Predict, callsites: Sequence[Any]) -> list[Prediction]:
    """The prediction of each call site, in order, by *predict* (`Predictor.predict` or any
    function of the api and features); never raises. One object per distinct prediction (less
    work, a smaller cache entry), kept for the files of this process where *predict* is a
    predictor's method."""
    owner = getattr(predict, "__self__", None)  # `predictor.predict`; a plain function: this file only
    try:
        memo = _MEMOS.setdefault(owner, {}) if owner is not None else {}
    except TypeError:  # an owner that cannot be weakly referenced
        memo = {}
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    predictions = []
    for cs in callsites:
        key = _memo_key(cs)
        if key not in memo:
            memo[key] = _predict(predict, cs)
        predictions.append(memo[key])
    return predictions


def _memo_key(callsite) -> tuple[str, bytes | str, bytes | str, Any]:
    """What a prediction depends on, as a dictionary key: the features and work in marshal's
    format 2 (no back-references, so equal values give equal bytes; 1, 1.0 and True differ),
    twice as fast as `repr`; `repr` for values marshal cannot write; and the runs `with_work` reads.
    Never read back."""
    work = getattr(callsite, "work", None)
    runs = getattr(callsite, "runs", None)
    count = (None, None) if runs is None else (runs.count, runs.bound)
    work = None if work is None else [(name, *quantity) for name, quantity in work.items()]
    try:
        return callsite.api, marshal.dumps(callsite.features, 2), marshal.dumps(work, 2), count
    except ValueError:
        return callsite.api, repr(callsite.features), repr(work), count


def _predict(predict: Predict, callsite) -> Prediction:
    try:
        work = getattr(callsite, "work", None)
        features = with_work(callsite.features, work, getattr(callsite, "runs", None))
        return with_options(with_unknown_flops(finite_or_unknown(predict(callsite.api, features)), work), work)
    except Exception as exc:  # a predictor bug must not lose the call site
        return Prediction.unknown(note=f"prediction failed: {type(exc).__name__}: {exc}")


#: The work entry naming the command-line options whose defaults the work reads: said in the basis, not a size.
OPTIONS = "options"


def with_options(prediction: Prediction, work: Work | None) -> Prediction:
    """*prediction* whose basis says which command-line defaults its work assumes (work's `options`)."""
    entry = (work or {}).get(OPTIONS)
    if entry is None or not entry.note or prediction.energy_j is None:
        return prediction
    note = "; ".join(n for n in (prediction.evidence.note, entry.note) if n)
    return replace(prediction, evidence=replace(prediction.evidence, note=note))


def with_unknown_flops(prediction: Prediction, work: Work | None) -> Prediction:
    """*prediction* whose basis says which ops or layers its FLOPs leave out, where it is a floor on
    FLOPs per sample that are a lower bound (`least_flops`): the work entry's note (`unknown: ...`)."""
    entry = (work or {}).get("flops_per_sample")
    if not prediction.floor or entry is None or entry.bound != "lower" or not entry.note:
        return prediction
    if entry.note in (prediction.evidence.note or ""):
        return prediction
    note = "; ".join(n for n in (prediction.evidence.note, f"its FLOPs per sample: {entry.note}") if n)
    return replace(prediction, evidence=replace(prediction.evidence, note=note))


def work_values(work: Work | None) -> dict:
    """`{quantity: value}` from a call's work (entries with a known value), and
    `{quantity}_unknown: True` for the quantities the call needs but the code does not state
    (provenance `unknown`: the predictor must not assume a size for them)."""
    out = {}
    for key, entry in (work or {}).items():
        if key == OPTIONS:
            continue
        value = entry.value
        if value is not None:
            out[key] = value
            if entry.bound in ("upper", "lower"):
                out[f"{key}_bound"] = entry.bound
            if entry.least is not None:
                out[f"{key}_least"] = entry.least
        elif entry.provenance == "unknown":
            out[f"{key}_unknown"] = True
    return out


def with_work(features: dict | None, work: Work | None, runs: Runs | None = None) -> dict:
    """A call's features with its work values folded in (work wins: it is followed through the code),
    the predictor's input; with *runs* (the analysis' `Runs`) known exactly, `runs_count` too:
    a one-off cost of the call's first run (tracing its function) is shared by that many runs."""
    values = work_values(work)
    out = {**(features or {}), **values} if values else dict(features or {})
    count = None if runs is None else runs.count
    if runs is not None and runs.bound == "exact" and isinstance(count, int) and not isinstance(count, bool) and count > 0:
        out["runs_count"] = count
    return out


def finite_or_unknown(prediction: Prediction) -> Prediction:
    """*prediction*, or an unknown one where its figures overflow (`epochs=1e308`): no output
    ever shows `inf MJ` or writes `Infinity`, which is not JSON."""
    figures = [prediction.energy_j, prediction.cpu_j, prediction.gpu_j, prediction.ram_j, *(prediction.interval_j or ())]
    if all(f is None or math.isfinite(f) for f in figures):
        return prediction
    return Prediction.unknown(note="the figure overflows: the counts in this call exceed any real run")
