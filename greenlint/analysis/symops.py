"""TensorFlow ops on symbolic tensors: the graph a TF1 program builds from its placeholders.

A placeholder (`tf.placeholder(tf.float32, [None, 784])`) is a symbolic tensor (arrays.Sym) whose
per-sample shape is its shape after the first (batch) axis, as `keras.Input`'s is. A TF op on
symbolic tensors adds its FLOPs per sample to the graph it returns where the shapes it needs are
known (ops.py counts them as on literal shapes): `matmul` by a variable of literal shape, `nn.conv2d`
and `nn.conv2d_transpose` with a filter of literal shape, TF1's layer functions (`tf.layers.dense`,
`conv2d`, ...) as the Keras layer each builds (layers.py), elementwise ops, reductions, losses and
summaries one FLOP per element (`nn.moments` three: its mean and variance, of the reduced shape),
`reshape`, `concat` and `pad` none. Any other TF op on a symbolic tensor
returns one of unknown shape, its name among the unknown: the graph's FLOPs are then the known
ops' alone, a lower bound (work.sym_net). A size the code does not show (a channel count read from
the data, `[self.batch_size] + image_dims`) stays None in the shape: an op whose output shape does
not depend on it keeps that shape, its own FLOPs unknown, so the ops after it are counted (a lower
bound too). An optimizer's update of a loss computed so is one training step of that graph
(graphrun.py); the graphs of alternative paths join as the lighter one (symjoin.py).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from greenlint.analysis import layers, ops
from greenlint.analysis.arrays import Sym, is_sym, shape_of
from greenlint.analysis.features import literal_features
from greenlint.analysis.values import OPAQUE, Const, Inst, Seq, items_of
from greenlint.analysis.work import merge_syms, unknown_on_sym

PLACEHOLDER = "tensorflow.compat.v1.placeholder"
#: TF1's layer functions (`tf.layers.dense(x, 64)`) and the Keras layer each builds.
LAYER_FUNCTIONS = {
    "dense": "Dense", "conv1d": "Conv1D", "conv2d": "Conv2D", "conv3d": "Conv3D", "conv2d_transpose": "Conv2DTranspose",
    "separable_conv2d": "SeparableConv2D", "max_pooling1d": "MaxPooling1D", "max_pooling2d": "MaxPooling2D",
    "average_pooling1d": "AveragePooling1D", "average_pooling2d": "AveragePooling2D",
    "batch_normalization": "BatchNormalization", "dropout": "Dropout", "flatten": "Flatten",
}  # fmt: skip
_LAYER_MODULE = "tensorflow.compat.v1.layers."
#: Layer functions whose output channels are their own (`units`, `filters`), and those keeping their input's.
_OWN_CHANNELS = frozenset({"Dense", "Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "SeparableConv2D"})
_KEPT_CHANNELS = frozenset({"MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D",
                            "BatchNormalization", "Dropout"})
#: TF1 normalisations outside TF2's namespace (so outside the catalog): they keep their input's shape
#: (instance and group normalisation too: statistics over a sample's own positions, then a scale and shift).
NORMALISATIONS = frozenset({f"tensorflow.contrib.{module}.{norm}" for module in ("layers", "slim")
                            for norm in ("batch_norm", "layer_norm", "instance_norm", "group_norm")})
#: Ops that keep their symbolic operand's shape, one FLOP per element (besides ops.py's unary and binary ops).
_ELEMENTWISE = frozenset({
    "bias_add", "leaky_relu", "dropout", "sigmoid_cross_entropy_with_logits", "l2_normalize", "clip_by_value",
    "ones_like", "zeros_like", "add_n", "crelu", "to_float", "to_double", "to_int32", "to_int64", "to_bfloat16",
})  # fmt: skip
#: TF1's losses and summaries: a scalar of the batch, one FLOP per element read.
_TO_SCALAR = ("tensorflow.compat.v1.losses.", "tensorflow.compat.v1.summary.")
#: Losses over the last axis (classes), and `in_top_k`: one FLOP per element read, the last axis dropped.
_LAST_AXIS = frozenset({"softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2",
                        "sparse_softmax_cross_entropy_with_logits", "in_top_k"})
#: Ops giving a tensor's shape: of a symbolic tensor, its batch unknown and the rest its per-sample shape
#: (`symops.shape_value`, as `x.shape`), so that `tf.range(tf.shape(x)[-1])` has its length.
SHAPE_OPS = frozenset({"tensorflow.shape", "tensorflow.keras.ops.shape"})
#: `nn` pooling ops: a window over each channel's sides, one FLOP per value read.
_POOLS = frozenset({"max_pool", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool", "avg_pool1d", "avg_pool2d",
                    "avg_pool3d"})
#: Image resizing to a stated size (`tf.image.resize(x, (h, w))`), TF1's named methods too.
_RESIZES = frozenset({"tensorflow.image.resize", "tensorflow.compat.v1.image.resize",
                      "tensorflow.compat.v1.image.resize_bilinear", "tensorflow.compat.v1.image.resize_nearest_neighbor",
                      "tensorflow.compat.v1.image.resize_bicubic", "tensorflow.compat.v1.image.resize_area"})
#: Input values each output value of a resize reads (bilinear's 2x2; nearest reads one, bicubic 4x4).
_RESIZE_TAPS = {"nearest": 1, "bicubic": 16, "area": 4}
_BILINEAR_TAPS = 4
#: The ops `_op` follows one by one (the others are elementwise, reductions or last-axis ops).
_SHAPED = frozenset({"matmul", "conv1d", "conv2d", "conv3d", "convolution", "conv2d_transpose", "reshape", "transpose",
                     "concat", "pad", "split", "unstack", "moments"}) | _POOLS
#: FLOPs per element `nn.moments` reads: the mean's sum, then each value's deviation squared and summed.
_MOMENTS_FLOPS = 3
_TENSOR_ARGS = ("input", "inputs", "x", "y", "a", "b", "features", "logits", "labels", "value", "values", "tensor",
                "input_tensor", "t")


def _sample(value: Any) -> tuple | None:
    """The per-sample shape of a symbolic tensor, None where it is not one or its shape is unknown."""
    return value.meta["sym"].shape if is_sym(value) else None


def dims(value: Any) -> list | None:
    """The sizes a shape argument lists, a size the code does not show (`[self.batch_size] + image_dims`,
    a channel count read from the data) as None; None where it is not a list or tuple of sizes."""
    if type(value) is Seq:
        raw = [item.value if type(item) is Const and item is not OPAQUE else None for item in value.items]
    elif type(value) is Const and isinstance(value.value, (list, tuple)):
        raw = list(value.value)
    else:
        return None
    return raw if all(d is None or (type(d) is int and d >= -1) for d in raw) else None


def _weight_shape(value: Any) -> tuple | None:
    """The shape of a weight (a filter, a matrix): its whole shape where known, else the sizes its
    creation lists, None for those it does not show (`tf.get_variable("w", [5, 5, x.get_shape()[-1], 64])`
    on an input of unknown channels)."""
    shape = shape_of(value)
    if shape is not None or type(value) is not Inst:
        return shape
    raw = dims(Const(value.meta.get("init", {}).get("shape")))
    return tuple(raw) if raw and -1 not in raw else None


def placeholder(named: dict) -> tuple[Sym, int | None] | None:
    """A placeholder of known rank: its Sym (the shape after the batch axis, a size the code does not
    show None; the batch a run feeds it where literal) and its batch (an int, or None where left open)."""
    raw = dims(named.get("shape"))
    if not raw or -1 in raw:
        return None
    sample = tuple(raw[1:])
    return Sym(sample, sample, batch=raw[0] if raw[0] else None), raw[0]


def shape_value(sym: Sym) -> Const | None:
    """`x.shape` / `x.get_shape()` of a symbolic tensor: its batch axis unknown (None), the rest its
    per-sample shape; None where that is not known."""
    return Const((None, *sym.shape)) if sym.shape is not None else None


def _syms(named: dict) -> list[Sym]:
    found: list[Sym] = []
    for value in named.values():
        items = items_of(value)
        found.extend(v.meta["sym"] for v in items if is_sym(v))
    return found


def _leaf(api: str) -> str | None:
    for prefix in ("tensorflow.compat.v1.nn.", "tensorflow.compat.v1.math.", "tensorflow.compat.v1.", *ops.OP_MODULES):
        if api.startswith(prefix) and "." not in api[len(prefix):]:
            return api[len(prefix):]
    return None


def returns_tensor(api: str) -> bool:
    """Whether *api* is an op of TF's op modules whose work this module follows (`tf.nn.leaky_relu`,
    `tf.math.exp`, `tf.concat`): it returns one tensor, even where the catalog does not say so."""
    leaf = _leaf(api)
    if api in _RESIZES:
        return True
    return leaf is not None and (leaf in ops.UNARY or leaf in ops.BINARY or leaf in _ELEMENTWISE or leaf in _LAST_AXIS
                                 or leaf in ops.REDUCTIONS or leaf in _SHAPED)


def on_sym(api: str, named: dict, call_key: Hashable, spread: bool = False) -> Sym | None:
    """The Sym a TF op returns given symbolic tensor(s) among *named* (None where it is given none; *spread*:
    a `**dict` not known besides): its known work added, else one of unknown shape (`unknown_on_sym`);
    either way one op node of the graph, one layer dispatched a step (Keras 2 wraps it in a TFOpLambda layer)."""
    syms = _syms(named)
    if not syms:
        return None
    found = None
    if api in NORMALISATIONS:
        found = _added(syms, syms[0].shape, _elements(syms[0].shape), call_key)
    elif api.startswith(_TO_SCALAR):
        shapes = [s.shape for s in syms]
        read = None if None in shapes else sum(_elements(s) or 0 for s in shapes)
        found = _added(syms, (), read, call_key)
    elif api in _RESIZES:
        found = _resize(api, named, syms, call_key)
    elif api.startswith(_LAYER_MODULE) and api[len(_LAYER_MODULE):] in LAYER_FUNCTIONS:
        found = _layer(LAYER_FUNCTIONS[api[len(_LAYER_MODULE):]], named, syms, call_key, spread)
    else:
        leaf = _leaf(api)
        if leaf is not None:
            found = _op(leaf, named, syms, call_key)
    return found if found is not None else unknown_on_sym(syms, api.rpartition(".")[2], call_key, 1)  # one op


def on_layer(name: str | None, label: str, named: dict, call_key: Hashable) -> Sym:
    """Keras layer *name* (its arguments Consts among *named*, its input `inputs`) called on a symbolic
    tensor as a TF1 layer function is: its work added where known, else one of unknown shape with
    *label* among the unknown (*name* None: an argument that moves its work not known)."""
    syms = _syms(named)
    found = _layer(name, named, syms, call_key) if name is not None else None
    return found if found is not None else unknown_on_sym(syms, label, call_key, 1)


def _elements(shape: tuple | None) -> int | None:
    return None if shape is None or None in shape else math.prod(shape)


def _added(syms: list[Sym], shape: tuple | None, flops: int | None, call_key: Hashable) -> Sym:
    merged = merge_syms(syms, shape)
    merged.flops[call_key] = flops
    merged.outputs[call_key] = _elements(shape)
    merged.layers[call_key] = 1
    return merged


def _layer(name: str, named: dict, syms: list[Sym], call_key: Hashable, spread: bool = False) -> Sym | None:
    """Keras layer *name* built from the literal arguments among *named* (as a Keras constructor's,
    `literal_features`) on its symbolic `inputs`; an option given as a value not known (`strides=s`, a
    `**dict` not known: *spread*) leaves what it moves unknown (`layers.unread`), never its default's."""
    shape = _sample(named.get("inputs"))
    if shape is None:
        return None
    init = literal_features({k: v for k, v in named.items() if k != "inputs"})
    unread = layers.unread(named, init, spread)
    # `tf.layers.conv2d(x, 16, 3, strides=s)`: its sides and FLOPs unknown, its channels and weights known
    found = layers.unread_work(name, init, [shape], unread) if unread else layers.apply(name, init, [shape])
    if found is None:
        return None if unread else _layer_shape(name, init, shape, syms, call_key)
    meta = {"init": init}
    merged = _added(syms, found.shape, found.flops, call_key)
    merged.params[id(meta)] = (found.params, meta)  # the meta kept alive: its id stays its own
    merged.owners[call_key] = id(meta)
    return merged


