"""What a larger batch saves on a GPU, priced by greenlint's device model (greenlint/predict/devices.py).

A step at batch b pays, whatever b, the host's per-step cost, each layer's dispatch and, per layer
pass, Hockney's fill of the GPU (a pass of F FLOPs runs at P x F / (F + n-half), P its peak at its
base clock where the device table lists one, `GpuSpec.sustained_tflops`); its FLOPs
alone grow with b. So the same samples in fewer, larger steps cost less where those fixed costs
weigh, and about the same where every layer pass already fills the device.
`devices.batch_saving` prices both ways on the GPU the user stated (`--device`), else on
REFERENCE_GPU, with the bundled model's constants (not this machine's calibration); the claim
holds when the least saving over the device model's spread reaches MIN_SAVING.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from greenlint.predict.devices import DeviceModel, GpuSpec, batch_saving, gpu_spec
from greenlint.predict.site_predictions import with_work
from greenlint.predict.training_runs import named_work, with_architecture
from greenlint.predict.work_energy import energy_at, power_for
from greenlint.rules.site import Site
from greenlint.rules.syntax import is_training_step

#: The GPU a saving is priced on where the user stated none: a common data-centre and notebook GPU
#: (Colab's), and a modest one: on faster GPUs a step's fixed costs weigh more, and the saving with them.
REFERENCE_GPU = "NVIDIA Tesla T4"
#: The least saving, over the device model's spread, that a finding claims.
MIN_SAVING = 0.25
#: Keras' default batch size, the batch priced against (memory permitting: at most GROWTH times the program's).
KERAS_BATCH = 32
GROWTH = 8
#: A batch already at Keras' default or above is priced at this many times itself (128 for 32: the
#: batch DCGAN-style training and large-batch ImageNet recipes run at, with the learning rate scaled).
SCALE = 4


@dataclass(frozen=True)
class Saving:
    least: float
    most: float
    larger: int  # the batch priced against
    device: str  # the GPU priced on
    told: bool  # the user stated it (`--device`); else REFERENCE_GPU
    training: bool

    def clause(self, scaled: bool = True) -> str:
        """The finding's priced claim: the same samples at the larger batch, the saving and the GPU;
        for training, with the learning rate scaled unless *scaled* is False (where that scaling is
        no known equivalent, such as a GAN's alternating updates), and the convergence to check, as
        the epoch makes fewer updates; for inference, the outputs unchanged."""
        low, high = round(100 * self.least), round(100 * self.most)
        share = f"{low}%" if low == high else f"{low}-{high}%"
        if not self.training:
            scaled_by = ", with the same outputs,"
        elif scaled:
            scaled_by = ", with the learning rate scaled (fewer updates an epoch: convergence to check),"
        else:
            scaled_by = ""
        where = (
            f"the stated {self.device}" if self.told else f"an {self.device} (the reference GPU: no --device stated)"
        )
        return (
            f"the same samples at batch {self.larger}{scaled_by} cost {share} fewer joules on {where}, by greenlint's "
            "device model (fewer steps pay each step's host, launch and GPU-fill costs)"
        )


#: The model methods given the whole data, which they split into batches (a `*_on_batch` is given one batch).
WHOLE_DATA = frozenset({"fit", "evaluate", "predict"})


def larger_batch(batch: int, minimum: int) -> int:
    """The batch a saving is priced at: Keras' 32 (or `min-batch-size` where higher), at most
    GROWTH times the program's batch (a batch whose activations fit GROWTH times over); SCALE
    times a batch already that large."""
    floor = max(KERAS_BATCH, minimum)
    return min(floor, GROWTH * batch) if batch < floor else SCALE * batch


@functools.cache
def reference() -> tuple[dict, DeviceModel] | None:
    """The bundled model's work section and device constants, None where it cannot be loaded."""
    from greenlint.predict import load_predictor

    try:
        predictor = load_predictor(overlay=False)
    except Exception:  # no model: nothing is priced, nothing claimed
        return None
    return predictor.model.get("work") or {}, predictor.device_model


def reference_work() -> dict:
    """The bundled model's work section (time and power models of each kind), {} where it cannot be loaded."""
    priced = reference()
    return priced[0] if priced is not None else {}


#: Where `call_start_up`'s figures were timed, as a message says it after one: the KB's machine
#: (data/kb/PROVENANCE.md), not the one greenlint runs on, where a call's set-up may take a fraction of it.
START_UP_TIMED = "timed on greenlint's reference machine (FECoM's 2023 workstation, one NVIDIA GPU), not this one"


def call_start_up(kind: str) -> tuple[float, float] | None:
    """(seconds, joules) of the fixed start-up each call of *kind* ("inference": `predict()`; "training":
    `fit()`) pays on the reference machine (building or looking up its step function, its `tf.data`
    pipeline and callbacks): the bundled time model's `t0` for that kind, the one term of a call's time its
    work does not set, fitted on the KB's call sites, at that kind's steady net power; None where the model
    is not loaded. It is what batching the calls, or a lighter call (the model itself, `train_on_batch`),
    saves per call."""
    work = reference_work()
    model, power = (work.get("time") or {}).get(kind), power_for(work, kind)
    if not model or not power or not model.get("t0"):
        return None
    return model["t0"], energy_at(power, model["t0"])


def device(told: str | None) -> GpuSpec | None:
    """The GPU priced on: the stated one, else REFERENCE_GPU."""
    return gpu_spec(told if told is not None else REFERENCE_GPU)


def priced_saving(site: Site, batch: int, minimum: int, told: str | None) -> Saving | None:
    """What the same samples save at `larger_batch` over *batch* on the told GPU (else
    REFERENCE_GPU), where the site's model FLOPs are known exactly (not a lower bound); None otherwise."""
    if site.work_lower("flops_per_sample"):
        return None
    found = named_work(with_architecture(with_work(site.features, site.callsite.work)))
    priced, gpu = reference(), device(told)
    if found is None or priced is None or gpu is None:
        return None
    features, larger = found[0], larger_batch(batch, minimum)
    # no batch of a `fit`/`evaluate`/`predict` holds more than the data it is given (700 samples at 256 are 3 steps)
    samples = site.callsite.work.get("samples") if site.api.rpartition(".")[2] in WHOLE_DATA else None
    held = samples.value if samples is not None and samples.provenance != "unknown" else None
    if isinstance(held, int) and not isinstance(held, bool) and held > 0:
        larger = min(larger, held)
    flops = features.get("flops_per_sample")
    if not isinstance(flops, (int, float)) or isinstance(flops, bool) or flops <= 0 or larger <= batch:
        return None
    training = is_training_step(site)
    work, constants = priced
    ends = batch_saving(work, "training" if training else "inference", features, batch, larger, gpu, constants)
    return None if ends is None else Saving(ends[0], ends[1], larger, gpu.name, told is not None, training)
