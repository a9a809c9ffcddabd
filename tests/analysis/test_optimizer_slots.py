"""The slots a compiled Keras model's optimizer keeps per weight, which a save of the whole model writes
(greenlint/analysis/slots.py, work.optimizer_work)."""

from __future__ import annotations

from greenlint.analysis.analyse import analyse_source

MODEL = """
import numpy as np
import tensorflow as tf
hidden = tf.keras.layers.Dense(64)
m = tf.keras.Sequential([tf.keras.Input((32,)), hidden, tf.keras.layers.Dense(10)])
FREEZE
m.compile(optimizer=OPTIMIZER, loss="mse")
for step in range(1000):
    m.train_on_batch(np.zeros((8, 32)), np.zeros((8, 10)))
    m.SAVE
"""


def saved(optimizer: str = '"adam"', save: str = 'save("m.keras")', freeze: str = "", train: bool = True) -> dict:
    code = MODEL.replace("OPTIMIZER", optimizer).replace("SAVE", save).replace("FREEZE", freeze)
    if not train:
        code = code.replace("    m.train_on_batch(np.zeros((8, 32)), np.zeros((8, 10)))\n", "    pass\n")
    result = analyse_source(code.lstrip("\n"), "train.py")
    (site,) = [s for s in result.callsites if s.api.rpartition(".")[2] in ("save", "save_weights")]
    return site.work


def test_a_whole_model_save_writes_the_slots_of_the_optimizer_it_trained_with():
    work = saved()
    assert work["params"].value == 32 * 64 + 64 + 64 * 10 + 10
    assert work["optimizer_slots"].value == 2 and "trainable_params" not in work
    assert saved("tf.keras.optimizers.SGD(0.01)")["optimizer_slots"].value == 0
    assert saved("tf.keras.optimizers.SGD(0.01, momentum=0.9)")["optimizer_slots"].value == 1
    assert saved('"rmsprop"')["optimizer_slots"].value == 1
    assert saved("tf.keras.optimizers.Adam(amsgrad=True)")["optimizer_slots"].value == 3


def test_slots_only_for_the_weights_the_compile_trains():
    work = saved(freeze="hidden.trainable = False")
    assert work["optimizer_slots"].value == 2 and work["trainable_params"].value == 64 * 10 + 10


def test_no_slots_without_the_optimizer_or_before_it_trained_or_for_one_not_known():
    for work in (
        saved(save='save_weights("w.weights.h5")'),
        saved(save='save("m.h5", include_optimizer=False)'),
        saved(save='save("m.h5", include_optimizer=args.opt)'),
        saved(train=False),
        saved("make_optimizer()"),
        saved(freeze="if args.freeze:\n    hidden.trainable = False"),
    ):
        assert "params" in work and "optimizer_slots" not in work


CHECKPOINT = """
import tensorflow as tf
hidden = tf.keras.layers.Dense(64)
m = tf.keras.Sequential([tf.keras.Input((32,)), hidden, tf.keras.layers.Dense(10)])
opt = OPTIMIZER
ckpt = tf.train.Checkpoint(model=m, optimizer=opt)
FREEZE


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(m(x) - y))
    opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), TRAINED.trainable_variables))


for step in range(1000):
    train_step(x, y)
    ckpt.save("ckpt")
"""


def checkpointed(optimizer: str = "tf.keras.optimizers.Adam()", trained: str = "m", freeze: str = "") -> dict:
    code = CHECKPOINT.replace("OPTIMIZER", optimizer).replace("TRAINED", trained).replace("FREEZE", freeze)
    result = analyse_source(code.lstrip("\n"), "train.py")
    (site,) = [s for s in result.callsites if s.api == "tensorflow.train.Checkpoint.save"]
    return site.work


def test_a_checkpoint_writes_the_slots_of_the_optimizer_it_tracks_for_the_model_it_trains():
    work = checkpointed()
    params = 32 * 64 + 64 + 64 * 10 + 10
    assert work["params"].value == params and work["trainable_params"].value == params
    assert work["optimizer_slots"].value == 2
    assert checkpointed("tf.keras.optimizers.Adagrad()")["optimizer_slots"].value == 1


def test_no_checkpoint_slots_for_another_model_a_frozen_layer_or_an_optimizer_not_known():
    for work in (
        checkpointed(trained="other"),
        checkpointed(trained="self.model"),
        checkpointed(freeze="hidden.trainable = False"),
        checkpointed("make_optimizer()"),
    ):
        assert "params" in work and "optimizer_slots" not in work
