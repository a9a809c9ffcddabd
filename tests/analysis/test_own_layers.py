"""Layers of the project on a functional graph (`class TransformerBlock(layers.Layer)`): calling one on
symbolic tensors walks its `call` with them, so that the layers its `__init__` built add their work;
Keras' preprocessing layers (`Rescaling`, `RandomFlip`) pass the graph on as any layer does; and
`tf.shape(x)` of a symbolic tensor is its shape, so that a position embedding's length is known."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file, analyse_source


def fit_work(code: str) -> dict:
    result = analyse_source(textwrap.dedent(code), "model.py")
    assert result.errors == []
    site = next(s for s in result.callsites if s.api.endswith(".fit"))
    return {k: v for k, v in site.work.items()}


BLOCK = """
    import numpy as np
    import tensorflow as tf
    from tensorflow import keras
    from tensorflow.keras import layers


    class Block(layers.Layer):
        def __init__(self, units):
            super().__init__()
            self.inner = layers.Dense(units)
            self.norm = layers.LayerNormalization()

        def call(self, inputs):
            return self.norm(self.inner(inputs) + inputs)


    inputs = keras.Input(shape=(50, 16))
    x = inputs
    for _ in range({blocks}):
        x = Block(16)(x)
    x = layers.GlobalAveragePooling1D()(x)
    model = keras.Model(inputs, layers.Dense(1)(x))
    model.fit(np.zeros((100, 50, 16)), np.zeros(100), epochs=1)
"""
#: FLOPs of Block(16) on (50, 16): its Dense, the residual add, its LayerNormalization (5 per element).
BLOCK_FLOPS = 2 * 16 * 16 * 50 + 50 * 16 + 5 * 50 * 16


def test_a_layer_of_the_project_adds_the_layers_its_call_applies():
    work = fit_work(BLOCK.format(blocks=1))
    assert work["flops_per_sample"].value == BLOCK_FLOPS + 50 * 16 + 2 * 16
    assert work["flops_per_sample"].bound is None
    assert work["params"].value == (16 * 16 + 16) + 2 * 16 + 17


def test_each_call_of_a_layer_of_the_project_adds_its_own_work():
    once = fit_work(BLOCK.format(blocks=1))["flops_per_sample"].value
    thrice = fit_work(BLOCK.format(blocks=3))["flops_per_sample"].value
    assert thrice - once == 2 * BLOCK_FLOPS


def test_a_layer_whose_call_does_what_greenlint_cannot_count_leaves_a_lower_bound():
    code = BLOCK.replace("return self.norm(self.inner(inputs) + inputs)",
                         "return self.norm(tf.signal.fft(self.inner(inputs)))")
    work = fit_work(code.format(blocks=1))
    assert work["flops_per_sample"].bound == "lower"
    assert "fft" in work["flops_per_sample"].note


def test_a_layer_of_the_project_without_a_call_of_its_own_stays_unknown():
    code = BLOCK.replace("def call(self, inputs):", "def apply(self, inputs):")
    flops = fit_work(code.format(blocks=1))["flops_per_sample"]
    assert flops.value is None or flops.bound == "lower" and flops.value < BLOCK_FLOPS


POSITIONS = """
    import numpy as np
    import tensorflow as tf
    from tensorflow import keras
    from tensorflow.keras import layers


    class TokensAndPlaces(layers.Layer):
        def __init__(self, length, vocab, dim):
            super().__init__()
            self.tokens = layers.Embedding(input_dim=vocab, output_dim=dim)
            self.places = layers.Embedding(input_dim=length, output_dim=dim)

        def call(self, x):
            {places}
            return self.tokens(x) + places


    inputs = keras.Input(shape=(40,))
    x = TokensAndPlaces(40, 1000, 16)(inputs)
    x = layers.MultiHeadAttention(num_heads=2, key_dim=16)(x, x)
    x = layers.GlobalAveragePooling1D()(x)
    model = keras.Model(inputs, layers.Dense(1)(x))
    model.fit(np.zeros((100, 40)), np.zeros(100), epochs=1)
