"""Elements and FLOPs of TensorFlow ops on tensors of literal shape (the `work` of op sites).

`result_shape(api, named)` is the shape an op returns (so chains of ops keep their shapes);
`op_work(api, named, features)` its `elements` (of the result) and `flops`: 2·m·n·k for
`matmul`, 2·(kernel size)·c_in·c_out per output position for `nn.conv*d`, one per element read
for reductions and elementwise ops, one per element drawn for `random.*`. Constructors
(`zeros`, `ones`, `fill`, `constant`, ...) get `elements` only. `keras.ops.*` count as the TF op
they run (`as_tf_op`).
"""

from __future__ import annotations

import math
from typing import Any

from greenlint.analysis.arrays import shape_of, shape_source
from greenlint.analysis.callsite import Quantity, Work
from greenlint.analysis.layers import CHANNELS_FIRST
from greenlint.analysis.values import Const

REDUCTIONS = frozenset({
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_std", "reduce_variance",
    "reduce_logsumexp", "reduce_all", "reduce_any", "argmax", "argmin", "norm",
})  # fmt: skip
UNARY = frozenset({
    "abs", "exp", "log", "sqrt", "square", "negative", "sigmoid", "tanh", "relu", "relu6", "elu", "selu",
    "softmax", "log_softmax", "softplus", "gelu", "silu", "swish", "cast", "round", "floor", "ceil", "sin", "cos",
    "identity", "stop_gradient", "rsqrt", "reciprocal",
})  # fmt: skip
BINARY = frozenset({"add", "subtract", "multiply", "divide", "maximum", "minimum", "pow", "squared_difference",
                     "truediv", "floordiv", "equal", "not_equal", "less", "greater"})
OP_MODULES = ("tensorflow.", "tensorflow.math.", "tensorflow.nn.", "tensorflow.linalg.")
GET_VARIABLE = "tensorflow.compat.v1.get_variable"

#: `keras.ops` names that differ from the TF op they run (the others share TF's name: `matmul`,
#: `relu`, `add`, `exp`, ...), and Keras 3's parameter names as TF's, per kind of op.
_KERAS_OPS = "tensorflow.keras.ops."
_KERAS_NAMES = {"sum": "reduce_sum", "mean": "reduce_mean", "max": "reduce_max", "min": "reduce_min",
                "prod": "reduce_prod", "std": "reduce_std", "var": "reduce_variance", "logsumexp": "reduce_logsumexp",
                "dot": "matmul", "conv": "convolution", "arange": "range"}
_KERAS_PARAMS = {"matmul": {"x1": "a", "x2": "b"}, "convolution": {"inputs": "input", "kernel": "filters"},
                 "range": {"stop": "limit", "step": "delta"}}
_KERAS_BINARY_PARAMS = {"x1": "x", "x2": "y"}
_KERAS_REDUCTION_PARAMS = {"x": "input_tensor"}


def as_tf_op(api: str, named: dict) -> tuple[str, dict]:
    """A `keras.ops.*` call as the TF op it runs, its arguments under TF's parameter names
    (`keras.ops.sum(x)` -> `tensorflow.reduce_sum(input_tensor=x)`); other calls unchanged."""
    if not api.startswith(_KERAS_OPS) or "." in api[len(_KERAS_OPS):]:
        return api, named
    leaf = api[len(_KERAS_OPS):]
    tf_leaf = _KERAS_NAMES.get(leaf, leaf)
    renames = _KERAS_PARAMS.get(tf_leaf) or (_KERAS_REDUCTION_PARAMS if tf_leaf in REDUCTIONS else
                                              _KERAS_BINARY_PARAMS if tf_leaf in BINARY else {})
    return "tensorflow." + tf_leaf, {renames.get(k, k): v for k, v in named.items()}


_LEAVES: dict[str, str | None] = {}


