"""`CallSite.work`: models, data and tensor ops inferred statically, each with its provenance."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.layers import apply

HEADER = "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n"


def sites(code: str) -> list:
    result = analyse_source(HEADER + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return result.callsites


def work(code: str, api: str, index: int = -1) -> dict:
    """The work of the *index*-th call of *api* (default: the last)."""
    found = [s.work for s in sites(code) if s.api == api]
    assert found, [s.api for s in sites(code)]
    return found[index]


def value(w: dict, key: str):
    return w[key].value


MNIST_MLP = """
(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
x_train = x_train / 255.0
model = keras.Sequential([
    keras.layers.Flatten(input_shape=(28, 28)),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(10),
])
"""


# -- layers ----------------------------------------------------------------------------------
def test_conv2d_64_3x3_on_32x32x3_needs_about_3_mflop_per_sample():
    found = apply("Conv2D", {"filters": 64, "kernel_size": 3}, [(32, 32, 3)])
    assert found.shape == (30, 30, 64)
    assert found.params == 3 * 3 * 3 * 64 + 64
    assert found.flops == pytest.approx(2 * 30 * 30 * 64 * 27)


def test_layer_rules_match_keras_parameter_counts():
    # figures Keras's count_params() gives for these layers
    assert apply("Dense", {"units": 10}, [(784,)]).params == 7850
    assert apply("LSTM", {"units": 64}, [(100, 32)]).params == 24832
    assert apply("GRU", {"units": 64}, [(100, 32)]).params == 18816
    assert apply("SimpleRNN", {"units": 8}, [(5, 4)]).params == 8 * (4 + 8) + 8
    assert apply("Embedding", {"input_dim": 1000, "output_dim": 16}, [(20,)]).shape == (20, 16)
    assert apply("BatchNormalization", {}, [(8, 8, 32)]).params == 128
    assert apply("Conv2D", {"filters": 8, "kernel_size": 3, "padding": "same", "strides": 2}, [(32, 32, 3)]).shape == (16, 16, 8)
    assert apply("MaxPool2D", {}, [(30, 30, 64)]).shape == (15, 15, 64)
    assert apply("DepthwiseConv2D", {"kernel_size": 3}, [(10, 10, 4)]).params == 3 * 3 * 4 + 4


def test_unknown_layers_and_non_literal_arguments_are_unknown():
    assert apply("MyCustomLayer", {}, [(10,)]) is None
    assert apply("Dense", {}, [(10,)]) is None  # units not literal
    assert apply("Conv2D", {"filters": 8, "kernel_size": 3}, [(10,)]) is None  # wrong rank


def test_the_same_tensor_gives_conv2d_far_more_flops_than_dense():
    found = sites("t = tf.zeros((1000, 32, 32, 3))\nkeras.layers.Dense(16)(t)\nkeras.layers.Conv2D(64, 3)(t)\n")
    dense = next(s.work for s in found if s.api.endswith("Dense.__call__"))
    conv = next(s.work for s in found if s.api.endswith("Conv2D.__call__"))
    assert value(conv, "flops") == 1000 * 2 * 30 * 30 * 64 * 27  # ~3.1 GFLOP
    assert value(conv, "flops") > 30 * value(dense, "flops")
    assert conv["input_shape"].to_json() == {"value": [1000, 32, 32, 3], "provenance": "literal", "note": None}


# -- models ----------------------------------------------------------------------------------
def test_sequential_list_params_and_flops():
    w = work(MNIST_MLP + "model.fit(x_train, y_train)\n", "tensorflow.keras.Sequential.fit")
    assert value(w, "params") == 784 * 128 + 128 + 128 * 10 + 10  # 101,770 as Keras reports
    assert value(w, "flops_per_sample") == 2 * (784 * 128 + 128 * 10) + 128 + 128  # + the relu, the dropout
    assert value(w, "input_shape") == [28, 28]
    assert w["params"].bound is None


def test_a_sequential_lists_its_layers_outputs_per_sample_where_each_is_known():
    """`activations_per_sample`: every layer's output elements summed (Flatten 784, Dense 128, Dropout
    128, Dense 10); absent where a layer's output is not known (a user layer), a layer is a model, or
    a layer loops over time steps (its traffic is per step, not its output)."""
    w = work(MNIST_MLP + "model.fit(x_train, y_train)\n", "tensorflow.keras.Sequential.fit")
    assert value(w, "activations_per_sample") == 784 + 128 + 128 + 10
    conv = work("m = keras.Sequential([keras.Input((32, 32, 3)), keras.layers.Conv2D(8, 3), keras.layers.MaxPooling2D(2)])\n"
                "m.predict(np.zeros((4, 32, 32, 3)))\n", "tensorflow.keras.Sequential.predict")
    assert value(conv, "activations_per_sample") == 30 * 30 * 8 + 15 * 15 * 8
    mine = work("class Mine(keras.layers.Layer):\n    pass\n"
                "m = keras.Sequential([keras.layers.Dense(8, input_shape=(4,)), Mine(), keras.layers.Dense(2)])\n"
                "m.predict(x)\n", "tensorflow.keras.Sequential.predict")
    assert "activations_per_sample" not in mine
    inner = work("a = keras.Sequential([keras.layers.Dense(8, input_shape=(4,))])\n"
                 "m = keras.Sequential([a, keras.layers.Dense(2)])\nm.predict(np.zeros((4, 4)))\n",
                 "tensorflow.keras.Sequential.predict")
    assert "activations_per_sample" not in inner and value(inner, "params") == 40 + 18
    for layer in ("keras.layers.GRU(8)", "keras.layers.Bidirectional(keras.layers.LSTM(8))"):  # per time step: not shown
        rnn = work(f"m = keras.Sequential([keras.Input((5, 3)), {layer}, keras.layers.Dense(1)])\n"
                   "m.predict(np.zeros((4, 5, 3)))\n", "tensorflow.keras.Sequential.predict")
        assert "activations_per_sample" not in rnn and value(rnn, "flops_per_sample") > 0


def test_a_functional_model_lists_its_layers_outputs_like_its_sequential_twin():
    """A functional model's `activations_per_sample` sums each layer call's and op's output elements, as
    a Sequential's does (the same network gives the same count; an elementwise `+` writes its output
    too); absent where a call's output is not known or a call loops over time steps."""
    layers = "[keras.layers.Conv2D(8, 3), keras.layers.MaxPooling2D(2), keras.layers.Flatten(), keras.layers.Dense(10)]"
    seq = work(f"m = keras.Sequential([keras.Input((32, 32, 3)), *{layers}])\nm.predict(np.zeros((4, 32, 32, 3)))\n",
               "tensorflow.keras.Sequential.predict")
    functional = work("inputs = keras.Input((32, 32, 3))\nh = keras.layers.Conv2D(8, 3)(inputs)\n"
                      "h = keras.layers.Dense(10)(keras.layers.Flatten()(keras.layers.MaxPooling2D(2)(h)))\n"
                      "m = keras.Model(inputs, h)\nm.predict(np.zeros((4, 32, 32, 3)))\n", "tensorflow.keras.Model.predict")
    assert value(functional, "activations_per_sample") == value(seq, "activations_per_sample") == \
        30 * 30 * 8 + 15 * 15 * 8 + 15 * 15 * 8 + 10
    residual = work("inputs = keras.Input((16,))\nh = keras.layers.Dense(16)(inputs)\nh = keras.layers.Dense(4)(h + inputs)\n"
                    "m = keras.Model(inputs, h)\nm.predict(np.zeros((4, 16)))\n", "tensorflow.keras.Model.predict")
    assert value(residual, "activations_per_sample") == 16 + 16 + 4
    rnn = work("inputs = keras.Input((5, 3))\nh = keras.layers.Dense(1)(keras.layers.LSTM(8)(inputs))\n"
               "m = keras.Model(inputs, h)\nm.predict(np.zeros((4, 5, 3)))\n", "tensorflow.keras.Model.predict")
    assert "activations_per_sample" not in rnn and value(rnn, "flops_per_sample") > 0


