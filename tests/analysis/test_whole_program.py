"""Training code as research repositories write it: models and sessions passed between functions,
classes and modules, built from tables of constructors, trained from generators or GradientTape
steps. Their call sites, the work they carry and how often they run."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_file


def write(folder, files: dict[str, str]) -> None:
    for name, code in files.items():
        (folder / name).write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")


def sites(path) -> dict[tuple[int, str], object]:
    result = analyse_file(path)
    assert result.errors == []
    return {(s.span.line, s.api): s for s in result.callsites}


def value(site, key):
    return site.work[key].value


GAN_MODEL = """
import numpy as np
import tensorflow as tf


class GAN(object):
    def __init__(self, sess, batch_size=64):
        self.sess = sess
        self.batch_size = batch_size
        self.build_model()

    def build_model(self):
        self.z = tf.placeholder(tf.float32, [None, 100])
        self.loss = tf.reduce_mean(tf.layers.dense(self.z, 784))
        self.optim = tf.train.AdamOptimizer(0.0002).minimize(self.loss)

    def train(self, epochs):
        for epoch in range(epochs):
            for idx in range(100):
                z = np.random.uniform(-1, 1, [self.batch_size, 100])
                self.sess.run(self.optim, feed_dict={self.z: z})
                err = self.loss.eval({self.z: z})
