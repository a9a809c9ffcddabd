"""Keras model steps too small for any accelerator: a batch's arithmetic that one CPU core does in
a tenth of a millisecond, read by GL603 (such a model stepped on a GPU) and GL201 (where which Keras
runs `predict` is not known, the per-call overhead a tiny model pays outweighs its work whichever)."""

from __future__ import annotations

from typing import Any

from greenlint.predict.work_energy import DENSE_FLOPS_PER_S, HALF_PEAK_FLOPS
from greenlint.rules.site import Site, is_keras_model_method, method
from greenlint.rules.syntax import is_training_step

#: Model methods a loop may call once per item or batch.
STEPS = ("predict", "predict_on_batch", "train_on_batch", "test_on_batch", "fit", "evaluate", "__call__")
#: Those that run what they are given as one batch; the others split it into batches of `batch_size`.
ONE_BATCH = ("predict_on_batch", "train_on_batch", "test_on_batch", "__call__")
#: Sustained FP32 FLOP/s of one CPU core on small dense products, a stated figure: an AVX2 core at
#: 3 GHz peaks near 10^11 (two FMA units of eight lanes); products of a few thousand weights reach
#: about a tenth of that.
CPU_CORE_FLOPS = 1.0e10
#: A step of at most this many FLOPs runs on a GPU no faster than on one CPU core: greenlint's cost
#: model runs F FLOPs at peak x F / (F + n-half) (greenlint/predict/work_energy.py), one core's
#: CPU_CORE_FLOPS at F = n-half x CPU_CORE_FLOPS / peak (10^6 FLOPs; a step's several kernels are
#: each smaller still).
TINY_STEP_FLOPS = HALF_PEAK_FLOPS * CPU_CORE_FLOPS / DENSE_FLOPS_PER_S


def tiny_step(site: Site) -> float | None:
    """The FLOPs of one step of a Keras model's call, where the model's FLOPs are known exactly and
    the step's rows are known or bounded, and they are at most `TINY_STEP_FLOPS`; None otherwise."""
    if not is_keras_model_method(site.api, STEPS) or site.untyped or site.work_value("symbolic") is True:
        return None
    flops = site.work_value("flops_per_sample")
    if not _count(flops) or site.work_lower("flops_per_sample"):
        return None
    samples = site.work_value("samples")
    if method(site.api) in ONE_BATCH:
        rows = samples if _count(samples) else None
    else:
        batch = site.work_value("batch_size")
        rows = (min(samples, batch) if _count(samples) else batch) if _count(batch) else None
    if rows is None:
        return None
    step = (site.training_passes() if is_training_step(site) else 1.0) * flops * rows
    return step if step <= TINY_STEP_FLOPS else None


def rows_known(site: Site) -> bool:
    """The rows of `tiny_step`'s step are known, not only bounded: the call's samples are counted (not
    "at most N"); of data of unknown size a step holds at most a batch."""
    return _count(site.work_value("samples")) and site.work_bound("samples") != "upper"


def _count(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
