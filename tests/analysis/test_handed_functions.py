"""Functions handed to TF/Keras APIs that call them (analysis/handed.py): a callback's hooks run per fit,
epoch or batch of the `fit` given it, a `LambdaCallback`'s and a `LearningRateScheduler`'s functions
likewise, a `Dataset.map` function's Python once per `map` (traced); where the fit's epochs or batches
are not known, the count stays unknown and the note names who calls the function."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source

PROGRAM = """
import numpy as np
import tensorflow as tf
from tensorflow import keras

x = np.zeros((640, 8))
y = np.zeros((640,))
model = keras.Sequential([keras.layers.Dense(1)])
model.compile("adam", "mse")


class Sampler(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        model.predict(x[:4])

    def on_train_batch_end(self, batch, logs=None):
        tf.reduce_sum(tf.ones((3,)))

    def on_train_end(self, logs=None):
        model.save_weights("last.h5")


def schedule(epoch):
    return 0.01 * tf.math.exp(-0.1 * epoch)


{fits}
"""


def runs_of(fits: str) -> dict[str, dict]:
    code = textwrap.dedent(PROGRAM).format(fits=textwrap.dedent(fits))
    sites = analyse_source(code, "train.py").callsites
    return {s.api.rpartition(".")[2]: s.runs.to_json() for s in sites if s.scope}  # (those of the hooks and schedule)


def site_of(fits: str, api: str):
    code = textwrap.dedent(PROGRAM).format(fits=textwrap.dedent(fits))
    (found,) = [s for s in analyse_source(code, "train.py").callsites if s.api.endswith(api)]
    return found


def test_a_callbacks_hooks_run_per_fit_epoch_and_batch() -> None:
    found = runs_of("""
        model.fit(x, y, batch_size=64, epochs=20, callbacks=[Sampler()])
        for trial in range(3):
            model.fit(x, y, batch_size=64, epochs=5, callbacks=[Sampler()])
    """)
    assert (found["predict"]["count"], found["predict"]["bound"]) == (20 + 3 * 5, "exact")
    assert "once per epoch of the `fit` at line" in found["predict"]["note"]
    assert found["reduce_sum"]["count"] == 10 * 20 + 3 * 10 * 5  # 640 / 64 batches per epoch
    assert found["save_weights"]["count"] == 1 + 3


def test_early_stopping_makes_the_epochs_a_most() -> None:
    found = runs_of("""
        model.fit(x, y, epochs=10, callbacks=[Sampler(), keras.callbacks.EarlyStopping(patience=2)])
    """)
    assert (found["predict"]["count"], found["predict"]["bound"]) == (10, "upper")


def test_functions_a_callback_is_built_from_run_per_epoch() -> None:
    found = runs_of("""
        lr = keras.callbacks.LearningRateScheduler(schedule)
        model.fit(x, y, epochs=7, callbacks=[lr])
    """)
    assert (found["exp"]["count"], found["exp"]["bound"]) == (7, "exact")
    evaluate = site_of(
        """
        log = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: model.evaluate(x, y))
        model.fit(x, y, epochs=7, callbacks=[log])
    """,
        ".evaluate",
    )
    assert (evaluate.runs.count, evaluate.runs.bound) == (7, "exact")
    assert evaluate.runs.note.startswith("the lambda at line")


def test_unknown_epochs_name_who_calls_the_hook() -> None:
    found = runs_of("""
        import sys
        model.fit(x, y, epochs=int(sys.argv[1]), callbacks=[Sampler()])
    """)
    assert found["predict"]["count"] is None
    assert "runs once per epoch of the `fit` at line" in found["predict"]["note"]
    assert "its epochs are not known" in found["predict"]["note"]
    assert found["save_weights"]["count"] == 1  # once per fit: known


def test_a_hook_of_a_callback_given_to_no_fit_stays_unknown() -> None:
    found = runs_of("""
        sampler = Sampler()
        model.fit(x, y, epochs=3)
    """)
    assert found["predict"]["count"] is None


def test_a_lambda_bound_to_a_name_stays_unknown() -> None:
    evaluate = site_of(
        """
        log_end = lambda epoch, logs: model.evaluate(x, y)
        model.fit(x, y, epochs=7, callbacks=[keras.callbacks.LambdaCallback(on_epoch_end=log_end)])
    """,
        ".evaluate",
    )
    assert evaluate.runs.count is None


MAPPED = """
import tensorflow as tf


