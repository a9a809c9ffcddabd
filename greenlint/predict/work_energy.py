"""Energy from work: one physical model, energy = power x time(work), for every call kind.

A call's time is set by the work it is given (docs/calls-json.md `work`): for `fit`, steps
(epochs x batches, a validation batch at a third of a training one; an Estimator's `train(steps=N)`:
N, `total_steps`) and FLOPs (3 x forward FLOPs per trained sample, or the forward FLOPs and the
backward ones of the layers the model's last `compile` (or a custom step's tape) trains where the
analysis found some frozen (`training_passes`, the one conversion: the rules read it too), plus the optimizer's update of the weights it trains each step); for `evaluate`/`predict`/
`adapt`, batches and forward FLOPs; a call that runs one batch (`model(x)`, `*_on_batch`, a custom
training step) is one step on its batch. Per kind,

    time   = t0 + l x layers + e x epochs + (a + c x layers) x steps + b x FLOPs
                                            (t0: the call's start-up, the one fixed term; l: what
                                             tracing its step costs per layer of its model, measured
                                             (`start_up`); e: each epoch's set-up, where a calibration
                                             fitted it (local_work.py); a: per-step overhead; c: its
                                             share per layer, the layer's kernels launched each step
                                             (`step_s`); b: 1 / throughput)
    energy = P x time

P is the steady net power of that kind of work on the reference machine: no ramp-up per call, so
past the start-up t0 energy is linear in work (x10 the steps, x10 the joules). Energy is net of the
idle baseline, CPU + GPU + DRAM: FECoM/Greenlight's definition. The time models are fitted on the
KB's call sites, whose execution time is measured even when their energy was below the resolution,
by robust least squares on log time with positive coefficients; P on the measurable calls
(tools/model/work_fit.py).

A tensor op's or an eager layer call's time is a roofline (`roofline`): a dispatch overhead, its
FLOPs at an effective throughput that saturates with size (Hockney's n-half: small tensors run far
below peak) and the bytes it moves at the memory bandwidth. Prediction is arithmetic on the JSON
numbers.

Whole training runs of a named architecture (GAISSA's keras.applications) enter through their FLOPs
per sample and their layers' traffic (predictor.py), priced by the same roofline per layer on the
reference GPU (devices.py `REFERENCE_DEVICE`): net joules, no second energy definition for call sites.
"""

from __future__ import annotations

import math

#: Work quantities a call site may carry (docs/calls-json.md `work`), flattened into its features.
WORK_KEYS = ("epochs", "steps_per_epoch", "batch_size", "samples", "validation_samples", "input_shape", "model",
             "params", "flops_per_sample", "flops", "elements", "steps", "backward_flops_per_sample", "trainable_params",
             "activations_per_sample", "map_per_sample", "map_per_step", "decoded_pixels_per_sample")
#: Kinds with a time model, and the groups they are fitted in. Layer calls and ops are not fitted:
#: the KB measured them only on toy tensors, whose time is all overhead; their FLOPs are costed at
#: `roofline` from their own work instead.
TIME_GROUPS = {
    "model-training": "training",
    "model-evaluation": "inference",
    "model-inference": "inference",
}
#: Methods costed as a pass over their data in batches (no model FLOPs), like an inference pass.
DATA_PASS_METHODS = frozenset({"adapt"})


def time_group(kind: str | None, api: str, features: dict | None = None) -> str | None:
    """The time model a call uses: `training` for a call marked `step: training` (one training step
    of a custom loop), else by its kind, or `inference` for a pass over data (`adapt`) and for a call
    of no such kind marked `step: inference` (a `tf.function` whose body runs a model forward; a
    TF1 graph run, `Tensor.eval` too, whose kind is its tensor's op but which runs the graph)."""
    step = (features or {}).get("step")
    if step == "training":
        return "training"
    if api.rpartition(".")[2] in DATA_PASS_METHODS:
        return "inference"
    from greenlint.catalog.kinds import GRAPH_RUNS  # here: the catalog package is heavy for the rules' constants

    group = TIME_GROUPS.get(str(kind))
    if group is None and step == "inference" and (kind not in FLOP_KINDS or api in GRAPH_RUNS):
        return "inference"
    return group


