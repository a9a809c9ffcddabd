"""Train the predictor: a hierarchical, censoring-aware lookup table plus size exponents, as JSON.

Per API: the posterior mode of the mean log10 J over its call sites (Tobit likelihood, prior from
its nearest populated group), the spread between its call sites, the CPU/GPU/DRAM shares and the
reference values of scalable features. Per group of the fallback chain (class, module, family,
kind, global): the median and spread of its member APIs. Intervals are mean +- k_level x sd,
with k_level calibrated on held-out tutorials (inner cross-validation), so a level's 80% interval
covers about 80% of call sites predicted at that level.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence

from greenlint.predict.censored import Z80, censored_mean
from greenlint.predict.hierarchy import LEVELS, Hierarchy
from greenlint.predict.prediction import Basis
from greenlint.predict.sites import COMPONENTS, FRACTION, Site, build_sites, is_sweep
from greenlint.predict.work import fit_power, fit_time_models, time_group, unknown_size, work_log_energy
from greenlint.stats import median

MODEL_VERSION = 2
#: Pseudo-observations pulling a small sample's spread towards the pooled one.
SHRINK = 2.0
#: Spread (log10) assumed when nothing else is known.
DEFAULT_SD = 1.0
#: Least spread (log10) ever assumed: run-to-run noise of repeated measurements (about 12%).
MIN_SD = 0.05
#: Fewest above-resolution points a data-size sweep needs to give an exponent: a sweep whose small
#: fractions fall below the resolution keeps only its large ones, and that truncation steepens
#: the fitted slope (FECoM's evaluate sweeps would give 2.7 where the fit sweeps give 1.0).
MIN_SWEEP_POINTS = 8
#: Fewest held-out residuals that calibrate a level on their own; fewer borrow the pooled factor.
MIN_CALIBRATION = 8
#: Calibration group of APIs measured in a single tutorial: between a seen and an unseen API.
SINGLE = "api_single"
#: Tutorial folds of the interval calibration (10 did no better held out, at twice the time).
CALIBRATION_FOLDS = 5
#: Static features whose log10 shifts an API's prediction from its median (pooled within-API
#: slopes): the model's depth and the literal batch size, the features with a within-API
#: association on the measured call sites. Epochs are not here: within an API the measured
#: tutorials show none (those with many epochs train on small data); they scale in predictor.py.
SLOPE_FEATURES = ("n_layers",)
#: Ridge pseudo-count (in units of summed squared log10 deviations) shrinking a slope towards 0,
#: i.e. the prediction towards the API's median.
SLOPE_RIDGE = 1.0
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


def _pooled_sd(groups: Iterable[Sequence[float]], default: float) -> float:
    ss, dof = 0.0, 0
    for ys in groups:
        if len(ys) >= 2:
            m = statistics.fmean(ys)
            ss += sum((y - m) ** 2 for y in ys)
            dof += len(ys) - 1
    return max(math.sqrt(ss / dof), MIN_SD) if dof else default


def _shrunk_sd(ys: Sequence[float], pooled: float) -> float:
    ss = sum((y - statistics.fmean(ys)) ** 2 for y in ys) if len(ys) >= 2 else 0.0
    dof = max(len(ys) - 1, 0)
    return max(math.sqrt((ss + SHRINK * pooled**2) / (dof + SHRINK)), MIN_SD)


def _shares(sites: Sequence[Site]) -> dict[str, float] | None:
    totals = {c: sum(s.components.get(c, 0.0) for s in sites if not s.censored) for c in COMPONENTS}
    whole = sum(totals.values())
    return {c: round(v / whole, 4) for c, v in totals.items()} if whole > 0 else None


def _number(x) -> float | None:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0 else None


def _round_or_none(x: float | None) -> float | None:
    return None if x is None else float(f"{x:.4g}")


def _log_feature(features: dict, name: str) -> float | None:
    v = _number(features.get(name))
    return math.log10(v) if v is not None else None


def fit_slopes(sites: Sequence[Site]) -> dict[str, float]:
    """Pooled within-API slopes of log10 J on log10 feature, ridge-shrunk towards 0.

    Only measurable call sites of APIs with at least two such sites carrying the feature count;
    each API is centred on its own means, so the slope says how call sites of one API differ.
    """
    slopes = {}
    for feat in SLOPE_FEATURES:
        by_api: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for s in sites:
            x = _log_feature(s.features, feat)
            if x is not None and not s.censored:
                by_api[s.api].append((x, s.y))
        sxy = sxx = 0.0
        for pts in by_api.values():
            if len(pts) >= 2:
                mx = statistics.fmean(p[0] for p in pts)
                my = statistics.fmean(p[1] for p in pts)
                sxy += sum((p[0] - mx) * (p[1] - my) for p in pts)
                sxx += sum((p[0] - mx) ** 2 for p in pts)
        if sxx > 0:
            slopes[feat] = round(sxy / (sxx + SLOPE_RIDGE), 4)
    return slopes


def _ref_log(sites: Sequence[Site]) -> dict[str, float]:
    """An API's reference features: the median log10 over its measurable call sites that have them."""
    ref = {}
    for feat in SLOPE_FEATURES:
        v = median([_log_feature(s.features, feat) for s in sites if not s.censored])
        if v is not None:
            ref[feat] = round(v, 4)
    return ref