"""


def test_a_tf1_gan_whose_session_comes_from_another_module_still_lists_its_session_runs(tmp_path):
    write(tmp_path, {
        "main.py": """
            import tensorflow as tf
            from model import GAN

            with tf.Session() as sess:
                GAN(sess).train(epochs=25)
            """,
        "model.py": GAN_MODEL,
    })
    found = sites(tmp_path / "model.py")
    run = found[(20, "tensorflow.compat.v1.Session.run")]
    assert run.features["receiver"] == "constructor"  # the session main.py makes and passes (constructed.Made)
    assert run.runs.count is None  # train() is called in main.py only
    assert (21, "tensorflow.Tensor.eval") in found  # the loss is an attribute set in another method


def test_a_session_run_on_what_a_session_getter_returns_is_listed(tmp_path):
    write(tmp_path, {"util.py": """
        import tensorflow as tf
        from helpers import get_session, make_runner


        class Function:
            def __call__(self, feed):
                return get_session().run(self.outputs, feed_dict=feed)


        def step(outputs):
            return make_runner().run(outputs)
        """})
    found = sites(tmp_path / "util.py")
    run = found[(7, "tensorflow.compat.v1.Session.run")]
    assert run.features["receiver_kind"] == "untyped"
    assert not any(line == 11 for line, _ in found)  # `make_runner()` names no session: not taken for one


def test_the_same_gan_in_one_file_types_the_session_set_in_init_and_counts_its_runs(tmp_path):
    write(tmp_path, {"gan.py": GAN_MODEL + "\n\nwith tf.Session() as sess:\n    GAN(sess).train(epochs=25)\n"})
    run = sites(tmp_path / "gan.py")[(20, "tensorflow.compat.v1.Session.run")]
    assert "receiver_kind" not in run.features  # typed from `self.sess = sess`, bound by the constructor's call
    assert run.runs.count == 25 * 100


def test_a_segmentation_library_binds_its_train_function_to_models_from_a_table(tmp_path):
    write(tmp_path, {
        "models.py": """
            import types
            from functools import partial
            from tensorflow import keras


            def train(model, x, y, epochs=5):
                return model.fit(x, y, epochs=epochs, batch_size=8)


            def predict(model, img):
                return model.predict(img)


            def build_unet(n_classes):
                inp = keras.Input((64, 64, 3))
                model = keras.Model(inp, keras.layers.Conv2D(4, 3, padding="same")(inp))
                model.train = types.MethodType(train, model)
                return model


            def build_fcn(n_classes):
                inp = keras.Input((64, 64, 3))
                model = keras.Model(inp, keras.layers.Conv2D(4, 1)(inp))
                model.predict_one = partial(predict, model)
                return model


            MODELS = {"unet": build_unet, "fcn": build_fcn}
            """,
        "run.py": """
            import os
            import numpy as np
            from models import MODELS

            model = MODELS["unet"](4)
            for name in os.listdir("frames"):
                model.predict(np.zeros((1, 64, 64, 3)))
            """,
    })
    found = sites(tmp_path / "models.py")
    fit = found[(7, "tensorflow.keras.Model.fit")]
    assert "receiver_kind" not in fit.features  # the model types.MethodType binds
    assert value(fit, "params") == 3 * 3 * 3 * 4 + 4 and value(fit, "batch_size") == 8
    assert fit.work["epochs"].provenance == "unknown"  # the bound method's callers are elsewhere
    assert fit.runs.count is None
    predict = found[(11, "tensorflow.keras.Model.predict")]
    assert "receiver_kind" not in predict.features and value(predict, "params") == 3 * 4 + 4  # functools.partial
    assert predict.runs.count is None and "bound" in predict.runs.note
    assert predict.runs.loop == 1  # called where greenlint cannot see: no loop known (not an unknown one)
    used = sites(tmp_path / "run.py")[(7, "tensorflow.keras.Model.predict")]
    assert "receiver_kind" not in used.features  # a model from the other module's table of constructors
    assert value(used, "samples") == 1 and used.runs.count is None


def test_an_untyped_model_parameter_is_listed_with_the_work_its_arguments_show(tmp_path):
    write(tmp_path, {"lib.py": """
        from tensorflow import keras


        def train(model, ds):
            model.fit(ds, epochs=20, initial_epoch=5, steps_per_epoch=100)
        """})
    [fit] = [s for s in sites(tmp_path / "lib.py").values() if s.api == "tensorflow.keras.Model.fit"]
    assert fit.features["receiver_kind"] == "untyped"
    assert value(fit, "epochs") == 20 and value(fit, "initial_epoch") == 5 and value(fit, "steps") == 15 * 100
    assert fit.work["flops_per_sample"].note == "receiver not resolved: matched by method name and arguments"


def test_an_untyped_call_is_listed_only_when_its_arguments_fit_the_keras_signature(tmp_path):
    # an RL agent from a module greenlint cannot resolve has a `fit` of its own (issue #26): its
    # keywords are no parameters of a Keras model's; Keras 2's and 1's own names still are
    write(tmp_path, {"train.py": """
        from tensorflow import keras
        from rl.agents import DQNAgent


        def train(agent, model, net, old, x, y, db):
            agent.fit(env, nb_steps=50000, visualize=False, verbose=2)
            model.fit(x, y, epochs=5)
            net.fit(x, y, epochs=5, workers=4, use_multiprocessing=True)
            old.fit(x, y, nb_epoch=10)
            agent.predict_on_batch(x, y)
            db.session.run(query, timeout=5)
            db.session.run(train_op, feed_dict={x: 1})
        """})
    found = sites(tmp_path / "train.py")
    assert sorted(line for line, _ in found) == [7, 8, 9, 12]
    assert found[(7, "tensorflow.keras.Model.fit")].features["receiver_kind"] == "untyped"
    assert value(found[(9, "tensorflow.keras.Model.fit")], "epochs") == 10  # Keras 1's nb_epoch


def test_an_evaluation_helper_importing_no_keras_still_lists_the_keras_only_methods(tmp_path):
    # the helper is given the model and imports numpy and the project's own modules only:
    # `predict_on_batch` is Keras's (no other library names a method so), `predict` may not be
    write(tmp_path, {"boxes.py": "def area(b):\n    return b\n", "evaluate.py": """
        import numpy as np
        from boxes import area


        def detections(generator, model):
            for i in range(generator.size()):
                image = generator.load_image(i)
                boxes = model.predict_on_batch(np.expand_dims(image, axis=0))
                scores = model.predict(image)
        """})
    found = sites(tmp_path / "evaluate.py")
    assert found[(8, "tensorflow.keras.Model.predict_on_batch")].features["receiver_kind"] == "untyped"
    assert not any(line == 9 for line, _ in found)


def test_models_of_two_classes_passed_to_one_function_give_their_common_base(tmp_path):
    write(tmp_path, {"two.py": """
        from tensorflow import keras


        def score(model, x):
            return model.predict(x)


        score(keras.Sequential(), [1])
        score(keras.Model(), [1])
        """})
    predict = sites(tmp_path / "two.py")[(5, "tensorflow.keras.Model.predict")]
    assert "receiver_kind" not in predict.features and predict.runs.count == 2


def test_a_detector_trained_from_a_generator_resuming_at_epoch_50(tmp_path):
    write(tmp_path, {"train.py": """
        import numpy as np
        from tensorflow import keras

        BATCH = 16


        def generator(paths):
            while True:
                for i in range(0, len(paths), BATCH):
                    yield np.zeros((BATCH, 64, 64, 3)), np.zeros((BATCH, 10))


        inp = keras.Input((64, 64, 3))
        x = keras.layers.GlobalAveragePooling2D()(keras.layers.Conv2D(8, 3)(inp))
        model = keras.Model(inp, keras.layers.Dense(10)(x))
        model.fit_generator(generator(["a"] * 1000), steps_per_epoch=62, epochs=100, initial_epoch=50,
                            validation_data=generator(["b"] * 100), validation_steps=6)
        for step in range(10):
            model.train_on_batch(np.zeros((16, 64, 64, 3)), np.zeros((16, 10)))
        """})
    found = sites(tmp_path / "train.py")
    fit = found[(16, "tensorflow.keras.Model.fit_generator")]
    assert value(fit, "epochs") == 100 and value(fit, "initial_epoch") == 50
    assert value(fit, "steps_per_epoch") == 62 and value(fit, "steps") == 50 * 62 and value(fit, "validation_steps") == 6
    assert value(fit, "batch_size") == 16 and "generator" in fit.work["batch_size"].note
    assert fit.work["samples"].provenance == "unknown"  # how many batches a generator yields is not known
    params = 3 * 3 * 3 * 8 + 8 + 8 * 10 + 10
    assert value(fit, "params") == params
    on_batch = found[(19, "tensorflow.keras.Model.train_on_batch")]
    assert value(on_batch, "samples") == 16 and value(on_batch, "params") == params
    assert value(on_batch, "flops_per_sample") == value(fit, "flops_per_sample") and on_batch.runs.count == 10


def test_a_custom_gradient_tape_loop_is_one_training_step_per_batch(tmp_path):
    write(tmp_path, {"tape.py": """
        import numpy as np
        import tensorflow as tf
        from tensorflow import keras

        model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4)])
        optimizer = keras.optimizers.Adam()
        ds = tf.data.Dataset.from_tensor_slices((np.zeros((640, 8)), np.zeros(640))).batch(64)


        @tf.function
        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(model(x, training=True))
            grads = tape.gradient(loss, model.trainable_weights)
            optimizer.apply_gradients(zip(grads, model.trainable_weights))


        for epoch in range(3):
            for x, y in ds:
                train_step(x, y)
        model(np.zeros((5, 8)))
        """})
    found = sites(tmp_path / "tape.py")
    step = found[(13, "tensorflow.keras.Sequential.__call__")]
    assert value(step, "step") == "training" and value(step, "params") == 8 * 4 + 4
    assert value(step, "samples") == 64  # one batch of the data set the loop reads
    assert step.runs.count == 3 * 10
    for key in ((14, "tensorflow.GradientTape.gradient"), (15, "tensorflow.keras.optimizers.Adam.apply_gradients")):
        assert found[key].work["symbolic"].note == "counted in the training step at line 13"
    eager = found[(21, "tensorflow.keras.Sequential.__call__")]
    assert value(eager, "step") == "inference" and value(eager, "samples") == 5


def test_models_of_libraries_built_on_keras_are_keras_models(tmp_path):
    write(tmp_path, {"cv.py": """
        import keras_hub
        import tensorflow_datasets as tfds
        from keras_cv.models import RetinaNet

        ds = tfds.load("mnist", split="train")
        model = RetinaNet.from_preset("resnet50_imagenet", num_classes=20)
        model.fit(ds.batch(8), epochs=10)
        tokenizer = keras_hub.models.BertTokenizer.from_preset("bert_base_en")
        tokenizer.predict(["a"])
        """})
    found = sites(tmp_path / "cv.py")
    fit = found[(7, "tensorflow.keras.Model.fit")]
    assert fit.features["receiver"] == "library" and value(fit, "samples") == 60000 and value(fit, "steps") == 7500 * 10
    assert fit.work["flops_per_sample"].provenance == "unknown"  # the library's model is not built here
    assert not any(line == 9 for line, _ in found)  # a tokenizer is not a model


def test_the_call_of_a_tf_function_carries_the_work_its_body_runs(tmp_path):
    write(tmp_path, {"gan.py": """
        import tensorflow as tf
        from tensorflow import keras

        G = keras.Sequential([keras.Input((16,)), keras.layers.Dense(32)])
        D = keras.Sequential([keras.Input((32,)), keras.layers.Dense(1)])
        opt = keras.optimizers.Adam()


        @tf.function
        def train_d(x_real):
            with tf.GradientTape() as tape:
                fake = G(tf.random.normal((50, 16)), training=True)
                loss = tf.reduce_mean(D(fake, training=True)) - tf.reduce_mean(D(x_real, training=True))
            opt.apply_gradients(zip(tape.gradient(loss, D.trainable_variables), D.trainable_variables))


        def sample(z):
            return G(z)


        fast_sample = tf.function(sample)
        for step in range(40):
            train_d(tf.random.normal((50, 32)))
        fast_sample(tf.random.normal((10, 16)))
        """})
    found = sites(tmp_path / "gan.py")
    call = found[(23, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert call.runs.count == 40
    assert value(call, "step") == "training" and value(call, "samples") == 50
    g, d = 16 * 32 * 2, 32 * 1 * 2  # forward FLOPs per sample (a multiply-add is 2)
    assert value(call, "flops_per_sample") == g + 2 * d  # G once, D twice
    assert value(call, "params") == (16 * 32 + 32) + (32 + 1)  # D called twice, updated once
    for line, col in ((12, "G"), (13, "D")):
        model = [s for (ln, api), s in found.items() if ln == line and api.endswith("Sequential.__call__")]
        assert model and all(value(s, "symbolic") is True for s in model), col
        assert all("counted where train_d is called (line 23)" in s.work["symbolic"].note for s in model)
    wrapped = found[(24, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert value(wrapped, "step") == "inference" and value(wrapped, "samples") == 10
    assert value(wrapped, "flops_per_sample") == g and "params" not in wrapped.work


def test_a_tf_function_looping_over_its_batches_runs_that_many_steps_per_call(tmp_path):
    write(tmp_path, {"epoch.py": """
        import numpy as np
        import tensorflow as tf
        from tensorflow import keras

        model = keras.Sequential([keras.Input((16,)), keras.layers.Dense(32)])
        ds = tf.data.Dataset.from_tensor_slices(np.zeros((1000, 16), "float32")).batch(50)
        opt = keras.optimizers.Adam()


        @tf.function
        def train_epoch(data):
            for xb in data:
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(model(xb, training=True))
                opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            return model(tf.zeros((50, 16)))


        for epoch in range(3):
            train_epoch(ds)
        """})
    found = sites(tmp_path / "epoch.py")
    call = found[(20, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert call.runs.count == 3
    assert value(call, "step") == "training" and value(call, "samples") == 50
    assert value(call, "steps") == 1000 // 50  # the loop over the data set's batches, in the graph
    # the forward pass after the loop runs once per call: 1/20 of a step's FLOPs more
    assert value(call, "flops_per_sample") == round(16 * 32 * 2 * (1 + 1 / 20))
    assert value(call, "activations_per_sample") == round(32 * (1 + 1 / 20))  # the Dense's outputs, summed alike


def test_a_tf_function_never_called_here_leaves_its_body_priced(tmp_path):
    write(tmp_path, {"steps.py": """
        import tensorflow as tf
        from tensorflow import keras

        model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4)])


        @tf.function
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(model(x, training=True))
            return tape.gradient(loss, model.trainable_variables)
        """})
    found = sites(tmp_path / "steps.py")
    step = found[(10, "tensorflow.keras.Sequential.__call__")]
    assert value(step, "step") == "training" and "symbolic" not in step.work
    assert not any(api.endswith("PolymorphicFunction.__call__") for _, api in found)


def test_a_function_named_in_a_help_string_and_a_comment_still_binds_its_parameters_from_its_calls(tmp_path):
    write(tmp_path, {"train.py": """
        import argparse
        import tensorflow as tf

        parser = argparse.ArgumentParser()
        parser.add_argument("--every", help="how many steps to save after")  # not a call of save


        def save(saver, sess, step):
            saver.save(sess, "ckpt", global_step=step)


        def main():
            sess = tf.compat.v1.Session()
            saver = tf.compat.v1.train.Saver()
            for step in range(10):
                # save every step
                save(saver, sess, step)


        main()
        """})
    found = sites(tmp_path / "train.py")
    saved = found[(9, "tensorflow.compat.v1.train.Saver.save")]  # typed: every reference to save() is a call
    assert saved.runs.count == 10


def test_a_tf_function_method_whose_loss_helper_runs_the_model_under_the_tape(tmp_path):
    write(tmp_path, {"trainer.py": """
        import tensorflow as tf
        from tensorflow import keras


        def compute_loss(model, x):
            return tf.reduce_mean(model(x, training=True))


        class Trainer:
            def __init__(self):
                self.model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4)])
                self.opt = keras.optimizers.Adam()

            @tf.function(jit_compile=True)
            def train_step(self, x):
                with tf.GradientTape() as tape:
                    loss = compute_loss(self.model, x)
                grads = tape.gradient(loss, self.model.trainable_variables)
                self.opt.apply_gradients(zip(grads, self.model.trainable_variables))

            def fit(self, n):
                for _ in range(n):
                    self.train_step(tf.zeros((16, 8)))


        Trainer().fit(100)
        """})
    found = sites(tmp_path / "trainer.py")
    call = found[(23, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert call.runs.count == 100 and value(call, "step") == "training" and value(call, "samples") == 16
    assert value(call, "flops_per_sample") == 2 * 8 * 4 and value(call, "params") == 8 * 4 + 4
    forward = found[(6, "tensorflow.keras.Sequential.__call__")]
    assert value(forward, "step") == "training" and value(forward, "symbolic") is True  # counted at line 23
    for key in ((18, "tensorflow.GradientTape.gradient"), (19, "tensorflow.keras.optimizers.Adam.apply_gradients")):
        assert found[key].work["symbolic"].note == "counted in the training step at line 6"


def test_a_helper_called_from_a_traced_step_and_eagerly_counts_its_eager_runs_and_its_traced_work(tmp_path):
    write(tmp_path, {"vae.py": """
        import numpy as np
        import tensorflow as tf
        from tensorflow import keras


        class Net(keras.Model):
            def __init__(self):
                super().__init__()
                self.body = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4)])

            def forward(self, x):
                return self.body(x)


        def prepare(a):
            a = a.reshape((a.shape[0], 8)) / 255.
            return np.where(a > .5, 1.0, 0.0).astype("float32")


        def compute_loss(net, x):
            return tf.reduce_mean(net.forward(x))


        @tf.function
        def train_step(net, x, opt):
            with tf.GradientTape() as tape:
                loss = compute_loss(net, x)
            opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))


        train, test = prepare(np.zeros((640, 2, 4))), prepare(np.zeros((64, 8)))
        net, opt = Net(), keras.optimizers.Adam()
        for epoch in range(3):
            for x in tf.data.Dataset.from_tensor_slices(train).batch(32):
                train_step(net, x, opt)
            for x in tf.data.Dataset.from_tensor_slices(test).batch(32):
                compute_loss(net, x)
        """})
    found = sites(tmp_path / "vae.py")
    step = found[(35, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert step.runs.count == 3 * 20  # each prepared array keeps its own rows: 640 / 32 batches
    # the model call two helpers down from the tape is its training step
    assert value(step, "step") == "training" and value(step, "flops_per_sample") == 2 * 8 * 4
    forward = found[(12, "tensorflow.keras.Sequential.__call__")]
    assert forward.runs.count == 3 * 2  # the eager calls only: traced ones run in train_step's graph
    assert "symbolic" not in forward.work
    assert "traced into a graph" in found[(21, "tensorflow.reduce_mean")].runs.note
    assert found[(21, "tensorflow.reduce_mean")].runs.count == 3 * 2


VAE_STEPS = """
import tensorflow as tf
from tensorflow import keras

net = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4)])
opt = keras.optimizers.Adam()


def decode(x):
    return net(x)


def compute_loss(x):
    return tf.reduce_mean(decode(x))


@tf.function
def train_step(x):
    with tf.GradientTape() as tape:
        loss = compute_loss(x)
    opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))


@tf.function
def sample(x):
    return decode(x)


for epoch in range(3):
    train_step(tf.zeros((32, 8)))
    compute_loss(tf.zeros((32, 8)))
    sample(tf.zeros((16, 8)))
{eager}
"""


def test_a_helper_taped_only_in_a_traced_step_runs_eagerly_and_in_other_graphs_as_inference(tmp_path):
    """cvae's `decode`: a tf.function's tape makes its model call a training step there; its eager
    calls (evaluating the loss) and the tf.function that calls it with no tape open (`sample`) run no
    tape: inference steps, not training ones priced again."""
    write(tmp_path, {"vae.py": VAE_STEPS.format(eager="")})
    found = sites(tmp_path / "vae.py")
    assert value(found[(29, "tensorflow.types.experimental.PolymorphicFunction.__call__")], "step") == "training"
    generate = found[(31, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert value(generate, "step") == "inference"
    forward = found[(9, "tensorflow.keras.Sequential.__call__")]
    assert forward.runs.count == 3 and "symbolic" not in forward.work  # the eager calls of compute_loss
    assert value(forward, "step") == "inference" and "traced into a tf.function" in forward.work["step"].note


def test_a_helper_also_taped_eagerly_keeps_its_training_step(tmp_path):
    write(tmp_path, {"vae.py": VAE_STEPS.format(eager="with tf.GradientTape() as tape:\n    compute_loss(tf.zeros((32, 8)))")})
    forward = sites(tmp_path / "vae.py")[(9, "tensorflow.keras.Sequential.__call__")]
    assert value(forward, "step") == "training"


def test_a_session_run_fetching_the_optimizer_update_is_one_training_step_on_the_batch_fed(tmp_path):
    write(tmp_path, {"gan.py": GAN_MODEL + "\n\nwith tf.Session() as sess:\n    GAN(sess).train(epochs=25)\n"})
    found = sites(tmp_path / "gan.py")
    train = found[(20, "tensorflow.compat.v1.Session.run")]
    assert value(train, "step") == "training" and "built at line 14" in train.work["step"].note
    assert value(train, "samples") == 64  # the rows of z, fed to the placeholder
    forward = 2 * 100 * 784 + 784  # the loss's graph from z: the dense layer, then the mean of its outputs
    assert value(train, "flops_per_sample") == forward and train.work["flops_per_sample"].bound is None
    evaluated = found[(21, "tensorflow.Tensor.eval")]  # a loss evaluated: no update fetched, one run of the graph
    assert value(evaluated, "step") == "inference" and value(evaluated, "samples") == 64  # eval(feed_dict) fed z
    assert value(evaluated, "flops_per_sample") == forward


def test_every_session_run_is_one_run_of_the_graph_on_the_batch_fed(tmp_path):
    write(tmp_path, {"policy.py": """
        import numpy as np
        import tensorflow as tf

        x = tf.placeholder(tf.float32, [None, 4])
        logits = tf.layers.dense(x, 2)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        for t in range(1000):
            action = sess.run(logits, feed_dict={x: np.zeros((8, 4))})
            probs = sess.run([logits], {x: np.zeros((1, 4))})
        """})
    found = sites(tmp_path / "policy.py")
    act = found[(9, "tensorflow.compat.v1.Session.run")]
    assert value(act, "step") == "inference" and value(act, "samples") == 8 and act.runs.count == 1000
    assert "no optimizer update" in act.work["step"].note
    assert value(found[(10, "tensorflow.compat.v1.Session.run")], "samples") == 1  # feed_dict given by position
    init = found[(7, "tensorflow.compat.v1.Session.run")]
    assert value(init, "step") == "inference" and init.work["samples"].provenance == "unknown"


def test_a_distributed_step_run_by_a_strategy_from_a_tf_function_is_counted_at_its_call(tmp_path):
    write(tmp_path, {"dist.py": """
        import tensorflow as tf
        from tensorflow import keras

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(4)])
            opt = keras.optimizers.Adam()


        def step_fn(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(model(x, training=True))
            opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


        @tf.function
        def distributed_train_step(x):
            return strategy.run(step_fn, args=(x,))


        for _ in range(50):
            distributed_train_step(tf.zeros((16, 8)))
        """})
    found = sites(tmp_path / "dist.py")
    call = found[(22, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert call.runs.count == 50 and value(call, "step") == "training"
    assert value(call, "samples") == 16 and value(call, "params") == 8 * 4 + 4  # x passed through args=(x,)
    forward = found[(12, "tensorflow.keras.Sequential.__call__")]
    assert value(forward, "symbolic") is True and forward.runs.count == 50
    assert found[(12, "tensorflow.reduce_mean")].features["in_tf_function"]  # traced: run from the tf.function


def test_a_helper_module_importing_no_tf_still_lists_the_methods_only_keras_has(tmp_path):
    write(tmp_path, {"evaluate.py": """
        import numpy as np


        def detections(generator, model):
            for i in range(generator.size()):
                image = generator.load_image(i)
                boxes = model.predict_on_batch([np.expand_dims(image, axis=0)])
                labels = model.predict(image)  # sklearn has predict too: not taken for Keras here
            return boxes, labels
        """})
    found = sites(tmp_path / "evaluate.py")
    assert list(found) == [(7, "tensorflow.keras.Model.predict_on_batch")]
    batch = found[(7, "tensorflow.keras.Model.predict_on_batch")]
    assert batch.features["receiver_kind"] == "untyped" and batch.runs.count is None


NCF_EVALUATE = """
    import heapq
    import numpy as np

    _model = None


    def evaluate_model(model, ratings, k):
        global _model
        _model = model
        return [eval_one_rating(idx, ratings, k) for idx in range(len(ratings))]


    def eval_one_rating(idx, ratings, k):
        items = ratings[idx]
        users = np.full(len(items), idx, dtype="int32")
        predictions = _model.predict([users, np.array(items)], batch_size=100, verbose=0)
        return heapq.nlargest(k, range(len(items)), key=lambda i: predictions[i])
    """


@pytest.mark.parametrize("estimators", ["", "from sklearn.linear_model import LogisticRegression\n"])
@pytest.mark.parametrize("built", ["Model(inputs=[u, i], outputs=p)", "make_model()"])
def test_a_helper_importing_no_tf_that_only_keras_scripts_import_takes_their_predict_for_keras(tmp_path, estimators, built):
    # the leave-one-out evaluation of a recommender: the model kept in a module global, one predict per user.
    # A Keras model the script builds and passes types it (constructed.Made), whatever else the script imports;
    # one it cannot type (`make_model()` of no import) is taken for Keras's by the name of its method, unless
    # a script importing the helper also imports a library with estimators of its own: `predict` may be its
    write(tmp_path, {"evaluate.py": NCF_EVALUATE, "train.py": estimators + textwrap.dedent(f"""
        from keras.models import Model
        from evaluate import evaluate_model

        model = {built}
        model.compile(optimizer="adam", loss="binary_crossentropy")
        for epoch in range(100):
            model.fit([users, items], labels, batch_size=256, epochs=1)
            evaluate_model(model, ratings, 10)
        """)})
    found = sites(tmp_path / "evaluate.py")
    predicts = [site for (line, api), site in found.items() if line == 16]
    if estimators and built == "make_model()":
        assert predicts == []
    else:
        assert [s.api for s in predicts] == ["tensorflow.keras.Model.predict"]
        typed = "untyped" if built == "make_model()" else "constructor"
        assert predicts[0].features["receiver"] == typed

TF_UTIL = """
    import tensorflow as tf


    def get_session():
        return tf.compat.v1.get_default_session()


    class _Function(object):
        def __init__(self, inputs, outputs, updates):
            self.inputs = inputs
            self.outputs_update = list(outputs) + [tf.group(*updates)]

        def __call__(self, *args):
            feed_dict = dict(zip(self.inputs, args))
            return get_session().run(self.outputs_update, feed_dict=feed_dict)[:-1]


    def function(inputs, outputs, updates=None):
        if isinstance(outputs, list):
            return _Function(inputs, outputs, updates or [])
        else:
            f = _Function(inputs, [outputs], updates or [])
            return lambda *args, **kwargs: f(*args, **kwargs)[0]


    class Checkpoint:
        def __init__(self, model, directory):
            self.manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model), directory, 5)

        def save(self, number=None):
            return self.manager.save(checkpoint_number=number)
    """


def test_a_call_of_another_modules_wrapper_is_a_call_site_of_the_tf_call_it_spends_its_work_in(tmp_path):
    # research code hides its session runs and checkpoint saves behind its own helpers; the helpers'
    # sites count their runs from callers in other modules (unknown there): the calls are listed here
    (tmp_path / "pyproject.toml").write_text("")  # the project's root: scripts run from there
    (tmp_path / "agent").mkdir()  # a namespace package (no __init__.py) holding a package
    (tmp_path / "agent" / "common").mkdir()
    (tmp_path / "agent" / "deepq").mkdir()
    write(tmp_path / "agent" / "common", {"tf_util.py": TF_UTIL})
    write(tmp_path / "agent" / "deepq", {
        "__init__.py": """
            from agent.deepq.build_graph import build_train
            from agent.deepq.learn import learn
            """,
        "build_graph.py": """
            import tensorflow as tf
            import agent.common.tf_util as U


            def build_train(obs, loss, optimizer):
                act = U.function([obs], tf.argmax(loss))
                train = U.function([obs], loss, updates=[optimizer.minimize(loss)])
                return act, train
            """,
        "learn.py": """
            import numpy as np
            import tensorflow as tf
            from agent import deepq
            from agent.common.tf_util import Checkpoint


            def learn(obs, loss, optimizer, model):
                act, train = deepq.build_train(obs, loss, optimizer)
                checkpoint = Checkpoint(model, "ckpt")
                for t in range(1000):
                    act(np.zeros((1, 4)))
                    train(np.zeros((32, 4)))
                    checkpoint.save(t)
                    np.argmax([t])


            learn(None, None, None, None)
            """,
    })
    found = sites(tmp_path / "agent" / "deepq" / "learn.py")
    for line in (11, 12):  # act and train: what tf_util.function returns runs a session
        run = found[(line, "tensorflow.compat.v1.Session.run")]
        assert run.features["receiver"] == "wrapper" and "tf_util.py line 15" in run.features["via"]
        assert run.runs.count == 1000 and value(run, "step") == "inference"
        assert "spends its work in run at tf_util.py line 15" in run.work["wrapper"].note
    saved = found[(13, "tensorflow.train.CheckpointManager.save")]
    assert saved.runs.count == 1000 and saved.features["via"] == "save at tf_util.py line 31"
    assert not any(line == 14 for line, _ in found)  # numpy: no wrapper
    assert not any(line in (8, 9) for line, _ in found if _.endswith("Session.run"))  # building is no run


SEGMENTATION_MODELS = """
from tensorflow import keras


