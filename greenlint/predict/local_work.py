"""This machine's own time model, fitted on `greenlint calibrate`'s sweep of `fit` and `predict` work.

The reference model (work_energy.py) prices a call on the reference GPUs of the public data: a
large per-step cost and a cheap FLOP. A CPU machine is the other way round (a step costs a few
milliseconds of dispatch, a FLOP a thousand times more than on a GPU), so moving a figure measured
here to another call's work by the reference model's ratio, or rescaling by one execution-time
ratio, gets both wrong. Instead the calibration's workloads of a time group (the same model at
several step and epoch counts, a wide one at ~100x the FLOPs: meter/workloads/models.py) fit this
machine's constants of the same form, time = start-up + per_epoch x epochs + per_step x steps +
per_flop x FLOPs:

* `call_s`, `per_epoch`, `per_step`, `per_flop`: least squares in relative error over the warmed-up
  calls' joules (each workload's median over its repeats) at the group's power (the seconds their
  energy is worth: on a shared machine wall time waits on other processes), none negative (every
  subset of the terms tried, the best with no negative constant kept). `per_epoch` (Keras' epoch
  set-up, callbacks, the data adapter's iterator, a validation pass's start) is a term only where
  the workloads run at two epoch counts or more; otherwise it is 0 and a single pass's set-up is
  in `call_s`;
* the fit must be over-determined (`identified`): more workloads of distinct work than constants,
  and work that separates them (no constant a combination of the others). A group whose workloads
  do not is refused (`refused`, with the reason), never fitted exactly through its points;
* `residuals`: each workload's log10 error of the fit, their rms `resid_sd` (per degree of freedom)
  and `poor` where it exceeds `POOR_FIT_SD`: a calibration that fits noise says so;
* `trace_s`: the first call's extra seconds (tracing, building the step function), the median
  over the group's workloads of their first call less a warmed-up one: a program's first call pays
  it, so `t0` = `call_s` + `trace_s` is the start-up `time_of` adds. Where every workload of the
  group states its layers (`n_layers`), tracing is priced per layer instead, as the reference model
  prices it (`per_layer_start`): `trace_s` over the workloads' median layers, and `t0` = `call_s`, so
  a first call tracing a model of 150 layers pays 150 layers' tracing, not the workloads' 3 (a
  first call's extra CPU time is almost all per layer: 0.15 s a layer over a 0.04 s intercept for
  a `fit`, tools/model/first_call.py). Where the calibration metered
  the first call's energy (`first_j`), its extra joules at the group's power (the seconds they are
  worth, like every term here): tracing is Python on one core while a warmed-up call may keep
  several busy, so its wall time at their power misstates it; else its extra wall time;
* `steady_w`: the group's measured joules over its seconds (the same power x time definition);
* `sd`: the log10 spread the figures carry: the fit's residuals and the repeats' spread, never
  under the run-to-run noise; beyond the longest call fitted, `extrapolation_spread` widens it;
* `roofline`: where the op model is fitted and every workload states its layers' outputs, the same
  fit with the FLOPs at the op model's cost and a cost per element the steps move (`_roofline`), the
  training sweep's for every group (`_rooflines`: the inference sweep cannot tell it from its steps); it
  prices the calls whose traffic the analysis knows (`work_energy.time_of`, `compute_s`).

Tensor ops get the same treatment (`local_ops`): a dispatch cost and a cost per FLOP, fitted on the
op workloads that state their FLOPs (matmuls of two sizes, a reduction, a convolution), where the
reference roofline has a GPU's microseconds of dispatch and its teraFLOPs.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Mapping

from greenlint.predict.work_energy import TRAINING_FLOPS, derive, epochs_of, model_layers, one_batch, traffic
from greenlint.units import TIMES

#: A group's constants, in the fit's column order (`per_epoch` only where the workloads run at two
#: epoch counts or more: otherwise it is not told apart from `call_s`).
TERMS = ("call_s", "per_epoch", "per_step", "per_flop")
#: The group whose sweep tells a step's elements moved from its steps and FLOPs (`fit`s at batch 8 and 32, of a
#: narrow and a wide MLP: meter/workloads/models.py FIT_SWEEP). Its cost per element, in joules, is this machine's
#: for every group's roofline: the inference sweep runs one narrow MLP at batch 32 beside a wide one, whose
#: elements grow with their steps, so its own fit leaves them at no cost whatever they cost.
ELEMENTS_FITTED_BY = "training"
#: log10 rms residual (per degree of freedom) above which a local model's fit is called poor: its
#: own workloads off by more than x1.5 on average, the machine's load or noise rather than its constants.
POOR_FIT_SD = math.log10(1.5)


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


def identified(rows: list[tuple[tuple[float, ...], float]]) -> str | None:
    """Why *rows* ((terms' work, seconds) each) cannot fit their constants with a check, or None where
    they can: more rows of distinct work than constants (a fit through every point has no residual
    to tell noise from the model), and work that separates every constant (full rank)."""
    width = len(rows[0][0])
    distinct = len({x for x, _ in rows})
    if distinct <= width:
        return (f"{distinct} workload{'s' if distinct != 1 else ''} of distinct work for {width} constants: "
                f"at least {width + 1} needed, so the fit has residuals to check")
    if _solve([[v / y for v in x] for x, y in rows], [1.0] * len(rows)) is None:
        return "the workloads' work does not separate the constants (one term is a combination of the others)"
    return None


def _residuals(rows: list[tuple[str, tuple[float, ...], float]], coef: tuple[float, ...]) -> dict[str, float]:
    """Each workload's log10 error of the fitted constants (predicted over measured seconds)."""
    return {w: math.log10(max(sum(c * v for c, v in zip(coef, x)), 1e-12) / s) for w, x, s in rows}


def _resid_sd(residuals: Mapping[str, float], constants: int) -> float:
    """rms of the log10 residuals per degree of freedom (rows less the constants fitted)."""
    dof = max(len(residuals) - constants, 1)
    return math.sqrt(sum(r * r for r in residuals.values()) / dof)


def _spread_of(resid_sd: float, workloads: list[str], spread: Mapping[str, float] | None, noise_sd: float) -> float:
    """log10 sd of a local model's figures: its residuals' rms, the repeats' largest spread, the noise."""
    repeats = max((spread or {}).get(w, 0.0) for w in workloads)
    return max(resid_sd, repeats, noise_sd)


def _fit(rows: list[tuple[str, tuple[float, ...], float]], terms: tuple[str, ...]) -> dict | str:
    """The fitted constants of *terms* (by name, the others 0), their residuals, rms and whether the
    fit is poor; or why the rows cannot fit them (`identified`)."""
    design = [(x, s) for _, x, s in rows]
    why = identified(design)
    if why is not None:
        return why
    fit = nonnegative_fit(design)
    if fit is None:  # not reached: identified rows fit their full set of terms
        return "no non-negative fit"
    residuals = _residuals(rows, fit[0])
    resid_sd = _resid_sd(residuals, len(terms))
    return {**dict.fromkeys(TERMS, 0.0), **dict(zip(terms, fit[0])), "terms": list(terms),
            "residuals": {w: round(r, 4) for w, r in residuals.items()}, "resid_sd": resid_sd,
            "poor": resid_sd > POOR_FIT_SD}


def local_ops(timed: Mapping[str, tuple[tuple[str, dict, float], ...]], joules: Mapping[str, float],
              is_op: Callable[[str], bool], spread: Mapping[str, float] | None = None,
              noise_sd: float = 0.05) -> dict | None:
    """This machine's op model: seconds = `dispatch_s` + `per_flop` x FLOPs at `steady_w`, fitted like
    `local_work` on the tensor-op workloads (*is_op(api)*) that state their FLOPs; None where they do
    not identify it (`identified`). An op's bytes are not a term: a CPU's memory traffic is not
    separable from its FLOPs with these workloads, and ops with no FLOPs stay on the reference model."""
    rows = [(w, float(f["flops"]), s) for api, ws in timed.items() if is_op(api) for w, f, s in ws
            if isinstance(f.get("flops"), (int, float)) and f["flops"] > 0 and s and s > 0 and joules.get(w)]
    if not rows:
        return None
    watts = sum(joules[w] for w, _, _ in rows) / sum(s for *_, s in rows)
    fitted = _fit([(w, (1.0, f), joules[w] / watts) for w, f, _ in rows], ("call_s", "per_flop"))
    if isinstance(fitted, str):
        return None
    return {"dispatch_s": fitted["call_s"], "per_flop": fitted["per_flop"], "steady_w": watts,
            "flops": [min(f for _, f, _ in rows), max(f for _, f, _ in rows)],
            "residuals": fitted["residuals"], "resid_sd": fitted["resid_sd"], "poor": fitted["poor"],
            "sd": _spread_of(fitted["resid_sd"], [w for w, *_ in rows], spread, noise_sd),
            "workloads": [w for w, *_ in rows]}


def local_work(timed: Mapping[str, tuple[tuple[str, dict, float], ...]], joules: Mapping[str, float],
               first_s: Mapping[str, float], group_of: Callable[[str, dict], str | None],
               spread: Mapping[str, float] | None = None, noise_sd: float = 0.05,
               first_j: Mapping[str, float] | None = None, op_flop: float | None = None) -> dict | None:
    """This machine's work model, in the reference model's shape (`{"time": {group: ...}, "power":
    {group: {"steady_w"}}}`) with `refused` ({group: why} for the groups its workloads do not
    identify), from the calibration's timed workloads (API -> (workload, work, median seconds per
    call)), their measured joules per call (*joules*, by workload: the median over its repeats),
    first-call seconds (*first_s*) and joules (*first_j*, where metered) and repeats' log10 spread
    (*spread*); None where no workload prices a group. *op_flop*: the op model's cost per FLOP
    (`local_ops`), where fitted: the group's `roofline` (`_roofline`) is fitted with it.
    *group_of(api, work)*: the time group the predictor gives the call (`work_energy.time_group`)."""
    rows: dict[str, list[tuple[str, float, float, float, float]]] = {}
    layers: dict[str, list[int | None]] = {}
    moved: dict[str, list[float | None]] = {}
    for api, workloads in timed.items():
        for workload, features, seconds in workloads:
            group = group_of(api, features)
            if group is None or one_batch(api, features) is not features or not seconds or seconds <= 0:
                continue  # one batch (an eager call, `*_on_batch`) is not a call of the fitted kind
            n, flops = derive(group, features)
            if n is None or flops is None or not joules.get(workload):
                continue
            rows.setdefault(group, []).append((workload, epochs_of(group, features), n, flops, seconds))
            layers.setdefault(group, []).append(model_layers(features))
            moved.setdefault(group, []).append(traffic(n, one_batch(api, features)))
    if not rows:
        return None
    wall = {w: s for rs in rows.values() for w, *_, s in rs}
    time: dict[str, dict] = {}
    power: dict[str, dict] = {}
    refused: dict[str, str] = {}
    first_j = first_j or {}
    fits: dict[str, tuple[list, list, list[float]]] = {}  # each fitted group's design, elements moved and FLOPs
    for group, rs in sorted(rows.items()):
        watts = sum(joules[w] for w, *_ in rs) / sum(s for *_, s in rs)
        # fitted on the joules at the group's power: wall seconds on a shared machine wait on other
        # processes, the energy measured (CPU time under the estimated source) does not
        epochs = len({e for _, e, *_ in rs}) > 1
        terms = TERMS if epochs else tuple(t for t in TERMS if t != "per_epoch")
        design: list[tuple[str, tuple[float, ...], float]] = [
            (w, (1.0, e, n, f) if epochs else (1.0, n, f), joules[w] / watts) for w, e, n, f, _ in rs]
        fitted = _fit(design, terms)
        if isinstance(fitted, str):
            refused[group] = fitted
            continue
        if any(w in first_j for w, *_ in rs):  # the first call's extra joules, in seconds at the group's power
            traces = [max(first_j[w] - joules[w], 0.0) / watts for w, *_ in rs if w in first_j]
        else:
            traces = [max(first_s[w] - wall[w], 0.0) for w, *_ in rs if w in first_s]
        trace_s = statistics.median(traces) if traces else 0.0
        stated = [n for n in layers[group] if n is not None]
        each = trace_s / statistics.median(stated) if trace_s and len(stated) == len(layers[group]) else 0.0
        traced = {"per_layer_start": each} if each else {}
        time[group] = {
            **fitted, **traced, "t0": fitted["call_s"] + (0.0 if each else trace_s), "trace_s": trace_s,
            "flops_per_step": statistics.median(f / n for _, _, n, f, _ in rs),
            "t_max": max(s for *_, s in design), "n": len(rs), "workloads": [w for w, *_ in rs],
            "epochs": sorted({e for _, e, *_ in rs}),
            "sd": _spread_of(fitted["resid_sd"], [w for w, *_ in rs], spread, noise_sd),
        }
        fits[group] = (design, moved[group], [f for *_, f, _ in rs])
        power[group] = {"steady_w": watts, "n": len(rs)}
    _rooflines(time, power, fits, op_flop)
    return {"time": time, "power": power, "refused": refused}


def _rooflines(time: dict[str, dict], power: dict[str, dict], fits: dict[str, tuple[list, list, list[float]]],
               op_flop: float | None) -> None:
    """Give each fitted group its `roofline` (`_roofline`), the elements its steps move at the cost per element
    the `ELEMENTS_FITTED_BY` group's roofline fitted, in joules (what moving an element costs does not depend on
    the step), a third of it per element of another group's forward pass (`traffic` counts a step's weights and
    layer outputs once; a training step moves them forward and back, its gradients and the optimizer's slots
    too: 3 passes, as it costs 3 forward passes' FLOPs, `TRAINING_FLOPS`); its own fit where that group has none.
    Its `unfused_per_element`: the training one's whole, for a forward pass run op by op (an eager `model(x)`):
    each layer's ops (its matmul or convolution, its bias, its activation) write and read back its outputs one
    after another, where a traced step fuses them, as many passes as a training step's."""
    shared = None
    if ELEMENTS_FITTED_BY in fits:
        design, moved, flops = fits[ELEMENTS_FITTED_BY]
        shared = _roofline(design, moved, flops, op_flop)
    element_j = shared["per_element"] * power[ELEMENTS_FITTED_BY]["steady_w"] / TRAINING_FLOPS if shared else None
    for group, (design, moved, flops) in fits.items():
        if group == ELEMENTS_FITTED_BY:
            roof = shared
        else:
            roof = _roofline(design, moved, flops, op_flop,
                             None if element_j is None else element_j / power[group]["steady_w"])
            if roof is not None and element_j is not None:  # an eager step's unfused ops: a training step's passes
                roof["unfused_per_element"] = element_j * TRAINING_FLOPS / power[group]["steady_w"]
        if roof is not None:
            time[group]["roofline"] = roof


def _roofline(design: list[tuple[str, tuple[float, ...], float]], moved: list[float | None], flops: list[float],
              op_flop: float | None, per_element: float | None = None) -> dict | None:
    """A group's constants with its FLOPs at the op model's cost per FLOP (*op_flop*: large matmuls and
    convolutions, work of high arithmetic intensity) and a cost per element its steps move (`traffic`:
    weights read, layer outputs written and read back) in place of its one fitted cost per FLOP: the
    workloads' Dense layers at batch 32 move an element per few FLOPs, a convolution or a larger batch
    far fewer, so one cost per FLOP fitted on them prices those high. Fitted like the group (`_fit`) on
    the seconds left once the FLOPs are priced, the FLOP column replaced by the elements moved; None
    where the op model was not fitted, a workload does not state its traffic, or its FLOPs alone at that
    cost take all its time. *per_element*: the cost per element given (`_rooflines`), its elements priced
    at it like its FLOPs and the other constants fitted on what is left, not fitted here."""
    known = [m for m in moved if m is not None]
    if not op_flop or len(known) != len(moved):
        return None
    given = per_element or 0.0
    left = [(w, (*x[:-1], m), s - op_flop * f - given * m) for (w, x, s), m, f in zip(design, known, flops)]
    if per_element is not None:
        left = [(w, x[:-1], s) for w, x, s in left]
    if any(s <= 0 for *_, s in left):
        return None
    epochs = len(design[0][1]) == 4  # the group's design has a per-epoch column
    terms = ("call_s", "per_epoch", "per_step") if epochs else ("call_s", "per_step")
    fitted = _fit(left, terms if per_element is not None else (*terms, "per_element"))
    if isinstance(fitted, str):
        return None
    return {"call_s": fitted["call_s"], "per_epoch": fitted["per_epoch"], "per_step": fitted["per_step"],
            "per_element": given if per_element is not None else fitted["per_element"], "per_flop": op_flop}


def describe(local: dict | None) -> list[str]:
    """One line per local model (`greenlint calibrate` and `--status` print them): its constants, the
    workloads they were fitted on and how well they fit them (a poor fit said so), and one per group
    its workloads did not identify (why); none where the calibration fitted none."""
    if not local:
        return []
    lines = []
    for group, m in sorted(local.get("time", {}).items()):
        epoch = f" + {m['per_epoch']:.3g} s per epoch" if "per_epoch" in m.get("terms", ()) else ""
        lines.append(f"{group}: {m['call_s']:.3g} s per call{epoch} + {m['per_step']:.3g} s per step + "
                     f"{m['per_flop']:.3g} s per FLOP, the first call {m['trace_s']:.3g} s more, at "
                     f"{local['power'][group]['steady_w']:.3g} W (fitted on {', '.join(m['workloads'])}; "
                     f"{_fit_quality(m)}; spread {TIMES}{10 ** m['sd']:.3g})")
        roof = m.get("roofline")
        if roof:
            epoch = f" + {roof['per_epoch']:.3g} s per epoch" if "per_epoch" in m.get("terms", ()) else ""
            lines.append(f"{group}, where a call's layers' outputs are known: {roof['call_s']:.3g} s per call{epoch} + "
                         f"{roof['per_step']:.3g} s per step + {roof['per_flop']:.3g} s per FLOP (the op model's) + "
                         f"{roof['per_element']:.3g} s per element moved (weights, layer outputs)")
    ops = local.get("ops")
    if ops:
        lines.append(f"tensor ops: {ops['dispatch_s']:.3g} s dispatch + {ops['per_flop']:.3g} s per FLOP at "
                     f"{ops['steady_w']:.3g} W (fitted on {', '.join(ops['workloads'])}; {_fit_quality(ops)}; "
                     f"spread {TIMES}{10 ** ops['sd']:.3g})")
    for group, why in sorted(local.get("refused", {}).items()):
        lines.append(f"{group}: not fitted: {why}; its calls keep the measured figures and the time ratio")
    return lines


def _fit_quality(m: dict) -> str:
    """The residuals of a local model in words: their rms and the worst workload, and POOR where large."""
    worst = max(m["residuals"], key=lambda w: abs(m["residuals"][w]))
    said = (f"residuals rms {TIMES}{10 ** m['resid_sd']:.3g}, worst {worst} "
            f"{TIMES}{10 ** m['residuals'][worst]:.3g}")
    if m["poor"]:
        said += (f", POOR FIT: above {TIMES}{10 ** POOR_FIT_SD:.3g}, the machine's load or noise rather than its "
                 "constants (recalibrate on a quieter machine; the figures carry this spread)")
    return said
