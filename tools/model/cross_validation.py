"""Leave-one-tutorial-out evaluation of the call-site predictor and its baselines (docs/accuracy.md).

Every fold holds out one tutorial (the same tutorial in FECoM and Greenlight is one fold, as the
dataset READMEs advise) and trains everything on the other tutorials: tables, priors, size
exponents and interval calibration. Only the static inputs the linter can supply are used: the API
name and the static features our resolver reads from the held-out tutorial's own source
(data/kb/static_features.csv, where a call site could be matched), except in the variant labelled
"runtime", which also reads the measured execution time and is not available to the linter.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.prediction import Basis, Prediction
from greenlint.predict.predictor import Predictor
from greenlint.predict.tables import interval_group
from greenlint.predict.weights_io import moves_weights
from greenlint.predict.work_energy import WORK_KEYS
from greenlint.units import POINT_MAX_RATIO
from tools.model.intervals import CALIBRATION_FOLDS, quantile
from tools.model.scripts import as_linted, has_static_features, script_calls, whole_runs
from tools.model.sites import FRACTION, Site, build_sites, is_sweep, tutorial_of
from tools.model.train import MIN_SWEEP_POINTS, call_sites, fit_size_exponents, train

LOG2 = math.log10(2.0)
METHODS = (
    ("predictor", "greenlint predictor (static inputs)"),
    ("predictor_name_only", "ablation: the API name only (no static features, no work)"),
    ("predictor_no_work", "ablation: without the work quantities (samples, steps, FLOPs, epochs, batch size)"),
    ("predictor_uncensored", "ablation: below-resolution call sites dropped"),
    ("global", "baseline: global median"),
    ("api", "baseline: per-API median lookup"),
    ("api_family", "baseline: per-API median, family fallback"),
    ("runtime_power", "runtime variant: API median power x measured time (not available to the linter)"),
)
#: Static features that are the call's work (work.py reads them); the no-work ablation drops them.
WORK_FEATURES = (frozenset(WORK_KEYS) | {f"{k}_unknown" for k in WORK_KEYS}
                 | {"epochs_bound", "validation_split", "tensor_elements", "tensor_bytes", "max_steps"})
GOALS = {
    "all": {"rho": 0.8, "mdale": 0.30, "within2": 0.60, "coverage": (0.75, 0.85), "width": 15.0, "bias": 0.1},
    "unseen": {"rho": 0.5, "mdale": 0.6},
}
#: Hotspot AUC goal at each threshold (joules).
HOTSPOT_GOAL = 0.95
#: Whole-script totals against FECoM's project-level measurements.
SCRIPT_GOALS = {"rho": 0.8, "mdale": 0.30}


@dataclass
class Held:
    """One held-out call site and every method's (log10 point, log10 interval)."""

    site: Site
    seen: bool
    level: str
    preds: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    path: str | None = None  # how the shipped form priced it (`prediction_path`); None: no figure
    #: The methods whose figure is a bound, not a point (`bound_kind`): "upper" or "floor".
    bounds: dict[str, str] = field(default_factory=dict)
    kind: str | None = None  # the API's catalog kind (the signed error is broken down by it)


def bound_kind(p: Prediction) -> str | None:
    """"floor" for a figure that is the least the code allows (`Prediction.floor`), "upper" for one whose
    interval starts at 0 (`bounded`, `negligible`: the measurements say only "under"), None for a point.
    The linter shows both as ranges and counts them apart from points (`width_summary`), and a hotspot
    never rests on them: a point-error metric must not read them as points."""
    if p.floor:
        return "floor"
    return "upper" if p.interval_j is not None and p.interval_j[0] <= 0 else None


#: The prediction paths of `prediction_path`, in the order docs/accuracy.md lists them.
PATHS = ("work model", "named model's FLOPs (work model)", "roofline (own FLOPs and bytes)", "data size or FLOPs unknown (floor)",
         "model size unknown (floor)", "lookup: api",
         "lookup: api_single", "lookup: class", "lookup: module", "lookup: family", "lookup: kind", "bounded",
         "negligible")


