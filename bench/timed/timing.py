"""Run each script of the suite in a fresh interpreter and measure the CPU time it uses.

One interpreter per pass imports TensorFlow and Keras once, before any clock starts, then runs
every script (clearing Keras's session between them), so the figure is the script's own work, not the
import; a second pass runs them in reverse order, so no script always comes first. The machine's
1-minute load average is read before and after each script and kept beside its timing. CPU time is `time.process_time()` (all threads of the process), the clock
greenlint's estimated energy source reads, and joules are CPU seconds x that source's watts per busy
core (`greenlint.meter.counters.estimated.watts_per_core`), so the measurement and the meter share
one definition. Wall time is recorded but never compared: other people's work shares the machine.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from .suite import RESULTS_VERSION, scripts, stamp

#: Runs in the child: imports once, then each script named on the command line under the CPU clock,
#: in a scratch working directory, Keras's global state cleared between them; one JSON line each.
_CHILD = r"""
import gc, json, os, runpy, sys, tempfile, time
import numpy
import tensorflow as tf
import keras
tf.keras.layers.Dense, tf.keras.Sequential, tf.keras.Model, tf.keras.optimizers.Adam
for path in sys.argv[1:]:
    tf.keras.backend.clear_session()
    gc.collect()
    with tempfile.TemporaryDirectory(prefix="greenlint-timed-") as work:
        os.chdir(work)
        load0 = os.getloadavg()[0]
        cpu0, wall0 = time.process_time(), time.perf_counter()
        runpy.run_path(path, run_name="__main__")
        cpu1, wall1 = time.process_time(), time.perf_counter()
        load1 = os.getloadavg()[0]
        os.chdir("/")
    print("TIMED " + json.dumps({"path": path, "cpu_s": cpu1 - cpu0, "wall_s": wall1 - wall0,
                                 "load": [load0, load1],
                                 "tensorflow": tf.__version__, "keras": keras.__version__}), flush=True)
"""


def measure_pass(paths: list[Path], progress=print, timeout_s: float = 3600.0) -> dict[str, dict]:
    """One run of each of *paths*, in order, in one fresh interpreter (TensorFlow imported once, before
    any clock starts): {stem: {"cpu_s", "wall_s", "tensorflow", "keras"}}."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "TF_CPP_MIN_LOG_LEVEL": "2", "CUDA_VISIBLE_DEVICES": ""}
    found: dict[str, dict] = {}
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-c", _CHILD, *(str(p.resolve()) for p in paths)], env=env,
                                stdout=subprocess.PIPE, stderr=err, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("TIMED "):
                r = json.loads(line[len("TIMED "):])
                found[Path(r["path"]).stem] = r
                progress(f"{Path(r['path']).stem}: {r['cpu_s']:.1f} s CPU")
        if proc.wait(timeout=timeout_s) != 0 or len(found) != len(paths):
            err.seek(0)
            raise RuntimeError(f"the timing interpreter exited {proc.returncode}: {err.read().strip()[-2000:]}")
    return found


def machine() -> dict:
    """What the timings were taken on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "logical_cores": os.cpu_count(), "system": f"{platform.system()} {platform.release()}",
            "python": platform.python_version()}


def script_result(name: str, stamp_: str, runs: list[dict], w_per_core: float) -> dict:
    """One script's entry: every repeat's CPU seconds, their median, spread and joules."""
    cpu = [r["cpu_s"] for r in runs]
    med = statistics.median(cpu)
    return {
        "stamp": stamp_,
        "cpu_s": [round(c, 3) for c in cpu],
        "wall_s": [round(r["wall_s"], 3) for r in runs],
        "load": [[round(x, 2) for x in r["load"]] for r in runs] if all("load" in r for r in runs) else None,
        "median_cpu_s": round(med, 3),
        "spread": round((max(cpu) - min(cpu)) / med, 4) if med > 0 else None,
        "measured_j": round(med * w_per_core, 2),
    }


def load_average() -> float | None:
    """The machine's 1-minute load average (None where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def run_suite(names: list[str] | None = None, repeats: int = 2, progress=print, between=None,
              measure=measure_pass) -> dict:
    """Time the scripts (all, or those named) *repeats* times each, interleaved, and return the results.
    *between*, if given, runs after the first half of the passes (`compare --retime` calibrates there,
    so the timings before and after it bracket the calibration under the same load); what it returns
    is stored as the results' "between", with the pass it followed. *measure* times one pass
    (`measure_pass`; a stub in the tests)."""
    from greenlint.meter.counters.estimated import watts_per_core

    w_per_core, model = watts_per_core()
    chosen = [p for p in scripts() if names is None or p.stem in names]
    missing = set(names or ()) - {p.stem for p in chosen}
    if missing:
        raise SystemExit(f"no such script in the suite: {', '.join(sorted(missing))}")
    runs: dict[str, list[dict]] = {p.stem: [] for p in chosen}
    middle, done = (repeats + 1) // 2, None
    for r in range(repeats):
        if between is not None and r == middle:
            done = {"after_pass": r, **between()}
        progress(f"pass {r + 1}/{repeats}")
        order = chosen if r % 2 == 0 else chosen[::-1]
        for stem, found in measure(order, progress).items():
            runs[stem].append(found)
    first = next(iter(runs.values()))[0] if runs else {}
    extra = {"between": done} if done is not None else {}
    return {
        **extra,
        "version": RESULTS_VERSION,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tensorflow": first.get("tensorflow"),
        "keras": first.get("keras"),
        "machine": machine(),
        "power": {"w_per_core": w_per_core, "model": model},
        "repeats": repeats,
        "scripts": {p.stem: script_result(p.stem, stamp(p), runs[p.stem], w_per_core) for p in chosen},
    }


def merge(old: dict, new: dict, suite: list[str]) -> dict:
    """*old* results with *new*'s scripts replaced or added (the scripts no longer in *suite* dropped, the
    comparison too: it was made against other measurements). The machine, versions and date are *new*'s."""
    if (old["power"], old["tensorflow"]) != (new["power"], new["tensorflow"]):
        raise SystemExit("the results file was measured at another power model or TensorFlow version: "
                         "time the whole suite (`python -m bench.timed run`)")
    scripts_ = {**old["scripts"], **new["scripts"]}
    return {**new, "repeats": old["repeats"], "scripts": {k: scripts_[k] for k in sorted(scripts_) if k in suite}}