#: Kinds priced by their own work (`work.flops`, `work.elements`) through `roofline`.
FLOP_KINDS = frozenset({"layer-call", "tensor-op"})
#: Peak throughput of one large dense op (a matmul, a convolution over a big tensor): about half the
#: fp32 peak of the GPUs in the measured data (RTX 3070: 20 TFLOPS, RTX 3090: 36 TFLOPS, NVIDIA's
#: specifications), what cuBLAS/cuDNN typically reach. Model calls are not costed by it: their
#: throughput is fitted (small batches run far below peak).
DENSE_FLOPS_PER_S = 1.0e13
#: Hockney's n-half: the FLOPs at which one op reaches half of DENSE_FLOPS_PER_S (a GPU kernel needs
#: about 10^9 FLOPs, a 1k x 1k matmul, to fill its cores); time = (FLOPs + n-half) / peak.
HALF_PEAK_FLOPS = 1.0e9
#: Seconds TensorFlow spends dispatching one eager op or layer call (Python, the op's kernel
#: selection and launch: tens of microseconds).
DISPATCH_S = 5.0e-5
#: Memory bandwidth an elementwise op reaches: about 90 % of an RTX 3070's 448 GB/s.
BANDWIDTH_B_PER_S = 4.0e11
#: Seconds one call of a `Dataset.map` function costs tf.data beyond its ops' own work: the traced function's
#: graph run once per element (once per batch for a map after `batch`), on the host, on any device. Measured
#: (`python -m bench.timed.map_call`: CPU time of a pass over 20,000 elements of 16 floats, 2-core Xeon VM
#: at load ~11, TF 2.21): 23-26 us per element for functions of 1, 2, 9 or 17 elementwise ops (the op count
#: barely moves it), 1 us for an identity function (no op, not counted: analysis/mapped.py), 1.7 us per
#: element for one op mapped after batch(64).
MAP_CALL_S = 2.4e-5
#: Host seconds a pixel of an image costs to decode from its file and resize: a PNG's, measured with
#: TensorFlow 2.21 on a shared two-core machine (analysis/hostwork.py `ENCODES`). A pipeline reading
#: image files (`decoded_pixels_per_sample`) pays it for every sample of every pass.
DECODE_PIXEL_S = 1.5e-7
#: Bytes per second a model's weights are written to or read from a file (`weights_io`): a disk's
#: sequential bandwidth, between a SATA SSD's 0.5 GB/s and an NVMe drive's 3 GB/s (writes land in the
#: page cache first, faster still); its interval spans a factor 10**ROOFLINE_HALF either way.
DISK_B_PER_S = 1.0e9
#: Bytes per element (float32) and tensors an op touches per output element (two read, one written).
ELEMENT_BYTES = 4
TENSORS_TOUCHED = 3
#: log10 half-width of a roofline figure's interval: the constants are a device's, not this call's
#: measurement (a factor 5 either way).
ROOFLINE_HALF = 0.7
#: FLOPs the optimizer spends per weight per step (Adam: moments, bias correction, update: about 10).
UPDATE_FLOPS_PER_PARAM = 10.0
#: Methods that run one batch: `model(x)` and the `*_on_batch` calls (docs/calls-json.md `step`).
ONE_BATCH_METHODS = frozenset({"__call__", "train_on_batch", "test_on_batch", "predict_on_batch"})
#: The `step` marks of a call that runs one step of a model (docs/calls-json.md `step`).
STEP_KINDS = frozenset({"training", "inference"})
#: Extra log10 half-width per decade of time beyond the longest call a time model was fitted on.
EXTRAPOLATION_SPREAD = 0.25
#: A validation pass is a forward pass: about a third of a training step's FLOPs.
VALIDATION_WEIGHT = 1 / 3
#: Backward + update: a trained sample costs about 3 forward passes (Kaplan et al. 2020).
TRAINING_FLOPS = 3.0
#: Fewest call sites with known work and time that fit a group's time model.
MIN_FIT_SITES = 4
#: Work quantities whose `<key>_unknown` flag (predict.site_predictions.work_values) marks a pass over
#: data of a size the code does not state.
UNSIZED_KEYS = ("samples", "epochs")
#: The high end assumed where the data's size is unknown: a large real training set per epoch
#: (ImageNet-1k's is 1.28 M images), stated in the note; the low end is one batch.
HIGH_SAMPLES = 1_000_000
#: The high end assumed where `fit`'s epochs are not a literal; the low end is one epoch.
HIGH_EPOCHS = 1_000
#: The high end assumed where a model's FLOPs per sample are unknown: a large public CNN's forward pass,
#: EfficientNet-B7 at 600x600 (37 G multiply-adds, Tan & Le 2019, "EfficientNet", Table 2: 7.4e10 FLOPs),
#: rounded up; stated in the note. The low end is no model FLOPs (a training step still updates its known weights).
HIGH_FLOPS_PER_SAMPLE = 1.0e11
#: The model HIGH_FLOPS_PER_SAMPLE stands for, as the note states it.
HIGH_FLOPS_MODEL = "EfficientNet-B7's forward pass at 600x600, 7.4e10"


