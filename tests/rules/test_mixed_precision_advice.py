"""GL602's message names the switch the program's Keras has (greenlint.rules.training_without_mixed_precision)."""

from __future__ import annotations

import pytest

from greenlint.check.config import Config
from greenlint.check.pipeline import check_source
from tests.rules.conftest import check_in_project

RESNET = "m = tf.keras.applications.ResNet50(weights=None)\n"


def _messages(code: str, predictor, **options) -> list[str]:
    config = Config(select=("GL602",), options={"material-saving-j": 0.0, **options}, no_cache=True)
    return [d.message for d in check_source(code, "train.py", config, predictor)]


@pytest.mark.parametrize("step", ["m.fit(x, y, epochs=10)", "m.train_on_batch(x, y)"])
def test_keras_own_steps_scale_the_loss_themselves(step, predictor):
    (message,) = _messages("import tensorflow as tf\n" + RESNET + step + "\n", predictor)
    assert "set_global_policy" in message and "LossScaleOptimizer" not in message


def test_a_file_on_tf_keras_is_told_tf_keras_even_beside_an_import_of_keras(predictor):
    code = "import keras\nimport tensorflow as tf\n" + RESNET + "m.fit(x, y, epochs=10)\n"
    (message,) = _messages(code, predictor)
    assert '`tf.keras.mixed_precision.set_global_policy("mixed_float16")`' in message


@pytest.mark.parametrize(
    ("version", "switch"),
    [
        ("2.0", "`tf.train.experimental.enable_mixed_precision_graph_rewrite`"),
        ("2.1", "`tf.keras.mixed_precision.experimental.set_policy("),
        ("2.4", "`tf.keras.mixed_precision.set_global_policy("),
    ],
)
def test_the_switch_follows_the_tensorflow_it_runs_on(version, switch, predictor):
    code = "import tensorflow as tf\n" + RESNET + "m.fit(x, y, epochs=10)\n"
    (message,) = _messages(code, predictor, **{"tensorflow-version": version})
    assert switch in message


def test_the_switch_follows_the_tensorflow_the_readme_pins(tmp_path, predictor):
    files = {
        "README.md": "## Requirements\n+ Python 3.6\n+ Tensorflow == 2.0.0\n",
        "train.py": "import tensorflow as tf\n" + RESNET + "m.fit(x, y, epochs=10)\n",
    }
    (found,) = check_in_project(tmp_path, predictor, files, "train.py", "GL602", {"material-saving-j": 0.0})
    assert "TensorFlow 2.0, pinned in README.md, has none: wrap the optimizer in" in found.message
    assert "set_global_policy" not in found.message


@pytest.mark.parametrize(
    ("version", "scaling"),
    [("2.10", "`get_scaled_loss` before the gradient and `get_unscaled_gradients` after it"), ("2.16", "`scale_loss` before")],
)
def test_a_custom_step_is_told_the_loss_scaling_of_its_keras(version, scaling, predictor):
    code = (
        "import tensorflow as tf\n" + RESNET + "opt = tf.keras.optimizers.SGD()\n"
        "for x, y in batches:\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(m(x, training=True))\n"
        "    opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))\n"
    )
    (message,) = _messages(code, predictor, **{"tensorflow-version": version})
    assert f"its step scaling its loss with a `LossScaleOptimizer`'s {scaling}" in message


def test_a_fit_is_told_to_scale_the_loss_only_where_the_file_overrides_train_step(predictor):
    model = "class Net(tf.keras.Model):\n    def {name}(self, data):\n        return {{}}\n"
    fit = "base = tf.keras.applications.ResNet50(weights=None)\nm = Net(base.input, base.output)\nm.fit(x, y)\n"
    own, other = (
        _messages("import tensorflow as tf\n" + model.format(name=name) + fit, predictor)
        for name in ("train_step", "test_step")
    )
    assert len(own) == len(other) == 1
    assert "its `train_step` scaling its loss" in own[0] and "LossScaleOptimizer" not in other[0]


@pytest.mark.parametrize(("bases", "told"), [("(tf.keras.Model)", True), ("(object)", False), ("", False)])
def test_a_trainer_object_s_own_train_step_is_no_override_of_the_fit_s(bases, told, predictor):
    """A plain class's `train_step` (a trainer's custom loop, as tensorflow/examples' DenseNet `Train`
    keeps beside its `keras_fit` path) is not the step `fit` runs: the fit scales its loss itself."""
    code = (
        "import tensorflow as tf\n" + RESNET + f"class Train{bases}:\n    def train_step(self, x, y):\n"
        "        return x\n    def keras_fit(self):\n        m.fit(x, y, epochs=10)\n"
    )
    (message,) = _messages(code, predictor)
    assert ("its `train_step` scaling its loss" in message) is told


