"""Accuracy of the training-run estimators on the 309 recorded GAISSA runs (a section of docs/accuracy.md).

``evaluate_training_runs(shared_dir)`` is called by ``python -m tools.model.evaluate``;
``python -m tools.model.training_eval [SHARED_DIR]`` prints the same Markdown.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from greenlint.predict.training_runs import project_run_energy
from tools.model.offline_runs import (
    effective_samples,
    estimate_training_run,
    fit_offline_runs,
    gpu_spec,
    green_algorithms_energy_j,
    mlco2_energy_j,
)
from tools.model.training_data import FROZEN_EPOCHS, EpochSeries, LoadedRun, fit_features, fit_phases, load_runs

#: Goals of issue 4 for training runs.
GOAL_OFFLINE_MDAPE = 0.10
GOAL_ONLINE_MDAPE = 0.02
GOAL_RMSE_FACTOR = 5.0
ONLINE_HORIZON_S = 600.0


@dataclass(frozen=True)
class Scores:
    rmse_kj: float
    mdape: float
    n: int
    coverage: float | None = None  # share of runs inside the 80% interval

    @classmethod
    def of(cls, est, ref, lo=None, hi=None) -> Scores:
        est, ref = np.asarray(est, float), np.asarray(ref, float)
        cov = None if lo is None else float(np.mean((ref >= np.asarray(lo)) & (ref <= np.asarray(hi))))
        rmse_kj = float(np.sqrt(np.mean((est - ref) ** 2)) / 1e3)
        return cls(rmse_kj, float(np.median(np.abs(est - ref) / ref)), len(ref), cov)


FIT = "tensorflow.keras.Model.fit"
#: The hardware the linter assumes where it is not calibrated: the code does not say it, and the
#: offline estimator's default is the recorded RTX 3090.
ASSUMED_GPU = "NVIDIA GeForce RTX 3090"
#: Green Algorithms' usage factor where the utilisation is not known beforehand: its calculator's default.
UNKNOWN_UTILISATION = 1.0


def baselines(runs: list[LoadedRun], gpu: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """MLCO2 and Green Algorithms estimates per run from its measured duration and the allocated RAM:
    with each run's own GPU (spec TDP) and measured utilisation, or, given *gpu*, that GPU's TDP and
    the calculator's default utilisation (the hardware unknown, as the linter knows it)."""
    ml, ga = [], []
    for r in runs:
        s = r.summary
        tdp = gpu_spec(gpu or s.gpu_name).tdp_w
        util = s.mean_util if gpu is None else UNKNOWN_UTILISATION
        ml.append(mlco2_energy_j(tdp, s.duration_s))
        ga.append(green_algorithms_energy_j(tdp, s.duration_s, util, s.ram_gb))
    return np.asarray(ml), np.asarray(ga)


