"""Measures what a Keras model's first `fit`, `evaluate` and `predict` cost per layer on this CPU (issue 27).

A model's first call of each kind traces its step into a graph (the forward pass; for `fit` also the
gradients and the optimizer's slot variables), once per layer; a later call of the same kind reuses
the graph. For the MLPs and CNNs of `layer_overhead` (2 to 20 layers), each built fresh after a
throw-away model has warmed TensorFlow up, this times the first call on one batch and a second
identical call: the difference is the first call's set-up. The per-layer set-up of a kind of call
is the least-squares slope of that difference on the layer count, in process CPU time (one intra-op
and one inter-op thread, so a loaded machine does not inflate it), the median over `--repeats` fresh
builds.

    python -m tools.model.first_call [--repeats 3] > data/model/first_call.json

Needs TensorFlow (the `meter` extra); it builds its own synthetic models and runs no analysed code.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from greenlint.paths import DATA_DIR
from tools.model.layer_overhead import BATCH, CNN_DEPTHS, MLP_DEPTHS, _cnn, _mlp, _slope

METHODS = ("fit", "evaluate", "predict")
#: The methods each time group's calls are (work_energy.TIME_GROUPS).
GROUP_METHODS = {"training": ("fit",), "inference": ("evaluate", "predict")}
MEASURED = DATA_DIR / "model" / "first_call.json"


def per_layer_start(path=MEASURED) -> dict[str, float]:
    """Seconds of start-up per layer for each time group (work_fit.fit_time_models): the mean over
    the group's methods and the kinds of layer measured (the features count layers, not their kinds)."""
    kinds = json.loads(path.read_text())["kinds"].values()
    return {group: statistics.fmean(max(k[f"{m}_per_layer_cpu_s"], 0.0) for k in kinds for m in methods)
            for group, methods in GROUP_METHODS.items()}


def _cpu(call) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def _set_up(tf, build, depth: int) -> tuple[int, dict[str, float]]:
    """(layers, seconds of CPU the first call of each method costs over a second one) of a fresh model."""
    model, x, y, layers, _ = build(tf, depth)
    model.compile(optimizer="adam", loss="mse")
    calls = {"fit": lambda: model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0),
             "evaluate": lambda: model.evaluate(x, y, batch_size=BATCH, verbose=0),
             "predict": lambda: model.predict(x, batch_size=BATCH, verbose=0)}
    return layers, {m: _cpu(call) - _cpu(call) for m, call in calls.items()}


def measure(repeats: int) -> dict:
    import tensorflow as tf

    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.random.set_seed(0)
    _set_up(tf, _mlp, 2)  # TensorFlow's own first-use costs, paid once per process: not a layer's
    out: dict = {"batch": BATCH, "repeats": repeats, "tensorflow": tf.__version__, "kinds": {}}
    for kind, build, depths in (("dense", _mlp, MLP_DEPTHS), ("conv", _cnn, CNN_DEPTHS)):
        runs = {d: [_set_up(tf, build, d) for _ in range(repeats)] for d in depths}
        rows = [{"depth": d, "layers": r[0][0],
                 **{f"{m}_cpu_s": round(statistics.median(s[m] for _, s in r), 4) for m in METHODS}}
                for d, r in runs.items()]
        out["kinds"][kind] = {"models": rows, **{f"{m}_per_layer_cpu_s": round(_slope(
            [(int(r["layers"]), r[f"{m}_cpu_s"]) for r in rows]), 5) for m in METHODS}}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(measure(args.repeats), indent=1))


if __name__ == "__main__":
    main()
