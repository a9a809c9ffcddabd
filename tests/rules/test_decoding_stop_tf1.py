"""GL208 reads TensorFlow 1's identity `==` from the project's pin when the file itself uses no TF1-only name."""

from __future__ import annotations

import pytest

from greenlint.check.config import Config

#: A decoding loop written with TF2 names only: whether its stop can fire depends on the TF version run.
from greenlint.check.pipeline import check_source

DECODER = (
    "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
    "for _ in range(64):\n    out = model(seq)\n    last = tf.argmax(out[:, -1], -1)\n"
    "    if tf.reduce_all(last) == end_id:\n        break\n    seq = tf.concat([seq, last[:, None]], 1)\n"
)


def gl208(tmp_path, pin, predictor):
    (tmp_path / "requirements.txt").write_text(f"tensorflow=={pin}\n")
    path = tmp_path / "decode.py"
    path.write_text(DECODER)
    config = Config(select=("GL208",), no_cache=True)
    return [d for d in check_source(DECODER, str(path), config, predictor) if d.code == "GL208"]


def test_a_project_pinned_to_tensorflow_1_gets_the_finding_with_its_pin(tmp_path, predictor):
    found = gl208(tmp_path, "1.15.0", predictor)
    assert [d.span.line for d in found] == [6]
    assert "TensorFlow 1.15 (pinned in requirements.txt)" in found[0].message


@pytest.mark.parametrize("pin", ["2.10.0", "2.16.1"])
def test_a_project_pinned_to_tensorflow_2_compares_elementwise_and_gets_none(tmp_path, pin, predictor):
    assert gl208(tmp_path, pin, predictor) == []
