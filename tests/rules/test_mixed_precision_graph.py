"""GL602 on a TF1 graph model (greenlint.rules.training_without_mixed_precision): the update is
built in the model's module, the session run by a trainer beside it, which may choose the precision."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

MODEL = (
    "import tensorflow as tf\nclass Transformer:\n    def train(self, xs, ys):\n        loss = self.forward(xs, ys)\n"
    "        optimizer = tf.compat.v1.train.AdamOptimizer(1e-4)\n        train_op = optimizer.minimize(loss)\n"
    "        return loss, train_op\n"
)
TRAIN = (
    "import tensorflow as tf\nfrom model import Transformer\nloss, train_op = Transformer().train(xs, ys)\n"
    "sess = tf.compat.v1.Session(config=config)\nfor step in range(30000):\n    sess.run(train_op)\n"
)


def _gl602(tmp_path, predictor, train: str) -> list[int]:
    files = {"model.py": MODEL, "train.py": train}
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "model.py", "GL602")]


def test_the_update_of_a_graph_model_named_after_a_large_architecture(tmp_path, predictor):
    assert _gl602(tmp_path, predictor, TRAIN) == [6]


def test_a_trainer_beside_it_that_turns_the_rewrite_on(tmp_path, predictor):
    train = TRAIN.replace("sess =", "config.graph_options.rewrite_options.auto_mixed_precision = 1\nsess =")
    assert _gl602(tmp_path, predictor, train) == []


def test_a_trainer_beside_it_that_sets_the_environment_switch(tmp_path, predictor):
    train = "import os\nos.environ['TF_ENABLE_AUTO_MIXED_PRECISION'] = '1'\n" + TRAIN
    assert _gl602(tmp_path, predictor, train) == []


#: tf-models' Runnable shape: a trainer object's custom step, driven by a script beside it.
RUNNABLE = (
    "import tensorflow as tf\nclass Runnable:\n    def __init__(self, dtype):\n"
    "        self.model = tf.keras.applications.ResNet50(weights=None)\n        self.optimizer = tf.keras.optimizers.SGD()\n"
    "    def step(self, images, labels):\n        with tf.GradientTape() as tape:\n"
    "            loss = tf.reduce_mean(self.model(images, training=True))\n"
    "        grads = tape.gradient(loss, self.model.trainable_variables)\n"
    "        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))\n"
)
MAIN = "import tensorflow as tf\nfrom runnable import Runnable\nr = Runnable(tf.float32)\n"


def _custom(tmp_path, predictor, main: str, runnable: str = RUNNABLE) -> list[int]:
    files = {"runnable.py": runnable, "main.py": main}
    return [d.span.line for d in check_in_project(tmp_path, predictor, files, "runnable.py", "GL602")]


def test_a_custom_step_of_a_trainer_object(tmp_path, predictor):
    assert _custom(tmp_path, predictor, MAIN) == [8]


def test_a_custom_step_whose_driver_beside_it_sets_the_policy(tmp_path, predictor):
    main = MAIN + "tf.keras.mixed_precision.set_global_policy('mixed_float16')\n"
    assert _custom(tmp_path, predictor, main) == []


def test_a_custom_step_in_a_file_that_handles_float16(tmp_path, predictor):
    runnable = RUNNABLE.replace("tf.keras.optimizers.SGD()", "make_optimizer(use_float16=dtype == tf.float16)")
    assert _custom(tmp_path, predictor, MAIN, runnable) == []
