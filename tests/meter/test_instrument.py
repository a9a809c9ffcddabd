"""Instrumentation of call sites with libcst: what is wrapped, what is left alone, and the runtime."""

from __future__ import annotations

import json

import pytest

from greenlint.analysis.callsite import CallSite, Span
from meter.instrument import HELPER, instrument_source, notebook_to_script
from meter.measure import MeasureError, _instrument, next_experiment, script_text

SRC = """import tensorflow as tf
ds = tf.data.Dataset.from_tensor_slices(x).batch(32, drop_remainder=True)
m = tf.keras.Sequential([tf.keras.layers.Dense(1)])

@tf.function
def f(x):
    return tf.reduce_sum(x)

class L(tf.keras.layers.Layer):
    def call(self, x):
        return tf.matmul(x, x)
"""


def site(src, line, text, api, **features):
    """A CallSite as the resolver reports it: 1-based column, exclusive 1-based end column."""
    col = src.splitlines()[line - 1].index(text) + 1
    return CallSite("x.py", Span(line, col, line, col + len(text)), api, features)


SITES = [
    site(SRC, 2, "tf.data.Dataset.from_tensor_slices(x).batch(32, drop_remainder=True)", "tensorflow.data.Dataset.batch"),
    site(SRC, 2, "tf.data.Dataset.from_tensor_slices(x)", "tensorflow.data.Dataset.from_tensor_slices"),
    site(SRC, 3, "tf.keras.Sequential([tf.keras.layers.Dense(1)])", "tensorflow.keras.Sequential"),
    site(SRC, 3, "tf.keras.layers.Dense(1)", "tensorflow.keras.layers.Dense"),
    site(SRC, 7, "tf.reduce_sum(x)", "tensorflow.reduce_sum"),
    site(SRC, 11, "tf.matmul(x, x)", "tensorflow.matmul"),
]


def test_wraps_resolved_calls_and_keeps_lines():
    code, sites = instrument_source(SRC, SITES)
    lines = code.splitlines()
    assert len(lines) == len(SRC.splitlines())  # no line added or moved
    assert lines[1] == (
        f"ds = {HELPER}(1, {HELPER}(0, tf.data.Dataset.from_tensor_slices, x).batch, 32, drop_remainder=True)"
    )
    assert lines[2] == f"m = {HELPER}(3, tf.keras.Sequential, [{HELPER}(2, tf.keras.layers.Dense, 1)])"
    assert [s.api for s in sites] == [
        "tensorflow.data.Dataset.from_tensor_slices",
        "tensorflow.data.Dataset.batch",
        "tensorflow.keras.layers.Dense",
        "tensorflow.keras.Sequential",
    ]
    assert sites[0].signature == "tensorflow.data.Dataset.from_tensor_slices()"


def test_graph_code_is_left_alone():
    code, sites = instrument_source(SRC, SITES)
    assert "return tf.reduce_sum(x)" in code  # @tf.function body
    assert "return tf.matmul(x, x)" in code  # Keras Layer.call runs as a graph
    assert not any(s.api in ("tensorflow.reduce_sum", "tensorflow.matmul") for s in sites)


def test_resolver_in_tf_function_flag_is_respected():
    src = "import tensorflow as tf\ny = tf.constant(1)\n"
    code, sites = instrument_source(src, [site(src, 2, "tf.constant(1)", "tensorflow.constant", in_tf_function=True)])
    assert code == src and sites == []


def test_instrumented_code_runs_with_a_recording_helper():
    src = "import math\nv = math.hypot(3, b=4) if False else math.hypot(3, 4)\n"
    code, sites = instrument_source(src, [site(src, 2, "math.hypot(3, 4)", "math.hypot")])
    calls = []

    def helper(i, func, *args, **kwargs):
        calls.append((i, args, kwargs))
        return func(*args, **kwargs)

    glb = {HELPER: helper}
    exec(compile(code, "x.py", "exec"), glb)  # noqa: S102 - our own test source
    assert glb["v"] == 5.0
    assert len(sites) == 1 and "math.hypot(3, b=4)" in code  # only the resolved site is wrapped
    assert calls == [(0, (3, 4), {})]


def test_notebook_becomes_a_script_without_magics():
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["# title"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "import tensorflow as tf\n"]},
        {"cell_type": "code", "source": "!pip install x\nx = tf.constant(1)"},
    ]}
    script = notebook_to_script(json.dumps(nb))
    assert script == "# %matplotlib inline\nimport tensorflow as tf\n\n# !pip install x\nx = tf.constant(1)\n"


def test_bad_inputs_name_the_file(tmp_path):
    with pytest.raises(MeasureError, match="no such file"):
        script_text(tmp_path / "missing.py")
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    with pytest.raises(MeasureError, match="bad.ipynb: malformed notebook"):
        script_text(bad)
    binary = tmp_path / "bin.py"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(MeasureError, match="not UTF-8"):
        script_text(binary)


def test_next_experiment_never_overwrites(tmp_path):
    assert next_experiment(tmp_path).name == "experiment-1.json"
    (tmp_path / "experiment-1.json").write_text("[]")
    (tmp_path / "experiment-7.json").write_text("[]")
    assert next_experiment(tmp_path).name == "experiment-8.json"


def test_a_notebook_is_resolved_and_instrumented_as_its_script(tmp_path):
    nb = {"cells": [
        {"cell_type": "code", "source": ["%pip install tensorflow\n", "import tensorflow as tf\n"]},
        {"cell_type": "code", "source": ["m = tf.keras.Sequential()\n", "m.compile(loss='mse')\n"]},
    ]}
    path = tmp_path / "train.ipynb"
    path.write_text(json.dumps(nb))
    code, sites = _instrument(script_text(path), path)
    assert [s.api for s in sites] == ["tensorflow.keras.Sequential", "tensorflow.keras.Sequential.compile"]
    assert f"m = {HELPER}(0, tf.keras.Sequential)" in code
    assert json.loads(path.read_text()) == nb  # the user's notebook is only read
