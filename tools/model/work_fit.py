"""Fit the work model (greenlint/predict/work_energy.py): time models and power per kind group, and each
API's offset from them. Robust least squares with scipy: training time only."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence

from greenlint.predict.hierarchy import Hierarchy
from greenlint.predict.work_energy import (
    MIN_FIT_SITES,
    derive,
    model_layers,
    time_group,
    traced_layers,
    work_log_energy,
)
from tools.model.first_call import per_layer_start
from tools.model.sites import Site
from tools.model.table_fit import round_sig


def fit_time_models(rows: Sequence[tuple[str, dict, float]], per_layer: dict[str, float] | None = None) -> dict:
    """Per group, `time = t0 + l x layers + (a + c x layers) x steps + b x FLOPs` from (group, features, seconds) rows,
    with one `b` for every group: the device's seconds per FLOP, whatever the call. `l`, each group's
    start-up per layer of its model (*per_layer*: measured, `first_call.per_layer_start`, not
    fitted; none where not given), is kept as `per_layer_start` (`start_up`), times each row's
    `traced_layers`.

    The start-up t0, the per-step overhead a and its share per layer of the model c (`step_s`: each layer
    launches its kernels every step; a row whose layers are unknown counts the group's median, kept as
    `layers_per_step`; no c where the rows' layers do not vary) are each group's own (a `fit` step runs a backward
    pass and an update, an `evaluate` step does not); a FLOP costs what the device's throughput
    makes it in both. So `b` is set where FLOPs outweigh the overheads (a training step of 10^10
    FLOPs), not by a slope between small calls whose time is overhead (a small CNN's step costs
    more than an MLP's for its layers' kernels, c, not for its 10^9 FLOPs), and an inference pass of a
    large model is priced at the throughput its training steps measured.

    Robust least squares (soft L1, scipy) on log10 time, with the coefficients kept positive by
    fitting their logarithms: a call timed 10x too long weighs as much as one 10x too short, and
    one odd site (a callback that stops training early, unseen by the resolver) does not set the
    slope. FLOPs unknown on a row count as the group's median FLOPs per step. `t_max`: the longest
    call fitted on (`extrapolation_spread`).
    """
    import numpy as np
    from scipy.optimize import least_squares

    per_layer = per_layer or {}
    by_group: dict[str, list[tuple[float, float | None, float, float, int | None]]] = defaultdict(list)
    for group, f, t in rows:
        n, flops = derive(group, f)
        if n is not None and t and t > 0:
            by_group[group].append((n, flops, t, per_layer.get(group, 0.0) * traced_layers(f), model_layers(f)))
    groups = sorted(g for g, pts in by_group.items() if len(pts) >= MIN_FIT_SITES)
    if not groups:
        return {}
    data, start = [], []
    for group in groups:
        pts = by_group[group]
        per = sorted(fl / n for n, fl, *_ in pts if fl)
        fpp = per[len(per) // 2] if per else 0.0
        n = np.array([p[0] for p in pts])
        fl = np.array([p[1] if p[1] is not None else p[0] * fpp for p in pts])
        log_t = np.log10([p[2] for p in pts])
        traced = np.array([p[3] for p in pts])
        known = sorted(p[4] for p in pts if p[4])
        typical = float(known[len(known) // 2]) if known else 1.0
        # no term per layer where the rows' layers do not vary: it could not be told from the fixed cost
        layers = np.array([p[4] or typical for p in pts], dtype=float) * (len(set(known)) > 1)
        data.append((fpp, n, fl, log_t, traced, layers, typical))
        step = float(np.median(10**log_t / n))
        start += [float(np.median(10**log_t[n <= np.median(n)])), step / 2, step / 2 / typical]

    def residuals(theta):
        b = 10.0 ** theta[-1]
        return np.concatenate([np.log10(10.0 ** theta[3 * i] + traced + (10.0 ** theta[3 * i + 1]
                                                                          + 10.0 ** theta[3 * i + 2] * layers) * n
                                        + b * fl) - log_t
                               for i, (_, n, fl, log_t, traced, layers, _) in enumerate(data)])

    fit = least_squares(residuals, np.log10([*start, 1e-12]), loss="soft_l1", f_scale=0.3)
    b = float(10.0 ** fit.x[-1])
    out = {}
    for i, (group, (fpp, *_, layers, typical)) in enumerate(zip(groups, data)):
        t0, a, c = (float(v) for v in 10.0 ** fit.x[3 * i:3 * i + 3])
        out[group] = {"t0": round_sig(t0), "per_step": round_sig(a), "per_flop": round_sig(b), "flops_per_step": round_sig(fpp),
                      "n": len(by_group[group]), "t_max": round_sig(max(p[2] for p in by_group[group]))}
        if layers.any():
            out[group] |= {"per_layer_step": round_sig(c), "layers_per_step": typical}
        if per_layer.get(group):
            out[group]["per_layer_start"] = round_sig(per_layer[group])
    return out


def fit_power(rows: Sequence[tuple[str | None, float, float]]) -> dict:
    """Steady net power P per kind group from (group, seconds, joules) of measurable calls: energy =
    P x time (`energy_at`), so log10 P is the median of log10(joules / seconds), the robust centre of
    the calls' average powers (one odd call does not set it). `all` pools every measurable call (the
    ops, layers and other calls); a group with fewer than MIN_FIT_SITES calls uses it."""
    pts = [(g or "all", t, j) for g, t, j in rows if t > 0 and j > 0]
    out = {}
    for group in sorted({"all"} | {g for g, _, _ in pts}):
        sel = [math.log10(j / t) for g, t, j in pts if group == "all" or g == group]
        if len(sel) < MIN_FIT_SITES:
            continue
        out[group] = {"steady_w": round_sig(10 ** statistics.median(sel)), "n": len(sel)}
    return out


def fit_work(sites: Sequence[Site], hierarchy: Hierarchy) -> dict:
    """Time models and steady power per kind group, and each API's offset from them (work.py).

    Time models use every call site with a measured time, below resolution or not (time is
    measured even where energy was not); the power curve and the offsets use measurable sites.
    """
    rows, groups = [], {}
    for s in sites:
        group = time_group(hierarchy.kind(s.api), s.api)
        groups[id(s)] = group
        if group and s.time_s:
            rows.append((group, s.features, s.time_s))
    work = {"time": fit_time_models(rows, per_layer_start()), "power": fit_power([(groups[id(s)], s.time_s, 10**s.y) for s in sites
                                                               if not s.censored and s.time_s])}
    residuals: dict[str, list[float]] = defaultdict(list)
    for s in sites:
        y = work_log_energy(work, groups[id(s)], s.features)
        if y is not None and not s.censored:
            residuals[s.api].append(s.y - y)
    # an API's own offset from the kind's model, shrunk towards 0 by one pseudo-site; fitted, like a time
    # model, on MIN_FIT_SITES measured sites at least: one or two sites' residual is their own start-up
    # (a first `predict` of a pretrained network: 3.3 s for one image), not the API's cost per unit of work
    work["offsets"] = {api: round(statistics.median(r) * len(r) / (len(r) + 1), 4) for api, r in sorted(residuals.items())
                       if len(r) >= MIN_FIT_SITES}
    return work
