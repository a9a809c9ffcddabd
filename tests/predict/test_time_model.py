"""Issue 27: one time model. Symbolic calls cost nothing at their line, energy is power x time
(linear in work past one start-up term), ops follow their FLOPs, and call shapes (one batch, one
training step) are priced from the model's work. Through the real resolver and the shipped model."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source
from greenlint.predict import load_predictor
from greenlint.predict.prediction import Basis
from greenlint.predict.site_predictions import with_work
from greenlint.predict.work_energy import derive, effective_epochs, start_up, step_s


@pytest.fixture(scope="module")
def predictor():
    return load_predictor(overlay=False)


def priced(predictor, code: str) -> list:
    """(site, prediction) of every call site of *code*."""
    sites = analyse_source(textwrap.dedent(code), "prog.py").callsites
    return [(s, predictor.predict(s.api, with_work(s.features, s.work))) for s in sites]


def total(predictor, code: str) -> float:
    return sum(p.energy_j * (s.runs.count or 1) for s, p in priced(predictor, code) if p.energy_j)


def one(predictor, code: str, api_end: str):
    found = [(s, p) for s, p in priced(predictor, code) if s.api.endswith(api_end)]
    assert found, [s.api for s, _ in priced(predictor, code)]
    return found[-1]


DATA = """\
import numpy as np
import tensorflow as tf
from tensorflow import keras
x = np.zeros((20000, 28, 28, 1), dtype="float32")
y = np.zeros((20000,), dtype="int64")
"""

SEQUENTIAL = DATA + """\
model = keras.Sequential([
    keras.layers.Conv2D(8, 3, activation="relu", input_shape=(28, 28, 1)),
    keras.layers.MaxPooling2D(),
    keras.layers.Flatten(),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(10),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=5, batch_size=32)
"""

FUNCTIONAL = DATA + """\
inputs = keras.Input(shape=(28, 28, 1))
h = keras.layers.Conv2D(8, 3, activation="relu")(inputs)
h = keras.layers.MaxPooling2D()(h)
h = keras.layers.Flatten()(h)
h = keras.layers.Dropout(0.2)(h)
outputs = keras.layers.Dense(10)(h)
model = keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x, y, epochs=5, batch_size=32)
"""


def test_functional_layer_calls_are_symbolic_and_cost_nothing_at_their_line(predictor):
    calls = [(s, p) for s, p in priced(predictor, FUNCTIONAL) if s.api.endswith(".__call__")]
    assert len(calls) == 5
    for site, pred in calls:
        assert site.work["symbolic"].value is True
        assert pred.energy_j == 0.0 and pred.basis is Basis.SYMBOLIC
        assert "counted" in pred.evidence.note and "fit" in pred.evidence.note


def test_the_same_cnn_written_functionally_totals_what_its_sequential_twin_does(predictor):
    seq, fun = total(predictor, SEQUENTIAL), total(predictor, FUNCTIONAL)
    assert 1 / 1.2 <= fun / seq <= 1.2, (fun, seq)


def test_ops_inside_a_tf_function_body_are_traced_not_priced(predictor):
    code = DATA + """\
@tf.function
def step(a):
    return tf.reduce_sum(tf.matmul(a, a))

step(tf.ones((64, 64)))
"""
    site, pred = one(predictor, code, "matmul")
    assert site.work["symbolic"].value is True
    assert pred.energy_j == 0.0 and "tf.function" in pred.evidence.note


def test_a_no_work_call_in_a_tf_function_body_costs_nothing_per_call(predictor):
    code = DATA + """\
@tf.function
def step(a):
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.reduce_sum(a * a)
    return tape.gradient(y, a)

for _ in range(1000):
    step(tf.ones((64, 64)))
