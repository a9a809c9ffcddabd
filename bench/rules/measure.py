"""Measure one bench program in this (fresh) interpreter: `python bench/rules/measure.py PROGRAM REPEATS`.

The program is one of bench/rules/<CODE>/before.py or after.py: importing it does the setup
(build models, write files), its `run()` is the measured work. One warm-up `run()`, then REPEATS
timed ones, each read from greenlint's meter sources (RAPL or perf where readable, else the
process-CPU-time estimate) before and after. Prints one JSON object.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def main(path: str, repeats: int) -> dict:
    from greenlint.meter.counters import build_sources

    sources = build_sources()
    spec = importlib.util.spec_from_file_location("bench_program", path)
    program = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(program)
    program.run()  # warm-up: first-call costs (tracing, file caches) are not what the pair compares
    times, joules = [], []
    for _ in range(repeats):
        before = sources.read()
        t0 = time.perf_counter()
        program.run()
        t1 = time.perf_counter()
        after = sources.read()
        times.append(t1 - t0)
        joules.append(sum(after.energy_j.get(c, 0.0) - before.energy_j.get(c, 0.0) for c in after.energy_j))
    described = sources.describe()
    sources.close()
    return {
        "time_s": times,
        "energy_j": joules,
        "basis": described["basis"],
        "components": sorted(c for c, d in described["components"].items() if d["measured_by"]),
    }


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    result = main(sys.argv[1], int(sys.argv[2]))
    print("RESULT " + json.dumps(result))
