"""The layer tables of GAISSA's architectures (greenlint/predict/training_runs.py `ArchSpec`):
their layers, the layers that do FLOPs, and the bytes their memory-bound passes move.

    python -m tools.model.layer_traffic   (needs TensorFlow; builds each model with `weights=None`, nothing downloaded)

Each keras.applications architecture is built without its top at GAISSA's 128x128 input. A dense
convolution or matrix product (`COMPUTE_BOUND`) does many FLOPs per byte: its time is its FLOPs'.
Every other layer that runs a kernel (batch normalisation, activations, additions,
concatenations, padding, pooling, depthwise convolutions) does a few FLOPs per byte: it reads its
inputs and writes its output, float32 (4 bytes an element), and its time is those bytes' at the
memory bandwidth. A `SeparableConv2D` is both: its depthwise step moves its input and the
intermediate (output rows x columns x input channels x depth multiplier), its pointwise step is a
dense 1x1 convolution. A layer's own bias add and activation (`use_bias`, an `activation` other
than linear: VGG16's convolutions, ResNet50's biases) are elementwise passes of their own after its
kernel, each reading and writing its whole output (`epilogue_passes`): bytes, not FLOPs. Layers that only re-label a tensor (`VIEWS`) move nothing. FLOP layers: the
layers that launch a FLOP kernel (dense and depthwise convolutions, matrix products), each of which
must fill the GPU. Prints name, layers, FLOP layers and forward MB per sample.
"""

from __future__ import annotations

import math

from greenlint.predict.training_runs import KERAS_APPLICATIONS, REFERENCE_HW

#: Layers whose kernels are dense convolutions or matrix products.
COMPUTE_BOUND = frozenset({"Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Dense"})
#: Layers that launch a FLOP kernel: the compute-bound ones and the depthwise convolutions.
FLOP_LAYERS = COMPUTE_BOUND | {"DepthwiseConv2D", "SeparableConv2D"}
#: Layers that move no data (a new shape or name for the same buffer).
VIEWS = frozenset({"InputLayer", "Reshape", "Flatten"})


def _elements(tensors) -> int:
    """Elements per sample of a tensor or a list of them."""
    if isinstance(tensors, (list, tuple)):
        return sum(_elements(t) for t in tensors)
    return math.prod(tensors.shape[1:])


def epilogue_passes(layer) -> int:
    """The elementwise passes a FLOP layer runs over its output after its kernel: its bias add
    (`use_bias`) and its activation (any but linear). An `Activation` layer is a memory-bound
    layer of its own (`layer_traffic`), not an epilogue."""
    activation = getattr(layer, "activation", None)
    return bool(getattr(layer, "use_bias", False)) + (activation is not None and activation.__name__ != "linear")


def layer_traffic(model) -> tuple[int, int, float]:
    """(layers, FLOP layers, forward bytes per sample of its memory-bound passes) of a built Keras model."""
    flop_layers, moved = 0, 0.0
    for layer in model.layers:
        kind = type(layer).__name__
        flop_layers += kind in FLOP_LAYERS
        if kind in FLOP_LAYERS:
            moved += 4.0 * 2 * _elements(layer.output) * epilogue_passes(layer)
        if kind in COMPUTE_BOUND or kind in VIEWS:
            continue
        if kind == "SeparableConv2D":
            rows, cols = layer.output.shape[1:3]
            out = rows * cols * layer.input.shape[-1] * layer.depth_multiplier
        else:
            out = _elements(layer.output)
        moved += 4.0 * (_elements(layer.input) + out)
    return len(model.layers), flop_layers, moved


def main() -> int:
    import tensorflow as tf

    for spec in KERAS_APPLICATIONS:
        model = getattr(tf.keras.applications, spec.name)(weights=None, include_top=False,
                                                          input_shape=(*REFERENCE_HW, 3))
        layers, flop_layers, moved = layer_traffic(model)
        print(f"{spec.name}: {layers} layers, {flop_layers} FLOP layers, {moved / 1e6:.8g} MB per sample "
              f"(tensorflow {tf.__version__})", flush=True)
        tf.keras.backend.clear_session()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
