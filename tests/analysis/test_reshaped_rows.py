"""A reshape to a literal count of rows, its other sides not literal (`state.reshape([1, state.shape[0]])`): that
many rows, whatever the value reshaped; a count not literal leaves the rows unknown."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_source

CODE = """import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
def act(state):
    state = state.reshape(SHAPE)
    return model.predict(state)
"""


def samples(shape: str):
    result = analyse_source(CODE.replace("SHAPE", shape), "agent.py")
    (site,) = [s for s in result.callsites if s.api.endswith(".predict")]
    return site.work["samples"].value


@pytest.mark.parametrize(("shape", "rows"), [
    ("[1, state.shape[0]]", 1), ("(1, -1)", 1), ("4, state.size // 4", 4), ("1, 84, 84, 4", 1),
    ("[state.shape[0], 1]", None), ("-1, 4", None), ("(n, 4)", None),
])
def test_a_literal_first_side_is_the_rows(shape, rows):
    assert samples(shape) == rows