"""
#: MultiHeadAttention(2 heads, key_dim 16) on 40 tokens of 16: projections, scores and weighted sum, softmax.
ATTENTION_FLOPS = 2 * 40 * (3 * 16 * 32 + 32 * 16) + 2 * 2 * (2 * 40 * 40 * 16) + 3 * 2 * 40 * 40


def test_a_position_embedding_of_the_inputs_length_keeps_the_graphs_shape():
    for places in ("places = self.places(tf.range(start=0, limit=tf.shape(x)[-1], delta=1))",
                   "places = self.places(keras.ops.arange(start=0, stop=keras.ops.shape(x)[-1], step=1))"):
        work = fit_work(POSITIONS.format(places=places))
        assert work["flops_per_sample"].bound is None, places
        assert work["flops_per_sample"].value >= ATTENTION_FLOPS
        assert work["params"].value >= 1000 * 16 + 4 * 16 * 32 + 3 * 32 + 16 + 17


def test_a_position_embedding_added_in_place_keeps_the_graphs_shape():
    code = POSITIONS.replace("return self.tokens(x) + places", "x = self.tokens(x)\n            x += places\n            return x")
    work = fit_work(code.format(places="places = self.places(tf.range(start=0, limit=tf.shape(x)[-1], delta=1))"))
    assert work["flops_per_sample"].bound is None
    assert work["flops_per_sample"].value >= ATTENTION_FLOPS


def test_an_addend_of_unknown_shape_is_taken_to_broadcast_but_leaves_a_lower_bound():
    work = fit_work(POSITIONS.format(places="places = self.places(tf.range(start=0, limit=self.length, delta=1))"))
    assert work["flops_per_sample"].bound == "lower"
    assert "add" in work["flops_per_sample"].note
    assert work["flops_per_sample"].value >= ATTENTION_FLOPS


def test_a_preprocessing_layer_passes_the_graph_on():
    work = fit_work("""
        import numpy as np
        from tensorflow import keras
        from tensorflow.keras import layers

        inputs = keras.Input(shape=(32, 32, 3))
        x = layers.Rescaling(1.0 / 255)(inputs)
        x = layers.RandomFlip("horizontal")(x)
        x = layers.RandomCrop(16, 16)(x)
        x = layers.Conv2D(8, 3, padding="same")(x)
        x = layers.GlobalAveragePooling2D()(x)
        model = keras.Model(inputs, layers.Dense(1)(x))
        model.fit(np.zeros((100, 32, 32, 3)), np.zeros(100), epochs=1)
        """)
    assert work["flops_per_sample"].bound is None
    assert 2 * 9 * 3 * 8 * 16 * 16 <= work["flops_per_sample"].value < 2 * 9 * 3 * 8 * 32 * 32  # on the crop


ATTENTION = """
    import numpy as np
    import tensorflow as tf
    from tensorflow import keras
    from tensorflow.keras import layers


    class SelfAttention(layers.Layer):
        def __init__(self, dim, heads):
            super(SelfAttention, self).__init__()
            self.dim, self.heads, self.depth = dim, heads, dim // heads
            self.query = layers.Dense(dim)
            self.key = layers.Dense(dim)
            self.out = layers.Dense(dim)

        def split(self, x, batch):
            x = tf.reshape(x, (batch, -1, self.heads, self.depth))
            return tf.transpose(x, perm=[0, 2, 1, 3])

        def call(self, x):
            batch = tf.shape(x)[0]
            q, k = self.split(self.query(x), batch), self.split(self.key(x), batch)
            scores = tf.nn.softmax({scores}, axis=-1)
            mixed = tf.transpose(tf.matmul(scores, q), perm={perm})
            return self.out(tf.reshape(mixed, (batch, -1, self.dim)))


    inputs = keras.Input(shape=(10, 8))
    x = SelfAttention(8, 2)(inputs)
    x = layers.GlobalAveragePooling1D()(x)
    model = keras.Model(inputs, layers.Dense(1)(x))
    model.fit(np.zeros((100, 10, 8)), np.zeros(100), epochs=1)
