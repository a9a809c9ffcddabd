"""Common layer calls (eager `layer(x)`, i.e. `<Layer>.__call__`)."""

from __future__ import annotations

from greenlint.meter.workloads import Call, Workload


def _layer_call(make_layer, shape, dtype="float32"):
    def setup() -> Call:
        import numpy as np
        import tensorflow as tf

        rng = np.random.default_rng(0)
        if dtype == "int32":
            x = tf.constant(rng.integers(0, 1000, shape), dtype="int32")
        else:
            x = tf.constant(rng.random(shape, dtype="float32"))
        layer = make_layer(tf)
        layer(x)  # build the weights outside the measured call
        return Call(layer, (x,))

    return setup


def _dense_constructor() -> Call:
    """A call that does no tensor work: a layer's constructor (Python objects, no weights yet)."""
    import tensorflow as tf

    return Call(tf.keras.layers.Dense, (64,))


def workloads() -> list[Workload]:
    k = "tensorflow.keras.layers"
    return [
        Workload("dense_constructor", f"{k}.Dense", _dense_constructor, quick=True, features={"units": 64}),
        Workload("dense_call", f"{k}.Dense.__call__", _layer_call(lambda tf: tf.keras.layers.Dense(256), (256, 256)),
                 quick=True, features={"units": 256, "batch": 256}),
        Workload("conv2d_call", f"{k}.Conv2D.__call__",
                 _layer_call(lambda tf: tf.keras.layers.Conv2D(16, 3), (32, 32, 32, 3)),
                 quick=True, features={"filters": 16, "kernel_size": 3, "batch": 32}),
        Workload("lstm_call", f"{k}.LSTM.__call__", _layer_call(lambda tf: tf.keras.layers.LSTM(32), (32, 20, 16)),
                 features={"units": 32, "batch": 32}),
        Workload("embedding_call", f"{k}.Embedding.__call__",
                 _layer_call(lambda tf: tf.keras.layers.Embedding(1000, 64), (64, 100), "int32"),
                 features={"input_dim": 1000, "output_dim": 64}),
    ]
