"""Networks built by block functions returning a closure that applies layers (`def conv_block(filters):
def f(x): ... return f`, then `x = conv_block(64)(x)`): each call's closure reads its free names from
that call (`Resolver.closure_of`), so applying it adds layers of that call's sizes to the graph, in the
module or from another (a `Template`); a Keras layer of another module whose `call` is not followed
leaves the known layers' work as a floor, not an unknown model."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_file, analyse_source
from tests.analysis.test_whole_program import write

HEAD = """
from tensorflow import keras
from tensorflow.keras import layers


def conv_block(filters, strides=1):
    def f(x):
        x = layers.Conv2D(filters, 3, strides=strides, padding="same")(x)
        return layers.Activation("relu")(x)
    return f
"""

#: Conv2D(f, 3) on c channels: its parameters, and its FLOPs per output position (a multiply-add is 2).
def conv_params(c: int, f: int) -> int:
    return 9 * c * f + f


def conv_flops(c: int, f: int, side: int) -> int:
    return 2 * 9 * c * f * side * side


def fit_work(code: str, line: int | None = None) -> dict:
    result = analyse_source(textwrap.dedent(HEAD) + textwrap.dedent(code), "model.py")
    assert result.errors == []
    site = next(s for s in result.callsites if s.api.endswith(".fit") and (line is None or s.span.line == line))
    return site.work


def test_each_call_of_a_block_adds_the_layers_its_arguments_size():
    work = fit_work("""
        inp = keras.Input((32, 32, 3))
        x = conv_block(16)(inp)
        x = conv_block(32, strides=2)(x)
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work["params"].value == conv_params(3, 16) + conv_params(16, 32)
    conv = conv_flops(3, 16, 32) + conv_flops(16, 32, 16)
    assert conv <= work["flops_per_sample"].value <= conv * 1.01  # the activations' element-wise work beside
    assert work["flops_per_sample"].bound is None


