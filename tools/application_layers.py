"""Regenerate data/work/keras_application_layers.csv: each layer of some Keras Applications, with the
parameters and FLOPs of the network from the model's input up to that layer's output.

    python -m tools.application_layers [NAME ...]   (needs TensorFlow; default: LAYERED)

A model cut at a layer (`keras.Model(vgg.input, vgg.get_layer("block3_conv3").output)`, a perceptual
loss) runs only what feeds that layer. Each application is built as `tools/applications.py` builds it
(`weights=None`, with its top, at its default input), and for each layer `i` of `model.layers` the
sub-model `keras.Model(model.input, model.layers[i].output)` is counted: `count_params()` and the TF
profiler's float operations at batch 1 (`tools.applications._flops`). One profile per layer, so the
default list holds the chains commonly cut (VGG); others are added by name. Nothing is downloaded.
"""

from __future__ import annotations

import csv
import io
import sys

from greenlint.atomic import atomic_write_text
from tools import DATA_DIR
from tools.applications import _flops

OUT = DATA_DIR / "work" / "keras_application_layers.csv"
FIELDS = ("name", "index", "layer", "output_shape", "params", "flops_per_sample", "source")
#: The applications tabled by default: the backbones programs cut for perceptual or style losses.
LAYERED = ("VGG16", "VGG19")


def rows(name: str):
    """Yield one row per layer of application *name*."""
    import tensorflow as tf

    model = getattr(tf.keras.applications, name)(weights=None)
    shape = tuple(int(d) for d in model.input_shape[1:])
    source = (f"tensorflow {tf.__version__} keras.applications.{name}(weights=None): Model(model.input, "
              "model.layers[index].output): count_params(); TF profiler float_operation, batch 1")
    for index, layer in enumerate(model.layers):
        cut = tf.keras.Model(model.input, layer.output)
        out = layer.output.shape[1:]
        yield {
            "name": name,
            "index": index,
            "layer": layer.name,
            "output_shape": "x".join(str(int(d)) for d in out),
            "params": cut.count_params(),
            "flops_per_sample": _flops(tf, cut, shape) if index else 0,
            "source": source,
        }
    tf.keras.backend.clear_session()


def main() -> None:
    """The applications named (default LAYERED), whose rows replace theirs in the table."""
    names = sys.argv[1:] or list(LAYERED)
    table: dict[str, list[dict]] = {}
    if OUT.exists():
        with open(OUT, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                table.setdefault(row["name"], []).append(row)
    for name in names:
        table[name] = list(rows(name))
        print(name, len(table[name]), "layers", file=sys.stderr, flush=True)
    out = io.StringIO()
    writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
    writer.writeheader()
    for name in sorted(table):
        writer.writerows(table[name])
    atomic_write_text(OUT, out.getvalue())
    print(f"wrote {OUT} ({len(table)} applications)")


if __name__ == "__main__":
    main()
