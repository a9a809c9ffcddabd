"""The offline training-run estimator of del Rey et al. (2024, RQ 3), and the baselines it is judged against.

A three-parameter power law fitted on the 309 GAISSA runs: energy per epoch = exp(b0) x effective
samples x GFLOPs^b1 x (TDP / W)^b2. Only one GPU coefficient is identifiable from two GPUs, so TDP
is the one GPU feature used; batch size never varied in the data (always 32) and is not modelled.
The linter does not use it (it prices a `fit` through the one work model, predictor.py): the
evaluation (training_eval.py) judges both against Green Algorithms and MLCO2.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from greenlint.paths import DATA_DIR
from greenlint.predict.devices import GpuSpec, gpu_spec, known_gpu
from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.predict.training_runs import REFERENCE_HW, arch_spec, positive_literal, shape_hw

#: A validation sample is a forward pass only: about a third of a training step (forward + backward).
VALIDATION_COST = 1.0 / 3.0
MODEL_PATH = DATA_DIR / "training" / "offline_model.json"


# --------------------------------------------------------------------------- offline estimator


@dataclass(frozen=True)
class OfflineModel:
    """log(J per effective sample-epoch) = b0 + b1 log(GFLOPs at the input size) + b2 log(TDP / W)."""

    coef: tuple[float, float, float]
    #: 10th and 90th percentile of log(measured / estimated) under leave-one-architecture-out.
    log_residual_q: tuple[float, float]
    runs: int = 0
    note: str = ""
    #: Measured J per effective sample-epoch by architecture (lower-case, e.g. "mobilenet_v2") and
    #: GPU name: the median of its recorded runs, used before the form for an architecture it holds.
    table: dict = field(default_factory=dict)
    #: 10th and 90th percentile of log(measured / table value) over the recorded runs.
    table_q: tuple[float, float] = (0.0, 0.0)

    def per_sample_epoch_j(self, gflops: float, tdp_w: float) -> float:
        b0, b1, b2 = self.coef
        return math.exp(b0 + b1 * math.log(gflops) + b2 * math.log(tdp_w))


def _design(gflops, tdp_w) -> np.ndarray:
    g, t = np.asarray(gflops, float), np.asarray(tdp_w, float)
    return np.column_stack([np.ones_like(g), np.log(g), np.log(t)])


def effective_samples(train: float, validation: float = 0.0) -> float:
    return train + VALIDATION_COST * validation


def fit_offline(gflops, tdp_w, samples_eff, epoch_energy_j, groups) -> OfflineModel:
    """Least squares in log space; the interval comes from leave-one-group-out residuals."""
    x = _design(gflops, tdp_w)
    y = np.log(np.asarray(epoch_energy_j, float) / np.asarray(samples_eff, float))
    groups = np.asarray(groups)
    coef = np.linalg.lstsq(x, y, rcond=None)[0]
    resid = np.empty_like(y)
    for g in np.unique(groups):
        held = groups == g
        b = np.linalg.lstsq(x[~held], y[~held], rcond=None)[0]
        resid[held] = y[held] - x[held] @ b
    q = np.quantile(resid, [0.1, 0.9])
    return OfflineModel(tuple(map(float, coef)), (float(q[0]), float(q[1])), runs=len(y))


def fit_offline_runs(runs) -> OfflineModel:
    """Fit on recorded runs (`training_data.RunSummary`), grouped by architecture for the interval."""
    runs = list(runs)
    tdp = [known_gpu(r.gpu_name).tdp_w for r in runs]
    gflops = [r.gflops * r.input_h * r.input_w / (REFERENCE_HW[0] * REFERENCE_HW[1]) for r in runs]
    samples = [effective_samples(r.training_size, r.validation_size) for r in runs]
    per_epoch = [r.energy_j / r.trained_epochs for r in runs]
    model = fit_offline(gflops, tdp, samples, per_epoch, [r.architecture for r in runs])
    per: dict[tuple[str, str], list[float]] = {}
    for r, n, e in zip(runs, samples, per_epoch):
        per.setdefault((_arch_key(r.architecture), r.gpu_name), []).append(e / n)
    table = {f"{a}|{g}": float(np.median(v)) for (a, g), v in sorted(per.items())}
    resid = [math.log(e / n / table[f"{_arch_key(r.architecture)}|{r.gpu_name}"])
             for r, n, e in zip(runs, samples, per_epoch)]
    q = np.quantile(resid, [0.1, 0.9]) if resid else (0.0, 0.0)
    return replace(model, table=table, table_q=(float(q[0]), float(q[1])))


def _arch_key(name: str) -> str:
    spec = arch_spec(name)
    return re.sub(r"[^a-z0-9]", "", (spec.name if spec else name).lower())


def save_offline(model: OfflineModel, path: Path, note: str) -> None:
    from greenlint.atomic import atomic_write_text

    doc = {"form": OfflineModel.__doc__, "coef": model.coef, "log_residual_q10_q90": model.log_residual_q,
           "runs": model.runs, "note": note, "table": model.table, "table_q10_q90": model.table_q}
    atomic_write_text(Path(path), json.dumps(doc, indent=2) + "\n")


@lru_cache(maxsize=4)
def load_offline(path: Path = MODEL_PATH) -> OfflineModel:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        coef, q = tuple(doc["coef"]), tuple(doc["log_residual_q10_q90"])
        return OfflineModel(coef, q, doc.get("runs", 0), doc.get("note", ""), dict(doc.get("table", {})),
                            tuple(doc.get("table_q10_q90", (0.0, 0.0))))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: cannot read the offline training-run model ({exc})") from None


@dataclass(frozen=True)
class TrainingEstimate:
    """Energy of one training run (GPU + RAM), or why it could not be estimated."""

    energy_j: float | None
    interval_j: tuple[float, float] | None  # 80%, from leave-one-architecture-out residuals
    per_epoch_j: float | None
    per_sample_epoch_j: float | None
    epochs: float | None
    samples: float | None  # effective samples per epoch (validation weighted by VALIDATION_COST)
    gflops: float | None
    gpu: GpuSpec | None
    notes: tuple[str, ...] = field(default_factory=tuple)
    runs: int = 0  # recorded runs the model was fitted on

    def to_prediction(self) -> Prediction:
        """As a call-site Prediction (GPU + RAM, not split; basis "predicted" by this model)."""
        evidence = Evidence(records=self.runs, api="training-run model", level="training-run",
                            sources=("gaissa-seaa2023",), note="; ".join(self.notes) or None)
        if self.energy_j is None:
            return Prediction(None, None, None, None, None, Basis.UNKNOWN, evidence)
        return Prediction(self.energy_j, self.interval_j, None, None, None, Basis.PREDICTED, evidence)


TRAINING_METHODS = ("fit", "fit_generator")
RECORDED_GPUS = ("NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3070")



def estimate_training_run(
    api: str = "tensorflow.keras.Model.fit",
    features: dict | None = None,
    *,
    gpu: GpuSpec | str = "NVIDIA GeForce RTX 3090",
    model: OfflineModel | None = None,
) -> TrainingEstimate:
    """Offline estimate from what the linter knows at a `fit` call site.

    ``features`` keys (all optional): ``epochs``, ``batch_size``, ``steps_per_epoch``, ``samples``
    (training samples per epoch), ``validation_samples``, ``validation_split``, ``validation_steps``,
    ``architecture`` (keras.applications name), ``gflops`` (forward, at the run's input size; overrides
    the architecture table), ``input_shape`` ((H, W, C) or (H, W); default: the architecture's Keras
    default). Missing pieces give a partial answer:
    no samples -> per-sample-epoch only; no epochs -> per-epoch only; no FLOPs -> nothing.
    """
    f = dict(features or {})
    notes: list[str] = []
    method = api.rsplit(".", 1)[-1]
    if method not in TRAINING_METHODS:
        raise ValueError(f"{api}: not a training method ({', '.join(TRAINING_METHODS)})")
    spec = gpu if isinstance(gpu, GpuSpec) else gpu_spec(gpu)
    if spec is None:
        return TrainingEstimate(None, None, None, None, None, None, None, None, (f"unknown GPU {gpu!r}",))
    model = model or load_offline()

    hw = shape_hw(f["input_shape"]) if f.get("input_shape") is not None else None
    gflops = positive_literal(f.get("gflops"))
    if gflops is None and f.get("architecture"):
        arch = arch_spec(str(f["architecture"]))
        if arch is None:
            notes.append(f"no FLOP count for architecture {f['architecture']!r}")
        else:
            if hw is None:
                hw = arch.default_hw
                notes.append(f"input size not given: {arch.name}'s default {hw[0]}x{hw[1]} assumed")
            gflops = arch.gflops * hw[0] * hw[1] / (REFERENCE_HW[0] * REFERENCE_HW[1])
            if hw != REFERENCE_HW:
                notes.append(f"{arch.name} GFLOPs scaled from 128x128 to {hw[0]}x{hw[1]} by pixel count")
    epochs = positive_literal(f.get("epochs"))
    if gflops is None:
        notes.append("model FLOPs unknown: no estimate")
        return TrainingEstimate(None, None, None, None, epochs, None, None, spec, tuple(notes))

    per_sample = model.per_sample_epoch_j(gflops, spec.tdp_w)
    lo, hi = model.log_residual_q
    measured = _measured(model, f.get("architecture"), spec)
    if measured is not None:
        per_sample, (lo, hi), how = measured
        notes.append(how)
    samples = _samples(f, notes)
    per_epoch = per_sample * samples if samples is not None else None
    energy = per_epoch * epochs if per_epoch is not None and epochs is not None else None
    if epochs is None:
        notes.append("epochs unknown: energy per epoch only")
    if positive_literal(f.get("batch_size")) not in (None, 32):
        notes.append("batch size is not modelled (every recorded run used 32)")
    interval = (energy * math.exp(lo), energy * math.exp(hi)) if energy is not None else None
    if spec.name not in RECORDED_GPUS:
        notes.append(f"{spec.name} is outside the recorded GPUs (RTX 3090, RTX 3070): extrapolated by TDP")
    return TrainingEstimate(energy, interval, per_epoch, per_sample, epochs, samples, gflops, spec, tuple(notes),
                            runs=model.runs)


def _measured(model: OfflineModel, architecture, spec: GpuSpec):
    """(J per sample-epoch, log interval, note) from the recorded runs of this architecture: on this
    GPU, or on the recorded GPUs scaled by TDP with the form's exponent; None when none was recorded."""
    if not architecture or not model.table:
        return None
    key = _arch_key(str(architecture))
    same = model.table.get(f"{key}|{spec.name}")
    if same is not None:
        return same, model.table_q, f"{architecture}: measured J per sample-epoch on this GPU (recorded runs)"
    others = [(v, gpu_spec(k.partition("|")[2])) for k, v in model.table.items() if k.partition("|")[0] == key]
    others = [(v, g) for v, g in others if g is not None]
    if not others:
        return None
    b2 = model.coef[2]
    value = math.exp(statistics.fmean(math.log(v * (spec.tdp_w / g.tdp_w) ** b2) for v, g in others))
    lo, hi = model.table_q
    spread = abs(b2) * 0.5  # the TDP scaling is an extrapolation: widen by half its exponent (log)
    return value, (lo - spread, hi + spread), (f"{architecture}: measured J per sample-epoch on the recorded GPUs, "
                                               f"scaled to {spec.name} by TDP")