"""
    site, pred = one(predictor, code, "GradientTape")
    assert site.runs.count == 1000
    assert pred.basis is Basis.SYMBOLIC and pred.energy_j == 0.0 and "traced" in pred.evidence.note
    eager = one(predictor, DATA + "tape = tf.GradientTape()\n", "GradientTape")[1]
    assert eager.basis is Basis.NEGLIGIBLE and eager.energy_j > 0


def test_a_tf_function_running_a_model_forward_is_priced_as_that_forward_pass(predictor):
    """A traced inference step is one forward batch of its model, priced by the inference time
    model like the same call made eagerly: not a figure generalised from unrelated APIs."""
    model = DATA + "model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(256), keras.layers.Dense(10)])\n"
    x = "x = np.zeros((64, 64), 'float32')\n"
    traced = model + "@tf.function\ndef infer(a):\n    return model(a, training=False)\n" + x + "infer(x)\n"
    site, pred = one(predictor, traced, "PolymorphicFunction.__call__")
    assert site.work["step"].value == "inference"
    eager = one(predictor, model + x + "out = model(x)\n", "__call__")[1]
    assert pred.energy_j == pytest.approx(eager.energy_j, rel=0.5)
    low, high = pred.interval_j
    assert high / low < 10


def test_a_tf_function_looping_over_the_data_costs_its_steps_not_one(predictor):
    """An epoch traced into one graph (`for batch in ds:` in the tf.function's body) runs a step per
    batch on each call: its figure grows with the steps as the same steps in a `fit` would."""
    model = DATA + ("model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(256), keras.layers.Dense(10)])\n"
                    "opt = keras.optimizers.Adam()\n")
    body = ("    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(model(xb, training=True))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n")

    def epoch(n: int) -> str:
        data = f"ds = tf.data.Dataset.from_tensor_slices(np.zeros(({64 * n}, 64), 'float32')).batch(64)\n"
        loop = "@tf.function\ndef epoch(data):\n    for xb in data:\n" + body.replace("\n    ", "\n        ")
        return model + data + loop.replace("    with", "        with", 1) + "epoch(ds)\n"

    site, small = one(predictor, epoch(100), "PolymorphicFunction.__call__")
    assert site.work["steps"].value == 100
    large = one(predictor, epoch(1000), "PolymorphicFunction.__call__")[1]
    assert "1000 training steps on batches of 64" in large.evidence.note
    # ten times the steps: past the call's start-up, close to ten times the energy
    assert 5 < large.energy_j / small.energy_j < 10.01


def test_a_tf_function_looping_over_data_of_unknown_length_is_a_floor(predictor):
    """A loop of the traced body over data whose length the code does not show (records read from
    files) runs its step an unknown number of times: the figure is a floor (one step, the least), its
    high end stated, not a point priced as one exact step; the same loop over a sized dataset stays a point."""
    model = DATA + ("model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(256), keras.layers.Dense(10)])\n"
                    "opt = keras.optimizers.Adam()\n")
    loop = ("@tf.function\ndef epoch(data):\n    for xb in data:\n        with tf.GradientTape() as tape:\n"
            "            loss = tf.reduce_mean(model(xb, training=True))\n"
            "        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "epoch(ds)\n")
    files = model + "import sys\nds = tf.data.TFRecordDataset(sys.argv[1:]).batch(64)\n" + loop
    site, pred = one(predictor, files, "PolymorphicFunction.__call__")
    assert site.work["steps"].bound == "lower"
    assert pred.floor and "lower bound" in pred.evidence.note and "1,000,000 samples" in pred.evidence.note
    low, high = pred.interval_j
    assert low <= pred.energy_j and high > 1000 * pred.energy_j
    sized = model + "ds = tf.data.Dataset.from_tensor_slices(np.zeros((6400, 64), 'float32')).batch(64)\n" + loop
    site, point = one(predictor, sized, "PolymorphicFunction.__call__")
    assert site.work["steps"].value == 100 and site.work["steps"].bound is None
    assert not point.floor and point.energy_j > 10 * pred.energy_j


def test_a_fit_fed_a_mapped_pipeline_pays_each_call_of_the_map_function(predictor):
    """`Dataset.map(f)` runs f's graph once per element of every pass (once per batch after `batch`):
    the `fit` iterating the pipeline is charged those calls (`MAP_CALL_S` each), per epoch; a map of
    no TF op, or no map, adds none."""
    model = DATA + ("model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(10)])\n"
                    "model.compile(optimizer='adam', loss='mse')\n"
                    "x = np.zeros((8192, 64), 'float32')\n")

    def fit(pipeline: str, epochs: int = 4):
        code = model + ("def noisy(v):\n    return v + tf.random.normal(tf.shape(v))\n"
                        f"ds = tf.data.Dataset.from_tensor_slices((x, x[:, :10])){pipeline}\n"
                        f"model.fit(ds, epochs={epochs})\n")
        return one(predictor, code, ".fit")

    plain_site, plain = fit(".batch(64)")
    site, mapped = fit(".map(lambda a, b: (noisy(a), b)).batch(64)")
    assert "map_per_sample" not in plain_site.work and site.work["map_per_sample"].value == 1
    calls = 4 * 8192
    assert f"{calls:.3g} calls" in mapped.evidence.note
    assert mapped.energy_j > plain.energy_j
    _, twice = fit(".map(lambda a, b: (noisy(a), b)).batch(64)", epochs=8)
    _, plain_twice = fit(".batch(64)", epochs=8)
    extra, extra_twice = mapped.energy_j - plain.energy_j, twice.energy_j - plain_twice.energy_j
    assert extra_twice == pytest.approx(2 * extra, rel=1e-6)  # per element, per epoch: linear
    batched, _ = fit(".batch(64).map(lambda a, b: (noisy(a), b))")
    assert batched.work["map_per_step"].value == 1 and "map_per_sample" not in batched.work
    identity, _ = fit(".map(lambda a, b: (a, b)).batch(64)")
    assert "map_per_sample" not in identity.work  # no TF op: tf.data runs no graph per element


def test_a_python_loop_over_a_mapped_pipeline_charges_each_batch_it_draws_to_the_step_it_hands_it(predictor):
    """`for xb, yb in ds: train_step(xb, yb)` over `from_tensor_slices(...).map(f).batch(64)`: the loop runs
    f once per element as it draws each batch, so each call of the step it hands the batch pays 64 calls of
    f; the map hides the per-sample shape, not the batch, so the step runs on 64 samples. No map, no charge."""
    head = DATA + ("model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(10)])\n"
                   "opt = keras.optimizers.Adam()\n"
                   "x = np.zeros((8192, 64), 'float32')\n"
                   "def noisy(a, b):\n    return a + tf.random.normal(tf.shape(a)), b\n"
                   "@tf.function\ndef step(xb, yb):\n    with tf.GradientTape() as tape:\n"
                   "        loss = tf.reduce_mean(model(xb, training=True))\n"
                   "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n")

    def step(pipeline: str):
        code = head + (f"ds = tf.data.Dataset.from_tensor_slices((x, x[:, :10])){pipeline}\n"
                       "for epoch in range(3):\n    for xb, yb in ds:\n        step(xb, yb)\n")
        return one(predictor, code, "PolymorphicFunction.__call__")

    plain_site, plain = step(".batch(64)")
    site, mapped = step(".map(noisy).batch(64)")
    assert "map_per_sample" not in plain_site.work and site.work["map_per_sample"].value == 1
    assert site.work["samples"].value == plain_site.work["samples"].value == 64
    assert site.runs.count == 3 * 128 and "64 calls" in mapped.evidence.note
    assert mapped.energy_j > plain.energy_j
    _, unmapped = step(".map(lambda a, b: (a, b)).batch(64)")
    assert unmapped.energy_j == pytest.approx(plain.energy_j)  # no TF op: tf.data runs no graph per element
    # each draw is paid once, in the loop that draws it: not by a second call handed the same batch, nor
    # by a call after the loop on the last batch drawn
    code = head + ("ds = tf.data.Dataset.from_tensor_slices((x, x[:, :10])).map(noisy).batch(64)\n"
                   "for xb, yb in ds:\n    step(xb, yb)\n    model.predict_on_batch(xb)\nmodel(xb)\n")
    sites = {s.api.rpartition(".")[2]: s for s, _ in priced(predictor, code)}
    assert sites["__call__"].work.get("map_per_sample") is None and "map_per_sample" not in sites["predict_on_batch"].work
    assert [getattr(s.work.get("map_per_sample"), "value", None) for s, _ in priced(predictor, code)
            if s.api.endswith("PolymorphicFunction.__call__")] == [1]


def test_predict_over_a_list_comprehension_of_single_images_runs_once_per_item_on_one_sample(predictor):
    """`images = [np.random.rand(1, 48, 48, 3) for _ in range(220)]` is a list of 220 arrays of that
    shape: `for image in images: model.predict(image)` runs 220 times on one sample each. A condition
    in the comprehension leaves at most that many; an iterable of unknown length leaves them unknown."""
    head = ("import numpy as np\nimport sys\nfrom tensorflow import keras\n"
            "model = keras.Sequential([keras.Input((48, 48, 3)), keras.layers.Conv2D(8, 3), keras.layers.Flatten(),"
            " keras.layers.Dense(5)])\n")

    def site(listing: str):
        return one(predictor, head + f"images = {listing}\nfor image in images:\n    model.predict(image)\n",
                   ".predict")

    s, pred = site("[np.random.rand(1, 48, 48, 3) for _ in range(220)]")
    assert s.runs.count == 220 and s.runs.bound == "exact"
    assert s.work["samples"].value == 1 and s.work["steps"].value == 1 and not pred.floor
    s100, pred100 = site("[np.random.rand(1, 48, 48, 3) for _ in range(100)]")
    assert s100.runs.count == 100 and pred100.energy_j == pytest.approx(pred.energy_j)
    s8, pred8 = site("[np.random.rand(8, 48, 48, 3) for _ in range(220)]")
    assert s8.work["samples"].value == 8 and pred8.energy_j > pred.energy_j
    filtered, _ = site("[np.random.rand(1, 48, 48, 3) for i in range(220) if i % 2]")
    assert filtered.runs.count != 220
    unknown, _ = site("[np.random.rand(1, 48, 48, 3) for _ in sys.argv]")
    assert unknown.runs.count is None


def test_a_fit_on_an_image_folder_pays_the_decode_of_each_file_it_reads_in_its_floor(predictor):
    """`image_dataset_from_directory` decodes and resizes every file in every pass: its `fit` is a floor
    (the files are not counted) of one batch per epoch, each of those files decoded at image_size
    (`DECODE_PIXEL_S` a pixel). Four times the pixels, a higher floor; a `.cache()` decodes once, no charge."""
    from greenlint.predict.work_energy import DECODE_PIXEL_S

    def fit(size: int, cached: str = ""):
        code = ("import tensorflow as tf\n"
                f"ds = tf.keras.utils.image_dataset_from_directory('images', image_size=({size}, {size}), batch_size=32){cached}\n"
                f"model = tf.keras.Sequential([tf.keras.Input(shape=({size}, {size}, 3)), tf.keras.layers.Conv2D(4, 3),"
                " tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(2)])\n"
                "model.compile(optimizer='adam', loss='sparse_categorical_crossentropy')\n"
                "model.fit(ds, epochs=24)\n")
        return one(predictor, code, ".fit")

    site, small = fit(64)
    assert site.work["decoded_pixels_per_sample"].value == 64 * 64
    assert small.floor and "each of its files decoded at image_size" in small.evidence.note
    cached_site, cached = fit(64, ".cache()")
    assert "decoded_pixels_per_sample" not in cached_site.work and cached.energy_j < small.energy_j
    # the decode adds its seconds to the floor's: 24 epochs x one batch of 32 files x 64 x 64 pixels
    seconds = [float(n.split("about ")[1].split(" s")[0]) for n in (small.evidence.note, cached.evidence.note)]
    assert seconds[0] - seconds[1] == pytest.approx(24 * 32 * 64 * 64 * DECODE_PIXEL_S, rel=0.05)
    _, large = fit(128)
    assert large.energy_j > small.energy_j
    audio = ("import tensorflow as tf\nds = tf.keras.utils.audio_dataset_from_directory('clips', batch_size=32)\n"
             "model = tf.keras.Sequential([tf.keras.layers.Dense(2)])\nmodel.fit(ds, epochs=3)\n")
    assert "decoded_pixels_per_sample" not in one(predictor, audio, ".fit")[0].work  # no image decode priced


def test_tf1_graph_ops_count_their_work_in_session_run(predictor):
    code = """\
import tensorflow as tf
tf.compat.v1.disable_eager_execution()
a = tf.compat.v1.placeholder(tf.float32, (None, 64))
b = tf.matmul(a, tf.ones((64, 64)))
"""
    site, pred = one(predictor, code, "matmul")
    assert pred.basis is Basis.SYMBOLIC and pred.energy_j == 0.0
    assert "Session.run" in pred.evidence.note


# -- energy = power x time, linear in work past one start-up term -----------------------------
def _fit(epochs: int = 10, samples: int = 20000, method: str = "fit") -> str:
    call = f"model.fit(x, y, epochs={epochs}, batch_size=32)" if method == "fit" else "model.predict(x)"
    return f"""\
import numpy as np
from tensorflow import keras
x = np.zeros(({samples}, 64), dtype="float32")
y = np.zeros(({samples},), dtype="int64")
model = keras.Sequential([keras.layers.Dense(256, activation="relu", input_shape=(64,)), keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
{call}
"""


def test_ten_times_the_epochs_of_a_multi_second_fit_is_ten_times_the_joules(predictor):
    _, one_run = one(predictor, _fit(epochs=2), ".fit")
    _, ten_runs = one(predictor, _fit(epochs=20), ".fit")
    assert 8 <= ten_runs.energy_j / one_run.energy_j <= 12
    assert "start-up" in one_run.evidence.note and "ramp" not in one_run.evidence.note


def test_predict_on_ten_times_the_samples_is_ten_times_the_joules_past_the_start_up(predictor):
    work = predictor.model["work"]
    offset = 10 ** work["offsets"].get("tensorflow.keras.Model.predict", 0.0)  # its measured sites vs the model
    site, small = one(predictor, _fit(samples=10_000, method="predict"), ".predict")
    start = work["power"]["inference"]["steady_w"] * start_up(work["time"]["inference"], site.features) * offset
    _, large = one(predictor, _fit(samples=100_000, method="predict"), ".predict")
    assert (large.energy_j - start) / (small.energy_j - start) == pytest.approx(10, rel=0.05)


# -- ops and layer calls follow their FLOPs ---------------------------------------------------
def test_matmul_follows_its_flops(predictor):
    small = one(predictor, "import tensorflow as tf\nc = tf.matmul(tf.ones((16, 16)), tf.ones((16, 16)))\n", "matmul")[1]
    big = one(predictor, "import tensorflow as tf\nc = tf.matmul(tf.ones((4096, 4096)), tf.ones((4096, 4096)))\n",
              "matmul")[1]
    assert big.energy_j > 50 * small.energy_j
    assert "FLOPs" in big.evidence.note and big.basis is Basis.PREDICTED


def test_relu_on_a_small_tensor_is_tiny(predictor):
    _, pred = one(predictor, "import tensorflow as tf\nr = tf.nn.relu(tf.ones((16, 16)))\n", "relu")
    assert pred.energy_j < 0.1


def test_an_unseen_api_given_its_work_follows_it(predictor):
    api = "tensorflow.keras.layers.EinsumDense.__call__"  # never measured in the KB
    assert api not in predictor.model["apis"]
    low = predictor.predict(api, {"flops": 3e10})
    high = predictor.predict(api, {"flops": 3e12})
    assert high.energy_j / low.energy_j >= 10
    unknown = predictor.predict(api, {"params": 1000})
    assert unknown.energy_j is None and "not known" in unknown.evidence.note


# -- call shapes --------------------------------------------------------------------------------
def test_a_model_called_eagerly_on_an_array_is_one_batch(predictor):
    code = _fit(samples=10_000, method="predict").replace("model.predict(x)", "out = model(x)")
    _, called = one(predictor, code, "__call__")
    _, predicted = one(predictor, _fit(samples=10_000, method="predict"), ".predict")
    assert called.energy_j < predicted.energy_j / 3  # one batch, not 313 predict batches
    assert "one step on a batch of 10000" in called.evidence.note


def test_train_on_batch_follows_the_models_flops(predictor):
    def step(width: int) -> float:
        code = _fit().replace("Dense(256", f"Dense({width}").replace(
            "model.fit(x, y, epochs=10, batch_size=32)", "model.train_on_batch(x[:4096], y[:4096])")
        return one(predictor, code, "train_on_batch")[1].energy_j

    # FLOPs x4096, 10^11 a step at the widest: compute-bound, the per-step overhead no longer hides them
    assert step(65536) > 10 * step(16)


def test_a_custom_training_step_is_three_forward_passes_and_an_update():
    f = {"flops_per_sample": 1e6, "samples": 32, "params": 1000, "step": "training"}
    from greenlint.predict.work_energy import one_batch

    steps, flops = derive("training", one_batch("tensorflow.keras.Model.__call__", f))
    assert steps == 1 and flops == pytest.approx(3 * 32 * 1e6 + 10 * 1000)


def test_initial_epoch_is_subtracted():
    assert effective_epochs({"epochs": 10, "initial_epoch": 4}) == 6
    assert derive("training", {"epochs": 10, "initial_epoch": 4, "samples": 320, "batch_size": 32})[0] == 60


def test_keras_ops_are_priced_as_the_tf_ops_they_run(predictor):
    code = """\
import keras
a = keras.ops.matmul(keras.ops.ones((512, 512)), keras.ops.ones((512, 512)))
b = keras.random.normal((512, 512))
c = keras.ops.sum(a)
d = keras.ops.add(a, a)
import tensorflow as tf
e = tf.matmul(tf.ones((512, 512)), tf.ones((512, 512)))
"""
    found = {s.api.rpartition(".")[2] + ("_tf" if s.api.startswith("tensorflow.matmul") else ""): (s, p)
             for s, p in priced(predictor, code)}
    assert found["matmul"][0].work["flops"].value == 2 * 512**3
    assert found["matmul"][1].energy_j == pytest.approx(found["matmul_tf"][1].energy_j)
    assert found["sum"][0].work["flops"].value == 512 * 512
    assert found["add"][0].work["flops"].value == 512 * 512
    assert found["normal"][0].work["elements"].value == 512 * 512 and found["normal"][1].energy_j < 1


def test_ops_inside_a_keras_models_call_are_counted_where_the_model_runs(predictor):
    code = """\
import tensorflow as tf
class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(8)

    def call(self, x):
        return tf.nn.relu(self.d(x))
"""
    site, pred = one(predictor, code, "relu")
    assert site.work["symbolic"].value is True
    assert pred.basis is Basis.SYMBOLIC and "FLOPs per sample" in pred.evidence.note


def test_a_step_costs_more_the_more_layers_its_model_dispatches():
    """`step_s`: the fitted per-step cost plus one share per layer of the model, the fitted calls' median layers
    where the model's are unknown."""
    model = {"per_step": 2e-3, "per_layer_step": 1e-3, "layers_per_step": 5.0}
    assert step_s(model, {"n_layers": 10}) == pytest.approx(12e-3)
    assert step_s(model, {}) == pytest.approx(7e-3)
    assert step_s({"per_step": 2e-3}, {"n_layers": 10}) == pytest.approx(2e-3)  # a model fitted without the term


def test_a_named_architectures_first_predict_traces_its_layers(predictor):
    """A `predict` of a Keras Application the analysis names but whose layers it did not count: its first call
    traces the architecture's layers (training_runs' table), as its `fit` would, not one layer."""
    f = {"model": "MobileNetV2", "samples": 1, "batch_size": 32, "steps": 1, "flops_per_sample": 6.15e8,
         "params": 3538984, "traces_step": True}
    named = predictor.predict("tensorflow.keras.Model.predict", f)
    unnamed = predictor.predict("tensorflow.keras.Model.predict", {k: v for k, v in f.items() if k != "model"})
    assert "154 layers traced" in named.evidence.note
    assert named.energy_j > 3 * unnamed.energy_j  # 154 layers traced at 5 ms each, not one


def test_a_graph_run_of_a_step_on_a_batch_of_unknown_size_is_a_floor_from_one_sample(predictor):
    """A TF1 graph run marked as a step whose feed the analysis looked for and could not size, and whose
    graph's FLOPs are unknown: at least one sample, at most a stated batch of HIGH_SAMPLES, not Keras' 32."""
    f = {"graph_mode": True, "step": "inference", "samples_unknown": True, "flops_per_sample_unknown": True}
    pred = predictor.predict("tensorflow.compat.v1.Session.run", f)
    assert pred.floor and "a batch of one sample" in pred.evidence.note
    assert "1,000,000 samples in its one batch" in pred.evidence.note
    assert pred.interval_j[1] > 1e6 * pred.energy_j