def build_unet(n_classes):
    inp = keras.Input((64, 64, 3))
    return keras.Model(inp, keras.layers.Conv2D(4, 3, padding="same")(inp))


def build_fcn(n_classes):
    inp = keras.Input((64, 64, 3))
    return keras.Model(inp, keras.layers.Conv2D(4, 1)(inp))
"""


def test_a_registry_filled_key_by_key_in_another_module_gives_a_keras_model_for_any_key(tmp_path):
    (tmp_path / "pkg").mkdir()
    write(tmp_path / "pkg", {
        "__init__.py": "",
        "models.py": SEGMENTATION_MODELS,
        "all_models.py": """
            from . import models

            model_from_name = {}
            model_from_name["unet"] = models.build_unet
            model_from_name["fcn"] = models.build_fcn
            """,
        "train.py": """
            import json


            def train(name, x, y):
                from .all_models import model_from_name
                model = model_from_name[name](4)
                model.fit(x, y, epochs=3, batch_size=8)


            def train_from_config(path, x, y):
                from .all_models import model_from_name
                config = json.load(open(path))
                model = model_from_name[config["model"]](config["n_classes"])
                model.fit(x, y, epochs=3, batch_size=8)
            """,
    })
    found = sites(tmp_path / "pkg" / "train.py")
    for line in (7, 14):
        fit = found[(line, "tensorflow.keras.Model.fit")]
        assert "receiver_kind" not in fit.features  # typed: every constructor builds a Keras model
        assert value(fit, "epochs") == 3 and value(fit, "batch_size") == 8
        flops = fit.work["flops_per_sample"]  # the two models differ: the smaller's (build_fcn's), a floor
        assert (flops.value, flops.bound) == (2 * 3 * 4 * 64 * 64, "lower")


@pytest.mark.parametrize("second, typed", [("build_unet", True), ("4", False)])
def test_a_dict_filled_key_by_key_is_a_table_of_constructors_while_it_holds_only_functions(tmp_path, second, typed):
    write(tmp_path, {
        "models.py": SEGMENTATION_MODELS,
        "run.py": f"""
            import sys
            import numpy as np
            import tensorflow as tf
            from models import build_unet

            MODELS = {{}}
            MODELS["unet"] = build_unet
            MODELS["other"] = {second}
            model = MODELS[sys.argv[1]](4)
            model.predict(np.zeros((1, 64, 64, 3)))
            """,
    })
    predict = sites(tmp_path / "run.py")[(10, "tensorflow.keras.Model.predict")]
    if typed:  # every constructor builds the same model: its size is known
        assert value(predict, "params") == 3 * 3 * 3 * 4 + 4 and value(predict, "samples") == 1
    else:  # a plain dict: matched by the method's name only
        assert predict.features["receiver_kind"] == "untyped"


def test_a_model_parameter_defaulting_to_none_takes_the_model_the_function_loads(tmp_path):
    # the module imports neither TF nor Keras: `predict(` is a call site only when the model is typed
    (tmp_path / "pkg").mkdir()
    write(tmp_path / "pkg", {
        "__init__.py": "",
        "models.py": SEGMENTATION_MODELS,
        "all_models.py": """
            from . import models

            model_from_name = {"unet": models.build_unet, "fcn": models.build_fcn}
            """,
        "predict.py": """
            import json
            import os
            import numpy as np


            def model_from_checkpoint_path(path):
                from .all_models import model_from_name
                config = json.load(open(path))
                return model_from_name[config["model_class"]](config["n_classes"])


            def predict(model=None, inp=None, checkpoints_path=None):
                if model is None and (checkpoints_path is not None):
                    model = model_from_checkpoint_path(checkpoints_path)
                return model.predict(np.array([inp]))[0]


            def predict_multiple(model=None, inp_dir=None, checkpoints_path=None):
                if model is None and (checkpoints_path is not None):
                    model = model_from_checkpoint_path(checkpoints_path)
                return [predict(model, np.load(name)) for name in os.listdir(inp_dir)]


            def evaluate(model=None, checkpoints_path=None):
                if model is None:
                    model = model_from_checkpoint_path(checkpoints_path)
                model.evaluate(np.zeros((10, 64, 64, 3)), np.zeros((10, 64, 64, 4)))


            def not_rebound(model=None, x=None):
                if model is not None:
                    model = model_from_checkpoint_path(x)
                model.evaluate(x)
            """,
    })
    found = sites(tmp_path / "pkg" / "predict.py")
    predict = found[(15, "tensorflow.keras.Model.predict")]
    assert "receiver_kind" not in predict.features
    assert predict.runs.count is None  # once per file of a folder, and from other modules
    evaluate = found[(27, "tensorflow.keras.Model.evaluate")]
    assert "receiver_kind" not in evaluate.features and value(evaluate, "samples") == 10
    assert (33, "tensorflow.keras.Model.evaluate") not in found  # `is not None`: the model is the caller's


def test_calling_what_k_function_returns_is_one_run_of_its_graph(tmp_path):
    write(tmp_path, {"style.py": """
        import numpy as np
        from keras import backend as K
        import tensorflow as tf

        image = K.placeholder((1, 64, 64, 3))
        loss = K.sum(K.square(image))
        grads = K.gradients(loss, image)
        f_outputs = K.function([image], [loss] + grads)
        g_outputs = tf.keras.backend.function([image], [loss])


        def eval_loss_and_grads(x):
            outs = f_outputs([x.reshape((1, 64, 64, 3))])
            return outs[0]


        for i in range(10):
            f_outputs([np.zeros((4, 64, 64, 3))])
            g_outputs([np.zeros((2, 64, 64, 3))])
        """})
    found = sites(tmp_path / "style.py")
    call = found[(13, "tensorflow.keras.backend.function.__call__")]
    assert value(call, "step") == "inference" and "line 8" in call.work["step"].note
    assert call.work["flops_per_sample"].provenance == "unknown"
    looped = found[(18, "tensorflow.keras.backend.function.__call__")]
    assert value(looped, "samples") == 4 and looped.runs.count == 10
    assert value(found[(19, "tensorflow.keras.backend.function.__call__")], "samples") == 2


def test_k_function_from_a_models_input_to_its_output_carries_the_models_flops(tmp_path):
    write(tmp_path, {"features.py": """
        import numpy as np
        from tensorflow import keras
        from tensorflow.keras import backend as K

        inp = keras.Input((32,))
        model = keras.Model(inp, keras.layers.Dense(10)(inp))
        get_output = K.function([model.input], [model.output])
        get_output([np.zeros((8, 32))])
        """})
    call = sites(tmp_path / "features.py")[(8, "tensorflow.keras.backend.function.__call__")]
    assert value(call, "params") == 32 * 10 + 10 and value(call, "flops_per_sample") is not None
    assert value(call, "samples") == 8 and value(call, "step") == "inference"


CYCLE_UTILS = """
from .predict import predict


