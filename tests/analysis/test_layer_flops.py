"""FLOPs and parameters of the attention layers and the other layers research models use
(analysis/layers.py), each against a hand computation from the layer's arguments; the
parameter counts are the figures Keras's count_params() gives for the same layers."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.analysis.layers import apply, unread_work

HEADER = "import numpy as np\nimport tensorflow as tf\n"


def sites(code: str) -> list:
    result = analyse_source(HEADER + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return result.callsites


def work_of(code: str, api: str) -> dict:
    found = [s.work for s in sites(code) if s.api == api]
    assert found, [s.api for s in sites(code)]
    return found[-1]


# -- MultiHeadAttention ----------------------------------------------------------------------
def test_self_attention_4_heads_of_16_on_32_tokens_of_64():
    found = apply("MultiHeadAttention", {"num_heads": 4, "key_dim": 16}, [(32, 64), (32, 64)])
    projections = 4 * 2 * 32 * 64 * 64  # query, key, value (4 heads x 16 = 64 each) and output
    scores = 4 * 32 * 32  # heads x Tq x Tv
    attend = 2 * scores * 16 + 3 * scores + 2 * scores * 16  # Q·Kᵀ, softmax, A·V
    assert found.flops == projections + attend == 1_323_008
    assert found.params == 16640  # Keras: 4 x (64·64 + 64)
    assert found.shape == (32, 64)


def test_cross_attention_with_own_key_value_and_output_sizes():
    init = {"num_heads": 3, "key_dim": 5, "value_dim": 6, "output_shape": 9}
    found = apply("MultiHeadAttention", init, [(10, 24), (7, 40), (7, 12)])  # query, value, key
    projections = 2 * (10 * 24 * 15 + 7 * 12 * 15 + 7 * 40 * 18 + 10 * 18 * 9)
    scores = 3 * 10 * 7
    assert found.flops == projections + 2 * scores * 5 + 3 * scores + 2 * scores * 6
    assert found.params == 1479  # Keras's count_params() for this layer
    assert found.shape == (10, 9)


def test_attention_without_bias_and_without_key_uses_the_value_as_key():
    found = apply("MultiHeadAttention", {"num_heads": 2, "key_dim": 8, "use_bias": False}, [(10, 24), (7, 40)])
    assert found.params == 2048  # Keras: (24 + 40) x 16 + 40 x 16 + 16 x 24
    assert found.flops == 2 * (10 * 24 * 16 + 7 * 40 * 16 + 7 * 40 * 16 + 10 * 16 * 24) + 2 * 2 * 10 * 7 * (8 + 8) + 3 * 2 * 10 * 7  # 2 heads


def test_attention_of_unknown_length_has_params_but_no_flops():
    found = apply("MultiHeadAttention", {"num_heads": 2, "key_dim": 8}, [(None, 16), (None, 16)])
    assert found.params == 4 * (16 * 16 + 16) and found.flops is None and found.shape == (None, 16)


@pytest.mark.parametrize("init", [
    {"num_heads": 2},  # key_dim missing
    {"num_heads": 2, "key_dim": 8, "attention_axes": [1]},
    {"num_heads": 2, "key_dim": 8, "use_gate": True},
])
def test_attention_not_modelled_is_unknown(init):
    assert apply("MultiHeadAttention", init, [(4, 8), (4, 8)]) is None
    assert apply("MultiHeadAttention", {"num_heads": 2, "key_dim": 8}, [(4, 8)]) is None  # no value


# -- Attention, AdditiveAttention --------------------------------------------------------------
def test_dot_product_attention():
    found = apply("Attention", {}, [(5, 8), (7, 8)])
    assert found.flops == 5 * 7 * (2 * 8 + 3) + 2 * 5 * 7 * 8  # Q·Kᵀ, softmax, A·V
    assert (found.params, found.shape) == (0, (5, 8))
    assert apply("Attention", {"use_scale": True, "score_mode": "concat"}, [(5, 8), (7, 8)]).params == 2


def test_additive_attention():
    found = apply("AdditiveAttention", {}, [(5, 8), (7, 8), (7, 8)])
    assert found.flops == 5 * 7 * (4 * 8 + 3) + 2 * 5 * 7 * 8  # Σ scale·tanh(q + k), softmax, A·V
    assert (found.params, found.shape) == (8, (5, 8))


# -- other layers ----------------------------------------------------------------------------
def test_prelu_has_one_alpha_per_element_unless_shared():
    found = apply("PReLU", {}, [(6, 5, 4)])
    assert (found.params, found.flops, found.shape) == (120, 4 * 120, (6, 5, 4))
    assert apply("PReLU", {"shared_axes": [1, 2]}, [(6, 5, 4)]).params == 4
    assert apply("PReLU", {"shared_axes": [4]}, [(6, 5, 4)]) is None


def test_group_normalization_masking_repeat_vector():
    assert apply("GroupNormalization", {"groups": 4}, [(6, 8)]) == ((6, 8), 16, 5 * 48)
    assert apply("GroupNormalization", {"groups": 3}, [(6, 8)]) is None  # 8 channels in 3 groups
    assert apply("Masking", {}, [(6, 8)]) == ((6, 8), 0, 3 * 48)
    assert apply("RepeatVector", {"n": 3}, [(8,)]) == ((3, 8), 0, 0)


# -- in models -------------------------------------------------------------------------------
#: The timed suite's transformer block (4-head self-attention on 32 tokens x 64, feed-forward 128).
TRANSFORMER_BLOCK = (Path(__file__).resolve().parents[2] / "bench/timed/scripts/attention_block.py").read_text()


def test_a_transformer_block_has_its_flops_per_sample():
    fit = work_of(TRANSFORMER_BLOCK, "tensorflow.keras.Model.fit")
    mha = 1_323_008
    norms = 2 * 5 * 32 * 64
    adds = 2 * 32 * 64  # the two residual additions
    dense = 2 * 32 * 64 * 128 + 32 * 128 + 2 * 32 * 128 * 64 + 2 * 64 + 1  # activations: 1 per output
    pooling = 32 * 64
    assert fit["flops_per_sample"].value == mha + norms + adds + dense + pooling
    assert fit["flops_per_sample"].bound is None and fit["flops_per_sample"].note is None
    assert fit["params"].value == 33537  # Keras's model.count_params()


def test_the_attention_call_site_shows_each_input():
    call = work_of(TRANSFORMER_BLOCK, "tensorflow.keras.layers.MultiHeadAttention.__call__")
    assert call["input_shape"].value == [[32, 64], [32, 64]]
    assert call["flops_per_sample"].value == 1_323_008


def test_keyword_query_value_and_a_list_for_attention():
    code = """
    q = tf.keras.Input(shape=(5, 8))
    v = tf.keras.Input(shape=(7, 8))
    a = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)(query=q, value=v)
    b = tf.keras.layers.Attention()([q, v])
    model = tf.keras.Model([q, v], tf.keras.layers.Concatenate()([a, b]))
    """
    model = work_of(code, "tensorflow.keras.Model")
    mha = apply("MultiHeadAttention", {"num_heads": 2, "key_dim": 4}, [(5, 8), (7, 8)])
    dot = apply("Attention", {}, [(5, 8), (7, 8)])
    assert model["flops_per_sample"].value == mha.flops + dot.flops
    assert model["params"].value == mha.params


def test_adding_a_symbolic_tensor_of_another_shape_loses_the_shape():
    code = """
    a = tf.keras.Input(shape=(4, 8))
    b = tf.keras.layers.Dense(3)(a)
    model = tf.keras.Model(a, tf.keras.layers.Dense(1)(a + b))
    """
    model = work_of(code, "tensorflow.keras.Model")
    assert model["flops_per_sample"].bound == "lower" and "Dense" in model["flops_per_sample"].note


@pytest.mark.slow
def test_parameter_counts_match_keras():
    keras = pytest.importorskip("keras")
    cases = [
        ("MultiHeadAttention", {"num_heads": 3, "key_dim": 5, "value_dim": 6, "output_shape": 9}, [(10, 24), (7, 40), (7, 12)]),
        ("MultiHeadAttention", {"num_heads": 2, "key_dim": 8, "use_bias": False}, [(10, 24), (7, 40)]),
        ("AdditiveAttention", {}, [(5, 8), (7, 8)]),
        ("Attention", {"use_scale": True, "score_mode": "concat"}, [(5, 8), (7, 8)]),
        ("PReLU", {"shared_axes": [1, 2]}, [(6, 5, 4)]),
        ("GroupNormalization", {"groups": 4}, [(6, 8)]),
        ("RepeatVector", {"n": 3}, [(8,)]),
        # layers the table had before, checked alike
        ("Conv2DTranspose", {"filters": 8, "kernel_size": 3, "strides": 2}, [(7, 7, 4)]),
        ("Conv2DTranspose", {"filters": 8, "kernel_size": 3, "strides": 2, "padding": "same"}, [(7, 7, 4)]),
        ("SeparableConv2D", {"filters": 8, "kernel_size": 3, "depth_multiplier": 2}, [(9, 9, 4)]),
        ("DepthwiseConv2D", {"kernel_size": 3, "strides": 2, "padding": "same"}, [(9, 9, 4)]),
        ("Conv1D", {"filters": 5, "kernel_size": 3, "padding": "causal", "dilation_rate": 2}, [(20, 4)]),
        ("Conv3D", {"filters": 5, "kernel_size": 3}, [(6, 6, 6, 2)]),
        ("Conv2D", {"filters": 8, "kernel_size": 3, "groups": 2}, [(9, 9, 4)]),
        ("UpSampling2D", {"size": 3}, [(4, 4, 2)]),
        ("GlobalAveragePooling2D", {"keepdims": True}, [(4, 4, 2)]),
        ("ZeroPadding2D", {"padding": ((0, 1), (2, 3))}, [(4, 4, 2)]),
        ("ZeroPadding2D", {"padding": (1, 2)}, [(4, 4, 2)]),
        ("Cropping2D", {"cropping": ((1, 0), (2, 1))}, [(6, 6, 2)]),
    ]  # fmt: skip
    for name, init, shapes in cases:
        layer = getattr(keras.layers, name)(**init)
        inputs = [keras.Input(s) for s in shapes]
        if name == "MultiHeadAttention":
            out = layer(*inputs)
        else:
            out = layer(inputs if len(inputs) > 1 else inputs[0])
        found = apply(name, _lists(init), shapes)
        assert (found.params, found.shape) == (layer.count_params(), tuple(out.shape[1:])), name


def _lists(value):
    """Literal arguments as the analysis reads them: tuples become lists."""
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    return [_lists(v) for v in value] if isinstance(value, (tuple, list)) else value


def test_padding_and_cropping_by_side():
    assert apply("ZeroPadding2D", {"padding": [[0, 1], [0, 1]]}, [(7, 7, 64)]).shape == (8, 8, 64)
    assert apply("Cropping2D", {"cropping": [[1, 1], [2, 2]]}, [(7, 7, 64)]).shape == (5, 3, 64)
    assert apply("Cropping2D", {"cropping": 4}, [(7, 7, 64)]) is None  # nothing left: not a shape


def test_functional_merge_helpers_and_keras_1_model_keywords_keep_the_graph():
    """`concatenate([a, b], axis=3)` is the Concatenate layer called at once, and `Model(input=,
    output=)` (Keras 1's keywords, which Keras 2 accepted) the same model as `Model(inputs, outputs)`:
    a U-Net written so has the FLOPs of one written with layer classes."""
    helpers = """
    inputs = tf.keras.Input((16, 16, 1))
    c1 = tf.keras.layers.Conv2D(8, 3, padding="same")(inputs)
    u1 = tf.keras.layers.UpSampling2D()(tf.keras.layers.MaxPooling2D()(c1))
    merged = tf.keras.layers.concatenate([c1, u1], axis=3)
    summed = tf.keras.layers.add([c1, u1])
    out = tf.keras.layers.Conv2D(1, 1)(tf.keras.layers.concatenate([merged, summed]))
    model = tf.keras.Model(input=inputs, output=out)
    """
    classes = helpers.replace("tf.keras.layers.concatenate([c1, u1], axis=3)", "tf.keras.layers.Concatenate(axis=3)([c1, u1])")
    classes = classes.replace("tf.keras.layers.add([c1, u1])", "tf.keras.layers.Add()([c1, u1])")
    classes = classes.replace("tf.keras.layers.concatenate([merged, summed])", "tf.keras.layers.Concatenate()([merged, summed])")
    classes = classes.replace("Model(input=inputs, output=out)", "Model(inputs, out)")
    found, expected = work_of(helpers, "tensorflow.keras.Model"), work_of(classes, "tensorflow.keras.Model")
    assert found["flops_per_sample"] == expected["flops_per_sample"] and found["flops_per_sample"].bound is None
    conv = 2 * 9 * 8 * 16 * 16 + 2 * 24 * 16 * 16  # the two convolutions (8 -> 24 channels joined)
    assert found["flops_per_sample"].value >= conv
    merge = work_of(helpers, "tensorflow.keras.layers.concatenate")
    assert merge["symbolic"].value is True and merge["flops_per_sample"].value == 0


def test_a_matrix_product_of_symbolic_tensors_is_not_elementwise():
    code = """
    a = tf.keras.Input(shape=(4, 4))
    model = tf.keras.Model(a, tf.keras.layers.Dense(2)(a @ a))
    """
    model = work_of(code, "tensorflow.keras.Model")
    # 2·m·k·n for each sample's (4, 4) @ (4, 4), not 16 elementwise FLOPs; then the Dense on (4, 4)
    assert model["flops_per_sample"].value == 2 * 4 * 4 * 4 + 2 * 4 * 2 * 4


def test_eager_calls_of_layers_of_several_inputs():
    code = """
    x = np.zeros((8, 32, 64))
    y = np.zeros((8, 10, 64))
    tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)(x, y)
    tf.keras.layers.Add()([x, x])
    """
    mha = work_of(code, "tensorflow.keras.layers.MultiHeadAttention.__call__")
    found = apply("MultiHeadAttention", {"num_heads": 4, "key_dim": 16}, [(32, 64), (10, 64)])
    assert mha["input_shape"].value == [[8, 32, 64], [8, 10, 64]]
    assert mha["flops"].value == 8 * found.flops
    assert work_of(code, "tensorflow.keras.layers.Add.__call__")["flops"].value == 8 * 32 * 64


def test_a_model_whose_outputs_are_reassigned_is_no_longer_the_whole_network():
    """SRGAN's perceptual loss: `vgg.outputs = [vgg.layers[9].output]` cuts VGG19 to its first blocks.
    The whole application's 143M parameters would be counted for a tenth of them: from the assignment
    on, the model is that cut (VGG19's layers are tabled: its seven first convolutions), or of unknown
    size where its outputs are set to anything else (a lower bound where it is part of a bigger graph)."""
    code = """
    vgg = tf.keras.applications.VGG19(weights="imagenet")
    whole = vgg.predict(np.zeros((4, 224, 224, 3)))
    vgg.outputs = [vgg.layers[9].output]
    cut = vgg.predict(np.zeros((4, 224, 224, 3)))
    vgg.outputs = [tf.keras.layers.Dense(8)(vgg.layers[9].output)]
    other = vgg.predict(np.zeros((4, 224, 224, 3)))
    """
    before, after, other = [s.work for s in sites(code) if s.api == "tensorflow.keras.Model.predict"]
    assert before["params"].value == 143_667_240
    assert after["params"].value == (3 * 64 + 64 * 64 + 64 * 128 + 128 * 128 + 128 * 256 + 2 * 256 * 256) * 9 + 1152  # (and biases)
    assert after["flops_per_sample"].value < before["flops_per_sample"].value / 2
    assert "params" not in other or other["params"].value is None
    assert other["flops_per_sample"].value is None


def test_a_normalisation_layer_of_another_library_keeps_its_input_shape():
    """CycleGAN's discriminator: keras-contrib's InstanceNormalization between convolutions. A
    normalisation keeps its input's shape and reads each element a few times, so the convolution
    after it is sized and the model's FLOPs are whole (they were a lower bound, and its step unpriced)."""
    code = """
    from keras_contrib.layers import InstanceNormalization

    def build_discriminator():
        img = tf.keras.Input(shape=(128, 128, 3))
        d = tf.keras.layers.Conv2D(64, kernel_size=4, strides=2, padding="same")(img)
        d = InstanceNormalization()(d)
        return tf.keras.Model(img, tf.keras.layers.Conv2D(1, kernel_size=4, padding="same")(d))

    d_a = build_discriminator()
    d_a.train_on_batch(np.zeros((1, 128, 128, 3)), np.zeros((1, 64, 64, 1)))
    """
    work = work_of(code, "tensorflow.keras.Model.train_on_batch")
    first, norm, last = 2 * 64 * 64 * 48 * 64, 5 * 64 * 64 * 64, 2 * 64 * 64 * (4 * 4 * 64) * 1
    assert work["flops_per_sample"].value == first + norm + last
    assert work["flops_per_sample"].bound is None
    assert work["params"].value == (48 * 64 + 64) + 2 + (16 * 64 + 1)  # axis None: one scale, one offset
    per_channel = work_of(code.replace("InstanceNormalization()", "InstanceNormalization(axis=-1)"),
                          "tensorflow.keras.Model.train_on_batch")
    assert per_channel["params"].value == (48 * 64 + 64) + 2 * 64 + (16 * 64 + 1)


def test_a_layer_of_another_library_leaves_the_known_layers_as_a_lower_bound():
    """A layer greenlint cannot size (a normalisation wrapping another layer, whose output is that
    layer's; one given an axis that is not a literal; any other layer of another library): its
    output shape is unknown, so the convolution after it is unknown too, never guessed, and the
    model's FLOPs are the layers before it, marked a lower bound."""
    code = """
    from tensorflow_addons.layers import SpectralNormalization, InstanceNormalization
    from keras_contrib.layers import SubPixelUpscaling

    img = tf.keras.Input(shape=(128, 128, 3))
    d = tf.keras.layers.Conv2D(64, kernel_size=4, strides=2, padding="same")(img)
    d = LAYER
    model = tf.keras.Model(img, tf.keras.layers.Conv2D(1, kernel_size=4, padding="same")(d))
    model.train_on_batch(np.zeros((1, 128, 128, 3)), np.zeros((1, 64, 64, 1)))
    """
    for layer, label in [
        ("SpectralNormalization(tf.keras.layers.Conv2D(8, 3))(d)", "SpectralNormalization"),
        ("InstanceNormalization(axis=AXIS)(d)", "InstanceNormalization"),
        ("SubPixelUpscaling(scale_factor=2)(d)", "SubPixelUpscaling"),
    ]:
        flops = work_of(code.replace("LAYER", layer), "tensorflow.keras.Model.train_on_batch")["flops_per_sample"]
        assert flops.value == 2 * 64 * 64 * (4 * 4 * 3) * 64, layer  # the first convolution alone
        assert flops.bound == "lower"
        assert label in flops.note and "Conv2D" in flops.note


MERGED = """
    from keras.layers.merge import _Merge
    from keras import backend as K

    class RandomWeightedAverage(_Merge):
        def _merge_function(self, inputs):
            alpha = K.random_uniform((32, 1))
            return alpha * inputs[0] + (1 - alpha) * inputs[1]

    real = tf.keras.Input(shape=(8,))
    noise = tf.keras.Input(shape=(4,))
    fake = tf.keras.layers.Dense(8)(noise)
    mixed = RandomWeightedAverage()([real, fake])
    critic = tf.keras.Model([real, noise], tf.keras.layers.Dense(1)(mixed))
    critic.train_on_batch([np.zeros((32, 8)), np.zeros((32, 4))], np.zeros((32, 1)))
    """


def test_a_project_layer_on_keras_merge_base_adds_its_merge_function():
    """WGAN-GP's critic model: `RandomWeightedAverage(_Merge)`, a class of the project on Keras' private
    merge base, whose `call` runs the subclass's `_merge_function` on the inputs: that function is
    walked on the two symbolic tensors (its three element-wise operations on 8 elements each), so
    the model's FLOPs are known, not a lower bound."""
    flops = work_of(MERGED, "tensorflow.keras.Model.train_on_batch")["flops_per_sample"]
    assert flops.value == 2 * 4 * 8 + 3 * 8 + 2 * 8 * 1  # the Dense on the noise, the merge, the last Dense
    assert flops.bound is None


def test_a_project_layer_on_an_unknown_base_leaves_the_known_layers_as_a_lower_bound():
    """The same layer on a base of a library greenlint does not know: its output's shape is unknown, the
    model built on it seen, its known layers a lower bound."""
    code = MERGED.replace("from keras.layers.merge import _Merge", "from mixers.layers import Mixer").replace(
        "(_Merge)", "(Mixer)"
    )
    flops = work_of(code, "tensorflow.keras.Model.train_on_batch")["flops_per_sample"]
    assert flops.value == 2 * 4 * 8  # the Dense on the noise alone
    assert flops.bound == "lower" and "RandomWeightedAverage" in flops.note


def test_layers_on_free_image_sides_have_their_parameters_and_shape_but_no_flops():
    """`Input(shape=(None, None, 3))`: any image size. A layer's parameters and channels do not depend on
    it, its FLOPs do (unknown, never a size assumed); a known side stays known."""
    free = (None, None, 16)
    conv = apply("Conv2D", {"filters": 8, "kernel_size": 3, "strides": 2}, [free])
    assert conv == (free[:2] + (8,), 9 * 16 * 8 + 8, None)
    assert apply("Conv2D", {"filters": 8, "kernel_size": 3}, [(None, 32, 16)]).shape == (None, 30, 8)
    assert apply("MaxPooling2D", {}, [free]) == (free, 0, None)
    assert apply("ZeroPadding2D", {"padding": [[1, 0], [1, 0]]}, [(None, 32, 16)]).shape == (None, 33, 16)
    assert apply("UpSampling2D", {"size": 2}, [free]).shape == free
    assert apply("BatchNormalization", {}, [free]) == (free, 64, None)
    assert apply("Concatenate", {}, [free, (None, None, 4)]) == ((None, None, 20), 0, 0)
    assert apply("Add", {}, [free, free]) == (free, 0, None)
    assert apply("Add", {}, [free, (None, None, 8)]) is None  # channels that differ: not one shape
    assert apply("Concatenate", {"axis": 1}, [free, free]) is None  # along a free side: unknown
    # Keras counts the batch axis: `axis=3` of 4-D tensors joins the channels (U-Net's skip connections)
    assert apply("Concatenate", {"axis": 3}, [(16, 16, 8), (16, 16, 8)]).shape == (16, 16, 16)
    assert apply("Concatenate", {"axis": 1}, [(4, 16, 8), (6, 16, 8)]).shape == (10, 16, 8)
    assert apply("Concatenate", {"axis": 0}, [(16, 16, 8), (16, 16, 8)]) is None  # the batch axis: not per sample
    # one value a sample (outputs of `Dense(1)` squeezed, shape `(None,)`): added once a sample, joined nowhere
    assert apply("Add", {}, [(), (), ()]) == ((), 0, 2)
    assert apply("Concatenate", {}, [(), ()]) is None


def test_options_not_known_leave_the_sides_free_where_they_move_the_sides_alone():
    """`Conv2D(8, 3, strides=s)` with s not known: its parameters and channels, not its sides or FLOPs;
    an option that changes its parameters (`use_bias`) leaves it unknown, never its default's."""
    init = {"filters": 8, "kernel_size": 3}
    assert unread_work("Conv2D", init, [(16, 16, 3)], ("strides", "padding")) == ((None, None, 8), 27 * 8 + 8, None)
    assert unread_work("MaxPooling2D", {}, [(16, 16, 3)], ("pool_size",)) == ((None, None, 3), 0, None)
    assert unread_work("Conv2D", init, [(16, 16, 3)], ("use_bias",)) is None
    causal = {"filters": 8, "kernel_size": 2, "padding": "causal"}  # a dilation moves no side of a padded output
    assert unread_work("Conv1D", causal, [(50, 3)], ("dilation_rate",)) == ((50, 8), 2 * 3 * 8 + 8, 2 * 2 * 3 * 8 * 50)
    assert unread_work("Conv1D", {**causal, "padding": "valid"}, [(50, 3)], ("dilation_rate",)).shape == (None, 8)
    assert unread_work("Conv2D", init, [(16, 16, 3)], ("padding", "use_bias")) is None


def test_a_layer_built_differently_on_two_paths_has_only_what_both_share():
    """`if ...: Conv2D(64, 3, padding="same") else: Conv2D(64, 3)`: either runs. Its parameters and channels
    are both paths', its sides and FLOPs not known (never the first path's); the same layer on both paths
    keeps its FLOPs, and layers that differ in what sets their parameters are unknown."""
    code = """
    import sys
    inp = tf.keras.Input((64, 64, 3))
    if len(sys.argv) > 1:
        conv = tf.keras.layers.Conv2D(64, 3, padding="same")
        dense = tf.keras.layers.Dense(10)
        same = tf.keras.layers.Conv2D(8, 3)
    else:
        conv = tf.keras.layers.Conv2D(64, 3)
        dense = tf.keras.layers.Dense(20)
        same = tf.keras.layers.Conv2D(8, 3)
    x = conv(inp)
    y = dense(tf.keras.layers.Flatten()(inp))
    z = same(inp)
    """
    conv, dense, _flatten, same = [s.work for s in sites(code) if s.api.endswith("__call__")]
    assert conv["params"].value == 27 * 64 + 64 and conv["flops_per_sample"].value is None
    assert dense["params"].value is None and dense["flops_per_sample"].value is None
    assert same["flops_per_sample"].value == 2 * 27 * 8 * 62 * 62


def test_layers_named_or_initialised_differently_on_two_paths_keep_their_work():
    code = """
    import sys
    inp = tf.keras.Input((16,))
    if len(sys.argv) > 1:
        dense = tf.keras.layers.Dense(10, name="a", kernel_initializer="zeros")
    else:
        dense = tf.keras.layers.Dense(10, name="b")
    y = dense(inp)
    """
    (call,) = [s.work for s in sites(code) if s.api.endswith("__call__")]
    assert call["params"].value == 16 * 10 + 10 and call["flops_per_sample"].value == 2 * 16 * 10


@pytest.mark.parametrize("given", [0, 1])
def test_an_option_not_known_on_one_path_is_not_known_after_the_paths(given):
    """`if ...: Conv2D(8, 3, padding=pad) else: Conv2D(8, 3)`, either path first: the padding is not known
    after them (a join that found the other options alike kept the default's FLOPs)."""
    built = ["tf.keras.layers.Conv2D(8, 3, padding=pad)", "tf.keras.layers.Conv2D(8, 3)"]
    code = f"""
    import sys
    pad = sys.argv[1]
    inp = tf.keras.Input((64, 64, 3))
    if len(sys.argv) > 2:
        conv = {built[given]}
    else:
        conv = {built[1 - given]}
    x = conv(inp)
    """
    (conv,) = [s.work for s in sites(code) if s.api.endswith("__call__")]
    assert conv["params"].value == 27 * 8 + 8 and conv["flops_per_sample"].value is None


@pytest.mark.parametrize("given", [0, 1])
def test_a_layer_given_no_option_on_one_path_shares_only_its_defaults_it_keeps(given):
    """`if ...: MaxPooling2D() else: MaxPooling2D(4)`, either path first: the pool size is not known
    after them, nor the sides of what follows (was: the first path's, exact)."""
    built = ["tf.keras.layers.MaxPooling2D()", "tf.keras.layers.MaxPooling2D(4)"]
    code = f"""
    import sys
    inp = tf.keras.Input((64, 64, 3))
    if len(sys.argv) > 2:
        pool = {built[given]}
    else:
        pool = {built[1 - given]}
    x = tf.keras.layers.Conv2D(8, 3)(pool(inp))
    """
    _pool, conv = [s.work for s in sites(code) if s.api.endswith("__call__")]
    assert conv["flops_per_sample"].value is None


def test_a_layer_placed_on_a_free_side_takes_its_flops_from_the_data_placing_it_later():
    code = """
    x = np.zeros((100, 50, 1))
    rate = np.random.choice([1, 2])
    model = tf.keras.Sequential([
        tf.keras.layers.Conv1D(20, 4, strides=2, input_shape=[None, 1]),
        tf.keras.layers.Conv1D(20, 2, padding="causal", dilation_rate=rate),
    ])
    model.fit(x, x, epochs=1)
    """
    conv, dilated = [s.work for s in sites(code) if s.api == "tensorflow.keras.layers.Conv1D"]
    assert conv["flops_per_sample"].value == 2 * 4 * 1 * 20 * 24  # 50 steps, stride 2: 24 positions
    # its dilation not known: as any dilation's, padded to the input's 24 positions
    assert dilated["params"].value == 2 * 20 * 20 + 20
    assert dilated["flops_per_sample"].value == 2 * 2 * 20 * 20 * 24


# -- channels first ------------------------------------------------------------------------
@pytest.mark.parametrize("name, init", [
    ("Conv2D", {"filters": 16, "kernel_size": 3, "strides": 2, "padding": "same"}),
    ("Conv2DTranspose", {"filters": 8, "kernel_size": 4, "strides": 2, "padding": "same"}),
    ("MaxPooling2D", {"pool_size": 2}),
    ("GlobalAveragePooling2D", {}),
    ("UpSampling2D", {"size": 2}),
])
def test_a_channels_first_layer_does_the_work_of_its_channels_last_twin(name, init):
    """`data_format="channels_first"` (NCHW): the same convolution on the same image, so the same FLOPs and
    weights; the output's channels first too, not the sides read as channels."""
    last = apply(name, init, [(32, 24, 3)])
    first = apply(name, {**init, "data_format": "channels_first"}, [(3, 32, 24)])
    assert last is not None and first is not None
    assert (first.flops, first.params) == (last.flops, last.params)
    assert first.shape == (last.shape if len(last.shape) == 1 else (last.shape[-1], *last.shape[:-1]))

