"""Models built as detectors and GANs build them (builders.py): layer factories taking `*args, **kwargs`
(decorated with `@wraps(Conv2D)` or not), functions composed by `functools.reduce`, an input of free
sides sized by the argument of the function building the model, a builder called twice."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file, analyse_source

COMPOSE = """
from functools import reduce, wraps

from tensorflow import keras
from tensorflow.keras.layers import Add, BatchNormalization, Conv2D, LeakyReLU, ZeroPadding2D


def compose(*funcs):
    if funcs:
        return reduce(lambda f, g: lambda *a, **kw: g(f(*a, **kw)), funcs)
    else:
        raise ValueError("empty")


@wraps(Conv2D)
def DarkConv(*args, **kwargs):
    conv_kwargs = {"use_bias": True}
    conv_kwargs["padding"] = "valid" if kwargs.get("strides") == (2, 2) else "same"
    conv_kwargs.update(kwargs)
    return Conv2D(*args, **conv_kwargs)


def conv_bn_leaky(*args, **kwargs):
    no_bias = {"use_bias": False}
    no_bias.update(kwargs)
    return compose(DarkConv(*args, **no_bias), BatchNormalization(), LeakyReLU(alpha=0.1))
"""

#: conv_bn_leaky's parameters: a bias-free convolution and a BatchNormalization (4 per channel).
def dbl(k: int, c: int, f: int) -> int:
    return k * k * c * f + 4 * f


def analyse(code: str, path: str = "model.py"):
    result = analyse_source(textwrap.dedent(code), path)
    assert result.errors == []
    return result.callsites


def work_of(sites, line: int, api_end: str) -> dict:
    site = next(s for s in sites if s.span.line == line and s.api.endswith(api_end))
    return {k: (v.value, v.bound, v.note) for k, v in site.work.items()}


def line_of(code: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


def test_composed_layer_factories_build_each_calls_layers():
    code = COMPOSE + """
inp = keras.Input((64, 64, 3))
x = conv_bn_leaky(32, (3, 3))(inp)
x = ZeroPadding2D(((1, 0), (1, 0)))(x)
x = conv_bn_leaky(64, (3, 3), strides=(2, 2))(x)
y = compose(conv_bn_leaky(32, (1, 1)), conv_bn_leaky(64, (3, 3)))(x)
model = keras.Model(inp, Add()([x, y]))
model.fit(x=None, epochs=1)
"""
    sites = analyse(code)
    work = work_of(sites, line_of(code, "model.fit"), ".fit")
    assert work["params"][0] == dbl(3, 3, 32) + dbl(3, 32, 64) + dbl(1, 64, 32) + dbl(3, 32, 64)
    assert work["params"][1] is None  # every layer known: a point, not a lower bound
    # the strided convolution pads "valid" (the factory's own rule): 65 -> 32, the residual branch at 32 x 32
    strided = 2 * 9 * 32 * 64 * 32 * 32
    assert work["flops_per_sample"][0] > 2 * 9 * 3 * 32 * 64 * 64 + strided + 2 * 9 * 32 * 64 * 32 * 32
    # the line composing layers is a call site of each API it applies, once
    apis = sorted(s.api.rpartition(".")[0].rpartition(".")[2] for s in sites
                  if s.span.line == line_of(code, "y = compose") and s.api.endswith(".__call__"))
    assert apis == ["BatchNormalization", "Conv2D", "LeakyReLU"]


def test_a_composition_applied_at_once_and_an_unknown_fold():
    code = COMPOSE + """
steps = [Conv2D(16, 3, padding="same"), LeakyReLU(), Conv2D(8, 1)]
inp = keras.Input((32, 32, 3))
out = reduce(lambda v, f: f(v), steps, inp)
model = keras.Model(inp, out)
model.fit(x=None, epochs=1)
other = reduce(lambda a, b: a + b, [1, 2, 3])
"""
    sites = analyse(code)
    assert work_of(sites, line_of(code, "model.fit"), ".fit")["params"][0] == (27 * 16 + 16) + (16 * 8 + 8)


def test_free_sides_take_the_size_given_to_the_builder_and_stay_unknown_without_one():
    code = COMPOSE + """
