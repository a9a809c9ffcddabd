"""The call of a `tf.function`: a call site carrying the work its traced body runs.

Calling a function decorated with `@tf.function` (or the value `tf.function(f)` returns) runs the
graph traced from its body: the models it calls, a forward pass under a `tf.GradientTape` with the
tape's gradient and the optimizer's update being one training step of them, as many steps per call as
a loop in the body repeats them (`for batch in dataset:` traced into the graph). That call is the site
where the work is spent (docs/calls-json.md `step`, `symbolic`): it gets the summed work of the
model calls in the body, and those calls become `symbolic` (0 J at their lines, counted at the
call). A body that runs no model call gives its call no work (its ops' cost is not summed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from greenlint.analysis.callsite import Quantity, Work
from greenlint.analysis.work import INFERRED, UNKNOWN, q
from greenlint.units import TIMES


@dataclass(frozen=True)
class BodyStep:
    """A model call in a traced body: its line, its work (with `step`), and which model it runs
    (an identity, so that a model called twice under one tape is updated once)."""

    line: int
    work: Work
    model: int
    trips: int | None = 1  # runs per run of its function (the loops of its body around it); None: unknown


def _value(work: Work, key: str) -> Any:
    entry = work.get(key)
    return None if entry is None else entry.value


def _batch(work: Work) -> int | None:
    batch = _value(work, "samples") or _value(work, "batch_size")
    return batch if isinstance(batch, int) and not isinstance(batch, bool) and batch > 0 else None


def call_work(steps: list[BodyStep]) -> Work:
    """The work of one call of a tf.function whose body makes the model calls *steps*:
    `steps` steps (`training` when any of them is a training step; as many as the body's loops run
    the most repeated of them, one where none loops; where a loop's length is unknown, that count as a
    lower bound: the predictor's floor) on the batch its
    model calls show (the largest, where they differ), FLOPs per sample summed over the calls (each
    weighted by its own batch over that batch and its runs over the steps), the parameters of the
    models trained, each once. {} without steps."""
    if not steps:
        return {}
    training = any(_value(s.work, "step") == "training" for s in steps)
    kind = "training" if training else "inference"
    lines = ", ".join(str(s.line) for s in steps)
    batches = [b for b in (_batch(s.work) for s in steps) if b is not None]
    batch = max(batches) if batches else None
    per_call = max(s.trips or 1 for s in steps)
    work: Work = {
        "step": q(kind, INFERRED, f"one {kind} step of what the traced body runs: the model calls at line(s) {lines}"),
    }
    if any(s.trips is None for s in steps):  # a loop of the body runs them a number of times the code does not show
        work["steps"] = q(per_call, INFERRED, f"at least {per_call}: a loop of the traced body runs its model calls a "
                                              "number of times not known from the code", bound="lower")
    elif per_call > 1:
        work["steps"] = q(per_call, INFERRED, f"the loops of the traced body run its model calls {per_call}{TIMES} "
                                              "per call of the function")
    if batch is not None:
        same = "" if len(set(batches)) == 1 and len(batches) == len(steps) else \
            " (the largest of its model calls'; the others counted in proportion, an unsized one as this)"
        work["samples"] = q(batch, INFERRED, f"the batch its model calls run on{same}")
    else:
        work["samples"] = q(None, UNKNOWN, "the batch its model calls run on is not known from the code")
    flops: float = 0.0
    missing: list[str] = []  # what the sum leaves out, per model call: the floor's basis names it
    for s in steps:
        fps = _value(s.work, "flops_per_sample")
        if not isinstance(fps, (int, float)) or fps <= 0:
            missing.append(f"line {s.line}: its FLOPs unknown")
            continue
        own = _batch(s.work)
        flops += (fps * own / batch if own is not None and batch else fps) * (s.trips or 1) / per_call
        if "flops_per_sample" in s.work and s.work["flops_per_sample"].bound == "lower":
            missing.append(f"line {s.line}: {s.work['flops_per_sample'].note or 'a lower bound'}")
    partial = bool(missing)
    note = f"forward FLOPs per sample of the model calls at line(s) {lines}, summed"
    if partial and flops:
        note += f" (a lower bound; {'; '.join(missing)})"
    acts = [_value(s.work, "activations_per_sample") for s in steps]
    if all(isinstance(a, int) and a > 0 for a in acts):
        moved = sum(a * (_batch(s.work) or batch or 1) / (batch or 1) * (s.trips or 1) / per_call
                    for a, s in zip(acts, steps))
        work["activations_per_sample"] = q(round(moved), INFERRED, f"layer outputs per sample of the model calls at "
                                                                  f"line(s) {lines}, summed like their FLOPs")
    if flops:
        work["flops_per_sample"] = q(round(flops), INFERRED, note, **({"bound": "lower"} if partial else {}))
        if training:
            work.update(_backward(steps, batch, per_call))
    else:
        work["flops_per_sample"] = q(None, UNKNOWN, f"{note}: none known")
    if training:
        params, seen, params_partial = 0, set(), False
        for s in steps:
            if _value(s.work, "step") != "training" or s.model in seen:
                continue
            seen.add(s.model)
            p = _value(s.work, "params")
            if isinstance(p, int) and p > 0:
                params += p
                params_partial = params_partial or "params" in s.work and s.work["params"].bound == "lower"
            else:
                params_partial = True
        pnote = "parameters of the models run under the tape, each once"
        if params:
            work["params"] = q(params, INFERRED, pnote, **({"bound": "lower"} if params_partial else {}))
        else:
            work["params"] = q(None, UNKNOWN, f"{pnote}: none known")
    return work


def _backward(steps: list[BodyStep], batch: int | None, per_call: int) -> Work:
    """`backward_flops_per_sample` and `trainable_params` of a training call whose body's steps
    include one training a model with some layers frozen (trainable.py): their backward FLOPs summed
    as `call_work` sums their FLOPs, another model call's twice its forward FLOPs (its whole backward
    pass, as TRAINING_FLOPS prices it) and all its parameters; {} where none is frozen, or a model
    call's FLOPs are unknown (the whole backward pass of those known is priced then)."""
    if not any("backward_flops_per_sample" in s.work for s in steps):
        return {}
    backward, lower = 0.0, False
    trained: int | None = 0
    seen: set[int] = set()
    for s in steps:
        fps, own = _value(s.work, "flops_per_sample"), _batch(s.work)
        key = "backward_flops_per_sample" if "backward_flops_per_sample" in s.work else "flops_per_sample"
        if not isinstance(fps, (int, float)) or fps <= 0:
            return {}
        back = _value(s.work, key) * (1 if key == "backward_flops_per_sample" else 2)
        lower = lower or s.work[key].bound == "lower"
        backward += (back * own / batch if own is not None and batch else back) * (s.trips or 1) / per_call
        if _value(s.work, "step") == "training" and s.model not in seen:
            seen.add(s.model)
            params = _value(s.work, "trainable_params" if "trainable_params" in s.work else "params")
            trained = trained + params if isinstance(params, int) and trained is not None else None
    note = "the model calls' backward passes, summed like their FLOPs: the layers each trains (its tape's " \
           "trainable weights) from the loss down to the lowest, their input and weight gradients"
    work = {"backward_flops_per_sample": q(round(backward), INFERRED, note, **({"bound": "lower"} if lower else {}))}
    if trained is not None:
        work["trainable_params"] = q(trained, INFERRED, "the parameters the model calls' tapes differentiate, "
                                                        "each model once")
    return work


def counted_at(name: str, lines: list[int]) -> Quantity:
    """`work.symbolic` of a model call inside the traced body of *name*, called at *lines*."""
    where = ", ".join(str(line) for line in sorted(set(lines)))
    return q(True, INFERRED, f"traced into the tf.function {name}: its work is counted where {name} is called "
                             f"(line {where})")