def attach(model):
    model.predict_one = predict
    return model
"""


CYCLE_MODELS = """
from tensorflow import keras
from .utils import attach


def build_unet(n_classes):
    inp = keras.Input((64, 64, 3))
    model = keras.Model(inp, keras.layers.Conv2D(4, 3, padding="same")(inp))
    attach(model)
    return model
"""


def cycle_predict(third_import: str) -> str:
    """A predict module of the import cycle below, importing the registry inside its function."""
    return f"""
import json
import numpy as np
{third_import}


def predict(model=None, inp=None, checkpoints_path=None):
    from .all_models import model_from_name
    if model is None:
        config = json.load(open(checkpoints_path))
        model = model_from_name[config["model_class"]](config["n_classes"])
    return model.predict(np.array([inp]))[0]
"""


def test_a_registry_in_an_import_cycle_broken_by_a_functions_own_import_is_still_read(tmp_path):
    # models -> utils -> predict at import time; predict -> all_models -> models only when a function runs
    (tmp_path / "pkg").mkdir()
    write(tmp_path / "pkg", {
        "__init__.py": "",
        "utils.py": CYCLE_UTILS,
        "models.py": CYCLE_MODELS,
        "all_models.py": """
            from . import models

            model_from_name = {}
            model_from_name["unet"] = models.build_unet
            """,
        "predict.py": cycle_predict("import tensorflow as tf"),
    })
    found = sites(tmp_path / "pkg" / "predict.py")
    predict = found[(11, "tensorflow.keras.Model.predict")]
    assert "receiver_kind" not in predict.features and value(predict, "params") == 3 * 3 * 3 * 4 + 4


def test_a_registry_types_its_models_when_a_constructor_imports_its_builder_from_the_cycle(tmp_path):
    # pspnet_50 imports its builder inside itself from a module of the import cycle: its return is
    # not known in the summary; the table's other constructors build Keras models, so the model is one
    (tmp_path / "pkg").mkdir()
    write(tmp_path / "pkg", {
        "__init__.py": "",
        "utils.py": CYCLE_UTILS,
        "builder.py": CYCLE_MODELS.replace("def build_unet", "def build_pspnet"),
        "models.py": CYCLE_MODELS + """

