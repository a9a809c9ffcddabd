"""The hook rules reading a Keras callback class of a project module (greenlint.rules.hooks): the
training script imports it (`from utils.callbacks import ...`) and gives an instance to its fit, whose
batches or epochs run the class's hooks. GL311 (a save in the per-batch hook), GL318 (a histogram of
each weight in it), GL317 (the per-epoch hook running the model over the fit's validation data): each
reported where the script makes the callback, the module named."""

from __future__ import annotations

import pytest

from tests.rules.conftest import check_in_project

#: A callback module: a saver whose `{hook}` saves the model (`{gate}`: an `if` around it, or nothing;
#: `{pad}` the indent it adds), and a writer of a histogram of each weight from the same hook.
CALLBACKS = (
    "import tensorflow as tf\n\n\nclass Saver(tf.keras.callbacks.Callback):\n"
    "    def {hook}(self, batch, logs=None):\n{gate}        {pad}self.model.save_weights('last.h5')\n\n\n"
    "class Histograms(tf.keras.callbacks.Callback):\n"
    "    def __init__(self):\n        super().__init__()\n        self.writer = tf.summary.create_file_writer('logs')\n\n"
    "    def {hook}(self, batch, logs=None):\n{gate}        {pad}with self.writer.as_default():\n"
    "            {pad}for w in self.model.weights:\n                {pad}tf.summary.histogram(w.name, w, step=batch)\n"
)
#: The script: 100 batches an epoch of 32 over 3,200 rows, `{fit}` given the callbacks it imports.
TRAIN = (
    "import numpy as np\nimport tensorflow as tf\nfrom utils.callbacks import Histograms, Saver\n"
    "m = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(10)])\n"
    "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((3200, 784)), np.zeros((3200, 10))\n"
    "saver = Saver()\nhistograms = Histograms()\n{fit}\n"
)
#: The line making the callback each rule reports.
MADE = {"GL311": 7, "GL318": 8}
FIT = "m.fit(x, y, batch_size=32, epochs=10, callbacks=[saver, histograms])"


def _found(tmp_path, predictor, code, hook="on_batch_end", gate="", pad="", fit=FIT, module=None, train=TRAIN):
    files = {
        "utils/__init__.py": "",
        "utils/callbacks.py": module or CALLBACKS.format(hook=hook, gate=gate, pad=pad),
        "train.py": train.format(fit=fit),
    }
    return check_in_project(tmp_path, predictor, files, "train.py", code)


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("GL311", "`save_weights()` runs in `on_batch_end` of the callback `Saver` of utils/callbacks.py, which Keras"
         " calls once per batch"),
        ("GL318", "`tf.summary.histogram` of each tensor the loop on line 16 goes over is written in `on_batch_end` of"
         " the callback `Histograms` of utils/callbacks.py, which Keras calls once per batch"),
    ],
)
def test_a_per_batch_hook_of_a_project_callback_is_reported_where_the_script_makes_it(tmp_path, predictor, code, said):
    found = _found(tmp_path, predictor, code)
    assert [d.span.line for d in found] == [MADE[code]]
    assert said in found[0].message


@pytest.mark.parametrize("code", ["GL311", "GL318"])
def test_a_hook_gated_every_few_batches_is_still_reported(tmp_path, predictor, code):
    found = _found(tmp_path, predictor, code, gate="        if batch % 5 == 0:\n", pad="    ")
    assert [d.span.line for d in found] == [MADE[code]]