#: A custom step of a program on tf.keras 2, which its own file does not show (`{beside}`: a module beside it).
CUSTOM_STEP = (
    "import tensorflow as tf\n" + RESNET + "opt = tf.keras.optimizers.SGD()\n"
    "for x, y in batches:\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(m(x, training=True))\n"
    "    opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))\n"
)


@pytest.mark.parametrize(
    ("beside", "scaling"),
    [
        ("loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)\n",
         "`get_scaled_loss` before the gradient"),
        ("loss_fn = tf.keras.losses.SparseCategoricalCrossentropy()\n", "`scale_loss` before the gradient"),
    ],
)
def test_a_module_beside_on_tf_keras_2_tells_the_custom_step_its_scaling(beside, scaling, tmp_path, predictor):
    files = {"train.py": CUSTOM_STEP, "distributed_train.py": "import tensorflow as tf\n" + beside}
    options = {"material-saving-j": 0.0, "tensorflow-version": "2.16"}
    (found,) = check_in_project(tmp_path, predictor, files, "train.py", "GL602", options)
    assert f"its step scaling its loss with a `LossScaleOptimizer`'s {scaling}" in found.message


@pytest.mark.parametrize(
    ("chosen", "policy", "scaling"),
    [
        ("import tensorflow as tf, tf_keras\n", "`tf_keras.mixed_precision.set_global_policy(", "`get_scaled_loss`"),
        ("import os\nos.environ['TF_USE_LEGACY_KERAS'] = '1'\nimport tensorflow as tf\n",
         "`tf.keras.mixed_precision.set_global_policy(", "`get_scaled_loss`"),
        ("import tensorflow as tf\n", "`tf.keras.mixed_precision.set_global_policy(", "`scale_loss`"),
    ],
)
def test_keras_2_chosen_on_a_tensorflow_of_keras_3_is_told_keras_2_s_api(chosen, policy, scaling, predictor):
    """From TensorFlow 2.16 `tf.keras` is Keras 3; a program that imports `tf_keras` or sets
    `TF_USE_LEGACY_KERAS` runs Keras 2, as tf-models-official does."""
    code = chosen + CUSTOM_STEP.split("\n", 1)[1]
    (message,) = _messages(code, predictor, **{"tensorflow-version": "2.16"})
    assert policy in message and f"`LossScaleOptimizer`'s {scaling} before the gradient" in message


@pytest.mark.parametrize(("device", "found"), [("/cpu:0", 0), ("/GPU:0", 1)])
def test_a_training_placed_on_the_host_is_not_reported(device, found, predictor):
    code = "import tensorflow as tf\n" + RESNET + f"with tf.device({device!r}):\n    m.fit(x, y, epochs=10)\n"
    assert len(_messages(code, predictor)) == found


def test_a_custom_step_on_the_graph_rewrite_is_told_to_use_its_minimize(predictor):
    code = (
        "import tensorflow as tf\n" + RESNET + "opt = tf.keras.optimizers.SGD()\n"
        "for x, y in batches:\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(m(x, training=True))\n"
        "    opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))\n"
    )
    (custom,) = _messages(code, predictor, **{"tensorflow-version": "2.0"})
    (fit,) = _messages("import tensorflow as tf\n" + RESNET + "m.fit(x, y)\n", predictor, **{"tensorflow-version": "2.0"})
    assert "its step computing its gradients through its `minimize`" in custom and "`minimize`" not in fit


@pytest.mark.parametrize(("method", "told"), [("train_step", True), ("call", False)])
def test_an_imported_model_class_overriding_train_step_is_told_to_scale_its_loss(tmp_path, predictor, method, told):
    files = {
        "nets.py": f"import tensorflow as tf\nclass Net(tf.keras.Model):\n    def {method}(self, data):\n        return {{}}\n",
        "train.py": "import tensorflow as tf\nfrom nets import Net\nbase = tf.keras.applications.ResNet50(weights=None)\n"
        "m = Net(base.input, base.output)\nm.fit(x, y)\n",
    }
    (found,) = check_in_project(tmp_path, predictor, files, "train.py", "GL602", {"material-saving-j": 0.0})
    assert ("its `train_step` scaling its loss" in found.message) is told