def test_add_sequence_takes_the_input_shape_from_the_data():
    w = work(
        """
        m = keras.Sequential()
        m.add(keras.layers.Embedding(10000, 16))
        m.add(keras.layers.LSTM(32))
        m.add(keras.layers.Dense(1))
        m.fit(np.zeros((500, 100)), np.zeros((500,)), batch_size=8, epochs=2)
        """,
        "tensorflow.keras.Sequential.fit",
    )
    assert value(w, "params") == 10000 * 16 + 4 * (32 * 48 + 32) + 33
    assert value(w, "input_shape") == [100]
    assert "from the data" in w["params"].note


def test_functional_chain_from_input():
    w = work(
        """
        inputs = keras.Input(shape=(32, 32, 3))
        x = keras.layers.Conv2D(64, 3, activation="relu")(inputs)
        x = keras.layers.MaxPooling2D()(x)
        x = keras.layers.Flatten()(x)
        outputs = keras.layers.Dense(10)(x)
        model = keras.Model(inputs=inputs, outputs=outputs)
        model.predict(np.zeros((100, 32, 32, 3)))
        """,
        "tensorflow.keras.Model.predict",
    )
    assert value(w, "params") == 1792 + 15 * 15 * 64 * 10 + 10
    assert value(w, "input_shape") == [32, 32, 3]
    assert value(w, "samples") == 100


def test_subclassed_model_layers_from_init():
    w = work(
        """
        class MyModel(keras.Model):
            def __init__(self):
                super().__init__()
                self.d1 = keras.layers.Dense(64, activation="relu")
                self.d2 = keras.layers.Dense(10)
            def call(self, x):
                return self.d2(self.d1(x))
        model = MyModel()
        model.fit(np.zeros((2000, 20)), np.zeros((2000,)), epochs=2)
        """,
        "tensorflow.keras.Model.fit",
    )
    assert value(w, "params") == 20 * 64 + 64 + 64 * 10 + 10
    assert "order __init__ creates them" in w["params"].note


def test_keras_application_by_name_keeps_its_identity():
    w = work("m = keras.applications.ResNet50()\nm.predict(np.zeros((4, 224, 224, 3)))\n", "tensorflow.keras.Model.predict")
    assert w["model"].value == "ResNet50"
    assert w["params"].to_json() == {"value": 25636712, "provenance": "table", "note": w["params"].note}
    assert 7e9 < value(w, "flops_per_sample") < 9e9
    small = work("m = keras.applications.MobileNetV2()\nm.predict(x)\n", "tensorflow.keras.Model.predict")
    assert value(small, "flops_per_sample") < value(w, "flops_per_sample") / 5


def test_keras_application_at_another_input_is_scaled_to_it():
    full = work("m = keras.applications.VGG16(weights=None)\nm.predict(x)\n", "tensorflow.keras.Model.predict")
    # with its top at 128x128 (weights=None): FLOPs by pixels, parameters (fc1 grows with the input) untabled
    small = work("m = keras.applications.VGG16(input_shape=(128, 128, 3), weights=None)\nm.predict(x)\n",
                 "tensorflow.keras.Model.predict")
    ratio = value(small, "flops_per_sample") / value(full, "flops_per_sample")
    assert ratio == pytest.approx(128 * 128 / (224 * 224), rel=1e-6)
    assert value(full, "params") == 138357544 and value(small, "params") is None


def test_keras_application_base_inside_a_sequential_keeps_its_flops():
    base = "keras.applications.VGG16(input_shape=(128, 128, 3), include_top=False)"
    alone = work(f"m = {base}\nm.predict(x)\n", "tensorflow.keras.Model.predict")
    w = work(f"m = keras.Sequential([{base}, keras.layers.Flatten(), keras.layers.Dense(10)])\nm.predict(x)\n",
             "tensorflow.keras.Sequential.predict")
    # the head after a base of untabled output shape is unknown: the base's FLOPs are a lower bound
    assert value(w, "flops_per_sample") == value(alone, "flops_per_sample") > 5e9
    assert w["flops_per_sample"].bound == "lower"


def test_unknown_layer_makes_params_a_lower_bound():
    w = work(
        """
        class Mine(keras.layers.Layer):
            pass
        m = keras.Sequential([keras.layers.Dense(8, input_shape=(4,)), Mine(), keras.layers.Dense(2)])
        m.predict(x)
        """,
        "tensorflow.keras.Sequential.predict",
    )
    assert w["params"].bound == "lower" and value(w, "params") == 40


def test_a_sequential_model_used_as_a_layer_passes_its_output_shape_on():
    # the image classification tutorial: a data augmentation Sequential first, then the network
    w = work(
        """
        aug = keras.Sequential([keras.layers.RandomFlip("horizontal", input_shape=(180, 180, 3)),
                                keras.layers.RandomRotation(0.1)])
        m = keras.Sequential([aug, keras.layers.Rescaling(1. / 255), keras.layers.Conv2D(16, 3, padding="same"),
                              keras.layers.MaxPooling2D(), keras.layers.Flatten(), keras.layers.Dense(5)])
        m.predict(np.zeros((10, 180, 180, 3)))
        """,
        "tensorflow.keras.Sequential.predict",
    )
    assert value(w, "params") == 448 + 90 * 90 * 16 * 5 + 5 and w["params"].bound is None
    conv = 2 * 180 * 180 * 16 * 27  # a multiply-add counts 2
    assert value(w, "flops_per_sample") >= conv