def prediction_path(predictor: Predictor, api: str, features: dict, p: Prediction) -> str:
    """Which of the predictor's paths priced a call (the order `Predictor.predict` tries them in)."""
    if p.basis is Basis.NEGLIGIBLE:
        return "negligible"
    if predictor.training_run(api, features) is not None:
        return "named model's FLOPs (work model)"
    if p.floor:
        return "model size unknown (floor)" if moves_weights(predictor, api) else "data size or FLOPs unknown (floor)"
    if predictor.from_work(api, features) is not None:
        return "work model"
    if p.evidence.level == "work":
        return "roofline (own FLOPs and bytes)"
    if p.basis is Basis.BOUNDED:
        return "bounded"
    level = p.evidence.level or "global"
    entry = predictor.model["apis"].get(api, {}) if level == "api" else {}
    return f"lookup: {interval_group(p.basis, level, entry)}"


def _pool_pred(values: Sequence[float]) -> tuple[float, float, float]:
    return statistics.median(values), quantile(values, 0.1), quantile(values, 0.9)


def _baselines(train_sites: Sequence[Site], hierarchy: Hierarchy) -> Callable[[Site], dict]:
    exact = [s for s in train_sites if not s.censored]
    global_vals = [s.y for s in exact]
    by_api: dict[str, list[float]] = defaultdict(list)
    by_family: dict[str, list[float]] = defaultdict(list)
    power_api: dict[str, list[float]] = defaultdict(list)
    power_family: dict[str, list[float]] = defaultdict(list)
    for s in exact:
        fam = _family(hierarchy, s.api)
        by_api[s.api].append(s.y)
        by_family[fam].append(s.y)
        if s.time_s and s.time_s > 0:
            p = s.y - math.log10(s.time_s)
            power_api[s.api].append(p)
            power_family[fam].append(p)
    power_all = [p for ps in power_api.values() for p in ps]
    g = _pool_pred(global_vals)

    def predict(site: Site) -> dict:
        fam = _family(hierarchy, site.api)
        out = {"global": g}
        out["api"] = _pool_pred(by_api[site.api]) if by_api.get(site.api) else g
        out["api_family"] = (
            out["api"] if by_api.get(site.api) else _pool_pred(by_family[fam]) if by_family.get(fam) else g
        )
        pool = power_api.get(site.api) or power_family.get(fam) or power_all
        if site.time_s and site.time_s > 0 and pool:
            lt = math.log10(site.time_s)
            m, lo, hi = _pool_pred(pool)
            out["runtime_power"] = (m + lt, lo + lt, hi + lt)
        return out

    return predict


def _family(hierarchy: Hierarchy, api: str) -> str:
    return str(hierarchy.family(api) or api.rpartition(".")[0])


def cross_validate(records: Sequence, hierarchy: Hierarchy | None = None, *, folds: int = CALIBRATION_FOLDS,
                   progress: Callable[[str], None] | None = None, keep: dict | None = None,
                   scripts: dict | None = None) -> list[Held]:
    """Predict every call site from models trained without its tutorial.

    `keep`, when given, receives each fold's shipped-form predictor by held-out tutorial name, its
    held-device term fitted on the *scripts* of the other tutorials (`train`'s).
    """
    hierarchy = hierarchy or Hierarchy()
    records = [r for r in records]
    tut = [tutorial_of(r.project, r.script, is_sweep(r)) for r in records]
    sites = call_sites(records, hierarchy)
    targets = defaultdict(list)
    for s in sites:
        targets[s.tutorial].append(s)
    held: list[Held] = []
    for i, (tutorial, tsites) in enumerate(sorted(targets.items())):
        if progress:
            progress(f"fold {i + 1}/{len(targets)}: {tutorial}")
        train_records = [r for r, t in zip(records, tut) if t != tutorial]
        predictors = {
            name: Predictor(train(train_records, hierarchy, folds=folds, censored=name == "predictor",
                                  scripts=scripts if name == "predictor" else None),
                            hierarchy=hierarchy, model_bytes=b"")
            for name in ("predictor", "predictor_uncensored")
        }
        if keep is not None:
            keep[tutorial] = predictors["predictor"]
        train_sites = [s for s in sites if s.tutorial != tutorial]
        seen_apis = {s.api for s in train_sites}
        baselines = _baselines(train_sites, hierarchy)
        for s in tsites:
            h = Held(s, s.api in seen_apis, "global", kind=hierarchy.kind(s.api))
            linted = as_linted(s.api, s.features)
            runs = [(name, predictor, linted) for name, predictor in predictors.items()]
            runs.append(("predictor_name_only", predictors["predictor"], {}))
            runs.append(("predictor_no_work", predictors["predictor"],
                         {k: v for k, v in s.features.items() if k not in WORK_FEATURES}))
            if linted is not s.features:
                runs.append((TYPICAL_SIZE, predictors["predictor"], s.features))
            for name, predictor, features in runs:
                p = predictor.predict(s.api, features)
                if p.energy_j is None or p.basis is Basis.SYMBOLIC:  # no figure (an unknown name), or 0 J at a
                    continue  # line that only builds a graph (its work is counted where the graph runs): not scored
                lo, hi = p.interval_j
                # a bound's interval starts at 0 (bounded, negligible): no lower end
                h.preds[name] = (math.log10(p.energy_j), math.log10(lo) if lo > 0 else -math.inf, math.log10(hi))
                kind = bound_kind(p)
                if kind is not None:
                    h.bounds[name] = kind
                if name == "predictor":
                    h.level = p.evidence.level or "global"
                    h.path = prediction_path(predictor, s.api, features, p)
            h.preds.update(baselines(s))
            held.append(h)
    return held


