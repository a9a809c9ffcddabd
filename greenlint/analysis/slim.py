"""TF1's contrib layers (`slim.conv2d`, `tf.contrib.layers.fully_connected`) priced as the Keras layer each builds.

`slim.conv2d(x, 64, [3, 3], stride=2)` on a symbolic tensor is `Conv2D(64, [3, 3], strides=2)` called on it
(symops.on_layer): slim's own defaults (`padding="SAME"`, a ReLU, a pool's stride 2) and those an enclosing
`with slim.arg_scope([slim.conv2d], padding="VALID"):` sets for it, which the call's own arguments override.
Channels first (`data_format="NCHW"`) is the Keras layer's `"channels_first"`. An argument that moves the
work given as a value the code does not show, or a `**dict` not known, leaves the layer's work unknown (its
name among the graph's unknown).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from greenlint.analysis import symops
from greenlint.analysis.arrays import Sym, is_sym
from greenlint.analysis.features import argument_values
from greenlint.analysis.values import Const, Inst, Ref, Seq

#: The modules slim's layer functions are reached by.
PREFIXES = ("tensorflow.contrib.slim.", "tensorflow.contrib.layers.", "tensorflow.contrib.framework.")
#: `arg_scope`, the context setting the default arguments of the layer functions it lists.
ARG_SCOPE = "tensorflow.contrib.framework.arg_scope"
_CONV = ("num_outputs", "kernel_size", "stride", "padding", "data_format", "rate", "activation_fn")
_ACTIVATED = {"activation_fn": "relu"}
_POOL = ("kernel_size", "stride", "padding", "data_format")
#: Each layer function (aliases under their one name): the Keras layer it builds, its parameters after
#: `inputs` in order, and its defaults where they differ from the Keras layer's.
FUNCTIONS: dict[str, tuple[str, tuple[str, ...], dict]] = {
    "conv2d": ("Conv2D", _CONV, {"padding": "SAME", **_ACTIVATED}),
    "conv2d_transpose": ("Conv2DTranspose", _CONV[:5] + ("activation_fn",), {"padding": "SAME", **_ACTIVATED}),
    "separable_conv2d": ("SeparableConv2D", ("num_outputs", "kernel_size", "depth_multiplier", "stride", "padding",
                                             "data_format", "rate", "activation_fn"), {"padding": "SAME", **_ACTIVATED}),
    "fully_connected": ("Dense", ("num_outputs", "activation_fn"), _ACTIVATED),
    "max_pool2d": ("MaxPooling2D", _POOL, {"stride": 2}),
    "avg_pool2d": ("AveragePooling2D", _POOL, {"stride": 2}),
    "flatten": ("Flatten", (), {}),
    "dropout": ("Dropout", ("keep_prob",), {}),
}
_ALIASES = {"convolution2d": "conv2d", "convolution2d_transpose": "conv2d_transpose",
            "separable_convolution2d": "separable_conv2d"}
#: slim's argument names and the Keras layer's.
_KERAS = {"num_outputs": "filters", "kernel_size": "kernel_size", "stride": "strides", "rate": "dilation_rate",
          "depth_multiplier": "depth_multiplier"}
_POOL_KERAS = {"kernel_size": "pool_size", "stride": "strides"}


def is_arg_scope(path: str) -> bool:
    """Whether *path* names `arg_scope` (`slim.arg_scope`, `tf.contrib.framework.arg_scope`)."""
    return path.startswith(PREFIXES) and path.rpartition(".")[2] == "arg_scope"


def function(path: str) -> str | None:
    """The layer function *path* names (`tensorflow.contrib.slim.convolution2d`: `conv2d`), or None."""
    for prefix in PREFIXES:
        if path.startswith(prefix):
            leaf = path.rpartition(".")[2]
            leaf = _ALIASES.get(leaf, leaf)
            return leaf if leaf in FUNCTIONS else None
    return None


def arg_scope(args: list[tuple[bool, Any]], keywords: list[tuple[str | None, Any]], enclosing: dict) -> Inst:
    """`slim.arg_scope([slim.conv2d, ...], padding="VALID")`: the defaults of each function listed, on top of
    the *enclosing* scope's; `slim.arg_scope(scope)` of a scope an earlier one gave: that scope."""
    given = args[0][1] if args and not args[0][0] else None
    if type(given) is Inst and given.cls == ARG_SCOPE:
        return given
    scope = {name: dict(defaults) for name, defaults in enclosing.items()}
    spread = any(name is None for name, _ in keywords)
    for item in given.items if type(given) is Seq else ():
        name = function(item.path) if type(item) is Ref else None
        if name is not None:
            defaults = scope.setdefault(name, {})
            defaults.update((k, v) for k, v in keywords if k is not None)
            if spread:  # `**kwargs` not known: any argument may be set
                defaults.update((k, None) for k in FUNCTIONS[name][1])
    return Inst(ARG_SCOPE, "factory", {"scope": scope})


def on_sym(name: str, args: list[tuple[bool, Any]], keywords: list[tuple[str | None, Any]], scope: dict,
           call_key: Hashable) -> Sym | None:
    """The Sym layer function *name* returns, called with *args* and *keywords* under the arg_scope
    defaults *scope*; None where its input is not symbolic."""
    keras, params, defaults = FUNCTIONS[name]
    given = argument_values(["inputs", *params], args, keywords)
    named = {**defaults, **scope.get(name, {}), **given}
    inputs = named.pop("inputs", None)
    if not is_sym(inputs):
        return None
    init = _init(keras, named) if all(k is not None for k, _ in keywords) else None  # (`**kwargs` not known)
    if init is None:
        return symops.on_layer(None, name, {"inputs": inputs}, call_key)
    return symops.on_layer(keras, name, {"inputs": inputs, **init}, call_key)


def _init(keras: str, named: dict) -> dict | None:
    """The Keras layer's arguments (Consts) for slim's *named* (plain defaults or values), None where one
    that moves the work is not known."""
    init: dict = {}
    for key, value in named.items():
        sizes = symops.dims(value) if type(value) is Seq else None
        value = value.value if type(value) is Const else sizes if sizes is not None and None not in sizes else value
        if key == "activation_fn":
            if value is not None:
                init["activation"] = Const("relu")  # any activation: one FLOP per output element
        elif key == "data_format":
            if type(named[key]) is not Const:
                return None
            if value in ("NCW", "NCHW", "NCDHW"):
                init["data_format"] = Const("channels_first")  # (layers.py moves the channels last and back)
            elif value not in (None, "NHWC", "NWC", "NDHWC"):
                return None
        elif key == "padding":
            if value not in ("SAME", "VALID", "same", "valid"):
                return None
            init["padding"] = Const(value.lower())
        elif key in _KERAS:
            if not (type(value) is int or isinstance(value, (list, tuple)) and all(type(v) is int for v in value)):
                return None
            init[(_POOL_KERAS if keras.endswith("Pooling2D") else _KERAS).get(key, _KERAS[key])] = Const(value)
    if keras == "Dense":
        init["units"] = init.pop("filters", None)
    return init
