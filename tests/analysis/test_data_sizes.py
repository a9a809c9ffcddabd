"""Literal data sizes read wherever they are written: literal lists and arrays, constructors and
random draws of literal shape, slices and indexing, ranges, train_test_split, `take(n)`; and no
size where the code does not state one (issue 17, item 4)."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source

MODEL = """
model = keras.Sequential([keras.layers.Dense(8, activation="tanh", input_shape=(2,)), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
"""


def fit_work(code: str, header: str = "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n",
             method: str = "fit", index: int = -1) -> dict:
    result = analyse_source(header + textwrap.dedent(code), "snippet.py")
    assert result.errors == []
    found = [s.work for s in result.callsites if s.api.endswith(f".{method}") and "samples" in s.work]
    assert found, [s.api for s in result.callsites]
    return found[index]


def samples(work: dict):
    return work["samples"].value


XOR = """
x = {array}([[0, 0], [0, 1], [1, 0], [1, 1]])
y = {array}([[0], [1], [1], [0]])
""" + MODEL + "model.fit(x, y, epochs=50000, verbose=0)\n"


@pytest.mark.parametrize(
    "header, array",
    [
        ("import numpy as np\nfrom tensorflow import keras\n", "np.array"),
        ("import numpy\nfrom tensorflow import keras\n", "numpy.array"),
        ("from numpy import array\nfrom tensorflow import keras\n", "array"),
        ("from numpy import asarray as array\nfrom tensorflow import keras\n", "array"),
        ("import tensorflow as tf\nfrom tensorflow import keras\n", "tf.constant"),
        ("from tensorflow import keras\n", ""),  # a plain list, nothing imported to make it
    ],
)
def test_the_xor_data_is_four_samples_however_it_is_written(header, array):
    w = fit_work(XOR.format(array=array), header)
    assert samples(w) == 4 and w["samples"].provenance == "literal"
    assert w["steps"].value == 50000  # one batch per epoch


@pytest.mark.parametrize(
    "make, n",
    [
        ("np.random.rand(300, 2)", 300),
        ("np.random.randn(300, 2)", 300),
        ("np.random.random((300, 2))", 300),
        ("np.random.uniform(0, 1, (300, 2))", 300),
        ("np.random.normal(size=(300, 2))", 300),
        ("np.random.default_rng(0).normal(size=(300, 2))", 300),
        ("np.random.default_rng().random((300, 2))", 300),
        ("np.random.RandomState(1).rand(300, 2)", 300),
        ("np.zeros((300, 2))", 300),
        ("np.ones((300, 2), dtype='float32')", 300),
        ("np.full((300, 2), 0.5)", 300),
        ("np.zeros_like(np.ones((300, 2)))", 300),
        ("tf.random.normal([300, 2])", 300),
        ("tf.random.uniform((300, 2))", 300),
        ("tf.zeros([300, 2])", 300),
        ("tf.constant(np.ones((300, 2)))", 300),
        ("tf.convert_to_tensor(np.random.rand(300, 2))", 300),
        ("np.concatenate([np.zeros((100, 2)), np.ones((200, 2))])", 300),
        ("np.vstack([np.zeros((100, 2)), np.ones((200, 2))])", 300),
        ("np.stack([np.zeros(2)] * 3)", None),  # a repeated list is not followed: unknown, not guessed
        ("np.array([np.zeros(2), np.ones(2), np.zeros(2)])", 3),
        ("np.linspace(-1, 1, 300).reshape(150, 2)", 150),
        ("np.arange(600).reshape(-1, 2)", 300),
    ],
)
def test_constructors_of_literal_shape_size_the_data(make, n):
    w = fit_work(f"x = {make}\ny = load_targets()\n{MODEL}model.fit(x, y, epochs=2)\n")
    assert samples(w) == n


@pytest.mark.parametrize(
    "call, n, validation",
    [
        ("model.fit(x, y, epochs=2)", 300, None),  # Keras requires inputs and targets of the same rows
        ("model.fit(x, y, validation_data=(x_val, y_val))", 300, 50),  # both sides of validation_data too
        ("model.evaluate(x, y)", 300, None),
        ("model.fit(x, load_targets())", None, None),  # neither known: unknown, not guessed
        ("model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))", None, None),  # a pipeline's own size
    ],
)
def test_inputs_of_unknown_rows_have_their_targets_rows(call, n, validation):
    """`x` built by code the analysis does not size (`tf.clip_by_value(x + noise, 0, 1)`), its targets
    an array of known rows: fit, evaluate and validation_data run on the targets' rows."""
    code = (f"x = tf.clip_by_value(load_inputs(), 0., 1.)\ny = np.zeros(300)\n"
            f"x_val = load_inputs()\ny_val = np.zeros(50)\n{MODEL}{call}\n")
    method = call.split("(")[0].rpartition(".")[2]
    w = fit_work(code, method=method)
    assert samples(w) == n
    if method == "fit":
        assert getattr(w.get("validation_samples"), "value", None) == validation


def test_ranges_are_sized():
    w = fit_work(f"{MODEL}model.predict(tf.range(100))\n", method="predict")
    assert samples(w) == 100
    w = fit_work(f"{MODEL}model.predict(tf.range(10, 110, 2))\n", method="predict")
    assert samples(w) == 50
    w = fit_work(f"{MODEL}model.predict(tf.linspace(0.0, 1.0, 64))\n", method="predict")
    assert samples(w) == 64
    w = fit_work(f"{MODEL}model.predict(np.arange(5, 25))\n", method="predict")
    assert samples(w) == 20


@pytest.mark.parametrize(
    "expr, n",
    [
        ("x[:100]", 100),
        ("x[100:]", 900),
        ("x[-10:]", 10),
        ("x[::2]", 500),
        ("x[3:4]", 1),
        ("x[i:i + 1]", 1),
        ("x[i:i + batch]", 64),
        ("x[i * batch:(i + 1) * batch]", 64),
        ("x[batch * i:batch * (i + 1)]", 64),
        ("x[i * 8 + 2:i * 8 + 10]", 8),
        ("x[-i - 4:-i]", 4),
        ("x[i * batch:(i + 2) * batch]", 128),
        ("x[i * batch:i * i]", None),  # a product of two unknowns: no span
        ("x[i * batch:(j + 1) * batch]", None),
        ("x[None, 0]", 1),
        ("x[None, ...]", 1),
        ("x[0][None]", 1),
        ("x[np.newaxis, 0]", 1),
        ("x[tf.newaxis, ...]", 1),
        ("x[:100, tf.newaxis]", 100),
        ("x[..., np.newaxis][:10]", 10),
        ("x[:100, :2]", 100),
        ("x[i]", None),  # one row, no sample axis: not a data set
        ("x[mask]", None),
        ("x[a:b]", None),
    ],
)
def test_slices_and_indexing_size_the_data(expr, n):
    code = f"x = np.random.rand(1000, 2)\nbatch = 64\n{MODEL}for i in range(0, 1000, batch):\n    model.predict({expr})\n"
    result = analyse_source("import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n" + code, "s.py")
    w = [s.work for s in result.callsites if s.api.endswith(".predict")][0]
    assert w["samples"].value == n


def test_a_data_set_of_arrays_given_a_channel_axis_keeps_its_size_for_the_loop_over_it():
    result = analyse_source(
        "import tensorflow as tf\n(x, y), _ = tf.keras.datasets.mnist.load_data()\nx = x[..., tf.newaxis].astype('float32')\n"
        "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)\nfor images, labels in ds:\n"
        "    tf.reduce_sum(images)\n", "s.py")
    site = [s for s in result.callsites if s.api == "tensorflow.reduce_sum"][0]
    assert site.runs.count == 60000 // 32  # 1,875 batches
    assert site.work["flops"].value == 32 * 28 * 28 * 1


@pytest.mark.parametrize(
    "prepare, flops",
    [
        ("np.where(x > .5, 1.0, 0.0).astype('float32')", 32 * 28 * 28),  # scalars broadcast
        ("x[:, :, :1] + np.zeros((28, 1))", 32 * 28),  # (n, 28, 1) + (28, 1)
        ("x[:, None] * np.ones((3, 1, 1))", 32 * 3 * 28 * 28),  # (n, 1, 28, 28) * (3, 1, 1)
        ("x + np.zeros((3, 28))", None),  # 28 rows against 3: no broadcast
        ("np.where(x > .5)[0]", None),  # the indices of a mask: their number unknown
    ],
)
def test_arrays_broadcast_and_a_data_set_of_one_array_binds_its_batches(prepare, flops):
    result = analyse_source(
        f"import numpy as np\nimport tensorflow as tf\n(x, _), _ = tf.keras.datasets.mnist.load_data()\nx = {prepare}\n"
        "ds = tf.data.Dataset.from_tensor_slices(x).batch(32)\nfor b in ds:\n    tf.reduce_sum(b)\n", "s.py")
    site = [s for s in result.callsites if s.api == "tensorflow.reduce_sum"][0]
    assert site.work["flops"].value == flops
    assert site.runs.count == (60000 // 32 if flops is not None else None)


def test_a_slice_with_unknown_bounds_keeps_the_sample_shape_for_the_model():
    result = analyse_source(
        "import numpy as np\nfrom tensorflow import keras\nx = np.zeros((1000, 12))\n"
        "model = keras.Sequential([keras.layers.Dense(4)])\nmodel.fit(x[a:b], epochs=1)\n", "s.py")
    w = [s.work for s in result.callsites if s.api.endswith(".fit")][0]
    assert w["samples"].provenance == "unknown"
    assert w["params"].value == 12 * 4 + 4  # the rows are unknown, their 12 features are not


def test_train_test_split_sizes_both_parts():
    code = textwrap.dedent("""
    from sklearn.model_selection import train_test_split
    x = np.random.rand(1000, 2)
    y = np.random.randint(0, 2, size=(1000,))
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.2, random_state=0)
    """) + MODEL + "model.fit(x_train, y_train, epochs=3)\nmodel.evaluate(x_test, y_test)\n"
    assert samples(fit_work(code)) == 800
    assert samples(fit_work(code, method="evaluate")) == 200
    default = "import sklearn.model_selection\nx = np.zeros((101, 2))\na, b = sklearn.model_selection.train_test_split(x)\n"
    assert samples(fit_work(default + MODEL + "model.predict(a)\n", method="predict")) == 75  # test: ceil(0.25 x 101)
    counts = "from sklearn.model_selection import train_test_split as tts\nx = np.zeros((100, 2))\na, b = tts(x, test_size=30)\n"
    assert samples(fit_work(counts + MODEL + "model.predict(a)\n", method="predict")) == 70
    unknown = "from sklearn.model_selection import train_test_split\na, b = train_test_split(np.load('x.npy'), test_size=0.2)\n"
    assert fit_work(unknown + MODEL + "model.predict(a)\n", method="predict")["samples"].provenance == "unknown"


def test_take_n_batches_of_a_pipeline():
    code = textwrap.dedent("""
    x = np.random.rand(10000, 2)
    ds = tf.data.Dataset.from_tensor_slices((x, x[:, 0])).shuffle(100).batch(50)
    """) + MODEL + "model.fit(ds.take(20), epochs=2)\n"
    w = fit_work(code)
    assert (samples(w), w["steps_per_epoch"].value, w["steps"].value) == (1000, 20, 40)


@pytest.mark.parametrize(
    "load",
    [
        "np.loadtxt('data.csv', delimiter=',')",
        "pd.read_csv('data.csv').values",
        "np.load('x.npy')",
        "load_my_data()",
        "np.random.rand(n, 2)",  # a size that is not a literal
    ],
)
def test_data_read_at_run_time_is_unknown_not_a_guess(load):
    w = fit_work(f"import pandas as pd\ndata = {load}\nx = data[:, :-1]\n{MODEL}model.fit(x, data[:, -1], epochs=1000)\n")
    assert w["samples"].to_json() == {"value": None, "provenance": "unknown", "note": w["samples"].note}
    assert w["steps"].value is None and w["epochs"].value == 1000


@pytest.mark.parametrize(
    "source",
    [
        "tf.data.TFRecordDataset(files).map(parse)",
        "tf.data.Dataset.from_generator(gen, output_signature=spec)",
        "tf.data.TextLineDataset('a.txt').skip(1).map(parse)",
        "tf.data.Dataset.from_tensor_slices(np.load('x.npy'))",
    ],
)
def test_take_n_sizes_a_pipeline_of_unknown_size_and_batch_is_kept(source):
    code = f"ds = {source}.shuffle(100).batch(16)\n{MODEL}"
    taken = fit_work(code + "model.fit(ds.take(30), epochs=2)\n")
    assert (samples(taken), taken["steps_per_epoch"].value, taken["batch_size"].value) == (480, 30, 16)
    whole = fit_work(code + "model.fit(ds, epochs=2)\n")
    assert whole["samples"].provenance == "unknown" and whole["batch_size"].value == 16


def test_unknown_quantities_reach_the_predictor_as_flags():
    from greenlint.predict.site_predictions import with_work

    result = analyse_source("import numpy as np\nfrom tensorflow import keras\n" + MODEL
                            + "model.fit(np.load('x.npy'), epochs=n_epochs)\n", "s.py")
    s = [s for s in result.callsites if s.api.endswith(".fit")][0]
    features = with_work(s.features, s.work)
    assert features["samples_unknown"] is True and features["epochs_unknown"] is True
    assert "samples" not in features and features["batch_size"] == 32


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("ds = tf.data.Dataset.from_tensors(image)\nds = ds.map(f)\n", 1),  # one element, whatever its shape
        ("ds = tf.data.Dataset.range(10).repeat(3)\nds = ds.batch(7)\nds.map(f)\n", 5),  # 30 elements in batches of 7
        ("tf.data.Dataset.range(30).batch(7, drop_remainder=True).map(f)\n", 4),  # the last 2 left out
        ("tf.data.Dataset.range(30).batch(7, drop_remainder=False).map(f)\n", 5),
        ("tf.data.Dataset.range(2, 20, 3).map(f)\n", 6),
        ("tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0]).take(2).map(f)\n", 2),
        ("tf.data.Dataset.range(10).repeat().map(f)\n", None),  # endless
        ("tf.data.TFRecordDataset(files).map(f)\n", None),  # read at run time
    ],
)
def test_a_pipeline_of_known_size_tells_its_methods_how_many_elements_it_yields(code, expected):
    result = analyse_source("import tensorflow as tf\n" + code, "snippet.py")
    [site] = [s for s in result.callsites if s.api.endswith(".map")]
    assert site.features.get("pipeline_elements") == expected


@pytest.mark.parametrize(
    "expr",
    ["np.expand_dims(image, axis=0)", "np.expand_dims(image, 0)", "[np.expand_dims(image, axis=0)]", "image[None]",
     "image[None, ...]"],
)
@pytest.mark.parametrize("method", ["predict_on_batch", "predict"])
def test_a_new_first_axis_on_data_of_unknown_shape_is_a_batch_of_one(expr, method):
    code = f"import cv2\nimage = cv2.imread('a.jpg')\n{MODEL}model.{method}({expr})\n"
    w = fit_work(code, method=method)
    assert samples(w) == 1 and w["samples"].provenance == "inferred" and "a batch of one" in w["samples"].note


@pytest.mark.parametrize("expr", ["np.expand_dims(image, axis=1)", "np.expand_dims(image, -1)", "image[:, None]"])
def test_a_new_axis_elsewhere_leaves_the_rows_unknown(expr):
    code = f"import cv2\nimage = cv2.imread('a.jpg')\n{MODEL}model.predict({expr})\n"
    result = analyse_source("import numpy as np\nfrom tensorflow import keras\n" + code, "snippet.py")
    (w,) = [s.work for s in result.callsites if s.api.endswith(".predict")]
    assert w["samples"].value is None


@pytest.mark.parametrize(("expr", "rows"), [("np.array([image])", 1), ("np.asarray((image, image))", 2)])
def test_a_list_display_of_data_of_unknown_shape_has_a_row_per_item(expr, rows):
    code = f"import cv2\nimage = cv2.imread('a.jpg')\n{MODEL}model.predict({expr})\n"
    w = fit_work(code, method="predict")
    assert samples(w) == rows and w["samples"].provenance == "inferred" and "a row each" in w["samples"].note


@pytest.mark.parametrize("expr", ["np.array([*images])", "np.array(images)", "np.stack([image], axis=1)"])
def test_a_list_not_written_out_leaves_the_rows_unknown(expr):
    """A starred display, a list filled by appends (its display holds what it holds at least), a stack
    along another axis."""
    code = (f"import cv2\nimages = [cv2.imread('a.jpg')]\nfor p in paths:\n    images.append(cv2.imread(p))\n"
            f"image = cv2.imread('b.jpg')\n{MODEL}model.predict({expr})\n")
    result = analyse_source("import numpy as np\nfrom tensorflow import keras\n" + code, "snippet.py")
    (w,) = [s.work for s in result.callsites if s.api.endswith(".predict")]
    assert w["samples"].value is None


def test_an_empty_index_is_no_new_axis():
    """`value[()]` (an h5py dataset or a numpy scalar read whole) has no index part to look at."""
    code = f"import h5py\nvalue = h5py.File('a.h5')['x']\nimage = value[()]\n{MODEL}model.predict(image)\n"
    result = analyse_source("import numpy as np\nfrom tensorflow import keras\n" + code, "snippet.py")
    (w,) = [s.work for s in result.callsites if s.api.endswith(".predict")]
    assert w["samples"].value is None