def test_a_sequential_placed_first_declares_the_models_input_without_data():
    """A save reads no data: the model's input is what the nested Sequential's first layer declares."""
    w = work(
        """
        aug = keras.Sequential([keras.layers.RandomFlip("horizontal", input_shape=(180, 180, 3))])
        m = keras.Sequential([aug, keras.layers.Conv2D(16, 3, padding="same"), keras.layers.MaxPooling2D(),
                              keras.layers.Flatten(), keras.layers.Dense(5)])
        m.save("m.keras")
        """,
        "tensorflow.keras.Sequential.save",
    )
    assert value(w, "params") == 448 + 90 * 90 * 16 * 5 + 5


def test_a_model_that_is_not_built_here_is_unknown():
    w = work("m = keras.models.load_model('m.keras')\nm.fit(x, y)\n", "tensorflow.keras.Model.fit")
    assert w["flops_per_sample"].to_json() == {"value": None, "provenance": "unknown", "note": w["flops_per_sample"].note}
    assert w["samples"].provenance == "unknown"


# -- data ------------------------------------------------------------------------------------
def test_keras_dataset_sizes_validation_split_and_early_stopping():
    w = work(
        MNIST_MLP + "model.fit(x_train, y_train, epochs=5, validation_split=0.1,"
        " callbacks=[keras.callbacks.EarlyStopping()])\n",
        "tensorflow.keras.Sequential.fit",
    )
    assert value(w, "samples") == 54000 and value(w, "validation_samples") == 6000
    assert w["epochs"].to_json() == {"value": 5, "provenance": "literal", "note": w["epochs"].note, "bound": "upper",
                           "least": 2}  # Keras' default patience 0 still runs a second epoch
    assert w["batch_size"].value == 32 and w["batch_size"].provenance == "inferred"  # Keras default
    assert value(w, "steps_per_epoch") == 1688 and w["steps"].bound == "upper"


def test_batch_size_8_vs_512_changes_the_steps():
    small = work(MNIST_MLP + "model.evaluate(x_test, y_test, batch_size=8)\n", "tensorflow.keras.Sequential.evaluate")
    large = work(MNIST_MLP + "model.evaluate(x_test, y_test, batch_size=512)\n", "tensorflow.keras.Sequential.evaluate")
    assert value(small, "samples") == value(large, "samples") == 10000
    assert small["samples"].provenance == "table"
    assert (value(small, "steps"), value(large, "steps")) == (1250, 20)


def test_slicing_and_literal_arrays():
    w = work(MNIST_MLP + "model.predict(x_test[:1000])\n", "tensorflow.keras.Sequential.predict")
    assert value(w, "samples") == 1000
    w = work("m = keras.Sequential()\nm.fit(np.random.rand(300, 8), y, epochs=4, steps_per_epoch=7)\n",
             "tensorflow.keras.Sequential.fit")
    assert (value(w, "samples"), value(w, "steps_per_epoch"), value(w, "steps")) == (300, 7, 28)
    assert w["steps_per_epoch"].provenance == "literal"


def test_dataset_pipeline_batch_take_repeat():
    w = work(
        """
        m = keras.Sequential()
        ds = tf.data.Dataset.from_tensor_slices((np.zeros((1000, 4)), np.zeros(1000))).shuffle(100).batch(64).repeat(2)
        m.fit(ds, epochs=3)
        m.fit(ds.take(5))
        m.fit(ds.repeat(), epochs=2)
        """,
        "tensorflow.keras.Sequential.fit",
        0,
    )
    assert (value(w, "batch_size"), value(w, "steps_per_epoch"), value(w, "steps")) == (64, 32, 96)
    taken = work("m = keras.Sequential()\nds = tf.data.Dataset.from_tensor_slices(np.zeros((1000, 4))).batch(64)\n"
                 "m.fit(ds.take(5))\n", "tensorflow.keras.Sequential.fit")
    assert (value(taken, "samples"), value(taken, "steps_per_epoch")) == (320, 5)
    forever = work("m = keras.Sequential()\nds = tf.data.Dataset.from_tensor_slices(np.zeros((1000, 4))).batch(64)\n"
                   "m.fit(ds.repeat(), epochs=2)\n", "tensorflow.keras.Sequential.fit")
    assert forever["steps_per_epoch"].provenance == "unknown"


def test_tfds_split_percentages():
    w = work(
        "import tensorflow_datasets as tfds\nm = keras.Sequential()\n"
        "train = tfds.load('cifar10', split='train[:80%]', as_supervised=True)\nm.fit(train.batch(32))\n",
        "tensorflow.keras.Sequential.fit",
    )
    assert w["samples"].to_json() == {"value": 40000, "provenance": "table", "note": w["samples"].note}
    assert value(w, "steps_per_epoch") == 1250


def test_data_from_a_file_is_unknown_not_guessed():
    w = work("m = keras.Sequential()\nx = np.load('x.npy')\nm.fit(x, y)\n", "tensorflow.keras.Sequential.fit")
    assert w["samples"].value is None and w["samples"].provenance == "unknown"
    assert w["steps_per_epoch"].value is None


# -- tensor ops ------------------------------------------------------------------------------
def test_matmul_reductions_and_random():
    found = {s.api: s.work for s in sites(
        "a = tf.random.normal([256, 512])\nb = tf.ones((512, 128))\nc = tf.matmul(a, b)\n"
        "tf.reduce_sum(c, axis=0)\ntf.exp(c)\n"
    )}
    assert value(found["tensorflow.matmul"], "flops") == 2 * 256 * 128 * 512
    assert value(found["tensorflow.matmul"], "elements") == 256 * 128
    assert value(found["tensorflow.reduce_sum"], "flops") == 256 * 128  # the matmul's result shape followed
    assert value(found["tensorflow.reduce_sum"], "elements") == 128
    assert value(found["tensorflow.exp"], "elements") == 256 * 128
    assert value(found["tensorflow.random.normal"], "flops") == 256 * 512


def test_op_on_unknown_shapes_is_unknown():
    found = {s.api: s.work for s in sites("import sys\na = load()\ntf.matmul(a, a)\n")}
    assert found["tensorflow.matmul"]["flops"].provenance == "unknown"


def test_features_are_unchanged_by_numpy_tracking():
    found = {s.api: s.features for s in sites("x = tf.constant([1.0], dtype=np.float32)\n")}
    assert "dtype" not in found["tensorflow.constant"] or found["tensorflow.constant"]["dtype"] != "numpy.float32"


