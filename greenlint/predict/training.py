"""Energy of whole training runs (`fit` call sites), after del Rey et al. (2024, RQ 3).

Two estimators:

* **offline**, before training (`estimate_training_run`): a three-parameter power law fitted on the
  309 GAISSA runs, energy per epoch = exp(b0) x effective samples x GFLOPs^b1 x (TDP / W)^b2.
  Only one GPU coefficient is identifiable from two GPUs, so TDP is the one GPU feature used;
  batch size never varied in the data (always 32) and is not modelled.
* **online**, during training (`project_run_energy`): the paper's power-based (E = P_w x t) and
  epoch-energy-based (E = E_w x s / w + E_u) projections from a window of stable epochs after the
  stabilising epoch. It is a pure function; the meter's Keras callback calls it after every epoch.

How well either generalises is measured by `greenlint kb evaluate` (docs/accuracy.md).
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
from greenlint.predict.prediction import Basis, Evidence, Prediction

#: Input size at which the architecture GFLOPs below were measured (the GAISSA set-up).
REFERENCE_HW = (128, 128)
#: A validation sample is a forward pass only: about a third of a training step (forward + backward).
VALIDATION_COST = 1.0 / 3.0
MODEL_PATH = DATA_DIR / "training" / "offline_model.json"


@dataclass(frozen=True)
class GpuSpec:
    name: str
    cuda_cores: int
    memory_gb: float
    tdp_w: float
    source: str


_NVIDIA = "NVIDIA product specifications"
#: Board power (TDP/TGP) as NVIDIA publishes it. The first three are the values in del Rey et al.'s
#: `gpu_specs.py` (README of ../shared/gaissa-seaa2023); the others are NVIDIA's spec pages/datasheets.
GPU_SPECS: tuple[GpuSpec, ...] = (
    GpuSpec("NVIDIA GeForce RTX 3090", 10496, 24, 350, "del Rey et al. gpu_specs.py; nvidia.com RTX 3090 specs"),
    GpuSpec("NVIDIA GeForce RTX 3070", 5888, 8, 220, "del Rey et al. gpu_specs.py; nvidia.com RTX 3070 specs"),
    GpuSpec("NVIDIA GeForce GTX 750 Ti", 640, 2, 60, "del Rey et al. gpu_specs.py"),
    GpuSpec("NVIDIA GeForce RTX 3080", 8704, 10, 320, f"{_NVIDIA}: nvidia.com RTX 3080 family specs"),
    GpuSpec("NVIDIA GeForce RTX 4090", 16384, 24, 450, f"{_NVIDIA}: nvidia.com RTX 4090 specs"),
    GpuSpec("NVIDIA GeForce GTX 1080 Ti", 3584, 11, 250, f"{_NVIDIA}: nvidia.com GTX 1080 Ti specs"),
    GpuSpec("NVIDIA Tesla T4", 2560, 16, 70, f"{_NVIDIA}: T4 datasheet"),
    GpuSpec("NVIDIA Tesla V100-SXM2", 5120, 16, 300, f"{_NVIDIA}: V100 datasheet"),
    GpuSpec("NVIDIA A100-SXM4", 6912, 80, 400, f"{_NVIDIA}: A100 datasheet (SXM4 80 GB)"),
    GpuSpec("NVIDIA A100-PCIE", 6912, 40, 250, f"{_NVIDIA}: A100 datasheet (PCIe 40 GB)"),
    GpuSpec("NVIDIA A10", 9216, 24, 150, f"{_NVIDIA}: A10 datasheet"),
    GpuSpec("NVIDIA L4", 7424, 24, 72, f"{_NVIDIA}: L4 datasheet"),
    GpuSpec("NVIDIA H100-SXM5", 16896, 80, 700, f"{_NVIDIA}: H100 datasheet (SXM5)"),
    GpuSpec("NVIDIA H100-PCIE", 14592, 80, 350, f"{_NVIDIA}: H100 datasheet (PCIe)"),
)


def _gpu_key(name: str) -> str:
    key = re.sub(r"[^a-z0-9]+\d+\s*gb$", "", name.strip().lower())  # "A100-SXM4-80GB" -> "a100-sxm4"
    key = re.sub(r"[^a-z0-9]", "", key)
    for prefix in ("nvidia", "geforce", "tesla"):
        key = key.replace(prefix, "")
    return key


def gpu_spec(name: str) -> GpuSpec | None:
    """Look a GPU up by the spellings nvidia-smi or a user would use ("RTX 3090", "Tesla T4", "A100-SXM4-80GB")."""
    key = _gpu_key(name)
    return next((s for s in GPU_SPECS if _gpu_key(s.name) == key), None) if key else None


@dataclass(frozen=True)
class ArchSpec:
    name: str  # keras.applications constructor name
    gflops: float  # forward pass, 2 x MACs, without top, at REFERENCE_HW
    params: int
    default_hw: tuple[int, int]  # input size Keras builds when no input_shape is given
    source: str


_GAISSA = (
    "GFLOPs: processed `GFLOPs` column of GAISSA seaa2023 (TF profiler, 128x128, no top); params: del Rey et al. "
    "Table 2; default input size: the keras.applications API reference"
)
#: Forward GFLOPs of keras.applications models at 128x128 without their top. Only the five measured
#: architectures are listed: other published FLOP counts use other input sizes and conventions.
KERAS_APPLICATIONS: tuple[ArchSpec, ...] = (
    ArchSpec("MobileNetV2", 0.064028, 2_914_369, (224, 224), _GAISSA),
    ArchSpec("NASNetMobile", 0.371647, 4_811_413, (224, 224), _GAISSA),
    ArchSpec("ResNet50", 2.524383, 26_211_201, (224, 224), _GAISSA),
    ArchSpec("VGG16", 10.02877, 14_715_201, (224, 224), _GAISSA),
    ArchSpec("Xception", 2.958404, 22_960_681, (299, 299), _GAISSA),
)


def arch_spec(name: str) -> ArchSpec | None:
    """By constructor name, canonical API or GAISSA folder name ("tensorflow.keras.applications.VGG16", "vgg16")."""
    key = re.sub(r"[^a-z0-9]", "", name.rsplit(".", 1)[-1].lower())
    for spec in KERAS_APPLICATIONS:
        if re.sub(r"[^a-z0-9]", "", spec.name.lower()) == key:
            return spec
    return None


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
    tdp = [_known_gpu(r.gpu_name).tdp_w for r in runs]
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


def _known_gpu(name: str) -> GpuSpec:
    spec = gpu_spec(name)
    if spec is None:
        raise ValueError(f"no spec for GPU {name!r}; add it to GPU_SPECS with a source")
    return spec


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


def _shape_hw(shape) -> tuple[int, int] | None:
    try:
        dims = [int(d) for d in shape if d is not None]
    except (TypeError, ValueError):
        return None
    return (dims[0], dims[1]) if len(dims) >= 2 else None


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

    hw = _shape_hw(f["input_shape"]) if f.get("input_shape") is not None else None
    gflops = _positive(f.get("gflops"))
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
    epochs = _positive(f.get("epochs"))
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
    if _positive(f.get("batch_size")) not in (None, 32):
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


def forward_flops(features: dict) -> tuple[float, str] | None:
    """(forward FLOPs per sample, how) from a stated `gflops` or an `architecture` of KERAS_APPLICATIONS
    scaled by pixel count to its `input_shape` (the architecture's Keras default where none is
    given); None where neither is known. What the call-site predictor prices a named model by."""
    hw = _shape_hw(features["input_shape"]) if features.get("input_shape") is not None else None
    gflops = _positive(features.get("gflops"))
    if gflops is not None:
        return gflops * 1e9, f"{gflops:g} GFLOPs per sample as stated"
    arch = arch_spec(str(features.get("architecture") or ""))
    if arch is None:
        return None
    hw = hw or arch.default_hw
    flops = arch.gflops * 1e9 * hw[0] * hw[1] / (REFERENCE_HW[0] * REFERENCE_HW[1])
    return flops, f"{arch.name}: {flops:.3g} FLOPs per sample at {hw[0]}x{hw[1]} (GAISSA's count, scaled by pixels)"


def _positive(value) -> float | None:
    """A literal positive finite number, else None (bools, strings and expressions are not counts)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        return None
    return float(value)


