"""Meter overhead: the same script run plainly and under `greenlint measure` (method level).

Reports, per trial, the script's own wall time for (a) three `fit` calls longer than 1 s each and
(b) a loop of 400 short TF calls (200 x matmul + l2_normalize; the meter reads the counters around
every execution and keeps a measurement record of the first 20 of each call site, by default).
Trials alternate plain / instrumented to spread the noise of a shared machine. Fixed costs (TF
import, the stable-state wait, writing files) are reported separately as whole-run wall time.

Usage: python bench/bench_meter_overhead.py [--trials 3] [--epochs 3]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = Path(__file__).with_name("meter_overhead_target.py")


def run(cmd: list[str], env: dict) -> tuple[dict[str, float], float]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    parts = {k: float(v) for k, v in re.findall(r"^(LONG_S|SHORT_S|LONG_CPU|SHORT_CPU) ([\d.]+)$", proc.stdout, re.M)}
    return parts, wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="greenlint-bench-"))
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "GREENLINT_CACHE_DIR": str(tmp / "cache")}
    plain = [sys.executable, str(TARGET), str(args.epochs)]
    metered = [sys.executable, "-m", "greenlint", "measure", "--max-wait", "5", "--out", str(tmp / "out"),
               str(TARGET), str(args.epochs)]
    rows: dict[str, list] = {"plain": [], "metered": []}
    for _ in range(args.trials):
        for name, cmd in (("plain", plain), ("metered", metered)):
            rows[name].append(run(cmd, env))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} logical cores, {args.trials} trials each")
    print("| part | plain median s | metered median s | overhead (median) | overhead (best of) |")
    print("|---|---:|---:|---:|---:|")
    labels = {"LONG_S": "3 x fit (each > 1 s), wall", "LONG_CPU": "3 x fit (each > 1 s), CPU time",
              "SHORT_S": "400 short calls, wall", "SHORT_CPU": "400 short calls, CPU time"}
    for part, label in labels.items():
        p = statistics.median(r[0][part] for r in rows["plain"])
        m = statistics.median(r[0][part] for r in rows["metered"])
        pb = min(r[0][part] for r in rows["plain"])
        mb = min(r[0][part] for r in rows["metered"])
        print(f"| {label} | {p:.3f} | {m:.3f} | {100 * (m / p - 1):+.1f}% | {100 * (mb / pb - 1):+.1f}% |")
    p = statistics.median(r[1] for r in rows["plain"])
    m = statistics.median(r[1] for r in rows["metered"])
    print(f"| whole run incl. TF import, stable wait, files | {p:.2f} | {m:.2f} | {m - p:+.2f} s | |")
    for name in rows:
        print(name, "trials (long wall, long CPU, short wall, short CPU):",
              [tuple(round(r[0][k], 3) for k in labels) for r in rows[name]])
    print(recorded_call_overhead())


def recorded_call_overhead(n: int = 300) -> str:
    """In-process cost of the runtime's wrapper per call: recorded, and passed through."""
    import numpy as np
    import tensorflow as tf

    from greenlint.meter.instrument import InstrumentedSite
    from greenlint.meter.runtime import Recorder
    from greenlint.meter.session import MeterConfig, MeterSession
    from greenlint.meter.stability import StabilitySettings

    session = MeterSession(MeterConfig(stability=StabilitySettings(max_wait_s=1)))
    session.start()
    a = tf.constant(np.ones((64, 64), dtype="float32"))
    rec = Recorder(session, [InstrumentedSite("tensorflow.matmul", 1, 1, {})], max_records_per_site=n)

    def per_call(fn, calls_before: int | None = None) -> float:
        best = float("inf")
        for _ in range(3):
            if calls_before is not None:
                rec.calls[0] = calls_before
            t = time.perf_counter()
            for _ in range(n):
                fn()
            best = min(best, (time.perf_counter() - t) / n)
        return best

    plain = per_call(lambda: tf.matmul(a, a))
    recorded = per_call(lambda: rec(0, tf.matmul, a, a), 0)  # counters read, and a record window kept
    counted = per_call(lambda: rec(0, tf.matmul, a, a), n)  # past max_records_per_site: counters read only
    session.stop()
    sources = ", ".join(f"{c}: {s.name}" for c, s in session.sources.covers.items()) or "none"
    return (f"per call (64x64 matmul, best of 3 x {n}; sources {sources}): plain {plain * 1e6:.0f} us, "
            f"recorded {recorded * 1e6:.0f} us (+{(recorded - plain) * 1e6:.0f}), "
            f"counter reads only {counted * 1e6:.0f} us (+{(counted - plain) * 1e6:.0f})")


if __name__ == "__main__":
    main()
