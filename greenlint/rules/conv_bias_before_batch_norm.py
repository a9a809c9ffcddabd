"""GL504 conv-bias-before-batch-norm: a convolution's bias that the `BatchNormalization` right after it cancels."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.trees import dotted
from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid, binds, keyword
from greenlint.rules.beside import LOADED_BY_NAME, beside_mentions
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.helper_layers import (
    BIAS_ADD,
    LAYER_CONVOLUTIONS,
    Bias,
    batch_normalised,
    bias_added,
    biased_helper,
    keeps_bias,
    normalising,
    stacked_bias,
    stacks_batch_norm,
)
from greenlint.rules.site import Site
from greenlint.rules.syntax import enclosing, uncalled

LAYERS = "tensorflow.keras.layers."
CONVOLUTIONS = frozenset(
    LAYERS + name
    for name in (
        "Conv1D",
        "Conv2D",
        "Conv3D",
        "Conv1DTranspose",
        "Conv2DTranspose",
        "Conv3DTranspose",
        "SeparableConv1D",
        "SeparableConv2D",
        "DepthwiseConv1D",
        "DepthwiseConv2D",
    )
)
DENSE = LAYERS + "Dense"
BATCH_NORM = LAYERS + "BatchNormalization"
#: Arguments a layer takes by position before `activation`: a call with more is not read.
POSITIONAL = {DENSE: 1}
#: What a script's text holds where it may apply a normalization helper (read before its tree is indexed).
NORMALIZATION_TEXT = re.compile(r"batch_?norm|\bbn", re.IGNORECASE)


_TF1_CONV = (
    "import tensorflow as tf\n\n\ndef conv2d(x, n, name='conv2d'):\n"
    "    with tf.compat.v1.variable_scope(name):\n"
    "        w = tf.compat.v1.get_variable('w', [5, 5, x.get_shape()[-1], n])\n"
    "        conv = tf.nn.conv2d(x, w, strides=[1, 2, 2, 1], padding='SAME'{fmt})\n"
    "        b = tf.compat.v1.get_variable('biases', [n])\n"
    "{bias}"
    "        return conv\n\n\n"
)
_BIAS = "        conv = tf.reshape(tf.nn.bias_add(conv, b{fmt}), conv.get_shape())\n"
_TF1_NORM = (
    "class batch_norm(object):\n    def __init__(self, name='bn'):\n        self.name = name\n\n"
    "    def __call__(self, x, train=True):\n"
    "        return tf.contrib.layers.batch_norm(x, decay=0.9, scale=True, is_training=train, scope=self.name{norm})\n\n\n"
    "class Discriminator:\n    def __init__(self):\n        self.d_bn1 = batch_norm(name='d_bn1')\n\n"
    "    def __call__(self, h0):\n        return tf.nn.leaky_relu(self.d_bn1(conv2d(h0, 128)))\n"
)


#: pix2pix's generator: a convolution helper whose two paths keep their default bias, a normalization
#: helper over axis 3, the helper's output bound to a name that the next statement normalises.
_PIX2PIX = (
    "import tensorflow as tf\n\n\ndef gen_conv(x, n):\n    init = tf.random_normal_initializer(0, 0.02)\n"
    "    if separable:\n        return tf.layers.separable_conv2d(x, n, 4, (2, 2), 'same', depthwise_initializer=init)\n"
    "    else:\n        return tf.layers.conv2d(x, n, kernel_size=4, strides=(2, 2), padding='same')\n\n\n"
    "def batchnorm(inputs):\n    return tf.layers.batch_normalization(inputs, axis=3, epsilon=1e-5, training=True)\n\n\n"
    "for n in (128, 256, 512):\n    convolved = gen_conv(layers[-1], n)\n    {second}\n    layers.append(output)\n"
)


#: A TensorFlow 1 block written inline: a convolution, then what the next statement does with it.
_INLINE = (
    "import tensorflow as tf\n\n\ndef block(x, w, b, training):\n    h = {conv}\n    {then}\n    return tf.nn.relu(h)\n"
)
_LAYERS_BN = "h = tf.compat.v1.layers.batch_normalization(h, training=training{norm})"


#: A network builder (srez's shape): each method stacks its layer's output on `self.outputs`.
_BUILDER = (
    "import tensorflow as tf\n\n\nclass Net:\n    def __init__(self, x):\n        self.outputs = [x]\n\n"
    "    def get_output(self):\n        return self.outputs[-1]\n\n"
    "    def add_conv2d(self, n):\n        with tf.compat.v1.variable_scope('conv'):\n"
    "            w = tf.compat.v1.get_variable('w', [3, 3, 64, n])\n"
    "            out = tf.nn.conv2d(self.get_output(), w, strides=[1, 1, 1, 1], padding='SAME')\n"
    "{bias}"
    "        self.outputs.append(out)\n        return self\n\n"
    "    def add_batch_norm(self):\n"
    "        self.outputs.append(tf.contrib.layers.batch_norm(self.get_output(){norm}))\n        return self\n\n"
    "    def add_relu(self):\n        self.outputs.append(tf.nn.relu(self.get_output()))\n        return self\n\n\n"
    "model = Net(images)\n{build}\n"
)
_STACKED_BIAS = "            b = tf.compat.v1.get_variable('b', [n])\n            out = tf.nn.bias_add(out, b)\n"


def _builder(build: str, bias: str = _STACKED_BIAS, norm: str = "") -> str:
    return _BUILDER.format(bias=bias, norm=norm, build=build)


def _tf1(bias: str = _BIAS, fmt: str = "", norm: str = "") -> str:
    """A TensorFlow 1 DCGAN's helpers: a convolution with its bias, a class around a batch normalization."""
    return _TF1_CONV.format(fmt=fmt, bias=bias.format(fmt=fmt)) + _TF1_NORM.format(norm=norm)


