"""GL504 conv-bias-before-batch-norm: a convolution's bias that the `BatchNormalization` right after it cancels."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Site, Valid, binds, keyword
from greenlint.rules.codemods import SetArgument
from greenlint.rules.diagnostic import Diagnostic

LAYERS = "tensorflow.keras.layers."
CONVOLUTIONS = frozenset(
    LAYERS + name
    for name in ("Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose",
                 "SeparableConv1D", "SeparableConv2D", "DepthwiseConv1D", "DepthwiseConv2D")
)
BATCH_NORM = LAYERS + "BatchNormalization"


class ConvBiasBeforeBatchNorm(Rule):
    """
    ## What it does
    Flags a Keras convolution layer (`Conv1D`/`2D`/`3D`, their `Transpose`, `Separable` and
    `Depthwise` forms) built with its default `use_bias=True`, no activation and the default
    channels-last layout, whose output goes straight into a `BatchNormalization` with its
    default axis: the next element of a layer list (`Sequential([...])`), the next
    `model.add(...)`, or the functional call right after it (`x = Conv2D(...)(x)` then
    `x = BatchNormalization()(x)`, or the two nested).

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
    Small per layer: one addition per output element and a few parameters per channel, on
    every forward and backward pass. The pair under bench/rules/ (three convolution blocks,
    64 images of 32×32, 3 epochs) showed no saving on this 2-core CPU, shared with other work
    while it ran (see the table): the bias is a small share of a convolution's cost, and the
    rule stays opt-in until a saving is shown.

    ## Fix safety
    Unsafe: adds `use_bias=False`. The network computes the same function (the normalization
    cancels the bias), but the layer then holds one weight less: weights saved from the old
    model (`load_weights`, a checkpoint, a pretrained file) no longer match its variables and
    fail to load, and a trained model's outputs change until it is trained again.

    ## Options
    None.
    """

    code = "GL504"
    name = "conv-bias-before-batch-norm"
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    MESSAGE = "`{layer}` adds a bias that the `BatchNormalization` right after it subtracts again"
    FIX_TITLE = "Build the convolution with `use_bias=False`"
    FIX = SetArgument("use_bias", "False", safe=False)
    VALID = (
        Valid(
            "import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "m = tf.keras.Sequential([layers.Conv2D(32, 3, use_bias=False), layers.BatchNormalization()])\n"
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
    )
    INVALID = (
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
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if not any(s.api == BATCH_NORM for s in facts.sites):
            return
        for site in facts.sites:
            if site.api not in CONVOLUTIONS:
                continue
            call, cell = facts.node(site), site.callsite.span.cell
            if call is None or not _cancelled_bias(call) or not _normalised_next(facts, call, cell):
                continue
            layer = site.api.rsplit(".", 1)[-1]
            yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(layer=layer))


def _cancelled_bias(call: ast.Call) -> bool:
    """The layer adds a bias right at its output: `use_bias` left at True, no activation, channels last."""
    if binds(call, "use_bias") or len(call.args) > 4:  # given (maybe positionally or through **kwargs)
        return False
    activation = keyword(call, "activation")
    if activation is not None and not (
        isinstance(activation.value, ast.Constant) and activation.value.value in (None, "linear")
    ):
        return False
    layout = keyword(call, "data_format")
    return layout is None or (isinstance(layout.value, ast.Constant) and layout.value.value == "channels_last")


def _is_batch_norm(facts: FileFacts, node: ast.AST | None, cell: int | None) -> bool:
    """A `BatchNormalization(...)` built with its default axis (or the last one)."""
    if not isinstance(node, ast.Call):
        return False
    site: Site | None = facts.site_at(node, cell)
    if site is None or site.api != BATCH_NORM:
        return False
    axis = keyword(node, "axis")
    if axis is None:
        return not node.args
    value = axis.value
    return isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) and getattr(value.operand, "value", None) == 1


def _normalised_next(facts: FileFacts, conv: ast.Call, cell: int | None) -> bool:
    """The convolution's output goes straight into a batch normalization."""
    parent = facts.parent(conv, cell)
    if isinstance(parent, (ast.List, ast.Tuple)):  # Sequential([..., Conv2D(...), BatchNormalization(), ...])
        index = next(i for i, e in enumerate(parent.elts) if e is conv)
        return index + 1 < len(parent.elts) and _is_batch_norm(facts, parent.elts[index + 1], cell)
    if isinstance(parent, ast.Call) and conv in parent.args:  # model.add(Conv2D(...)), then model.add(BN())
        statement = facts.parent(parent, cell)
        following = _next_statement(facts, statement, cell)
        return (
            isinstance(parent.func, ast.Attribute) and parent.func.attr == "add"
            and isinstance(following, ast.Expr) and isinstance(following.value, ast.Call)
            and isinstance(following.value.func, ast.Attribute) and following.value.func.attr == "add"
            and ast.dump(following.value.func.value) == ast.dump(parent.func.value)
            and bool(following.value.args) and _is_batch_norm(facts, following.value.args[0], cell)
        )
    if isinstance(parent, ast.Call) and parent.func is conv:  # Conv2D(...)(x): the layer applied
        outer = facts.parent(parent, cell)
        if isinstance(outer, ast.Call) and outer.args and outer.args[0] is parent:  # BN()(Conv2D(...)(x))
            return _is_batch_norm(facts, outer.func, cell)
        if isinstance(outer, ast.Assign) and len(outer.targets) == 1 and isinstance(outer.targets[0], ast.Name):
            following = _next_statement(facts, outer, cell)
            value = following.value if isinstance(following, (ast.Assign, ast.Expr)) else None
            return (
                isinstance(value, ast.Call) and bool(value.args) and isinstance(value.args[0], ast.Name)
                and value.args[0].id == outer.targets[0].id and _is_batch_norm(facts, value.func, cell)
            )
    return False


def _next_statement(facts: FileFacts, statement: ast.AST | None, cell: int | None) -> ast.stmt | None:
    block = facts.parent(statement, cell) if statement is not None else None
    for field in ("body", "orelse", "finalbody"):
        body = getattr(block, field, None)
        if isinstance(body, list) and statement in body:
            index = body.index(statement)
            return body[index + 1] if index + 1 < len(body) else None
    return None
