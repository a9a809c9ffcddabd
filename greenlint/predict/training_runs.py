"""Whole training runs (`fit` of a named model): their FLOPs per sample, and the online projection.

* `forward_flops`: the forward FLOPs per sample of a keras.applications architecture GAISSA measured
  (or a stated `gflops`), and its layers' table (`named_work`), which the predictor prices a `fit` of
  a named model by (predictor.py; the layers' roofline: devices.py).
* `project_run_energy`, during training: del Rey et al.'s (2024, RQ 3) power-based (E = P_w x t) and
  epoch-energy-based (E = E_w x s / w + E_u) projections from a window of stable epochs after the
  stabilising epoch. It is a pure function; the meter's Keras callback calls it after every epoch.

How well the projection does on GAISSA's recorded runs is measured by `python -m tools.model.evaluate`
(docs/accuracy.md).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

#: Input size at which the architecture GFLOPs below were measured (the GAISSA set-up).
REFERENCE_HW = (128, 128)


@dataclass(frozen=True)
class ArchSpec:
    name: str  # keras.applications constructor name
    gflops: float  # forward pass, 2 x MACs, without top, at REFERENCE_HW
    params: int
    default_hw: tuple[int, int]  # input size Keras builds when no input_shape is given
    layers: int  # len(model.layers) without top: the layers a training step dispatches one by one
    flop_layers: int  # of which launch a FLOP kernel (dense and depthwise convolutions, matrix products)
    memory_mb: float  # forward MB per sample its memory-bound passes read and write, at REFERENCE_HW
    source: str


_GAISSA = (
    "GFLOPs: processed `GFLOPs` column of GAISSA seaa2023 (TF profiler, 128x128, no top); params: del Rey et al. "
    "Table 2; default input size: the keras.applications API reference; layers: len(model.layers) of the "
    "keras.applications constructor with include_top=False, weights=None (Keras 3.15); FLOP layers and memory MB: "
    "`python -m tools.model.layer_traffic` from the same constructor's layers at 128x128 (TensorFlow 2.21): the "
    "layers that launch a FLOP kernel, and every other kernel's (depthwise steps, normalisation, activations, "
    "additions, pooling) input and output float32 elements x 4 bytes, and each FLOP layer's bias add and activation "
    "(its output read and written once each)"
)
#: Forward GFLOPs of keras.applications models at 128x128 without their top. Only the five measured
#: architectures are listed: other published FLOP counts use other input sizes and conventions.
KERAS_APPLICATIONS: tuple[ArchSpec, ...] = (
    ArchSpec("MobileNetV2", 0.064028, 2_914_369, (224, 224), 154, 52, 47.452032, _GAISSA),
    ArchSpec("NASNetMobile", 0.371647, 4_811_413, (224, 224), 769, 196, 76.229904, _GAISSA),
    ArchSpec("ResNet50", 2.524383, 26_211_201, (224, 224), 175, 53, 104.61637, _GAISSA),
    ArchSpec("VGG16", 10.02877, 14_715_201, (224, 224), 19, 13, 80.77312, _GAISSA),
    ArchSpec("Xception", 2.958404, 22_960_681, (299, 299), 132, 40, 84.71808, _GAISSA),
)


#: A name's letters and digits, lower case, are its key: "VGG16", "vgg_16" and "vgg16" are one.
_NOT_KEY = re.compile(r"[^a-z0-9]")
#: KERAS_APPLICATIONS by key, for the lookup every predicted site makes.
_BY_KEY = {_NOT_KEY.sub("", spec.name.lower()): spec for spec in KERAS_APPLICATIONS}


def arch_spec(name: str) -> ArchSpec | None:
    """By constructor name, canonical API or GAISSA folder name ("tensorflow.keras.applications.VGG16", "vgg16")."""
    return _BY_KEY.get(_NOT_KEY.sub("", name.rsplit(".", 1)[-1].lower())) if name else None


def shape_hw(shape) -> tuple[int, int] | None:
    """(height, width) of an (H, W, C) or (H, W) shape, None where it is not one."""
    try:
        dims = [int(d) for d in shape if d is not None]
    except (TypeError, ValueError):
        return None
    return (dims[0], dims[1]) if len(dims) >= 2 else None


def forward_flops(features: dict) -> tuple[float, str] | None:
    """(forward FLOPs per sample, how) from a stated `gflops` or an `architecture` of KERAS_APPLICATIONS
    scaled by pixel count to its `input_shape` (the architecture's Keras default where none is
    given); None where neither is known. What the call-site predictor prices a named model by."""
    hw = shape_hw(features["input_shape"]) if features.get("input_shape") is not None else None
    gflops = positive_literal(features.get("gflops"))
    if gflops is not None:
        return gflops * 1e9, f"{gflops:g} GFLOPs per sample as stated"
    arch = arch_spec(str(features.get("architecture") or ""))
    if arch is None:
        return None
    hw = hw or arch.default_hw
    flops = arch.gflops * 1e9 * hw[0] * hw[1] / (REFERENCE_HW[0] * REFERENCE_HW[1])
    return flops, f"{arch.name}: {flops:.3g} FLOPs per sample at {hw[0]}x{hw[1]} (GAISSA's count, scaled by pixels)"


def memory_bytes(features: dict) -> float | None:
    """Forward bytes per sample a named architecture's memory-bound layers read and write
    (`ArchSpec.memory_mb`, scaled by pixel count to its input like its FLOPs); None where no
    architecture is named. A told device prices them by its bandwidth (devices.py), not by FLOPs."""
    arch = arch_spec(str(features.get("architecture") or ""))
    if arch is None:
        return None
    hw = (shape_hw(features["input_shape"]) if features.get("input_shape") is not None else None) or arch.default_hw
    return arch.memory_mb * 1e6 * hw[0] * hw[1] / (REFERENCE_HW[0] * REFERENCE_HW[1])


def arch_layers(features: dict) -> tuple[int, int] | None:
    """(layers, FLOP layers) a named architecture's training step dispatches (`ArchSpec.layers`,
    `flop_layers`) plus the `head_layers` a model built around it adds (their FLOP layers not
    counted), or a stated `n_layers` where more; None where no architecture is named."""
    arch = arch_spec(str(features.get("architecture") or ""))
    if arch is None:
        return None
    stated, head = features.get("n_layers"), features.get("head_layers")
    more = stated if isinstance(stated, int) and not isinstance(stated, bool) and stated > 0 else 0
    added = head if isinstance(head, int) and not isinstance(head, bool) and head > 0 else 0
    return max(arch.layers + added, more), arch.flop_layers


#: Features naming a model's size, dropped once turned into its work (`named_work`).
ARCH_FEATURES = ("architecture", "gflops", "model", "base", "head_layers")


def with_architecture(features: dict) -> dict:
    """*features* with the work's named model (a Keras Application, `model`), else the one it is built
    around (`base`, its other layers `head_layers`: the analysis' work), as its `architecture` where
    none is named; and that architecture's layers (`arch_layers`) as its `n_layers` where the analysis
    counted none: what any first call of its model (`predict` too, not only `fit`) traces, layer by layer."""
    for key in ("model", "base"):
        if isinstance(features.get(key), str) and "architecture" not in features:
            features = {**features, "architecture": features[key]}
            break
    layers = arch_layers(features) if "n_layers" not in features else None
    return {**features, "n_layers": layers[0]} if layers is not None else features


def named_work(features: dict) -> tuple[dict, str] | None:
    """The features of a call of a named model (an `architecture` or stated `gflops`) with its work
    instead of its name: its FLOPs per sample (`forward_flops`, unless the resolver found them), and
    for a named architecture its layers and FLOP layers (`arch_layers`: what a told device prices
    each step's dispatch and each layer's fill by) and its memory-bound bytes (`memory_bytes`); with
    how the FLOPs were found. None where its FLOPs are not known."""
    rest = {k: v for k, v in features.items() if k not in ARCH_FEATURES}
    if "flops_per_sample" in rest:
        how = "FLOPs per sample as the resolver found them"
    else:
        found = forward_flops(features)
        if found is None:
            return None
        rest["flops_per_sample"], how = found
    layers = arch_layers(features)
    if layers is not None:
        rest["n_layers"], rest["flop_layers"] = layers
    moved = memory_bytes(features)
    if moved is not None:
        rest["memory_bytes_per_sample"] = moved
    return rest, how


def positive_literal(value) -> float | None:
    """A literal positive finite number, else None (bools, strings and expressions are not counts)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        return None
    return float(value)



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
    import numpy as np  # here: the meter's callback alone projects; the linter prices named models without numpy

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
