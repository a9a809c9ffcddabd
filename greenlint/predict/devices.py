"""Named devices: the GPUs a user can tell greenlint its code runs on (`--device`, `device = "…"`).

Each row is the public spec sheet's figures: board power (TDP/TGP), peak FP32 throughput (without
tensor cores) and memory bandwidth. The idle draw is not on a spec sheet: it is taken as IDLE_SHARE
of the TDP, a stated assumption (net joules, the FECoM definition, leave it out; del Rey's gross
ones include it).

Told a device, a call whose work is known (steps and FLOPs: `fit`, `evaluate`, `predict` on a
model of known size) is priced on it (`device_work`), by four constants (`DeviceModel`):

    time   = t0 + (step_s + layer_s x layers) x steps + FLOPs / (efficiency x FP32 peak)
             + depthwise bytes / memory bandwidth
    gross  = busy_share x TDP x time + (1 - busy_share) x TDP x compute time
    energy = gross - idle x time                 (net of the idle draw, FECoM's definition)

t0 is the reference time model's start-up; step_s the host side of a step (input pipeline, the
step's own dispatch); layer_s what each layer adds to a step (its kernels launched one by one,
forward and backward, whatever their size: a small model on a big GPU waits on these, not on
its FLOPs: MobileNetV2's 0.06 GFLOPs over 154 layers run as long per step as ResNet50's 2.5
GFLOPs over 175, NASNetMobile's 769 layers longer than VGG16's 19); efficiency the share of the
FP32 peak the FLOPs reach (above 1 where tensor cores or a frozen base do better than the nominal
3 x forward FLOPs); busy_share the board power while the step waits on the host, as a share of
TDP. Depthwise convolutions do a few FLOPs per byte (a k x k filter per channel, against a dense
convolution's k x k x channels): their time follows the bytes they read and write, not their FLOPs
(`depthwise_bytes_per_sample`: a named architecture's, training_runs.py; x 3 in a training pass,
like FLOPs), at the spec sheet's memory bandwidth (a ceiling, so no more time than they take), and
Xception's 2.96 GFLOPs take longer per step than ResNet50's 2.52. `layers` is the model's (`n_layers`: a Sequential's list, a keras.applications architecture's
own count); where unknown, UNKNOWN_LAYERS and the note says so. The constants are fitted on
GAISSA's recorded runs (del Rey's setting: keras.applications fine-tuned from an image folder,
batch 32) by `python -m tools.model.device_eval`, which refits them without the held-out
architecture to judge them (docs/accuracy.md): step_s is that pipeline's, so code feeding
in-memory arrays gets a high figure. Where the FLOPs are unknown the device cannot place the work
and the reference figure stands.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from greenlint.predict.work_energy import derive, epochs_ends


@dataclass(frozen=True)
class GpuSpec:
    name: str
    cuda_cores: int
    memory_gb: float
    tdp_w: float
    fp32_tflops: float  # peak FP32, without tensor cores
    bandwidth_gb_s: float
    compute_capability: float  # CUDA compute capability (NVIDIA's CUDA GPUs list)
    source: str

    @property
    def tensor_cores(self) -> bool:
        """Whether it has tensor cores (Volta and later: compute capability 7.0 and up), which
        run float16/bfloat16 matrix products and convolutions several times faster than FP32:
        TensorFlow's mixed-precision guide names compute capability 7.0 as the threshold."""
        return self.compute_capability >= 7.0

    @property
    def idle_w(self) -> float:
        """The idle draw assumed: IDLE_SHARE of the TDP (not a spec-sheet figure)."""
        return IDLE_SHARE * self.tdp_w