def feature_shift(tables: dict, entry: dict, features: dict) -> float:
    """log10 shift of an API's prediction for a call's static features (0 without a reference)."""
    ref = entry.get("ref_log", {})
    shift = 0.0
    for feat, b in tables.get("slopes", {}).items():
        x = _log_feature(features, feat)
        if x is not None and feat in ref:
            shift += b * (x - ref[feat])
    return max(-MAX_SHIFT, min(MAX_SHIFT, shift))


def call_sites(records: Iterable, hierarchy: Hierarchy) -> list[Site]:
    """The KB's call sites, each under the API whose measurements it shares (`Hierarchy.pooled`)."""
    sites = build_sites(records)
    for s in sites:
        s.api = hierarchy.pooled(s.api)
    return sites


def fit_tables(sites: Sequence[Site], hierarchy: Hierarchy) -> dict:
    """The lookup tables (no interval calibration) from call sites.

    Below-resolution call sites are upper bounds. They enter an API's estimate only when none of
    its call sites was measurable (the API is then `bounded`): where anything above resolution
    says what the API costs, a crowd of quick calls must not pull that figure down (their cost is
    told apart by the work, not by lowering every call of the API).
    """
    by_api: dict[str, list[Site]] = defaultdict(list)
    for s in sites:
        by_api[s.api].append(s)
    slopes = fit_slopes(sites)
    ref_logs = {api: _ref_log(ss) for api, ss in by_api.items()}
    # each call site's value moved to its API's reference features, so a censored toy call (one
    # layer) does not drag down the API's typical value, nor a deep model push it up
    ys = {id(s): s.y - feature_shift({"slopes": slopes}, {"ref_log": ref_logs[s.api]}, s.features) for s in sites}
    exact = [s.y for s in sites if not s.censored]
    global_mu = statistics.median(exact) if exact else (statistics.median(s.y for s in sites) if sites else 0.0)
    sigma_w = _pooled_sd([[ys[id(s)] for s in ss if not s.censored] for ss in by_api.values()], DEFAULT_SD)
    sds = {api: _shrunk_sd([ys[id(s)] for s in ss if not s.censored], sigma_w) for api, ss in by_api.items()}

    def estimate(api: str, prior_mu: float, prior_sd: float):
        ss = by_api[api]
        exact = [ys[id(s)] for s in ss if not s.censored]
        bounds = [] if exact else [ys[id(s)] for s in ss]
        return censored_mean(exact, bounds, sds[api], prior_mu, prior_sd)

    # Pass 1: every API against a vague global prior; groups from those; pass 2: nearest group as prior.
    fits = {api: estimate(api, global_mu, 2.0) for api in by_api}
    groups = _groups(fits, by_api, hierarchy)
    for api in by_api:
        level, key = next(
            ((lvl, k) for lvl, k in hierarchy.chain(api) if groups.get(lvl, {}).get(k, {}).get("n_apis", 0) >= 3),
            ("global", "*"),
        )
        g = groups[level][key]
        fits[api] = estimate(api, g["mu"], g["tau"])
    groups = _groups(fits, by_api, hierarchy)
    apis = {}
    for api, ss in sorted(by_api.items()):
        ref = {}
        for feat in ("epochs", "steps_per_epoch", "steps"):
            v = median([_number(s.features.get(feat)) for s in ss])
            if v is not None:
                ref[feat] = v
        size = median([s.sizes.get("args_size") for s in ss if not s.censored])
        if size is not None:
            ref["args_size"] = size
        apis[api] = {
            "mu": round(fits[api].mu, 4),
            "se": round(fits[api].se, 4),
            "sd": round(sds[api], 4),
            "n_sites": len(ss),
            "n_censored": sum(s.censored for s in ss),
            "n_tutorials": len({s.tutorial for s in ss}),
            "records": sum(s.n_records for s in ss),
            "shares": _shares(ss),
            "sources": sorted({src for s in ss for src in s.sources}),
            "ref": ref,
            "ref_log": ref_logs[api],
            "time_s": _round_or_none(median([s.time_s for s in ss])),
            "bound_j": _round_or_none(median([10**s.y for s in ss if s.censored])),
            "bound_max_j": _round_or_none(max((10**s.y for s in ss if s.censored), default=None)),
            "estimated": all(s.features.get("estimated") for s in ss),
        }
    return {"global_mu": round(global_mu, 4), "sigma_w": round(sigma_w, 4), "apis": apis, "groups": groups,
            "slopes": slopes}