def _num(x) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x <= 0:
        return None
    return float(x)


def model_flops(api: str) -> bool:
    """A call whose work includes a model's FLOPs: not a pass over data (`DATA_PASS_METHODS`)."""
    return api.rpartition(".")[2] not in DATA_PASS_METHODS


def training_passes(f: dict) -> float:
    """Forward passes' worth of FLOPs a trained sample costs: 1 + the backward FLOPs of the layers
    that train over the forward FLOPs where the analysis found them (`backward_flops_per_sample`: some
    layers frozen, analysis/trainable.py), else TRAINING_FLOPS (every layer trains)."""
    fps, back = _num(f.get("flops_per_sample")), f.get("backward_flops_per_sample")
    if fps is None or isinstance(back, bool) or not isinstance(back, (int, float)) or not 0 <= back < math.inf:
        return TRAINING_FLOPS
    return min(1.0 + back / fps, TRAINING_FLOPS)


def trained_params(f: dict) -> float | None:
    """The weights a training step updates: `trainable_params` where the analysis found some frozen
    (0 where none trains), else `params`."""
    found = f.get("trainable_params")
    if not isinstance(found, bool) and isinstance(found, (int, float)) and 0 <= found < math.inf:
        return float(found)
    return _num(f.get("params"))


def flops_unknown(api: str, f: dict) -> bool:
    """A model call (`model_flops`) whose FLOPs per sample the analysis could not find."""
    return model_flops(api) and _num(f.get("flops_per_sample")) is None


def one_batch(api: str, f: dict) -> dict:
    """The features of a call that runs one batch (`ONE_BATCH_METHODS`, or a forward call marked
    `step: training`/`inference`): one step on its batch of `samples` (else `batch_size`, else
    Keras' 32 unless the analysis found the batch unknown, `samples_unknown`, and counted no steps), so `derive` prices
    one step, not `samples / 32` batches; *f* itself otherwise. A
    call marked with a step and `steps` (a tf.function whose body loops over its batches) runs
    that many such steps."""
    step = f.get("step")
    if api.rpartition(".")[2] not in ONE_BATCH_METHODS and step not in STEP_KINDS:
        return f
    batch = _num(f.get("samples")) or _num(f.get("batch_size"))
    if batch is None and (step is None or f.get("samples_unknown") is True and _num(f.get("steps")) is None):
        return f  # a batch of unknown size (the analysis looked for it, no steps counted): no size is assumed
    batch = batch or 32.0  # a training step of a custom loop on a batch the code does not size: Keras' default
    steps = (_num(f.get("steps")) or 1.0) if step is not None else 1.0
    out = {k: v for k, v in f.items() if k not in ("validation_samples", "validation_split", "steps_per_epoch",
                                                      "epochs_bound", "initial_epoch")}
    out.update(samples=batch * steps, batch_size=batch, steps=steps, epochs=1, steps_per_epoch=steps, one_batch=True)
    return out


def derive(group: str, f: dict, least: bool = False) -> tuple[float | None, float | None]:
    """(steps, FLOPs) of a `fit` or `evaluate`/`predict` call from its features, None where the
    work does not say. Steps are batches (Keras' default batch size 32 where none is given);
    a validation step counts a third of a training step, like its FLOPs; a trained sample costs
    `training_passes` forward passes, and a training step adds the optimizer's update of the
    weights it trains (`trained_params`). *least*: FLOPs per sample unknown count as none (the
    optimizer's update of known weights remains), the least the code allows, not None."""
    fps = _num(f.get("flops_per_sample"))
    batch = _num(f.get("batch_size")) or 32.0
    samples = _num(f.get("samples"))
    if steps_only(f):  # steps of a generator whose batch the code does not show: samples unknown
        fps = None if not least else fps
    if group == "training":
        total = total_steps(f)
        epochs, steps = (1.0, total) if total is not None else (effective_epochs(f), _num(f.get("steps_per_epoch")))
        split = _num(f.get("validation_split")) or 0.0
        train = samples * (1 - split) if samples is not None else None
        if steps is None and train is None or epochs is None:
            return None, None
        if steps is None:
            steps = math.ceil(train / batch)
        else:  # Keras draws steps_per_epoch batches per epoch, whatever the data's size
            train = steps * batch
        val = _num(f.get("validation_samples")) or (samples * split if samples else 0.0)
        passes = epochs * (steps + VALIDATION_WEIGHT * math.ceil(val / batch))
        flops = epochs * fps * (training_passes(f) * train + val) if fps else (0.0 if least else None)
        params = trained_params(f)
        if flops is not None and params:
            flops += epochs * steps * UPDATE_FLOPS_PER_PARAM * params
        return passes, flops
    steps = _num(f.get("steps"))
    literal = f.get("data", f.get("x"))
    if samples is None and steps is None and isinstance(literal, (list, tuple)) and literal:
        samples = float(len(literal))  # a literal list passed as the data: one sample per element
    if steps is None and samples is not None:
        steps = math.ceil(samples / batch)
    n = samples if samples is not None else (steps * batch if steps is not None else None)
    if n and fps:
        return steps, n * fps
    return steps, (0.0 if least and n else None)


