"""Per-layer shape, parameter and FLOP rules for Keras layers built with literal arguments.

`apply(name, init, shapes)` takes the layer class's short name (`Conv2D`), its literal
constructor arguments and the per-sample input shape(s) (no batch axis, channels last), and
returns a `LayerWork` (output shape, parameters, FLOPs per sample), or None when the layer is
not in the table or an argument it needs is not literal: unknown, never guessed. A dimension
may be None (a text model's sequence length): the FLOPs are then None, the parameters and the
shape may still be known (Embedding, Dense on the last axis, a global pooling).

FLOPs count a multiply-add as 2 (as TensorFlow's profiler does, data/work/keras_applications.csv):
Dense 2·d_in·units per position, a convolution 2·k·c_in/groups·filters per output position, a
recurrent layer 2·gates·units·(d_in+units) per time step; pooling, normalisation and activations
count one or a few FLOPs per element they read. Bias additions are not counted. Attention
layers take several inputs (query, value, key: `apply` gets their shapes in that order): their
projections count as Dense layers, the scores Q·Kᵀ and the weighted sum A·V as 2·Tq·Tv·d each,
the softmax 3 FLOPs per score (as the Softmax layer).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

Shape = tuple[int, ...]


class LayerWork(NamedTuple):
    shape: tuple[int | None, ...]  # a None side: free (any image size)
    params: int
    flops: int | None  # None: depends on a dimension not known statically


def product(dims) -> int | None:
    """The product of dimensions (a tensor's elements, a window's positions); None where one is free."""
    return None if any(d is None for d in dims) else math.prod(dims)


def _times(k: int, n: int | None) -> int | None:
    return None if n is None else k * n


def _ints(value: Any, rank: int) -> tuple[int, ...] | None:
    """An int or a list of *rank* ints (kernel sizes, strides) as a tuple."""
    if type(value) is int and value > 0:
        return (value,) * rank
    if isinstance(value, list) and len(value) == rank and all(type(v) is int and v > 0 for v in value):
        return tuple(value)
    return None


def _spatial(n: int | None, k: int, s: int, d: int, padding: str) -> int | None:
    """An output side of a window of *k* (stride *s*, dilation *d*); None for a free side (any image size)."""
    if n is None:
        return None
    if padding == "same":
        return -(-n // s)
    return max(0, (n - d * (k - 1) - 1) // s + 1)


def _conv(init: dict, shape: Shape, rank: int, *, depthwise: bool = False, separable: bool = False,
          transpose: bool = False) -> LayerWork | None:
    """A convolution's work; on free sides (`Input(shape=(None, None, 3))`) its parameters and output
    channels, its FLOPs unknown."""
    if len(shape) != rank + 1 or shape[-1] is None:
        return None
    channels = shape[-1]
    kernel = _ints(init.get("kernel_size"), rank)
    strides = _ints(init.get("strides", 1), rank)
    dilation = _ints(init.get("dilation_rate", 1), rank)
    padding = init.get("padding", "valid")
    groups = init.get("groups", 1)
    bias = init.get("use_bias", True) is not False
    if kernel is None or strides is None or dilation is None or padding not in ("valid", "same", "causal"):
        return None
    padding = "same" if padding == "causal" else padding
    out: tuple[int | None, ...]
    if transpose:
        out = tuple(None if n is None else n * s if padding == "same" else (n - 1) * s + k
                    for n, k, s in zip(shape, kernel, strides))
    else:
        out = tuple(_spatial(n, k, s, d, padding) for n, k, s, d in zip(shape, kernel, strides, dilation))
    k = math.prod(kernel)
    positions = product(out)
    if depthwise or separable:
        multiplier = init.get("depth_multiplier", 1)
        if type(multiplier) is not int:
            return None
        mid = channels * multiplier
        params, flops = k * mid, _times(2 * k * mid, positions)
        if depthwise:
            return LayerWork((*out, mid), params + (mid if bias else 0), flops)
        filters = init.get("filters")
        if type(filters) is not int:
            return None
        pointwise = _times(2 * mid * filters, positions)
        return LayerWork((*out, filters), params + mid * filters + (filters if bias else 0),
                         None if flops is None or pointwise is None else flops + pointwise)
    filters = init.get("filters")
    if type(filters) is not int or type(groups) is not int or groups < 1 or channels % groups:
        return None
    params = k * (channels // groups) * filters + (filters if bias else 0)
    reads = product(shape[:-1]) if transpose else positions
    return LayerWork((*out, filters), params, _times(2 * k * (channels // groups) * filters, reads))


def _dense(init: dict, shape: Shape) -> LayerWork | None:
    units = init.get("units")
    if type(units) is not int or not shape or shape[-1] is None:
        return None
    d = shape[-1]
    bias = init.get("use_bias", True) is not False
    flops = _times(2 * d * units, product(shape[:-1]))
    return LayerWork((*shape[:-1], units), d * units + (units if bias else 0), flops)


def _pool(init: dict, shape: Shape, rank: int) -> LayerWork | None:
    if len(shape) != rank + 1 or shape[-1] is None:
        return None
    pool = _ints(init.get("pool_size", 2), rank)
    strides = _ints(init.get("strides") if init.get("strides") is not None else init.get("pool_size", 2), rank)
    padding = init.get("padding", "valid")
    if pool is None or strides is None or padding not in ("valid", "same"):
        return None
    out = tuple(_spatial(n, k, s, 1, padding) for n, k, s in zip(shape, pool, strides))
    return LayerWork((*out, shape[-1]), 0, _times(shape[-1] * math.prod(pool), product(out)))


def _global_pool(init: dict, shape: Shape, rank: int) -> LayerWork | None:
    if len(shape) != rank + 1 or shape[-1] is None:
        return None
    out = (*([1] * rank), shape[-1]) if init.get("keepdims") is True else (shape[-1],)
    return LayerWork(out, 0, product(shape))


#: Layers that loop over their input's time steps: each step re-reads the recurrent weights and writes
#: its gates' state, traffic their output shape does not show.
RECURRENT = frozenset({"LSTM", "GRU", "SimpleRNN"})


def _recurrent(init: dict, shape: Shape, gates: int, extra_bias: int) -> LayerWork | None:
    units = init.get("units")
    if type(units) is not int or len(shape) != 2 or shape[1] is None:
        return None
    steps, d = shape
    params = gates * (units * (d + units) + units) + extra_bias * units
    out = (steps, units) if init.get("return_sequences") is True else (units,)
    return LayerWork(out, params, _times(2 * gates * units * (d + units), steps))


def _gru(init: dict, shape: Shape) -> LayerWork | None:
    reset_after = init.get("reset_after", True) is not False
    return _recurrent(init, shape, 3, 3 if reset_after else 0)


def _embedding(init: dict, shape: Shape) -> LayerWork | None:
    vocab, dim = init.get("input_dim"), init.get("output_dim")
    if type(vocab) is not int or type(dim) is not int:
        return None
    return LayerWork((*shape, dim), vocab * dim, 0)


def _flatten(init: dict, shape: Shape) -> LayerWork | None:
    size = product(shape)
    return LayerWork((size,), 0, 0) if size is not None else None


def _reshape(init: dict, shape: Shape) -> LayerWork | None:
    target = init.get("target_shape")
    if not isinstance(target, list) or not all(type(d) is int for d in target) or None in shape:
        return None
    total = math.prod(shape)
    if target.count(-1) == 1:
        known = -math.prod(target)
        if known <= 0 or total % known:
            return None
        target = [total // known if d == -1 else d for d in target]
    if math.prod(target) != total:
        return None
    return LayerWork(tuple(target), 0, 0)


def _elementwise(per_element: int):
    def rule(init: dict, shape: Shape) -> LayerWork:
        return LayerWork(shape, 0, _times(per_element, product(shape)))

    return rule


def _norm(params_per_channel: int, per_element: int):
    def rule(init: dict, shape: Shape) -> LayerWork | None:
        if not shape or shape[-1] is None:
            return None
        return LayerWork(shape, params_per_channel * shape[-1], _times(per_element, product(shape)))

    return rule


def _prelu(init: dict, shape: Shape) -> LayerWork | None:
    """relu(x) − α·relu(−x), one α per element, shared along `shared_axes` (1: the first axis
    after the batch): 4 FLOPs per element."""
    shared = init.get("shared_axes")
    shared = [shared] if type(shared) is int else shared if shared is not None else []
    if None in shape or not isinstance(shared, list) or not all(type(a) is int and 1 <= a <= len(shape) for a in shared):
        return None
    alphas = math.prod(1 if axis + 1 in shared else d for axis, d in enumerate(shape))
    return LayerWork(shape, alphas, 4 * math.prod(shape))


def _group_norm(init: dict, shape: Shape) -> LayerWork | None:
    groups = init.get("groups", 32)
    if not shape or shape[-1] is None or type(groups) is not int or groups < 1 or shape[-1] % groups:
        return None
    scaled = init.get("center", True) is not False, init.get("scale", True) is not False
    return LayerWork(shape, sum(scaled) * shape[-1], _times(5, product(shape)))


def normalisation(init: dict, shape: Shape) -> LayerWork | None:
    """A normalisation layer of another library (`InstanceNormalization()` of keras-contrib or
    TensorFlow Addons): it keeps its input's shape and, like GroupNormalization, reads each element
    a few times (5 FLOPs: mean, variance, centring, scaling, offset). Its scale and offset: one
    each per sample where `axis` is None or not given (keras-contrib's default), one per entry of
    the axis an int `axis` names; None where `axis` is not a literal or the shape is not known."""
    axis = init.get("axis")
    if not shape or None in shape:
        return None
    if axis is None:
        size = 1
    elif type(axis) is int and 1 <= abs(axis) <= len(shape):  # (axis 0 is the batch's)
        size = shape[axis - 1 if axis > 0 else axis]
    else:
        return None
    scaled = init.get("center", True) is not False, init.get("scale", True) is not False
    return LayerWork(shape, sum(scaled) * size, 5 * math.prod(shape))


def _repeat_vector(init: dict, shape: Shape) -> LayerWork | None:
    n = init.get("n")
    if type(n) is not int or len(shape) != 1:
        return None
    return LayerWork((n, shape[0]), 0, 0)


def _margins(value: Any) -> tuple[int, int] | None:
    """Rows and columns a ZeroPadding2D/Cropping2D adds or removes in all: `n`, `(h, w)` (both
    sides each) or `((top, bottom), (left, right))`."""
    if type(value) is int:
        return 2 * value, 2 * value
    if not (isinstance(value, list) and len(value) == 2):
        return None
    if all(type(v) is int for v in value):
        return 2 * value[0], 2 * value[1]
    if all(isinstance(v, list) and len(v) == 2 and all(type(n) is int for n in v) for v in value):
        return value[0][0] + value[0][1], value[1][0] + value[1][1]
    return None


def _margin2d(sign: int):
    """ZeroPadding2D (sign 1) or Cropping2D (sign −1): rows and columns added or removed, no FLOPs."""
    def rule(init: dict, shape: Shape) -> LayerWork | None:
        extra = _margins(init.get("padding" if sign > 0 else "cropping", 1 if sign > 0 else 0))
        if extra is None or len(shape) != 3 or shape[2] is None:
            return None
        out = (*(None if n is None else n + sign * e for n, e in zip(shape[:2], extra)), shape[2])
        return LayerWork(out, 0, 0) if min(n for n in out if n is not None) > 0 else None
    return rule


def _upsampling2d(init: dict, shape: Shape) -> LayerWork | None:
    size = _ints(init.get("size", 2), 2)
    if size is None or len(shape) != 3 or shape[2] is None:
        return None
    out = (*(None if n is None else n * k for n, k in zip(shape[:2], size)), shape[2])
    return LayerWork(out, 0, product(out))


def _resizing(init: dict, shape: Shape) -> LayerWork | None:
    h, w = init.get("height"), init.get("width")
    if type(h) is not int or type(w) is not int or len(shape) != 3 or shape[2] is None:
        return None
    return LayerWork((h, w, shape[2]), 0, 4 * h * w * shape[2])


def _crop(init: dict, shape: Shape) -> LayerWork | None:
    """`RandomCrop`, `CenterCrop`: a window of `height` x `width`, one FLOP per element it copies."""
    found = _resizing(init, shape)
    return None if found is None else found._replace(flops=product(found.shape))


def _text_vectorization(init: dict, shape: Shape) -> LayerWork | None:
    """Strings in, token ids (or a vector of `max_tokens` counts) out; no weights."""
    mode = init.get("output_mode", "int")
    if mode == "int":
        length = init.get("output_sequence_length")
        return LayerWork((length if type(length) is int else None,), 0, None)
    tokens = init.get("max_tokens")
    return LayerWork((tokens,), 0, None) if type(tokens) is int else None


def _sequences(shapes: list[Shape], dims: int = 2) -> list[Shape] | None:
    """(query, value, key) shapes of an attention layer, each (steps, features); the key is the
    value when not given."""
    if len(shapes) not in (2, 3) or any(len(s) != dims for s in shapes):
        return None
    return [shapes[0], shapes[1], shapes[2] if len(shapes) == 3 else shapes[1]]


def _multi_head_attention(init: dict, shapes: list[Shape]) -> LayerWork | None:
    """MultiHeadAttention on query (Tq, dq), value (Tv, dv), key (Tv, dk): per head, query and
    key projected to key_dim, value to value_dim; scores, softmax, weighted sum; the heads
    projected back to output_shape (dq by default)."""
    found = _sequences(shapes)
    heads, key_dim = init.get("num_heads"), init.get("key_dim")
    value_dim = init.get("value_dim") or key_dim
    out = init.get("output_shape")
    out = out[0] if isinstance(out, list) and len(out) == 1 else out
    if not (type(heads) is int and type(key_dim) is int and type(value_dim) is int) or found is None \
            or init.get("attention_axes") is not None or init.get("use_gate") is True:
        return None  # (other attention axes, a gate: not modelled)
    (tq, dq), (tv, dv), (tk, dk) = found
    out = dq if out is None else out
    if type(out) is not int or dq is None or dv is None or dk is None:
        return None
    bias = init.get("use_bias", True) is not False
    hk, hv = heads * key_dim, heads * value_dim
    params = (dq + dk) * hk + dv * hv + hv * out + ((2 * hk + hv + out) if bias else 0)
    if tq is None or tv is None or tk is None:
        return LayerWork((tq, out), params, None)
    projections = 2 * (tq * dq * hk + tk * dk * hk + tv * dv * hv + tq * hv * out)
    scores = heads * tq * tk
    attend = 2 * scores * key_dim + 3 * scores + 2 * scores * value_dim
    return LayerWork((tq, out), params, projections + attend)


def _attention(additive: bool):
    """Attention (Luong: scores Q·Kᵀ, or score_mode="concat": Σ tanh(q + k)) and AdditiveAttention
    (Bahdanau: Σ scale·tanh(q + k)) on query (Tq, d), value (Tv, d), key (Tv, d)."""

    def rule(init: dict, shapes: list[Shape]) -> LayerWork | None:
        found = _sequences(shapes)
        if found is None:
            return None
        (tq, d), (tv, dv), (tk, _) = found
        if d is None or dv is None:
            return None
        concat = not additive and init.get("score_mode", "dot") == "concat"
        use_scale = init.get("use_scale", additive) is True
        params = (d if additive else 1) * use_scale + concat
        if None in (tq, tv, tk):
            return LayerWork((tq, dv), params, None)
        per_pair = 4 * d if additive else 3 * d if concat else 2 * d
        return LayerWork((tq, dv), params, tq * tk * (per_pair + 3) + 2 * tq * tv * dv)

    return rule


#: Short class name -> rule(init, per-sample input shape) for single-input layers.
RULES = {
    "Dense": _dense,
    "Conv1D": lambda i, s: _conv(i, s, 1),
    "Conv2D": lambda i, s: _conv(i, s, 2),
    "Conv3D": lambda i, s: _conv(i, s, 3),
    "Conv1DTranspose": lambda i, s: _conv(i, s, 1, transpose=True),
    "Conv2DTranspose": lambda i, s: _conv(i, s, 2, transpose=True),
    "Conv3DTranspose": lambda i, s: _conv(i, s, 3, transpose=True),
    "DepthwiseConv2D": lambda i, s: _conv(i, s, 2, depthwise=True),
    "SeparableConv2D": lambda i, s: _conv(i, s, 2, separable=True),
    "MaxPooling1D": lambda i, s: _pool(i, s, 1),
    "MaxPooling2D": lambda i, s: _pool(i, s, 2),
    "MaxPooling3D": lambda i, s: _pool(i, s, 3),
    "AveragePooling1D": lambda i, s: _pool(i, s, 1),
    "AveragePooling2D": lambda i, s: _pool(i, s, 2),
    "AveragePooling3D": lambda i, s: _pool(i, s, 3),
    "GlobalAveragePooling1D": lambda i, s: _global_pool(i, s, 1),
    "GlobalAveragePooling2D": lambda i, s: _global_pool(i, s, 2),
    "GlobalAveragePooling3D": lambda i, s: _global_pool(i, s, 3),
    "GlobalMaxPooling1D": lambda i, s: _global_pool(i, s, 1),
    "GlobalMaxPooling2D": lambda i, s: _global_pool(i, s, 2),
    "GlobalMaxPooling3D": lambda i, s: _global_pool(i, s, 3),
    "LSTM": lambda i, s: _recurrent(i, s, 4, 0),
    "GRU": _gru,
    "SimpleRNN": lambda i, s: _recurrent(i, s, 1, 0),
    "Embedding": _embedding,
    "Flatten": _flatten,
    "Reshape": _reshape,
    "BatchNormalization": _norm(4, 2),
    "LayerNormalization": _norm(2, 5),
    "GroupNormalization": _group_norm,
    "PReLU": _prelu,
    "Masking": _elementwise(3),
    "RepeatVector": _repeat_vector,
    "Dropout": _elementwise(1),
    "SpatialDropout1D": _elementwise(1),
    "SpatialDropout2D": _elementwise(1),
    "GaussianNoise": _elementwise(1),
    "GaussianDropout": _elementwise(1),
    "AlphaDropout": _elementwise(1),
    "Activation": _elementwise(1),
    "ReLU": _elementwise(1),
    "LeakyReLU": _elementwise(1),
    "ELU": _elementwise(1),
    "Softmax": _elementwise(3),
    "Rescaling": _elementwise(2),
    "Normalization": _elementwise(2),
    "RandomFlip": _elementwise(1),
    "RandomRotation": _elementwise(4),
    "RandomZoom": _elementwise(4),
    "RandomTranslation": _elementwise(4),
    "RandomContrast": _elementwise(2),
    "ZeroPadding2D": _margin2d(1),
    "Cropping2D": _margin2d(-1),
    "UpSampling2D": _upsampling2d,
    "Resizing": _resizing,
    "RandomCrop": _crop,
    "CenterCrop": _crop,
    "TextVectorization": _text_vectorization,
}
#: Short class name -> rule(init, per-sample input shapes) for layers of several inputs.
MULTI_INPUT_RULES = {
    "MultiHeadAttention": _multi_head_attention,
    "Attention": _attention(False),
    "AdditiveAttention": _attention(True),
}
#: A layer's call arguments that are its inputs, in the order its rule takes them (the first
#: positional argument otherwise; Attention takes a list `[query, value, key]`).
CALL_INPUTS = {"MultiHeadAttention": ("query", "value", "key")}
#: The class names of another library's layers that `normalisation` prices (what they end in).
NORMALISATION = "Normalization"
#: Layers whose output does not depend on their input's shape (a model may start with them).
SHAPE_FREE = frozenset({"TextVectorization"})
#: Other names Keras exports for the same layers.
ALIASES = {
    "MaxPool1D": "MaxPooling1D", "MaxPool2D": "MaxPooling2D", "MaxPool3D": "MaxPooling3D",
    "AvgPool1D": "AveragePooling1D", "AvgPool2D": "AveragePooling2D", "AvgPool3D": "AveragePooling3D",
    "GlobalAvgPool1D": "GlobalAveragePooling1D", "GlobalAvgPool2D": "GlobalAveragePooling2D",
    "GlobalAvgPool3D": "GlobalAveragePooling3D", "GlobalMaxPool1D": "GlobalMaxPooling1D",
    "GlobalMaxPool2D": "GlobalMaxPooling2D", "GlobalMaxPool3D": "GlobalMaxPooling3D",
    "Convolution1D": "Conv1D", "Convolution2D": "Conv2D", "Convolution3D": "Conv3D",
    "Convolution2DTranspose": "Conv2DTranspose", "SeparableConvolution2D": "SeparableConv2D",
}  # fmt: skip
RULES.update({alias: RULES[name] for alias, name in ALIASES.items()})
#: Options the rules read with a default where they are absent (`padding="valid"`, `use_bias=True`).
DEFAULTED = frozenset({
    "attention_axes", "axis", "center", "cropping", "data_format", "depth_multiplier", "dilation_rate", "groups", "keepdims",
    "merge_mode", "output_mode", "output_sequence_length", "padding", "pool_size", "reset_after",
    "return_sequences", "scale", "score_mode", "shared_axes", "size", "strides", "use_bias", "use_gate", "use_scale",
})
#: Of those, the options that move a layer's output sides alone: its parameters and channels are the same
#: whatever they are.
SIDES_ONLY = frozenset({"cropping", "dilation_rate", "padding", "pool_size", "size", "strides"})
#: The `data_format`s putting the channels before the sides (Keras' `"channels_first"`, `nn` ops' `"NCHW"`).
CHANNELS_FIRST = frozenset({"channels_first", "NCW", "NCHW", "NCDHW"})
#: Keras' configured `data_format` (`K.image_data_format()`): the one its layers take where none is given,
#: and so the one these rules read where `data_format` is absent (a `keras.json` setting the program does not show).
DATA_FORMAT = "channels_last"
#: The calls reading it.
DATA_FORMAT_READS = frozenset({"tensorflow.keras.config.image_data_format"})
#: Layers joining several inputs of one shape (Concatenate joins along its axis).
MERGES = frozenset({"Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate"})
#: Keras' functional helpers that build a merge layer and call it at once (`concatenate([a, b], axis=3)`).
MERGE_FUNCTIONS = {name.lower(): name for name in MERGES}
#: Activations that a layer's `activation=` argument adds (per output element).
_ACTIVATION_FLOPS = 1


def apply(name: str, init: dict, shapes: list[Shape]) -> LayerWork | None:
    """The work of layer *name* (short class name) on per-sample input *shapes*; None if unknown."""
    if name in MERGES:
        return _merge(name, init, shapes)
    if name in MULTI_INPUT_RULES:
        return MULTI_INPUT_RULES[name](init, shapes)
    rule = RULES.get(name)
    if rule is None or len(shapes) != 1:
        return None
    if init.get("data_format") in CHANNELS_FIRST:
        return _channels_first(name, init, shapes[0])
    found = rule(init, shapes[0])
    if found is None:
        return None
    act = init.get("activation")
    if isinstance(act, str) and act not in ("linear", "tensorflow.keras.activations.linear") and name != "Activation":
        extra = product(found.shape)
        found = found._replace(flops=None if found.flops is None or extra is None else found.flops + extra)
    return found


def _channels_first(name: str, init: dict, shape: Shape) -> LayerWork | None:
    """The work of a layer given `data_format="channels_first"` on a sample of *shape* (channels, then
    sides): the same layer's on the channels moved last, its output's channels moved first again."""
    if len(shape) < 2:
        return None
    found = apply(name, {k: v for k, v in init.items() if k != "data_format"}, [(*shape[1:], shape[0])])
    if found is None or len(found.shape) != len(shape):
        return found  # (a global pooling's channels, a flattened sample: no sides left)
    return found._replace(shape=(found.shape[-1], *found.shape[:-1]))


def unread(named: dict[str, Any], init: dict, spread: bool, options: frozenset[str] = DEFAULTED) -> tuple[str, ...]:
    """The *options* (a layer's `DEFAULTED`) a constructor is given as values not known (all of them where it
    spreads a `**dict` not known, *spread*): its work is then not its defaults' (`unread_work`)."""
    if spread:
        return tuple(sorted(options))
    return tuple(name for name in named if name in options and name not in init)


def unread_work(name: str, init: dict, shapes: list[Shape], unread: tuple[str, ...]) -> LayerWork | None:
    """The work of a layer given *unread* options as values not known: where they move its output sides
    alone (`Conv1D(20, 2, dilation_rate=rate)`), its parameters and channels with its sides free and its
    FLOPs unknown; otherwise unknown."""
    if not SIDES_ONLY.issuperset(unread) or len(shapes) != 1 or len(shapes[0]) < 2:
        return None
    found = apply(name, {k: v for k, v in init.items() if k not in unread}, shapes)
    if found is None or len(found.shape) != len(shapes[0]):
        return None
    if unread == ("dilation_rate",) and init.get("padding") in ("same", "causal"):
        return found  # (padded to its input's length, a dilated window reads as many values as any)
    return LayerWork((*[None] * (len(found.shape) - 1), found.shape[-1]), found.params, None)


def _merge(name: str, init: dict, shapes: list[Shape]) -> LayerWork | None:
    """A merge of tensors of one shape (Concatenate: but on its axis); a side free in all of them
    (any image size) stays free, its FLOPs then unknown."""
    if len(shapes) < 2:
        return None
    first = shapes[0]
    if name == "Concatenate":
        axis = init.get("axis", -1)  # counts the batch axis (0), which a per-sample shape has not
        if type(axis) is not int or not 1 <= abs(axis) <= len(first) or any(len(s) != len(first) for s in shapes):
            return None
        axis = axis - 1 if axis > 0 else axis % len(first)
        rest = [s[:axis] + s[axis + 1:] for s in shapes]
        if any(s[axis] is None for s in shapes) or any(None in r for r in rest) and any(r != rest[0] for r in rest):
            return None
        out = list(first)
        out[axis] = sum(s[axis] for s in shapes)
        return LayerWork(tuple(out), 0, 0)
    if any(s != first for s in shapes) or None in first[-1:]:  # (a scalar a sample: shape `()`)
        return None
    return LayerWork(first, 0, _times(len(shapes) - 1, product(first)))
