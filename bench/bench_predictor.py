"""Predictor benchmark: load time of the shipped model and time per predicted call site.

    python bench/bench_predictor.py [--repeat N] [--no-write]

Each measurement is a fresh interpreter: `import greenlint.predict`, `load_predictor()` (read and
parse data/model/predictor.json), the search for this machine's calibration overlay (its
hardware id) timed on its own, then predictions for call sites whose API was measured (a table
lookup) and for APIs never measured (the fallback chain, which loads the catalog once). Goals:
load well under a second (< 500 ms here) and under a millisecond per call site.
The median of N runs is rewritten into the "Predictor" section of docs/benchmarks.md.
"""

from __future__ import annotations

import statistics
import sys

from report import REPO, machine, probe, repeat_main, today, versions

GOAL_LOAD_S = 0.5  # "well under a second"
GOAL_CALL_S = 1e-3
_PROBE = """
import json, sys, time
t0 = time.perf_counter()
from greenlint.predict import load_predictor
t1 = time.perf_counter()
p = load_predictor(overlay=False)
t2 = time.perf_counter()
from greenlint.hardware import calibration_overlay
from greenlint.paths import calibration_dir
t2a = time.perf_counter()
calibration_overlay(calibration_dir())
t2b = time.perf_counter()
seen = sorted(p.model["apis"])
unseen = [f"tensorflow.keras.layers.Made{i}Up" for i in range(200)] + [f"tensorflow.math.op{i}" for i in range(200)]
feats = [{}, {"epochs": 20}, {"batch_size": 32, "units": 64}, {"tensor_bytes": 4_000_000}]
t5 = time.perf_counter()
p.predict(unseen[0], {})
t6 = time.perf_counter()
n = 5000
t3 = time.perf_counter()
for i in range(n):
    p.predict(seen[i % len(seen)], feats[i % len(feats)])
t4 = time.perf_counter()
t6b = time.perf_counter()
for name in unseen[1:]:
    p.predict(name, {})
t7 = time.perf_counter()
heavy = sorted({m.split('.')[0] for m in sys.modules} & {"tensorflow", "keras", "numpy", "pandas", "sklearn", "scipy", "libcst"})
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "overlay": t2b - t2a, "seen": (t4 - t3) / n, "first_unseen": t6 - t5,
                  "unseen": (t7 - t6b) / (len(unseen) - 1), "apis": len(seen), "heavy": heavy}))
"""


def run(repeat: int) -> dict:
    runs = [probe(_PROBE) for _ in range(repeat)]
    result = {k: statistics.median(r[k] for r in runs) for k in ("import", "load", "overlay", "seen", "first_unseen", "unseen")}
    result["ready"] = statistics.median(r["import"] + r["load"] + r["overlay"] for r in runs)
    result["apis"] = runs[0]["apis"]
    result["heavy"] = runs[0]["heavy"]
    return result


def markdown(r: dict, repeat: int) -> str:
    path = REPO / "data" / "model" / "predictor.json"
    worst_call = max(r["seen"], r["unseen"])
    load_met = "met" if r["ready"] < GOAL_LOAD_S else "**missed**"
    call_met = "met" if worst_call < GOAL_CALL_S else "**missed**"
    return "\n".join(
        [
            f"Measured {today()} by `python bench/bench_predictor.py` on {machine()}; {versions()}. "
            f"Median of {repeat} fresh interpreters.",
            "",
            f"Model: `data/model/predictor.json`, {path.stat().st_size / 1024:.0f} KiB JSON, {r['apis']} APIs.",
            "",
            "| step | time (ms) |",
            "|---|---:|",
            f"| `from greenlint.predict import load_predictor` | {1000 * r['import']:.1f} |",
            f"| `load_predictor(overlay=False)` (read + parse the model) | {1000 * r['load']:.1f} |",
            f"| finding this machine's calibration overlay (hardware id; none here) | {1000 * r['overlay']:.1f} |",
            f"| **ready** (sum: what `load_predictor()` costs) | **{1000 * r['ready']:.1f}** |",
            f"| one `predict()` of a measured API (mixed features) | {1000 * r['seen']:.4f} |",
            f"| first `predict()` of an unmeasured API (loads the catalog) | {1000 * r['first_unseen']:.1f} |",
            f"| one `predict()` of an unmeasured API afterwards (fallback chain) | {1000 * r['unseen']:.4f} |",
            "",
            f"Goal ready < {1000 * GOAL_LOAD_S:.0f} ms: {load_met}. Goal < 1 ms per call site: {call_met} "
            f"(worst {1000 * worst_call:.3f} ms). Heavy modules imported: {', '.join(r['heavy']) or 'none'}.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    return repeat_main("Predictor", run, markdown, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