def create_model(input_shape, classes):
    image = keras.Input(shape=(None, None, 3))
    x = conv_bn_leaky(32, (3, 3))(image)
    model = keras.Model(image, Conv2D(classes, (1, 1))(x))
    return model


def create_any(classes):
    image = keras.Input(shape=(None, None, 3))
    return keras.Model(image, conv_bn_leaky(32, (3, 3))(image))


sized = create_model((128, 96), 4)
sized.fit(x=None, epochs=1)
whole = create_model(input_shape=[128, 96, 3], classes=4)
whole.fit(x=None, epochs=1)
other = create_model((128, 96, 1), 4)
other.fit(x=None, epochs=1)
free = create_any(4)
free.fit(x=None, epochs=1)
"""
    sites = analyse(code)
    sized = work_of(sites, line_of(code, "sized.fit"), ".fit")
    assert sized["params"][0] == dbl(3, 3, 32) + 32 * 4 + 4
    assert sized["flops_per_sample"][0] >= 2 * 9 * 3 * 32 * 128 * 96
    assert "`input_shape` given to create_model()" in sized["flops_per_sample"][2]
    assert work_of(sites, line_of(code, "whole.fit"), ".fit")["flops_per_sample"][0] == sized["flops_per_sample"][0]
    assert not work_of(sites, line_of(code, "other.fit"), ".fit")["flops_per_sample"][0]  # 1 channel is not the 3 declared
    free = work_of(sites, line_of(code, "free.fit"), ".fit")
    assert free["params"][0] == dbl(3, 3, 32)  # the parameters do not depend on the image size
    assert not free["flops_per_sample"][0]  # its FLOPs do: not known, never a size assumed
    assert "FLOPs of some layers unknown" in (free["flops_per_sample"][2] or "")


def test_a_builder_called_twice_gives_two_models():
    code = """
from tensorflow import keras
from tensorflow.keras.layers import Conv2D, Input


class Pair:
    def __init__(self):
        self.g_ab = self.build_generator()
        self.g_ba = self.build_generator()
        a = Input(shape=(16, 16, 3))
        self.combined = keras.Model(a, self.g_ba(self.g_ab(a)))
        self.combined.fit(x=None, epochs=1)

    def build_generator(self):
        d0 = Input(shape=(16, 16, 3))
        return keras.Model(d0, Conv2D(3, 3, padding="same")(d0))
"""
    sites = analyse(code)
    one = 27 * 3 + 3
    assert work_of(sites, line_of(code, "self.combined.fit"), ".fit")["params"][0] == 2 * one
    assert work_of(sites, line_of(code, "return keras.Model"), "keras.Model")["params"][0] == one


def test_composition_and_factories_followed_across_modules(tmp_path):
    (tmp_path / "utils.py").write_text(textwrap.dedent("""
        from functools import reduce


        def compose(*funcs):
            return reduce(lambda f, g: lambda *a, **kw: g(f(*a, **kw)), funcs)
        """))
    (tmp_path / "model.py").write_text(textwrap.dedent("""
        from tensorflow.keras.layers import BatchNormalization, Conv2D
        from tensorflow.keras.models import Model

        from utils import compose


        def conv_bn(*args, **kwargs):
            return compose(Conv2D(*args, use_bias=False, **kwargs), BatchNormalization())


        def body(inputs):
            x = conv_bn(16, (3, 3), padding="same")(inputs)
            return Model(inputs, conv_bn(32, (3, 3), strides=(2, 2), padding="same")(x))
        """))
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from tensorflow.keras.layers import Input

        from model import body


        def create_model(input_shape):
            image = Input(shape=(None, None, 3))
            return body(image)


        model = create_model((64, 64))
        model.fit(x=None, epochs=1)
        """))
    sites = analyse_file(tmp_path / "train.py").callsites
    work = work_of(sites, line_of((tmp_path / "train.py").read_text(), "model.fit"), ".fit")
    assert work["params"][0] == (9 * 3 * 16 + 4 * 16) + (9 * 16 * 32 + 4 * 32)
    assert work["flops_per_sample"][0] >= 2 * 9 * 3 * 16 * 64 * 64 + 2 * 9 * 16 * 32 * 32 * 32