def _leaf(api: str) -> str | None:
    """The op's short name when *api* is a plain TF op (`tensorflow.math.reduce_sum` -> reduce_sum)."""
    try:
        return _LEAVES[api]
    except KeyError:
        pass
    found = None
    for prefix in OP_MODULES:
        if api.startswith(prefix) and "." not in api[len(prefix):]:
            found = api[len(prefix):]
            break
    _LEAVES[api] = found
    return found


def _flag(named: dict, key: str) -> bool:
    value = named.get(key)
    return type(value) is Const and value.value is True


def _first(named: dict, *keys: str) -> Any:
    for key in keys:
        if key in named:
            return named[key]
    return None


def result_shape(api: str, named: dict) -> tuple | None:
    """The shape of what the op returns, where its inputs' shapes are known."""
    if api == GET_VARIABLE:  # `tf.get_variable("w", [5, 5, 3, 64])`
        raw = named["shape"].value if type(named.get("shape")) is Const else None
        if isinstance(raw, (list, tuple)) and all(type(d) is int and d > 0 for d in raw):
            return tuple(raw)
        return None
    api, named = as_tf_op(api, named)
    leaf = _leaf(api)
    if leaf is None:
        return None
    if leaf == "matmul":
        a, b = shape_of(named.get("a")), shape_of(named.get("b"))
        if not a or not b or len(a) < 2 or len(b) < 2 or None in a or None in b:
            return None
        m, k = (a[-1], a[-2]) if _flag(named, "transpose_a") else (a[-2], a[-1])
        k2, n = (b[-1], b[-2]) if _flag(named, "transpose_b") else (b[-2], b[-1])
        if k != k2:
            return None
        batch = a[:-2] if len(a) >= len(b) else b[:-2]
        return (*batch, m, n)
    if leaf in ("constant", "convert_to_tensor", "Variable"):
        value = _first(named, "value", "initial_value")
        return shape_of(value) if type(value) is not Const else None  # literals: features.tensor_features
    if leaf == "range":
        return _range_shape(named)
    if leaf == "linspace":
        num = named.get("num")
        return (num.value,) if type(num) is Const and type(num.value) is int and num.value >= 0 else None
    if leaf in UNARY:
        return shape_of(_first(named, "x", "features", "logits", "input"))
    if leaf in BINARY:
        x, y = shape_of(named.get("x")), shape_of(named.get("y"))
        if x is not None and (y == x or y == () or (y is None and type(named.get("y")) is Const)):
            return x
        if y is not None and (x == () or (x is None and type(named.get("x")) is Const)):
            return y
        return None
    if leaf in REDUCTIONS:
        shape = shape_of(_first(named, "input_tensor", "input", "tensor"))
        axis = named.get("axis")
        if shape is None:
            return None
        if axis is None or (type(axis) is Const and axis.value is None):
            return () if leaf not in ("argmax", "argmin") else shape[1:]
        if type(axis) is Const and type(axis.value) is int and -len(shape) <= axis.value < len(shape):
            out = list(shape)
            if _flag(named, "keepdims"):
                out[axis.value] = 1
            else:
                del out[axis.value]
            return tuple(out)
    return None


def _range_shape(named: dict) -> tuple | None:
    """`tf.range(limit)`, `tf.range(start, limit, delta)` with literal ints."""
    bounds = {}
    for key in ("start", "limit", "delta"):
        value = named.get(key)
        if value is None or (type(value) is Const and value.value is None):
            continue
        if type(value) is not Const or type(value.value) is not int:
            return None
        bounds[key] = value.value
    if "start" not in bounds or bounds.get("delta") == 0:
        return None
    start, limit = (bounds["start"], bounds["limit"]) if "limit" in bounds else (0, bounds["start"])
    return (len(range(start, limit, bounds.get("delta", 1))),)