def test_a_closure_kept_in_a_name_then_applied_is_its_calls_own():
    work = fit_work("""
        inp = keras.Input((32, 32, 3))
        first = conv_block(16)
        second = conv_block(32)
        x = second(first(inp))
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work["params"].value == conv_params(3, 16) + conv_params(16, 32)


def test_a_block_whose_closure_applies_other_blocks_closures():
    work = fit_work("""
        def stage(filters, blocks):
            def f(x):
                x = conv_block(filters, strides=2)(x)
                for _ in range(blocks - 1):
                    x = conv_block(filters)(x)
                return x
            return f


        inp = keras.Input((32, 32, 3))
        x = stage(8, 2)(inp)
        x = stage(16, 1)(x)
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work["params"].value == conv_params(3, 8) + conv_params(8, 8) + conv_params(8, 16)


def test_a_block_called_with_a_loop_variable_gets_each_trips_size():
    work = fit_work("""
        inp = keras.Input((32, 32, 3))
        x = inp
        for filters in (8, 16, 32):
            x = conv_block(filters)(x)
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work["params"].value == conv_params(3, 8) + conv_params(8, 16) + conv_params(16, 32)


def test_a_closure_looping_over_a_list_its_call_gave():
    work = fit_work("""
        def stack(widths):
            def f(x):
                for width in widths:
                    x = layers.Conv2D(width, 3, padding="same")(x)
                return x
            return f


        inp = keras.Input((32, 32, 3))
        x = stack([8, 16])(inp)
        x = stack([32])(x)
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work["params"].value == conv_params(3, 8) + conv_params(8, 16) + conv_params(16, 32)


def test_a_closure_wrapping_its_layers_in_a_model_of_its_inputs_sample_shape():
    work = fit_work("""
        def sub_model(filters):
            def f(x_in):
                x = inputs = keras.Input(x_in.shape[1:])
                x = layers.Conv2D(filters, 3, padding="same")(x)
                return keras.Model(inputs, x)(x_in)
            return f


        inp = keras.Input((32, 32, 3))
        x = sub_model(16)(inp)
        x = sub_model(32)(x)
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work["params"].value == conv_params(3, 16) + conv_params(16, 32)


def test_a_shape_sliced_by_a_bound_not_known_is_not_one():
    work = fit_work("""
        import sys

        inp = keras.Input((32, 32, 3))
        inner = keras.Input(inp.shape[len(sys.argv):])
        model = keras.Model(inner, layers.Conv2D(8, 3)(inner))
        model.fit(x=None, epochs=1)
        """)
    assert work["flops_per_sample"].value is None


def test_the_closures_layer_calls_are_listed_once():
    result = analyse_source(textwrap.dedent(HEAD) + textwrap.dedent("""
        inp = keras.Input((32, 32, 3))
        x = conv_block(16)(inp)
        x = conv_block(32)(x)
        x = conv_block(64)(x)
        """), "model.py")
    convs = [s for s in result.callsites if s.api.endswith("Conv2D.__call__")]
    assert [s.span.line for s in convs] == [8]  # the walks of each call's closure record nothing


def test_a_closure_chosen_by_a_test_not_known_leaves_the_models_flops_unknown():
    work = fit_work("""
        import sys


        def block(filters, deep):
            def plain(x):
                return layers.Conv2D(filters, 3, padding="same")(x)

            def bottleneck(x):
                x = layers.Conv2D(filters // 4, 1)(x)
                return layers.Conv2D(filters, 3, padding="same")(x)
            if deep:
                return bottleneck
            return plain


        inp = keras.Input((32, 32, 3))
        x = block(16, len(sys.argv) > 1)(inp)
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work["flops_per_sample"].value is None  # neither closure's layers taken as the model's


def test_a_closure_chosen_by_a_literal_is_that_branchs():
    work = fit_work("""
        def block(filters, deep):
            def plain(x):
                return layers.Conv2D(filters, 3, padding="same")(x)

            def bottleneck(x):
                x = layers.Conv2D(filters // 4, 1)(x)
                return layers.Conv2D(filters, 3, padding="same")(x)
            if deep:
                return bottleneck
            return plain


        inp = keras.Input((32, 32, 3))
        x = block(16, False)(inp)
        model = keras.Model(inp, x)
        model.fit(x=None, epochs=1)
        """)
    assert work["params"].value == conv_params(3, 16)


def test_a_function_returning_a_closure_of_no_layers_is_left_as_it_was():
    result = analyse_source(textwrap.dedent(HEAD) + textwrap.dedent("""
        def scaled_loss(weight):
            def loss(y_true, y_pred):
                return weight * keras.losses.mse(y_true, y_pred)
            return loss


        inp = keras.Input((8,))
        model = keras.Model(inp, layers.Dense(1)(inp))
        model.compile("adam", loss=scaled_loss(0.5))
        model.fit(x=None, epochs=1)
        """), "model.py")
    assert result.errors == []
    fit = next(s for s in result.callsites if s.api.endswith(".fit"))
    assert fit.work["params"].value == 9


HELPERS = """
from keras.layers import *
from keras.regularizers import l2


def res_block(kernel_size, filters, weight_decay=0., strides=(2, 2)):
    def f(input_tensor):
        nb_filter1, nb_filter2 = filters
        if K.image_data_format() == 'channels_last':
            bn_axis = 3
        else:
            bn_axis = 1
        x = Conv2D(nb_filter1, (1, 1), strides=strides, kernel_regularizer=l2(weight_decay))(input_tensor)
        x = BatchNormalization(axis=bn_axis)(x)
        x = Conv2D(nb_filter2, (kernel_size, kernel_size), padding='same')(x)
        shortcut = Conv2D(nb_filter2, (1, 1), strides=strides)(input_tensor)
        x = Add()([x, shortcut])
        return Activation('relu')(x)
    return f


class Resize(Layer):
    def __init__(self, target_size=None, **kwargs):
        self.target_size = tuple(target_size)
        super(Resize, self).__init__(**kwargs)

    def call(self, x, mask=None):
        return K.resize_images(x, 2, 2, 'channels_last')
"""

MODELS = """
import numpy as np
from keras.layers import *
from keras.models import Model
from helpers import *


def segmenter(input_shape=None, classes=5):
    img = Input(shape=input_shape)
    x = res_block(3, [8, 16], strides=(1, 1))(img)
    x = res_block(3, [16, 32])(x)
    x = Conv2D(classes, (1, 1))(x)
    x = Resize(target_size=input_shape[0:2])(x)
    return Model(img, x)


model = globals()['segmenter'](input_shape=(32, 32, 3))
model.compile('sgd', 'mse')
model.fit(np.zeros((64, 32, 32, 3)), np.zeros((64, 32, 32, 5)), batch_size=16, epochs=1)
"""

#: res_block(3, [c1, c2]) on c channels: 1x1 to c1, its BatchNormalization, 3x3 to c2, the 1x1 shortcut to c2.
def block_params(c: int, c1: int, c2: int) -> int:
    return (c * c1 + c1) + 4 * c1 + conv_params(c1, c2) + (c * c2 + c2)


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"helpers.py": HELPERS, "models.py": MODELS})
    return tmp_path


def test_blocks_of_another_module_and_its_unpriced_layer_give_the_known_layers_as_a_floor(project):
    fit = next(s for s in analyse_file(project / "models.py").callsites if s.api.endswith(".fit"))
    params, flops = fit.work["params"], fit.work["flops_per_sample"]
    assert params.value == block_params(3, 8, 16) + block_params(16, 16, 32) + 32 * 5 + 5
    assert params.bound == flops.bound == "lower"  # Resize's `call` is not followed: a floor, said so
    assert "Resize" in flops.note
    conv = 2 * (32 * 32 * (3 * 8 + 9 * 8 * 16 + 3 * 16) + 16 * 16 * (16 * 16 + 9 * 16 * 32 + 16 * 32 + 32 * 5))
    assert conv <= flops.value <= conv * 1.05


def test_without_the_unpriced_layer_the_models_flops_are_a_point(project):
    write(project, {"models.py": MODELS.replace("    x = Resize(target_size=input_shape[0:2])(x)\n", "")})
    fit = next(s for s in analyse_file(project / "models.py").callsites if s.api.endswith(".fit"))
    assert fit.work["flops_per_sample"].bound is None  # every layer priced: a point, not a floor


def test_the_data_format_read_outside_a_walk_for_values_leaves_both_branches_the_programs():
    result = analyse_source(textwrap.dedent("""
        from keras import backend as K
        from keras.layers import Input

        if K.image_data_format() == "channels_first":
            inp = Input((3, 32, 32))
        else:
            inp = Input((32, 32, 3))
        """), "model.py")
    apis = {s.span.line: s for s in result.callsites}
    assert apis[5].api.endswith("image_data_format")  # still a call site
    assert not apis[6].features.get("unreached") and not apis[8].features.get("unreached")
