"""A rule reports a cause once, where it is written (not again where its effect is consumed)."""

from __future__ import annotations

import textwrap

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from greenlint.rules.numpy_in_step_loop import TRACED_STEP
from greenlint.rules.small_batch_size import TRAINER

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


def test_a_step_batch_is_reported_at_each_literal_setting_it_once_and_never_in_a_test(predictor):
    """Two calls of a trainer's method pass the batch its step runs on: each literal is reported
    once (not again for the step's second call), the one a test passes not at all."""
    code = TRAINER.replace(
        "self.model.train_on_batch(np.zeros((batch_size, 8)), np.ones((batch_size, 1)))",
        "self.model.train_on_batch(np.zeros((batch_size, 8)), np.ones((batch_size, 1)))\n"
        "                self.model.test_on_batch(np.zeros((batch_size, 8)), np.ones((batch_size, 1)))",
    ) + "Trainer().train(epochs=10, batch_size=2)\nTrainer().train(epochs=3, batch_size=2)\n\n\n" \
        "def test_train():\n    Trainer().train(epochs=1, batch_size=2)\n"
    found = check_source(code, "train.py", Config(select=("GL301",), no_cache=True), predictor)
    assert [d.span.line for d in found] == [17, 18]


def test_a_progress_line_reading_two_step_results_is_reported_once(predictor):
    """`'%.4f %.4f' % (loss, acc)` after every step waits for the step once: one GL203 finding on
    the line, on its first read."""
    code = TRACED_STEP + (
        "for i, (x, y) in enumerate(dataset):\n    loss, acc = train_step(x, y)\n"
        "    print('loss %.4f acc %.4f' % (loss, acc))\n"
    )
    found = check_source(code, "train.py", Config(select=("GL203",), no_cache=True), predictor)
    assert [(d.span.line, "`loss`" in d.message) for d in found] == [(16, True)]
