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
    assert forward.work["step"]["value"] == "training" and forward.work["symbolic"]["value"] is True
    train = sites[(37, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert train.work["step"]["value"] == "training" and "line(s) 26" in train.work["step"]["note"]
    # evaluate's own `single_step` is another function: each is run by its own tf.function, and the
    # model called there on the tensors it is given is one inference step of it
    inference = sites[(7, "tensorflow.keras.Model.__call__")]
    assert inference.work["step"]["value"] == "inference" and "tf.function" in inference.work["step"]["note"]
    evaluation = sites[(15, "tensorflow.types.experimental.PolymorphicFunction.__call__")]
    assert evaluation.work["step"]["value"] == "inference" and evaluation.runs["loop"] == 5


def test_a_model_called_eagerly_on_unknown_inputs_keeps_no_step(tmp_path):
    # outside a traced body the inputs may be Keras symbolic tensors (a functional graph being built)
    main = write(tmp_path, "eager.py", """
        from tensorflow import keras

        model = keras.Sequential([keras.layers.Dense(2)])
        y = model(unknown_inputs)
        """)
    [call] = [s for s in analyse_file(main).callsites if s.api.endswith("Sequential.__call__")]
    assert "step" not in call.work
