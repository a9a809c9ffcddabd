"""The depthwise MB per sample of GAISSA's architectures (greenlint/predict/training_runs.py `ArchSpec.depthwise_mb`).

    python -m tools.model.depthwise   (needs TensorFlow; builds each model with `weights=None`, nothing downloaded)

Each keras.applications architecture is built without its top at GAISSA's 128x128 input; every
`DepthwiseConv2D` and `SeparableConv2D` layer's depthwise step reads its input and writes its
output (for a separable convolution, the intermediate before the pointwise step: output rows x
columns x input channels x depth multiplier), float32: 4 bytes an element. The pointwise step is a
dense 1x1 convolution, priced by its FLOPs like any other. Prints name, layers, depthwise layers,
MB per sample and the depthwise FLOPs per sample (2 x kernel area x output elements).
"""

from __future__ import annotations

import math

from greenlint.predict.training_runs import KERAS_APPLICATIONS, REFERENCE_HW

_DEPTHWISE = ("DepthwiseConv2D", "SeparableConv2D")


def depthwise_traffic(model) -> tuple[int, float, float]:
    """(depthwise layers, forward bytes per sample, forward FLOPs per sample) of a built Keras model."""
    count, moved, flops = 0, 0.0, 0.0
    for layer in model.layers:
        kind = type(layer).__name__
        if kind not in _DEPTHWISE:
            continue
        inputs = math.prod(layer.input.shape[1:])
        if kind == "DepthwiseConv2D":
            outputs = math.prod(layer.output.shape[1:])
        else:
            rows, cols = layer.output.shape[1:3]
            outputs = rows * cols * layer.input.shape[-1] * layer.depth_multiplier
        count += 1
        moved += 4.0 * (inputs + outputs)
        flops += 2.0 * math.prod(layer.kernel_size) * outputs
    return count, moved, flops


def main() -> int:
    import tensorflow as tf

    for spec in KERAS_APPLICATIONS:
        model = getattr(tf.keras.applications, spec.name)(weights=None, include_top=False,
                                                          input_shape=(*REFERENCE_HW, 3))
        count, moved, flops = depthwise_traffic(model)
        print(f"{spec.name}: {len(model.layers)} layers, {count} depthwise, {moved / 1e6:.8g} MB, "
              f"{flops:.4g} FLOPs per sample (tensorflow {tf.__version__})", flush=True)
        tf.keras.backend.clear_session()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