def test_clone_model_keeps_the_architecture():
    w = work(
        "base = keras.Sequential([keras.layers.Dense(4, input_shape=(3,))])\n"
        "m = keras.models.clone_model(base)\nm.fit(x, y)\n",
        "tensorflow.keras.Model.fit",
    )
    assert value(w, "params") == 16


def test_different_models_passed_to_one_helper_give_the_smallers_figures_as_lower_bounds():
    w = work(
        """
        def train(model):
            return model.fit(np.zeros((10, 4)), np.zeros(10))
        a = keras.Sequential([keras.layers.Dense(16, input_shape=(4,))])
        b = keras.Sequential([keras.layers.Dense(64, input_shape=(4,))])
        ha = train(a)
        hb = train(b)
        """,
        "tensorflow.keras.Sequential.fit",
    )
    # not a's figure shown as b's: the smaller model's, a floor for either call
    assert (w["flops_per_sample"].value, w["flops_per_sample"].bound) == (2 * 4 * 16, "lower")
    assert (w["params"].value, w["params"].bound) == (4 * 16 + 16, "lower")
    assert "one of 2 models" in w["flops_per_sample"].note


def test_a_third_model_passed_to_one_helper_keeps_the_smallest_as_lower_bounds():
    # each merge adds to the models the parameter may be: a third caller does not lose them all
    w = work(
        """
        def train(model):
            return model.fit(np.zeros((10, 4)), np.zeros(10))
        a = keras.Sequential([keras.layers.Dense(64, input_shape=(4,))])
        b = keras.Sequential([keras.layers.Dense(16, input_shape=(4,))])
        c = keras.Sequential([keras.layers.Dense(256, input_shape=(4,)), keras.layers.Dense(1)])
        train(a)
        train(b)
        train(c)
        train(b)
        """,
        "tensorflow.keras.Sequential.fit",
    )
    assert (w["flops_per_sample"].value, w["flops_per_sample"].bound) == (2 * 4 * 16, "lower")
    assert (w["params"].value, w["params"].bound) == (4 * 16 + 16, "lower")
    assert "one of 3 models" in w["flops_per_sample"].note


def test_a_model_of_unknown_network_among_several_callers_leaves_the_figures_unknown():
    w = work(
        """
        def train(model):
            return model.fit(np.zeros((10, 4)), np.zeros(10))
        train(keras.Sequential([keras.layers.Dense(16, input_shape=(4,))]))
        train(keras.Sequential([keras.layers.Dense(64, input_shape=(4,))]))
        train(keras.models.load_model("saved"))
        """,
        "tensorflow.keras.Model.fit",
    )
    assert w["flops_per_sample"].value is None
    same = work(
        """
        def train(model):
            return model.fit(np.zeros((10, 4)), np.zeros(10))
        a = keras.Sequential([keras.layers.Dense(16, input_shape=(4,))])
        ha = train(a)
        hb = train(a)
        """,
        "tensorflow.keras.Sequential.fit",
    )
    assert same["params"].value == 4 * 16 + 16


def test_text_models_with_unknown_sequence_length_know_their_params():
    seq = work(
        "m = keras.Sequential([keras.layers.TextVectorization(max_tokens=1000), keras.layers.Embedding(1000, 16),"
        " keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(1)])\nm.fit(ds, epochs=3)\n",
        "tensorflow.keras.Sequential.fit",
    )
    assert seq["params"].value == 16017 and seq["params"].bound is None
    assert seq["flops_per_sample"].bound == "lower"  # the pooling's FLOPs depend on the length
    func = work(
        """
        inputs = keras.Input(shape=(None,), dtype="int64")
        x = keras.layers.Embedding(5000, 64)(inputs)
        x = keras.layers.Bidirectional(keras.layers.LSTM(64))(x)
        out = keras.layers.Dense(1)(x)
        model = keras.Model(inputs, out)
        model.predict(z)
        """,
        "tensorflow.keras.Model.predict",
    )
    # every layer counted once, though the inline layers are gone once called
    assert func["params"].value == 5000 * 64 + 2 * 4 * (64 * 128 + 64) + 129
    assert func["input_shape"].value == [None]


def test_work_facts_stay_out_of_the_features():
    import json

    found = sites(
        "m = keras.Sequential([keras.layers.Dense(3, input_shape=(4,))])\nm.fit(np.zeros((10, 4)))\n"
        "ds = tf.data.Dataset.from_tensor_slices(np.zeros((10, 4))).batch(2)\nds.prefetch(1)\n"
        "x = tf.zeros((4, 4))[:2]\ntf.reduce_sum(x)\n"
    )
    for site in found:
        json.dumps(site.features)  # the predictor's input stays plain JSON
        assert not {"layers", "data", "sym", "graph", "shape_prov"} & site.features.keys(), site.api
    fit = next(s for s in found if s.api.endswith(".fit"))
    assert fit.features["n_layers"] == 1 and fit.work["params"].value == 15


def test_image_dataset_from_directory_gives_batch_and_shape_not_samples():
    w = work(
        """
        ds = keras.utils.image_dataset_from_directory("flowers", image_size=(180, 180), batch_size=16)
        m = keras.Sequential([keras.layers.Conv2D(8, 3), keras.layers.Flatten(), keras.layers.Dense(5)])
        m.fit(ds, epochs=2)
        """,
        "tensorflow.keras.Sequential.fit",
    )
    assert value(w, "batch_size") == 16 and w["samples"].provenance == "unknown"
    assert value(w, "input_shape") == [180, 180, 3]  # the model's input from the data's images
    assert value(w, "params") == 3 * 3 * 3 * 8 + 8 + 178 * 178 * 8 * 5 + 5


def test_rows_of_an_array_and_new_axes():
    w = work(
        """
        x = np.random.rand(512, 32).astype("float32")
        model = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(5)])
        for row in x[:50]:
            model.predict(row[None, :])
        """,
        "tensorflow.keras.Sequential.predict",
    )
    assert value(w, "samples") == 1 and value(w, "input_shape") == [32]
    assert value(w, "params") == 32 * 64 + 64 + 64 * 5 + 5
    found = [s for s in sites("x = np.zeros((8, 4))\ntf.reduce_sum(x[..., None])\ntf.reduce_sum(x[0, 1])\n"
                              "tf.reduce_sum(x[mask])\n") if s.api == "tensorflow.reduce_sum"]
    assert value(found[0].work, "flops") == 32 and value(found[1].work, "flops") == 1  # x[0, 1]: one element
    assert found[2].work["flops"].value is None  # a mask selects an unknown number of rows