def _samples(f: dict, notes: list[str]) -> float | None:
    """Effective samples per epoch from literal sample counts, or steps x batch size."""
    batch = _positive(f.get("batch_size"))
    train = _positive(f.get("samples"))
    steps = _positive(f.get("steps_per_epoch"))
    if train is None and steps is not None and batch is not None:
        train = steps * batch
    if train is None:
        notes.append("number of training samples unknown: energy per sample-epoch only")
        return None
    val = _positive(f.get("validation_samples"))
    split = _positive(f.get("validation_split"))
    if val is None and split is not None and split < 1:
        train, val = train * (1 - split), train * split
    val_steps = _positive(f.get("validation_steps"))
    if val is None and val_steps is not None and batch is not None:
        val = val_steps * batch
    return effective_samples(train, val or 0.0)


# --------------------------------------------------------------------------- online projection

#: Relative half-width floors of the projection interval (coverage is measured in docs/accuracy.md).
STABLE_FLOOR = 0.03
PROVISIONAL_FLOOR = 0.15
_Z80 = 1.2816  # two-sided 80% normal quantile


@dataclass(frozen=True)
class RunProjection:
    """Projected total energy (J) of a training run from its first epochs."""

    energy_j: float  # the epoch-energy-based projection (the paper's better online method)
    interval_j: tuple[float, float]
    power_based_j: float
    epoch_based_j: float
    expected_time_s: float
    provisional: bool  # True until `window` stable epochs (after the stabilising epoch) are in
    window_epochs: tuple[int, int]  # 0-based [first, last] epoch of the window used
    completed_epochs: int
    total_epochs: int