def total_steps(f: dict) -> float | None:
    """The steps of a training call that states its total steps, not epochs (an Estimator's
    `train(steps=N)`: N training steps in one pass over its input), None otherwise. A Keras `fit`'s
    `steps` (epochs x steps_per_epoch, analysis/work.py) comes with its epochs: never this."""
    if any(_num(f.get(k)) is not None for k in ("epochs", "steps_per_epoch", "samples")):
        return None
    return _num(f.get("steps"))


def most_steps(f: dict) -> float | None:
    """The most steps an Estimator's `train(max_steps=N)` runs: up to global step N, N from a fresh
    model_dir, fewer (none) where it resumes from a checkpoint; None where the call states its steps or
    epochs, or no max_steps. A most, never the figure: the least is one step (`unknown_size_span`)."""
    if total_steps(f) is not None or any(_num(f.get(k)) is not None for k in ("epochs", "steps_per_epoch", "samples")):
        return None
    return _num(f.get("max_steps"))


def least_epochs(f: dict) -> float:
    """The fewest epochs early stopping lets a call run: `epochs_least` (its patience + 1,
    analysis/work.py), else 1; never more than it has left (`epochs` less `initial_epoch`)."""
    left = (_num(f.get("epochs")) or 1.0) - (_num(f.get("initial_epoch")) or 0.0)
    return max(min(_num(f.get("epochs_least")) or 1.0, left), 0.0)


def fewest_epochs(f: dict) -> dict:
    """The features of a call stopped as early as `least_epochs` allows: its `epochs` (Keras' last
    epoch, counted from 0, not from `initial_epoch`) that many past `initial_epoch`, with no bound."""
    start = _num(f.get("initial_epoch")) or 0.0
    return {**{k: v for k, v in f.items() if k != "epochs_bound"}, "epochs": start + least_epochs(f)}


def effective_epochs(f: dict) -> float | None:
    """Epochs run: the literal count less `initial_epoch` (Keras starts counting there), or under early
    stopping (`epochs` an upper bound) the geometric middle of the least (`least_epochs`) and the bound
    (`epochs_ends` for the interval)."""
    epochs = _num(f.get("epochs"))
    if epochs is None:
        return None
    start = _num(f.get("initial_epoch"))
    if start is not None:
        epochs = max(epochs - start, 0.0)
        if epochs == 0:
            return None
    return math.sqrt(epochs * min(least_epochs(f), epochs)) if f.get("epochs_bound") == "upper" else epochs


def epochs_ends(f: dict) -> tuple[dict, dict]:
    """The features of the fewest and of the most epochs a call may run: under early stopping
    `least_epochs` and the written bound, else the call itself twice."""
    if f.get("epochs_bound") != "upper" or _num(f.get("epochs")) is None:
        return f, f
    return fewest_epochs(f), {k: v for k, v in f.items() if k != "epochs_bound"}


