"""Where a step's work is found: a base class's loop calling a method only its subclass (in
another module) defines, a Keras model of another module that overrides `__call__`, and a model
called in a `tf.function`'s body (or a function `strategy.run` runs there) on tensors the code does
not show."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file


def write(folder, name: str, code: str):
    path = folder / name
    path.write_text(textwrap.dedent(code).lstrip(), encoding="utf-8")
    return path


AGENT = """
class Agent:
    def fit(self, env, nb_steps):
        step = 0
        while step < nb_steps:
            action = self.forward(env.observe())
            self.backward(action)
            step += 1

    def forward(self, observation):
        raise NotImplementedError()

    def backward(self, reward):
        raise NotImplementedError()
"""


def test_an_inherited_loop_spends_its_work_where_the_subclass_of_another_module_calls_a_model(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, "core.py", AGENT)
    write(tmp_path, "dqn.py", """
        from core import Agent


        class DQN(Agent):
            def __init__(self, model):
                self.model = model

            def forward(self, observation):
                return self.model.predict_on_batch(observation)

            def backward(self, reward):
                return reward


        class Idle(Agent):
            def forward(self, observation):
                return observation
        """)
    main = write(tmp_path, "main.py", """
        from tensorflow import keras
        from dqn import DQN, Idle

        model = keras.Sequential([keras.layers.Dense(2)])
        DQN(model).fit(env, nb_steps=500)
        Idle().fit(env, nb_steps=500)
        """)
    sites = [s for s in analyse_file(main).callsites if s.features.get("receiver") == "wrapper"]
    assert [(s.span.line, s.api) for s in sites] == [(5, "tensorflow.keras.Model.predict_on_batch")]
    assert "dqn.py line 9" in sites[0].features["via"]  # DQN's own forward, reached from Agent.fit


MODEL = """
import tensorflow as tf


class Net(tf.keras.Model):
    def __init__(self, classes):
        super().__init__()
        self.dense = tf.keras.layers.Dense(classes)

    def __call__(self, inputs, training):
        return self.dense(inputs), None
"""


def test_a_model_of_another_module_overriding_call_runs_its_step_where_a_strategy_runs_it(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, "net.py", MODEL)
    main = write(tmp_path, "run.py", """
        import tensorflow as tf
        import net as net_lib


        def evaluate(model, strategy, ds):
            def single_step(features):
                model(features, training=False)

            @tf.function
            def eval_step(iterator):
                strategy.run(single_step, (next(iterator),))

            iterator = iter(ds)
            for _ in range(5):
                eval_step(iterator)


        def main(ds, steps):
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                model = net_lib.Net(10)
                optimizer = tf.keras.optimizers.SGD(0.1)

            def single_step(features):
                with tf.GradientTape() as tape:
                    outputs, _ = model(features, training=True)
                    loss = tf.reduce_mean(outputs)
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))

            @tf.function
            def train_steps(iterator):
                strategy.run(single_step, (next(iterator),))

            iterator = iter(ds)
            for _ in range(steps):
                train_steps(iterator)
            evaluate(model, strategy, ds)
        """)
    sites = {(s.span.line, s.api): s for s in analyse_file(main).callsites}
    forward = sites[(26, "tensorflow.keras.Model.__call__")]
    assert forward.work["step"].value == "training" and forward.work["symbolic"].value is True
    train = sites[(37, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert train.work["step"].value == "training" and "line(s) 26" in train.work["step"].note
    # evaluate's own `single_step` is another function: each is run by its own tf.function, and the
    # model called there on the tensors it is given is one inference step of it
    inference = sites[(7, "tensorflow.keras.Model.__call__")]
    assert inference.work["step"].value == "inference" and "tf.function" in inference.work["step"].note
    evaluation = sites[(15, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert evaluation.work["step"].value == "inference" and evaluation.runs.loop == 5


def test_a_model_called_eagerly_on_unknown_inputs_keeps_no_step(tmp_path):
    # outside a traced body the inputs may be Keras symbolic tensors (a functional graph being built)
    main = write(tmp_path, "eager.py", """
        from tensorflow import keras

        model = keras.Sequential([keras.layers.Dense(2)])
        y = model(unknown_inputs)
        """)
    [call] = [s for s in analyse_file(main).callsites if s.api.endswith("Sequential.__call__")]
    assert "step" not in call.work


TRAINER = """
import tensorflow as tf


class Trainer:
    def __init__(self, model, other):
        self.checkpoint = tf.train.Checkpoint(step=tf.Variable(0), model=model)
        self.other = other
        self.optimizer = tf.keras.optimizers.Adam()

    def train(self, dataset, steps=1000):
        for lr, hr in dataset.take(steps):
            self.train_step(lr, hr)
            self.checkpoint_manager.save()

    @tf.function
    def train_step(self, lr, hr):
        with tf.GradientTape() as tape:
            sr = self.checkpoint.model(lr, training=True)
            extra = self.other(lr)
            loss = tf.reduce_mean(tf.abs(hr - sr)) + extra
        gradients = tape.gradient(loss, self.checkpoint.model.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.checkpoint.model.trainable_variables))
        return loss
