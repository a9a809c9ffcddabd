"""Meter overhead: the same script run plainly and under `greenlint measure` (method level).

Reports, per trial, the script's own wall time for (a) three `fit` calls longer than 1 s each and
(b) a loop of 400 short TF calls (200 x matmul + l2_normalize; the meter records the first 20
executions of each call site and passes the rest straight through, as configured by default).
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
    parts = {k: float(v) for k, v in re.findall(r"^(LONG_S|SHORT_S) ([\d.]+)$", proc.stdout, re.M)}
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
    for part in ("LONG_S", "SHORT_S"):
        p = statistics.median(r[0][part] for r in rows["plain"])
        m = statistics.median(r[0][part] for r in rows["metered"])
        pb = min(r[0][part] for r in rows["plain"])
        mb = min(r[0][part] for r in rows["metered"])
        label = "3 x fit (each > 1 s)" if part == "LONG_S" else "400 short calls"
        print(f"| {label} | {p:.3f} | {m:.3f} | {100 * (m / p - 1):+.1f}% | {100 * (mb / pb - 1):+.1f}% |")
    p = statistics.median(r[1] for r in rows["plain"])
    m = statistics.median(r[1] for r in rows["metered"])
    print(f"| whole run incl. TF import, stable wait, files | {p:.2f} | {m:.2f} | {m - p:+.2f} s | |")
    for name in rows:
        print(name, "trials:", [(round(r[0]["LONG_S"], 3), round(r[0]["SHORT_S"], 3)) for r in rows[name]])


if __name__ == "__main__":
    main()
