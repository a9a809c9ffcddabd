"""A literal slice of the first axis bounds the rows of data whose size the analysis does not know:
`model.fit(X_train_scaled[:64], y[:64])` trains on at most 64 samples, `series[:7000]` has at most
7,000 rows, `x[-500:]` at most 500 (`"bound": "upper"`), through assignment, tuple unpacking, scalar
arithmetic, casts and a reshape that keeps the first axis (issues #26-#28). A slice of non-literal
bounds, or along another axis alone, bounds no rows; a literal slice of another axis bounds each row,
where a model leaves that dimension free (`input_shape=[None, 1]`: its FLOPs at most)."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source

HEADER = """
import numpy as np
from tensorflow import keras
series = load_series()
model = keras.Sequential([keras.layers.Dense(1, input_shape=[50])])
model.compile(loss="mse", optimizer="adam")
"""


def works(body: str, method: str = "fit") -> list[dict]:
    result = analyse_source(HEADER + textwrap.dedent(body), "snippet.py")
    assert result.errors == []
    return [s.work for s in result.callsites if s.api.endswith(f".{method}")]


def bounded(entry: dict) -> tuple:
    return entry.value, entry.bound


def test_a_demo_fit_on_a_literal_slice_trains_on_at_most_that_many_samples():
    (w,) = works("""
    X_train_scaled = scaler.fit_transform(X_train)
    model.fit(X_train_scaled[:64], y_train[:64], epochs=1)
    """)
    assert bounded(w["samples"]) == (64, "upper")
    assert bounded(w["steps_per_epoch"]) == (2, "upper") and bounded(w["steps"]) == (2, "upper")
    assert w["samples"].provenance == "inferred" and "at most 64 rows" in w["samples"].note


def test_the_usual_splits_by_literal_slices_through_tuple_assignment():
    (w,) = works("""
    X_train, X_valid = series[:7000, :50], series[7000:9000, :50]
    y_train, y_valid = series[:7000, -1], series[7000:9000, -1]
    model.fit(X_train, y_train, epochs=20, validation_data=(X_valid, y_valid))
    """)
    assert bounded(w["samples"]) == (7000, "upper")
    assert bounded(w["validation_samples"]) == (2000, "upper")
    assert bounded(w["steps"]) == (20 * 219, "upper")


@pytest.mark.parametrize(
    "data, rows",
    [
        ("series[-500:]", 500),
        ("series[-500:-100]", 400),
        ("series[10:74:2]", 32),
        ("series[:7000][-300:]", 300),  # a slice of a bounded value: the smaller bound
        ("series[::-1][:5]", 5),
        ("series[:5000] / 255.", 5000),
        ("np.asarray(series[:100]).astype(np.float32)", 100),
        ("series[:100].reshape(len(series[:100]), 50)", 100),  # a reshape that keeps the first axis
        ("series[:100].reshape((series[:100].shape[0], -1))", 100),
        ("np.reshape(series[:100], (len(series[:100]), 50))", 100),
        ("np.zeros((1000, 10, 5))[:, :, 0][:, :50]", 1000),  # a known size stays exact
    ],
)
def test_each_literal_slice_of_the_first_axis_bounds_the_rows(data, rows):
    (w,) = works(f"model.fit({data}, epochs=1)\n")
    assert w["samples"].value == rows
    assert w["samples"].bound == (None if data.startswith("np.zeros") else "upper")


@pytest.mark.parametrize(
    "data",
    [
        "series[:n]",  # bounds not literal
        "series[:, :64]",  # along another axis
        "series[..., :64]",
        "series[7000:]",  # from a row on: the rest, of unknown size
        "series[:-1]",
        "series[::-1]",
        "series[:100].reshape(-1, 50, 1)",  # rows of unknown width regrouped: not the first axis kept
        "series[:100] * weights",  # broadcast with an array of unknown shape
        "series[:64] if small else series",  # bounded on one path only
    ],
)
def test_near_misses_bound_nothing(data):
    (w,) = works(f"model.fit({data}, epochs=1)\n")
    assert w["samples"].value is None and w["samples"].provenance == "unknown"


def test_a_bounded_len_counts_no_loop():
    result = analyse_source(HEADER + textwrap.dedent("""
    x = series[:64]
    for i in range(len(x)):
        model.train_on_batch(x[i:i + 1])
    """), "snippet.py")
    (site,) = [s for s in result.callsites if s.api.endswith("train_on_batch")]
    assert site.runs.count is None  # at most 64 trips, not 64


def test_a_one_batch_call_on_a_slice_is_at_most_that_batch():
    (w,) = works("model.train_on_batch(series[:32], targets[:32])\n", "train_on_batch")
    assert bounded(w["samples"]) == (32, "upper")


RNN = """
import numpy as np
from tensorflow import keras
series = load_series()
model = keras.Sequential([
    keras.layers.SimpleRNN(20, return_sequences=True, input_shape=[None, 1]),
    keras.layers.SimpleRNN(20),
    keras.layers.Dense(1),
])
model.compile(loss="mse", optimizer="adam")
"""


def rnn_fit(body: str) -> dict:
    result = analyse_source(RNN + textwrap.dedent(body), "snippet.py")
    (w,) = [s.work for s in result.callsites if s.api.endswith(".fit")]
    return w


def test_a_free_time_axis_keeps_the_recurrent_layers_parameters_known():
    """`input_shape=[None, 1]`: sequences of any length; the weights do not depend on it, the FLOPs do."""
    w = rnn_fit("model.fit(x, y, epochs=20)\n")
    assert w["params"].value == 20 * (1 + 20) + 20 + 20 * (20 + 20) + 20 + 21
    assert bounded(w["flops_per_sample"]) == (2 * 20, "lower")  # the Dense head's alone


def test_a_free_time_axis_is_bounded_by_the_datas_literal_slice():
    """`series[:7000, :50]`: at most 50 steps per sequence, so the FLOPs per sample are at most 50 steps' worth."""
    w = rnn_fit("model.fit(series[:7000, :50], series[:7000, -1], epochs=20)\n")
    per_step = 2 * 20 * (1 + 20) + 2 * 20 * (20 + 20)
    assert bounded(w["flops_per_sample"]) == (50 * per_step + 2 * 20, "upper")
    assert "at most (50, 1) per sample" in w["flops_per_sample"].note


def test_a_free_axis_takes_the_datas_known_shape_first():
    w = rnn_fit("model.fit(np.zeros((100, 30, 1)), np.zeros((100, 1)), epochs=2)\n")
    per_step = 2 * 20 * (1 + 20) + 2 * 20 * (20 + 20)
    assert bounded(w["flops_per_sample"]) == (30 * per_step + 2 * 20, None)
