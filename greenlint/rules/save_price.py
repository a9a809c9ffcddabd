"""What a periodic save costs beside the training steps between two saves (GL311's and GL310's price).

A save opens and lays out a file (`SAVE_S`), then writes every weight: `params` x 4 bytes (float32),
and as many again for each slot per weight its optimizer keeps where the analysis found that it writes
them (`optimizer_slots`: a TF1 `Saver` of a graph Adam trains, or a compiled Keras model's `save`, writes
its two moments of each weight trained, `trainable_params` where some are not), at a disk's bandwidth
(`DISK_B_PER_S`, greenlint/predict/work_energy.py). Between two saves the loop runs `period` passes of its training
steps (each on its batch), timed by greenlint's device model on the GPU the user stated
(`--device`), else batch_price's REFERENCE_GPU. The claim is the least share of the time the saves
and those steps take that goes to the saves: the weights alone, written at the fast end of the
disk's interval (10**ROOFLINE_HALF faster: the page cache), against the slow end of every step
constant the device model rests on (each 10**DEVICE_HALF slower). Where the saved model's weights,
or any step's FLOPs per sample or batch, are not known, nothing is priced: unknown stays unknown."""

from __future__ import annotations

from dataclasses import dataclass

from greenlint.predict.devices import DEVICE_HALF, DeviceModel, device_seconds
from greenlint.predict.site_predictions import with_work
from greenlint.predict.training_runs import named_work, with_architecture
from greenlint.predict.work_energy import DISK_B_PER_S, ELEMENT_BYTES, ROOFLINE_HALF
from greenlint.rules.batch_price import device, reference
from greenlint.rules.site import Site
from greenlint.units import fmt_bytes, fmt_s

#: The least seconds a save takes besides its weights' bytes (creating the file, its layout, the
#: model's configuration): bench/rules/GL311's pair measured about 50 ms per `save_weights` of a
#: two-layer model on two loaded cores; a tenth of it is taken, for a fast host.
SAVE_S = 0.005

#: A training known to save fewer checkpoints than this is not priced (GL310, GL311): too few
#: saves for their share of its steps to matter.
FEW_SAVES = 10

#: A save every fewer training steps than this is reported where it is not priced (GL311; GL310's
#: `min-save-freq`): each save writes every weight to disk, at a disk's bandwidth (5 GB/s at most, the
#: page cache's), which one step reads at the device memory's (hundreds of GB/s on a GPU).
FEW_STEPS = 10


@dataclass(frozen=True)
class SaveShare:
    share: float  # the least share of the time between two saves spent saving
    weights: float  # bytes of the weights (and their optimizer slots) one save writes, at the least
    slots: int  # the optimizer's slots per weight counted in those bytes
    save_s: float  # seconds of one save, at the least
    steps_s: float  # seconds of the steps between two saves, at the most
    device: str  # the GPU the steps are timed on
    told: bool  # the user stated it (`--device`)

    def clause(self) -> str:
        """The finding's priced claim."""
        where = f"the stated {self.device}" if self.told else f"an {self.device}, the reference GPU: no --device stated"
        return (
            f"each save takes at least {fmt_s(self.save_s)} ({fmt_s(SAVE_S)} to lay out the file, then"
            f" {fmt_bytes(self.weights)} of weights{_slots(self.slots)} at {DISK_B_PER_S * 10**ROOFLINE_HALF / 1e9:.2g} GB/s),"
            f" at least {self.share:.0%} of the time it and the training steps since the last save take"
            f" (those steps at most {fmt_s(self.steps_s)} on {where})"
        )


def _slots(slots: int) -> str:
    """The optimizer's slots a save writes with the weights, in words ("" for none)."""
    return f" and the optimizer's {slots} slot{'s' if slots > 1 else ''} per weight it trains" if slots else ""


def _count(value: object) -> float | None:
    """A positive number, else None (bools are not counts)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    return float(value)


def step_seconds(step: Site, told: str | None, per_batch: bool = False) -> float | None:
    """The most seconds one run of the training step *step* takes on the told GPU (else the
    reference one), every constant at its slow end; None where its FLOPs or batch are not known.
    *per_batch*: one of the steps a `fit()` runs, on its `batch_size` (its `samples` are all its
    data), not the whole call."""
    found = named_work(with_architecture(with_work(step.features, step.callsite.work)))
    priced, gpu = reference(), device(told)
    if found is None or priced is None or gpu is None or step.work_lower("flops_per_sample"):
        return None
    features = found[0]
    if per_batch:
        batch = _count(features.get("batch_size"))
    else:
        batch = _count(features.get("samples")) or _count(features.get("batch_size"))
    work, constants = priced
    ref = (work.get("time") or {}).get("training")
    if batch is None or _count(features.get("flops_per_sample")) is None or ref is None:
        return None
    slow = 10**DEVICE_HALF
    timing = {**work, "time": {"training": {**ref, "per_step": ref["per_step"] * slow}}}
    slowest = DeviceModel(constants.layer_s * slow, constants.half_flops * slow, constants.wait_share)
    one = {
        k: features.get(k) for k in ("flops_per_sample", "params", "memory_bytes_per_sample", "n_layers", "flop_layers")
    }
    seconds = device_seconds(
        timing, "training", {**one, "samples": batch, "batch_size": batch, "epochs": 1}, gpu, slowest, start=False
    )
    if seconds is None:
        return None
    host, dispatch, busy = seconds
    return host + max(dispatch, busy)


def steps_seconds(steps: list[Site], told: str | None, per_batch: bool = False) -> float | None:
    """The most seconds one pass of a loop running the training steps *steps* takes on the told
    GPU (`step_seconds` of each); None where there is none or one is not priced."""
    each = [step_seconds(step, told, per_batch) for step in steps]
    if not each or any(s is None for s in each):
        return None
    return sum(s for s in each if s is not None)


def save_share(
    saved: object,
    steps: list[Site],
    period: int,
    told: str | None,
    per_batch: bool = False,
    slots: object = None,
    trained: object = None,
) -> SaveShare | None:
    """The least share of the time that a save of *saved* weights (the parameter count the
    analysis gives), with *slots* optimizer slots for each of the *trained* weights (all where not
    known), every *period* passes of a loop running the training steps *steps* (with *per_batch*:
    every *period* of the steps of a `fit()`) takes, beside those steps (module docstring); None
    where the weights or any step's work are not known."""
    params = _count(saved)
    copies = int(_count(slots) or 0)
    slotted = _count(trained) if trained is not None else params
    gpu = device(told)
    one = steps_seconds(steps, told, per_batch)
    if params is None or gpu is None or one is None:
        return None
    steps_s = period * one
    weights = (params + copies * (slotted or 0)) * ELEMENT_BYTES
    save_s = SAVE_S + weights / (DISK_B_PER_S * 10**ROOFLINE_HALF)
    return SaveShare(save_s / (save_s + steps_s), weights, copies, save_s, steps_s, gpu.name, told is not None)