@pytest.mark.parametrize("code", ["GL311", "GL318"])
@pytest.mark.parametrize(
    ("hook", "gate", "fit"),
    [
        ("on_epoch_end", "", FIT),  # once per epoch
        ("on_batch_end", "        if batch % 100 == 0:\n", FIT),  # every 100 batches
        ("on_batch_end", "        if batch % self.every == 0:\n", FIT),  # a period the module does not show
        ("on_batch_end", "        if logs['loss'] < self.best:\n", FIT),  # on an improvement, not a rate
        ("on_batch_end", "", "m.fit(x, y, batch_size=32, epochs=10)"),  # not given to the fit
        ("on_batch_end", "", FIT.replace("batch_size=32, epochs=10", "batch_size=640, epochs=1")),  # 5 batches a fit
    ],
    ids=["epoch-hook", "period-100", "period-unknown", "on-improvement", "not-given", "few-batches"],
)
def test_a_project_callback_that_runs_rarely_or_is_not_fitted_is_not_reported(tmp_path, predictor, code, hook, gate, fit):
    pad = "    " if gate else ""
    assert _found(tmp_path, predictor, code, hook=hook, gate=gate, pad=pad, fit=fit) == []


@pytest.mark.parametrize("code", ["GL311", "GL318"])
@pytest.mark.parametrize(
    "change",
    [
        ("(tf.keras.callbacks.Callback)", "(tf.keras.callbacks.EarlyStopping)"),  # another callback's behaviour too
        ("(tf.keras.callbacks.Callback)", "(BaseCallback)"),  # a project base class: its behaviour is elsewhere
        ("class Saver", "class Saver2"),  # the module defines no such class: not read
    ],
    ids=["subclass-of-another-callback", "subclass-of-a-project-base", "not-defined-there"],
)
def test_a_class_the_module_does_not_define_directly_on_callback_is_not_read(tmp_path, predictor, code, change):
    module = CALLBACKS.format(hook="on_batch_end", gate="", pad="").replace(*change)
    module = module.replace("class Histograms", "class Histograms2") if change[0] == "class Saver" else module
    assert _found(tmp_path, predictor, code, module=module) == []


@pytest.mark.parametrize("code", ["GL311", "GL318"])
def test_a_checkpoint_or_tensorboard_subclass_doing_its_own_work_every_batch_is_reported(tmp_path, predictor, code):
    module = CALLBACKS.format(hook="on_batch_end", gate="", pad="").replace(
        "Saver(tf.keras.callbacks.Callback)", "Saver(tf.keras.callbacks.ModelCheckpoint)"
    ).replace("Histograms(tf.keras.callbacks.Callback)", "Histograms(tf.keras.callbacks.TensorBoard)")
    assert [d.span.line for d in _found(tmp_path, predictor, code, module=module)] == [MADE[code]]


@pytest.mark.parametrize("code", ["GL311", "GL318"])
def test_a_callback_of_an_installed_package_is_not_read(tmp_path, predictor, code):
    train = TRAIN.replace("from utils.callbacks import", "from keras_extras.callbacks import")
    assert _found(tmp_path, predictor, code, train=train) == []


def test_histograms_a_module_thins_out_with_record_if_are_not_reported(tmp_path, predictor):
    module = CALLBACKS.format(hook="on_batch_end", gate="", pad="").replace(
        "with self.writer.as_default():", "with self.writer.as_default(), tf.summary.record_if(batch % 100 == 0):"
    )
    assert _found(tmp_path, predictor, "GL318", module=module) == []


#: A callback module whose per-epoch hook predicts on `{data}` and scores it, and the script that
#: validates its fit on `x_val, y_val` and gives it the callback.
EVALUATOR = (
    "import numpy as np\nimport tensorflow as tf\nx_val = np.zeros((500, 784))\n\n\n"
    "class Scores(tf.keras.callbacks.Callback):\n    def on_epoch_end(self, epoch, logs=None):\n"
    "        predicted = self.model.predict({data})\n        print(epoch, predicted.mean())\n"
)
VALIDATED = (
    "import numpy as np\nimport tensorflow as tf\nfrom scores import Scores\n"
    "m = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(10)])\n"
    "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((3200, 784)), np.zeros((3200, 10))\n"
    "x_val, y_val = np.zeros((500, 784)), np.zeros((500, 10))\n"
    "m.fit(x, y, epochs=10, validation_data=(x_val, y_val), callbacks=[Scores()])\n"
)