class ConvBiasBeforeBatchNorm(Rule):
    """
    ## What it does
    Flags a Keras convolution layer (`Conv1D`/`2D`/`3D`, their `Transpose`, `Separable` and
    `Depthwise` forms) built with `use_bias=True` (its default, or given), no activation and the
    channels-last layout, whose output goes straight into a `BatchNormalization` over the
    channels (its default axis), and a `Dense` layer with a bias and no activation whose output
    goes straight into one over its last axis (the units; `axis=-1`, the default): the next element of a layer list (`Sequential([...])`, or a
    tuple of layers composed in order), the next `model.add(...)`, or the functional call right
    after it (`x = Conv2D(...)(x)` then `x = BatchNormalization()(x)`, or the two nested). The
    arguments are the analysis' values: a layout or a flag given by a name bound to a literal (a
    module constant, one imported from another module of the project) counts as that literal,
    and one it cannot tell (a command-line flag) is not reported. Layers bound to names count
    where they are used: `conv = Conv2D(...)` and `bn = BatchNormalization()` then
    `x = conv(x)` and `x = bn(x)`, when every use of the convolution's name feeds a normalization
    this way (a layer shared with another use, or a name bound twice, is not reported).

    Also the layers a project writes itself, as TensorFlow 1 code does (DCGANs, pix2pix): a call
    of a function of the file, or of a project module it imports, that returns a convolution plus
    its bias (`tf.nn.conv2d` then `tf.nn.bias_add`, maybe reshaped, in its straight-line code; or,
    on every path, a `tf.layers` convolution that keeps its default bias and adds no activation),
    given straight to a project normalization helper (`self.d_bn1(conv2d(h0, 128))`, or
    `h = conv(x)` then `y = batchnorm(h)` in the next statement, where no other read of the name
    can see that `h`): a function that returns `tf.compat.v1.layers.batch_normalization` or
    `tf.contrib.layers.batch_norm` of its first parameter, or an instance of a class whose
    `__call__` does, the one value its class assigns to that attribute of `self`; over the
    channels of a channels-last output, as both default to (`axis=-1`, or the last axis by
    number: `axis=3` after a `conv2d`). That finding is on the helper's name and carries no fix:
    the helper, which other calls may share, is where the bias goes. The same written inline: a
    `tf.compat.v1.layers` convolution that keeps its default bias (fixed with `use_bias=False`), or
    a `tf.nn.bias_add` of a `tf.nn` convolution (given to it, or bound to its input by the
    statement before; no fix: the bias's variable goes too), given straight to TensorFlow 1's
    batch normalization or to a project normalization helper. And a network builder's layers (a
    project class whose methods stack each layer's output on a list of `self`, as srez's `Model`):
    `model.add_conv2d(64)` then `model.add_batch_norm()` on the same builder (the next statement,
    or chained), where the one method of the first name appends, on its straight-line path, a
    `tf.nn.bias_add` of a `tf.nn` convolution, and the second a batch normalization of the list's
    last output (`self.outputs[-1]`, or a method returning it); on the method's name, no fix.

    Not reported either:

    - a convolution given a `name=` in a project that loads weights by layer name
      (`load_weights(path, by_name=True)` in the file or a Python module beside it, as
      `inference.py` beside `model.py`): its variables must match a file saved from a layer of
      that name, often a released checkpoint, and a layer without its bias no longer loads
      (or is skipped, with `skip_mismatch=True`, and keeps its random weights);
    - a normalization built with `trainable=False` (frozen): it subtracts fixed statistics and
      adds a fixed offset, so the convolution's bias is the block's only trainable shift;
    - a normalization built with `center=False`: it still subtracts the bias, but has no offset
      `beta` to play its role, so the advice (drop the bias, the offset takes over) does not fit;
      the block's missing shift is a modelling choice to read, not a saving;
    - slim's and `tf.contrib.layers`' convolutions given `normalizer_fn=`: they drop their bias
      themselves;
    - a project helper whose bias depends on a condition or an argument (`if use_bias:`, a path
      returning a layer without it), meets an activation before it is returned, or is followed by
      anything but a normalization helper; a helper's output read elsewhere too (`h + bn(h)`).

    ## Why is this bad?
    Batch normalization subtracts each channel's mean (the batch's while training, the moving
    average's in inference) before scaling and adding its own offset `beta`. A per-channel
    constant added just before it, the convolution's bias, is subtracted again: it changes
    nothing the network computes, yet it is stored, read, added on every forward pass and
    differentiated on every backward pass. `use_bias=False` removes it; the normalization's
    `beta` plays its role (the Keras and TensorFlow model zoos build their ResNets so). An
    activation between the two (`activation="relu"` on the convolution) makes the bias matter,
    and is not reported.

    ## Example
    ```python
    import tensorflow as tf

    x = tf.keras.layers.Conv2D(64, 3, padding="same")(x)
    x = tf.keras.layers.BatchNormalization()(x)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    x = tf.keras.layers.Conv2D(64, 3, padding="same", use_bias=False)(x)
    x = tf.keras.layers.BatchNormalization()(x)
    ```

    ## Energy evidence
    The bias is a memory-bound pass, so its cost is its bytes, not its multiply-adds. Per
    element of the convolution's output and per training step it moves 4 to 12 bytes in
    float32: the forward addition reads the output and writes it again (8 bytes; Keras adds the
    bias as its own op after the convolution, a `BiasAdd` or a broadcast `Add`, and TensorFlow's
    fused batch normalization, a separate kernel, does not absorb it; a graph optimiser or
    compiler that fuses the addition into the convolution, Grappler's remapper or XLA, saves
    those), and the backward pass reads the output's gradient once more to sum it per channel
    for the bias's gradient (4 bytes, fused or not). Beside it the convolution does
    `6·kh·kw·C_in` floating-point operations per output element, forward and backward (3,456
    for a 3×3 convolution over 64 channels; `6·C_in` for a dense layer, against which the same
    bytes weigh more). On a device that runs a convolution's arithmetic
    at `F` FLOP/s and streams memory at `B` bytes/s, the bias's pass takes `bytes × F / B` of
    those operations' time: from the spec sheets of greenlint's device table
    (greenlint/predict/devices.py; the convolution at its TF32 tensor-core peak, which
    TensorFlow uses by default, the pass at the full bandwidth), **+8.9 % to +26.6 %** of a 3×3
    convolution's time over 64 input channels on an NVIDIA A100-SXM4 (156 TFLOP/s, 2,039 GB/s),
    +11.9 % to +35.8 % on an H200, +2.2 % to +6.6 % over 256 channels on the A100; the low end
    is the fused case. Each unfused pass is also one kernel launch more per layer and step
    (forward and backward), which dominates the small layers of an MNIST GAN. Estimated, not
    measured: no GPU was available to this work. On a CPU, whose arithmetic is slower against
    its memory, the share is smaller: the pair under bench/rules/GL504/ (a GAN-like stack:
    convolution blocks of 128, 128 and 64 channels over 64-channel 32×32 feature maps, 96
    images, 2 epochs), kept for an accelerator, saved +4 % in the median on this 2-core CPU
    shared with other work, its rounds ranging from −5 % to +16 % (`python bench/rules/run.py
    GL504 --rounds 6 --repeats 3`), a saving that machine's spread cannot resolve.

    Opt-in (`--select GL504`): the saving is rarely material (greenlint/rules/material.py). At
    the least share (the fused case), it reaches a tenth of the layer's time only for a 3×3
    convolution over at most 18 input channels on greenlint's reference GPU (an NVIDIA Tesla
    T4: 8.1 TFLOP/s, 320 GB/s; 56 on the A100), and those are a network's first, cheapest
    layers: +2.9 % over 64 channels, +1.5 % over 128, +0.4 % over 512 on the T4, and less of
    the whole step, which also runs the normalization, the activations and the other layers.
    Judged blind on the real-world benchmark, the 33 of its 47 findings judged there were right
    and none worth the change (0 true, 33 debatable: "a per-channel add after a 3×3 conv over 64
    channels is about 0.2 % of its work"), and the change breaks loading weights saved before it.
    The engineers who read the research programs before greenlint ran listed 8 such biases, 7 of
    them with low certainty, as "small" or "negligible next to the convolution". Reporting only
    the trainings priced as long (GL602's evidence of a large step, `material-saving-j`) would
    not make the finding worth acting on: the saving is a share of each layer's time, the same
    however long the training, and under `MIN_SHARE` for any convolution over more than 18 input
    channels on the T4. Layers a released checkpoint fills by name, the exception above, are not
    reported. Selected over every benchmark corpus (the vendored research programs and the cached
    corpora), it reports 54 biases in 9 programs (face-classification 19, Keras-GAN 14,
    image-segmentation-keras 6, DCGAN-tensorflow 4, srez 4, pix2pix 3, super-resolution 3,
    handson-ml2 1); the 20 read of them (every program) are each a bias the normalization right
    after cancels, over layers of 32 to 512 channels: right, and a cleanliness fix with a small
    saving (the share above), whose `use_bias=False` is unsafe (weights saved before no longer
    load). Precise is not enough for a default rule whose fix is unsafe and whose saving is rarely
    material: it stays opt-in.

    ## Fix safety
    Unsafe: adds `use_bias=False`. The network computes the same function (the normalization
    cancels the bias), but the layer then holds one weight less: weights saved from the old
    model (`load_weights`, a checkpoint, a pretrained file) no longer match its variables and
    fail to load, and a trained model's outputs change until it is trained again.

    ## Options
    None.
    """

    code = "GL504"
    DEFAULT_ENABLED = False
    name = "conv-bias-before-batch-norm"
    MESSAGE = "`{layer}` adds a bias that the `BatchNormalization` right after it subtracts again"
    HELPER_MESSAGE = (
        "`{helper}()` adds a bias ({by} at {module} line {line}) that the batch normalization"
        " `{norm}` right after subtracts again: build this layer without it (the normalization's offset plays its role)"
    )
    #: A `tf.layers` convolution's bias, and a `tf.nn.bias_add`'s, that TensorFlow 1's batch normalization cancels.
    LAYER_MESSAGE = "`{layer}()` adds a bias that the batch normalization `{norm}` right after it subtracts again"
    BIAS_ADD_MESSAGE = (
        "`tf.nn.bias_add` adds the convolution's bias that the batch normalization `{norm}` right after subtracts"
        " again: drop it and its variable (the normalization's offset plays its role)"
    )
    FIX_TITLE = "Build the layer with `use_bias=False`"
    FIX = FixBy("SetArgument", {"name": "use_bias", "value": "False"}, safe=False)
    VALID = (
        Valid(
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "m = tf.keras.Sequential([layers.Conv2D(32, 3, use_bias=False), layers.BatchNormalization()])\n"
        ),
        Valid(  # the helper's output also read beside its normalization: the bias reaches that read
            _PIX2PIX.format(second="output = batchnorm(convolved) + convolved")
        ),
        Valid(  # another read of the name may see the helper's output (a loop comes back to it)
            _PIX2PIX.format(second="output = batchnorm(convolved)\n    layers.append(convolved)")
        ),
        Valid(  # one path of the helper adds no bias
            _PIX2PIX.format(second="output = batchnorm(convolved)").replace(
                "depthwise_initializer=init)", "depthwise_initializer=init, use_bias=False)"
            )
        ),
        Valid(  # normalised over the rows, not the channels
            _PIX2PIX.format(second="output = batchnorm(convolved)").replace("axis=3", "axis=1")
        ),
        Valid(  # the activation comes between: the bias shifts what the ReLU cuts
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "m = tf.keras.Sequential([layers.Conv2D(32, 3, activation='relu'), layers.BatchNormalization()])\n"
        ),
        Valid(  # something else comes between
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "m = tf.keras.Sequential([layers.Conv2D(32, 3), layers.ReLU(), layers.BatchNormalization()])\n"
        ),
        Valid(  # channels first: the default axis of the normalization is not the channels'
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "x = layers.Conv2D(32, 3, data_format='channels_first')(x)\nx = layers.BatchNormalization()(x)\n"
        ),
        Valid(  # the normalization reads another tensor
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "y = layers.Conv2D(32, 3)(x)\nx = layers.BatchNormalization()(x)\n"
        ),
        Valid(  # channels first through a module constant: the analysis' value of the name counts
            "import tensorflow as tf\nfrom tensorflow.keras import layers\nORDER = 'channels_first'\n"
            "x = layers.Conv2D(32, 3, data_format=ORDER)(x)\nx = layers.BatchNormalization()(x)\n"
        ),
        Valid(  # a layout the analysis cannot tell: not reported
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "x = layers.Conv2D(32, 3, data_format=args.layout)(x)\nx = layers.BatchNormalization()(x)\n"
        ),
        Valid(  # a frozen normalization: fixed statistics and offset, the bias is the only trainable shift
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "x = layers.Conv2D(32, 3)(x)\nx = layers.BatchNormalization(trainable=False)(x)\n"
        ),
        Valid(  # a named layer in a program that loads weights by layer name: the checkpoint holds its bias
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "x = layers.Conv2D(64, 1, padding='same', name='resample_p6/conv2d')(inputs)\n"
            "x = layers.BatchNormalization(name='resample_p6/bn')(x)\n"
            "model = tf.keras.Model(inputs, x)\nmodel.load_weights('efficientdet-d0.h5', by_name=True)\n"
        ),
        Valid(  # normalised over another axis than the channels' of a channels-last output
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "x = layers.Conv2D(32, 3)(x)\nx = layers.BatchNormalization(axis=1)(x)\n"
        ),
        Valid(  # a layer bound to a name and shared: its second use feeds no normalization
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "conv = layers.Conv2D(32, 3, padding='same')\nbn = layers.BatchNormalization()\n"
            "a = conv(x)\na = bn(a)\nb = conv(y)\nb = layers.ReLU()(b)\n"
        ),
        Valid(  # a dense layer's activation given by position: the bias shifts what it cuts
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "m = tf.keras.Sequential([layers.Dense(64, 'relu'), layers.BatchNormalization()])\n"
        ),
        Valid(  # a dense layer's output has its input's rank: axis 1 is its units only for a 2-D input
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "x = layers.Dense(64)(x)\nx = layers.BatchNormalization(axis=1)(x)\n"
        ),
        Valid(  # a helper's bias added under a condition: not every call adds it
            _tf1(bias="        if n > 64:\n" + _BIAS.replace("        ", "            "))
        ),
        Valid(_tf1(bias="        conv = tf.nn.relu(tf.nn.bias_add(conv, b))\n")),  # an activation comes between
        Valid(_tf1(fmt=", data_format='NCHW'")),  # channels first: the normalization's default axis is not theirs
        Valid(_tf1(norm=", trainable=False")),  # a frozen normalization: the bias is the block's only trainable shift
        Valid(  # the name is bound twice: which layer a read gets is not known
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "conv = layers.Conv2D(32, 3)\nif deep:\n    conv = layers.Conv2D(32, 3, activation='relu')\n"
            "x = conv(x)\nx = layers.BatchNormalization()(x)\n"
        ),
        Valid(  # TF1: the normalization has no offset (`center=False`) to take over the bias's role
            _INLINE.format(conv="tf.compat.v1.layers.conv2d(x, 64, 3)", then=_LAYERS_BN.format(norm=", center=False"))
        ),
        Valid(  # TF1: the activation comes between: the bias shifts what the ReLU cuts
            _INLINE.format(
                conv="tf.compat.v1.layers.conv2d(x, 64, 3)",
                then="h = tf.nn.relu(h)\n    " + _LAYERS_BN.format(norm=""),
            )
        ),
        Valid(  # TF1: the layer's own activation
            _INLINE.format(
                conv="tf.compat.v1.layers.conv2d(x, 64, 3, activation=tf.nn.relu)", then=_LAYERS_BN.format(norm="")
            )
        ),
        Valid(  # TF1: normalised over the rows, not the channels
            _INLINE.format(conv="tf.compat.v1.layers.conv2d(x, 64, 3)", then=_LAYERS_BN.format(norm=", axis=1"))
        ),
        Valid(  # slim/contrib's `normalizer_fn` builds the convolution without its bias already
            _INLINE.format(
                conv="tf.contrib.layers.conv2d(x, 64, 3, normalizer_fn=tf.contrib.layers.batch_norm)",
                then="h = tf.contrib.layers.batch_norm(h, is_training=training)",
            )
        ),
        Valid(  # the bias added to something else than the convolution's output
            _INLINE.format(
                conv="tf.nn.conv2d(x, w, strides=1, padding='SAME') * mask",
                then="h = tf.nn.bias_add(h, b)\n    " + _LAYERS_BN.format(norm=""),
            )
        ),
        Valid(  # a Keras normalization without its offset
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "x = layers.Conv2D(32, 3)(x)\nx = layers.BatchNormalization(center=False)(x)\n"
        ),
        Valid(_builder("model.add_conv2d(64)\nmodel.add_relu()\nmodel.add_batch_norm()")),  # an activation between
        Valid(_builder("model.add_conv2d(64)\nmodel.add_batch_norm()", norm=", center=False")),  # no offset
        Valid(  # the builder's bias added under a condition: not every layer has one
            _builder(
                "model.add_conv2d(64)\nmodel.add_batch_norm()",
                bias="            if n > 64:\n" + _STACKED_BIAS.replace("            ", "                "),
            )
        ),
        Valid(_builder("model.add_conv2d(64)\nother.add_batch_norm()")),  # another builder normalises
        Valid(  # the pair is stacked in a builder method that nothing calls: no layer is built
            _builder("model.add_conv2d(64)").replace(
                "    def add_relu(self):",
                "    def add_unused_block(self):\n        self.add_conv2d(64)\n        self.add_batch_norm()\n"
                "        return self\n\n    def add_relu(self):",
            )
        ),
    )
    INVALID = (
        Invalid(  # a network builder: the convolution it stacks, then the batch normalization it stacks on it
            _builder("model.add_conv2d(64)\nmodel.add_batch_norm()"),
            line=30,
            message_contains="`add_conv2d()` adds a bias (`tf.nn.bias_add` at example.py line 16) that the batch"
            " normalization `add_batch_norm()` right after",
        ),
        Invalid(_builder("model.add_conv2d(64).add_batch_norm().add_relu()"), line=30),  # chained
        Invalid(  # TF1 written inline: a `tf.layers` convolution keeping its bias, normalised in the next statement
            _INLINE.format(
                conv="tf.compat.v1.layers.conv2d(x, 64, 3, padding='same')", then=_LAYERS_BN.format(norm="")
            ),
            line=5,
            message_contains="`tf.compat.v1.layers.conv2d()` adds a bias that the batch normalization",
            expected_replacement=_INLINE.format(
                conv="tf.compat.v1.layers.conv2d(x, 64, 3, padding='same', use_bias=False)",
                then=_LAYERS_BN.format(norm=""),
            ),
        ),
        Invalid(  # TF1 nested: the normalization of a transposed convolution
            _INLINE.format(
                conv="tf.compat.v1.layers.batch_normalization(tf.compat.v1.layers.conv2d_transpose(x, 64, 3))",
                then="h = h * 2",
            ),
            line=5,
        ),
        Invalid(  # TF1: `tf.nn.bias_add` of a `tf.nn` convolution, then `tf.contrib.layers.batch_norm`: dropped by hand
            _INLINE.format(
                conv="tf.nn.conv2d(x, w, strides=1, padding='SAME')",
                then="h = tf.nn.bias_add(h, b)\n    h = tf.contrib.layers.batch_norm(h, is_training=training)",
            ),
            line=6,
            message_contains="`tf.nn.bias_add` adds the convolution's bias",
            expected_replacement=_INLINE.format(
                conv="tf.nn.conv2d(x, w, strides=1, padding='SAME')",
                then="h = tf.nn.bias_add(h, b)\n    h = tf.contrib.layers.batch_norm(h, is_training=training)",
            ),
        ),
        Invalid(  # pix2pix: a TF1 layer helper on each path, its output normalised by a helper in the next statement
            _PIX2PIX.format(second="output = batchnorm(convolved)"),
            line=17,
            message_contains="`gen_conv()` adds a bias (the default bias of `tf.layers.separable_conv2d` or"
            " `tf.layers.conv2d` at ",
        ),
        Invalid(
            "import tensorflow as tf\nfrom tensorflow.keras import layers as L\n"
            "m = tf.keras.Sequential([L.Conv2D(8, 3), L.BatchNormalization()])\n",
            line=3,
            expected_replacement=(
                "import tensorflow as tf\nfrom tensorflow.keras import layers as L\n"
                "m = tf.keras.Sequential([L.Conv2D(8, 3, use_bias=False), L.BatchNormalization()])\n"
            ),
        ),
        Invalid(
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "x = layers.Conv2D(64, 3, padding='same')(inputs)\nx = layers.BatchNormalization()(x)\n",
            line=3,
            message_contains="`Conv2D` adds a bias",
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.add(tf.keras.layers.Conv1D(16, 5))\n"
            "m.add(tf.keras.layers.BatchNormalization())\n",
            line=3,
        ),
        Invalid(
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "y = layers.BatchNormalization()(layers.DepthwiseConv2D(3)(x))\n",
            line=3,
        ),
        Invalid(  # the layout is a name bound to channels last (in this module, or imported from another)
            "import tensorflow as tf\nfrom tensorflow.keras import layers\nORDER = 'channels_last'\n"
            "o = (layers.Conv2D(512, (3, 3), padding='valid', data_format=ORDER))(o)\n"
            "o = (layers.BatchNormalization())(o)\n",
            line=4,
        ),
        Invalid(  # a dense layer's bias, cancelled over its units
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "m = tf.keras.Sequential([layers.Dense(256, input_shape=(100,)), layers.BatchNormalization(), layers.ReLU()])\n",
            line=3,
            message_contains="`Dense` adds a bias",
        ),
        Invalid(  # the layers bound to names, then applied one after the other
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n\n\n"
            "def block(x, filters):\n"
            "    conv = layers.Conv2D(filters, 3, padding='same')\n"
            "    norm = layers.BatchNormalization()\n"
            "    x = conv(x)\n"
            "    x = norm(x)\n"
            "    return layers.ReLU()(x)\n",
            line=6,
        ),
        Invalid(  # TensorFlow 1 helpers: the convolution's bias, then the class around `tf.contrib.layers.batch_norm`
            _tf1(),
            line=26,
            message_contains="`conv2d()` adds a bias (`tf.nn.bias_add` at ",
        ),
        Invalid(  # a function normalising its first parameter
            _TF1_CONV.format(fmt="", bias=_BIAS.format(fmt=""))
            + "def bn(x):\n    return tf.compat.v1.layers.batch_normalization(x, training=True)\n\n\n"
            "y = bn(conv2d(x, 64))\n",
            line=17,
        ),
        Invalid(  # a bias asked for explicitly is cancelled all the same; listed in order for a composition
            "import tensorflow as tf\nfrom functools import reduce\nfrom tensorflow.keras import layers\n\n\n"
            "def separable_block(channels, name):\n"
            "    f1 = layers.SeparableConv2D(channels, 3, padding='same', use_bias=True)\n"
            "    f2 = layers.BatchNormalization(name=name + '/bn')\n"
            "    return reduce(lambda f, g: lambda *args: g(f(*args)), (f1, f2))\n",
            line=7,
            expected_replacement=(
                "import tensorflow as tf\nfrom functools import reduce\nfrom tensorflow.keras import layers\n\n\n"
                "def separable_block(channels, name):\n"
                "    f1 = layers.SeparableConv2D(channels, 3, padding='same', use_bias=False)\n"
                "    f2 = layers.BatchNormalization(name=name + '/bn')\n"
                "    return reduce(lambda f, g: lambda *args: g(f(*args)), (f1, f2))\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        yield from self._helpers(facts)
        if not any(s.api == BATCH_NORM for s in facts.sites):
            return
        loaded_by_name: bool | None = None  # read once, for the first named layer
        for site in facts.sites:
            if site.api not in CONVOLUTIONS and site.api != DENSE:
                continue
            call, cell = facts.node(site), site.callsite.span.cell
            if call is None or not _cancelled_bias(site, call):
                continue
            if not _normalised_next(facts, call, cell, _rank(site.api)):
                continue
            if keyword(call, "name") is not None:
                if loaded_by_name is None:
                    loaded_by_name = bool(LOADED_BY_NAME.search(facts.text)) or beside_mentions(
                        facts.path, LOADED_BY_NAME
                    )
                if loaded_by_name:
                    continue
            layer = site.api.rsplit(".", 1)[-1]
            yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(layer=layer))

    def _stacked(self, facts: FileFacts, call: ast.Call, following: ast.Call) -> Iterator[Diagnostic]:
        """A network builder's layer that stacks a convolution plus its bias, the next one a batch
        normalization of it: `model.add_conv2d(64)` then `model.add_batch_norm()`."""
        stacked = stacked_bias(facts, call)
        if stacked is None or not stacks_batch_norm(facts, following, stacked[1], stacked[0].rank):
            return
        around = enclosing(facts, call, None, (ast.FunctionDef, ast.AsyncFunctionDef))
        if isinstance(around, (ast.FunctionDef, ast.AsyncFunctionDef)) and uncalled(
            facts, around.name, isinstance(facts.parent(around, None), ast.ClassDef)
        ):
            return  # a function or method nothing calls builds no layer
        bias, method, norm = stacked[0], getattr(call.func, "attr", ""), getattr(following.func, "attr", "")
        module = os.path.basename(bias.module)
        message = self.HELPER_MESSAGE.format(helper=method, by=bias.by, module=module, line=bias.line, norm=norm + "()")
        yield self.diagnostic(facts.span(call.func, None), facts.path, message)

    def _helpers(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """A TensorFlow 1 convolution plus bias given straight to a batch normalization: a project
        helper's, a `tf.layers` convolution's or a `tf.nn.bias_add`'s output to a project
        normalization helper or to TensorFlow 1's own: `self.bn1(conv2d(x, 64))`, or `h = conv2d(x, 64)`
        then `y = bn(h)` (a script's, not a notebook's)."""
        if not isinstance(facts.source, str) or not NORMALIZATION_TEXT.search(facts.source):
            return
        for inner in facts.calls(None):
            if isinstance(inner.func, ast.Attribute) and (stacking := _stacked_next(facts, inner)) is not None:
                yield from self._stacked(facts, inner, stacking)
            site = None if isinstance(inner.func, ast.Name) else facts.site_at(inner, None)
            if site is None and not isinstance(inner.func, ast.Name):
                continue
            if site is not None and site.api not in LAYER_CONVOLUTIONS and site.api != BIAS_ADD:
                continue
            norm = _normalising_call(facts, inner)
            bias = _tf1_bias(facts, inner) if norm is not None else None  # few files build such layers
            if norm is None or bias is None:
                continue
            if not normalising(facts, norm.func, None, bias.rank) and batch_normalised(facts, norm, bias.rank) is None:
                continue
            called, by_norm = ".".join(dotted(inner.func)), ".".join(dotted(norm.func))
            if isinstance(inner.func, ast.Name):  # the helper, which other calls may share, is where the bias goes
                module = os.path.basename(bias.module)
                message = self.HELPER_MESSAGE.format(
                    helper=called, by=bias.by, module=module, line=bias.line, norm=by_norm
                )
                yield self.diagnostic(facts.span(inner.func, None), facts.path, message)
            elif site is not None and site.api == BIAS_ADD:  # dropped by hand, with its variable
                yield self.diagnostic(
                    facts.span(inner.func, None), facts.path, self.BIAS_ADD_MESSAGE.format(norm=by_norm)
                )
            else:  # a keyword of the layer's call: the fix sets it
                message = self.LAYER_MESSAGE.format(layer=called, norm=by_norm)
                yield self.diagnostic(facts.span(inner, None), facts.path, message)


def _stacked_next(facts: FileFacts, call: ast.Call) -> ast.Call | None:
    """The method call on the same builder right after `call` (`model.add_conv2d(...)`): chained to
    it (`.add_batch_norm()`), or the next statement's (`model.add_batch_norm()`), where `call` is a
    statement of its own on a name."""
    parent = facts.parent(call, None)
    chained = facts.parent(parent, None) if isinstance(parent, ast.Attribute) else None
    if isinstance(chained, ast.Call) and chained.func is parent:
        return chained
    if not (
        isinstance(parent, ast.Expr) and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
    ):
        return None
    following = _next_statement(facts, parent, None)
    value = following.value if isinstance(following, ast.Expr) else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return value if ast.dump(value.func.value) == ast.dump(call.func.value) else None
    return None


def _tf1_bias(facts: FileFacts, call: ast.Call) -> Bias | None:
    """Where `call` returns a convolution plus its bias: a project helper's call that does
    (`biased_helper`), a `tf.layers` convolution that keeps its bias, or a `tf.nn.bias_add` of a
    `tf.nn` convolution, given to it or bound to its input by the statement before."""
    if isinstance(call.func, ast.Name):
        return biased_helper(facts, call)
    if keeps_bias(facts, call):
        site = facts.site_at(call, None)
        layer = site.api.rsplit(".", 1)[-1] if site is not None else ""
        return Bias(facts.path, call.lineno, f"the default bias of `tf.layers.{layer}`", _rank(layer))
    given = call.args[0] if call.args else None
    if isinstance(given, ast.Name):
        statement = next((a for a in facts.ancestors(call, None) if isinstance(a, ast.stmt)), None)
        before = _previous_statement(facts, statement)
        targets = before.targets if isinstance(before, ast.Assign) else []
        named = len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id == given.id
        given = before.value if named and isinstance(before, ast.Assign) else None
    return bias_added(facts, call, given)


def _normalising_call(facts: FileFacts, call: ast.Call) -> ast.Call | None:
    """The call that takes `call`'s value first and alone: `norm(call)`, or, for `h = call` in a
    block, `norm(h)` in the next statement where no other read can see that `h`."""
    parent = facts.parent(call, None)
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is call:
        return parent
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return None
    name = parent.targets[0].id
    following = _next_statement(facts, parent, None)
    value = following.value if isinstance(following, (ast.Assign, ast.Expr)) else None
    if not (isinstance(value, ast.Call) and value.args and isinstance(value.args[0], ast.Name)):
        return None
    if value.args[0].id != name or any(isinstance(a, ast.Name) and a.id == name for a in value.args[1:]):
        return None
    rebinds = isinstance(following, ast.Assign) and any(_binds_name(t, name) for t in following.targets)
    return value if rebinds or _reads_follow_bindings(facts, parent, name) else None


def _binds_name(target: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target))


def _reads_follow_bindings(facts: FileFacts, assign: ast.Assign, name: str) -> bool:
    """Every read of `name` in the scope of `assign` sits in a statement right after one that binds
    `name` (so each reads the binding just made, and `assign`'s is read by its next statement alone)."""
    scope = enclosing(facts, assign, None)
    if scope is None:
        return False
    for read in ast.walk(scope):
        if not (isinstance(read, ast.Name) and read.id == name and isinstance(read.ctx, ast.Load)):
            continue
        statement = next((a for a in facts.ancestors(read, None) if isinstance(a, ast.stmt)), None)
        before = _previous_statement(facts, statement)
        if not (isinstance(before, ast.Assign) and any(_binds_name(t, name) for t in before.targets)):
            return False
    return True


_UNKNOWN = object()


def _argument(site: Site, call: ast.Call, name: str, default: Any) -> Any:
    """The value the layer gets for `name`: the analysis' value where it resolved one (a literal,
    or a name bound to one, in this module or imported from another: the site's features), the
    default where the call does not give it, else `_UNKNOWN`."""
    if name in site.features:
        return site.features[name]
    if binds(call, name) or len(call.args) > POSITIONAL.get(
        site.api, 4
    ):  # given (maybe positionally or through **kwargs)
        return _UNKNOWN
    return default


def _cancelled_bias(site: Site, call: ast.Call) -> bool:
    """The layer adds a bias right at its output: `use_bias` True (the default, or given), no
    activation, channels last."""
    return (
        _argument(site, call, "use_bias", True) is True
        and _argument(site, call, "activation", None) in (None, "linear")
        and _argument(site, call, "data_format", None) in (None, "channels_last")
    )


def _rank(api: str) -> int | None:
    """The rank of the convolution's output: batch, its spatial axes, channels (None for a dense
    layer, whose output has its input's rank: only its last axis is known, the units)."""
    name = api.rsplit(".", 1)[-1]
    digits = [c for c in name if c.isdigit()]
    return 2 + int(digits[0]) if digits else None


def _is_batch_norm(facts: FileFacts, node: ast.AST | None, cell: int | None, rank: int | None) -> bool:
    """A `BatchNormalization(...)` over the last axis (its default), or a name bound to one."""
    node = _bound(facts, node, cell) if isinstance(node, ast.Name) else node
    if not isinstance(node, ast.Call):
        return False
    site: Site | None = facts.site_at(node, cell)
    if site is None or site.api != BATCH_NORM or _argument(site, node, "trainable", True) is not True:
        return False
    if _argument(site, node, "center", True) is not True:  # no offset to take over the bias's role
        return False
    axis = _argument(site, node, "axis", -1)
    last = (-1,) if rank is None else (-1, rank - 1)
    return axis in last or (type(axis) is list and len(axis) == 1 and axis[0] in last)


def _normalised_next(facts: FileFacts, conv: ast.expr, cell: int | None, rank: int | None) -> bool:
    """The convolution's output goes straight into a batch normalization: the layer listed right
    before one, added right before one, applied right before one, or bound to a name whose every
    use is one of these."""
    parent = facts.parent(conv, cell)
    if isinstance(parent, (ast.List, ast.Tuple)):  # Sequential([..., Conv2D(...), BatchNormalization(), ...])
        index = next(i for i, e in enumerate(parent.elts) if e is conv)
        return index + 1 < len(parent.elts) and _is_batch_norm(facts, parent.elts[index + 1], cell, rank)
    if isinstance(parent, ast.Call) and conv in parent.args:  # model.add(Conv2D(...)), then model.add(BN())
        statement = facts.parent(parent, cell)
        following = _next_statement(facts, statement, cell)
        return (
            isinstance(parent.func, ast.Attribute)
            and parent.func.attr == "add"
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Call)
            and isinstance(following.value.func, ast.Attribute)
            and following.value.func.attr == "add"
            and ast.dump(following.value.func.value) == ast.dump(parent.func.value)
            and bool(following.value.args)
            and _is_batch_norm(facts, following.value.args[0], cell, rank)
        )
    if isinstance(parent, ast.Call) and parent.func is conv:  # Conv2D(...)(x): the layer applied
        return _applied_then_normalised(facts, parent, cell, rank)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        uses = _uses(facts, parent, parent.targets[0].id, cell)  # conv = Conv2D(...): where the layer goes
        return bool(uses) and all(_normalised_next(facts, use, cell, rank) for use in uses)
    return False


def _applied_then_normalised(facts: FileFacts, applied: ast.Call, cell: int | None, rank: int | None) -> bool:
    """The layer's output (`applied`, a call of it) is normalised next: `BN()(Conv2D(...)(x))`,
    or `x = conv(x)` and the next statement applies a batch normalization to `x`."""
    outer = facts.parent(applied, cell)
    if isinstance(outer, ast.Call) and outer.args and outer.args[0] is applied:  # BN()(Conv2D(...)(x))
        return _is_batch_norm(facts, outer.func, cell, rank)
    if isinstance(outer, ast.Assign) and len(outer.targets) == 1 and isinstance(outer.targets[0], ast.Name):
        following = _next_statement(facts, outer, cell)
        value = following.value if isinstance(following, (ast.Assign, ast.Expr)) else None
        return (
            isinstance(value, ast.Call)
            and bool(value.args)
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id == outer.targets[0].id
            and _is_batch_norm(facts, value.func, cell, rank)
        )
    return False


def _uses(facts: FileFacts, assign: ast.Assign, name: str, cell: int | None) -> list[ast.Name]:
    """The reads of `name` in the scope of its assignment `assign`, when that is its only
    binding there (else none: which layer a read gets is not known)."""
    scope = enclosing(facts, assign, cell)
    if scope is None or len(_bindings(scope, name)) != 1:
        return []
    return [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]


def _bindings(scope: ast.AST, name: str) -> list[ast.AST]:
    """The statements and parameters of a scope that bind `name` (nested scopes included)."""
    return [
        n
        for n in ast.walk(scope)
        if (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)))
        or (isinstance(n, ast.arg) and n.arg == name)
    ]