#: A TF1 factory named after a large architecture builds its update from gradients it takes itself.
GRAPH_UPDATE = (
    "import tensorflow as tf\ndef build_resnet50(images, labels):\n    loss = resnet(images, labels)\n"
    "    opt = tf.compat.v1.train.MomentumOptimizer(0.1, 0.9)\n    tvars = tf.compat.v1.trainable_variables()\n"
    "    {grads}\n    return opt.apply_gradients(zip(grads, tvars))\n"
)


@pytest.mark.parametrize("take", ["tf.gradients(loss, tvars)", "tf.compat.v1.gradients(loss, tvars)"])
def test_graph_gradients_taken_outside_the_optimizer_are_told_to_go_through_it(take, predictor):
    (message,) = _messages(GRAPH_UPDATE.format(grads=f"grads = {take}"), predictor)
    assert "and take the gradients with its `compute_gradients`" in message


def test_graph_gradients_the_optimizer_takes_need_nothing_more(predictor):
    taken = "grads = [g for g, _ in opt.compute_gradients(loss, tvars)]\n    saliency = tf.gradients(loss, images)"
    code = GRAPH_UPDATE.format(grads=taken)
    (message,) = _messages(code, predictor)
    assert "enable_mixed_precision_graph_rewrite`, TF >= 1.14" in message and "compute_gradients`" not in message


def test_a_gradient_penalty_taken_with_tf_gradients_beside_a_minimize_needs_nothing_more(predictor):
    code = (
        "import tensorflow as tf\ndef build_resnet50(images, labels):\n    loss = resnet(images, labels)\n"
        "    penalty = tf.reduce_sum(tf.gradients(loss, images)[0] ** 2)\n"
        "    return tf.compat.v1.train.AdamOptimizer(1e-4).minimize(loss + penalty)\n"
    )
    (message,) = _messages(code, predictor)
    assert "enable_mixed_precision_graph_rewrite`, TF >= 1.14" in message and "compute_gradients`" not in message


#: BERT's shape: the `model_fn` returns the update a project module's function builds.
ESTIMATOR = (
    "import tensorflow as tf\nimport optimization\ndef model_fn(features, labels, mode):\n"
    "    loss = resnet50(features, labels)\n    op = optimization.create_optimizer(loss, 1e-4)\n"
    "    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=op)\n"
    "est = tf.estimator.Estimator(model_fn=model_fn)\nest.train(input_fn, max_steps=100000)\n"
)
OPTIMIZATION = (
    "import tensorflow as tf\ndef create_optimizer(loss, lr):\n    opt = tf.compat.v1.train.AdamOptimizer(lr)\n"
    "    tvars = tf.compat.v1.trainable_variables()\n    {grads}\n    return opt.apply_gradients(zip(grads, tvars))\n"
)


@pytest.mark.parametrize(
    ("grads", "told"),
    [("grads = tf.gradients(loss, tvars)", True), ("grads = [g for g, _ in opt.compute_gradients(loss, tvars)]", False)],
)
def test_an_update_a_project_module_builds_from_tf_gradients(grads, told, tmp_path, predictor):
    files = {"train.py": ESTIMATOR, "optimization.py": OPTIMIZATION.format(grads=grads)}
    (finding,) = check_in_project(tmp_path, predictor, files, "train.py", "GL602", {"material-saving-j": 0.0})
    assert "enable_mixed_precision_graph_rewrite" in finding.message
    assert ("take the gradients with its `compute_gradients`" in finding.message) is told


CLIPPING = (
    "import tensorflow as tf\n"
    + RESNET
    + "m.compile(optimizer=tf.keras.optimizers.Adam(1e-5, clipnorm=0.001), loss='mse')\nm.fit(x, y, epochs=10)\n"
)
TOLD = "before the model is built, on TensorFlow 2.4 or later: the `LossScaleOptimizer` of 2.3 and older rejects"
MATERIAL = {"material-saving-j": 0.0}


@pytest.mark.parametrize(
    ("pins", "told"),
    [
        ({}, True),
        ({"requirements.txt": "tensorflow>=2.3\n"}, True),
        ({"requirements.txt": "tensorflow==2.10\n"}, False),
    ],
)
def test_a_clipping_optimizer_is_told_the_tensorflow_its_policy_needs(pins, told, tmp_path, predictor):
    (found,) = check_in_project(tmp_path, predictor, {"train.py": CLIPPING, **pins}, "train.py", "GL602", MATERIAL)
    assert (TOLD in found.message) is told


def test_an_optimizer_that_does_not_clip_is_told_no_version(tmp_path, predictor):
    code = CLIPPING.replace(", clipnorm=0.001", "")
    (found,) = check_in_project(tmp_path, predictor, {"train.py": code}, "train.py", "GL602", MATERIAL)
    assert "TensorFlow 2.4 or later" not in found.message
