"""Tensor operations on synthetic tensors. Those with `flops` in their features (two matmul sizes, a
reduction, a convolution: ~10^6 to 10^9 FLOPs) fit this machine's op model, a dispatch cost plus a
cost per FLOP (greenlint.predict.local_work)."""

from __future__ import annotations

from greenlint.meter.workloads import Call, Workload


def _tensor(shape):
    import numpy as np
    import tensorflow as tf

    return tf.constant(np.random.default_rng(0).random(shape, dtype="float32"))


def _matmul(n: int):
    def setup() -> Call:
        import tensorflow as tf

        a = _tensor((n, n))
        return Call(tf.matmul, (a, a))

    return setup


def _reduce_sum() -> Call:
    import tensorflow as tf

    return Call(tf.reduce_sum, (_tensor((1024, 1024)),))


def _random_normal() -> Call:
    import tensorflow as tf

    return Call(tf.random.normal, ((512, 512),))


def _conv2d() -> Call:
    import tensorflow as tf

    return Call(tf.nn.conv2d, (_tensor((16, 64, 64, 3)), _tensor((3, 3, 3, 16))), {"strides": 1, "padding": "SAME"})


def workloads() -> list[Workload]:
    return [
        Workload("matmul_256", "tensorflow.matmul", _matmul(256), quick=True,
                 features={"n": 256, "elements": 256**2, "flops": 2 * 256**3}, sweep="ops"),
        Workload("matmul_1024", "tensorflow.matmul", _matmul(1024), quick=True,
                 features={"n": 1024, "elements": 1024**2, "flops": 2 * 1024**3}, sweep="ops"),
        Workload("reduce_sum", "tensorflow.reduce_sum", _reduce_sum, quick=True, features={"elements": 1, "flops": 1 << 20},
                 sweep="ops"),
        Workload("random_normal", "tensorflow.random.normal", _random_normal, quick=True, features={"elements": 1 << 18}),
        Workload("nn_conv2d", "tensorflow.nn.conv2d", _conv2d, quick=True,
                 features={"batch": 16, "filters": 16, "flops": 2 * 16 * 64 * 64 * 16 * 3 * 3 * 3}, sweep="ops"),
    ]