def roofline(f: dict) -> tuple[float, str] | None:
    """(seconds, how) of a tensor op or eager layer call from its own work on the reference device:
    DISPATCH_S, its FLOPs at a throughput that saturates with size ((FLOPs + HALF_PEAK_FLOPS) /
    DENSE_FLOPS_PER_S: Hockney's model) and the bytes it moves at BANDWIDTH_B_PER_S (from
    `tensor_bytes`, else TENSORS_TOUCHED float32 tensors of `elements`). None without FLOPs or elements."""
    flops, elements, size = _num(f.get("flops")), _num(f.get("elements")), _num(f.get("tensor_bytes"))
    if flops is None and elements is None:
        return None
    moved = size or (TENSORS_TOUCHED * ELEMENT_BYTES * elements if elements else 0.0)
    compute = (flops + HALF_PEAK_FLOPS) / DENSE_FLOPS_PER_S if flops else 0.0
    seconds = DISPATCH_S + compute + moved / BANDWIDTH_B_PER_S
    parts = [f"dispatch {DISPATCH_S:.2g} s"]
    if flops:
        parts.append(f"{flops:.3g} FLOPs at {flops / (flops + HALF_PEAK_FLOPS) * DENSE_FLOPS_PER_S:.3g} FLOP/s "
                     f"(peak {DENSE_FLOPS_PER_S:.3g}, half of it at {HALF_PEAK_FLOPS:.2g} FLOPs)")
    if moved:
        parts.append(f"{moved:.3g} bytes at {BANDWIDTH_B_PER_S:.3g} B/s")
    return seconds, " + ".join(parts)


def power_for(work: dict, group: str | None) -> dict | None:
    """The power model of a kind group (`steady_w`), or the pooled one (`all`)."""
    power = work.get("power") or {}
    return power.get(group or "all") or power.get("all")


def energy_at(power: dict, seconds: float) -> float:
    """Joules of a call lasting *seconds*: steady net power x time, linear in time (no ramp-up per call)."""
    return power["steady_w"] * seconds


def timed_figure(work: dict, entry: dict) -> tuple[float, str] | None:
    """(log10 J, note) of a call whose measured calls were all below the resolution (an API's, or the
    calls that do no tensor work), from what they took: their median time (*entry*'s `time_s`) at the
    steady net power of a call (`energy_at`). The point of its bound where that is under the bound (a
    call's energy is its power times its time; a bound is the resolution of its run, not of the call);
    None where no time was kept."""
    power = power_for(work, None)
    seconds = entry.get("time_s")
    if not power or not seconds or seconds <= 0:
        return None
    joules = energy_at(power, seconds)
    return math.log10(joules), (f"its measured calls took {seconds:.3g} s (median): about {joules:.3g} J at "
                                f"{power['steady_w']:.3g} W steady, under the bounds' estimate: the figure")


def epochs_of(group: str | None, f: dict) -> float:
    """The passes over its data a call makes, each paying a time model's `per_epoch`: a `fit`'s epochs
    run (`effective_epochs`; one where they are not known), one for any other call."""
    return (effective_epochs(f) or 1.0) if group == "training" else 1.0


def model_layers(features: dict) -> int | None:
    """The layers the call's model dispatches per step (`n_layers`), None where not known."""
    n = features.get("n_layers")
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def traced_layers(features: dict) -> float:
    """The layers a call traces into a graph, per run: its model's (`model_layers`, one where they are
    not known, the least a model has) where it is its model's first call of its kind
    (`traces_step`, analysis/step_traces.py), shared by its runs (`runs_count`, else its loops'), or
    where each run builds the model anew (`traces_each_run`) by the runs of each build
    (`traces_shared_by`, one where absent); none where an earlier call traced it or that is not known."""
    if features.get("traces_step") is not True:
        return 0.0
    layers = float(model_layers(features) or 1)
    key = "traces_shared_by" if features.get("traces_each_run") else "runs_count"
    runs = features.get(key) or (None if features.get("traces_each_run") else features.get("loop_multiplier"))
    if not isinstance(runs, int) or isinstance(runs, bool) or runs <= 1:
        return layers
    return layers / runs


def start_up(model: dict, features: dict) -> float:
    """Seconds of a call's start-up: the group's fitted t0, plus `per_layer_start` (measured:
    tools/model/first_call.py, what a Keras model's first call costs per layer to trace its step into a
    graph) x its `traced_layers` (none where it traces nothing)."""
    return model["t0"] + model.get("per_layer_start", 0.0) * traced_layers(features)


def traffic(n: float, features: dict | None) -> float | None:
    """Elements *n* steps of a call move: each step reads its model's weights (`params`) and writes and
    reads back its batch's layer outputs (`batch_size`, else Keras' 32, x `activations_per_sample`);
    None where the call does not state both exactly."""
    f = features or {}
    params, acts = _num(f.get("params")), _num(f.get("activations_per_sample"))
    if params is None or acts is None or f.get("params_bound") or f.get("activations_per_sample_bound"):
        return None
    return n * (params + (_num(f.get("batch_size")) or 32.0) * acts)


