"""What a `fit` step costs on this CPU, by what the step dispatches: `python -m bench.timed steps`.

Tests whether a compiled training step's CPU time follows its model's layers, its loss or its input
dtype, the difference between `greenlint calibrate`'s MLP (meter/workloads/models.py: one hidden
layer of 64 units, MSE, float32 inputs) and the suite's MLPs (two of 128, softmax cross-entropy,
float64 inputs cast on each step). Each variant runs in a fresh interpreter (TensorFlow imported
before any clock): a warm-up `fit` (tracing), then one epoch of `SHORT` and one of `LONG` steps of
batch 32 under the CPU clock (`time.process_time()`, all threads); a step's cost is the slope
between the two, so the call's own and the tracing costs drop out. Variants alternate in order
between repeats, and each timing keeps the machine's 1-minute load average: on a shared machine
the CPU seconds of the same work move with the load.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from .suite import HERE

STEPS_RESULTS = HERE / "steps.json"
#: Steps of batch 32 in the two timed epochs.
SHORT, LONG = 128, 896
#: name -> (hidden layers' units, loss, input dtype); `calibration` is the reference of the ratios.
VARIANTS = {
    "calibration": ((64,), "mse", "float32"),
    "scripts": ((128, 128), "sparse_categorical_crossentropy", "float64"),
    "loss": ((64,), "sparse_categorical_crossentropy", "float32"),
    "dtype": ((64,), "mse", "float64"),
    "deep": ((16,) * 8, "mse", "float32"),
}

_CHILD = r"""
import json, os, sys, time
import numpy as np
import tensorflow as tf
hidden, loss, dtype, short, long = json.loads(sys.argv[1])
tf.keras.utils.set_random_seed(0)
classes = 10 if loss != "mse" else 1
def data(steps):
    x = np.random.rand(32 * steps, 32).astype(dtype)
    y = np.random.rand(32 * steps, 1).astype(dtype) if loss == "mse" else np.random.randint(0, classes, 32 * steps)
    return x, y
model = tf.keras.Sequential([tf.keras.Input((32,)), *(tf.keras.layers.Dense(u, activation="relu") for u in hidden),
                             tf.keras.layers.Dense(classes, activation=None if loss == "mse" else "softmax")])
model.compile(optimizer="adam", loss=loss)
model.fit(*data(64), batch_size=32, epochs=1, verbose=0)
cpu = {}
for steps in (short, long):
    x, y = data(steps)
    t = time.process_time()
    model.fit(x, y, batch_size=32, epochs=1, verbose=0)
    cpu[steps] = time.process_time() - t
print("STEPS " + json.dumps({"cpu_s": [cpu[short], cpu[long]], "load": os.getloadavg()[0]}), flush=True)
"""


def per_step_s(cpu_short: float, cpu_long: float, short: int = SHORT, long: int = LONG) -> float:
    """CPU seconds per step: the slope between an epoch of *short* and one of *long* steps."""
    return (cpu_long - cpu_short) / (long - short)


def summarise(timings: dict[str, list[dict]], reference: str = "calibration") -> dict[str, dict]:
    """Per variant: each repeat's ms per step, their median, spread ((max - min) / median), the loads
    they ran at, and the median over *reference*'s median (None where the reference has no timing)."""
    out = {}
    for name, runs in timings.items():
        ms = [1e3 * per_step_s(*r["cpu_s"]) for r in runs]
        median = statistics.median(ms)
        out[name] = {"ms_per_step": [round(m, 4) for m in ms], "median_ms": round(median, 4),
                     "spread": round((max(ms) - min(ms)) / median, 4) if median > 0 else None,
                     "load": [round(r["load"], 2) for r in runs]}
    ref = out.get(reference, {}).get("median_ms")
    for row in out.values():
        row["vs_reference"] = round(row["median_ms"] / ref, 4) if ref else None
    return out


def _time_variant(name: str) -> dict:
    hidden, loss, dtype = VARIANTS[name]
    env = {**os.environ, "PYTHONHASHSEED": "0", "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps([list(hidden), loss, dtype, SHORT, LONG])],
                          env=env, capture_output=True, text=True, timeout=1800, check=True)
    line = next(x for x in done.stdout.splitlines() if x.startswith("STEPS "))
    return json.loads(line.removeprefix("STEPS "))


def run_steps(repeats: int, out: Path = STEPS_RESULTS, progress=print) -> dict:
    """Time every variant *repeats* times (the order reversed on every other repeat), write *out*."""
    timings: dict[str, list[dict]] = {name: [] for name in VARIANTS}
    for r in range(repeats):
        for name in (list(VARIANTS) if r % 2 == 0 else list(reversed(VARIANTS))):
            timings[name].append(_time_variant(name))
            progress(f"{name}: {1e3 * per_step_s(*timings[name][-1]['cpu_s']):.3g} ms per step")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf  # its version only, after the timings

    results = {"variants": {k: {"hidden": list(h), "loss": lo, "dtype": d} for k, (h, lo, d) in VARIANTS.items()},
               "steps": [SHORT, LONG], "tensorflow": tf.__version__, "repeats": repeats,
               "timings": timings, "summary": summarise(timings)}
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return results