def _bound(facts: FileFacts, name: ast.Name, cell: int | None) -> ast.AST | None:
    """The value a name read is bound to: the right side of the one assignment `name = ...` of
    its scope (None where it is bound otherwise, or more than once)."""
    scope = enclosing(facts, name, cell)
    while scope is not None:
        found = _bindings(scope, name.id)
        if found:
            target = found[0] if len(found) == 1 else None
            statement = facts.parent(target, cell) if target is not None else None
            return statement.value if isinstance(statement, ast.Assign) and statement.targets == [target] else None
        scope = enclosing(facts, scope, cell)
    return None


def _next_statement(facts: FileFacts, statement: ast.AST | None, cell: int | None) -> ast.stmt | None:
    block, index = _position(facts, statement, cell)
    return block[index + 1] if block is not None and index + 1 < len(block) else None


def _previous_statement(facts: FileFacts, statement: ast.AST | None) -> ast.stmt | None:
    block, index = _position(facts, statement, None)
    return block[index - 1] if block is not None and index > 0 else None


def _position(facts: FileFacts, statement: ast.AST | None, cell: int | None) -> tuple[list[ast.stmt] | None, int]:
    """The block (a list of statements) holding `statement`, and its index there."""
    block = facts.parent(statement, cell) if statement is not None else None
    for field in ("body", "orelse", "finalbody"):
        body = getattr(block, field, None)
        if isinstance(body, list) and statement in body:
            return body, next(i for i, s in enumerate(body) if s is statement)
    return None, -1