def pspnet_50(n_classes):
    from .builder import build_pspnet
    return build_pspnet(n_classes)
""",
        "all_models.py": """
            from . import models

            model_from_name = {}
            model_from_name["unet"] = models.build_unet
            model_from_name["pspnet_50"] = models.pspnet_50
            """,
        "predict.py": cycle_predict("import os") + """


def predict_multiple(model, inp_dir):
    return [predict(model, np.load(name)) for name in os.listdir(inp_dir)]
""",
    })
    found = sites(tmp_path / "pkg" / "predict.py")
    predict = found[(11, "tensorflow.keras.Model.predict")]
    assert "receiver_kind" not in predict.features  # typed, in a module importing neither TF nor Keras
    assert predict.runs.callers == 1  # per file of a folder


def test_a_table_whose_known_constructors_build_no_model_types_nothing(tmp_path):
    write(tmp_path, {"run.py": """
        import sys
        import numpy as np
        from tensorflow import keras


        def build_unet(n_classes):
            inp = keras.Input((64, 64, 3))
            return keras.Layer()


        def unknown(n_classes):
            return load(n_classes)


        MODELS = {"unet": build_unet, "other": unknown}
        model = MODELS[sys.argv[1]](4)
        model.predict(np.zeros((1, 64, 64, 3)))
        """})
    predict = sites(tmp_path / "run.py")[(17, "tensorflow.keras.Model.predict")]
    assert predict.features["receiver_kind"] == "untyped"


STYLE_TRANSFER = """
import numpy as np
from keras import backend as K
from scipy.optimize import fmin_l_bfgs_b
import scipy
import scipy.optimize as so