def test_initial_epoch_is_given_beside_the_epochs_written_and_steps_count_the_epochs_left():
    w = work("m = keras.Sequential()\nm.fit(np.zeros((64, 4)), epochs=10, initial_epoch=4)\n",
             "tensorflow.keras.Sequential.fit")
    assert value(w, "epochs") == 10 and w["epochs"].provenance == "literal"  # as written (the predictor subtracts)
    assert value(w, "initial_epoch") == 4 and w["initial_epoch"].provenance == "literal"
    assert value(w, "steps") == 6 * 2 and "initial_epoch" in w["steps"].note  # 6 epochs of ceil(64 / 32)


def test_an_unknown_initial_epoch_makes_the_epochs_an_upper_bound_of_at_least_one():
    """Resuming at an epoch not known here (`initial_epoch=self.epoch`) runs between one epoch and all."""
    w = work("m = keras.Sequential()\ndef stage(start):\n    m.fit(np.zeros((64, 4)), epochs=10, initial_epoch=start)\n",
             "tensorflow.keras.Sequential.fit")
    assert w["initial_epoch"].provenance == "unknown" and w["steps"].value is None
    assert (value(w, "epochs"), w["epochs"].bound, w["epochs"].least) == (10, "upper", 1)
    assert "initial_epoch not known" in w["epochs"].note


def test_layers_in_a_sequential_list_get_their_own_work():
    found = sites("m = keras.Sequential([keras.layers.Dense(8, input_shape=(4,)), keras.layers.Dense(2)])\n")
    dense = [s.work for s in found if s.api == "tensorflow.keras.layers.Dense"]
    assert [value(w, "params") for w in dense] == [40, 18]
    assert [value(w, "input_shape") for w in dense] == [[4], [8]]


def test_a_model_built_here_shows_its_size_at_its_constructor():
    found = sites(
        "m = keras.Sequential([keras.layers.Dense(8, input_shape=(4,)), keras.layers.Dense(2)])\n"
        "r = keras.applications.ResNet50()\nempty = keras.Sequential()\n"
    )
    models = [s.work for s in found if s.api == "tensorflow.keras.Sequential"]
    assert value(models[0], "params") == 40 + 18 and models[1] == {}
    resnet = next(s.work for s in found if s.api == "tensorflow.keras.applications.ResNet50")
    assert value(resnet, "params") == 25636712 and resnet["model"].value == "ResNet50"


def test_conv1d_conv3d_and_pooling_shapes():
    conv1 = apply("Conv1D", {"filters": 32, "kernel_size": 5, "padding": "causal"}, [(100, 8)])
    assert conv1.shape == (100, 32) and conv1.params == 5 * 8 * 32 + 32
    conv3 = apply("Conv3D", {"filters": 4, "kernel_size": [3, 3, 3]}, [(10, 10, 10, 1)])
    assert conv3.shape == (8, 8, 8, 4) and conv3.flops == 2 * 8 * 8 * 8 * 4 * 27
    assert apply("GlobalAveragePooling2D", {}, [(7, 7, 1280)]).shape == (1280,)
    assert apply("AveragePooling1D", {"pool_size": 4}, [(100, 8)]).shape == (25, 8)


FLOWS = """
model = keras.Sequential([keras.layers.Dense(1)])
gen = keras.preprocessing.image.ImageDataGenerator(rotation_range=0.2)
"""


@pytest.mark.parametrize(
    ("fit", "batch", "note"),
    [
        ("model.fit(gen.flow_from_directory('d', batch_size=4), epochs=3)", 4, "`flow_from_directory(batch_size=4)`"),
        ("model.fit(gen.flow(x, y, batch_size=8), epochs=3)", 8, "`flow(batch_size=8)`"),
        ("model.fit(gen.flow_from_directory('d'), epochs=3)", 32, "`flow_from_directory(Keras' default batch_size=32)`"),
        ("model.fit(gen.flow(x, y, batch_size=bs), epochs=3)", None, "the generator's batch size is not known statically"),
    ],
)
def test_a_fit_fed_by_an_image_flow_batches_as_the_flow_does(fit, batch, note):
    """An `ImageDataGenerator` flow batches itself: its `batch_size` (or Keras' default for flows),
    never the default `fit` gives arrays; unknown where not a literal."""
    w = work(FLOWS + fit + "\n", "tensorflow.keras.Sequential.fit")
    assert value(w, "batch_size") == batch
    assert w["batch_size"].note == note


def test_a_generator_drawing_flow_batches_per_yield_yields_batches_of_their_size():
    code = FLOWS + textwrap.dedent("""
        def pairs(size):
            images = gen.flow_from_directory('img', class_mode=None, batch_size=size, seed=1)
            masks = gen.flow_from_directory('mask', class_mode=None, batch_size=size, seed=1)
            for x, y in zip(images, masks):
                yield x / 255, y


        def samples():
            for x, y in gen.flow_from_directory('img', batch_size=4):
                for item in x:
                    yield item, y
        model.fit(pairs(6), steps_per_epoch=10, epochs=2)
        model.fit(samples(), steps_per_epoch=10, epochs=2)
        """)
    batched, per_sample = [s.work for s in sites(code) if s.api == "tensorflow.keras.Sequential.fit"]
    assert value(batched, "batch_size") == 6
    assert "drawn from `flow_from_directory(batch_size=6)`" in batched["batch_size"].note
    assert value(per_sample, "batch_size") is None  # a loop of its own yields each sample


@pytest.mark.parametrize(
    ("yielded", "batch"),
    [
        ("[a, b], np.zeros(size)", 6),  # a two-input model's list of inputs, and its targets
        ("[a, *rest], np.zeros(size)", 6),  # a starred part: the known arrays still say
        ("unknown, np.zeros(size)", 6),  # inputs of unknown shape, targets of `size` rows
        ("[a, np.zeros((3, 10))], np.zeros(size)", None),  # arrays of different rows: no one batch
        ("unknown, other", None),  # nothing of known shape
        ("[a, b], []", 6),  # no targets (a model whose losses are its own layers): an empty list is no batch of 0
        ("[np.zeros((0, 10))], []", None),  # nothing but empty arrays: no batch
    ],
)
def test_a_generator_batch_is_the_rows_its_yielded_arrays_share(yielded, batch):
    """The batch a generator yields is the first dimension its arrays share, inputs (a list of
    them too) and targets alike; unknown where they differ or none has a known shape."""
    code = FLOWS + textwrap.dedent(f"""
        import numpy as np


        def batches(size):
            while True:
                a = np.zeros((size, 10))
                b = np.zeros((size, 4))
                yield {yielded}
        model.fit_generator(batches(6), steps_per_epoch=10, epochs=2)
        """)
    (w,) = [s.work for s in sites(code) if s.api.endswith(".fit_generator")]
    assert value(w, "batch_size") == batch


