"""Static features per call site: literal arguments by parameter name, tensor sizes, context."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

HEADER = "import tensorflow as tf\nfrom tensorflow import keras\n"


def calls(code: str) -> dict[str, dict]:
    """api -> features of the last call to it in *code* (after the import header)."""
    result = analyse_source(HEADER + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    return {site.api: site.features for site in result.callsites}


def test_positional_literals_are_named_through_the_catalog_signature():
    found = calls("m = keras.Sequential()\nm.fit(x, y, 32, 10)\n")
    fit = found["tensorflow.keras.Sequential.fit"]
    assert fit["batch_size"] == 32 and fit["epochs"] == 10
    assert "x" not in fit and "y" not in fit  # names, not literals



def test_keras_1s_nb_epoch_is_read_as_epochs():
    found = calls("m = keras.Sequential()\nm.fit(x, y, nb_epoch=100)\nm.fit_generator(gen, nb_epoch=50)\n")
    assert found["tensorflow.keras.Sequential.fit"]["epochs"] == 100
    assert found["tensorflow.keras.Sequential.fit_generator"]["epochs"] == 50
    assert "nb_epoch" not in found["tensorflow.keras.Sequential.fit"]
    both = calls("m = keras.Sequential()\nm.fit(x, y, epochs=3, nb_epoch=100)\n")  # `epochs` wins where both are given
    assert both["tensorflow.keras.Sequential.fit"]["epochs"] == 3
    other = calls("keras.layers.Dense(10, nb_epoch=4)\n")  # only a model's fit reads it
    assert other["tensorflow.keras.layers.Dense"]["nb_epoch"] == 4


def test_a_fits_callbacks_are_listed_by_class_only_while_the_list_is_all_known():
    fits = [
        site.features.get("callbacks")
        for site in analyse_source(HEADER + textwrap.dedent("""
            m = keras.Sequential()
            board = keras.callbacks.TensorBoard()
            m.fit(x, y, callbacks=[board, keras.callbacks.ModelCheckpoint("w.h5")])
            grown = [board]
            if flag:
                grown.append(keras.callbacks.EarlyStopping())
            m.fit(x, y, callbacks=grown)
            added = [board]
            added += more
            m.fit(x, y, callbacks=added)
            m.fit(x, y, callbacks=[board, Mine()])
            m.fit(x, y)
        """), "snippet.py").callsites
        if site.api == "tensorflow.keras.Sequential.fit"
    ]
    both = ["tensorflow.keras.callbacks.TensorBoard", "tensorflow.keras.callbacks.ModelCheckpoint"]
    assert fits == [both, None, None, None, None]


def test_a_callback_list_appended_to_still_holds_what_it_held():
    result = analyse_source(HEADER + textwrap.dedent("""
        m = keras.Sequential()
        callbacks = [keras.callbacks.EarlyStopping(patience=2)]
        callbacks.append(keras.callbacks.TensorBoard())
        m.fit(x, y, epochs=100, callbacks=callbacks)
    """), "snippet.py")
    fit = next(site for site in result.callsites if site.api == "tensorflow.keras.Sequential.fit")
    assert "callbacks" not in fit.features  # the appended one is not read
    assert fit.work["epochs"].bound == "upper" and fit.work["epochs"].least == 3  # the EarlyStopping still is


def test_a_callback_list_attribute_a_method_appends_to_still_holds_what_it_held():
    result = analyse_source(HEADER + textwrap.dedent("""
        class Trainer:
            def __init__(self):
                self.model = keras.Sequential()
                self.callbacks = [keras.callbacks.EarlyStopping(patience=2)]

            def add(self, callback):
                self.callbacks.append(callback)

            def train(self):
                self.model.fit(x, y, epochs=100, callbacks=self.callbacks)
    """), "snippet.py")
    fit = next(site for site in result.callsites if site.api.endswith(".fit"))
    assert "callbacks" not in fit.features
    assert fit.work["epochs"].bound == "upper"


def test_graph_mode_marks_every_call_of_a_module_building_a_tf1_graph():
    tf1 = calls("x = tf.placeholder(tf.float32)\ny = tf.square(x)\nwith tf.Session() as sess:\n    sess.run(y)\n")
    assert {api for api, f in tf1.items() if f.get("graph_mode")} == {
        "tensorflow.compat.v1.placeholder", "tensorflow.square", "tensorflow.compat.v1.Session",
        "tensorflow.compat.v1.Session.run",
    }
    disabled = calls("tf.compat.v1.disable_eager_execution()\nkeras.layers.Dense(3)\n")
    assert disabled["tensorflow.keras.layers.Dense"]["graph_mode"] is True
    eager = calls("y = tf.square(tf.constant(2.0))\nkeras.Sequential().fit(y)\n")
    assert not any("graph_mode" in f for f in eager.values())
    # a library with a TF1 path: only the function making the session builds a graph
    dual = calls(
        """
        def numpy_batches(ds, eager):
            if eager:
                return ds.as_numpy_iterator()
            element = tf.compat.v1.data.make_one_shot_iterator(ds).get_next()
            with tf.compat.v1.Session() as sess:
                return [sess.run(element)]

        def augment(image):
            return tf.image.flip_left_right(image)
        """
    )
    assert dual["tensorflow.compat.v1.data.make_one_shot_iterator"]["graph_mode"] is True
    assert "graph_mode" not in dual["tensorflow.image.flip_left_right"]

def test_keyword_and_sequence_literals():
    found = calls("keras.layers.Conv2D(filters=64, kernel_size=(3, 3), input_shape=(28, 28, 1), padding='same')\n")
    conv = found["tensorflow.keras.layers.Conv2D"]
    assert conv["filters"] == 64
    assert conv["kernel_size"] == [3, 3]
    assert conv["input_shape"] == [28, 28, 1]
    assert conv["padding"] == "same"


def test_module_constants_and_arithmetic_are_literals():
    found = calls("EPOCHS = 5\nBATCH = 16 * 4\nm = keras.Sequential()\nm.fit(x, epochs=EPOCHS * 2, batch_size=BATCH)\n")
    fit = found["tensorflow.keras.Sequential.fit"]
    assert (fit["epochs"], fit["batch_size"]) == (10, 64)


def test_values_known_only_at_run_time_are_left_out():
    found = calls("import sys\nn = int(sys.argv[1])\nkeras.layers.Dense(n, activation=tf.nn.relu)\n")
    dense = found["tensorflow.keras.layers.Dense"]
    assert "units" not in dense
    assert dense["activation"] == "tensorflow.nn.relu"  # a TF symbol argument is named


def test_starred_arguments_stop_positional_naming_unless_their_items_are_known():
    found = calls("args = list(range(n))\nm = keras.Sequential()\nm.fit(*args, 5)\n")
    assert "batch_size" not in found["tensorflow.keras.Sequential.fit"]
    found = calls("args = (1, 2)\nm = keras.Sequential()\nm.fit(*args, 5)\n")  # spread as Python spreads it
    assert found["tensorflow.keras.Sequential.fit"]["batch_size"] == 5


def test_tensor_bytes_from_literal_shape_and_dtype():
    found = calls(
        """
        tf.zeros((1024, 1024))
        tf.ones([10, 10], dtype=tf.float64)
        tf.random.normal((8, 3), dtype="float16")
        tf.fill([2, 5], 1)
        tf.eye(4)
        """
    )
    assert found["tensorflow.zeros"]["tensor_bytes"] == 1024 * 1024 * 4
    assert found["tensorflow.zeros"]["tensor_shape"] == [1024, 1024]
    assert found["tensorflow.ones"]["tensor_bytes"] == 100 * 8
    assert found["tensorflow.random.normal"]["tensor_bytes"] == 24 * 2
    assert found["tensorflow.fill"]["tensor_elements"] == 10
    assert found["tensorflow.eye"]["tensor_bytes"] == 16 * 4


def test_tensor_bytes_from_nested_literal_values():
    found = calls("tf.constant([[1, 2, 3], [4, 5, 6]])\ntf.Variable([[1.0], [2.0]], dtype=tf.float64)\n")
    assert found["tensorflow.constant"]["tensor_shape"] == [2, 3]
    assert found["tensorflow.constant"]["tensor_bytes"] == 6 * 4  # int32
    assert found["tensorflow.Variable"]["tensor_bytes"] == 2 * 8


def test_no_tensor_bytes_without_literal_shape():
    found = calls("import numpy as np\nshape = np.shape(a)\ntf.zeros(shape)\ntf.constant([[1, 2], [3]])\n")
    assert "tensor_bytes" not in found["tensorflow.zeros"]
    assert "tensor_bytes" not in found["tensorflow.constant"]  # ragged: no shape


def test_loop_multiplier_is_the_product_of_literal_bounds():
    found = calls(
        """
        N = 10
        for epoch in range(N):
            for step in range(2, 102, 2):
                tf.zeros(1)
        for i, item in enumerate([1, 2, 3]):
            tf.ones(1)
        tf.eye(2)
        """
    )
    assert found["tensorflow.zeros"]["loop_multiplier"] == 500
    assert found["tensorflow.zeros"]["loop_depth"] == 2
    assert found["tensorflow.ones"]["loop_multiplier"] == 3
    assert found["tensorflow.eye"]["loop_multiplier"] == 1
    assert "loop_depth" not in found["tensorflow.eye"]


def test_unknown_loop_bounds_are_flagged_not_guessed():
    found = calls(
        """
        for batch in dataset:
            for _ in range(4):
                tf.zeros(1)
        while True:
            tf.ones(1)
        """
    )
    assert found["tensorflow.zeros"]["loop_multiplier"] == 4
    assert found["tensorflow.zeros"]["loop_unbounded"] is True
    assert found["tensorflow.ones"]["loop_unbounded"] is True


def test_comprehension_bounds_count_as_loops():
    found = calls("layers = [keras.layers.Dense(8) for _ in range(3)]\n")
    assert found["tensorflow.keras.layers.Dense"]["loop_multiplier"] == 3


def test_loops_do_not_cross_function_boundaries():
    found = calls("for _ in range(5):\n    def f():\n        tf.zeros(1)\n")
    assert found["tensorflow.zeros"]["loop_multiplier"] == 1


def test_in_tf_function_however_it_is_imported():
    found = calls(
        """
        from tensorflow import function as compile_graph

        @tf.function
        def a():
            return tf.zeros(1)

        @compile_graph(jit_compile=True)
        def b():
            def nested():
                return tf.ones(1)
            return nested()

        def c():
            return tf.eye(1)

        def d():
            return tf.fill([1], 1)

        d_graph = tf.function(d)

        def preprocess(image):
            return tf.image.resize(image, (64, 64))

        def pipeline():
            return tf.data.Dataset.from_tensor_slices([1]).map(preprocess).map(lambda v: tf.nn.relu(v))
        """
    )
    assert found["tensorflow.image.resize"]["in_tf_function"] is True  # tf.data traces map functions
    assert found["tensorflow.nn.relu"]["in_tf_function"] is True  # ... and lambdas
    assert found["tensorflow.zeros"]["in_tf_function"] is True
    assert found["tensorflow.ones"]["in_tf_function"] is True
    assert found["tensorflow.eye"]["in_tf_function"] is False
    assert found["tensorflow.fill"]["in_tf_function"] is True  # wrapped by tf.function(d)


def test_keras_step_methods_are_marked():
    found = calls(
        """
        class Net(keras.Model):
            def call(self, x):
                return tf.nn.relu(x)
        """
    )
    assert found["tensorflow.nn.relu"]["in_keras_step"] is True


def test_sequential_layer_count_and_application_name_reach_method_calls():
    found = calls(
        """
        seq = keras.Sequential([keras.layers.Dense(4), keras.layers.Dense(2)])
        seq.add(keras.layers.Dense(1))
        seq.fit(x, epochs=3)
        app = keras.applications.ResNet50(weights=None, input_shape=(224, 224, 3))
        app.predict(x)
        """
    )
    fit = found["tensorflow.keras.Sequential.fit"]
    assert fit["n_layers"] == 3 and fit["receiver"] == "constructor"
    predict = found["tensorflow.keras.Model.predict"]
    assert predict["model_name"] == "ResNet50"
    assert predict["init"] == {"weights": None, "input_shape": [224, 224, 3]}
    assert predict["receiver"] == "factory"


def test_layer_call_carries_its_constructor_literals():
    found = calls("d = keras.layers.Dense(128, activation='relu')\nd(x)\n")
    assert found["tensorflow.keras.layers.Dense.__call__"]["init"] == {"units": 128, "activation": "relu"}


def test_big_literals_are_left_out_but_still_sized():
    found = calls(f"tf.constant({[[0.5] * 50] * 40})\n")
    constant = found["tensorflow.constant"]
    assert "value" not in constant
    assert constant["tensor_shape"] == [40, 50] and constant["tensor_bytes"] == 40 * 50 * 4


def test_features_are_json_ready():
    import json

    found = calls("tf.constant([[1.5, 2.5]], name='t' * 3)\nkeras.layers.Dense(units=1e400)\n")
    json.dumps(found)  # no tuples-vs-lists surprises, no NaN/inf
    assert "units" not in found["tensorflow.keras.layers.Dense"]  # inf is not a usable literal


def test_a_batch_drawn_from_a_mapped_pipeline_keeps_its_loop_out_of_its_features():
    """The loop that drew a batch (mapped.py's `drawn_in`: the `ast.For` itself) is the analysis'
    own: a feature holding it is no JSON, and `calls` printed its memory address."""
    import json

    found = calls(
        """
        def normalize(images, labels):
            return images / 255, labels

        ds = tf.data.Dataset.from_tensor_slices((x, y)).map(normalize).batch(32)
        for image, label in ds.take(1):
            image = image.numpy()
        """
    )
    features = found["tensorflow.Tensor.numpy"]
    assert features["receiver"] == "element"  # the batch drawn from the pipeline: where `drawn_in` is set
    assert "drawn_in" not in features
    json.dumps(features)


def test_arguments_of_the_call_that_walks_a_function_reach_its_body():
    found = calls(
        """
        def train(model, data, epochs=3, batch_size=None):
            model.fit(data, epochs=epochs, batch_size=batch_size)

        train(keras.Sequential(), x, batch_size=64)
        """
    )
    fit = found["tensorflow.keras.Sequential.fit"]
    assert (fit["epochs"], fit["batch_size"]) == (3, 64)  # a default and a passed literal


def test_entry_points_are_walked_first_so_helpers_see_their_arguments():
    found = calls(
        """
        def train(model, data, epochs):
            model.fit(data, epochs=epochs)

        def main(argv=None):
            train(keras.Sequential(), x, 7)
        """
    )
    assert found["tensorflow.keras.Sequential.fit"]["epochs"] == 7


def test_fit_on_a_batched_dataset_takes_its_literal_batch_size():
    found = calls(
        """
        ds = tf.data.Dataset.from_tensor_slices(x).shuffle(100).batch(16).prefetch(1)
        m = keras.Sequential()
        m.fit(ds, epochs=2)
        m.evaluate(ds.unbatch())
        ds.batch(4)
        """
    )
    fit = found["tensorflow.keras.Sequential.fit"]
    assert (fit["batch_size"], fit["batch_size_from"]) == (16, "dataset")
    assert "batch_size" not in found["tensorflow.keras.Sequential.evaluate"]
    assert found["tensorflow.data.Dataset.batch"]["batch_size"] == 4  # its own argument, not the receiver's


def test_fit_input_host_work_names_the_first_decode_a_generator_makes_per_item():
    code = """
        import cv2
        import numpy as np
        from PIL import Image
        def load(path):
            return cv2.imread(path)
        def helper_in_loop(paths):
            while True:
                yield np.array([load(p) for p in paths[:8]]), np.zeros(8)
        def pil(paths):
            for p in paths:
                yield np.asarray(Image.open(p))[None], np.zeros(1)
        def flows(path):
            images = keras.preprocessing.image.ImageDataGenerator().flow_from_directory(path)
            for batch in images:
                yield batch
        def once(path):
            big = cv2.imread(path)
            while True:
                yield big[:32], big[:32]
        def helper_once(path):
            big = load(path)
            while True:
                yield big[:32], big[:32]
        def memory(x, y):
            while True:
                yield x[:32], y[:32]
        m = keras.Sequential()
        m.fit({})
        """
    found = {
        "helper_in_loop(p)": "`cv2.imread` (line 8)",  # through a helper called in the generator's loop
        "pil(p)": "`PIL.Image.open` (line 14)",
        "flows('train/')": "`ImageDataGenerator.flow_from_directory` (line 16)",
        "once('a.png')": None,  # one decode before the loop: not per item
        "helper_once('a.png')": None,
        "memory(x, y)": None,  # slices of arrays: nothing decoded
    }
    for given, host in found.items():
        assert calls(code.format(given))["tensorflow.keras.Sequential.fit"].get("input_host_work") == host, given


def test_scipy_image_readers_are_decodes_however_imported():
    """SciPy's old image readers (PIL behind them) are followed alone: however SciPy is imported, a
    generator reading an image with one per item does host work; its other functions decode nothing."""
    code = """
        {}
        import numpy as np
        def batches(paths):
            for p in paths:
                yield np.array([{}(p, mode='RGB')]), np.zeros(1)
        m = keras.Sequential()
        m.fit(batches(paths))
        """
    found = {
        ("import scipy", "scipy.misc.imread"): "`scipy.misc.imread` (line 8)",
        ("import scipy.misc", "scipy.misc.imread"): "`scipy.misc.imread` (line 8)",
        ("from scipy import misc", "misc.imread"): "`scipy.misc.imread` (line 8)",
        ("from scipy.misc import imread", "imread"): "`scipy.misc.imread` (line 8)",
        ("from scipy import ndimage", "ndimage.imread"): "`scipy.ndimage.imread` (line 8)",
        ("import scipy", "scipy.misc.imresize"): None,  # resizes an array: nothing read
        ("from scipy import ndimage", "ndimage.zoom"): None,
    }
    for (head, call), host in found.items():
        fit = calls(code.format(head, call))["tensorflow.keras.Sequential.fit"]
        assert fit.get("input_host_work") == host, (head, call)


def test_keras_text_preprocessing_per_item_is_host_work():
    """Keras' tokeniser and padding run in Python, one token at a time: called on each window in a
    generator's loop (directly, through a helper, or on a `Tokenizer` the generator makes) they are
    per-item host work; texts encoded once, before the loop, leave the generator slicing arrays."""
    code = """
        import numpy as np
        from tensorflow.keras.preprocessing.sequence import pad_sequences
        from tensorflow.keras.preprocessing.text import Tokenizer
        def pad(window):
            return pad_sequences([window], maxlen=40)
        def helper(texts, ends):
            while True:
                for t, e in zip(texts, ends):
                    yield pad(t[:e]), np.zeros(1)
        def tokenised(texts, vocab):
            tokenizer = Tokenizer(char_level=True)
            tokenizer.word_index = vocab
            while True:
                for t in texts:
                    yield np.array(tokenizer.texts_to_sequences([t])), np.zeros(1)
        def once(texts):
            x = pad_sequences(texts, maxlen=40)
            while True:
                for i in range(0, len(x), 32):
                    yield x[i:i + 32], np.zeros(32)
        m = keras.Sequential()
        m.fit({})
        """
    found = {
        "helper(t, e)": "`pad_sequences` (line 8)",
        "tokenised(t, v)": "`texts_to_sequences` (line 18)",
        "once(t)": None,
    }
    for given, host in found.items():
        assert calls(code.format(given))["tensorflow.keras.Sequential.fit"].get("input_host_work") == host, given


def test_input_host_work_leaves_out_a_decode_an_unbounded_memo_keeps():
    """A helper decorated `functools.cache` or `lru_cache(maxsize=None)` decodes each file once: no
    per-item host work; a bounded `lru_cache` (128 results by default) decodes a larger set again."""
    code = """
        import functools
        import cv2
        import numpy as np
        {decorator}
        def load(path):
            return cv2.imread(path)
        def batches(paths):
            while True:
                yield np.array([load(p) for p in paths[:8]]), np.zeros(8)
        m = keras.Sequential()
        m.fit(batches(paths))
        """
    found = {
        "@functools.cache": None,
        "@functools.lru_cache(maxsize=None)": None,
        "@functools.lru_cache(None)": None,
        "@functools.lru_cache()": "`cv2.imread` (line 9)",
        "@functools.lru_cache(maxsize=1024)": "`cv2.imread` (line 9)",
    }
    for decorator, host in found.items():
        fit = calls(code.format(decorator=decorator))["tensorflow.keras.Sequential.fit"]
        assert fit.get("input_host_work") == host, decorator


def test_input_host_work_names_the_decode_the_fewest_conditions_guard():
    code = """
        import cv2
        import numpy as np
        def batches(pairs, with_masks, gray):
            while True:
                x, y = [], []
                for image, mask in pairs:
                    if with_masks:
                        y.append(cv2.imread(mask))
                    {}
                yield np.array(x), np.array(y)
        m = keras.Sequential()
        m.fit(batches(pairs, False, True))
        """
    found = {
        "x.append(cv2.imread(image))": "`cv2.imread` (line 12)",  # every item's read, not the branch's before it
        # the call passes with_masks=False, gray=True: the read under `if gray:` is the one that runs
        "if gray:\n                        x.append(cv2.imread(image, 0))": "`cv2.imread` (line 13)",
    }
    for line, host in found.items():
        assert calls(code.format(line))["tensorflow.keras.Sequential.fit"].get("input_host_work") == host, line


def test_train_on_batch_input_host_work_follows_a_batch_drawn_from_a_decoding_generator():
    head = (
        "import cv2\nimport numpy as np\n"
        "def decoded(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
        "def memory(x, y):\n    while True:\n        yield x[:8], y[:8]\n"
        "m = keras.Sequential()\n"
    )
    shapes = {
        "gen = decoded(paths)\nfor step in range(100):\n    x, y = next(gen)\n    m.train_on_batch(x, y)\n": "`cv2.imread` (line 7)",
        "gen = decoded(paths)\nfor x, y in gen:\n    m.train_on_batch(x, y)\n": "`cv2.imread` (line 7)",
        "gen = decoded(paths)\nfor step in range(100):\n    batch = next(gen)\n    m.train_on_batch(*batch)\n": None,  # starred
        "gen = memory(x, y)\nfor step in range(100):\n    x, y = next(gen)\n    m.train_on_batch(x, y)\n": None,
        # a Keras image iterator over files drawn from directly: it decodes the batch on the spot
        "flow = keras.preprocessing.image.ImageDataGenerator().flow_from_directory('d/')\n"
        "for step in range(100):\n    x, y = next(flow)\n    m.train_on_batch(x, y)\n":
        "`ImageDataGenerator.flow_from_directory` (line 12)",
        "for x, y in keras.preprocessing.image.ImageDataGenerator().flow_from_dataframe(f):\n    m.train_on_batch(x, y)\n":
        "`ImageDataGenerator.flow_from_dataframe` (line 12)",
        "flow = keras.preprocessing.image.ImageDataGenerator().flow(x, y)\n"  # arrays in memory: nothing decoded
        "for step in range(100):\n    x, y = next(flow)\n    m.train_on_batch(x, y)\n": None,
    }
    for body, host in shapes.items():
        found = calls(head + body)["tensorflow.keras.Sequential.train_on_batch"]
        assert found.get("input_host_work") == host, body


def test_train_on_batch_input_host_work_follows_a_batch_a_decoding_function_returns_in_the_loop():
    """A plain function that decodes per item in its loop, called in the training loop, prepares
    each batch between steps as `next(gen)` does; called once before the loop, it does not."""
    head = (
        "import cv2\nimport numpy as np\n"
        "def load(paths):\n    x = []\n    for p in np.random.choice(paths, 8):\n        x.append(cv2.imread(p))\n"
        "    return np.array(x), np.zeros(8)\n"
        "def sliced(x, y):\n    return x[:8], y[:8]\n"
        "def one(path):\n    return cv2.imread(path)[None], np.zeros(1)\n"
        "m = keras.Sequential()\n"
    )
    shapes = {
        "for step in range(100):\n    x, y = load(paths)\n    m.train_on_batch(x, y)\n": "`cv2.imread` (line 8)",
        "for step in range(100):\n    m.train_on_batch(*load(paths))\n": "`cv2.imread` (line 8)",  # spread
        "x, y = load(paths)\nfor step in range(100):\n    m.train_on_batch(x, y)\n": None,  # decoded once
        "for step in range(100):\n    x, y = sliced(a, b)\n    m.train_on_batch(x, y)\n": None,  # memory
        # one decode, outside any loop of the function: one file per call, a batch of one image
        "for step in range(100):\n    x, y = one(path)\n    m.train_on_batch(x, y)\n": None,
    }
    for body, host in shapes.items():
        found = calls(head + body)["tensorflow.keras.Sequential.train_on_batch"]
        assert found.get("input_host_work") == host, body


def test_train_on_batch_input_drawn_above_says_where_its_batch_is_drawn():
    """How many lines above the step its decoded batch is drawn: `next(gen)`, the `for` over the
    generator, the decoding function's call; for a model of several inputs, the first so drawn."""
    head = (
        "import cv2\nimport numpy as np\n"
        "def decoded(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
        "def load(paths):\n    return np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
        "m = keras.Sequential()\n"
    )
    shapes = {
        "gen = decoded(paths)\nfor step in range(100):\n    x, y = next(gen)\n    m.train_on_batch(x, y)\n": 1,
        "for epoch in range(9):\n    for x, y in decoded(paths):\n        s = 0\n        m.train_on_batch(x, y)\n": 2,
        "for step in range(100):\n    x, y = load(paths)\n    z = x\n    m.train_on_batch([z, x], y)\n": 2,
        "for step in range(100):\n    x, y = load(paths)\n    m.train_on_batch([w, x], y)\n": 1,
    }
    for body, above in shapes.items():
        found = calls(head + body)["tensorflow.keras.Sequential.train_on_batch"]
        assert found.get("input_drawn_above") == above, body


def test_a_batch_a_comprehension_decodes_in_the_loop_is_prepared_between_steps():
    """`[imread(f) for f in files[i:i + 8]]` in the training loop (or a list a loop there fills after
    a decode), through NumPy's conversions, casts, slices and scalar arithmetic, is a batch decoded
    between steps, for `train_on_batch` and for a TF1 run of the optimizer's update fed it; the
    comprehension (or the filling loop) before the training loop decodes once, and one that decodes
    nothing, or a call that makes something else of the batch, carries nothing."""
    head = "import cv2\nimport numpy as np\nm = keras.Sequential()\n"
    shapes = {
        "for i in range(0, 800, 8):\n    x = np.array([cv2.imread(f) for f in files[i:i + 8]])\n"
        "    m.train_on_batch(x.astype(np.float32)[..., None] / 255 - 1, y)\n": ("`cv2.imread` (line 7)", 1),
        "x = np.array([cv2.imread(f) for f in files])\nfor i in range(100):\n    m.train_on_batch(x[:8], y)\n": (None, None),
        "for i in range(100):\n    x = np.array([f.upper() for f in files])\n    m.train_on_batch(x, y)\n": (None, None),
        "for i in range(100):\n    xs = []\n    for f in files[i:i + 8]:\n        im = cv2.imread(f)\n"
        "        xs.append(im)\n    m.train_on_batch(xs, y)\n": ("`cv2.imread` (line 9)", 1),
        "xs = []\nfor f in files:\n    xs.append(cv2.imread(f))\nfor i in range(100):\n    m.train_on_batch(xs, y)\n": (
            None,
            None,
        ),
        "for i in range(100):\n    x = np.mean([cv2.imread(f) for f in files[i:i + 8]])\n    m.train_on_batch(x, y)\n": (
            None,
            None,
        ),
    }
    for body, (host, above) in shapes.items():
        found = calls(head + body)["tensorflow.keras.Sequential.train_on_batch"]
        assert (found.get("input_host_work"), found.get("input_drawn_above")) == (host, above), body
    graph = (
        "import cv2\nimport tensorflow as tf\nx = tf.compat.v1.placeholder(tf.float32, [None, 8])\n"
        "loss = tf.reduce_mean(tf.compat.v1.layers.dense(x, 1))\nsess = tf.compat.v1.Session()\n"
        "fetch = {}\nfor i in range(0, 800, 8):\n    batch = [cv2.imread(f) for f in files[i:i + 8]]\n"
        "    sess.run(fetch, feed_dict={{x: batch}})\n"
    )
    train = "tf.compat.v1.train.AdamOptimizer().minimize(loss)"
    for fetch, host in ((train, "`cv2.imread` (line 10)"), ("loss", None)):
        found = calls(graph.format(fetch))["tensorflow.compat.v1.Session.run"]
        assert found.get("input_host_work") == host, fetch


def test_fit_on_an_image_data_generator_flow_says_whether_each_item_is_worked_on():
    code = """
        m = keras.Sequential()
        aug = keras.preprocessing.image.ImageDataGenerator({})
        m.fit({})
        """
    flow = "`ImageDataGenerator.flow` (line 6)"
    found = {
        ("rotation_range=40", "aug.flow(x, y)"): (flow, None),  # warped per image
        ("horizontal_flip=True, rotation_range=args.r", "aug.flow(x, y)"): (flow, None),
        ("rescale=1 / 255", "aug.flow(x, y)"): (None, True),  # a multiply: nothing worked on per item
        ("rotation_range=0, horizontal_flip=False", "aug.flow(x, y)"): (None, True),  # turned off
        ("", "aug.flow(x, y)"): (None, True),
        ("rotation_range=args.r", "aug.flow(x, y)"): (None, None),  # not known: neither
        ("**options", "aug.flow(x, y)"): (None, None),
        ("0.5", "aug.flow(x, y)"): (None, None),  # positional: not read
        ("", "aug.flow_from_directory('train/')"): ("`ImageDataGenerator.flow_from_directory` (line 6)", None),
        ("", "batches"): (None, None),
    }
    for (init, given), (host, plain) in found.items():
        fit = calls(code.format(init, given))["tensorflow.keras.Sequential.fit"]
        assert (fit.get("input_host_work"), fit.get("input_plain_flow")) == (host, plain), (init, given)


def test_an_image_data_generator_built_differently_on_two_paths_is_plain_only_where_both_are():
    """Either path's generator may run: one that augments on either path is no plain flow (the
    options the paths give differently are not known after them)."""
    code = """
        import sys
        m = keras.Sequential()
        if len(sys.argv) > 1:
            aug = keras.preprocessing.image.ImageDataGenerator({})
        else:
            aug = keras.preprocessing.image.ImageDataGenerator({})
        m.fit(aug.flow(x, y))
        """
    for one, other in [("rotation_range=20", "zoom_range=0.1"), ("rotation_range=20", "rescale=1 / 255")]:
        for given in ((one, other), (other, one)):
            fit = calls(code.format(*given))["tensorflow.keras.Sequential.fit"]
            assert fit.get("input_plain_flow") is None, given
    fit = calls(code.format("rescale=1 / 255", "rescale=1 / 255"))["tensorflow.keras.Sequential.fit"]
    assert fit.get("input_plain_flow") is True


def test_fit_on_a_sequence_that_only_slices_what_it_holds_is_sliced():
    code = """
        import numpy as np
        class Batches(keras.utils.Sequence):
            def __init__(self, x, y, size):
                self.x, self.y, self.size = x, y, size
            def __getitem__(self, i):
                {}
        class Later(Batches):
            pass
        m = keras.Sequential()
        x, y = np.zeros((1000, 8)), np.zeros(1000)
        m.fit(Later({}), epochs=5)
        """
    found = {
        "return self.x[i * self.size:(i + 1) * self.size], self.y[i * self.size:(i + 1) * self.size]": True,
        "rows = slice(i * self.size, min(len(self.x), (i + 1) * self.size))\n"
        "                return self.x[rows], self.y[rows]": True,
        "return np.stack([self.x[k] for k in range(i, i + self.size)]), self.y[i]": None,  # a comprehension
        "return np.load(self.x[i]), self.y[i]": None,  # a call: a file read per batch
        "return augment(self.x[i]), self.y[i]": None,  # a call the analysis does not see into
    }
    for body, sliced in found.items():
        fit = calls(code.format(body, "x, y, 32"))["tensorflow.keras.Sequential.fit"]
        assert fit.get("input_sliced") is sliced, body
        unknown = calls(code.format(body, "a, b, 32"))["tensorflow.keras.Sequential.fit"]
        assert "input_sliced" not in unknown, body  # arrays not known to be held: not sliced


def test_a_sequence_indexing_the_flows_it_holds_is_not_sliced():
    code = """
        class Pair(keras.utils.Sequence):
            def __init__(self, images, masks):
                self.images, self.masks = images, masks
            def __getitem__(self, i):
                return self.images[i][0], self.masks[i][0]
        aug = keras.preprocessing.image.ImageDataGenerator(rotation_range=10)
        m = keras.Sequential()
        m.fit(Pair(aug.flow_from_directory('i/', seed=1), aug.flow_from_directory('m/', seed=1)), epochs=5)
        """
    assert "input_sliced" not in calls(code)["tensorflow.keras.Sequential.fit"]


def test_fit_on_a_py_dataset_reads_the_workers_its_constructor_gives():
    code = """
        class Batches(keras.utils.PyDataset):
            def __init__(self, n, **kwargs):
                {}
        class Later(Batches):
            pass
        m = keras.Sequential()
        m.fit(Later(4), epochs=5)
        """
    found = {
        "super().__init__(workers=8, use_multiprocessing=True, **kwargs)": 8,
        "super().__init__(workers=1)": 1,
        "super().__init__(workers=n)": "given",
        "super().__init__(**kwargs)": None,
        "self.n = n": None,
    }
    for body, workers in found.items():
        fit = calls(code.format(body))["tensorflow.keras.Sequential.fit"]
        assert fit.get("input_workers") == workers, body


def test_fit_input_kind_says_what_the_batches_come_from():
    code = """
        import numpy as np
        class Batches(keras.utils.Sequence):
            pass
        def batches():
            while True:
                yield np.zeros((32, 8)), np.zeros(32)
        def pick(kind):
            class Other(keras.utils.Sequence):
                pass
            return Batches() if kind else Other()
        m = keras.Sequential()
        aug = keras.preprocessing.image.ImageDataGenerator(rotation_range=40)
        m.fit({})
        """
    kinds = {
        "Batches()": "sequence",
        "pick(1)": "sequence",  # one of two Sequence subclasses
        "aug.flow_from_directory('train/')": "sequence",
        "aug.flow(x, y)": "sequence",
        "batches()": "generator",
        "tf.data.Dataset.range(8).batch(2)": "dataset",
        "np.zeros((64, 8)), np.zeros(64)": "arrays",
        "x=tf.zeros((64, 8))": "arrays",
    }
    for given, kind in kinds.items():
        assert calls(code.format(given))["tensorflow.keras.Sequential.fit"].get("input_kind") == kind, given
    fit = calls(code.format("unknown"))["tensorflow.keras.Sequential.fit"]
    assert "input_kind" not in fit  # a name bound elsewhere: not guessed
    assert "input_kind" not in calls("m = keras.Sequential()\nm.evaluate(np.zeros((4, 2)))\n")[
        "tensorflow.keras.Sequential.evaluate"
    ]  # fit and fit_generator only


def test_a_callback_built_from_a_function_gives_no_object_of_the_analysis_as_a_feature():
    """The functions a callback was built from are the analysis' own objects: printed in the calls
    JSON they would show a memory address, different on every run."""
    code = (
        "import tensorflow as tf\n"
        "def schedule(epoch):\n    return 0.1\n"
        "cb = tf.keras.callbacks.LearningRateScheduler(schedule)\n"
        "cb.on_epoch_begin(1)\n"
    )
    (site,) = [s for s in analyse_source(code, "t.py").callsites if s.api.endswith("on_epoch_begin")]
    assert site.features["receiver"] == "constructor"
    assert "handed_functions" not in site.features