_NVIDIA = "NVIDIA product specifications"
#: Spec-sheet figures. TDP of the first three as del Rey et al.'s `gpu_specs.py` has them (GAISSA
#: seaa2023's README); FP32 peak and bandwidth, and every figure of the others, from NVIDIA's spec
#: pages and datasheets (boost clock, non-tensor FP32); compute capabilities from NVIDIA's list of
#: CUDA GPUs (developer.nvidia.com/cuda-gpus).
GPU_SPECS: tuple[GpuSpec, ...] = (
    GpuSpec("NVIDIA GeForce RTX 3090", 10496, 24, 350, 35.6, 936, 8.6, "del Rey et al. gpu_specs.py; nvidia.com RTX 3090 specs"),
    GpuSpec("NVIDIA GeForce RTX 3070", 5888, 8, 220, 20.3, 448, 8.6, "del Rey et al. gpu_specs.py; nvidia.com RTX 3070 specs"),
    GpuSpec("NVIDIA GeForce GTX 750 Ti", 640, 2, 60, 1.31, 86.4, 5.0, "del Rey et al. gpu_specs.py; nvidia.com GTX 750 Ti specs"),
    GpuSpec("NVIDIA GeForce RTX 3080", 8704, 10, 320, 29.8, 760, 8.6, f"{_NVIDIA}: nvidia.com RTX 3080 family specs"),
    GpuSpec("NVIDIA GeForce RTX 4090", 16384, 24, 450, 82.6, 1008, 8.9, f"{_NVIDIA}: nvidia.com RTX 4090 specs"),
    GpuSpec("NVIDIA GeForce GTX 1080 Ti", 3584, 11, 250, 11.3, 484, 6.1, f"{_NVIDIA}: nvidia.com GTX 1080 Ti specs"),
    GpuSpec("NVIDIA Tesla T4", 2560, 16, 70, 8.1, 320, 7.5, f"{_NVIDIA}: T4 datasheet"),
    GpuSpec("NVIDIA Tesla V100-SXM2", 5120, 16, 300, 15.7, 900, 7.0, f"{_NVIDIA}: V100 datasheet"),
    GpuSpec("NVIDIA A100-SXM4", 6912, 80, 400, 19.5, 2039, 8.0, f"{_NVIDIA}: A100 datasheet (SXM4 80 GB)"),
    GpuSpec("NVIDIA A100-PCIE", 6912, 40, 250, 19.5, 1555, 8.0, f"{_NVIDIA}: A100 datasheet (PCIe 40 GB)"),
    GpuSpec("NVIDIA A10", 9216, 24, 150, 31.2, 600, 8.6, f"{_NVIDIA}: A10 datasheet"),
    GpuSpec("NVIDIA L4", 7424, 24, 72, 30.3, 300, 8.9, f"{_NVIDIA}: L4 datasheet"),
    GpuSpec("NVIDIA H100-SXM5", 16896, 80, 700, 67.0, 3350, 9.0, f"{_NVIDIA}: H100 datasheet (SXM5)"),
    GpuSpec("NVIDIA H100-PCIE", 14592, 80, 350, 51.0, 2000, 9.0, f"{_NVIDIA}: H100 datasheet (PCIe)"),
    GpuSpec("NVIDIA H200", 16896, 141, 700, 67.0, 4800, 9.0, f"{_NVIDIA}: H200 datasheet (SXM)"),
)
#: The idle draw as a share of the TDP: an assumption (spec sheets do not state idle power).
IDLE_SHARE = 0.1


@dataclass(frozen=True)
class DeviceModel:
    """The four constants of a figure on a told device (module docstring)."""

    step_s: float  # host seconds per step
    layer_s: float  # seconds each of the model's layers adds to a step (its kernels' dispatch)
    efficiency: float  # share of the FP32 peak the FLOPs reach
    busy_share: float  # board power while waiting on the host, share of TDP


#: Fitted on GAISSA's 309 recorded runs (`python -m tools.model.device_eval`; tests/predict checks
#: these are its fit): step_s, layer_s and efficiency on the runs' durations, busy_share on their energy.
SHIPPED = DeviceModel(step_s=0.0206, layer_s=3.55e-05, efficiency=1.07, busy_share=0.62)
#: The layers a step is priced with where the model's are unknown: the median of GAISSA's five
#: architectures (19 to 769; training_runs.KERAS_APPLICATIONS), a stated assumption.
UNKNOWN_LAYERS = 154
#: log10 half-width a told device adds to a figure's interval: the spread of the per-configuration
#: errors of the fit (about a factor 2 either way).
DEVICE_HALF = 0.3


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


def known_gpu(name: str) -> GpuSpec:
    """`gpu_spec`, or a ValueError naming *name* where the table does not hold it."""
    spec = gpu_spec(name)
    if spec is None:
        raise ValueError(f"no spec for GPU {name!r}; add it to GPU_SPECS with a source")
    return spec


def device_names() -> str:
    """The names `--device` takes, for an error message or the help."""
    return ", ".join(s.name.removeprefix("NVIDIA ").removeprefix("GeForce ").removeprefix("Tesla ") for s in GPU_SPECS)