def time_of(model: dict, n: float, flops: float | None, start: bool = True, epochs: float = 1.0,
            features: dict | None = None) -> float:
    """Seconds for a call of the group `model` with `n` steps, `flops` FLOPs and `epochs` passes over
    its data (`epochs_of`: each costs the model's `per_epoch`, where it has one); *start*: with the
    start-up (`start_up` of the call's *features*) and the epochs' set-up (a one-batch call,
    `one_batch`, runs as a step of a loop: its start-up is paid once, by the first call, not by each).
    A model with a `roofline` (this machine's, local_work.py) prices a call whose `traffic` is known by
    it: its FLOPs at the op model's cost and each element its steps move at `per_element`."""
    if flops is None:
        flops = n * model["flops_per_step"]
    roof = model.get("roofline")
    if roof and traffic(n, features) is not None:
        model = {**model, **roof, "t0": model["t0"] - model["call_s"] + roof["call_s"]}
    setup = start_up(model, features or {}) + model.get("per_epoch", 0.0) * epochs if start else 0.0
    return setup + step_s(model, features) * n + compute_s(model, n, flops, features) + pipeline_s(features, epochs)


def step_s(model: dict, features: dict | None) -> float:
    """Seconds of one step's fixed cost: `per_step`, plus `per_layer_step` for each layer of its model
    (`model_layers`; where not known, the fitted calls' median `layers_per_step`, as `flops_per_step` stands
    in for unknown FLOPs): each layer launches its kernels every step (forward; for training backward and the
    update too) and leaves the device partly idle, whatever its size."""
    layers = model_layers(features or {}) or model.get("layers_per_step", 1.0)
    return model["per_step"] + model.get("per_layer_step", 0.0) * layers


def pipeline_s(features: dict | None, epochs: float) -> float:
    """Host seconds a call's input pipeline spends beyond its steps over *epochs* passes: its `Dataset.map`
    calls (`map_calls`) and its image files' decode (`decoded_pixels`)."""
    return MAP_CALL_S * map_calls(features, epochs) + DECODE_PIXEL_S * decoded_pixels(features, epochs)


def decoded_pixels(features: dict | None, epochs: float) -> float:
    """Pixels a call's pipeline decodes from image files (`decoded_pixels_per_sample` per sample) over its
    *epochs* passes; 0 where none or its data's size is unknown."""
    f = features or {}
    per_sample, samples = _num(f.get("decoded_pixels_per_sample")), _num(f.get("samples"))
    return epochs * per_sample * samples if per_sample and samples else 0.0


def map_calls(features: dict | None, epochs: float) -> float:
    """Calls of the `Dataset.map` functions a call's pipeline runs (analysis/mapped.py: `map_per_sample` per
    element, `map_per_step` per batch) over its *epochs* passes; 0 where none or its data's size is unknown."""
    f = features or {}
    per_sample, per_step, samples = _num(f.get("map_per_sample")), _num(f.get("map_per_step")), _num(f.get("samples"))
    if samples is None or not (per_sample or per_step):
        return 0.0
    steps = _num(f.get("steps_per_epoch")) or math.ceil(samples / (_num(f.get("batch_size")) or 32.0))
    return epochs * ((per_sample or 0.0) * samples + (per_step or 0.0) * steps)


def compute_s(model: dict, n: float, flops: float, features: dict | None) -> float:
    """Seconds *n* steps of *flops* FLOPs take past their per-step cost: the FLOPs at the model's cost
    per FLOP, or, by its `roofline` where the call's `traffic` is known, at the op model's cost and each
    element moved at `per_element`."""
    roof = model.get("roofline") or model
    moved = traffic(n, features) if "per_element" in roof else None
    if moved is None:
        return flop_s(model, features) * flops
    return flop_s(roof, features) * flops + roof["per_element"] * moved


def flop_s(model: dict, features: dict | None) -> float:
    """Seconds one FLOP of a call costs: the model's `per_flop`, or where the call's FLOPs per sample are a
    lower bound (`flops_per_sample_bound`: a floor, its ops or layers of known work alone) the least a FLOP
    takes, at DENSE_FLOPS_PER_S, one large op's throughput, where that is less. The fitted cost is whole runs'
    average, small kernels leaving the device idle: a model of large convolutions beats it, so it bounds
    nothing; the steady power it is paid at is those runs' average too, under what a busy device draws."""
    if (features or {}).get("flops_per_sample_bound") == "lower":
        return min(model["per_flop"], 1 / DENSE_FLOPS_PER_S)
    return model["per_flop"]


