"""Regenerate data/work/keras_applications.csv: each Keras Application's parameters and FLOPs.

    python -m tools.applications   (needs TensorFlow: the meter extra)

Each application in `tf.keras.applications` is built with `weights=None` at its default input
size with its top (`include_top=True`, 1000 classes); `params` is `count_params()` and
`flops_per_sample` the float operations TensorFlow's profiler counts in the graph of one forward
pass at batch size 1 (a multiply-add counts 2, as in greenlint/analysis/layers.py);
`feature_shape` is the output per sample of the same network built without its top
(`include_top=False`, `pooling=None`) at that input: its last feature map. Nothing is
downloaded. The base install only reads the CSV (greenlint/analysis/worktables.py).
"""

from __future__ import annotations

import csv
import io
import sys

from greenlint.atomic import atomic_write_text
from tools import DATA_DIR

OUT = DATA_DIR / "work" / "keras_applications.csv"
FIELDS = ("name", "params", "flops_per_sample", "input_shape", "feature_shape", "source")
#: For applications that accept any image size: the size their ImageNet weights were trained at.
DEFAULT_SHAPE = (224, 224, 3)


def _flops(tf, model, shape) -> int:
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    fn = tf.function(lambda x: model(x, training=False))
    concrete = fn.get_concrete_function(tf.TensorSpec([1, *shape], tf.float32))
    frozen = convert_variables_to_constants_v2(concrete)
    opts = tf.compat.v1.profiler.ProfileOptionBuilder.float_operation()
    opts["output"] = "none"
    info = tf.compat.v1.profiler.profile(graph=frozen.graph, run_meta=tf.compat.v1.RunMetadata(), cmd="op", options=opts)
    return int(info.total_float_ops)


def rows(names: list[str] | None = None):
    """Yield one row per application (all of them, or *names* in that order)."""
    import tensorflow as tf

    apps = tf.keras.applications
    every = sorted(n for n, b in vars(apps).items() if n[:1].isupper() and callable(b))
    for name in names or every:
        if name not in every:
            raise SystemExit(f"not a Keras Application: {name}")
        model = getattr(apps, name)(weights=None)
        given = ""
        if None in model.input_shape[1:]:  # any size accepted (MobileNetV3): its weights' 224x224
            tf.keras.backend.clear_session()
            model = getattr(apps, name)(weights=None, input_shape=DEFAULT_SHAPE)
            given = f"input_shape={DEFAULT_SHAPE}, "
        shape = tuple(int(d) for d in model.input_shape[1:])
        row = {
            "name": name,
            "params": model.count_params(),
            "flops_per_sample": _flops(tf, model, shape),
            "input_shape": "x".join(map(str, shape)),
            "source": f"tensorflow {tf.__version__} keras.applications.{name}({given}weights=None): count_params(); "
                      "TF profiler float_operation, batch 1",
        }
        tf.keras.backend.clear_session()
        features = getattr(apps, name)(weights=None, include_top=False, input_shape=shape)
        row["feature_shape"] = "x".join(str(int(d)) for d in features.output_shape[1:])
        tf.keras.backend.clear_session()
        yield row


def _write(table: dict[str, dict]) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(table[name] for name in sorted(table))
    atomic_write_text(OUT, out.getvalue())


def main() -> None:
    """All applications, or only those named (`... tools.applications ResNet50 VGG16`), whose rows
    replace theirs in the table; the table is rewritten after each model, so an interrupted run
    keeps what it measured."""
    names = sys.argv[1:]
    table = {}
    if names and OUT.exists():
        with open(OUT, encoding="utf-8", newline="") as handle:
            table = {row["name"]: row for row in csv.DictReader(handle)}
    for row in rows(names or None):
        table[row["name"]] = row
        _write(table)
        print(row["name"], row["params"], row["flops_per_sample"], file=sys.stderr, flush=True)
    print(f"wrote {OUT} ({len(table)} applications)")


if __name__ == "__main__":
    main()
