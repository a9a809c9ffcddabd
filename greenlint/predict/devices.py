"""Named devices: the GPUs a user can tell greenlint its code runs on (`--device`, `device = "…"`).

Each row is the public spec sheet's figures: board power (TDP/TGP), peak FP32 throughput (without
tensor cores), from Ampere on the TF32 tensor-core peak that TensorFlow runs float32 matrix products
and convolutions at by default (`GpuSpec.matmul_tflops`), memory bandwidth, and, where the spec page
lists them, the base and boost clocks. A peak is the boost clock's; a long training run holds its
board at its power limit (GAISSA's VGG16 runs drew 335 W of the RTX 3090's 350 and 218 W of the RTX
3070's 220 on average), where the clock falls towards the base clock, the one the board guarantees at
its TDP: the FLOPs are priced at the base clock's share of the peak (`GpuSpec.sustained_tflops`).
Where the spec sheet gives no base clock (NVIDIA's datacenter datasheets give the boost clock alone),
the peak stands. The idle draw is not on a spec sheet: it is taken as IDLE_SHARE
of the TDP, a stated assumption (net joules, the FECoM definition, leave it out; del Rey's gross
ones include it).

Told a device, a call whose work is known (steps and FLOPs: `fit`, `evaluate`, `predict` on a
model of known size) is priced on it (`device_work`) by a roofline of each step, with nothing
fitted on the device:

    host     = t0 + per_step x steps                 (the reference time model's start-up and
                                                      Keras' own host cost of a step: the KB's)
    dispatch = layer_s x layers x steps              (each layer's kernels launched by the host)
    gpu      = (FLOPs + half_flops x layer passes) / sustained      (Hockney: a layer reaches half
                                                      its throughput at half_flops; small ones far below)
             + (memory-bound activation bytes + weight bytes) / memory bandwidth
    time     = host + max(dispatch, gpu)             (kernels run while the host launches the next)
    energy   = (TDP - idle) x gpu + wait_share x TDP x (time - gpu)       (net of the idle draw)

So a big dense convolution runs near the device's sustained throughput (VGG16's layers do 10^10-10^11 FLOPs a
step), while a network of many small or depthwise layers (MobileNetV2, NASNetMobile) waits on
launches, on each layer's fill of the GPU and on the bytes its elementwise and depthwise passes move:
its steps cost far more than its FLOPs say. A layer pass is one of a step's passes over a layer
(forward; and backward in a training step: `training_passes` of them, TRAINING_FLOPS where every
layer trains); only layers that do FLOPs pay
Hockney's fill (`flop_layers`: a named architecture's, else all its layers). The memory-bound bytes
are a named architecture's (training_runs.py, generated from its layers' shapes; weighed like FLOPs:
x `training_passes` in a training pass, x 1 in a validation one); the weights' bytes are read and
written WEIGHT_ACCESSES times a step, a frozen weight (`trainable_params` fewer than `params`)
only read as an inference step reads it. `layers` is the model's (`n_layers`: a Sequential's list or a
functional graph's layer calls, nested models counting their own; a keras.applications architecture's
own count); where unknown, UNKNOWN_LAYERS and the note says so.

Told no device, a named architecture's call (its layers' traffic known: `layers_known`) is priced
the same way on REFERENCE_DEVICE, the KB reference machine's GPU as the work model's own roofline
states it (its ops' peak DENSE_FLOPS_PER_S and bandwidth BANDWIDTH_B_PER_S): its many small or
depthwise layers are what a FLOPs-only time misses. Other calls keep the fitted time model, whose
layers' traffic is unknown.

The constants (`DeviceModel`, `kb_device_model`) are the work model's own: layer_s its eager
DISPATCH_S, half_flops its HALF_PEAK_FLOPS, per_step and t0 its fitted time model, and wait_share
the KB reference board's net draw during its tutorials' overhead-bound training, as a share of that
board's power (its measured idle draw / IDLE_SHARE). GAISSA's recorded runs only check them
(`python -m tools.model.device_eval`, docs/accuracy.md). Where the FLOPs are unknown the device
cannot place the work and the reference figure stands.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

from greenlint.predict.work_energy import (
    BANDWIDTH_B_PER_S,
    DENSE_FLOPS_PER_S,
    DISPATCH_S,
    ELEMENT_BYTES,
    HALF_PEAK_FLOPS,
    derive,
    epochs_ends,
    model_layers,
    power_for,
    start_up,
    trained_params,
    training_passes,
)


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
    tf32_tflops: float | None = None  # peak TF32 on tensor cores, dense (no sparsity): Ampere and later
    base_ghz: float | None = None  # base clock, where the spec page lists it
    boost_ghz: float | None = None  # boost clock, the one its peaks are computed at

    @property
    def matmul_tflops(self) -> float:
        """The peak a float32 matrix product or convolution reaches: TF32 on tensor cores from
        compute capability 8.0 (Ampere), which TensorFlow enables for them by default
        (`tf.config.experimental.enable_tensor_float_32_execution`, on since TF 2.4), else FP32.
        On GeForce Ampere and Ada boards the two peaks are equal; on A100/H100 TF32 is 8x FP32."""
        return self.tf32_tflops if self.tf32_tflops and self.compute_capability >= 8.0 else self.fp32_tflops

    @property
    def sustained_tflops(self) -> float:
        """`matmul_tflops` at the base clock (peak x base / boost): a training run that holds the
        board at its power limit is clocked down towards it. The peak where no base clock is listed."""
        if self.base_ghz and self.boost_ghz:
            return self.matmul_tflops * self.base_ghz / self.boost_ghz
        return self.matmul_tflops

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
#: pages and datasheets (boost clock, non-tensor FP32); base and boost clocks, in GHz, from the
#: GeForce spec pages (the datacenter datasheets list no base clock); compute capabilities from NVIDIA's list of
#: CUDA GPUs (developer.nvidia.com/cuda-gpus); TF32 tensor peaks, dense, from the same datasheets
#: (A100, A10, L4, H100, H200: the figure without sparsity, half the starred one) and NVIDIA's
#: Ampere (GA102) and Ada (AD102) architecture whitepapers for the GeForce boards.
GPU_SPECS: tuple[GpuSpec, ...] = (
    GpuSpec("NVIDIA GeForce RTX 3090", 10496, 24, 350, 35.6, 936, 8.6, "del Rey et al. gpu_specs.py; nvidia.com RTX 3090 specs", tf32_tflops=35.6,
            base_ghz=1.40, boost_ghz=1.70),
    GpuSpec("NVIDIA GeForce RTX 3070", 5888, 8, 220, 20.3, 448, 8.6, "del Rey et al. gpu_specs.py; nvidia.com RTX 3070 specs", tf32_tflops=20.3,
            base_ghz=1.50, boost_ghz=1.73),
    GpuSpec("NVIDIA GeForce GTX 750 Ti", 640, 2, 60, 1.31, 86.4, 5.0, "del Rey et al. gpu_specs.py; nvidia.com GTX 750 Ti specs",
            base_ghz=1.020, boost_ghz=1.085),
    GpuSpec("NVIDIA GeForce RTX 3080", 8704, 10, 320, 29.8, 760, 8.6, f"{_NVIDIA}: nvidia.com RTX 3080 family specs", tf32_tflops=29.8,
            base_ghz=1.44, boost_ghz=1.71),
    GpuSpec("NVIDIA GeForce RTX 4090", 16384, 24, 450, 82.6, 1008, 8.9, f"{_NVIDIA}: nvidia.com RTX 4090 specs", tf32_tflops=82.6,
            base_ghz=2.23, boost_ghz=2.52),
    GpuSpec("NVIDIA GeForce GTX 1080 Ti", 3584, 11, 250, 11.3, 484, 6.1, f"{_NVIDIA}: nvidia.com GTX 1080 Ti specs",
            base_ghz=1.480, boost_ghz=1.582),
    GpuSpec("NVIDIA Tesla T4", 2560, 16, 70, 8.1, 320, 7.5, f"{_NVIDIA}: T4 datasheet"),
    GpuSpec("NVIDIA Tesla V100-SXM2", 5120, 16, 300, 15.7, 900, 7.0, f"{_NVIDIA}: V100 datasheet"),
    GpuSpec("NVIDIA A100-SXM4", 6912, 80, 400, 19.5, 2039, 8.0, f"{_NVIDIA}: A100 datasheet (SXM4 80 GB)", tf32_tflops=156.0),
    GpuSpec("NVIDIA A100-PCIE", 6912, 40, 250, 19.5, 1555, 8.0, f"{_NVIDIA}: A100 datasheet (PCIe 40 GB)", tf32_tflops=156.0),
    GpuSpec("NVIDIA A10", 9216, 24, 150, 31.2, 600, 8.6, f"{_NVIDIA}: A10 datasheet", tf32_tflops=62.5),
    GpuSpec("NVIDIA L4", 7424, 24, 72, 30.3, 300, 8.9, f"{_NVIDIA}: L4 datasheet", tf32_tflops=60.0),
    GpuSpec("NVIDIA H100-SXM5", 16896, 80, 700, 67.0, 3350, 9.0, f"{_NVIDIA}: H100 datasheet (SXM5)", tf32_tflops=494.7),
    GpuSpec("NVIDIA H100-PCIE", 14592, 80, 350, 51.0, 2000, 9.0, f"{_NVIDIA}: H100 datasheet (PCIe)", tf32_tflops=378.0),
    GpuSpec("NVIDIA H200", 16896, 141, 700, 67.0, 4800, 9.0, f"{_NVIDIA}: H200 datasheet (SXM)", tf32_tflops=494.7),
)
#: The idle draw as a share of the TDP: an assumption (spec sheets do not state idle power).
IDLE_SHARE = 0.1


#: The KB reference machine's GPU idle draw, W: the median of its data sets' idle baselines
#: (data/kb/meta.json `idle_baseline_w.gpu`; data/kb/PROVENANCE.md, "Hardware"). Its board power is
#: taken as this / IDLE_SHARE, the same assumption as the table's idle draws.
REFERENCE_GPU_IDLE_W = 19.45
#: The KB reference machine's GPU, which its data sets do not name (data/kb/PROVENANCE.md), as the work
#: model's roofline states it: an op's peak DENSE_FLOPS_PER_S and bandwidth BANDWIDTH_B_PER_S, its
#: board power REFERENCE_GPU_IDLE_W / IDLE_SHARE (the board `kb_device_model`'s wait share is of).
#: What a named architecture's call is priced on where no device is told (`layers_known`).
REFERENCE_DEVICE = GpuSpec("reference machine's GPU", 0, 0, REFERENCE_GPU_IDLE_W / IDLE_SHARE,
                           DENSE_FLOPS_PER_S / 1e12, BANDWIDTH_B_PER_S / 1e9, 0.0,
                           "the work model's roofline constants (greenlint/predict/work_energy.py)")
#: The API whose measured power split sets `wait_share` (`kb_device_model`).
FIT = "tensorflow.keras.Model.fit"
#: Reads and writes of each weight per step: a training step reads it forward and backward and
#: writes its gradient, and the optimizer (Adam) reads the gradient, the weight and two moments and
#: writes the last three (10); an inference step reads it once.
WEIGHT_ACCESSES = {"training": 10, "inference": 1}


@dataclass(frozen=True)
class DeviceModel:
    """The constants of a figure on a told device (module docstring), none fitted on a device."""

    layer_s: float  # host seconds each layer adds to a step (its kernels' dispatch)
    half_flops: float  # FLOPs at which a layer pass reaches half the device's peak (Hockney's n-half)
    wait_share: float  # the board's net draw while a step waits on the host, share of TDP


def kb_device_model(model: dict) -> DeviceModel:
    """The device constants from the work model (`model`: the predictor's JSON): DISPATCH_S,
    HALF_PEAK_FLOPS, and the share of its board's power (REFERENCE_GPU_IDLE_W / IDLE_SHARE) that
    the reference GPU drew net while it trained the KB's tutorials (the training power model's
    `steady_w` x `fit`'s measured GPU share): small models, whose steps wait on the host. No
    wait share (0) where the model has neither."""
    watts = (power_for(model.get("work") or {}, "training") or {}).get("steady_w")
    gpu = (((model.get("apis") or {}).get(FIT) or {}).get("shares") or {}).get("gpu")
    wait = watts * gpu / (REFERENCE_GPU_IDLE_W / IDLE_SHARE) if watts and gpu else 0.0
    return DeviceModel(DISPATCH_S, HALF_PEAK_FLOPS, round(wait, 3))


#: The layers a step is priced with where the model's are unknown: the median of GAISSA's five
#: architectures (19 to 769; training_runs.KERAS_APPLICATIONS), a stated assumption.
UNKNOWN_LAYERS = 154
#: log10 half-width a told device adds to a figure's interval: its constants are a device class's,
#: not this device's measurement (about a factor 2 either way).
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


def layers_known(features: dict) -> bool:
    """Whether the call's model comes with its layers' memory-bound traffic (`memory_bytes_per_sample`:
    a named architecture's layer table, training_runs.py), what REFERENCE_DEVICE needs to price it."""
    moved = features.get("memory_bytes_per_sample")
    return isinstance(moved, (int, float)) and not isinstance(moved, bool) and 0 < moved < math.inf


@dataclass(frozen=True)
class StepWork:
    """A call's work as a told device prices it (`device_units`)."""

    start_s: float  # the reference time model's start-up, `start_up` (0 for a one-batch call of a loop)
    host_s: float  # the reference time model's per-step host cost x steps
    steps: float  # steps (a validation step a third of a training one)
    layers: int | None  # the model's layers (None: unknown, UNKNOWN_LAYERS priced)
    layer_passes: float  # passes over a FLOP-doing layer: steps x flop layers x passes per step
    flops: float
    moved: float  # bytes of memory-bound layers and of the weights


def device_units(work: dict, group: str, features: dict, start: bool = True) -> StepWork | None:
    """The work of a call as `device_seconds` prices it, None where its steps or FLOPs are unknown."""
    ref = (work.get("time") or {}).get(group)
    if ref is None:
        return None
    n, flops = derive(group, features)
    if n is None or not flops:
        return None
    layers = model_layers(features)
    flop_layers = features.get("flop_layers") or layers or UNKNOWN_LAYERS
    passes = training_passes(features) if group == "training" else 1.0
    per_sample = features.get("memory_bytes_per_sample")
    bytes_work = {**features, "flops_per_sample": per_sample, "params": None, "trainable_params": None,
                  "backward_flops_per_sample": (passes - 1) * per_sample if per_sample else None}
    moved = derive(group, bytes_work)[1] if per_sample else 0.0
    params = features.get("params")
    weights = 0.0
    if isinstance(params, (int, float)):
        trained = min(trained_params(features) or 0.0, params) if group == "training" else 0.0
        weights = n * ELEMENT_BYTES * (trained * WEIGHT_ACCESSES.get(group, 1) + (params - trained) * WEIGHT_ACCESSES["inference"])
    return StepWork(start_up(ref, features) if start else 0.0, ref["per_step"] * n, n, layers, n * flop_layers * passes, flops,
                    (moved or 0.0) + max(weights, 0.0))


def device_seconds(work: dict, group: str, features: dict, device: GpuSpec, model: DeviceModel,
                   start: bool = True) -> tuple[float, float, float] | None:
    """(host seconds, dispatch seconds, GPU seconds) of a call's work on *device* (module
    docstring): its time is host + max(dispatch, GPU). None where the steps or FLOPs are unknown."""
    units = device_units(work, group, features, start)
    if units is None:
        return None
    peak = device.sustained_tflops * 1e12
    dispatch = model.layer_s * (units.layers or UNKNOWN_LAYERS) * units.steps
    gpu = (units.flops + model.half_flops * units.layer_passes) / peak + units.moved / (device.bandwidth_gb_s * 1e9)
    return units.start_s + units.host_s, dispatch, gpu


def device_joules(seconds: tuple[float, float, float], device: GpuSpec, model: DeviceModel) -> float:
    """Net joules of (host, dispatch, GPU) *seconds* on *device*: the GPU's seconds at its TDP less its
    idle draw, the rest of the time at `wait_share` of its TDP."""
    host, dispatch, gpu = seconds
    time = host + max(dispatch, gpu)
    return (device.tdp_w - device.idle_w) * gpu + model.wait_share * device.tdp_w * (time - gpu)


def _throughput(device: GpuSpec) -> str:
    """The throughput a note names: the peak, and the base clock's share of it where one is listed."""
    kind = "TF32" if device.matmul_tflops != device.fp32_tflops else "FP32"
    if device.sustained_tflops == device.matmul_tflops:
        return f"{device.matmul_tflops:g} TFLOPS {kind} peak"
    return (f"{device.sustained_tflops:.3g} TFLOPS {kind} (its {device.matmul_tflops:g} TFLOPS peak at the "
            f"{device.boost_ghz:g} GHz boost clock, scaled to its {device.base_ghz:g} GHz base clock)")


def device_work(work: dict, group: str | None, features: dict, device: GpuSpec, model: DeviceModel, half: float,
                start: bool = True) -> tuple[float, float, float, str] | None:
    """(log10 J, of the interval's low and high ends, note) of a call's work on *device*, None where
    its steps or FLOPs are unknown. The ends: the fewest and the most epochs early stopping allows,
    widened by *half* (the work model's) and DEVICE_HALF."""
    if group is None:
        return None
    found = device_seconds(work, group, features, device, model, start)
    if found is None:
        return None
    energy = device_joules(found, device, model)
    if energy <= 0:
        return None
    ends = []
    for f in epochs_ends(features):
        ends.append(math.log10(max(device_joules(device_seconds(work, group, f, device, model, start) or found,
                                                 device, model), energy * 1e-3)))
    spread = math.hypot(half, DEVICE_HALF)
    host, dispatch, gpu = found
    layers = model_layers(features)
    said = f"{layers} layers" if layers else f"its layers unknown: {UNKNOWN_LAYERS} assumed"
    units = device_units(work, group, features, start)
    moved = f" + {units.moved / 1e9:.3g} GB at {device.bandwidth_gb_s:g} GB/s" if units and units.moved else ""
    bound = "waiting on its layers' dispatch" if dispatch > gpu else "the GPU's work"
    told = "" if device is REFERENCE_DEVICE else " (told)"
    note = (f"on the {device.name}{told}: {host:.3g} s host side (start-up and {work['time'][group]['per_step']:.3g} s "
            f"per step) + {max(dispatch, gpu):.3g} s of steps, {bound} (dispatch {model.layer_s:.3g} s per layer, "
            f"{said}: {dispatch:.3g} s; GPU: {units.flops if units else 0:.3g} FLOPs at its {_throughput(device)}, each layer "
            f"pass half of it at {model.half_flops:.3g} FLOPs{moved}: {gpu:.3g} s) → "
            f"{energy:.3g} J net ({device.tdp_w:g} W TDP less {device.idle_w:.3g} W idle assumed while computing, "
            f"{model.wait_share:.0%} of TDP while waiting; nothing fitted on this device)")
    return math.log10(energy), ends[0] - spread, ends[1] + spread, note


def batch_saving(work: dict, group: str, features: dict, batch: int, larger: int, device: GpuSpec,
                 model: DeviceModel) -> tuple[float, float] | None:
    """(least, most) share of the net joules on *device* that the same samples save in steps of
    *larger* instead of *batch* (`device_seconds` of `batch x larger` samples each way, start-up
    left out): the ends over the corners of the constants a told device's figure rests on (each
    layer's dispatch, Hockney's half_flops, the wait share and the host's per-step time), each
    taken 10**DEVICE_HALF times smaller and larger. A model whose layers are unknown is priced
    with one layer: a step's fixed cost grows with its layers, so the saving is then its least.
    None where the step's FLOPs or the reference time model are unknown."""
    ref = (work.get("time") or {}).get(group)
    if ref is None or not isinstance(features.get("flops_per_sample"), (int, float)):
        return None
    layers = model_layers(features) or 1
    step = {k: features.get(k) for k in ("flops_per_sample", "params", "memory_bytes_per_sample",
                                         "backward_flops_per_sample", "trainable_params")}
    step |= {"n_layers": layers, "flop_layers": features.get("flop_layers") or layers, "epochs": 1,
             "samples": batch * larger}
    factor = 10**DEVICE_HALF
    savings = []
    for layer_s, half, wait, host in itertools.product((1 / factor, factor), repeat=4):
        constants = DeviceModel(model.layer_s * layer_s, model.half_flops * half, min(model.wait_share * wait, 1.0))
        timing = {**work, "time": {group: {**ref, "per_step": ref["per_step"] * host}}}
        joules = []
        for size in (batch, larger):
            seconds = device_seconds(timing, group, {**step, "batch_size": size}, device, constants, start=False)
            if seconds is None:
                return None
            joules.append(device_joules(seconds, device, constants))
        if joules[0] <= 0:
            return None
        savings.append(1 - joules[1] / joules[0])
    return min(savings), max(savings)