#: The unknown-size sites priced without the linter's size flags (before issue 17: the API's measured
#: call sites, epochs scaled; the predictor now gives them the same floor).
TYPICAL_SIZE = "predictor_typical_size"


def size_unknown(held: Held) -> bool:
    """The held-out site is one whose data size (or epochs) the linter does not know."""
    return TYPICAL_SIZE in held.preds


def bound_metrics(held: Sequence[Held], method: str) -> dict:
    """On measurable sites whose figure is a bound (`bound_kind`): how many, and how often the bound
    holds (an upper bound: the measurement at or under the interval's high end; a floor: the low end
    at or under the measurement)."""
    out: dict = {}
    for kind, holds in (("upper", lambda y, p: y <= p[2]), ("floor", lambda y, p: p[1] <= y)):
        rows = [(h.site.y, h.preds[method]) for h in held
                if method in h.preds and not h.site.censored and h.bounds.get(method) == kind]
        out[kind] = {"n": len(rows), "holds": sum(holds(y, p) for y, p in rows) / len(rows) if rows else None}
    return out


def point_sites(held: Sequence[Held], method: str = "predictor") -> list[Held]:
    """The held-out sites *method* prices as a point (a figure that is no bound)."""
    return [h for h in held if method in h.preds and method not in h.bounds]


def floor_metrics(held: Sequence[Held], method: str) -> dict:
    """On measurable sites: how often the interval's low end is at or below the measurement."""
    rows = [(h.site.y, h.preds[method]) for h in held if method in h.preds and not h.site.censored]
    return {"n": len(rows), "floor": sum(p[1] <= y for y, p in rows) / len(rows)} if rows else {"n": 0}


def has_work(site: Site) -> bool:
    """The resolver found the call's work (steps or samples, or FLOPs) in its source."""
    return any(k in site.features for k in ("samples", "steps_per_epoch", "steps", "flops"))


def has_static(site: Site) -> bool:
    """The call site was matched in its source (the resolver gives every call a loop_multiplier)."""
    return has_static_features(site.features)


def _spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    from scipy.stats import spearmanr

    return float(spearmanr(x, y).statistic)


def metrics(held: Sequence[Held], method: str, bounds: bool = False) -> dict:
    """Scores of the points on the above-resolution call sites (the targets are known there). A figure
    that is a bound (`bound_kind`) is no point and is scored by `bound_metrics`; *bounds*: read each as
    if it were a point too (the definition before issue 27's signed-error work, kept for comparison)."""
    rows = [(h.site.y, h.preds[method]) for h in held
            if method in h.preds and not h.site.censored and (bounds or method not in h.bounds)]
    if not rows:
        return {"n": 0}
    err = [abs(p[0] - y) for y, p in rows]
    return {
        "n": len(rows),
        "bias": statistics.median(p[0] - y for y, p in rows),
        "width": 10 ** statistics.median(p[2] - p[1] for _, p in rows),
        "rho": _spearman([p[0] for _, p in rows], [y for y, _ in rows]),
        "mdale": statistics.median(err),
        "within2": sum(e <= LOG2 + 1e-12 for e in err) / len(rows),
        "coverage": sum(p[1] <= y <= p[2] for y, p in rows) / len(rows),
    }