image = K.placeholder((1, 64, 64, 3))
loss = K.sum(K.square(image))
f_outputs = K.function([image], [loss] + K.gradients(loss, image))


def eval_loss_and_grads(x):
    outs = f_outputs([x.reshape((1, 64, 64, 3))])
    return outs[0], outs[1].flatten()


class Evaluator(object):
    def loss(self, x):
        value, self.grad_values = eval_loss_and_grads(x)
        return value

    def grads(self, x):
        return self.grad_values


evaluator = Evaluator()
x = np.zeros(64 * 64 * 3)
for i in range(10):
    x, min_val, info = fmin_l_bfgs_b(evaluator.loss, x.flatten(), fprime=evaluator.grads, maxfun=20)
result = so.minimize(eval_loss_and_grads, x, jac=True, options={"maxiter": 5})
so.minimize(eval_loss_and_grads, x, jac=True)
so.minimize(np.sum, x)
scipy.optimize.fmin_cg(eval_loss_and_grads, x, maxiter=3)
scipy.stats.norm.fit(x)
"""


def test_a_function_given_to_a_scipy_optimizer_is_priced_per_evaluation_at_the_drivers_call(tmp_path):
    write(tmp_path, {"style.py": STYLE_TRANSFER})
    found = sites(tmp_path / "style.py")
    api = "tensorflow.keras.backend.function.__call__"
    lbfgs = found[(29, api)]
    assert lbfgs.features["receiver"] == "driver" and lbfgs.features["via"].endswith("line 13")
    assert lbfgs.runs.count == 10 * 20 and lbfgs.runs.bound == "upper"  # maxfun=20 in 10 iterations
    assert "maxfun=20" in lbfgs.work["driver"].note and value(lbfgs, "step") == "inference"
    assert lbfgs.features["in_tf_function"] is False  # decided with the other sites' (Resolver.run)
    minimize = found[(30, api)]
    assert minimize.runs.count == 5 and "maxiter=5" in minimize.work["driver"].note  # options
    unstated = found[(31, api)]
    assert unstated.runs.count is None  # how often it is called is not stated: at least once
    assert not any(line == 32 for line, _ in found)  # a NumPy objective spends nothing in TF
    assert found[(33, api)].runs.count == 3  # `import scipy`: scipy.optimize.fmin_cg
    assert not any(line == 34 for line, _ in found)  # SciPy's other names stay foreign
    inner = found[(13, api)]
    assert inner.runs.count is None  # passed to the drivers: its own count stays unknown


MAPPED = """
import numpy as np
import tensorflow as tf

