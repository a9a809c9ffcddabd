"""A fit on a literal slice of data of unknown size is priced at that bound (at most that many samples),
so GL308 can judge its saving under `material-saving-j`: silent on a 64-sample demo, still reported on
a large slice, and on a slice of unknown end (a floor, not judged). The shipped predictor prices them:
the rule cases' fake predictor ignores data sizes."""

from __future__ import annotations

from tests.rules.conftest import found

#: A 200k-parameter MLP fitted for {epochs} epochs on `x[:{rows}]`, validated on 64 rows.
SLICED_FIT = (
    "import tensorflow as tf\nx, y = load()\n"
    "m = tf.keras.Sequential([tf.keras.layers.Dense(256, activation='relu', input_shape=(784,)), tf.keras.layers.Dense(10)])\n"
    "m.compile(optimizer='adam', loss='mse')\n"
    "m.fit(x[:{rows}], y[:{rows}], epochs={epochs}, validation_data=(x[-64:], y[-64:]))\n"
)


def gl308(shipped, rows: str, epochs: int = 100, options: dict | None = None) -> list:
    return found(shipped, SLICED_FIT.format(rows=rows, epochs=epochs), "GL308", options)


def test_a_demo_on_64_samples_saves_nothing_material(shipped):
    assert gl308(shipped, "64") == []
    assert len(gl308(shipped, "64", options={"material-saving-j": 0.0})) == 1  # the rule's own logic still holds


def test_a_large_slice_is_still_reported_with_its_saving(shipped):
    (found,) = gl308(shipped, "500000")
    assert found.span.line == 5 and "early stopping saves up to" in found.message and "kJ, from data)" in found.message


def test_a_slice_of_unknown_end_is_a_floor_and_keeps_its_finding(shipped):
    (found,) = gl308(shipped, "n")
    assert "early stopping saves" not in found.message