def censored_metrics(held: Sequence[Held], method: str) -> dict:
    """On below-resolution call sites only a bound is known: how often the median respects it."""
    rows = [(h.site.y, h.preds[method]) for h in held if method in h.preds and h.site.censored]
    if not rows:
        return {"n": 0}
    return {"n": len(rows), "below_bound": sum(p[0] <= y for y, p in rows) / len(rows)}


def hotspot_auc(held: Sequence[Held], method: str, threshold_j: float) -> dict:
    """How well the predicted figures separate call sites above `threshold_j` from those below.

    Uses every call site whose side of the threshold is known: measurable ones by their value,
    below-resolution ones only when their bound is under the threshold. AUC is the chance that a
    site above is ranked higher than a site below (ties count half), what a hotspot rule needs. A
    point or an upper bound ranks by its figure; a floor by its range (`rank_range`): it is known to
    be above a figure under its least and below one over its stated most, and no more.
    """
    cut = math.log10(threshold_j)
    pos, neg = [], []
    for h in held:
        if method not in h.preds:
            continue
        if not h.site.censored and h.site.y >= cut:
            pos.append(rank_range(h, method))
        elif h.site.y < cut:  # a measured value or a bound, both under the threshold
            neg.append(rank_range(h, method))
    if not pos or not neg:
        return {"n_pos": len(pos), "n_neg": len(neg), "auc": None}
    return {"n_pos": len(pos), "n_neg": len(neg), "auc": range_auc(pos, neg)}


def rank_range(held: Held, method: str) -> tuple[float, float]:
    """Where *method*'s figure for a site ranks (log10 J): a point's or an upper bound's figure (the
    median of what the API's calls cost); a floor's least up to its stated most. A floor's least alone
    would rank an unknown-size graph run under a 0.1 J eager op, and any one value inside its range a
    size the code does not state: it is ordered only against figures outside it."""
    figure, _, high = held.preds[method]
    return (figure, max(high, figure)) if held.bounds.get(method) == "floor" else (figure, figure)


def range_auc(pos: Sequence[tuple[float, float]], neg: Sequence[tuple[float, float]]) -> float:
    """The chance that a range of *pos* ranks above one of *neg*: 1 where its low end is over the other's
    high end, 0 where its high end is under the other's low end, a half otherwise (overlapping ranges,
    equal figures: unordered). With points only, the Mann-Whitney AUC."""
    highs, lows = sorted(n[1] for n in neg), sorted(n[0] for n in neg)
    score = 0.0
    for low, high in pos:
        above = bisect.bisect_left(highs, low)  # negatives wholly under this range
        below = len(lows) - bisect.bisect_right(lows, high)  # negatives wholly over it
        score += above + 0.5 * (len(neg) - above - below)
    return score / (len(pos) * len(neg))


def hotspot_decision(held: Sequence[Held], method: str, threshold_j: float) -> dict:
    """What GL101 decides per execution (rules/energy_hotspot.py `_supported_over`): a site is flagged when
    the low end of its interval is above `threshold_j` and the interval is at most POINT_MAX_RATIO wide.
    On the sites whose side is known (as `hotspot_auc`): how many are flagged, the share of those truly
    above (precision) and the share of the sites above that are flagged (recall)."""
    cut, most = math.log10(threshold_j), math.log10(POINT_MAX_RATIO)
    flagged = above = hits = 0
    for h in held:
        if method not in h.preds or (h.site.censored and h.site.y >= cut):
            continue
        _, lo, hi = h.preds[method]
        up = not h.site.censored and h.site.y >= cut
        flag = lo > cut and hi - lo <= most
        flagged, above, hits = flagged + flag, above + up, hits + (flag and up)
    return {"flagged": flagged, "precision": hits / flagged if flagged else None,
            "recall": hits / above if above else None}


def subsets(held: Sequence[Held]) -> dict[str, list[Held]]:
    return {
        "all": list(held),
        "seen": [h for h in held if h.seen],
        "unseen": [h for h in held if not h.seen],
    }


@dataclass(frozen=True)
class SweepCheck:
    """One FECoM data-size sweep predicted from its full-size call and other sweeps' exponent."""

    sweep: str
    api: str
    points: int
    exponent: float | None
    mdale_scaled: float
    mdale_unscaled: float