def call_time(model: dict, group: str | None, f: dict, n: float, flops: float | None, start: bool = True) -> float:
    """`time_of` a call's work (`derive`'s *n* steps and *flops* for its `epochs_of`); a `fit` whose wall
    time a callback caps (`wall_s`: TimeStopping stops at the end of the first epoch past it) lasts at
    most that and one epoch."""
    epochs = epochs_of(group, f)
    t = time_of(model, n, flops, start, epochs, f)
    cap = _num(f.get("wall_s"))
    if group != "training" or cap is None or epochs <= 1:
        return t
    one = time_of(model, n / epochs, flops / epochs if flops is not None else None, start, 1.0, f)
    return min(t, cap + one)


def extrapolation_spread(model: dict, seconds: float) -> float:
    """Extra log10 half-width for a call longer than the longest the time model was fitted on:
    EXTRAPOLATION_SPREAD per decade beyond it (the fitted linearity is evidence only in range)."""
    longest = model.get("t_max")
    return EXTRAPOLATION_SPREAD * math.log10(seconds / longest) if longest and seconds > longest else 0.0


def work_log_energy(work: dict, group: str | None, features: dict, least: bool = False) -> float | None:
    """log10 J of a call from its work (`energy_at` its `time_of`), or None where the work or the model
    is missing; *least*: unknown FLOPs per sample count as none (`derive`)."""
    model = work.get("time", {}).get(group or "")
    power = power_for(work, group)
    if not model or not power:
        return None
    n, flops = derive(group, features, least)
    if n is None:
        return None
    t = call_time(model, group, features, n, flops, not features.get("one_batch"))
    return math.log10(energy_at(power, t)) if t > 0 else None


def unknown_size(features: dict) -> bool:
    """The resolver looked for the call's data size (or epochs) and could not know it statically."""
    return any(features.get(f"{key}_unknown") is True for key in UNSIZED_KEYS) or steps_only(features)


def steps_only(f: dict) -> bool:
    """Steps given (`steps_per_epoch=`, `steps=`) over batches of a size the resolver looked for and
    could not know (a Python generator's): how many samples they hold is unknown, not 32 per step."""
    return (f.get("batch_size_unknown") is True and _num(f.get("batch_size")) is None and _num(f.get("samples")) is None
            and (_num(f.get("steps_per_epoch")) or _num(f.get("steps"))) is not None)


def stated_most(training: bool, f: dict, model_call: bool = True) -> str:
    """What the high end of a floor (data size, epochs or a model call's FLOPs unknown) assumes, from the
    call's features (its work merged in): `1,000,000 samples per epoch and 1,000 epochs`; "" where nothing
    is unknown. *model_call*: its work includes a model's FLOPs (`model_flops`)."""
    most = []
    if f.get("one_step") and _num(f.get("samples")) is None:
        most.append(f"{HIGH_SAMPLES:,} samples in its one batch")
    elif steps_only(f):
        most.append(f"{HIGH_SAMPLES:,} samples in its steps" + (" per epoch" if training else ""))
    elif training and most_steps(f) is not None:
        most.append(f"{most_steps(f):,.0f} steps (max_steps)")
    elif (_num(f.get("samples")) is None and _num(f.get("steps_per_epoch" if training else "steps")) is None
          and total_steps(f) is None):
        most.append(f"{HIGH_SAMPLES:,} samples" + (" per epoch" if training else ""))
    if training and _num(f.get("epochs")) is None and total_steps(f) is None and most_steps(f) is None:
        most.append(f"{HIGH_EPOCHS:,} epochs")
    elif training and f.get("epochs_bound") == "upper":
        most.append(f"all {f['epochs']:g} epochs")
    if model_call and _num(f.get("flops_per_sample")) is None:
        most.append(f"{HIGH_FLOPS_PER_SAMPLE:.3g} FLOPs per sample ({HIGH_FLOPS_MODEL})")
    return " and ".join(most)