model = tf.keras.models.load_model("m.keras")


def score(x):
    return model.predict(x)


paths = open("list.txt").read().split()
both = list(map(score, [x_train, x_test]))
rows = list(map(score, np.zeros((500, 8))))
labels = list(map(lambda p: model.predict(np.load(p)[None]), paths))
sizes = list(map(len, paths))
"""


def test_a_function_given_to_map_is_a_call_site_at_the_map_run_once_per_element(tmp_path):
    write(tmp_path, {"mapped.py": MAPPED})
    result = analyse_file(tmp_path / "mapped.py")
    api = "tensorflow.keras.Model.predict"
    mapped = {s.span.line: s for s in result.callsites if s.api == api and s.features["receiver"] == "driver"}
    both, rows, labels = mapped[12], mapped[13], mapped[14]
    assert sorted(mapped) == [12, 13, 14]  # `map(len, paths)` spends nothing in TF
    assert both.features["via"].endswith("line 8")
    assert both.runs.count == 2 and rows.runs.count == 500  # a literal list's length, an array's rows
    assert labels.runs.count is None  # paths read at run time: how many is not known
    assert "map calls score" in both.work["driver"].note and "(500)" in rows.work["driver"].note
    own = [s for s in result.callsites if s.span.line == 8]
    assert [s.runs.count for s in own] == [None]  # score's own site: passed to map, its count unknown


APPLIED = """
import pandas as pd
import tensorflow as tf

model = tf.keras.models.load_model("m.keras")
df = pd.read_csv("reviews.csv")
df["score"] = df["text"].apply(lambda t: model.predict(encode(t)))
ds = tf.data.Dataset.from_tensor_slices(x).map(lambda t: model.predict(t))
"""


def test_a_function_given_to_pandas_apply_runs_once_per_row_and_tf_data_map_is_no_such_driver(tmp_path):
    write(tmp_path, {"applied.py": APPLIED})
    result = analyse_file(tmp_path / "applied.py")
    drivers = [s for s in result.callsites if s.features.get("receiver") == "driver"]
    assert [(s.span.line, s.api) for s in drivers] == [(6, "tensorflow.keras.Model.predict")]  # not the data set's map
    assert drivers[0].runs.count is None and "apply calls" in drivers[0].work["driver"].note


def test_calling_what_a_project_helper_wrapping_k_function_returns_is_a_call_site_where_called(tmp_path):
    write(tmp_path, {
        "util.py": """
            from keras import backend as K


            def function(inputs, outputs):
                f = K.function(inputs, outputs)

                def run(*args):
                    return f(list(args))[0]
                return run
            """,
        "agent.py": """
            import numpy as np
            from keras import backend as K
            import util

            obs = K.placeholder((None, 4))
            act = util.function([obs], [K.sum(obs)])
            for step in range(1000):
                act(np.zeros((1, 4)))
            """,
    })
    call = sites(tmp_path / "agent.py")[(8, "tensorflow.keras.backend.function.__call__")]
    assert call.features["receiver"] == "wrapper" and call.features["via"] == "__call__ at util.py line 8"
    assert call.runs.count == 1000 and value(call, "step") == "inference"


UNET_MODEL = """
from keras.models import *
from keras.layers import *


def unet(pretrained_weights=None, input_size=(64, 64, 1)):
    inputs = Input(input_size)
    c1 = Conv2D(8, 3, activation="relu", padding="same")(inputs)
    up = UpSampling2D(size=(2, 2))(MaxPooling2D(pool_size=(2, 2))(c1))
    out = Conv2D(1, 1, activation="sigmoid")(concatenate([c1, up], axis=3))
    return Model(input=inputs, output=out)
"""


def test_a_model_whose_input_shape_is_a_parameter_default_is_built_for_each_call(tmp_path):
    """A U-Net built by a function of another module, its input size a parameter's default: the module's
    own walk cannot know it (any caller may pass another), each call's arguments do."""
    write(tmp_path, {"model.py": UNET_MODEL, "main.py": """
    from model import *
    model = unet()
    model.fit(x, y, epochs=2)
    small = unet(input_size=(32, 32, 1))
    small.fit(x, y, epochs=2)
    """})
    fit, small = (s for (_, api), s in sorted(sites(tmp_path / "main.py").items()) if api.endswith(".fit"))
    conv = 2 * 9 * 8 + 2 * 16 * 1  # per pixel: the 3x3 convolution to 8 channels, the 1x1 from the 16 joined
    assert value(fit, "flops_per_sample") >= conv * 64 * 64
    assert value(fit, "flops_per_sample") == 4 * value(small, "flops_per_sample")  # a quarter of the pixels
    assert value(fit, "input_shape") == [64, 64, 1] and value(small, "input_shape") == [32, 32, 1]


def test_a_helper_building_layers_takes_the_branch_each_call_asks_for(tmp_path):
    """pix2pix's `conv2d(layer_input, filters, bn=True)`, nested in `build_generator`, adds a
    BatchNormalization only `if bn:`: each call's walk takes the branch its arguments choose, so the
    model's graph (and FLOPs) goes on through both kinds of call."""
    write(tmp_path, {"gan.py": """
    from keras.layers import BatchNormalization, Conv2D, Input
    from keras.models import Model


    class GAN:
        def __init__(self):
            self.gf = 8
            self.generator = self.build_generator()

        def build_generator(self):
            def conv2d(layer_input, filters, bn=True):
                d = Conv2D(filters, kernel_size=4, strides=2, padding="same")(layer_input)
                if bn:
                    d = BatchNormalization(momentum=0.8)(d)
                return d

            d0 = Input(shape=(64, 64, 3))
            return Model(d0, conv2d(conv2d(d0, self.gf, bn=False), self.gf * 2))

        def train(self, x):
            self.generator.predict(x)
    """})
    predict = next(s for (_, api), s in sites(tmp_path / "gan.py").items() if api.endswith(".predict"))
    convs = 2 * 16 * 3 * 8 * 32 * 32 + 2 * 16 * 8 * 16 * 16 * 16  # 4x4 kernels: 64 -> 32 -> 16 pixels
    assert convs <= value(predict, "flops_per_sample") < 1.1 * convs
    assert predict.work["flops_per_sample"].bound is None
