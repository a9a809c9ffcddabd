"""A program's start-up on this machine, measured by `greenlint calibrate`.

A fresh interpreter runs `START_UP` (`import tensorflow` and a first op, which starts the runtime)
`repeats` times; each run's CPU seconds are the child's user and system time (`RUSAGE_CHILDREN`,
all its threads), and their joules those seconds at the estimated source's watts per busy core
(`counters.estimated.watts_per_core`), whatever counters the machine has: a CPU figure, labelled
estimated. What the program pays before its first call (greenlint/predict/startup.py) on this
machine, where the public data's figure is the reference machine's.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable

from greenlint.meter.counters.estimated import watts_per_core
from greenlint.stats import median

START_UP = "import tensorflow as tf; tf.zeros(1) + 1"
#: Bounds a run that hangs (a TensorFlow that waits on a device); a start-up takes seconds.
TIMEOUT_S = 600.0


def measure_startup(repeats: int, statement: str = START_UP, tdp_w: float | None = None,
                    run: Callable = subprocess.run) -> dict:
    """The median of *repeats* fresh interpreters' CPU seconds running *statement*, in joules at the
    estimated watts per core, with the runs' least and most as the interval. Raises
    `subprocess.CalledProcessError` when the statement fails (TensorFlow not installed)."""
    watts, model = watts_per_core(tdp_w)
    seconds = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run([sys.executable, "-c", statement], check=True, capture_output=True, timeout=TIMEOUT_S,
            env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    cpu_s = median(seconds)
    assert cpu_s is not None
    return {"statement": statement, "runs": len(seconds), "cpu_s": round(cpu_s, 4),
            "energy_j": round(cpu_s * watts, 3),
            "interval_j": [round(min(seconds) * watts, 3), round(max(seconds) * watts, 3)], "power_model": model}