"""
#: Its projections (3 Dense(8) on 10 tokens), the heads' scores and weighted sums (2 heads, 10 x 10, depth 4).
HEADS_FLOPS = 3 * 2 * 8 * 8 * 10 + 2 * (2 * 2 * 10 * 10 * 4)


def test_heads_split_by_reshape_and_transpose_keep_their_shapes_through_the_matmuls():
    flops = fit_work(ATTENTION.format(scores="tf.matmul(q, k, transpose_b=True)", perm="[0, 2, 1, 3]"))["flops_per_sample"]
    assert flops.bound is None
    assert flops.value >= HEADS_FLOPS


def test_a_transpose_that_moves_the_batch_axis_leaves_the_shape_unknown():
    flops = fit_work(ATTENTION.format(scores="tf.matmul(q, k, transpose_b=True)", perm="[1, 0, 2, 3]"))["flops_per_sample"]
    assert flops.bound == "lower"
    assert flops.value < HEADS_FLOPS


def test_a_mask_of_unknown_shape_keeps_the_shape_but_leaves_a_lower_bound():
    scores = "tf.matmul(q, k, transpose_b=True) * tf.random.uniform(self.mask_shape)"
    flops = fit_work(ATTENTION.format(scores=scores, perm="[0, 2, 1, 3]"))["flops_per_sample"]
    assert flops.bound == "lower"
    assert flops.value >= HEADS_FLOPS


STACK = """
    import numpy as np
    from tensorflow import keras
    from tensorflow.keras import layers


    class Stack(layers.Layer):
        def __init__(self, widths, depth):
            super().__init__()
            self.stack = keras.Sequential()
            for i in range(depth):
                self.stack.add(layers.Dense(widths[i]))

        def call(self, x):
            return self.stack(x)


    inputs = keras.Input(shape=(16,))
    model = keras.Model(inputs, Stack([32, 8], {depth})(inputs))
    model.fit(np.zeros((100, 16)), np.zeros(100), epochs=1)
"""


def test_a_model_an_init_builds_layer_by_layer_on_self_has_each_trips_layer():
    flops = fit_work(STACK.format(depth=2))["flops_per_sample"]
    assert flops.bound is None
    assert flops.value == 2 * 16 * 32 + 2 * 32 * 8


def test_a_model_built_on_self_by_a_loop_of_unknown_trips_is_not_priced_whole():
    flops = fit_work(STACK.format(depth="len(np.load('widths.npy'))"))["flops_per_sample"]
    assert flops.value is None or flops.bound == "lower"


CONSTRUCTED = """
    import numpy as np
    from tensorflow import keras
    from tensorflow.keras import layers


    class Block(layers.Layer):
        def __init__(self, filters):
            super().__init__()
            self.conv = layers.Conv2D(filters, 3, padding="same")

        def call(self, inputs):
            return self.conv(inputs)


    inputs = keras.Input(shape=(8, 8, 4))
    x = Block(16)(inputs)
    x = Block({second})(x)
    x = layers.GlobalAveragePooling2D()(x)
    model = keras.Model(inputs, layers.Dense(1)(x))
    model.fit(np.zeros((100, 8, 8, 4)), np.zeros(100), epochs=1)
"""


def conv_flops(cin: int, cout: int) -> int:
    """A 3x3 'same' Conv2D on 8x8: its multiply-adds."""
    return 2 * 3 * 3 * cin * cout * 64


def test_each_construction_of_a_layer_of_the_project_builds_its_own_sizes():
    work = fit_work(CONSTRUCTED.format(second=32))
    head = 64 * 32 + 2 * 32
    assert work["flops_per_sample"].value == conv_flops(4, 16) + conv_flops(16, 32) + head
    assert work["flops_per_sample"].bound is None
    assert work["params"].value == (3 * 3 * 4 * 16 + 16) + (3 * 3 * 16 * 32 + 32) + 33


def test_doubling_a_constructions_filters_doubles_its_conv_flops():
    narrow = fit_work(CONSTRUCTED.format(second=16))["flops_per_sample"].value
    wide = fit_work(CONSTRUCTED.format(second=32))["flops_per_sample"].value
    head = 64 + 2  # (the pooling and the Dense on one more channel each, per added channel)
    assert wide - narrow == conv_flops(16, 32) - conv_flops(16, 16) + 16 * head


def test_a_construction_of_unknown_argument_leaves_a_floor_of_the_known_blocks():
    work = fit_work(CONSTRUCTED.format(second="int(input())"))
    assert work["flops_per_sample"].bound == "lower"
    assert work["flops_per_sample"].value == conv_flops(4, 16)


def test_a_plain_class_whose_call_applies_layers_builds_each_constructions_sizes():
    plain = CONSTRUCTED.replace("class Block(layers.Layer):", "class Block:").replace(
        "super().__init__()\n", "").replace("def call(self", "def __call__(self")
    work = fit_work(plain.format(second=32))
    assert work["flops_per_sample"].value == conv_flops(4, 16) + conv_flops(16, 32) + 64 * 32 + 2 * 32
    assert work["flops_per_sample"].bound is None
    unknown = fit_work(plain.format(second="int(input())"))["flops_per_sample"]
    assert (unknown.value, unknown.bound) == (conv_flops(4, 16), "lower")


#: A Keras layer class of the project (its forward pass named *method*).
CONV_BLOCK = """
    import numpy as np
    from tensorflow import keras
    from tensorflow.keras import layers


    class ConvBlock(layers.Layer):
        def __init__(self, filters):
            super().__init__()
            self.conv = layers.Conv2D(filters, 3, padding="same")

        def {method}(self, inputs):
            return self.conv(inputs)
