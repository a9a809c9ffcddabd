"""Catalog load benchmark: how long the linter takes to get the TF/Keras catalog ready.

    python bench/bench_catalog_load.py [--repeat N] [--no-write]

Each measurement is a fresh interpreter: import of greenlint.catalog, `load_catalog()` (read and
parse data/catalog/catalog.json.gz), the first `canonical()` (builds the alias index lazily), and
then the cost per `canonical()` call on raw measured-style signatures. Goal: ready in < 0.3 s.
The median of N runs is rewritten into the "Catalog load" section of docs/benchmarks.md.
"""

from __future__ import annotations

import statistics
import sys

from report import REPO, machine, probe, repeat_main, today, versions

GOAL_S = 0.3
_PROBE = """
import json, sys, time
t0 = time.perf_counter()
from greenlint.catalog.catalog import load_catalog
t1 = time.perf_counter()
cat = load_catalog()
t2 = time.perf_counter()
cat.canonical("keras.models.Sequential.fit")
t3 = time.perf_counter()
templates = [
    "tensorflow.data.Dataset.from_tensor_slices((x{i}, y)).shuffle(10).batch()",
    "tensorflow.keras.layers.Dense({i}, activation='softmax')()",
    "tf.keras.models.Sequential.fit({i})", "tensorflow.compat.v1.estimator.DNNClassifier({i}).train()",
    "tensorflow.reduce_mean({i})", "keras.layers.core.Dense({i})", "numpy.array({i})",
]
n = 2000
names = [templates[i % len(templates)].format(i=i) for i in range(n)]  # all distinct: no memo hits
t4 = time.perf_counter()
for name in names:
    cat.canonical(name)
t5 = time.perf_counter()
heavy = sorted({m.split('.')[0] for m in sys.modules} & {"tensorflow", "keras", "pandas", "sklearn", "libcst"})
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "index": t3 - t2, "per_call": (t5 - t4) / n,
                  "symbols": len(cat), "heavy": heavy}))
"""


def run(repeat: int) -> dict:
    runs = [probe(_PROBE) for _ in range(repeat)]
    result = {key: statistics.median(r[key] for r in runs) for key in ("import", "load", "index", "per_call")}
    result["ready"] = statistics.median(r["import"] + r["load"] + r["index"] for r in runs)
    result["symbols"] = runs[0]["symbols"]
    result["heavy"] = runs[0]["heavy"]
    return result


def markdown(r: dict, repeat: int) -> str:
    path = REPO / "data" / "catalog" / "catalog.json.gz"
    import gzip

    raw = len(gzip.decompress(path.read_bytes()))
    met = "met" if r["ready"] < GOAL_S else "**missed**"
    return "\n".join(
        [
            f"Measured {today()} by `python bench/bench_catalog_load.py` on {machine()}; {versions()}. "
            f"Median of {repeat} fresh interpreters.",
            "",
            f"Catalog: {r['symbols']} symbols, {path.stat().st_size / 1024:.0f} KiB gzip "
            f"({raw / 1024:.0f} KiB JSON).",
            "",
            "| step | time (ms) |",
            "|---|---:|",
            f"| `from greenlint.catalog.catalog import load_catalog` | {1000 * r['import']:.1f} |",
            f"| `load_catalog()` (read + parse) | {1000 * r['load']:.1f} |",
            f"| first `canonical()` (builds alias index) | {1000 * r['index']:.1f} |",
            f"| **ready** (sum) | **{1000 * r['ready']:.1f}** |",
            f"| one `canonical()` of a new raw signature afterwards (mixed kinds) | {1000 * r['per_call']:.3f} |",
            "",
            f"Goal ready < {1000 * GOAL_S:.0f} ms: {met}. Heavy modules imported: {', '.join(r['heavy']) or 'none'}.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    return repeat_main("Catalog load", run, markdown, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