def op_work(api: str, named: dict, features: dict) -> Work:
    if "tensor_elements" in features:  # constructors with a literal shape (features.tensor_features)
        elements = features["tensor_elements"]
        work = {"elements": Quantity(elements, "literal")}
        if ".random." in api:
            work["flops"] = Quantity(elements, "literal", "one per element drawn")
        return work
    api, named = as_tf_op(api, named)
    leaf = _leaf(api)
    if leaf is None:
        return {}
    if leaf == "matmul":
        a = named.get("a")
        out = result_shape(api, named)
        if out is None:
            return _unknown("matmul's operand shapes")
        sa = shape_of(a)
        k = sa[-2] if _flag(named, "transpose_a") else sa[-1]
        return _work(math.prod(out), 2 * math.prod(out) * k, a, "2·m·n·k")
    if leaf in ("conv1d", "conv2d", "conv3d", "convolution"):
        return _conv(named)
    if leaf in REDUCTIONS:
        source = _first(named, "input_tensor", "input", "tensor")
        shape = shape_of(source)
        if shape is None or None in shape:
            return _unknown("the input's shape")
        out = result_shape(api, named)
        return _work(math.prod(out) if out is not None else None, math.prod(shape), source, "one per element read")
    if leaf in UNARY or leaf in BINARY:
        out = result_shape(api, named)
        if out is None or None in out:
            return _unknown("the operands' shapes")
        source = _first(named, "x", "features", "logits", "input")
        return _work(math.prod(out), math.prod(out), source, "one per element")
    return {}


def _conv(named: dict) -> Work:
    source = named.get("input")
    found = conv_work(shape_of(source), shape_of(named.get("filters")), named.get("strides", Const(1)),
                      named.get("padding"), channels_first(named))
    if found is None:
        return _unknown("the input's or the filters' shape, the strides or the padding")
    out, flops = found
    return _work(math.prod(out), flops, source, "2·k·c_in·c_out per output position")


def per_axis(value: Any, rank: int, first: bool = False) -> tuple[int, ...] | None:
    """A window's or stride's size along each of *rank* spatial axes, as `nn` ops take it (a Const): one int
    for all, or one per axis (with the batch's and channels' 1s around them, the channels' before the
    sides where they come *first*); None otherwise."""
    raw = value.value if type(value) is Const else None
    if type(raw) is int:
        return (raw,) * rank
    if isinstance(raw, (list, tuple)) and len(raw) in (rank, rank + 2) and all(type(s) is int for s in raw):
        return tuple(raw if len(raw) == rank else raw[2:] if first else raw[1:-1])
    return None


def channels_first(named: dict) -> bool:
    """Whether an `nn` op's arguments put the channels before the sides (`data_format="NCHW"`)."""
    given = named.get("data_format")
    return type(given) is Const and given.value in CHANNELS_FIRST


def conv_work(x: tuple | None, f: tuple | None, strides: Any, padding: Any, first: bool = False) -> tuple[tuple, int] | None:
    """The output shape and FLOPs of `nn.conv*d` on an input of shape *x* (batch first, channels last, or
    right after the batch where they come *first*: `"NCHW"`) with filters of shape *f* (channels last
    whatever the input's), *strides* and *padding* as given (Const); None where one is not known."""
    if not x or not f or len(x) != len(f) or None in x or None in f or type(padding) is not Const:
        return None
    rank = len(f) - 2
    steps = per_axis(strides, rank, first)
    if steps is None:
        return None
    same = str(padding.value).upper() == "SAME"
    sides = x[2:] if first else x[1:-1]
    spatial = [(-(-n // s)) if same else max(0, (n - k) // s + 1) for n, k, s in zip(sides, f[:rank], steps)]
    out = (x[0], f[-1], *spatial) if first else (x[0], *spatial, f[-1])
    return out, 2 * math.prod(out) * math.prod(f[:rank]) * f[-2]


def _work(elements: int | None, flops: int, source: Any, how: str) -> Work:
    prov, note = shape_source(source)
    return {
        "elements": Quantity(elements, prov if elements is not None else "unknown"),
        "flops": Quantity(flops, "inferred", f"{how}; {note}" if note else how),
    }


def _unknown(what: str) -> Work:
    return {"flops": Quantity(None, "unknown", f"{what} not known statically")}