def _layer_shape(name: str, init: dict, shape: tuple, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """A layer function on a sample whose channels alone are not known (its last axis): the output
    shape, which a layer setting its own channels (`units`, `filters`) or keeping its input's gives
    without them, its FLOPs and weights unknown; None otherwise."""
    if not shape or shape[-1] is not None or None in shape[:-1] or name not in _OWN_CHANNELS | _KEPT_CHANNELS \
            or init.get("data_format") in layers.CHANNELS_FIRST:
        return None
    found = layers.apply(name, init, [(*shape[:-1], 1)])
    if found is None or not found.shape:
        return None
    return _added(syms, found.shape if name in _OWN_CHANNELS else (*found.shape[:-1], None), None, call_key)


def _summed(items: tuple, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`add_n` of symbolic tensors of one known shape (TF requires it): one add per element per operand past
    the first; None where an operand is not symbolic or the shapes differ or are not known."""
    shapes = {_sample(item) if is_sym(item) else None for item in items}
    shape = shapes.pop() if len(shapes) == 1 else None
    count = _elements(shape) if shape is not None else None
    return _added(syms, shape, count * (len(items) - 1), call_key) if count is not None else None


def _first(named: dict, *keys: str) -> Any:
    return next((named[k] for k in keys if k in named), None)


def _op(leaf: str, named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    if leaf == "add_n" and type(named.get("inputs")) is Seq:  # `tf.add_n(losses)`: operands of one shape
        return _summed(named["inputs"].items, syms, call_key)
    if leaf in ops.UNARY or leaf in ops.BINARY or leaf in _ELEMENTWISE:
        shape, sure = _broadcast(named)
        if shape is None:
            return None
        added = _added(syms, shape, _elements(shape), call_key)
        return added if sure else replace(added, unknown=(*added.unknown, leaf))
    if leaf in _LAST_AXIS:  # the classes' scores: `in_top_k`'s first argument in TF1, its second in TF2
        shape = next((s for s in map(_sample, (named.get(k) for k in ("logits", "predictions", "targets"))) if s), None)
        return _added(syms, shape[:-1], _elements(shape), call_key) if shape else None
    if leaf in ops.REDUCTIONS:
        return _reduction(named, syms, call_key)
    if leaf == "matmul":
        return _matmul(named, syms, call_key)
    if leaf in ("conv1d", "conv2d", "conv3d", "convolution"):
        shape = _sample(_first(named, "input", "value"))
        if shape is None:
            return None
        found = _conv(shape, _weight_shape(_first(named, "filters", "filter")), named.get("strides", Const(1)),
                      named.get("padding"), ops.channels_first(named))
        return _added(syms, found[0][1:], found[1], call_key) if found is not None else None
    if leaf in _POOLS:
        return _pool(named, syms, call_key)
    if leaf == "moments":
        return _moments(named, syms, call_key)
    if leaf in ("split", "unstack"):  # views of the input (`split_parts` gives each its shape): no work
        shape = _sample(named.get("value"))
        return _added(syms, shape, 0, call_key) if shape is not None else None
    if leaf == "conv2d_transpose":
        return _transpose(named, syms, call_key)
    if leaf == "reshape":
        return _reshape(named, syms, call_key)
    if leaf == "transpose":
        return _permuted(named, syms, call_key)
    if leaf == "concat":
        return _concat(named, syms, call_key)
    if leaf == "pad":
        return _pad(named, syms, call_key)
    return None


def _conv(shape: tuple, f: tuple | None, strides: Any, padding: Any, first: bool) -> tuple[tuple, int | None] | None:
    """`nn.conv*d` on a sample of *shape* (its channels *first* or last) with filters of shape *f*: its
    output shape and FLOPs (ops.conv_work); where the input channels alone are not known (the input's
    channel axis, the filters' next to last), the output shape, which does not depend on them, and its
    FLOPs unknown."""
    found = ops.conv_work((1, *shape), f, strides, padding, first)
    if found is not None or f is None or len(f) != len(shape) + 1:
        return found
    one = (1, *shape[1:]) if first else (*shape[:-1], 1)
    sized = ops.conv_work((1, *one), (*f[:-2], 1, f[-1]), strides, padding, first)
    return (sized[0], None) if sized is not None else None


def _pool(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`nn.max_pool(x, ksize, strides, padding)` (channels last, or first: `"NCHW"`): the sides a window of
    *ksize* steps over (`ops.conv_work`, the channels kept), one FLOP per value each output reads."""
    shape = _sample(_first(named, "input", "value"))
    first = ops.channels_first(named)
    window = ops.per_axis(named.get("ksize"), len(shape) - 1, first) if shape is not None and len(shape) >= 2 else None
    if shape is None or window is None:
        return None
    channels = shape[0] if first else shape[-1]
    found = ops.conv_work((1, *shape), (*window, channels, channels), named.get("strides", Const(1)),
                          named.get("padding"), first)
    if found is None:
        return None
    out = found[0][1:]
    return _added(syms, out, math.prod(out) * math.prod(window), call_key)


def _moments(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`tf.nn.moments(x, axes=[1, 2], keep_dims=True)` (an instance or layer normalisation written out): the
    shape of its mean and of its variance, each reduced axis of the sample kept as 1 or dropped (the batch
    axis, 0, is not in the sample's shape), `_MOMENTS_FLOPS` per element read; None where the axes or the
    sample's rank are not known."""
    shape = _sample(named.get("x"))
    axes = named.get("axes")
    raw = axes.value if type(axes) is Const and axes is not OPAQUE else None
    keep = any(type(named.get(k)) is Const and named[k].value is True for k in ("keep_dims", "keepdims"))
    if shape is None or not isinstance(raw, (list, tuple)) or not all(type(a) is int for a in raw):
        return None
    rank = len(shape) + 1
    picked = {a + rank if a < 0 else a for a in raw}
    if not all(0 <= a < rank for a in picked):
        return None
    out = tuple(1 if i + 1 in picked else d for i, d in enumerate(shape) if keep or i + 1 not in picked)
    read = _elements(shape)
    return _added(syms, out, None if read is None else _MOMENTS_FLOPS * read, call_key)


def _resize(api: str, named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`tf.image.resize(images, (h, w))` of channels-last images: the new sides, each output value read from
    its method's taps (`_RESIZE_TAPS`; bilinear, the default, four)."""
    shape = _sample(named.get("images"))
    size = named.get("size")
    raw = size.value if type(size) is Const else tuple(_known_int(v) for v in size.items) if type(size) is Seq else None
    if shape is None or len(shape) != 3 or not isinstance(raw, (list, tuple)) or len(raw) != 2 \
            or not all(type(side) is int and side > 0 for side in raw):
        return None
    method = named.get("method")
    name = str(method.value).rpartition(".")[2].lower() if type(method) is Const else api.rpartition("resize_")[2]
    taps = _RESIZE_TAPS.get(name.removesuffix("_neighbor"), _BILINEAR_TAPS)
    out = (*raw, shape[-1])
    return _added(syms, out, None if shape[-1] is None else math.prod(out) * taps, call_key)


def split_parts(api: str, named: dict, whole: Sym) -> list[Sym] | None:
    """The symbolic tensors `tf.split(x, n_or_sizes, axis)` or `tf.unstack(x, axis=...)` gives of *whole*
    (`tf.nn.moments`: its mean and variance, both *whole*),
    the op's result (`on_sym`): as many as the sizes or the count state, each of its shape where the axis
    and sizes are known (else of unknown shape, the op no work beyond the graph before it); None where
    how many is not known."""
    leaf = _leaf(api)
    if leaf == "moments":  # the mean and the variance, of one shape
        return [whole, whole]
    shape = _sample(named.get("value"))
    axis = _known_int(named.get("axis", Const(0)))
    side = None
    if shape is not None and axis is not None and axis != 0 and abs(axis) <= len(shape):
        side = axis - 1 if axis > 0 else len(shape) + axis
    if leaf == "split":
        given = named.get("num_or_size_splits")
        raw = given.value if type(given) is Const else tuple(_known_int(v) for v in given.items) \
            if type(given) is Seq else None
        if type(raw) is int and raw > 0:
            size = shape[side] if side is not None and shape is not None else None
            sizes = [size // raw if size is not None and size % raw == 0 else None] * raw
        elif isinstance(raw, (tuple, list)) and raw:
            sizes = [s if type(s) is int and s >= 0 else None for s in raw]
        else:
            return None
        shapes = [None if side is None else (*shape[:side], size, *shape[side + 1:]) for size in sizes]  # type: ignore[index]
    elif leaf == "unstack":
        count = _known_int(named.get("num")) or (shape[side] if side is not None and shape is not None else None)
        if count is None or count > 64:
            return None
        shapes = [None if side is None else (*shape[:side], *shape[side + 1:])] * count  # type: ignore[index]
    else:
        return None
    return [replace(whole, shape=None if part is None or None in part else part) for part in shapes]


def _known_int(value: Any) -> int | None:
    return value.value if type(value) is Const and type(value.value) is int else None


def _broadcast(named: dict) -> tuple[tuple | None, bool]:
    """The shape of an elementwise op's result: its operands' shapes broadcast axis by axis from the last
    (`_axis`), the batch axis aside (a symbolic operand's is its own; another tensor's is its first
    where it has one axis more than the samples: `y * tf.ones([batch, h, w, c])`; a mask's leading ones
    beyond the samples' axes meet the batch's: `(1, 1, n, n)`), and whether that is sure: another operand of
    unknown shape (no batch axis: a mask, a position embedding) is taken to broadcast into it, the op then
    named among the unknown, so that the graph's FLOPs after it are counted but stay a lower bound. None
    where a symbolic operand's shape is not known or two sizes clash."""
    samples: list[tuple] = []
    others: list[tuple] = []
    sure = True
    for key in _TENSOR_ARGS:
        value = named.get(key)
        if value is None or type(value) is Const and type(value.value) in (int, float):
            continue
        shape = _sample(value) if is_sym(value) else _weight_shape(value)
        if shape is None:
            if is_sym(value):
                return None, True
            sure = False
            continue
        (samples if is_sym(value) else others).append(shape)
    if not samples:
        return None, True
    rank = max(map(len, samples))
    for i, other in enumerate(others):
        if len(other) > rank + 1 and all(d == 1 for d in other[:len(other) - rank]):
            others[i] = other[len(other) - rank:]
    shapes = [*samples, *(o[1:] if len(o) == rank + 1 else o for o in others)]
    if any(len(s) > rank for s in shapes):
        return None, True
    out: list = [1] * rank
    for shape in shapes:
        for i, size in enumerate(shape, rank - len(shape)):
            out[i] = _axis(out[i], size)
            if out[i] is False:
                return None, True
    return tuple(out), sure


def _axis(a: int | None, b: int | None) -> int | None | bool:
    """Two sizes of one axis broadcast: the same size; the other's where one is 1; the known one where
    the other is not known (which can only be it or 1), unless that is 1 (then not known); False where
    they clash."""
    if a == b or b == 1:
        return a
    if a == 1:
        return b
    if a is None or b is None:
        return a if b is None else b
    return False


def _reduction(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    source = _first(named, "input_tensor", "input", "tensor")
    if not is_sym(source):
        return None
    shape = _sample(source)
    axis = named.get("axis")
    if axis is None or type(axis) is Const and axis.value is None:
        out: tuple | None = ()  # the whole batch reduced: a scalar
    elif type(axis) is Const and type(axis.value) is int and shape is not None and 0 < abs(axis.value) <= len(shape):
        dim = axis.value - 1 if axis.value > 0 else axis.value  # an axis of the sample (0 is the batch's)
        kept = list(shape)
        if type(named.get("keepdims")) is Const and named["keepdims"].value is True:
            kept[dim] = 1
        else:
            del kept[dim]
        out = tuple(kept)
    else:
        out = None
    return _added(syms, out, _elements(shape), call_key)


def _matmul(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`x @ w` of a batch of vectors by a matrix of literal shape, or of two batches of matrices (or of
    stacks of them, one per attention head: the same leading axes)."""
    a, b = named.get("a"), named.get("b")
    flags = [type(named.get(k)) is Const and named[k].value is True for k in ("transpose_a", "transpose_b")]
    sa = _sample(a)
    if sa is None or flags[0]:
        return None
    if len(sa) == 1 and not is_sym(b):
        sb = _weight_shape(b)
        if sb is None or len(sb) != 2:
            return None
        k, n = (sb[1], sb[0]) if flags[1] else sb
        if n is None or k is not None and sa[0] is not None and k != sa[0]:
            return None
        k = k if k is not None else sa[0]  # the matrix's rows: the vector's size, which one of them may show
        return _added(syms, (n,), 2 * k * n if k is not None else None, call_key)
    sb = _sample(b)
    if len(sa) >= 2 and sb is not None and len(sb) == len(sa) and sa[:-2] == sb[:-2]:  # (heads, tokens, depth)
        k, n = (sb[-1], sb[-2]) if flags[1] else sb[-2:]
        if k != sa[-1] or None in (*sa, k, n):
            return None
        return _added(syms, (*sa[:-1], n), 2 * math.prod(sa) * n, call_key)
    return None


def _transpose(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`nn.conv2d_transpose(x, w, output_shape)`: each input position spreads its channels through the
    kernel's outputs, 2·k·c_in·c_out FLOPs per input position. Its output is the shape it is told (the
    filter's output channels where that leaves them open); its FLOPs unknown where the input's sides, the
    kernel or a channel count is not known."""
    shape, f = _sample(_first(named, "input", "value")), _weight_shape(_first(named, "filters", "filter"))
    raw = dims(named.get("output_shape"))
    if shape is None or raw is None or len(raw) != len(shape) + 1 or None in raw[1:-1] \
            or not all(d is None or d > 0 for d in raw[1:]) or f is not None and len(f) != len(shape) + 1:
        return None
    c_out = raw[-1] if raw[-1] is not None or f is None else f[-2]
    flops = None
    if f is not None and None not in shape[:-1] and None not in f[:-2]:
        c_in = shape[-1] if shape[-1] is not None else f[-1]
        if None not in (c_in, c_out) and f[-2] in (None, c_out) and f[-1] in (None, c_in):
            flops = 2 * math.prod(shape[:-1]) * math.prod(f[:-2]) * c_in * c_out
    return _added(syms, (*raw[1:-1], c_out), flops, call_key)


def _reshape(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`tf.reshape(x, [-1, 4, 4, 512])`, `[batch, -1]`, `x.get_shape()` or `(tf.shape(x)[0], -1, heads, depth)`
    (its batch axis None): the axes after the first (the batch's), one of them -1 at most, the sample's
    elements kept; a size the code does not show (`[self.batch_size, 1, 1, self.y_dim]`) unknown, where no
    axis is -1."""
    raw = dims(named.get("shape"))
    size = _elements(_sample(named.get("tensor")))
    if raw is None or len(raw) < 2 or raw[0] is not None and raw[0] == 0:
        return None
    rest = list(raw[1:])
    if -1 in rest:
        known = math.prod(d for d in rest if d != -1) if None not in rest else 0
        if raw[0] != -1 and rest.count(-1) == 1 and size is not None and known > 0 and size % known == 0:
            rest[rest.index(-1)] = size // known
        else:
            return None
    if 0 in rest or size is not None and None not in rest and math.prod(rest) != size:
        return None
    return _added(syms, tuple(rest), 0, call_key)


def _permuted(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`tf.transpose(x, perm=[0, 2, 1, 3])` that keeps the batch axis first (attention's heads split off):
    the sample's axes in that order, no FLOPs counted (a copy)."""
    shape, perm = _sample(named.get("a")), named.get("perm")
    raw = perm.value if type(perm) is Const else None
    if shape is None or not isinstance(raw, (list, tuple)) or sorted(raw) != list(range(len(shape) + 1)) or raw[0] != 0:
        return None
    return _added(syms, tuple(shape[d - 1] for d in raw[1:]), 0, call_key)


def _concat(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`tf.concat([a, b], axis)` of symbolic tensors along an axis of the sample (its size unknown where
    one of theirs is; the other axes' sizes where one of them shows it)."""
    values, axis = named.get("values"), named.get("axis")
    found = [_sample(v) for v in (values.items if type(values) is Seq else ())]
    shapes = [s for s in found if s is not None]
    if not shapes or len(shapes) != len(found) or type(axis) is not Const or type(axis.value) is not int or axis.value == 0:
        return None
    rank = len(shapes[0])
    dim = axis.value - 1 if axis.value > 0 else rank + axis.value
    if not 0 <= dim < rank or any(len(s) != rank for s in shapes):
        return None
    out = []
    for i, sizes in enumerate(zip(*shapes)):
        known = {d for d in sizes if d is not None}
        if i == dim:
            out.append(sum(sizes) if len(known) and None not in sizes else None)
        elif len(known) > 1:
            return None
        else:
            out.append(known.pop() if known else None)
    return _added(syms, tuple(out), 0, call_key)


def _pad(named: dict, syms: list[Sym], call_key: Hashable) -> Sym | None:
    """`tf.pad(x, [[0, 0], [3, 3], [3, 3], [0, 0]], mode="REFLECT")`: each axis of the sample grown by its
    literal paddings, no FLOP (a copy)."""
    shape, paddings = _sample(named.get("tensor")), named.get("paddings")
    raw = paddings.value if type(paddings) is Const else None
    if shape is None or not isinstance(raw, (list, tuple)) or len(raw) != len(shape) + 1 \
            or not all(isinstance(p, (list, tuple)) and len(p) == 2 and all(type(n) is int and n >= 0 for n in p) for p in raw):
        return None
    return _added(syms, tuple(d + sum(p) if d is not None else None for d, p in zip(shape, raw[1:])), 0, call_key)