def unknown_size_span(work: dict, group: str | None, f: dict, half: float,
                      model_call: bool = True) -> tuple[float, float, float, str] | None:
    """(log10 J of the figure, of the interval's low and high ends, note) for a pass over data
    whose size, a `fit` whose epochs, or a model call (*model_call*, `model_flops`) whose FLOPs per
    sample the resolver could not know; None where the work is known (`derive`) or nothing says
    it is unknown. *half*: the work model's log10 half-width.

    The figure is the least work the code allows: one batch per epoch (per pass), one epoch
    where epochs are unknown or early stopping may end training, no model FLOPs where they are
    unknown (a training step's optimizer update of known weights remains); the low end is that
    less *half*. The high end is up to HIGH_SAMPLES samples per epoch, the epochs written
    (HIGH_EPOCHS where none are) and HIGH_FLOPS_PER_SAMPLE, stated in the note, not inferred, plus
    *half*. A one-batch call of unstated batch (`one_step`) is one step: at least a batch of one
    sample, at most one batch of HIGH_SAMPLES, never epochs. An Estimator's `train(max_steps=N)` is at
    least one step, at most N (`most_steps`). Never a typical data set's size nor a
    typical model's FLOPs: the code does not say them, so the figure does not.
    """
    if group is None:
        return None
    sized = derive(group, f)[0] is not None and not steps_only(f)
    no_flops = model_call and _num(f.get("flops_per_sample")) is None
    capped = most_steps(f) if group == "training" else None
    if sized and not no_flops or not sized and not unknown_size(f) and capped is None:
        return None
    batch = _num(f.get("batch_size")) or 32.0
    low, high, unknown, least = dict(f), dict(f), [], []
    low.pop("epochs_bound", None)
    high.pop("epochs_bound", None)
    if f.get("one_step") and _num(f.get("samples")) is None:  # one batch of a size the code does not state
        for ends, size in ((low, 1.0), (high, float(HIGH_SAMPLES))):
            ends.update(samples=size, batch_size=size, steps=1, steps_per_epoch=1, epochs=1, one_batch=True)
        unknown.append("batch size")
        least.append("a batch of one sample")
    elif steps_only(f):
        steps = _num(f.get("steps_per_epoch" if group == "training" else "steps")) or 1.0
        low["batch_size"], high["batch_size"] = 1.0, max(1.0, HIGH_SAMPLES / steps)
        unknown.append("batch size")
        least.append("one sample per step")
    elif capped is not None:  # max_steps: up to that global step, fewer where a checkpoint is restored
        low["steps"], high["steps"] = 1.0, capped
        unknown.append("steps run")
        least.append("one step (max_steps the most)")
    elif not sized and _num(f.get("samples")) is None and _num(f.get("steps_per_epoch" if group == "training" else "steps")) is None:
        low["samples"], high["samples"] = batch, max(float(HIGH_SAMPLES), batch)
        unknown.append("data size")
        least.append("one batch per epoch" if group == "training" else "one batch")
        if _num(f.get("decoded_pixels_per_sample")):
            least.append("each of its files decoded at image_size (their own size not known)")
    if group == "training" and _num(f.get("epochs")) is None and total_steps(low) is None:
        low["epochs"], high["epochs"] = 1, HIGH_EPOCHS
        unknown.append("epochs")
        least.append("one epoch")
    elif group == "training" and f.get("epochs_bound") == "upper":
        low["epochs"], run = fewest_epochs(f)["epochs"], least_epochs(f)
        least.append(f"{run:g} epoch{'s' if run != 1 else ''} (early stopping)")
    if no_flops:  # a stated most, no lower bound: at the fitted cost per FLOP (`flop_s`)
        high["flops_per_sample"] = HIGH_FLOPS_PER_SAMPLE
        high.pop("flops_per_sample_bound", None)
        params = _num(f.get("params"))
        least.append(f"no model FLOPs but the optimizer's update of its {params:,.0f} weights"
                     if group == "training" and params else "no model FLOPs")
    lo, hi = work_log_energy(work, group, low, no_flops), work_log_energy(work, group, high)
    if lo is None or hi is None:
        return None
    n, flops = derive(group, low, no_flops)
    t = time_of(work["time"][group], n, flops, not low.get("one_batch"), epochs_of(group, low), low)
    longest = time_of(work["time"][group], *derive(group, high), epochs=epochs_of(group, high), features=high)
    beyond = extrapolation_spread(work["time"][group], longest)
    said = [f"{' and '.join(unknown)} unknown"] if unknown else []
    said += ["model FLOPs unknown"] if no_flops else []
    note = (f"{', '.join(said)}: the figure is the least the code allows "
            f"({' and '.join(least)}: {n:.3g} step{'s' if n != 1 else ''}, about {t:.3g} s); "
            f"the interval's high end assumes up to {stated_most(group == 'training', f, model_call)} "
            "(stated, not inferred)")
    return lo, lo - half, max(hi, lo) + half + beyond, note
