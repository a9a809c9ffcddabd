"""Raw-signature stripping and rule-based alias collapsing (no catalog needed)."""

from __future__ import annotations

import pytest

from greenlint.catalog.names import normalise_name, strip_call_parens

# Raw signatures as they appear in the Greenlight/FECoM measurements, with the chain we expect.
STRIPPED = [
    ("tensorflow.keras.Sequential.fit()", "tensorflow.keras.Sequential.fit"),
    ("tensorflow.compat.v1.layers.Dense(128, 'relu')()", "tensorflow.compat.v1.layers.Dense.__call__"),
    ("tensorflow.keras.layers.Concatenate()()", "tensorflow.keras.layers.Concatenate.__call__"),
    (
        "tensorflow.data.Dataset.from_tensor_slices((x_test, y_test)).batch()",
        "tensorflow.data.Dataset.from_tensor_slices.batch",
    ),
    ("(tensorflow.constant ** 2).numpy()", "tensorflow.constant.numpy"),
    (
        "tensorflow.keras.layers.DenseFeatures([tf.feature_column.indicator_column(g)])(feature_batch).numpy()",
        "tensorflow.keras.layers.DenseFeatures.__call__.numpy",
    ),
    ("tensorflow.keras.Model.title_text_embedding.layers[0].adapt()", "tensorflow.keras.Model.title_text_embedding.layers.adapt"),
    ("tensorflow.saved_model.load.signatures['serving_default']()", "tensorflow.saved_model.load.signatures.__call__"),
    ("tensorflow.train.Checkpoint.restore('a(b').assert_consumed()", "tensorflow.train.Checkpoint.restore.assert_consumed"),
    ("tensorflow.data.Dataset.from_tensor_slices.shuffle(buffer_size=x.shape[0]).batch()", "tensorflow.data.Dataset.from_tensor_slices.shuffle.batch"),
    ("tensorflow.reduce_max(abs(g - j_sum)).numpy()", "tensorflow.reduce_max.numpy"),
    ("  tf.zeros ( [2, 3] )  ", "tf.zeros"),
    ("tensorflow.keras.backend.clear_session", "tensorflow.keras.backend.clear_session"),
]


@pytest.mark.parametrize(("raw", "expected"), STRIPPED)
def test_strip_call_parens(raw, expected):
    assert strip_call_parens(raw) == expected


@pytest.mark.parametrize("raw", ["project-level", "a.b(", "a.b)", "a.(b)", "a.b]", "", "a..b", "a.b.", "x + y"])
def test_strip_call_parens_rejects_non_signatures(raw):
    with pytest.raises(ValueError):
        strip_call_parens(raw)


NORMALISED = [
    ("keras.layers.Dense", "tensorflow.keras.layers.Dense"),
    ("tf.keras.layers.Dense", "tensorflow.keras.layers.Dense"),
    ("tensorflow.keras.layers.core.Dense", "tensorflow.keras.layers.Dense"),
    ("keras.src.layers.core.dense.Dense", "tensorflow.keras.layers.Dense"),
    ("tf.keras.layers.experimental.preprocessing.Normalization", "tensorflow.keras.layers.Normalization"),
    ("keras.models.Sequential", "tensorflow.keras.Sequential"),
    ("tensorflow.keras.models.Model.fit", "tensorflow.keras.Model.fit"),
    ("tensorflow.python.keras.engine.training.Model.fit", "tensorflow.keras.Model.fit"),
    ("tensorflow.compat.v1.keras.models.Sequential.save", "tensorflow.keras.Sequential.save"),
    ("tensorflow.compat.v2.data.Dataset", "tensorflow.data.Dataset"),
    ("tf_keras.layers.Dense", "tensorflow.keras.layers.Dense"),
    ("tf.keras.layers.Input", "tensorflow.keras.Input"),
    ("tf.keras.optimizers.schedules.InverseTimeDecay", "tensorflow.keras.optimizers.schedules.InverseTimeDecay"),
    ("tf.keras.models.load_model", "tensorflow.keras.models.load_model"),
    ("tf.keras.layers.Dense(4)()", "tensorflow.keras.layers.Dense.__call__"),
    ("numpy.array", "numpy.array"),
    ("tfx.components", "tfx.components"),
    ("kerasy.thing", "kerasy.thing"),
]


@pytest.mark.parametrize(("name", "expected"), NORMALISED)
def test_normalise_name(name, expected):
    assert normalise_name(name) == expected
