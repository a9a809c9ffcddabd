"""This machine's own time model, fitted on `greenlint calibrate`'s sweep of `fit` and `predict` work.

The reference model (work_energy.py) prices a call on the reference GPUs of the public data: a
large per-step cost and a cheap FLOP. A CPU machine is the other way round (a step costs a few
milliseconds of dispatch, a FLOP a thousand times more than on a GPU), so moving a figure measured
here to another call's work by the reference model's ratio, or rescaling by one execution-time
ratio, gets both wrong. Instead the calibration's workloads of a time group (same model at two
step counts, a wide one at ~100x the FLOPs: meter/workloads/models.py) fit this machine's
constants of the same form, time = start-up + per_step x steps + per_flop x FLOPs:

* `call_s`, `per_step`, `per_flop`: least squares in relative error over the warmed-up calls'
  joules at the group's power (the seconds their energy is worth: on a shared machine wall time
  waits on other processes), none negative (every subset of the three terms tried, the best with
  no negative constant kept);
* `trace_s`: the first call's extra seconds (tracing, building the step function), the median
  over the group's workloads of their first call less a warmed-up one: a program's first call pays
  it, so `t0` = `call_s` + `trace_s` is the start-up `time_of` adds. Where the calibration metered
  the first call's energy (`first_j`), its extra joules at the group's power (the seconds they are
  worth, like every term here): tracing is Python on one core while a warmed-up call may keep
  several busy, so its wall time at their power misstates it; else its extra wall time;
* `steady_w`: the group's measured joules over its seconds (the same power x time definition);
* `sd`: the log10 spread the figures carry: the fit's residuals and the repeats' spread, never
  under the run-to-run noise; beyond the longest call fitted, `extrapolation_spread` widens it.

A group needs `MIN_WORKLOADS` workloads of distinct work with known FLOPs and a measured energy;
otherwise it has no local model and calibration falls back to the measured figures and the ratio.
Tensor ops get the same treatment (`local_ops`): a dispatch cost and a cost per FLOP, fitted on the
op workloads that state their FLOPs (matmuls of two sizes, a reduction, a convolution), where the
reference roofline has a GPU's microseconds of dispatch and its teraFLOPs.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Mapping

from greenlint.predict.work_energy import derive, one_batch
from greenlint.units import TIMES

#: Fewest workloads of distinct work (steps, FLOPs) that fit a group's local time model: three constants.
MIN_WORKLOADS = 3


def nonnegative_fit(rows: list[tuple[tuple[float, ...], float]]) -> tuple[tuple[float, ...], float] | None:
    """(coefficients, weighted residual sum of squares) of y = sum(c_i x_i) with every c_i >= 0,
    least squares in relative error (each row weighted by 1 / y): the best of the fits on each subset
    of the columns whose coefficients are all non-negative. None where no subset fits (no rows)."""
    if not rows:
        return None
    width = len(rows[0][0])
    best: tuple[tuple[float, ...], float] | None = None
    for size in range(1, width + 1):
        for cols in itertools.combinations(range(width), size):
            coef = _solve([[x[c] / y for c in cols] for x, y in rows], [1.0] * len(rows))
            if coef is None or any(c < 0 for c in coef):
                continue
            full = [0.0] * width
            for c, v in zip(cols, coef):
                full[c] = v
            sse = sum((sum(f * v for f, v in zip(full, x)) / y - 1.0) ** 2 for x, y in rows)
            if best is None or sse < best[1] - 1e-15:
                best = (tuple(full), sse)
    return best


def _solve(a: list[list[float]], b: list[float]) -> list[float] | None:
    """Least squares of a x = b through the normal equations (a few columns, each scaled to unit
    norm first, as steps and FLOPs differ by orders of magnitude: Gaussian elimination with partial
    pivoting); None where they are singular."""
    n = len(a[0])
    norms = [math.sqrt(sum(r[i] ** 2 for r in a)) or 1.0 for i in range(n)]
    a = [[v / norms[i] for i, v in enumerate(r)] for r in a]
    m = [[sum(r[i] * r[j] for r in a) for j in range(n)] + [sum(r[i] * y for r, y in zip(a, b))] for i in range(n)]
    scale = max(abs(m[i][i]) for i in range(n)) or 1.0
    for i in range(n):
        p = max(range(i, n), key=lambda k: abs(m[k][i]))
        if abs(m[p][i]) <= 1e-10 * scale:
            return None
        m[i], m[p] = m[p], m[i]
        for k in range(i + 1, n):
            f = m[k][i] / m[i][i]
            m[k] = [u - f * v for u, v in zip(m[k], m[i])]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return [v / norms[i] for i, v in enumerate(x)]


def _spread_of(residuals: list[float], workloads: list[str], spread: Mapping[str, float] | None,
               noise_sd: float) -> float:
    """log10 sd of a local model's figures: its residuals' rms, the repeats' largest spread, the noise."""
    repeats = max((spread or {}).get(w, 0.0) for w in workloads)
    return max(math.sqrt(statistics.fmean(r * r for r in residuals)), repeats, noise_sd)