def _groups(fits, by_api, hierarchy: Hierarchy) -> dict:
    members: dict[tuple[str, str], list[str]] = defaultdict(list)
    for api in fits:
        for level, key in hierarchy.chain(api):
            members[(level, key)].append(api)
    measured = {api for api in fits if any(not s.censored for s in by_api[api])}
    all_mus = [f.mu for a, f in fits.items() if a in measured] or [f.mu for f in fits.values()]
    tau_all = _shrunk_sd(all_mus, DEFAULT_SD) if all_mus else DEFAULT_SD
    out: dict[str, dict] = defaultdict(dict)
    for (level, key), members_ in members.items():
        # as for an API's own call sites: members known only by their bounds speak for the group
        # only when none of its members was measurable
        apis = [a for a in members_ if a in measured] or members_
        mus = [fits[a].mu for a in apis]
        tau = _shrunk_sd(mus, tau_all)
        shares = _shares([s for a in apis for s in by_api[a]])
        times = [t for a in apis for t in [median([s.time_s for s in by_api[a]])] if t]
        out[level][key] = {
            "mu": round(statistics.median(mus), 4),
            "time_s": _round_or_none(statistics.median(times)) if times else None,
            "tau": round(tau, 4),
            "n_apis": len(apis),
            "n_measured": sum(a in measured for a in members_),
            "records": sum(s.n_records for a in apis for s in by_api[a]),
            "shares": shares,
            "sources": sorted({src for a in apis for s in by_api[a] for src in s.sources}),
        }
    return dict(out)


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


def fit_negligible(sites: Sequence[Site], hierarchy: Hierarchy) -> dict | None:
    """The bound the KB's measurements put on calls that do no tensor work (`NO_WORK_KINDS`).

    Their call sites measured below the resolution say only "under about X J" each: the median
    of those bounds is what one such call is known to stay under. None without such sites.
    """
    from greenlint.catalog.kinds import NO_WORK_KINDS

    no_work = [s for s in sites if hierarchy.kind(s.api) in NO_WORK_KINDS]
    bounds = [10**s.y for s in no_work if s.censored]
    if not bounds:
        return None
    return {
        "bound_j": _round_or_none(statistics.median(bounds)),
        "n_sites": len(bounds),
        "n_measurable": sum(not s.censored for s in no_work),
        "n_apis": len({s.api for s in no_work if s.censored}),
        "records": sum(s.n_records for s in no_work if s.censored),
        "time_s": _round_or_none(median([s.time_s for s in no_work if s.censored])),
        "sources": sorted({src for s in no_work if s.censored for src in s.sources}),
    }