def preprocess(image, label):
    image = tf.image.resize(image, (64, 64))
    return image, label


def make(images, labels):
    return tf.data.Dataset.from_tensor_slices((images, labels)).map(preprocess).batch(32)


train = make(tf.zeros((100, 32, 32, 3)), tf.zeros((100,)))
test = make(tf.zeros((10, 32, 32, 3)), tf.zeros((10,)))
"""


def test_a_mapped_function_is_traced_once_per_map() -> None:
    (resize,) = [s for s in analyse_source(MAPPED, "data.py").callsites if s.api.endswith("resize")]
    assert (resize.runs.count, resize.runs.bound) == (2, "exact")
    assert "traced once by `Dataset.map`" in resize.runs.note


def test_a_generator_function_runs_once_per_pass_not_known() -> None:
    code = textwrap.dedent("""
        import tensorflow as tf


        def rows():
            for i in range(100):
                yield tf.ones((4,)), i


        ds = tf.data.Dataset.from_generator(rows, output_types=(tf.float32, tf.int32))
    """)
    (ones,) = [s for s in analyse_source(code, "gen.py").callsites if s.api.endswith("ones")]
    assert ones.runs.count is None
    assert "once per pass over the `Dataset.from_generator` pipeline" in ones.runs.note


UNCOUNTED = """
import tensorflow as tf
from tensorflow import keras


def norm(t):
    return tf.nn.l2_normalize(t, axis=-1)


inputs = keras.Input((8,))
out = keras.layers.Lambda(norm)(inputs)
squares = tf.map_fn(lambda v: tf.square(v), tf.ones((5, 3)))
"""


def test_a_function_called_as_its_data_decides_names_its_caller() -> None:
    sites = {s.api.rpartition(".")[2]: s.runs for s in analyse_source(UNCOUNTED, "model.py").callsites}
    assert sites["l2_normalize"].count is None
    assert "runs when the `Lambda` layer of line 11 is called on its inputs" in sites["l2_normalize"].note
    assert sites["square"].count is None
    assert "once per element of the `tf.map_fn` of line 12" in sites["square"].note
    assert sites["square"].loop == 1  # traced in a graph, not a loop: the in-loop rules do not read it as one


def test_a_hook_two_callback_classes_define_runs_per_epoch_of_each_fit() -> None:
    code = textwrap.dedent(PROGRAM).format(
        fits="""
class Saver(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        model.save_weights("epoch.h5")


model.fit(x, y, epochs=4, callbacks=[Sampler(), Saver()])
"""
    )
    counts = {s.scope: s.runs.count for s in analyse_source(code, "train.py").callsites if s.scope}
    assert (counts["Sampler.on_epoch_end"], counts["Saver.on_epoch_end"]) == (4, 4)


def test_a_hook_the_file_calls_by_name_elsewhere_stays_unknown() -> None:
    found = runs_of("""
        sampler = Sampler()
        model.fit(x, y, epochs=4, callbacks=[sampler])
        hook = getattr(sampler, "on_epoch_end")
    """)
    assert found["predict"]["count"] is None


def test_a_hook_of_a_callback_no_fit_here_is_given_names_who_calls_it() -> None:
    found = runs_of("""
        model.fit(x, y, epochs=3)
    """)
    assert found["predict"]["count"] is None
    assert found["predict"]["note"] == (
        "on_epoch_end is a Keras callback's hook: it runs once per epoch of each `fit` given an instance of `Sampler`, "
        "none seen in this file"
    )