def offline_held_out(runs: list[LoadedRun], group, gpu: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The offline estimator refitted without each group of runs (`group(summary)`) and scored on it
    (epochs known), with each fold's 80% interval; told each run's own GPU, or *gpu* for every run."""
    est, lo, hi = (np.empty(len(runs)) for _ in range(3))
    keys = [group(r.summary) for r in runs]
    for key in sorted(set(keys)):
        model = fit_offline_runs(r.summary for r, k in zip(runs, keys) if k != key)
        for i, r in enumerate(runs):
            if keys[i] == key:
                e = estimate_training_run(FIT, fit_features(r.summary), gpu=gpu or r.summary.gpu_name, model=model)
                est[i], (lo[i], hi[i]) = e.energy_j, e.interval_j
    return est, lo, hi


def offline_loao(runs: list[LoadedRun]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Leave-one-architecture-out estimates (epochs known, each run's own GPU), with 80% intervals."""
    return offline_held_out(runs, lambda s: s.architecture)


def by_configuration(s) -> tuple[str, str]:
    """A configuration: an architecture on a GPU (GAISSA repeats each about 30 times)."""
    return s.architecture, s.gpu_name


def linter_estimates(runs: list[LoadedRun], predictor=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What `greenlint check` says of each run's two `fit` calls (`fit_phases`), summed: the shipped
    predictor (the work model, on the reference machine; nothing in it was fitted on these runs),
    with its 80% interval."""
    if predictor is None:
        from greenlint.predict import load_predictor

        predictor = load_predictor(overlay=False)
    est, lo, hi = (np.full(len(runs), np.nan) for _ in range(3))
    for i, r in enumerate(runs):
        calls = [predictor.predict(FIT, f) for f in fit_phases(r.summary)]
        if all(p.energy_j is not None and p.interval_j is not None for p in calls):
            est[i], lo[i], hi[i] = (sum(x) for x in zip(*((p.energy_j, *p.interval_j) for p in calls)))
    return est, lo, hi


#: del Rey et al.'s protocol: random 70 % / 30 % splits of the runs, repeated with fixed seeds.
SPLITS, TRAIN_SHARE = 20, 0.7
#: Issue 10: the offline estimator's RMSE at least this many times better than each baseline.
GOAL_BASELINE_FACTOR = 1.5


def random_splits(runs: list[LoadedRun], ml: np.ndarray, ga: np.ndarray, ref: np.ndarray) -> dict[str, float]:
    """Mean RMSE (kJ) over SPLITS random 70/30 splits: the shipped form refitted on each 70 %, a
    per-(architecture, GPU) lookup of J per effective sample-epoch, and the baselines, on each 30 %."""
    rng = np.random.default_rng(0)
    keys = [(r.summary.architecture, r.summary.gpu_name) for r in runs]
    per = np.array([r.summary.energy_j / (r.summary.trained_epochs
                    * effective_samples(r.summary.training_size, r.summary.validation_size)) for r in runs])
    work = np.array([r.summary.energy_j for r in runs]) / per
    out: dict[str, list[float]] = {"offline": [], "lookup": [], "mlco2": [], "ga": []}
    for _ in range(SPLITS):
        order = rng.permutation(len(runs))
        train = np.zeros(len(runs), bool)
        train[order[: int(TRAIN_SHARE * len(runs))]] = True
        model = fit_offline_runs(r.summary for r, t in zip(runs, train) if t)
        test = np.flatnonzero(~train)
        est = np.array([_offline_estimate(runs[i], model) for i in test])
        table = {k: float(np.median(per[train & np.array([kk == k for kk in keys])])) for k in set(keys)
                 if any(t and kk == k for t, kk in zip(train, keys))}
        look = np.array([table.get(keys[i], float(np.median(per[train]))) * work[i] for i in test])
        for name, e in (("offline", est), ("lookup", look), ("mlco2", ml[test]), ("ga", ga[test])):
            out[name].append(float(np.sqrt(np.mean((e - ref[test]) ** 2))) / 1e3)
    return {k: float(np.mean(v)) for k, v in out.items()}


def _offline_estimate(run: LoadedRun, model) -> float:
    return estimate_training_run(FIT, fit_features(run.summary), gpu=run.summary.gpu_name, model=model).energy_j


def _paper_features(runs: list[LoadedRun]) -> np.ndarray:
    """del Rey et al.'s offline inputs: GPU cores, GPU memory, TDP, RAM, GFLOPs, samples, batch, input size."""
    rows = []
    for r in runs:
        s, g = r.summary, gpu_spec(r.summary.gpu_name)
        rows.append([g.cuda_cores, g.memory_gb, g.tdp_w, s.ram_gb, s.gflops, s.training_size, s.validation_size,
                     s.batch_size, s.input_h, s.input_w])
    return np.asarray(rows, float)


def _krr_fit_predict(x_tr: np.ndarray, y_tr: np.ndarray, x_te: np.ndarray, alpha: float, gamma: float) -> np.ndarray:
    """RBF Kernel Ridge on inputs standardised on the training rows (closed form; constant columns dropped)."""
    mu, sd = x_tr.mean(axis=0), x_tr.std(axis=0)
    keep = sd > 0
    a, b = (x_tr[:, keep] - mu[keep]) / sd[keep], (x_te[:, keep] - mu[keep]) / sd[keep]

    def kernel(u, v):
        return np.exp(-gamma * ((u[:, None, :] - v[None, :, :]) ** 2).sum(axis=2))

    dual = np.linalg.solve(kernel(a, a) + alpha * np.eye(len(a)), y_tr)
    return kernel(b, a) @ dual


def kernel_ridge_loao(runs: list[LoadedRun]) -> np.ndarray:
    """The paper's offline epoch-energy regressor (RBF Kernel Ridge on standardised inputs) under
    leave-one-architecture-out; alpha and gamma are chosen by an inner leave-one-architecture-out."""
    x = _paper_features(runs)
    y = np.array([r.summary.energy_j / r.summary.trained_epochs for r in runs])
    groups = np.array([r.summary.architecture for r in runs])
    epochs = np.array([r.summary.trained_epochs for r in runs])
    grid = [(alpha, gamma) for alpha in (0.01, 0.1, 1.0, 10.0) for gamma in (0.01, 0.1, 1.0)]
    est = np.empty(len(runs))
    for arch in np.unique(groups):
        held = groups == arch
        xo, yo, go = x[~held], y[~held], groups[~held]

        def inner_mse(params, xo=xo, yo=yo, go=go):
            return sum(float(np.sum((_krr_fit_predict(xo[go != g], yo[go != g], xo[go == g], *params)
                                     - yo[go == g]) ** 2)) for g in np.unique(go))

        best = min(grid, key=inner_mse)
        est[held] = _krr_fit_predict(xo, yo, x[held], *best) * epochs[held]
    return est


def gpu_agnostic_loao(runs: list[LoadedRun]) -> np.ndarray:
    """Ablation: the shipped power law without its TDP term (FLOPs and samples only)."""
    x = np.column_stack([np.ones(len(runs)), np.log([r.summary.gflops for r in runs])])
    n = np.array([effective_samples(r.summary.training_size, r.summary.validation_size) for r in runs])
    epochs = np.array([r.summary.trained_epochs for r in runs])
    y = np.log(np.array([r.summary.energy_j for r in runs]) / epochs / n)
    groups = np.array([r.summary.architecture for r in runs])
    est = np.empty(len(runs))
    for arch in np.unique(groups):
        held = groups == arch
        coef = np.linalg.lstsq(x[~held], y[~held], rcond=None)[0]
        est[held] = np.exp(x[held] @ coef) * n[held] * epochs[held]
    return est


@dataclass(frozen=True)
class OnlineReplay:
    power: np.ndarray
    epoch: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    provisional: np.ndarray
    completed: np.ndarray


def online_replay(series: list[EpochSeries], *, horizon_s: float | None = None, epochs: int | None = None
                  ) -> OnlineReplay:
    """Project every run from its first ``epochs`` stand-in epochs, or from those completed by ``horizon_s``."""
    out = {k: [] for k in ("power", "epoch", "lo", "hi", "provisional", "completed")}
    for r in series:
        t_cum = np.cumsum(r.time_s)
        n = int(np.searchsorted(t_cum, horizon_s, side="right")) if horizon_s is not None else min(epochs, len(t_cum))
        p = project_run_energy(r.energy_j[:n], r.time_s[:n], len(r.time_s))
        if p is None:  # not a single epoch finished: nothing to project from
            vals = (np.nan, np.nan, np.nan, np.nan, True, 0)
        else:
            vals = (p.power_based_j, p.epoch_based_j, *p.interval_j, p.provisional, n)
        for k, v in zip(out, vals):
            out[k].append(v)
    return OnlineReplay(*(np.asarray(v) for v in out.values()))


def _range_of_medians(runs: list[LoadedRun]) -> str:
    by: dict[tuple[str, str], list[float]] = {}
    for r in runs:
        by.setdefault((r.summary.env, r.summary.architecture), []).append(r.summary.unfreeze_s)
    meds = [float(np.median(v)) for v in by.values()]
    return f"{min(meds):.0f}-{max(meds):.0f} s"


def _frozen_ratio(runs: list[LoadedRun]) -> str:
    ratio = [r.summary.unfreeze_s * r.summary.trained_epochs / (10 * r.summary.duration_s) for r in runs]
    lo, hi = np.quantile(ratio, [0.1, 0.9])
    return f"{lo:.2f}-{hi:.2f} (10th-90th percentile)"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _row(name: str, s: Scores) -> str:
    cov = "" if s.coverage is None else _pct(s.coverage)
    return f"| {name} | {s.n} | {s.rmse_kj:.1f} | {_pct(s.mdape)} | {cov} |"


def goal(name: str, measured: str, target: str, met) -> str:
    """A goal row: met, **missed**, or the reason it is not judged."""
    verdict = "met" if met is True else "**missed**" if met is False else met
    return f"| {name} | {measured} | {target} | {verdict} |"


def held_out_section(runs: list[LoadedRun], ref: np.ndarray) -> tuple[list[str], list[str]]:
    """Issue 18's protocols: each estimator held out by configuration and by architecture, told only
    what the linter knows (the GPU unknown: ASSUMED_GPU), against the baselines given the same GPU.
    Returns the section's lines and its goal rows."""
    gpu = ASSUMED_GPU.removeprefix("NVIDIA GeForce ")
    ml, ga = baselines(runs, ASSUMED_GPU)
    s_ml, s_ga = Scores.of(ml, ref), Scores.of(ga, ref)
    best = min(s_ml.rmse_kj, s_ga.rmse_kj)
    best_after = min(Scores.of(b, ref).rmse_kj for b in baselines(runs))
    lint = linter_estimates(runs)
    ok = ~np.isnan(lint[0])
    rows = [("greenlint's figure: its two `fit` calls, the architecture's layers on the reference GPU "
             "(nothing in it fitted on these runs)", "any",
             Scores.of(lint[0][ok], ref[ok], lint[1][ok], lint[2][ok]))]
    for protocol, group in (("leave one configuration out", by_configuration),
                            ("leave one architecture out", lambda s: s.architecture)):
        rows.append((f"offline estimator, {gpu} assumed", protocol,
                     Scores.of(*_reorder(offline_held_out(runs, group, ASSUMED_GPU), ref))))
        rows.append(("for context: offline estimator told each run's GPU", protocol,
                     Scores.of(*_reorder(offline_held_out(runs, group), ref))))
    lines = [
        "",
        "### Held out, with the linter's assumptions (issue 18)",
        "",
        f"Leave one configuration out: each of the {len({by_configuration(r.summary) for r in runs})} "
        "(architecture, GPU) configurations is held out with all its repeats, so no repeat of it is in training. "
        "Leave one architecture out: both GPUs of an architecture held out. The hardware is unknown to the linter "
        f"unless calibrated, so the estimators are told an {gpu} for every run (the RTX 3070 runs included), and "
        f"the baselines get the same GPU's TDP ({gpu_spec(ASSUMED_GPU).tdp_w:.0f} W) with Green Algorithms' default "
        f"usage factor {UNKNOWN_UTILISATION:g}; they still get each run's measured duration, which no estimator "
        f"has before training. greenlint's own figure is the sum of the two `fit` calls del Rey's code makes ({FROZEN_EPOCHS} epochs "
        "with the base frozen, then the rest on the whole network), each priced by the architecture's layers' roofline "
        "on the reference GPU (greenlint/predict/devices.py `REFERENCE_DEVICE`), net CPU + GPU + DRAM joules on the "
        "KB's reference machine "
        "(the FECoM/Greenlight definition); GAISSA records gross GPU + DRAM: the two definitions differ by the idle "
        f"draw and the CPU. {int((~ok).sum())} runs got no figure from greenlint.",
        "",
        "| estimator | protocol | runs | RMSE (kJ) | median abs. error | 80% interval coverage |",
        "|---|---|---:|---:|---:|---:|",
        *(f"| {name} | {protocol} | {sc.n} | {sc.rmse_kj:.1f} | {_pct(sc.mdape)} | "
          f"{'' if sc.coverage is None else _pct(sc.coverage)} |" for name, protocol, sc in rows),
        f"| MLCO2 (TDP x measured t), {gpu} assumed | none fitted | {s_ml.n} | {s_ml.rmse_kj:.1f} | "
        f"{_pct(s_ml.mdape)} | |",
        f"| Green Algorithms (measured t), {gpu} assumed | none fitted | {s_ga.n} | {s_ga.rmse_kj:.1f} | "
        f"{_pct(s_ga.mdape)} | |",
    ]
    goals = []
    for name, protocol, sc in rows:
        if name.startswith("for context"):
            continue
        short = name.partition(":")[0]
        goals += [goal(f"{short}, {protocol}: RMSE vs Green Algorithms and MLCO2, both told an {gpu}",
                       f"{best / sc.rmse_kj:.2f}x better", f">= {GOAL_BASELINE_FACTOR}x",
                       best / sc.rmse_kj >= GOAL_BASELINE_FACTOR),
                  goal(f"{short}, {protocol}: RMSE vs Green Algorithms and MLCO2 told each run's GPU and utilisation",
                       f"{best_after / sc.rmse_kj:.2f}x better", f">= {GOAL_BASELINE_FACTOR}x",
                       best_after / sc.rmse_kj >= GOAL_BASELINE_FACTOR)]
    return lines, goals


def _reorder(held: tuple[np.ndarray, np.ndarray, np.ndarray], ref: np.ndarray):
    """(estimates, reference, low, high) in the argument order of `Scores.of`."""
    est, lo, hi = held
    return est, ref, lo, hi


def evaluate_training_runs(shared_dir: Path) -> str:
    """Markdown section: baselines, offline leave-one-architecture-out, online replay, goals."""
    dataset = Path(shared_dir) / "gaissa-seaa2023"
    if not (dataset / "raw").is_dir():
        return f"## Training runs (`fit` call sites)\n\nNot evaluated: {dataset} was not found.\n"
    errors: list[str] = []
    runs = load_runs(Path(shared_dir), errors=errors)
    ref = np.array([r.summary.energy_j for r in runs])
    env = np.array([r.summary.env for r in runs])
    ml, ga = baselines(runs)
    off, off_lo, off_hi = offline_loao(runs)

    header = "| method | runs | RMSE (kJ) | median abs. error | 80% interval coverage |\n|---|---:|---:|---:|---:|"
    lines = [
        "## Training runs (`fit` call sites)",
        "",
        "Data: the 309 raw runs of GAISSA seaa2023 (del Rey et al.; CC BY 4.0), 150 on an RTX 3090 (`cloud`) and "
        "159 on an RTX 3070 (`local-v2`), five keras.applications architectures fine-tuned on Chesslive "
        "(batch 32, 128x128). Reference energy: GPU (trapezoid of nvidia-smi power after dropping 3 samples at each "
        "end) + RAM (RSS x 3.75e-4 W/MB), as in the journal paper. Baselines use the spec TDP (350 W / 220 W), the "
        "measured duration and mean utilisation of each run, and the allocated RAM (16 / 32 GB): they are given what "
        "is only known after training.",
        *(["", f"{len(errors)} runs could not be read and are left out:", *(f"- {e}" for e in errors)]
          if errors else []),
        "",
        "### Baselines",
        "",
        header,
    ]
    for label, mask in (("cloud (RTX 3090)", env == "cloud"), ("local-v2 (RTX 3070)", env == "local-v2"),
                        ("all", np.ones(len(runs), bool))):
        lines.append(_row(f"MLCO2 (TDP x t), {label}", Scores.of(ml[mask], ref[mask])))
        lines.append(_row(f"Green Algorithms, {label}", Scores.of(ga[mask], ref[mask])))
    s_ml, s_ga = Scores.of(ml, ref), Scores.of(ga, ref)

    s_off = Scores.of(off, ref, off_lo, off_hi)
    lines += [
        "",
        "### Offline estimator, leave-one-architecture-out (epochs known)",
        "",
        "Model: for an architecture the recorded runs hold, their median J per effective sample-epoch on that GPU "
        "(other GPUs: scaled by TDP); otherwise J per effective sample-epoch = exp(b0) x GFLOPs^b1 x TDP^b2 "
        "(validation samples count 1/3); x epochs x samples. Leaving an architecture out leaves only the form: each "
        "fold refits the three coefficients on the other four architectures (both GPUs) and takes its interval from "
        "a leave-one-architecture-out inside those four. Epochs are the processed `trained epochs`.",
        "",
        header,
        _row("offline, all runs", s_off),
    ]
    for arch in sorted({r.summary.architecture for r in runs}):
        m = np.array([r.summary.architecture == arch for r in runs])
        lines.append(_row(f"offline, held-out {arch}", Scores.of(off[m], ref[m], off_lo[m], off_hi[m])))
    lines += [
        _row("for comparison: the paper's Kernel Ridge (epoch energy), same folds",
             Scores.of(kernel_ridge_loao(runs), ref)),
        _row("ablation: shipped form without the TDP term", Scores.of(gpu_agnostic_loao(runs), ref)),
        "",
        "For context, del Rey et al. report offline RMSE 27.76 kJ (power-based) and 50.00 kJ (epoch-energy-based) "
        "on a random 30% hold-out of their 1,225 cleaned runs, where every test architecture was also seen in "
        "training; leaving a whole architecture out is a harder test.",
        "",
        "The shipped form was chosen among a handful tried on these same folds (power laws with and without a GPU "
        "term, roofline-style time x power models, the paper's Kernel Ridge), so its score is optimistic for a sixth "
        "architecture. It keeps the TDP term although dropping it scores better here: without it, a 70 W T4 and a "
        "700 W H100 would be predicted to cost the same.",
    ]

    fair_lines, fair_goals = held_out_section(runs, ref)
    lines += fair_lines

    minutes = f"{ONLINE_HORIZON_S / 60:.0f} min"
    lines += [
        "",
        "### Online projection, replay of recorded runs",
        "",
        "**Approximation, stated plainly:** the data has no per-epoch timestamps (README of the dataset), so "
        "stand-in epochs are cut from each run's power trace, and the replay is only as good as that cut. Two cuts:",
        "",
        "- *two-phase* (headline): the end of the 10 frozen epochs is taken where GPU utilisation shifts level (the "
        "best single mean-shift split of 10-s bins, ignoring the first minute); 10 equal slices before it, the "
        "remaining `trained epochs` equal slices after it. Detected median change "
        f"{np.median([r.summary.unfreeze_s for r in runs]):.0f} s after the start (per-combination medians "
        f"{_range_of_medians(runs)}); frozen epochs then last {_frozen_ratio(runs)} of the mean epoch.",
        "- *equal*: `trained epochs` slices of equal duration (the dataset README's suggestion). The slice at index 10 "
        "then falls well after the real unfreezing.",
        "",
        "Within a phase the slices are equal by construction, so the projection's time extrapolation is exact "
        "there and only power variation is tested. The projection knows the final epoch count (as in the paper, "
        "where s is the actual number of stable epochs); a live run with early stopping only knows an upper bound.",
        "",
        header,
    ]
    headline = None
    for label, pick in (("two-phase", lambda r: r.two_phase), ("equal", lambda r: r.equal)):
        series = [pick(r) for r in runs]
        window = online_replay(series, epochs=15)
        first = online_replay(series, horizon_s=ONLINE_HORIZON_S)
        ok = ~np.isnan(first.epoch)
        full, prov = ok & ~first.provisional, ok & first.provisional
        s_first = Scores.of(first.epoch[ok], ref[ok], first.lo[ok], first.hi[ok])
        headline = headline or (s_first, int(full.sum()), int(prov.sum()), int((~ok).sum()))
        lines += [
            _row(f"{label}: epoch-energy-based, window full (epochs 10-14)",
                 Scores.of(window.epoch, ref, window.lo, window.hi)),
            _row(f"{label}: power-based, window full (epochs 10-14)", Scores.of(window.power, ref)),
            _row(f"{label}: epoch-energy-based, first {minutes}", s_first),
            _row(f"{label}: power-based, first {minutes}", Scores.of(first.power[ok], ref[ok])),
        ]
        for name, m in (("window full by then", full), ("still provisional", prov)):
            if m.any():
                lines.append(_row(f"{label}: epoch-energy-based, first {minutes}, {name}",
                                  Scores.of(first.epoch[m], ref[m], first.lo[m], first.hi[m])))
    s_on, n_full, n_prov, n_none = headline
    lines += [
        "",
        f"Two-phase cut: within the first {minutes}, {n_full} of {len(runs)} runs had completed the 5-epoch window "
        f"after epoch 10; {n_prov} had not (their projection is provisional, from the latest completed epochs); "
        f"{n_none} had no completed epoch. The 80% intervals over-cover here because slices within a phase are "
        "equal by construction; real epochs vary more. For context, del Rey et al. report RMSE 7.34 kJ "
        "(power-based) and 7.88 kJ (epoch-energy-based) for this window on their cleaned runs with real epochs.",
    ]

    split = random_splits(runs, ml, ga, ref)
    lines += [
        "",
        f"### Offline estimator, del Rey's random 70/30 protocol ({SPLITS} seeded splits, mean RMSE)",
        "",
        "The same forms refitted on a random 70 % of the runs and scored on the other 30 %; every test "
        "architecture was also seen in training, so this is a lookup-friendly test. The per-(architecture, GPU) "
        "lookup is the median J per effective sample-epoch of its training runs, times the run's samples and epochs.",
        "",
        "| method | RMSE (kJ) |",
        "|---|---:|",
        f"| offline estimator (shipped: the measured table for a recorded architecture, the form otherwise) | "
        f"{split['offline']:.1f} |",
        f"| per-(architecture, GPU) lookup | {split['lookup']:.1f} |",
        f"| MLCO2 (TDP x t) | {split['mlco2']:.1f} |",
        f"| Green Algorithms | {split['ga']:.1f} |",
    ]
    best_base = min(s_ml.rmse_kj, s_ga.rmse_kj)
    best_split = min(split["mlco2"], split["ga"])
    stand_in = "not judged: stand-in epochs only (no real per-epoch series recorded here)"
    lines += [
        "",
        "### Goals (issues 4 and 10)",
        "",
        "| goal | measured | target | |",
        "|---|---:|---:|---|",
        *fair_goals,
        goal("offline RMSE vs Green Algorithms and MLCO2, leave-one-architecture-out (true GPU given; baselines "
             "given the measured utilisation)", f"{best_base / s_off.rmse_kj:.2f}x better", f">= {GOAL_BASELINE_FACTOR}x",
             best_base / s_off.rmse_kj >= GOAL_BASELINE_FACTOR),
        goal("offline RMSE vs Green Algorithms and MLCO2, random 70/30",
             f"{best_split / split['offline']:.2f}x better", f">= {GOAL_BASELINE_FACTOR}x",
             "not judged: each held-out run's configuration is repeated in training (repeatability, not a "
             "new model or machine)"),
        goal("offline median error, leave-one-architecture-out", _pct(s_off.mdape), "<= 10%",
             s_off.mdape <= GOAL_OFFLINE_MDAPE),
        goal(f"online median error, first {minutes} (two-phase cut)", _pct(s_on.mdape), "<= 2%", stand_in),
        goal("online RMSE vs best baseline (two-phase cut)", f"{best_base / s_on.rmse_kj:.2f}x better", ">= 5x",
             stand_in),
        "",
        f"Baseline RMSE: MLCO2 {s_ml.rmse_kj:.1f} kJ, Green Algorithms {s_ga.rmse_kj:.1f} kJ (median errors "
        f"{_pct(s_ml.mdape)} and {_pct(s_ga.mdape)}). The offline estimator sees only five architectures with one "
        "FLOP count each, so leaving one out tests extrapolation in FLOPs from four points; per-architecture "
        "time per image is not explained by FLOPs here (on the RTX 3090, NASNetMobile takes longer per image "
        "than VGG16 with 1/27 of its FLOPs). The GPU enters only through TDP, since two GPUs identify one GPU "
        "coefficient; estimates for other "
        "GPUs are extrapolations this data cannot check.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from greenlint.paths import shared_dir

    argv = sys.argv[1:] if argv is None else argv
    root = Path(argv[0]) if argv else shared_dir()
    if root is None:
        print("greenlint: no ../shared folder beside the checkout; pass the shared folder", file=sys.stderr)
        return 2
    print(evaluate_training_runs(root))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