def fit_size_exponents(records: Iterable) -> dict:
    """Slopes of log10 J on log10 input size within FECoM's data-size sweeps, per API and per method name."""
    sweep_sites = build_sites([r for r in records if is_sweep(r)], sweeps=True)
    runs: dict[tuple, list[Site]] = defaultdict(list)
    for s in sweep_sites:
        runs[(s.tutorial, s.key[2], s.api)].append(s)
    slopes: dict[str, list[float]] = defaultdict(list)
    for (_, _, api), ss in runs.items():
        pts = [
            (math.log10(s.features[FRACTION]), s.y)
            for s in ss
            if not s.censored and s.features.get(FRACTION)
        ]
        if len(pts) >= MIN_SWEEP_POINTS:
            mx = statistics.fmean(p[0] for p in pts)
            sxx = sum((p[0] - mx) ** 2 for p in pts)
            if sxx > 0:
                my = statistics.fmean(p[1] for p in pts)
                slopes[api].append(sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx)
    per_api = {api: round(statistics.median(v), 4) for api, v in sorted(slopes.items())}
    by_method: dict[str, list[float]] = defaultdict(list)
    for api, b in per_api.items():
        by_method[api.rpartition(".")[2]].append(b)
    return {
        "per_api": per_api,
        "per_method": {m: round(statistics.median(v), 4) for m, v in sorted(by_method.items())},
    }


def fit_work(sites: Sequence[Site], hierarchy: Hierarchy) -> dict:
    """Time models and power (steady and ramp-up) per kind group, and each API's offset from them (work.py).

    Time models use every call site with a measured time, below resolution or not (time is
    measured even where energy was not); the power curve and the offsets use measurable sites.
    """
    rows, groups = [], {}
    for s in sites:
        group = time_group(hierarchy.kind(s.api), s.api)
        groups[id(s)] = group
        if group and s.time_s:
            rows.append((group, s.features, s.time_s))
    work = {"time": fit_time_models(rows), "power": fit_power([(groups[id(s)], s.time_s, 10**s.y) for s in sites
                                                               if not s.censored and s.time_s])}
    residuals: dict[str, list[float]] = defaultdict(list)
    for s in sites:
        y = work_log_energy(work, groups[id(s)], s.features)
        if y is not None and not s.censored:
            residuals[s.api].append(s.y - y)
    # an API's own offset from the kind's model, shrunk towards 0 by one pseudo-site
    work["offsets"] = {api: round(statistics.median(r) * len(r) / (len(r) + 1), 4) for api, r in sorted(residuals.items())}
    return work


def calibrate(sites: Sequence[Site], hierarchy: Hierarchy, folds: int = CALIBRATION_FOLDS, size_exponents: dict | None = None) -> dict:
    """Per-group interval factors: split-conformal quantiles of held-out residuals, by tutorial fold.

    Tutorials are split into `folds` groups; each group's measurable call sites are predicted by
    the shipped `Predictor` on tables fitted on the other groups, with the call's own features, so
    the residuals include everything the prediction does (work, feature shifts, epochs scaling).
    Scores: |residual| / the prediction's own log10 sd (lookup levels; a `bounded` API has its
    own), or |residual| minus the early-stopping spread (the work path, whose half-width is
    additive). Each group's factor is a finite-sample conformal quantile (`conformal_quantile`), so
    a new tutorial's call sites fall inside about 80% of the time, group by group.
    """
    from greenlint.predict.predictor import Predictor  # predictor imports this module's lookups

    tutorials = sorted({s.tutorial for s in sites})
    scores: dict[str, list[float]] = defaultdict(list)
    raw = {"k": {**dict.fromkeys(LEVELS, 1.0), "bounded": 1.0}, "work_half": 0.0}
    for f in range(folds):
        held = {t for i, t in enumerate(tutorials) if i % folds == f}
        train_sites = [s for s in sites if s.tutorial not in held]
        if not train_sites:
            continue
        model = {**fit_tables(train_sites, hierarchy), "size_exponents": size_exponents or {},
                 "work": fit_work(train_sites, hierarchy), "calibration": raw}
        predictor = Predictor(model, hierarchy=hierarchy, model_bytes=b"")
        for s in sites:
            if s.tutorial not in held or s.censored or predictor._training_run(s.api, s.features) is not None:
                continue
            if unknown_size(s.features):  # a stated range, not a calibrated one (work.unknown_size_span)
                continue
            p = predictor.predict(s.api, s.features)
            if p.energy_j is None or p.basis is Basis.NEGLIGIBLE:
                continue
            mu = math.log10(p.energy_j)
            # the unscaled half-width: a bound's interval starts at 0, so from its upper end (maybe clipped)
            half = (math.log10(p.interval_j[1]) if p.interval_j[0] <= 0 else 2 * mu - math.log10(p.interval_j[0])) - mu
            if predictor._from_work(s.api, s.features) is not None:
                scores["work"].append(abs(s.y - mu) - half)
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
    k["bounded"] = round(conformal_quantile(bounded), 4) if len(bounded) >= MIN_CALIBRATION else k["api"]
    # an API measured in one other tutorial only is nearly a new API: its own factor, else the fallbacks'
    k[SINGLE] = round(conformal_quantile(single), 4) if len(single) >= MIN_CALIBRATION else round(k_fallback, 4)
    work_half = round(max(conformal_quantile(work_q), 0.0), 4) if len(work_q) >= MIN_CALIBRATION else None
    return {"k": k, "n": {**{lvl: len(scores.get(lvl, [])) for lvl in LEVELS}, "bounded": len(bounded),
                 SINGLE: len(single)},
            "folds": folds,
            "work_half": work_half, "n_work": len(work_q)}