def test_either_of_two_models_built_on_alternative_paths_gives_the_smallers_figures_as_lower_bounds():
    code = """
from tensorflow import keras
from tensorflow.keras.layers import Conv2D, Input


def create(filters):
    image = Input(shape=(32, 32, 3))
    return keras.Model(image, Conv2D(filters, 3)(image))


if len(open("anchors.txt").read()) == 6:
    model = create(8)
else:
    model = create(64)
model.fit(x=None, epochs=1)
"""
    work = work_of(analyse(code), line_of(code, "model.fit"), ".fit")
    assert work["params"][:2] == (27 * 8 + 8, "lower")
    assert work["flops_per_sample"][:2] == (2 * 27 * 8 * 30 * 30, "lower")
    assert "one of 2 models" in work["flops_per_sample"][2]


def test_a_keyword_dict_updated_with_what_is_not_known_is_not_spread():
    code = """
import json

from tensorflow import keras
from tensorflow.keras.layers import Conv2D


def conv(**kwargs):
    opts = {"filters": 8, "kernel_size": 3}
    opts.update(kwargs)
    return Conv2D(**opts)


def loaded_conv():
    opts = {"filters": 8, "kernel_size": 3}
    opts.update(json.load(open("layer.json")))
    return Conv2D(**opts)


image = keras.Input(shape=(16, 16, 3))
known = keras.Model(image, conv(padding="same")(image))
known.fit(x=None, epochs=1)
loaded = keras.Model(image, loaded_conv()(image))
loaded.fit(x=None, epochs=1)
"""
    sites = analyse(code)
    known = work_of(sites, line_of(code, "known.fit"), ".fit")
    assert known["params"][:2] == (27 * 8 + 8, None)
    assert known["flops_per_sample"][0] == 2 * 27 * 8 * 16 * 16  # "same": the loaded dict could say otherwise
    assert work_of(sites, line_of(code, "loaded.fit"), ".fit")["params"][:2] == (None, None)  # unknown, not 0


def test_a_size_argument_that_is_not_the_inputs_leaves_free_sides_unknown():
    code = """
from tensorflow import keras
from tensorflow.keras.layers import Conv2D


def create(kernel_size):
    image = keras.Input(shape=(None, None, 3))
    return keras.Model(image, Conv2D(8, kernel_size)(image))


def create_two(input_shape, image_size):
    image = keras.Input(shape=(None, None, 3))
    return keras.Model(image, Conv2D(8, 3)(image))


kernel = create((3, 3))
kernel.fit(x=None, epochs=1)
two = create_two((64, 64), (32, 32))
two.fit(x=None, epochs=1)
"""
    sites = analyse(code)
    for name in ("kernel", "two"):  # a kernel's size; two sizes that disagree
        work = work_of(sites, line_of(code, f"{name}.fit"), ".fit")
        assert work["params"][0] == 27 * 8 + 8
        assert not work["flops_per_sample"][0] and "input" not in (work["flops_per_sample"][2] or "")


def test_functions_composed_right_to_left_apply_the_last_first():
    code = """
from functools import reduce

from tensorflow import keras
from tensorflow.keras.layers import Dense


def compose(*funcs):
    return reduce(lambda f, g: lambda x: f(g(x)), funcs)


inp = keras.Input((16,))
model = keras.Model(inp, compose(Dense(4), Dense(8))(inp))
model.fit(x=None, epochs=1)
"""
    work = work_of(analyse(code), line_of(code, "model.fit"), ".fit")
    assert work["params"][:2] == ((16 * 8 + 8) + (8 * 4 + 4), None)  # Dense(8) on the input, then Dense(4)