def _samples(f: dict, notes: list[str]) -> float | None:
    """Effective samples per epoch from literal sample counts, or steps x batch size."""
    batch = positive_literal(f.get("batch_size"))
    train = positive_literal(f.get("samples"))
    steps = positive_literal(f.get("steps_per_epoch"))
    if train is None and steps is not None and batch is not None:
        train = steps * batch
    if train is None:
        notes.append("number of training samples unknown: energy per sample-epoch only")
        return None
    val = positive_literal(f.get("validation_samples"))
    split = positive_literal(f.get("validation_split"))
    if val is None and split is not None and split < 1:
        train, val = train * (1 - split), train * split
    val_steps = positive_literal(f.get("validation_steps"))
    if val is None and val_steps is not None and batch is not None:
        val = val_steps * batch
    return effective_samples(train, val or 0.0)



# --------------------------------------------------------------------------- baselines


def mlco2_energy_j(tdp_w: float, duration_s: float) -> float:
    """ML CO2 Impact calculator: the GPU draws its TDP for the whole run."""
    return tdp_w * duration_s


def green_algorithms_energy_j(tdp_w: float, duration_s: float, gpu_util: float, ram_gb: float) -> float:
    """Green Algorithms (Lannelongue et al. 2021) with PUE = PSF = 1: t (TDP u + 0.3725 W/GB x M)."""
    return duration_s * (tdp_w * gpu_util + 0.3725 * ram_gb)
