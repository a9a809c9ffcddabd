"""A factory by name (`norm_layer(kind)`: `if kind in ("bn", "batch"): return BatchNormalization`)
called with a literal inside a model builder of another module: the builder walked for its caller's
arguments (`Template`) picks the branch the literal takes (resolver `_dispatches`), so the layers
after it stay in the graph and the model's FLOPs count every layer, not the first alone."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_file
from tests.analysis.test_whole_program import write

MODULE = """
import tensorflow as tf
from tensorflow import keras


def norm_layer(kind):
    if kind in ("bn", "batch"):
        return keras.layers.BatchNormalization
    if kind == "ln":
        return keras.layers.LayerNormalization
    raise ValueError(kind)


def generator(n_upsamplings=3, norm="bn"):
    Norm = norm_layer(norm)
    h = inputs = keras.Input(shape=(1, 1, 128))
    h = keras.layers.Conv2DTranspose(256, 4, strides=1, padding="valid", use_bias=False)(h)
    h = Norm()(h)
    for i in range(n_upsamplings - 1):
        h = keras.layers.Conv2DTranspose(64, 4, strides=2, padding="same", use_bias=False)(h)
        h = Norm()(h)
        h = tf.nn.relu(h)
    h = keras.layers.Conv2DTranspose(1, 4, strides=2, padding="same")(h)
    return keras.Model(inputs=inputs, outputs=h)
"""

#: The first transposed convolution's weights alone (128 x 256 x 4 x 4): what was counted before.
FIRST = 128 * 256 * 16


def fit_work(path) -> dict:
    result = analyse_file(path)
    assert result.errors == []
    site = next(s for s in result.callsites if s.api == "tensorflow.keras.Model.fit")
    return {key: q.value for key, q in site.work.items()}


def train(call: str) -> str:
    return f"""
        import tensorflow as tf
        import models

        G = {call}
        z = tf.zeros((64, 1, 1, 128))
        G.fit(z, tf.zeros((64, 16, 16, 1)), epochs=2)
        """


def test_a_literal_given_a_factory_by_name_keeps_the_builders_layers(tmp_path):
    write(tmp_path, {"models.py": MODULE, "train.py": train("models.generator(n_upsamplings=3)")})
    work = fit_work(tmp_path / "train.py")
    # every layer counted: the three transposed convolutions past the first and the normalisations
    assert work["params"] > FIRST + 2 * 64 * 64 * 16
    assert work["flops_per_sample"] > 2 * FIRST


def test_each_call_picks_its_own_branch(tmp_path):
    layer = fit_work_of(tmp_path / "a", train('models.generator(norm="ln")'))
    batch = fit_work_of(tmp_path / "b", train('models.generator(norm="batch")'))
    # the same convolutions; batch normalisation holds 4 numbers a channel, layer normalisation 2
    assert batch["params"] - layer["params"] == 2 * (256 + 2 * 64)


def test_a_value_the_call_does_not_know_picks_nothing(tmp_path):
    write(tmp_path, {"models.py": MODULE, "train.py": train("models.generator(norm=input())")})
    work = fit_work(tmp_path / "train.py")
    # the norm layer unknown: the graph is lost after the first convolution, as before (no branch guessed)
    assert work.get("params") in (None, FIRST)


def fit_work_of(folder, script: str) -> dict:
    folder.mkdir()
    write(folder, {"models.py": MODULE, "train.py": script})
    return fit_work(folder / "train.py")