def model_layers(features: dict) -> int | None:
    """The layers the call's model dispatches per step (`n_layers`), None where not known."""
    n = features.get("n_layers")
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def device_units(work: dict, group: str, features: dict, start: bool = True) -> tuple[float, ...] | None:
    """(start-up s, steps, layer-steps, FLOPs, depthwise bytes) of a call's work: what `device_seconds`
    prices with a device's and a model's constants (linear in each); None where its steps or FLOPs
    are unknown. The start-up is the reference time model's (*start*); layer-steps the steps x its
    model's layers (UNKNOWN_LAYERS where not known); depthwise bytes per sample (a named
    architecture's) weigh like FLOPs per sample: x 3 in a training pass, x 1 in a validation one."""
    ref = (work.get("time") or {}).get(group)
    if ref is None:
        return None
    n, flops = derive(group, features)
    if n is None or not flops:
        return None
    per_sample = features.get("depthwise_bytes_per_sample")
    moved = derive(group, {**features, "flops_per_sample": per_sample, "params": None})[1] if per_sample else None
    return (ref["t0"] if start else 0.0), n, n * (model_layers(features) or UNKNOWN_LAYERS), flops, moved or 0.0


def device_seconds(work: dict, group: str, features: dict, device: GpuSpec, start: bool = True,
                   model: DeviceModel = SHIPPED) -> tuple[float, float] | None:
    """(host seconds, compute seconds) of a call's work on *device* (`device_units` priced): the
    start-up and `step_s` + `layer_s` x its model's layers per step; the FLOPs at `efficiency` x the
    device's FP32 peak and the depthwise bytes at its memory bandwidth. None where the steps or the
    FLOPs are unknown."""
    units = device_units(work, group, features, start)
    if units is None:
        return None
    t0, steps, layer_steps, flops, moved = units
    compute = flops / (model.efficiency * device.fp32_tflops * 1e12)
    memory = moved / (device.bandwidth_gb_s * 1e9)
    return t0 + model.step_s * steps + model.layer_s * layer_steps, compute + memory


def device_joules(host_s: float, compute_s: float, device: GpuSpec, model: DeviceModel = SHIPPED) -> float:
    """Net joules of *host_s* + *compute_s* seconds on *device* (module docstring)."""
    time = host_s + compute_s
    gross = model.busy_share * device.tdp_w * time + (1 - model.busy_share) * device.tdp_w * compute_s
    return gross - device.idle_w * time


def device_work(work: dict, group: str | None, features: dict, device: GpuSpec, half: float, start: bool = True,
                model: DeviceModel = SHIPPED) -> tuple[float, float, float, str] | None:
    """(log10 J, of the interval's low and high ends, note) of a call's work on *device*, None where
    its steps or FLOPs are unknown. The ends: the fewest and the most epochs early stopping allows,
    widened by *half* (the work model's) and DEVICE_HALF."""
    if group is None:
        return None
    found = device_seconds(work, group, features, device, start, model)
    if found is None:
        return None
    host_s, compute_s = found
    energy = device_joules(host_s, compute_s, device, model)
    if energy <= 0:
        return None
    ends = []
    for f in epochs_ends(features):
        h, c = device_seconds(work, group, f, device, start, model) or found
        ends.append(math.log10(max(device_joules(h, c, device, model), energy * 1e-3)))
    spread = math.hypot(half, DEVICE_HALF)
    layers = model_layers(features)
    said = f"{layers} layers" if layers else f"its layers unknown: {UNKNOWN_LAYERS} assumed"
    moved = (device_units(work, group, features, start) or (0.0,) * 5)[4]
    memory = f", and {moved / 1e9:.3g} GB its depthwise convolutions move at {device.bandwidth_gb_s:g} GB/s" if moved else ""
    note = (f"on the {device.name} (told): {host_s:.3g} s host side ({model.step_s:.3g} s per step + "
            f"{model.layer_s:.3g} s per layer, {said}) + "
            f"{compute_s:.3g} s of compute (its {device.fp32_tflops:g} TFLOPS FP32 peak x {model.efficiency:.3g}{memory}) → "
            f"{energy:.3g} J net ({device.tdp_w:g} W TDP computing, {model.busy_share:.0%} of it waiting, less "
            f"{device.idle_w:.3g} W idle assumed; constants fitted on GAISSA's recorded runs)")
    return math.log10(energy), ends[0] - spread, ends[1] + spread, note
