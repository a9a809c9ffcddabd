"""Calibrate the predictor's interval factors on held-out tutorials (split-conformal quantiles)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from greenlint.predict.hierarchy import LEVELS, Hierarchy
from greenlint.predict.prediction import Basis, Prediction
from greenlint.predict.predictor import Predictor
from greenlint.predict.tables import SINGLE, interval_group
from greenlint.predict.work_energy import unknown_size
from tools.model.censored import Z80
from tools.model.sites import Site
from tools.model.table_fit import fit_tables
from tools.model.work_fit import fit_work

#: Fewest held-out residuals that calibrate a level on their own; fewer borrow the pooled factor.
MIN_CALIBRATION = 8
#: The share of measurable calls a bound's high end is calibrated to stay over: the high end of an 80 %
#: interval, one-sided (a call known only by its bounds has no low end).
BOUND_LEVEL = 0.9
#: Tutorial folds of the interval calibration (10 did no better held out, at twice the time).
CALIBRATION_FOLDS = 5


def calibrate(sites: Sequence[Site], hierarchy: Hierarchy, folds: int = CALIBRATION_FOLDS, size_exponents: dict | None = None) -> dict:
    """Per-group interval factors: split-conformal quantiles of held-out residuals, by tutorial fold.

    Tutorials are split into `folds` groups; each group's measurable call sites are predicted by
    the shipped `Predictor` on tables fitted on the other groups, with the call's own features, so
    the residuals include everything the prediction does (work, feature shifts, epochs scaling).
    Scores: |residual| / the prediction's own log10 sd (lookup levels), or |residual| minus the
    early-stopping spread (the work path, whose half-width is additive). Each group's factor is a
    finite-sample conformal quantile (`conformal_quantile`), so a new tutorial's call sites fall
    inside about 80% of the time, group by group. A figure known only by its bounds (`bounded`) has
    one end: its score is signed (`_bound_score`), its factor the quantile at BOUND_LEVEL, so the
    measurable calls of such APIs stay under the high end as often as under an 80 % interval's.
    A floor whose FLOPs per sample are a lower bound is scored as its known work's point (`work_priced`).
    """
    tutorials = sorted({s.tutorial for s in sites})
    scores: dict[str, list[float]] = defaultdict(list)
    raw_k = {**dict.fromkeys(LEVELS, 1.0), "bounded": 1.0}
    raw = {"k": raw_k, "work_half": 0.0}
    for f in range(folds):
        held = {t for i, t in enumerate(tutorials) if i % folds == f}
        train_sites = [s for s in sites if s.tutorial not in held]
        if not train_sites:
            continue
        model = {**fit_tables(train_sites, hierarchy), "size_exponents": size_exponents or {},
                 "work": fit_work(train_sites, hierarchy), "calibration": raw}
        predictor = Predictor(model, hierarchy=hierarchy, model_bytes=b"")
        # the same tables with a bound's factor 0: its high end's centre (`_bound_score`)
        centred = Predictor({**model, "calibration": {**raw, "k": {**raw_k, "bounded": 0.0}}},
                            hierarchy=hierarchy, model_bytes=b"")
        for s in sites:
            if s.tutorial not in held or s.censored or predictor.training_run(s.api, s.features) is not None:
                continue
            if unknown_size(s.features):  # a stated range, not a calibrated one (work.unknown_size_span)
                continue
            features = work_priced(s.features)
            p = predictor.predict(s.api, features)
            if (p.energy_j is None or p.floor or p.basis in (Basis.NEGLIGIBLE, Basis.SYMBOLIC)
                    or p.evidence.level == "work"):
                continue  # no figure, a floor's stated most, a bound, 0 J, or a roofline's stated device spread
            mu = math.log10(p.energy_j)
            # the unscaled half-width
            half = mu - math.log10(p.interval_j[0]) if p.interval_j[0] > 0 else 0.0
            if predictor.from_work(s.api, features) is not None:
                scores["work"].append(abs(s.y - mu) - half)
            elif p.basis is Basis.BOUNDED:
                score = _bound_score(s.y, p, centred.predict(s.api, s.features))
                if score is not None:
                    scores["bounded"].append(score)
            elif half > 0:
                group = interval_group(p.basis, p.evidence.level or "global", model["apis"].get(s.api, {}))
                scores[group].append(abs(s.y - mu) / half)
    work_q = scores.pop("work", [])
    bounded = scores.pop("bounded", [])
    single = scores.pop(SINGLE, [])
    pooled = [r for rs in scores.values() for r in rs]
    k_pooled = conformal_quantile(pooled) if len(pooled) >= MIN_CALIBRATION else Z80
    fallback = [r for lvl, rs in scores.items() if lvl != "api" for r in rs]
    k_fallback = conformal_quantile(fallback) if len(fallback) >= MIN_CALIBRATION else max(k_pooled, Z80)
    k = {}
    for level in LEVELS:
        rs = scores.get(level, [])
        if len(rs) >= MIN_CALIBRATION:
            k[level] = round(conformal_quantile(rs), 4)
        else:  # too few held-out sites at this level: the fallback levels' pooled factor
            k[level] = round(k_pooled if level == "api" else k_fallback, 4)
    # a bound has one end: where an 80 % interval's high end is, 90 % of the held-out calls under it
    k["bounded"] = (round(max(conformal_quantile(bounded, BOUND_LEVEL), 0.0), 4) if len(bounded) >= MIN_CALIBRATION
                    else k["api"])
    # an API measured in one other tutorial only is nearly a new API: its own factor, else the fallbacks'
    k[SINGLE] = round(conformal_quantile(single), 4) if len(single) >= MIN_CALIBRATION else round(k_fallback, 4)
    work_half = round(max(conformal_quantile(work_q), 0.0), 4) if len(work_q) >= MIN_CALIBRATION else None
    return {"k": k, "n": {**{lvl: len(scores.get(lvl, [])) for lvl in LEVELS}, "bounded": len(bounded),
                 SINGLE: len(single)},
            "folds": folds,
            "work_half": work_half, "n_work": len(work_q)}

def work_priced(features: dict) -> dict:
    """*features* as the work model prices them where their FLOPs per sample are a lower bound: those
    FLOPs as if all, so the call is scored as the point its known work gives, not left out as a floor
    (`least_flops`). Its residual is the model's error where the code's FLOPs are partly known, which
    real code's points have too: leaving such sites out narrows the interval by choosing the calls it fits."""
    if features.get("flops_per_sample_bound") != "lower":
        return features
    return {k: v for k, v in features.items() if k != "flops_per_sample_bound"}

def _bound_score(y: float, raw: Prediction, centred: Prediction) -> float | None:
    """How far above its high end's centre (the bounded factor 0) a measurable call of an API known by
    its bounds fell, in units of that end's unscaled spread (the factor 1 less 0); None without a spread.
    Signed: a bound has no low end to miss."""
    if raw.interval_j is None or centred.interval_j is None:
        return None
    top, centre = math.log10(raw.interval_j[1]), math.log10(centred.interval_j[1])
    return (y - centre) / (top - centre) if top > centre else None

def conformal_quantile(xs: Sequence[float], level: float = 0.8) -> float:
    """The split-conformal quantile of n held-out scores: the empirical quantile at level (n + 1) / n x level.

    The plain empirical quantile of n scores covers a new one with probability about level - 1/n;
    raising the level by the finite-sample factor restores `level` (linear interpolation between
    order statistics keeps the factor continuous in n where the scores have a gap).
    """
    return quantile(xs, min(level * (len(xs) + 1) / len(xs), 1.0)) if xs else float("nan")

def quantile(xs: Sequence[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)