def test_keyword_dict_methods_and_a_key_set_on_one_path():
    code = """
import sys

from tensorflow import keras
from tensorflow.keras.layers import Conv2D


def conv(filters, **kwargs):
    kwargs.setdefault("padding", "same")
    kwargs.pop("name", None)
    return Conv2D(filters, 3, **kwargs)


def conv_maybe(filters, wide):
    opts = {"padding": "valid"}
    if wide:
        opts["padding"] = "same"
    return Conv2D(filters, 3, **opts)


image = keras.Input(shape=(16, 16, 3))
same = keras.Model(image, conv(8, name="c")(image))
same.fit(x=None, epochs=1)
valid = keras.Model(image, conv(8, padding="valid")(image))
valid.fit(x=None, epochs=1)
either = keras.Model(image, conv_maybe(8, sys.argv[1] == "wide")(image))
either.fit(x=None, epochs=1)
unspread = keras.Model(image, Conv2D(8, 3, **eval(sys.argv[2]))(image))
unspread.fit(x=None, epochs=1)
"""
    sites = analyse(code)
    assert work_of(sites, line_of(code, "same.fit"), ".fit")["flops_per_sample"][:2] == (2 * 27 * 8 * 16 * 16, None)
    assert work_of(sites, line_of(code, "valid.fit"), ".fit")["flops_per_sample"][:2] == (2 * 27 * 8 * 14 * 14, None)
    either = work_of(sites, line_of(code, "either.fit"), ".fit")  # its padding not known: not the default's FLOPs
    assert either["params"][:2] == (27 * 8 + 8, None) and either["flops_per_sample"][:2] == (None, None)
    unspread = work_of(sites, line_of(code, "unspread.fit"), ".fit")  # any option, its use_bias too
    assert unspread["params"][:2] == (None, None) and "Conv2D" in unspread["params"][2]


def test_a_list_spreading_a_models_outputs_feeds_a_layer_on_all_of_them():
    code = """
from tensorflow import keras
from tensorflow.keras.layers import Conv2D, Input, Lambda


image = Input((32, 32, 3))
body = keras.Model(image, [Conv2D(4, 1)(image), Conv2D(4, 1)(image)])
y_true = [Input((32, 32, 4)) for _ in range(2)]
loss = Lambda(lambda a: a[0], name="loss")([*body.output, *y_true])
model = keras.Model([body.input, *y_true], loss)
model.fit(x=None, epochs=1)
"""
    work = work_of(analyse(code), line_of(code, "model.fit"), ".fit")
    assert work["params"][:2] == (2 * (3 * 4 + 4), "lower")  # the body's, the Lambda's own not known
    assert work["flops_per_sample"][:2] == (2 * 2 * 3 * 4 * 32 * 32, "lower")


def test_a_function_returning_a_model_kept_elsewhere_gives_the_same_one_each_call():
    code = """
from tensorflow import keras
from tensorflow.keras.layers import Dense, Input

inp0 = Input((4,))
shared = keras.Model(inp0, Dense(8)(inp0))


def get_model():
    return shared


class Holder:
    def __init__(self):
        self._m = None

    def model(self):
        if self._m is None:
            i = Input((4,))
            self._m = keras.Model(i, Dense(8)(i))
        return self._m


x = Input((4,))
a, b = get_model(), get_model()
both = keras.Model(x, [a(x), b(x)])
both.fit(x=None, epochs=1)
h = Holder()
c, d = h.model(), h.model()
cached = keras.Model(x, [c(x), d(x)])
cached.fit(x=None, epochs=1)
"""
    sites = analyse(code)
    for name in ("both", "cached"):  # one model applied twice: its parameters once
        assert work_of(sites, line_of(code, f"{name}.fit"), ".fit")["params"][:2] == (4 * 8 + 8, None)