def interval_group(basis: Basis, level: str, entry: dict) -> str:
    """The calibration group of a lookup prediction: `bounded`, `api_single` or its fallback level."""
    if basis is Basis.BOUNDED:
        return "bounded"
    if level == "api" and entry.get("n_tutorials") == 1:
        return SINGLE
    return level


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


def train(records: Sequence, hierarchy: Hierarchy | None = None, *, calibrated: bool = True, folds: int = CALIBRATION_FOLDS,
          censored: bool = True) -> dict:
    """The whole model (a JSON-able dict) from KB records.

    `censored=False` drops below-resolution call sites instead of using them as bounds (an
    ablation for the evaluation, not what ships).
    """
    hierarchy = hierarchy or Hierarchy()
    records = list(records)
    sites = [s for s in call_sites(records, hierarchy) if censored or not s.censored]
    model = {
        "version": MODEL_VERSION,
        "kb": kb_digest(records),
        "catalog": catalog_digest(),
        "n_records": len(records),
        "n_sites": len(sites),
        "n_sites_censored": sum(s.censored for s in sites),
        **fit_tables(sites, hierarchy),
        "negligible": fit_negligible(sites, hierarchy),
        "size_exponents": (exponents := fit_size_exponents(records)),
        "work": fit_work(sites, hierarchy),
        "calibration": calibrate(sites, hierarchy, folds, exponents)
        if calibrated
        else {"k": dict.fromkeys(LEVELS, Z80), "n": dict.fromkeys(LEVELS, 0), "folds": 0, "work_half": None,
              "n_work": 0},
    }
    return model


def kb_digest(records: Sequence) -> str:
    """A short hash of the records a model was trained on (their identity and energies)."""
    h = hashlib.sha256()
    for r in sorted(records, key=lambda r: (r.dataset, r.project, r.script, r.experiment or 0, r.index)):
        h.update(repr((r.api, r.dataset, r.project, r.script, r.experiment, r.index, r.net_j, r.below_resolution)).encode())
    return h.hexdigest()[:16]


def catalog_digest() -> str | None:
    """A short hash of the bundled catalog files (the fallback chain's groups depend on them)."""
    from greenlint.paths import DATA_DIR

    files = sorted((DATA_DIR / "catalog").glob("*.json*"))
    if not files:
        return None
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def dumps(model: dict) -> str:
    return json.dumps(model, sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n"


__all__ = ["CALIBRATION_FOLDS", "MODEL_VERSION", "calibrate", "dumps", "feature_shift", "fit_slopes", "fit_tables", "conformal_quantile", "lookup", "quantile",
           "train"]
