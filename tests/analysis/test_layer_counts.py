"""The layers a model dispatches per step (`n_layers`): a Sequential's items, the layer calls of a
functional graph, a nested model counting its own; unknown where the list or a part is not known."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

HEADER = "import tensorflow as tf\nfrom tensorflow import keras\nfrom tensorflow.keras import layers\n"


def layer_counts(code: str) -> list:
    """`n_layers` of each `train_on_batch` / `fit` call site, in source order (None: absent)."""
    result = analyse_source(HEADER + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return [s.features.get("n_layers") for s in result.callsites if s.api.rpartition(".")[2] in ("fit", "train_on_batch")]


def test_a_functional_model_counts_each_layer_call_between_inputs_and_outputs():
    assert layer_counts(
        """
        inp = keras.Input(shape=(32,))
        x = layers.Dense(64, activation="relu")(inp)
        x = layers.Dropout(0.2)(x)
        out = layers.Dense(1)(x)
        model = keras.Model(inp, out)
        model.fit(a, b)
        """
    ) == [3]


def test_a_layer_applied_twice_counts_twice_and_an_elementwise_op_once():
    assert layer_counts(
        """
        inp = keras.Input(shape=(16,))
        shared = layers.Dense(16)
        y = shared(shared(inp)) + inp
        model = keras.Model(inputs=inp, outputs=y)
        model.fit(a, b)
        """
    ) == [3]


def test_branches_merged_count_every_layer_once():
    assert layer_counts(
        """
        inp = keras.Input(shape=(8,))
        left = layers.Dense(4)(inp)
        right = layers.Dense(4)(inp)
        out = layers.Dense(1)(layers.concatenate([left, right]))
        model = keras.Model(inp, out)
        model.fit(a, b)
        """
    ) == [4]


def test_a_gan_wrapper_counts_the_nested_models_layers():
    """`Model(z, discriminator(generator(z)))`: the combined model's step runs both networks' layers."""
    assert layer_counts(
        """
        generator = keras.Sequential([layers.Dense(16, input_dim=4), layers.LeakyReLU(), layers.Dense(8)])
        d_in = keras.Input(shape=(8,))
        d_out = layers.Dense(1)(layers.Dense(8)(d_in))
        discriminator = keras.Model(d_in, d_out)
        z = keras.Input(shape=(4,))
        combined = keras.Model(z, discriminator(generator(z)))
        discriminator.train_on_batch(a, b)
        combined.train_on_batch(c, d)
        """
    ) == [2, 5]


def test_a_sequential_of_models_counts_their_layers_and_no_input():
    assert layer_counts(
        """
        inner = keras.Sequential([layers.Dense(8, input_dim=4), layers.Dense(8)])
        outer = keras.Sequential([keras.Input(shape=(4,)), inner, layers.Dense(1)])
        outer.add(inner)
        outer.fit(a, b)
        """
    ) == [5]


def test_a_nested_model_of_unknown_count_leaves_the_count_unknown():
    """A Keras Application's layers are not counted by the analysis: the model around it has none."""
    counts = layer_counts(
        """
        base = keras.applications.MobileNetV2(include_top=False, input_shape=(96, 96, 3))
        inp = keras.Input(shape=(96, 96, 3))
        model = keras.Model(inp, layers.Dense(2)(layers.GlobalAveragePooling2D()(base(inp))))
        model.fit(a, b)
        seq = keras.Sequential([base, layers.Dense(2)])
        seq.fit(a, b)
        """
    )
    assert counts == [None, None]


def test_a_callee_not_known_leaves_the_count_unknown():
    counts = layer_counts(
        """
        from keras_contrib.layers import PELU
        inp = keras.Input(shape=(8,))
        model = keras.Model(inp, layers.Dense(1)(PELU()(layers.Dense(8)(inp))))
        model.fit(a, b)
        """
    )
    assert counts == [None]


def test_another_librarys_normalisation_layer_counts_as_one_layer():
    counts = layer_counts(
        """
        from keras_contrib.layers import InstanceNormalization
        inp = keras.Input(shape=(8,))
        model = keras.Model(inp, layers.Dense(1)(InstanceNormalization()(layers.Dense(8)(inp))))
        model.fit(a, b)
        """
    )
    assert counts == [3]


def test_layers_added_in_a_loop_of_unknown_trips_leave_the_count_unknown():
    counts = layer_counts(
        """
        def build(depth):
            model = keras.Sequential([layers.Dense(8, input_dim=4)])
            for _ in range(depth):
                model.add(layers.Dense(8))
            return model
        m = build(depth)
        m.fit(a, b)
        """
    )
    assert counts == [None]


def test_a_loop_over_a_literal_range_counts_each_trip():
    assert layer_counts(
        """
        inp = keras.Input(shape=(8,))
        x = inp
        for units in (16, 32, 64):
            x = layers.Dense(units)(x)
        model = keras.Model(inp, x)
        model.fit(a, b)
        seq = keras.Sequential([keras.Input(shape=(8,))])
        for _ in range(3):
            seq.add(layers.Dense(8))
        seq.fit(a, b)
        """
    ) == [3, 3]


def test_each_trip_of_a_literal_loop_keeps_its_own_flops():
    """The trips are walked apart: the first two Dense layers' FLOPs are not replaced by the last's."""
    result = analyse_source(
        HEADER + "inp = keras.Input(shape=(8,))\nx = inp\nfor units in (16, 32, 64):\n    x = layers.Dense(units)(x)\n"
        "model = keras.Model(inp, x)\n",
        "snippet.py",
    )
    [model] = [s for s in result.callsites if s.api == "tensorflow.keras.Model"]
    assert model.work["flops_per_sample"].value == 2 * (8 * 16 + 16 * 32 + 32 * 64)
    assert model.work["params"].value == (8 + 1) * 16 + (16 + 1) * 32 + (32 + 1) * 64


def test_a_model_rewired_after_it_is_built_has_no_count():
    counts = layer_counts(
        """
        inp = keras.Input(shape=(8,))
        model = keras.Model(inp, layers.Dense(1)(layers.Dense(8)(inp)))
        model.outputs = [model.layers[1].output]
        model.fit(a, b)
        """
    )
    assert counts == [None]


def test_a_sequentials_input_item_dispatches_no_layer():
    """`keras.Input(...)` and an `InputLayer` as a Sequential's first item are not among its layers."""
    assert layer_counts(
        """
        a_model = keras.Sequential([keras.Input(shape=(8,)), layers.Dense(4), layers.Dense(1)])
        a_model.fit(a, b)
        b_model = keras.Sequential([layers.InputLayer(input_shape=(8,)), layers.Dense(4), layers.Dense(1)])
        b_model.fit(a, b)
        """
    ) == [2, 2]


def test_a_tf_op_of_unknown_work_on_the_graph_counts_as_one_layer_and_a_project_layer_as_its_own():
    assert layer_counts(
        """
        class Block(layers.Layer):
            def __init__(self):
                super().__init__()
                self.inner = layers.Dense(8)

            def call(self, x):
                return tf.signal.fft(self.inner(x))


        inp = keras.Input(shape=(8,))
        out = layers.Dense(1)(Block()(inp))
        model = keras.Model(inp, out)
        model.fit(a, b)
        """
    ) == [3]