def size_scaling_check(records: Sequence) -> list[SweepCheck]:
    """Leave-one-sweep-out test of input-size scaling.

    For each sweep with enough measurable points, the exponent comes from the other sweeps only
    (same method name, as the predictor looks it up); every fraction is then predicted from the
    sweep's measured full-size call, scaled by (fraction)^exponent, against the same call unscaled.
    """
    sweep_records = [r for r in records if is_sweep(r)]
    by_sweep: dict[str, list] = defaultdict(list)
    for r in sweep_records:
        by_sweep[r.project].append(r)
    out = []
    for name, recs in sorted(by_sweep.items()):
        pts = sorted(
            (s.features[FRACTION], s.y) for s in build_sites(recs, sweeps=True) if not s.censored
        )
        if len(pts) < MIN_SWEEP_POINTS or pts[-1][0] != 1.0:
            continue
        api = recs[0].api
        others = fit_size_exponents([r for r in sweep_records if r.project != name])
        b = others["per_method"].get(api.rpartition(".")[2])
        ref = pts[-1][1]
        test = pts[:-1]
        scaled = [abs(ref + (b or 0.0) * math.log10(f) - y) for f, y in test]
        unscaled = [abs(ref - y) for _, y in test]
        out.append(SweepCheck(name, api, len(test), b, statistics.median(scaled), statistics.median(unscaled)))
    return out


@dataclass(frozen=True)
class ScriptCheck:
    """One tutorial measured end to end (FECoM project level) against the sum of its call sites."""

    project: str
    measured_j: float  # median net J over its runs
    predicted_j: float  # its calls' total, start-up and held device, from a model trained without it
    calls: int
    no_figure: int  # calls the predictor gives no figure (names the catalog does not know)
    runs_unknown: int  # calls whose run count is unknown (counted once)
    startup_j: float = 0.0  # the program's start-up (`Predictor.startup`), in predicted_j
    held_j: float = 0.0  # the device held beyond the calls' figures (`Predictor.held`), in predicted_j


def script_totals(records: Sequence, scripts: dict, predictors: dict) -> list[ScriptCheck]:
    """Whole-script totals, leave one tutorial out: the sum over the calls (what the code lens shows)
    plus the program's start-up and held device, against what was measured from the script's first line."""
    out = []
    for project, runs in sorted(whole_runs(records).items()):
        calls = scripts.get(project)
        predictor = predictors.get(tutorial_of(project, runs[0].script))
        if not calls or predictor is None:
            continue
        priced = script_calls(predictor, calls)
        once, held = (p.energy_j if p is not None and p.energy_j is not None else 0.0
                      for p in (predictor.startup(), predictor.held(priced.sites)))
        out.append(ScriptCheck(project, statistics.median(r.net_j for r in runs), priced.total_j + once + held,
                               priced.sites, priced.no_figure, priced.runs_unknown, once, held))
    return out


def script_metrics(checks: Sequence[ScriptCheck]) -> dict:
    rows = [(math.log10(c.predicted_j), math.log10(c.measured_j)) for c in checks
            if c.predicted_j > 0 and c.measured_j > 0]
    if not rows:
        return {"n": 0}
    err = [p - y for p, y in rows]
    return {
        "n": len(rows),
        "rho": _spearman([p for p, _ in rows], [y for _, y in rows]),
        "mdale": statistics.median(abs(e) for e in err),
        "within2": sum(abs(e) <= LOG2 + 1e-12 for e in err) / len(rows),
        "bias": statistics.median(err),
    }


#: Code and data behind docs/accuracy.md besides the KB records, the catalog and the model file (glob
#: patterns, so a new module is covered): the predictor, what trains and evaluates it, the resolver
#: (the physics goals run it), and the tables they read.
REPORT_SOURCES = ("greenlint/predict/*.py", "greenlint/analysis/**/*.py", "greenlint/catalog/kinds.py",
                  "tools/model/*.py", "tools/kb/static_features.py", "data/kb/static_features.csv",
                  "data/kb/script_sites.csv", "data/training/*", "data/work/*")


def report_inputs(records: Sequence) -> dict:
    """Digests of everything docs/accuracy.md is computed from (its staleness test compares them)."""
    from greenlint.paths import DATA_DIR
    from tools.digests import files_digest, matching
    from tools.model.train import catalog_digest, kb_digest

    return {
        "kb_digest": kb_digest(records),
        "catalog_digest": catalog_digest(),
        "model_digest": files_digest([DATA_DIR / "model" / "predictor.json"]),
        "code_digest": files_digest(matching(REPORT_SOURCES)),
    }