def project_run_energy(
    epoch_energies,
    epoch_times,
    total_epochs: int,
    *,
    stabilising_epoch: int = 10,
    window: int = 5,
) -> RunProjection | None:
    """Project a run's total energy from the energies (J) and durations (s) of its completed epochs.

    ``total_epochs`` is the number of epochs the run will train (fit's ``epochs``; with early stopping
    that makes the projection an upper bound).

    Window: the latest ``window`` completed epochs at or after ``stabilising_epoch`` (0-based; epochs
    before it are the unstable ones). When the window first fills this is exactly del Rey et al.'s
    setting (epochs 10-14): power-based E = P_w x t with P_w = E_w / t_w and t = elapsed + mean window
    epoch time x remaining epochs; epoch-energy-based E = E_w x s / w + E_u. Later, measured epochs
    replace their projections (E = measured + E_w / w x remaining). Before the window is full the most
    recent epochs stand in and the result is ``provisional``. No completed epoch -> None.
    """
    e = np.asarray(epoch_energies, float)
    t = np.asarray(epoch_times, float)
    if e.shape != t.shape or e.ndim != 1:
        raise ValueError(f"epoch energies and times differ in shape: {e.shape} vs {t.shape}")
    n = len(e)
    if n == 0:
        return None
    if window < 1 or stabilising_epoch < 0:
        raise ValueError("window must be >= 1 and stabilising_epoch >= 0")
    total = max(int(total_epochs), n)
    stable_done = n - stabilising_epoch
    provisional = stable_done < window and n < total
    first = max(n - window, min(stabilising_epoch, n - 1)) if stable_done > 0 else max(0, n - window)
    w_e, w_t = e[first:], t[first:]
    w = len(w_e)
    remaining = total - n
    mean_e, mean_t = float(w_e.mean()), float(w_t.mean())
    elapsed = float(t.sum())
    expected_time = elapsed + mean_t * remaining
    power_based = float(w_e.sum() / w_t.sum()) * expected_time if w_t.sum() > 0 else float(e.sum())
    epoch_based = float(e.sum()) + mean_e * remaining
    sd = float(w_e.std(ddof=1)) if w > 1 else 0.0
    half = _Z80 * math.sqrt(remaining * sd**2 + (remaining * sd) ** 2 / w)
    half = max(half, (PROVISIONAL_FLOOR if provisional else STABLE_FLOOR) * epoch_based * remaining / total)
    return RunProjection(
        energy_j=epoch_based, interval_j=(max(epoch_based - half, float(e.sum())), epoch_based + half),
        power_based_j=power_based, epoch_based_j=epoch_based, expected_time_s=expected_time,
        provisional=provisional, window_epochs=(first, n - 1), completed_epochs=n, total_epochs=total,
    )


# --------------------------------------------------------------------------- baselines


def mlco2_energy_j(tdp_w: float, duration_s: float) -> float:
    """ML CO2 Impact calculator: the GPU draws its TDP for the whole run."""
    return tdp_w * duration_s


def green_algorithms_energy_j(tdp_w: float, duration_s: float, gpu_util: float, ram_gb: float) -> float:
    """Green Algorithms (Lannelongue et al. 2021) with PUE = PSF = 1: t (TDP u + 0.3725 W/GB x M)."""
    return duration_s * (tdp_w * gpu_util + 0.3725 * ram_gb)