def test_a_function_returning_a_generator_call_yields_the_batches_of_its_arguments():
    """`return data_generator(lines, batch_size)` in a wrapper called with several batch sizes:
    each call's generator yields its own batch (the wrapper walked again with its arguments)."""
    code = FLOWS + textwrap.dedent("""
        import numpy as np


        def batches(size):
            while True:
                yield np.zeros((size, 10)), np.zeros(size)


        def wrapper(size):
            if size <= 0:
                return None
            return batches(size)
        model.fit_generator(wrapper(6), steps_per_epoch=10, epochs=2)
        model.fit_generator(wrapper(2), steps_per_epoch=10, epochs=2)
        """)
    six, two = [s.work for s in sites(code) if s.api.endswith(".fit_generator")]
    assert (value(six, "batch_size"), value(two, "batch_size")) == (6, 2)


@pytest.mark.parametrize(
    ("x", "y", "samples"),
    [
        ("unknown", "np.ones((size,) + patch)", 3),  # the targets' rows, their shape a concatenated literal tuple
        ("np.zeros((5, 10))", "np.ones((size,) + patch)", 5),  # the inputs' rows come first
        ("unknown", "other", None),  # neither known
    ],
)
def test_a_one_batch_step_runs_on_the_rows_of_its_inputs_or_else_of_its_targets(x, y, samples):
    """Keras requires a batch's inputs and targets to have the same rows: `train_on_batch` on inputs
    of unknown shape runs on as many samples as its targets have."""
    code = FLOWS + textwrap.dedent(f"""
        import numpy as np
        patch = (8, 8, 1)
        size = 3
        model.train_on_batch({x}, {y})
        """)
    (w,) = [s.work for s in sites(code) if s.api.endswith(".train_on_batch")]
    assert value(w, "samples") == samples


@pytest.mark.parametrize("call,unknown", [
    ("est.train(input_fn)", "input_fn"),  # runs until input_fn's data ends: neither its size nor its epochs are followed
    ("est.train(input_fn, steps=100)", ""),
    ("est.train(input_fn=input_fn, max_steps=5000)", ""),  # a literal stop: the call's own feature
    ("est.train(input_fn=input_fn, max_steps=n)", "not known from the code"),  # never a measured program's size
    ("est.train(input_fn, steps=n)", "not known from the code"),
    ("est.train(input_fn, None, 100)", ""),  # steps given by position
    ("est.train(input_fn, steps=None, max_steps=None)", "input_fn"),  # None: no stop
])
def test_an_estimators_train_without_known_steps_has_an_unknown_data_size(call, unknown):
    code = f"est = tf.estimator.LinearClassifier(feature_columns=[])\n{call}\n"
    w = work(code, "tensorflow.estimator.LinearClassifier.train")
    if unknown:
        assert w["samples"].provenance == w["epochs"].provenance == "unknown"
        assert w["samples"].value is None and unknown in w["samples"].note
    else:
        assert "samples" not in w and "epochs" not in w


@pytest.mark.parametrize("call,unknown", [
    ("est.evaluate(input_fn, steps=100)", ""),  # 100 batches: the call's own feature
    ("est.evaluate(input_fn, steps=n)", "steps not known"),
    ("est.evaluate(input_fn)", "until its input_fn's data ends"),
    ("est.predict(input_fn)", "until its input_fn's data ends"),  # predict has no stop of its own
])
def test_an_estimators_evaluation_or_prediction_of_unknown_length_has_an_unknown_data_size(call, unknown):
    method = call.split("(")[0].split(".")[1]
    w = work(f"est = tf.estimator.LinearClassifier(feature_columns=[])\n{call}\n",
             f"tensorflow.estimator.LinearClassifier.{method}")
    if unknown:
        assert w["samples"].provenance == "unknown" and unknown in w["samples"].note and "epochs" not in w
    else:
        assert "samples" not in w


ESTIMATED = """
m = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(512), tf.keras.layers.Dense(10)])
def input_fn():
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
def model_fn(features, labels, mode):
    {body}
    return tf.estimator.EstimatorSpec(mode, loss=tf.reduce_mean(logits))
"""
MLP_FLOPS = 2 * (784 * 512 + 512 * 10)


@pytest.mark.parametrize("estimator", [
    "tf.keras.estimator.model_to_estimator(keras_model=m)",
    "tf.estimator.Estimator(model_fn=model_fn)",  # the one Keras model its model_fn calls
])
def test_an_estimator_runs_the_keras_model_it_is_built_on(estimator):
    code = ESTIMATED.format(body="logits = m(features)") + f"est = {estimator}\n"
    train = [s for s in sites(code + "est.train(input_fn=input_fn, steps=1000)\n") if s.api.endswith(".train")]
    assert [(value(s.work, "flops_per_sample"), s.features["batch_size"]) for s in train] == [(MLP_FLOPS, 64)]
    (most,) = [s for s in sites(code + "est.train(input_fn, max_steps=1000)\n") if s.api.endswith(".train")]
    assert "steps" not in most.work  # max_steps: fewer steps where it resumes from a checkpoint, not known here
    (evaluation,) = [s for s in sites(code + "est.evaluate(input_fn, steps=10)\n") if s.api.endswith(".evaluate")]
    assert value(evaluation.work, "flops_per_sample") == MLP_FLOPS and "steps" not in evaluation.work


@pytest.mark.parametrize("body", [
    "logits = tf.compat.v1.layers.dense(features, 10)",  # a TF1 graph of the features: not followed
    "logits = m(features) + other(features)",  # two models: which one is the Estimator's is not told
])
def test_an_estimator_whose_model_is_not_followed_stays_unknown(body):
    code = ESTIMATED.format(body=body.replace("other", "tf.keras.Sequential([tf.keras.Input((784,)), "
                                              "tf.keras.layers.Dense(3)])"))
    code += "est = tf.estimator.Estimator(model_fn=model_fn)\nest.train(input_fn)\n"
    w = work(code, "tensorflow.estimator.Estimator.train")
    assert "flops_per_sample" not in w and w["samples"].value is None


def test_a_model_called_on_a_batch_of_unknown_size_says_its_samples_are_unknown():
    model = "m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])\n"
    unsized = work(f"{model}def f(x):\n    return m(x)\n", "tensorflow.keras.Sequential.__call__")
    assert unsized["samples"].provenance == "unknown" and value(unsized, "flops_per_sample") == 16
    sized = work(f"{model}m(np.zeros((8, 4)))\n", "tensorflow.keras.Sequential.__call__")
    assert value(sized, "samples") == 8
    symbolic = work(f"{model}y = m(keras.Input((4,)))\n", "tensorflow.keras.Sequential.__call__")
    assert "samples" not in symbolic  # building a graph: no batch runs at that line


