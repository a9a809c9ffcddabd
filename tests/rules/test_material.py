"""Findings are reported where their saving is material (greenlint/rules/material.py): not in
test code, not where the counted runs add up to less than a second, and once per change."""

from __future__ import annotations

import pytest

from greenlint.check import Config, check_source

CONSTANT = "import tensorflow as tf\nfor i in range({runs}):\n    print(i, tf.constant([1.0, 2.0]))\n"


def _found(code: str, rule: str, predictor, filename: str = "train.py") -> list:
    return [d for d in check_source(code, filename, Config(select=(rule,), no_cache=True), predictor)]


@pytest.mark.parametrize(("runs", "reported"), [(19_999, False), (20_000, True), (1_000_000, True)])
def test_a_constant_converted_again_is_reported_from_a_second_of_dispatch(predictor, runs, reported):
    """One eager dispatch (50 µs) per run: 20,000 runs are the second that makes it material."""
    found = _found(CONSTANT.format(runs=runs), "GL502", predictor)
    assert bool(found) is reported
    if reported:
        assert f"{runs:,} times" in found[0].message


def test_a_constant_in_a_loop_of_unknown_length_is_priced_per_run(predictor):
    found = _found("import tensorflow as tf\nfor x in xs:\n    y = x * tf.constant([1.0, 2.0])\n", "GL502", predictor)
    assert len(found) == 1 and "about 50 µs of eager dispatch each)" in found[0].message


def test_a_constant_in_a_test_module_is_not_material(predictor):
    code = "import tensorflow as tf\n\n\ndef test_add():\n    for x in xs:\n        y = x * tf.constant([1.0, 2.0])\n"
    assert _found(code, "GL502", predictor) == []
    assert len(_found(code.replace("def test_add", "def add"), "GL502", predictor)) == 1


STEP = (
    "import tensorflow as tf\n\n\ndef {name}(model, data):\n    opt = tf.keras.optimizers.Adam()\n"
    "    for x in data:\n        with tf.GradientTape() as tape:\n            loss = tf.reduce_sum(model(x))\n"
    "        grads = tape.gradient(loss, model.trainable_variables)\n"
    "        opt.apply_gradients(zip(grads, model.trainable_variables))\n"
)


def test_an_eager_step_is_reported_once_at_its_gradient(predictor):
    found = _found(STEP.format(name="fit"), "GL302", predictor)
    assert [d.span.line for d in found] == [9]


def test_an_eager_step_in_a_test_is_not_reported(predictor):
    assert _found(STEP.format(name="test_fit"), "GL302", predictor) == []


def test_the_documented_run_count_is_the_constants():
    from greenlint.predict.work_energy import DISPATCH_S
    from greenlint.rules.constant_in_loop import ConstantInLoop
    from greenlint.rules.material import MIN_SAVING_S

    assert f"fewer than {MIN_SAVING_S / DISPATCH_S:,.0f} runs" in " ".join(ConstantInLoop.doc().split())