@pytest.mark.parametrize(
    ("data", "lines"),
    [("self.validation_data[0]", [8]), ("x_val", [])],
    ids=["keras-fills-validation-data", "a-global-of-the-module-not-the-fits"],
)
def test_a_per_epoch_hook_of_a_project_callback_rerunning_the_validation_data(tmp_path, predictor, data, lines):
    files = {"scores.py": EVALUATOR.format(data=data), "train.py": VALIDATED}
    found = check_in_project(tmp_path, predictor, files, "train.py", "GL317")
    assert [d.span.line for d in found] == lines
    assert all("(`self.model.predict` at line 8 of scores.py)" in d.message for d in found)


#: A logger module: `log_weights` writes a `{kind}` summary of each of the model's weights (`{gate}`:
#: an `if` around the loop, or nothing; `{pad}` its indent).
LOGGER = (
    "import tensorflow as tf\n\n\nclass Logger:\n    def __init__(self, folder):\n"
    "        self.writer = tf.summary.create_file_writer(folder)\n\n"
    "    def log_weights(self, model, step):\n        with self.writer.as_default():\n"
    "{gate}            {pad}for w in model.weights:\n                {pad}tf.summary.{kind}(w.name, w, step=step)\n"
)
#: A custom training loop of 10,000 steps calling the logger (`{call}`: the statement, with its indent).
LOOP = (
    "import tensorflow as tf\nfrom utils.logger import Logger\n"
    "model = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(10)])\n"
    "opt = tf.keras.optimizers.Adam()\nlogger = Logger('logs')\nfor step in range(10000):\n"
    "    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(model(x, training=True))\n"
    "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
    "{call}\n"
)


def _logged(tmp_path, predictor, call="    logger.log_weights(model, step)", kind="histogram", gate="", pad=""):
    files = {
        "utils/__init__.py": "",
        "utils/logger.py": LOGGER.format(kind=kind, gate=gate, pad=pad),
        "train.py": LOOP.format(call=call),
    }
    return check_in_project(tmp_path, predictor, files, "train.py", "GL318")


@pytest.mark.parametrize(
    ("call", "said"),
    [
        ("    logger.log_weights(model, step)", "`logger.log_weights()` writes `tf.summary.histogram`"
         " (utils/logger.py:11) on every training step"),
        ("    if step % 5 == 0:\n        logger.log_weights(model, step)", "on every 5 training steps"),
    ],
    ids=["every-step", "every-5-steps"],
)
def test_a_project_logger_writing_histograms_called_with_every_step_is_reported(tmp_path, predictor, call, said):
    found = _logged(tmp_path, predictor, call)
    assert [d.span.line for d in found] == [10 + call.count("\n")]
    assert said in found[0].message


@pytest.mark.parametrize(
    ("call", "kind", "gate"),
    [
        ("    if step % 100 == 0:\n        logger.log_weights(model, step)", "histogram", ""),  # every 100 steps
        ("    if step % args.every == 0:\n        logger.log_weights(model, step)", "histogram", ""),  # not known
        ("    logger.log_weights(model, step)", "scalar", ""),  # a scalar a weight: next to nothing
        ("    logger.log_weights(model, step)", "histogram", "            if step % 100 == 0:\n"),  # thinned there
        ("for epoch in range(5):\n    logger.log_weights(model, epoch)", "histogram", ""),  # after the loop trains
    ],
    ids=["period-100", "period-unknown", "scalars", "thinned-in-the-logger", "once-after-training"],
)
def test_a_project_logger_called_rarely_or_writing_little_is_not_reported(tmp_path, predictor, call, kind, gate):
    assert _logged(tmp_path, predictor, call, kind, gate, "    " if gate else "") == []


def test_a_logger_of_an_installed_package_is_not_read(tmp_path, predictor):
    files = {"utils/logger.py": LOGGER.format(kind="histogram", gate="", pad=""),
             "train.py": LOOP.format(call="    logger.log_weights(model, step)").replace("utils.logger", "tb_tools")}
    assert check_in_project(tmp_path, predictor, files, "train.py", "GL318") == []