def test_a_time_stopping_callback_gives_the_fit_its_wall_time_cap():
    fit = "tensorflow.keras.Sequential.fit"
    capped = work("import tensorflow_addons as tfa\n" + MNIST_MLP
                  + "model.fit(x_train, y_train, epochs=100, callbacks=[tfa.callbacks.TimeStopping(seconds=5)])\n", fit)
    wall = capped["wall_s"]
    assert (wall.value, wall.provenance, wall.bound) == (5, "literal", "upper")
    assert capped["epochs"].value == 100 and capped["epochs"].bound is None  # the cap is in time, not epochs
    imported = work("from tensorflow_addons.callbacks import TimeStopping\n" + MNIST_MLP
                    + "stop = TimeStopping(120, verbose=1)\nmodel.fit(x_train, y_train, epochs=100, callbacks=[stop])\n", fit)
    assert value(imported, "wall_s") == 120
    default = work("import tensorflow_addons as tfa\n" + MNIST_MLP
                   + "model.fit(x_train, y_train, epochs=9, callbacks=[tfa.callbacks.TimeStopping()])\n", fit)
    assert value(default, "wall_s") == 86400  # a day
    unknown = work("import tensorflow_addons as tfa\n" + MNIST_MLP
                   + "model.fit(x_train, y_train, callbacks=[tfa.callbacks.TimeStopping(seconds=limit)])\n", fit)
    assert unknown["wall_s"].provenance == "unknown"
    for near_miss in (  # no cap: another callback, another library's TimeStopping, a cap only built
        "model.fit(x_train, y_train, epochs=100, callbacks=[keras.callbacks.EarlyStopping()])\n",
        "import mylib\n" + "model.fit(x_train, y_train, epochs=100, callbacks=[mylib.TimeStopping(seconds=5)])\n",
        "import tensorflow_addons as tfa\ncb = tfa.callbacks.TimeStopping(seconds=5)\nmodel.fit(x_train, y_train)\n",
    ):
        assert "wall_s" not in work(MNIST_MLP + near_miss, fit)


CUT_MODELS = """
inp = keras.Input((32, 32, 3))
h = keras.layers.Conv2D(64, 3, name="c1")(inp)
h = keras.layers.Conv2D(64, 3, name="c2")(h)
net = keras.Model(inp, keras.layers.Dense(10)(keras.layers.Flatten()(h)))
seq = keras.Sequential([keras.Input((100,)), keras.layers.Dense(1000), keras.layers.Dense(1000, name="mid"),
                        keras.layers.Dense(10)])
"""
C1, C2, D1, D2 = 1792, 36928, 101000, 1001000  # Keras' counts: 3*3*3*64+64, 3*3*64*64+64, 100*1000+1000, ...


def cut(code: str) -> dict:
    return work(CUT_MODELS + f"cut = keras.Model({code})\n", "tensorflow.keras.Model")


@pytest.mark.parametrize(("code", "params"), [
    ("net.input, net.layers[1].output", C1),  # layers[0] is the Input
    ("net.input, net.get_layer('c2').output", C1 + C2),
    ("inputs=net.input, outputs=[net.layers[-2].output]", C1 + C2),  # the Flatten: no parameters of its own
    ("seq.input, seq.layers[0].output", D1),  # a Sequential's layers leave its Input out
    ("seq.input, seq.get_layer('mid').output", D1 + D2),
    ("seq.input, seq.get_layer(index=1).output", D1 + D2),
])
def test_a_model_cut_at_a_layer_of_a_model_built_here_carries_what_feeds_that_layer(code, params):
    w = cut(code)
    assert value(w, "params") == params and w["params"].bound is None
    whole = work(CUT_MODELS + "cut = keras.Model(net.input, net.output)\n", "tensorflow.keras.Model")
    assert value(w, "flops_per_sample") < value(whole, "flops_per_sample")


@pytest.mark.parametrize("code", [
    "net.input, net.layers[k].output",  # an index not a literal
    "net.input, net.get_layer(name).output",
    "net.input, net.get_layer('nowhere').output",
    "net.input, net.layers[9].output",  # past the last layer
])
def test_a_cut_that_cannot_be_told_leaves_the_model_unknown(code):
    assert "params" not in cut(code) and "flops_per_sample" not in cut(code)


#: VGG19 up to block3_conv3 (`layers[9]`): its seven 3x3 convolutions' parameters, and their multiply-adds
#: (counted twice) at 224x224: two of 64 filters at 224, two of 128 at 112, three of 256 at 56.
VGG_CUT_PARAMS = (3 * 64 + 64 * 64 + 64 * 128 + 128 * 128 + 128 * 256 + 2 * 256 * 256) * 9 + 2 * 64 + 2 * 128 + 3 * 256
VGG_CUT_FLOPS = 2 * 9 * (224 ** 2 * (3 * 64 + 64 * 64) + 112 ** 2 * (64 * 128 + 128 * 128)
                         + 56 ** 2 * (128 * 256 + 2 * 256 * 256))


@pytest.mark.parametrize("code", ["vgg.layers[9].output", "vgg.get_layer('block3_conv3').output",
                                  "vgg.layers[-17].output"])
def test_a_cut_of_a_tabled_keras_application_carries_the_network_up_to_that_layer(code):
    w = work(f"vgg = keras.applications.VGG19()\ncut = keras.Model(vgg.input, {code})\n", "tensorflow.keras.Model")
    assert value(w, "params") == VGG_CUT_PARAMS and w["params"].bound is None
    assert VGG_CUT_FLOPS <= value(w, "flops_per_sample") < 1.01 * VGG_CUT_FLOPS  # (the profiler adds biases, ReLUs, pools)


def test_a_tabled_application_cut_without_its_top_scales_by_pixels_only_before_the_top():
    w = work("vgg = keras.applications.VGG19(include_top=False, input_shape=(448, 448, 3))\n"
             "cut = keras.Model(vgg.input, vgg.layers[9].output)\n", "tensorflow.keras.Model")
    assert value(w, "params") == VGG_CUT_PARAMS and 4 * VGG_CUT_FLOPS <= value(w, "flops_per_sample") < 4.04 * VGG_CUT_FLOPS
    for unknown in ("vgg = keras.applications.VGG19(include_top=False)\n"  # any image size
                    "cut = keras.Model(vgg.input, vgg.layers[9].output)\n",
                    "vgg = keras.applications.VGG19(include_top=False, input_shape=(448, 448, 3))\n"
                    "cut = keras.Model(vgg.input, vgg.layers[-1].output)\n",  # from the end: not the table's layers
                    "vgg = keras.applications.VGG19(input_shape=(448, 448, 3), weights=None)\n"
                    "cut = keras.Model(vgg.input, vgg.get_layer('fc1').output)\n",  # a flattened top grows otherwise
                    "net = keras.applications.ResNet50()\n"  # no per-layer table
                    "cut = keras.Model(net.input, net.layers[9].output)\n"):
        assert "params" not in work(unknown, "tensorflow.keras.Model"), unknown