"""
STACKED = CONV_BLOCK + """

    model = keras.Sequential([{first}ConvBlock(16), ConvBlock({second}), layers.GlobalAveragePooling2D(), layers.Dense(1)])
    model.compile("adam", "mse")
    model.fit(np.zeros((100, 8, 8, 4)), np.zeros(100), epochs=1)
"""
DECLARED = "keras.Input(shape=(8, 8, 4)), "


def stacked(second: object = 32, first: str = DECLARED, method: str = "call") -> dict:
    return fit_work(STACKED.format(second=second, first=first, method=method))


def test_a_sequential_of_layers_of_the_project_adds_each_constructions_layers():
    work = stacked()
    assert work["flops_per_sample"].value == conv_flops(4, 16) + conv_flops(16, 32) + 64 * 32 + 2 * 32
    assert work["flops_per_sample"].bound is None
    assert work["params"].value == (3 * 3 * 4 * 16 + 16) + (3 * 3 * 16 * 32 + 32) + 33


def test_a_sequential_of_layers_of_the_project_follows_their_arguments():
    wide, narrow = stacked(32)["flops_per_sample"].value, stacked(16)["flops_per_sample"].value
    assert wide - narrow == conv_flops(16, 32) - conv_flops(16, 16) + 16 * (64 + 2)


def test_a_sequential_of_layers_of_the_project_declaring_no_input_is_built_on_the_datas_shape():
    assert stacked(first="")["flops_per_sample"].value == stacked()["flops_per_sample"].value
    code = STACKED.format(second=32, first="", method="call") + "    model.evaluate(np.zeros((10, 8, 8, 4)), np.zeros(10))\n"
    result = analyse_source(textwrap.dedent(code), "model.py")
    fit, evaluate = [s.work["flops_per_sample"] for s in result.callsites if s.api.endswith((".fit", ".evaluate"))]
    assert fit == evaluate and fit.value == stacked()["flops_per_sample"].value


def test_layers_of_the_project_added_one_by_one_add_their_work():
    code = STACKED.replace("ConvBlock({second}), layers.GlobalAveragePooling2D(), layers.Dense(1)]", "]").replace(
        'model.compile', "model.add(ConvBlock({second}))\n    model.add(layers.GlobalAveragePooling2D())\n"
                         "    model.add(layers.Dense(1))\n    model.compile")
    work = fit_work(code.format(first=DECLARED, second=32, method="call"))
    assert work["flops_per_sample"].value == stacked()["flops_per_sample"].value
    assert work["flops_per_sample"].bound is None


def test_a_sequential_of_a_layer_of_the_project_of_unknown_size_is_a_floor():
    flops = stacked("int(input())")["flops_per_sample"]
    assert (flops.value, flops.bound) == (conv_flops(4, 16), "lower")


def test_a_sequential_whose_layers_of_the_project_apply_nothing_known_is_unknown_not_zero():
    """No layer's size known (a project layer without a `call`, the input not declared): params and FLOPs
    unknown, the classes named, never a lower bound of 0."""
    work = stacked(first="", method="apply")
    assert work["flops_per_sample"].value is None and work["params"].value is None
    assert "ConvBlock" in work["flops_per_sample"].note and "?" not in work["flops_per_sample"].note


SUBCLASSED = """
    import numpy as np
    from tensorflow import keras
    from tensorflow.keras import layers


    class Generator(keras.Model):
        def __init__(self, filters):
            super().__init__()
            self.conv = layers.Conv2D(filters, 3, padding="same")
            self.pool = layers.GlobalAveragePooling2D()
            self.out = layers.Dense(1)

        def call(self, inputs):
            return self.out(self.pool(self.conv(inputs)))


    big = Generator(filters=64)
    small = Generator(filters={small})
    for model in (big, small):
        model.compile("adam", "mse")
    big.fit(np.zeros((100, 8, 8, 4)), np.zeros(100), epochs=1)
    small.fit(np.zeros((100, 8, 8, 4)), np.zeros(100), epochs=1)
