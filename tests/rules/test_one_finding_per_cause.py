"""A rule reports a cause once, where it is written (not again where its effect is consumed)."""

from __future__ import annotations

import textwrap

from greenlint.check import Config, check_source

SCRIPT = textwrap.dedent(
    """\
    import tensorflow as tf

    train = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(1000).batch(5)
    test = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(5)
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train, epochs=10)
    model.evaluate(test)
    model.predict(test)
    """
)


def test_a_batch_literal_is_reported_at_its_batch_call_only(predictor):
    found = check_source(SCRIPT, "train.py", Config(select=("GL301",), no_cache=True), predictor)
    assert [(d.code, d.span.line) for d in found] == [("GL301", 3), ("GL301", 4)]
    assert all("Dataset.batch" in d.message for d in found)