def test_a_model_whose_outputs_are_set_to_a_cut_of_its_own_network_is_that_cut():
    rewired = work("vgg = keras.applications.VGG19()\nvgg.outputs = [vgg.layers[9].output]\n"
                   "img = keras.Input((224, 224, 3))\nm = keras.Model(img, vgg(img))\n", "tensorflow.keras.Model")
    assert value(rewired, "params") == VGG_CUT_PARAMS
    elsewhere = work("vgg = keras.applications.VGG19()\nother = keras.applications.VGG16(input_shape=(64, 64, 3), "
                     "include_top=False)\nvgg.outputs = [other.layers[9].output]\n"
                     "img = keras.Input((224, 224, 3))\nm = keras.Model(img, vgg(img))\n", "tensorflow.keras.Model")
    assert "params" not in elsewhere or elsewhere["params"].value is None  # another input: its size unknown


def test_a_cut_of_a_branching_graph_by_index_is_unknown_by_name_known():
    branches = """
inp = keras.Input((16,))
a = keras.layers.Dense(8, name="a")(inp)
b = keras.layers.Dense(8, name="b")(inp)
net = keras.Model(inp, keras.layers.Add()([a, b]))
"""
    by_index = work(branches + "cut = keras.Model(net.input, net.layers[2].output)\n", "tensorflow.keras.Model")
    assert "params" not in by_index  # Keras orders a branching graph's layers its own way
    by_name = work(branches + "cut = keras.Model(net.input, net.get_layer('b').output)\n", "tensorflow.keras.Model")
    assert value(by_name, "params") == 16 * 8 + 8


def test_a_layer_called_twice_has_no_one_output_to_cut_at():
    shared = """
inp = keras.Input((16,))
twice = keras.layers.Dense(16, name="twice")
net = keras.Model(inp, twice(twice(inp)))
cut = keras.Model(net.input, net.get_layer("twice").output)
"""
    assert "params" not in work(shared, "tensorflow.keras.Model")


def test_a_callback_of_the_file_that_sets_stop_training_bounds_the_epochs_from_one():
    """A callback class of the file whose hook sets `self.model.stop_training = True` (a time limit) may
    stop `fit` in its first epoch: epochs an upper bound, at least 1; one that only clears it does not."""
    limit = ("class LimitTime(keras.callbacks.Callback):\n"
             "    def on_train_batch_end(self, batch, logs=None):\n"
             "        if time.time() > self.deadline:\n"
             "            self.model.stop_training = True\n")
    w = work(MNIST_MLP + limit + "model.fit(x_train, y_train, epochs=100, callbacks=[LimitTime()])\n",
             "tensorflow.keras.Sequential.fit")
    assert w["epochs"].bound == "upper" and w["epochs"].least == 1 and w["steps"].bound == "upper"
    assert "LimitTime, which sets stop_training, may end training sooner" == w["epochs"].note
    keeps = limit.replace("= True", "= False")
    w = work(MNIST_MLP + keeps + "model.fit(x_train, y_train, epochs=100, callbacks=[LimitTime()])\n",
             "tensorflow.keras.Sequential.fit")
    assert w["epochs"].bound is None and w["steps"].bound is None
    both = limit + "model.fit(x_train, y_train, epochs=100, callbacks=[keras.callbacks.EarlyStopping(patience=3), LimitTime()])\n"
    assert work(MNIST_MLP + both, "tensorflow.keras.Sequential.fit")["epochs"].least == 1


def test_an_application_called_on_a_symbolic_tensor_is_sized_at_that_tensor():
    """`features = base(inputs)` in a functional model: the call's own work is the application's at the
    Input's size (without its top it takes any image size), as the model built on it counts it."""
    code = "base = keras.applications.VGG16(include_top=False)\nx = keras.Input((112, 112, 3))\ny = base(x)\n"
    w = work(code, "tensorflow.keras.Model.__call__")
    whole = work("base = keras.applications.VGG16()\n", "tensorflow.keras.applications.VGG16")
    assert value(w, "input_shape") == [112, 112, 3]
    assert value(w, "flops_per_sample") == round(value(whole, "flops_per_sample") / 4)


def test_cuts_of_one_application_at_several_layers_count_the_deepest_as_a_lower_bound():
    """A style loss's model of several VGG layers' outputs: the cuts share their first layers, so their
    sum would count those twice; the deepest cut is a lower bound of what runs."""
    w = work("vgg = keras.applications.VGG19()\n"
             "cut = keras.Model(vgg.input, [vgg.get_layer('block1_conv1').output, vgg.layers[9].output])\n",
             "tensorflow.keras.Model")
    assert value(w, "params") == VGG_CUT_PARAMS and w["params"].bound == "lower"
    assert VGG_CUT_FLOPS <= value(w, "flops_per_sample") < 1.01 * VGG_CUT_FLOPS


@pytest.mark.parametrize("data,samples,batch", [
    ("np.zeros((5000, 8))", 5000, 32),  # an array: its rows, in Keras' default batches
    ("tf.data.Dataset.from_tensor_slices(np.zeros((1000, 4))).batch(100)", 1000, 100),  # a pipeline batches itself
    ("np.array(features)", None, 32),  # rows not known: unknown, never a typical data set's
    # a pipeline never batched: each element, one sample, is a batch of adapt's
    ("tf.data.Dataset.from_tensor_slices(np.zeros((1000, 4))).map(lambda x: x * 2)", 1000, 1),
    ("tfds.load('movielens/100k-ratings', split='train').map(lambda x: x['movie_title'])", 100000, 1),
    ("tfds.load('movielens/100k-ratings', split='train').map(lambda x: x['user_id']).batch(1000)", 100000, 1000),
    ("tfds.load('movielens/100k-ratings', split='train', batch_size=64)", 100000, None),  # batches not followed
])
def test_a_preprocessing_layers_adapt_is_one_pass_over_its_data(data, samples, batch):
    w = work(f"import tensorflow_datasets as tfds\nnorm = tf.keras.layers.Normalization()\nnorm.adapt({data})\n",
             "tensorflow.keras.layers.Normalization.adapt")
    assert value(w, "samples") == samples and value(w, "batch_size") == batch
    assert samples is None or batch is None or value(w, "steps") == -(-samples // batch)
    assert (w["samples"].provenance == "unknown") == (samples is None)
    assert "flops_per_sample" not in w  # a pass over data: no model's FLOPs