def local_ops(timed: Mapping[str, tuple[tuple[str, dict, float], ...]], joules: Mapping[str, float],
              is_op: Callable[[str], bool], spread: Mapping[str, float] | None = None,
              noise_sd: float = 0.05) -> dict | None:
    """This machine's op model: seconds = `dispatch_s` + `per_flop` x FLOPs at `steady_w`, fitted like
    `local_work` on the tensor-op workloads (*is_op(api)*) that state their FLOPs; None with fewer than
    `MIN_WORKLOADS` of distinct FLOPs. An op's bytes are not a term: a CPU's memory traffic is not
    separable from its FLOPs with these workloads, and ops with no FLOPs stay on the reference model."""
    rows = [(w, float(f["flops"]), s) for api, ws in timed.items() if is_op(api) for w, f, s in ws
            if isinstance(f.get("flops"), (int, float)) and f["flops"] > 0 and s and s > 0 and joules.get(w)]
    if len({f for _, f, _ in rows}) < MIN_WORKLOADS:
        return None
    watts = sum(joules[w] for w, _, _ in rows) / sum(s for *_, s in rows)
    rows = [(w, f, joules[w] / watts) for w, f, _ in rows]
    fit = nonnegative_fit([((1.0, f), s) for _, f, s in rows])
    if fit is None:
        return None
    (dispatch_s, per_flop), _ = fit
    residuals = [math.log10(max(dispatch_s + per_flop * f, 1e-12) / s) for _, f, s in rows]
    return {"dispatch_s": dispatch_s, "per_flop": per_flop, "steady_w": watts,
            "flops": [min(f for _, f, _ in rows), max(f for _, f, _ in rows)],
            "sd": _spread_of(residuals, [w for w, *_ in rows], spread, noise_sd), "workloads": [w for w, *_ in rows]}


def local_work(timed: Mapping[str, tuple[tuple[str, dict, float], ...]], joules: Mapping[str, float],
               first_s: Mapping[str, float], group_of: Callable[[str, dict], str | None],
               spread: Mapping[str, float] | None = None, noise_sd: float = 0.05,
               first_j: Mapping[str, float] | None = None) -> dict | None:
    """This machine's work model, in the reference model's shape (`{"time": {group: ...}, "power":
    {group: {"steady_w"}}}`), from the calibration's timed workloads (API -> (workload, work, median
    seconds per call)), their measured joules per call (*joules*, by workload), first-call seconds
    (*first_s*) and joules (*first_j*, where metered) and repeats' log10 spread (*spread*); None
    where no group has `MIN_WORKLOADS`.
    *group_of(api, work)*: the time group the predictor gives the call (`work_energy.time_group`)."""
    rows: dict[str, list[tuple[str, float, float, float]]] = {}
    for api, workloads in timed.items():
        for workload, features, seconds in workloads:
            group = group_of(api, features)
            if group is None or one_batch(api, features) is not features or not seconds or seconds <= 0:
                continue  # one batch (an eager call, `*_on_batch`) is not a call of the fitted kind
            n, flops = derive(group, features)
            if n is None or flops is None or not joules.get(workload):
                continue
            rows.setdefault(group, []).append((workload, n, flops, seconds))
    wall = {w: s for rs in rows.values() for w, _, _, s in rs}
    time: dict[str, dict] = {}
    power: dict[str, dict] = {}
    for group, rs in sorted(rows.items()):
        if len({(n, f) for _, n, f, _ in rs}) < MIN_WORKLOADS:
            continue
        watts = sum(joules[w] for w, *_ in rs) / sum(s for *_, s in rs)
        # fitted on the joules at the group's power: wall seconds on a shared machine wait on other
        # processes, the energy measured (CPU time under the estimated source) does not
        rs = [(w, n, f, joules[w] / watts) for w, n, f, _ in rs]
        fit = nonnegative_fit([((1.0, n, f), s) for _, n, f, s in rs])
        if fit is None:
            continue
        (call_s, per_step, per_flop), _ = fit
        residuals = [math.log10(max(call_s + per_step * n + per_flop * f, 1e-12) / s) for _, n, f, s in rs]
        sd = _spread_of(residuals, [w for w, *_ in rs], spread, noise_sd)
        first_j = first_j or {}
        if any(w in first_j for w, *_ in rs):  # the first call's extra joules, in seconds at the group's power
            traces = [max(first_j[w] - joules[w], 0.0) / watts for w, *_ in rs if w in first_j]
        else:
            traces = [max(first_s[w] - wall[w], 0.0) for w, *_ in rs if w in first_s]
        trace_s = statistics.median(traces) if traces else 0.0
        time[group] = {
            "t0": call_s + trace_s, "call_s": call_s, "trace_s": trace_s, "per_step": per_step, "per_flop": per_flop,
            "flops_per_step": statistics.median(f / n for _, n, f, _ in rs), "t_max": max(s for *_, s in rs),
            "n": len(rs), "sd": sd, "workloads": [w for w, *_ in rs],
        }
        power[group] = {"steady_w": watts, "n": len(rs)}
    return {"time": time, "power": power} if time else None


def describe(local: dict | None) -> list[str]:
    """One line per local model (`greenlint calibrate` and `--status` print them): its constants and
    the workloads they were fitted on; none where the calibration fitted none."""
    if not local:
        return []
    lines = []
    for group, m in sorted(local.get("time", {}).items()):
        lines.append(f"{group}: {m['call_s']:.3g} s per call + {m['per_step']:.3g} s per step + {m['per_flop']:.3g} s "
                     f"per FLOP, the first call {m['trace_s']:.3g} s more, at {local['power'][group]['steady_w']:.3g} W "
                     f"(fitted on {', '.join(m['workloads'])}; spread {TIMES}{10 ** m['sd']:.3g})")
    ops = local.get("ops")
    if ops:
        lines.append(f"tensor ops: {ops['dispatch_s']:.3g} s dispatch + {ops['per_flop']:.3g} s per FLOP at "
                     f"{ops['steady_w']:.3g} W (fitted on {', '.join(ops['workloads'])}; spread {TIMES}{10 ** ops['sd']:.3g})")
    return lines