"""


def fits(code: str) -> list[dict]:
    result = analyse_source(textwrap.dedent(code), "model.py")
    return [dict(s.work) for s in result.callsites if s.api.endswith(".fit")]


def test_each_construction_of_a_model_of_the_project_has_its_own_sizes():
    big, small = fits(SUBCLASSED.format(small=16))
    assert big["params"].value == 3 * 3 * 4 * 64 + 64 + 65
    assert small["params"].value == 3 * 3 * 4 * 16 + 16 + 17
    assert big["flops_per_sample"].value - small["flops_per_sample"].value == conv_flops(4, 64) - conv_flops(4, 16) \
        + 48 * (64 + 2)


def test_a_construction_of_a_model_of_the_project_of_unknown_argument_is_not_sized():
    big, small = fits(SUBCLASSED.format(small="int(input())"))
    assert big["params"].value == 3 * 3 * 4 * 64 + 64 + 65
    assert small["flops_per_sample"].value is None or small["flops_per_sample"].bound == "lower"


def test_a_model_class_of_another_module_is_sized_by_each_construction_here(tmp_path):
    """`Generator` defined in models.py, built twice in train.py: each fit gets the layers its construction's
    arguments build (its module's own walk knows neither); one whose argument is not known is not sized."""
    model, script = textwrap.dedent(SUBCLASSED).split("\n\n\nbig = ")
    (tmp_path / "models.py").write_text(model, encoding="utf-8")
    (tmp_path / "train.py").write_text("import numpy as np\nfrom models import Generator\n\nbig = " + script.format(
        small="int(input())").replace("filters=64", "64"), encoding="utf-8")
    result = analyse_file(tmp_path / "train.py")
    big, small = [dict(s.work) for s in result.callsites if s.api.endswith(".fit")]
    assert big["params"].value == 3 * 3 * 4 * 64 + 64 + 65 and big["params"].bound is None
    assert big["flops_per_sample"].value == conv_flops(4, 64) + 64 * 64 + 2 * 64
    assert small["flops_per_sample"].value is None or small["flops_per_sample"].bound == "lower"


BLOCKS = CONV_BLOCK + """

    class Net(keras.Model):
        def __init__(self, width):
            super().__init__()
            self.first = ConvBlock(16)
            self.second = ConvBlock(width)
            self.pool = layers.GlobalAveragePooling2D()
            self.out = layers.Dense(1)

        def call(self, x):
            return self.out(self.pool(self.second(self.first(x))))


    wide, narrow = Net(32), Net(16)
    for model in (wide, narrow):
        model.compile("adam", "mse")
    wide.fit(np.zeros((100, 8, 8, 4)), np.zeros(100), epochs=1)
    narrow.fit(np.zeros((100, 8, 8, 4)), np.zeros(100), epochs=1)
"""


def test_a_model_of_the_project_built_of_its_layers_adds_their_work_per_construction():
    wide, narrow = fits(BLOCKS.format(method="call"))
    assert wide["params"].value == stacked(32)["params"].value and wide["params"].bound is None
    assert narrow["flops_per_sample"].value == stacked(16)["flops_per_sample"].value
    assert "order __init__ creates them" in wide["flops_per_sample"].note


def test_a_model_of_the_project_built_of_its_layers_whose_work_is_not_known_is_not_a_point():
    """Its head alone (pooling and Dense on the input's 4 channels) was once its whole figure, as a point."""
    wide, _ = fits(BLOCKS.format(method="apply"))
    assert wide["params"].value is None or wide["params"].bound == "lower"
    assert "ConvBlock" in wide["params"].note
