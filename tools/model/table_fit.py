"""Fit the lookup tables (`tables.py`) from call sites: a hierarchical, censoring-aware table.

Per API: the posterior mode of the mean log10 J over its call sites (Tobit likelihood, prior from
its nearest populated group), the spread between its call sites, the CPU/GPU/DRAM shares and the
reference values of scalable features. Per group of the fallback chain: the median and spread of
its member APIs. `tools/model/train.py` fits the shipped tables with it; at load time a
calibration overlay's tables are fitted with it from this machine's own measurements
(`loading.find_overlay`).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence

from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.tables import DEFAULT_SD, feature_shift, log_feature, positive_number
from greenlint.stats import median
from tools.model.censored import censored_mean
from tools.model.sites import COMPONENTS, Site

#: Pseudo-observations pulling a small sample's spread towards the pooled one.
SHRINK = 2.0
#: Least spread (log10) ever assumed: run-to-run noise of repeated measurements (about 12%).
MIN_SD = 0.05
#: Static features whose log10 shifts an API's prediction from its median (pooled within-API
#: slopes): the model's depth, the feature with a within-API association on the measured call
#: sites. Epochs are not here: within an API the measured tutorials show none (those with many
#: epochs train on small data); they scale in lookup_figure.py.
SLOPE_FEATURES = ("n_layers",)
#: Ridge pseudo-count (in units of summed squared log10 deviations) shrinking a slope towards 0,
#: i.e. the prediction towards the API's median.
SLOPE_RIDGE = 1.0


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

def _api_sd(sites: Sequence[Site], ys: dict[int, float], pooled: float) -> float:
    """An API's spread between call sites, shrunk towards the pooled one; where its measurable sites
    are all in one tutorial, at least the pooled one: one program's calls share its data and model, so
    their spread says nothing of how another program's call differs."""
    sd = _shrunk_sd([ys[id(s)] for s in sites], pooled)
    return max(sd, pooled) if len({s.tutorial for s in sites}) == 1 else sd

def _shares(sites: Sequence[Site]) -> dict[str, float] | None:
    totals = {c: sum(s.components.get(c, 0.0) for s in sites if not s.censored) for c in COMPONENTS}
    whole = sum(totals.values())
    return {c: round(v / whole, 4) for c, v in totals.items()} if whole > 0 else None

def round_sig(x: float | None) -> float | None:
    """x to 4 significant digits (None stays None): the model file's precision."""
    return None if x is None else float(f"{x:.4g}")

def fit_slopes(sites: Sequence[Site]) -> dict[str, float]:
    """Pooled within-API slopes of log10 J on log10 feature, ridge-shrunk towards 0.

    Only measurable call sites of APIs with at least two such sites carrying the feature count;
    each API is centred on its own means, so the slope says how call sites of one API differ.
    """
    slopes = {}
    for feat in SLOPE_FEATURES:
        by_api: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for s in sites:
            x = log_feature(s.features, feat)
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
        v = median([log_feature(s.features, feat) for s in sites if not s.censored])
        if v is not None:
            ref[feat] = round(v, 4)
    return ref

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
    sds = {api: _api_sd([s for s in ss if not s.censored], ys, sigma_w) for api, ss in by_api.items()}

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
            v = median([positive_number(s.features.get(feat)) for s in ss])
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
            "time_s": round_sig(median([s.time_s for s in ss])),
            "bound_j": round_sig(median([10**s.y for s in ss if s.censored])),
            "censored_time_s": round_sig(median([s.time_s for s in ss if s.censored])),
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
            "time_s": round_sig(statistics.median(times)) if times else None,
            "tau": round(tau, 4),
            "n_apis": len(apis),
            "n_measured": sum(a in measured for a in members_),
            "records": sum(s.n_records for a in apis for s in by_api[a]),
            "shares": shares,
            "sources": sorted({src for a in apis for s in by_api[a] for src in s.sources}),
        }
    return dict(out)
