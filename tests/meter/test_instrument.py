"""Instrumentation of call sites with libcst: what is wrapped, what is left alone, and the runtime."""

from __future__ import annotations

import json

import pytest

from greenlint.analysis.callsite import CallSite, Span
from greenlint.meter.instrument import HELPER, instrument_source
from greenlint.meter.measure import MeasureError, _instrument, next_experiment, script_text

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
    site(SRC, 7, "tf.reduce_sum(x)", "tensorflow.reduce_sum", in_tf_function=True),
    site(SRC, 11, "tf.matmul(x, x)", "tensorflow.matmul", in_keras_step=True),
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


def test_bad_inputs_name_the_file(tmp_path):
    with pytest.raises(MeasureError, match="missing.py"):
        script_text(tmp_path / "missing.py")
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    with pytest.raises(MeasureError, match="bad.ipynb: malformed notebook"):
        _instrument(script_text(bad), bad)
    binary = tmp_path / "bin.py"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(MeasureError, match="bin.py: binary file"):
        script_text(binary)
    wide = tmp_path / "wide.py"
    wide.write_bytes("import tensorflow\n".encode("utf-16"))
    with pytest.raises(MeasureError, match="wide.py: UTF-16 text"):
        script_text(wide)


def test_next_experiment_never_overwrites(tmp_path):
    assert next_experiment(tmp_path).name == "experiment-1.json"
    (tmp_path / "experiment-1.json").write_text("[]")
    (tmp_path / "experiment-7.json").write_text("[]")
    assert next_experiment(tmp_path).name == "experiment-8.json"


def test_a_notebook_is_resolved_and_instrumented_as_check_reads_it(tmp_path):
    """Cells and magics come from greenlint.analysis: a `%%bash` cell is skipped, not a failure,
    and sites keep their cell-relative positions (the profile's keys)."""
    nb = {"cells": [
        {"cell_type": "code", "source": ["%pip install tensorflow\n", "import tensorflow as tf\n"]},
        {"cell_type": "code", "source": ["%%bash\n", "echo hi\n"]},
        {"cell_type": "markdown", "source": ["# text"]},
        {"cell_type": "code", "source": ["m = tf.keras.Sequential()\n", "m.compile(loss='mse')\n"]},
    ]}
    path = tmp_path / "train.ipynb"
    path.write_text(json.dumps(nb))
    code, sites = _instrument(script_text(path), path)
    assert [(s.api, s.cell, s.line) for s in sites] == [
        ("tensorflow.keras.Sequential", 3, 1), ("tensorflow.keras.Sequential.compile", 3, 2)]
    assert f"m = {HELPER}(0, tf.keras.Sequential)" in code
    assert "echo hi" not in code and "pass" in code  # magics blanked by the analysis' own blank_magics
    compile(code, "train.ipynb", "exec")
    assert json.loads(path.read_text()) == nb  # the user's notebook is only read


def test_graph_code_detection_is_the_resolvers(tmp_path):
    """@tf.function bodies and Keras steps are found by greenlint.analysis, not by names here."""
    src = (
        "import tensorflow as tf\n"
        "step = tf.function(lambda x: x)\n"
        "@tf.function(jit_compile=True)\n"
        "def f(x):\n"
        "    return tf.reduce_sum(x)\n"
        "class M(tf.keras.Model):\n"
        "    def train_step(self, data):\n"
        "        return tf.matmul(data, data)\n"
        "y = tf.reduce_sum(tf.ones((2, 2)))\n"
    )
    path = tmp_path / "g.py"
    path.write_text(src)
    code, sites = _instrument(src, path)
    assert "return tf.reduce_sum(x)" in code and "return tf.matmul(data, data)" in code
    lines = {s.line for s in sites}
    assert 9 in lines and not lines & {5, 8}  # module-level calls wrapped, graph bodies not


def test_sites_carry_the_statement_hash_the_linter_computes(tmp_path):
    from greenlint.profile.lookup import statement_hash

    src = "import tensorflow as tf\nx = tf.ones(\n    (2, 2))\n"
    path = tmp_path / "h.py"
    path.write_text(src)
    _, (site,) = _instrument(src, path)
    assert (site.line, site.end_line) == (2, 3)
    assert site.statement == statement_hash(src.splitlines(), 2, 3)