"""


def test_a_callable_whose_trainable_variables_a_tape_differentiates_is_a_model_trained_by_the_step(tmp_path):
    (tmp_path / ".git").mkdir()
    path = write(tmp_path, "train.py", TRAINER)
    found = {(s.span.line, s.api): s for s in analyse_file(path).callsites}
    # the model kept in a Checkpoint, called under the tape whose gradient takes its trainable variables
    forward = found[(18, "tensorflow.keras.Model.__call__")]
    assert forward.work["step"].value == "training" and forward.work["symbolic"].value is True
    # the tf.function's call is that training step: a floor, the batch and the model unknown
    step = found[(12, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert step.work["step"].value == "training" and "line(s) 18" in step.work["step"].note
    assert step.work["samples"].value is None
    # a callable under the same tape whose variables are not differentiated stays unknown: no site
    assert not any(line == 19 for line, _ in found)


def test_a_wrapper_is_named_by_its_training_step_not_the_checkpoint_saved_in_its_loop(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, "train.py", TRAINER)
    write(tmp_path, "saver.py", """
        import tensorflow as tf


        class Saver:
            def __init__(self, directory):
                self.manager = tf.train.CheckpointManager(tf.train.Checkpoint(), directory, 3)

            @tf.function
            def summarise(self, x):
                return tf.reduce_mean(x)

            def run(self, dataset):
                for x in dataset:
                    self.summarise(x)
                    self.manager.save()
        """)
    main = write(tmp_path, "main.py", """
        import sys
        import tensorflow as tf
        from train import Trainer
        from saver import Saver

        trainer = Trainer(tf.keras.Sequential([tf.keras.layers.Dense(2)]), None)
        for directory in sys.argv[1:]:  # (runs train.py cannot count: a call site here)
            trainer.train(tf.data.Dataset.range(10), steps=500)
            Saver(directory).run(tf.data.Dataset.range(10))
        """)
    wrappers = {s.span.line: s for s in analyse_file(main).callsites if s.features.get("receiver") == "wrapper"}
    train = wrappers[8]
    assert train.api == "tensorflow.types.experimental.PolymorphicFunction.__call__"
    assert "train_step at train.py line 12" in train.features["via"]
    assert train.work["step"].value == "training" and train.work["samples"].value is None
    # a tf.function that trains nothing does not name its caller: the save in the loop still does
    assert wrappers[9].api == "tensorflow.train.CheckpointManager.save"


HELPERS = """
import tensorflow as tf


def resolve(model, batch):
    return tf.round(model(tf.cast(batch, tf.float32)))


def evaluate(model, dataset):
    return [resolve(model, lr) for lr, hr in dataset]


def describe(model, dataset):
    return [model.name for _ in dataset]
"""


def test_a_function_of_another_module_given_a_model_it_calls_runs_the_model_where_it_is_called(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, "common.py", HELPERS)
    path = write(tmp_path, "train.py", "import common" + TRAINER + """
    def evaluate(self, dataset):
        return common.evaluate(self.checkpoint.model, dataset)

    def validate(self, dataset):
        for batch in dataset:
            self.evaluate(batch)
""")
    found = {(s.span.line, s.api): s for s in analyse_file(path).callsites}
    # the model kept in the Checkpoint (its variables differentiated by train_step) handed to a helper
    # that calls it: at least one forward pass per call, a site here
    handed = found[(27, "tensorflow.keras.Model.__call__")]
    assert handed.features["receiver"] == "wrapper" and handed.work["step"].value == "inference"
    assert handed.work["samples"].value is None
    # and the method is where its callers spend that work: a call in a loop of unknown length is a site
    assert found[(31, "tensorflow.keras.Model.__call__")].features["receiver"] == "wrapper"
    main = write(tmp_path, "main.py", """
        import tensorflow as tf
        import common

        model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        common.evaluate(model, tf.data.Dataset.range(10))
        common.describe(model, tf.data.Dataset.range(10))
        common.evaluate(len, tf.data.Dataset.range(10))
        """)
    lines = {s.span.line: s.api for s in analyse_file(main).callsites if s.features.get("receiver") == "wrapper"}
    # a known model handed to the helper that calls it; not where the helper only reads its name,
    # nor where what it calls is no model
    assert lines == {5: "tensorflow.keras.Model.__call__"}


def test_a_function_building_a_graph_with_the_model_it_is_given_runs_no_forward_pass(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, "heads.py", """
        import tensorflow as tf


        def build_head(backbone, classes):
            inputs = tf.keras.Input((32, 32, 3))
            return tf.keras.Model(inputs, tf.keras.layers.Dense(classes)(backbone(inputs)))
        """)
    main = write(tmp_path, "main.py", """
        import tensorflow as tf
        import heads

        backbone = tf.keras.Sequential([tf.keras.layers.Flatten()])
        model = heads.build_head(backbone, 10)
        """)
    assert [s for s in analyse_file(main).callsites if s.features.get("receiver") == "wrapper"] == []
