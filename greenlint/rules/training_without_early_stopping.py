"""GL308 training-without-early-stopping: many epochs with validation data and no `EarlyStopping`, or a
long training loop that measures progress and never stops on it."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, argument, keyword
from greenlint.rules.callbacks import constructor, constructors, file_class, listed, project_classes
from greenlint.rules.curves import curve_read_per_epoch
from greenlint.rules.defaults import default_value, known_value
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.gym_tasks import EPISODES, gym_task
from greenlint.rules.keras_rl import agent_fits, fit_argument
from greenlint.rules.material import SAVING_OPTION, immaterial_saving, in_tests, saving_clause, share_of, work_j
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import cell_units, units
from greenlint.rules.training_loops import fixed_training_loops

EARLY_STOPPING = "tensorflow.keras.callbacks.EarlyStopping"
#: Keras callbacks that never end training when the model stops improving.
NOT_STOPPING = frozenset(
    "tensorflow.keras.callbacks." + name
    for name in (
        "TensorBoard",
        "ModelCheckpoint",
        "CSVLogger",
        "ReduceLROnPlateau",
        "TerminateOnNaN",
        "BackupAndRestore",
        "ProgbarLogger",
        "History",
        "RemoteMonitor",
    )
)


def _may_stop(facts: FileFacts, callbacks: list[ast.expr], apis: dict[int, str]) -> bool:
    """Whether a callback of the list may end training: anything not known to never stop it.
    Known not to: Keras' callbacks of `NOT_STOPPING`, and a `Callback` subclass the file (the
    caller has seen that it never sets `stop_training`) or a project module it imports (one
    that never sets it either) defines, that drives no schedule. A name assigned several
    callbacks (in branches) holds each of them. *apis*: each call node's API (by id), in every cell."""
    for element in callbacks:
        calls = constructors(facts, element)
        if calls is None:
            return True
        for call in calls:
            if apis.get(id(call)) in NOT_STOPPING:
                continue
            made = file_class(facts, call)
            classes = [made] if made is not None else project_classes(facts, call)
            if classes is None or any(_schedules(c) or _stops(c) for c in classes):
                return True
    return False


def _stops(made: ast.ClassDef) -> bool:
    """Whether a callback class of the file sets `stop_training` (ends training itself)."""
    return any(isinstance(n, ast.Attribute) and n.attr == "stop_training" for n in ast.walk(made))


def _stops_elsewhere(facts: FileFacts) -> bool:
    """Whether the file sets `stop_training` outside its classes (a function handed to a
    `LambdaCallback` or a signal handler, say): what it stops is not known, so no fit of the
    file is reported. Inside a callback class it stops the fits that class is given only."""
    if "stop_training" not in facts.text:
        return False
    for tree in units(facts):
        todo: list[ast.AST] = [tree]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.ClassDef):
                continue
            if isinstance(node, ast.Attribute) and node.attr == "stop_training":
                return True
            todo.extend(ast.iter_child_nodes(node))
    return False


#: A helper of the file that builds the callbacks list (`{extra}`: more lines before its return).
HELPER = (
    "import tensorflow as tf\ndef make_callbacks(args):\n    callbacks = []\n    board = None\n"
    "    if args.logs:\n        board = tf.keras.callbacks.TensorBoard(args.logs)\n        callbacks.append(board)\n"
    "    callbacks.append(tf.keras.callbacks.ModelCheckpoint('w.h5'))\n{extra}    return callbacks\n"
    "def main(args):\n    m = tf.keras.Sequential()\n    callbacks = make_callbacks(args)\n"
    "    m.fit(x, y, epochs=100, validation_split=0.2, callbacks=callbacks)\n"
)


#: A callbacks list bound in the two branches of a choice on `--wandb` (default `{default}`): a logger of
#: another library's in one, an empty list in the other, a checkpoint added after.
LOGGED = (
    "import argparse\nimport tensorflow as tf\nfrom wandb.keras import WandbCallback\n"
    "p = argparse.ArgumentParser()\np.add_argument('--wandb', default={default})\nargs = p.parse_args()\n"
    "m = tf.keras.Sequential()\nif args.wandb:\n    callbacks = [WandbCallback()]\nelse:\n    callbacks = []\n"
    "callbacks.append(tf.keras.callbacks.ModelCheckpoint('w.h5', save_best_only=True))\n"
    "m.fit(x, y, epochs=50, validation_split=0.1, callbacks=callbacks)\n"
)

#: A fit whose epochs are a parameter that defaults to the option `{option}` defines.
OPTION_DEFAULT = (
    "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n{option}\nargs = p.parse_args()\n"
    "def train(x, y, epochs=args.epochs):\n    m = tf.keras.Sequential()\n    cbs = [tf.keras.callbacks.TensorBoard('logs')]\n"
    "    m.fit(x, y, epochs=epochs, validation_split=0.1, callbacks=cbs)\ntrain(x, y)\n"
)

#: A reinforcement-learning agent trained for a fixed number of episodes (`{stop}`: more lines at
#: the end of each episode, `{count}`: the episode count).
AGENT = (
    "import gym\nimport tensorflow as tf\nEPISODES = {count}\nm = tf.keras.Sequential()\n"
    "def replay(memory):\n    m.fit(*sample(memory), epochs=1, verbose=0)\n"
    "env = gym.make('CartPole-v1')\nfor e in range(EPISODES):\n    state = env.reset()\n"
    "    for t in range(500):\n        state, reward, done, _ = env.step(act(m, state))\n"
    "        if done:\n            break\n        replay(memory)\n{stop}"
)

#: The agent's episodes in a generator that yields each one's reward to the loop that consumes it
#: (`{consume}`: that loop's body).
GENERATOR = (
    "import gym\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
    "def replay(memory):\n    m.fit(*sample(memory), epochs=1, verbose=0)\n"
    "def learn(env, episodes):\n    for e in range(episodes):\n        state, total = env.reset(), 0\n"
    "        for t in range(500):\n            state, reward, done, _ = env.step(act(m, state))\n"
    "            total += reward\n            if done:\n                break\n            replay(memory)\n"
    "        yield total\n"
    "for total in learn(gym.make('CartPole-v1'), 1000):\n{consume}"
)

#: A TF1 graph trained in an epoch loop that scores it once a pass (`{batches}`: the inner loop's header
#: and the lines that cut its batch, `{fed}`: what the score is fed).
GRAPH = (
    "import tensorflow.compat.v1 as tf\nX = tf.placeholder(tf.float32, (None, 784))\ny = tf.placeholder(tf.int64, (None,))\n"
    "logits = tf.layers.dense(X, 10)\n"
    "loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))\n"
    "training_op = tf.train.AdamOptimizer().minimize(loss)\n"
    "accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))\n"
    "with tf.Session() as sess:\n    for epoch in range(40):\n{batches}"
    "            sess.run(training_op, feed_dict={{X: X_batch, y: y_batch}})\n"
    "        print(epoch, accuracy.eval(feed_dict={fed}))\n"
)
#: The batches cut from arrays the file holds.
SHUFFLED = "        for X_batch, y_batch in shuffle_batch(X_train, y_train, 50):\n"

#: A TF1 graph trained over a batch generator's epochs, a dev set scored every 100 steps through a function
#: (`{epochs}`: the generator's epoch loop, `{dev}`: what the dev step is given).
GENERATED = (
    "import tensorflow as tf\ntf.flags.DEFINE_integer('num_epochs', 200, 'epochs')\nFLAGS = tf.flags.FLAGS\n"
    "def batch_iter(data, batch_size, num_epochs):\n    {epochs}\n"
    "        for i in range(len(data) // batch_size):\n            yield data[i * batch_size:(i + 1) * batch_size]\n"
    "X = tf.placeholder(tf.float32, (None, 784))\ny = tf.placeholder(tf.int64, (None,))\n"
    "logits = tf.layers.dense(X, 10)\n"
    "loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))\n"
    "train_op = tf.train.AdamOptimizer().minimize(loss)\n"
    "accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))\n"
    "def train(x_train, y_train, x_dev, y_dev):\n    sess = tf.Session()\n"
    "    def train_step(x_batch, y_batch):\n        sess.run(train_op, feed_dict={{X: x_batch, y: y_batch}})\n"
    "    def dev_step(x_batch, y_batch):\n        feed_dict = {{X: x_batch, y: y_batch}}\n"
    "        print(sess.run(accuracy, feed_dict))\n"
    "    batches = batch_iter(list(zip(x_train, y_train)), 64, FLAGS.num_epochs)\n"
    "    for step, batch in enumerate(batches):\n        x_batch, y_batch = zip(*batch)\n"
    "        train_step(x_batch, y_batch)\n        if step % 100 == 0:\n            dev_step({dev})\n"
)
#: A TF1 graph trained by a class whose epoch loop scores `{dev}` through a method, once an epoch.
TRAINER = (
    "import tensorflow as tf\nX = tf.placeholder(tf.float32, (None, 784))\ny = tf.placeholder(tf.int64, (None,))\n"
    "logits = tf.layers.dense(X, 10)\n"
    "loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))\n"
    "train_op = tf.train.AdamOptimizer().minimize(loss)\n"
    "accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))\n"
    "class Trainer:\n    def __init__(self):\n        self.sess = tf.Session()\n"
    "    def train_step(self, x_batch, y_batch):\n"
    "        self.sess.run(train_op, feed_dict={{X: x_batch, y: y_batch}})\n"
    "    def dev_step(self, x_batch, y_batch):\n"
    "        return self.sess.run(accuracy, feed_dict={{X: x_batch, y: y_batch}})\n"
    "    def train(self, x_train, y_train, x_dev, y_dev):\n        for epoch in range(50):\n"
    "            for i in range(0, len(x_train), 64):\n"
    "                self.train_step(x_train[i:i + 64], y_train[i:i + 64])\n"
    "            print(self.dev_step({dev}))\n"
)
#: The generator's epoch loop as most write it.
EPOCHS = "for epoch in range(num_epochs):"

#: A TF2 trainer whose step loop over a dataset resumes from a checkpoint, scores a validation set every
#: 1,000 steps and skips the save unless the score beats the best (`{skip}`, then `{update}`), driven by two
#: subclasses' defaults (`{steps}` steps for the second, `{best_only}` for both).
CHECKPOINTED = (
    "import tensorflow as tf\nclass Trainer:\n    def __init__(self, model):\n        self.model = model\n"
    "        self.optimizer = tf.keras.optimizers.Adam()\n"
    "        self.ckpt = tf.train.Checkpoint(step=tf.Variable(0), psnr=tf.Variable(-1.0), model=model)\n"
    "        self.manager = tf.train.CheckpointManager(self.ckpt, 'ckpt', max_to_keep=3)\n"
    "    def train(self, train_ds, valid_ds, steps, save_best_only=False):\n"
    "        for lr, hr in train_ds.take(steps - self.ckpt.step.numpy()):\n"
    "            self.ckpt.step.assign_add(1)\n            self.train_step(lr, hr)\n"
    "            if self.ckpt.step % 1000 == 0:\n                psnr = self.score(valid_ds)\n"
    "                if {skip}:\n                    continue\n                {update}\n"
    "                self.manager.save()\n"
    "    @tf.function\n    def train_step(self, lr, hr):\n        with tf.GradientTape() as tape:\n"
    "            loss = tf.reduce_mean(tf.abs(hr - self.model(lr, training=True)))\n"
    "        grads = tape.gradient(loss, self.model.trainable_variables)\n"
    "        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))\n"
    "    def score(self, ds):\n        return tf.reduce_mean([tf.image.psnr(hr, self.model(lr), 255) for lr, hr in ds])\n"
    "class EdsrTrainer(Trainer):\n    def train(self, train_ds, valid_ds, steps=300000):\n"
    "        super().train(train_ds, valid_ds, steps, save_best_only={best_only})\n"
    "class LongTrainer(Trainer):\n    def train(self, train_ds, valid_ds, steps={steps}):\n"
    "        super().train(train_ds, valid_ds, steps, save_best_only={best_only})\n"
)
#: A TF2 epoch loop of custom steps that scores the model each pass and saves a checkpoint (`{guarded}`).
MANAGED = (
    "import tensorflow as tf\nfrom metrics import psnr_of\nmodel = tf.keras.Sequential()\nopt = tf.keras.optimizers.Adam()\n"
    "ckpt = tf.train.Checkpoint(model=model)\nmanager = tf.train.CheckpointManager(ckpt, 'ckpt', max_to_keep=1)\n"
    "best = 0.0\nfor epoch in range(100):\n    for x, y in batches:\n        with tf.GradientTape() as tape:\n"
    "            loss = tf.reduce_mean(tf.square(y - model(x)))\n"
    "        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
    "    score = psnr_of(model, valid)\n    {guarded}\n"
)
#: A TF2 epoch loop of `tf.function` steps and a validation pass over `{valid}` (`{scored}`: its body).
VALIDATED = (
    "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nopt = tf.keras.optimizers.Adam()\n"
    "loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)\nval_loss = tf.keras.metrics.Mean()\n"
    "@tf.function\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n"
    "        loss = loss_fn(y, model(x, training=True))\n"
    "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
    "@tf.function\ndef test_step(x, y):\n    val_loss(loss_fn(y, model(x, training=False)))\n"
    "{made}for epoch in range(50):\n    for x, y in train_ds:\n        train_step(x, y)\n"
    "    for x, y in {valid}:\n        {scored}\n    print(epoch, val_loss.result())\n"
)
#: VALIDATED's steps and validation pass in a function whose epoch loop counts through `{header}` (a
#: progress bar imported by `{imports}`), `epochs={epochs}` by default.
BARRED = (
    "import tensorflow as tf\n{imports}\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
    "opt = tf.keras.optimizers.Adam()\nloss_fn = tf.keras.losses.MeanSquaredError()\nval_loss = tf.keras.metrics.Mean()\n"
    "@tf.function\ndef train_step(x, y):\n    with tf.GradientTape() as tape:\n        loss = loss_fn(y, model(x))\n"
    "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
    "def train(train_ds, val_ds, epochs={epochs}):\n    for epoch in {header}:\n        for x, y in train_ds:\n"
    "            train_step(x, y)\n        for x, y in val_ds:\n            val_loss(loss_fn(y, model(x)))\n"
)
#: A TF1 graph trained for 500 epochs whose loop saves its weights with a `Saver` under `if {test}:`, the
#: score `{score}`.
SAVED = (
    "import tensorflow.compat.v1 as tf\nfrom evaluation import score_of\n"
    "X = tf.placeholder(tf.float32, (None, 784))\ny = tf.placeholder(tf.int64, (None,))\nlogits = tf.layers.dense(X, 10)\n"
    "loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))\n"
    "train_op = tf.train.AdamOptimizer().minimize(loss)\nsaver = tf.train.Saver()\nbest = 1e9\n"
    "with tf.Session() as sess:\n    for epoch in range(500):\n        for X_batch, y_batch in batches:\n"
    "            _, batch_loss = sess.run([train_op, loss], feed_dict={{X: X_batch, y: y_batch}})\n"
    "        {score}\n        if {test}:\n            best = score\n            saver.save(sess, 'best.ckpt')\n"
)

#: A K-fold run of a fixed `{epochs}` epochs per fold, each fold's validation curve kept (`{after}`: what reads them).
KFOLD = (
    "import numpy as np\nimport tensorflow as tf\nnum_epochs = 300\nhistories = []\nfor fold in range(4):\n"
    "    m = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n    m.compile('rmsprop', 'mse', metrics=['mae'])\n"
    "    history = m.fit(x[fold], y[fold], validation_data=(xv[fold], yv[fold]), epochs={epochs}, verbose=0)\n"
    "    histories.append(history.history['val_mae'])\n{after}"
)

#: The skip and the update of a trainer that keeps its best checkpoint.
BEST_ONLY = dict(skip="save_best_only and psnr <= self.ckpt.psnr", update="self.ckpt.psnr = psnr", best_only="True")

#: A keras-rl agent trained on a Gym environment (`{env}`: its id, `{fit}`: the fit's arguments after the env).
RL_AGENT = (
    "import gym\nfrom keras.models import Sequential\nfrom rl.agents.dqn import DQNAgent\n"
    "ENV_NAME = '{env}'\nenv = gym.make(ENV_NAME)\nmodel = Sequential()\n"
    "dqn = DQNAgent(model=model, nb_actions=2, memory=memory, policy=policy)\ndqn.compile(opt)\n"
    "dqn.fit(env, {fit})\n"
)

#: What a callback that changes training by the epoch number touches (a learning-rate or a loss
#: weight schedule: the epoch count is then part of the design).
SCHEDULE_ATTRIBUTES = frozenset({"lr", "learning_rate", "set_value", "assign"})


def _schedules(made: ast.ClassDef) -> bool:
    """Whether a callback class of the file sets a learning rate or a variable as it goes."""
    return any(isinstance(n, ast.Attribute) and n.attr in SCHEDULE_ATTRIBUTES for n in ast.walk(made))


#: Keras' step-driven learning-rate schedules, given to an optimizer as its learning rate.
LR_SCHEDULES = "tensorflow.keras.optimizers.schedules."
KERAS_OPTIMIZERS = "tensorflow.keras.optimizers."


def _scheduled_fit(facts: FileFacts, fit: ast.Call, cell: int | None, apis: dict[int, str]) -> bool:
    """Whether the model *fit* trains was last compiled, before it, with a Keras optimizer that takes
    a learning-rate schedule (`m.compile(optimizer=SGD(learning_rate=PiecewiseConstantDecay(...)))`,
    through names bound before: `opt = SGD(lr_schedule)`): the steps the schedule decays over are
    part of the design, as with a `LearningRateScheduler` callback. *apis*: each call node's API (by id)."""
    receiver = fit.func.value if isinstance(fit.func, ast.Attribute) else None
    if not isinstance(receiver, ast.Name):
        return False
    nodes = sorted(
        (
            ((unit or 0, n.lineno, n.col_offset), n)
            for unit, _ in cell_units(facts)
            for n in facts.nodes(unit, ast.Assign, ast.Call)
            if isinstance(n, (ast.Assign, ast.Call))  # (all are: for the type checker)
        ),
        key=lambda keyed: keyed[0],
    )
    at = ((cell or 0), fit.lineno, fit.col_offset)

    def before(key: tuple) -> list:
        return [n for k, n in nodes if k < key]

    def value(expr: ast.expr | None, key: tuple) -> ast.expr | None:
        """*expr*, or what a name was last bound to before *key*."""
        if not isinstance(expr, ast.Name):
            return expr
        bound = [n for n in before(key) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        return bound[-1].value if bound else None

    compiles = [n for n in before(at) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr == "compile" and isinstance(n.func.value, ast.Name) and n.func.value.id == receiver.id]
    if not compiles:
        return False
    compiled = compiles[-1]
    key = next(k for k, n in nodes if n is compiled)
    optimizer = value(argument(compiled, "optimizer", 0), key)
    api = apis.get(id(optimizer), "")
    if not isinstance(optimizer, ast.Call) or not api.startswith(KERAS_OPTIMIZERS) or api.startswith(LR_SCHEDULES):
        return False
    rate = argument(optimizer, "learning_rate", 0) or argument(optimizer, "lr", None)
    schedule = value(rate, key)
    return isinstance(schedule, ast.Call) and apis.get(id(schedule), "").startswith(LR_SCHEDULES)


def _keeps_best(made: ast.ClassDef) -> bool:
    """Whether a callback class of the file keeps the best model so far: in its `on_epoch_end`,
    a comparison (`if val_acc > self.best:`) guards a `save_weights`/`save` of the model."""
    for method in made.body:
        if not (isinstance(method, ast.FunctionDef) and method.name == "on_epoch_end"):
            continue
        for node in ast.walk(method):
            if (
                isinstance(node, ast.If)
                and isinstance(node.test, ast.Compare)
                and any(
                    isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute)
                    and n.func.attr in ("save_weights", "save")
                    for statement in node.body
                    for n in ast.walk(statement)
                )
            ):
                return True
    return False


def _keeper(facts: FileFacts, callbacks: list[ast.expr]) -> str | None:
    """The name of a callback of the list that keeps the best model (a class of the file)."""
    for element in callbacks:
        call = constructor(facts, element)
        made = file_class(facts, call) if call is not None else None
        if made is not None and _keeps_best(made):
            return made.name
    return None


class TrainingWithoutEarlyStopping(Rule):
    """
    ## What it does
    Flags `fit()` (or `fit_generator()`) on a Keras model with `epochs` (or Keras 1's `nb_epoch`,
    which Keras 2 reads as `epochs`) of at least `min-epochs` (default 20) and a measure of progress: validation data (`validation_data=` or
    `validation_split=`), or a callback class of the file that keeps the best weights (in its
    `on_epoch_end`, a comparison guarding a `save_weights`/`save`, as in `if val_acc >
    self.best: model.save_weights(...)`); whose callbacks include no `EarlyStopping`, nor a
    callback class of the file that sets `stop_training` (such a class stops the fits it is
    given, not the file's others; a file that sets `stop_training` outside its classes, in a
    function handed to a `LambdaCallback` say, gets no finding at all). `epochs` is a literal,
    or the default the program runs with: a parameter's default (`def train(epochs=100)`, or
    of a class's `__init__` that sets `self.epochs` once), an argparse option's or an absl
    flag's (`args.epochs`, `FLAGS.epochs`) defined in the file, or one of those held by a name
    bound once (`epochs = args.epochs`, in the function or at the top of the module; a name bound
    again, `if args.quick: epochs = 2`, is not known), or by a parameter without a default that
    every call of its function in the file passes the same such value (`train(model,
    args.epochs)`, up to three callers up). `callbacks=` is read from a literal list, or from the
    name of a list the file builds (appends included; in the function that reads it when the
    name is bound elsewhere too), which may be what a helper function of the file builds and
    returns (`callbacks = create_callbacks(args)`, or `callbacks=create_callbacks(args)` itself;
    with several `return`s, the callbacks of each), or from a `self.` attribute its class assigns
    a list once (`self.callbacks = [...]`, appends included); a list bound in the two branches of a
    choice on an option is the one the program's defaults take (`if args.wandb: callbacks =
    [WandbCallback()] else: callbacks = []` with `--wandb` empty by default: the empty one, a
    Hydra configuration's `null` included); a name in it that is `None` until a
    callback is assigned holds that callback, and one assigned two callbacks in two branches
    holds either. Given any other way (another call's result, `**kwargs`), the callbacks are
    unknown and nothing is reported. An `EarlyStopping` covers the fits it is passed to, not
    the others of its file. A fit a project wrapper makes for a call of the file
    (`model.train(train, val, epochs=30)`, whose method of another module calls
    `self.keras_model.fit_generator(...)`: analysis/wrapped.py walks it with this call's
    arguments) is reported at that call where the walk found its epochs, validation data and the
    class of every callback it is given (the call site's `callbacks`, docs/calls-json.md), none
    of which may end training; a wrapper that resumes from an `initial_epoch` the walk cannot
    read runs at most those epochs, and the message says so.

    Only callbacks known not to end training leave the fit uncapped: Keras' `TensorBoard`,
    `ModelCheckpoint`, `CSVLogger`, `ReduceLROnPlateau`, `TerminateOnNaN` (it stops on a NaN,
    not when learning is done), `BackupAndRestore`, `ProgbarLogger`, `History`,
    `RemoteMonitor`, and a class defined directly on Keras' `Callback` that sets no learning
    rate or variable as it goes, by the file (one that never sets `stop_training`) or by a
    module of the project the file imports it from (`from eval.coco import Evaluate`, a module
    that never sets `stop_training`): its whole code is in view. Any other callback in the list
    may stop training or makes the epoch count part of the design, so the fit is not reported:
    a `TimeStopping` that caps the wall time, a `LearningRateScheduler` or `LambdaCallback`
    driven by the epoch number (stopping early would cut the schedule short), a class of a
    library, a subclass of another callback. Nor is a fit of a model last compiled, before it, with
    a Keras optimizer that takes a learning-rate schedule (`SGD(learning_rate=PiecewiseConstantDecay(
    boundaries, values))`, or names bound to them before): the steps it decays over are part of the
    design, as with such a callback (a transfer recipe's fixed budget of steps, BiT's).

    Nor is a fit whose returned history the program reads epoch by epoch over the fit's own epoch
    count (greenlint/rules/curves.py: `[np.mean([h[i] for h in histories]) for i in range(num_epochs)]`
    after `histories.append(history.history["val_mae"])`, a K-fold run's curve averaged per epoch), or
    whose runs' curves, gathered in a list by a loop, it combines epoch by epoch (`np.mean(histories,
    axis=0)`): the whole curve is the program's output, and a run stopped early would leave a shorter one.

    A fit is reported only where what early stopping can save is material
    (greenlint/rules/material.py): at most all its epochs but two (the best one and the one that
    shows no improvement), priced on the fit's point figure (the predictor's median, times its
    counted runs) must reach `material-saving-j` (10 kJ); the message says that saving at the high
    end of the fit's 80 % interval. A fit
    whose work is not known (data of unknown size: its figure a floor) is reported without one,
    its message saying that the saving, the epochs after the model stops improving, is not known
    before the run (at most all but two of them; a training loop's message says the same of its
    passes); and a fit in test code is not reported.

    A fit with neither validation data nor such a callback is not reported, however many
    epochs it runs. Early stopping on the training loss is a weak rule: on most problems the
    training loss keeps falling long after the model stops generalising, so
    `EarlyStopping(monitor="loss")` seldom ends the run, and the epochs it would cut are not
    known to be wasted. The change worth making there is holding out validation data, a choice
    about the data that no callback stands in for.

    The same holds for a training loop the program writes itself: a `for` over `range(N)` (or Python 2's `xrange(N)`,
    either maybe through a progress bar: `tqdm(range(N))`, tqdm's `trange(N)`)
    (N at least `min-epochs`: a literal, a module constant, or a default as above; for a loop at
    the top level of a file or a notebook cell, else the count the analysis gives it as the
    program runs in order, a name a notebook binds to 40 before the loop and to 20 after it), or
    over a batch generator that makes at least `min-epochs` epochs (`for batch in batches` after
    `batches = data_helpers.batch_iter(data, 64, FLAGS.num_epochs)`, maybe numbered by
    `enumerate()`: a generator of the file or of a project module it imports, every `yield` of
    which sits in one `for epoch in range(num_epochs):` of its body with no way out, the count
    what the call passes that parameter, else its default, read as above), or over a dataset's
    `take(N)` (maybe numbered by `enumerate()`; N steps; `take(steps - ckpt.step.numpy())`, what a run resumed from a checkpoint
    has left, runs `steps` on a fresh run), N the least whole number the calls of its function
    pass where they differ (each run makes at least that many), whose body
    trains (`fit`, `train_on_batch`, `apply_gradients`, `minimize`, a TF1 training run, a
    `tf.function` that trains; in the loop, in loops nested in it, or in a function of the file
    it calls) and measures how well the model does on the way: the reward of an environment's
    `step()` (a reinforcement-learning agent trained for a fixed number of episodes; its result
    unpacked into gym's four or gymnasium's five values), a Keras `evaluate()`/`test_on_batch()`,
    a `fit()` given validation data, or a TF1 run of the graph that updates nothing, fed data
    that the loop's passes never change and that nothing else in the loop reads, not its
    training runs nor what their batches are cut from (`accuracy.eval(feed_dict={X: X_valid, y:
    y_valid})` once an epoch: the model scored on held-out data, also through a function or method of
    the file that the loop hands the data, `dev_step(x_dev, y_dev)` feeding its parameters, where no function
    the loop reaches reads that data otherwise; data the loop's generator makes its batches from is
    not held out; data the function made, outside the loop, by plain
    assignments from what the loop trains on is not held out: `sample_inputs` decoded from `data[0:64]`, the
    training files a GAN samples with fixed noise; a feed's placeholders are no data, so `h_valid = sess.run(hidden,
    feed_dict={X: X_valid})` stays held out where the steps feed `hidden`), or a TF2 validation pass held out
    the same way: a loop over a dataset (`for x, y in val_ds: test_step(x, y)`) that runs the model without
    training it and computes a Keras loss or metric, in its body or in a function of the file it calls (a
    pass that only runs the model, to look at samples, measures nothing), or an ordering comparison in its body that
    guards a save of the model's weights (`if hr > best_hr: ... model.save_weights(...)`: the loop keeps its
    best pass, whatever helper scored it), or a skip of the save that takes the score as the new best
    (`if save_best_only and psnr <= ckpt.psnr: continue`, then `ckpt.psnr = psnr` or `ckpt.psnr.assign(psnr)` and a checkpoint's
    `save()`; its other conditions not false with the program's defaults; a skip that updates no best,
    `if step < warmup: continue`, keeps none; nor does a best kept by the loss a training step of the
    loop returns, `g_loss = train_step(x)`: that loss keeps falling after the model stops generalising).
    Not reported: a loop with a way
    out (its own `break`, not a nested loop's; a `return`, `raise`, `yield` or exit) that may be
    taken: one whose every way out sits under an `if` the program's defaults make false, as GL330
    reads it (`if patience and bad >= patience: break` with `--patience` 0 by default), stops
    nothing as the program runs, and is reported saying so. Nor one that reads or sets
    `stop_training` (in it or in a function it calls), one that builds or loads a model (a
    search or a cross-validation trains a new model each pass), one in test code, and a loop nested in
    another of its function unless that one is known to make fewer passes (`for seed in
    range(3)`): the outer loop holds the decision (the episodes around an episode's steps). A loop that trains without measuring
    anything is not reported either, for the reason above: its count is the only budget it has.

    A keras-rl agent's training (`agent.fit(env, nb_steps=...)`: greenlint/rules/keras_rl.py) is
    reported when its environment is a Gym task with a registered solved threshold
    (`gym.make("CartPole-v0")`, the id a literal or a module constant: greenlint/rules/gym_tasks.py
    holds the thresholds and longest episodes gym 0.26.2 registers), it runs more steps than 100
    of the task's longest episodes (so more than the 100 episodes whose mean reward says the task
    is solved), and it is given no callbacks (any callback may stop it). An environment without a
    threshold (Pendulum, the Atari games) is not reported: there "solved" is not defined.

    ## Why is this bad?
    With validation data the program can tell when the model stops improving; without a
    stopping rule it trains all the epochs anyway, and every epoch after the best one is energy
    spent on a model that is not kept (or is worse). Keras' `EarlyStopping(monitor="val_loss",
    patience=..., restore_best_weights=True)` ends training once the validation metric stops
    improving. A callback that keeps the best weights shows the same: the program already
    knows the last epochs are not the best ones, and runs them all the same. An agent that has
    solved its task (its episodes reach the environment's maximum score) keeps playing and
    learning for the rest of its episodes: often the longest and costliest ones, teaching it
    nothing new. A keras-rl agent takes a callback that raises `KeyboardInterrupt` (which its
    `fit` catches to end training, as it does Ctrl+C) once the mean of the last 100 episode
    rewards its `on_episode_end` logs reaches the task's threshold.

    ## Example
    ```python
    model.fit(x, y, epochs=200, validation_split=0.2)

    for episode in range(EPISODES):
        state, score = env.reset(), 0
        for t in range(500):
            state, reward, done, _ = env.step(agent.act(state))
            score += reward
            agent.replay()  # trains the agent's model
            if done:
                break  # ends the episode, not the training
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    stop = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=10, restore_best_weights=True)
    model.fit(x, y, epochs=200, validation_split=0.2, callbacks=[stop])
    ```

    In a loop of its own, stop on the measure it already has:

    ```python
    scores = collections.deque(maxlen=100)
    for episode in range(EPISODES):
        ...  # the episode, as above
        scores.append(score)
        if len(scores) == scores.maxlen and sum(scores) / len(scores) >= SOLVED:
            break
    ```

    ## Energy evidence
    How many epochs early stopping saves depends on the data and the model: the pair under
    bench/rules/ shows one case (a small regression that stops improving early), not a general
    figure. The loop shape is not measured apart: its saving is every pass after the model
    stopped improving (for an agent, every episode after its task is solved), which only the
    problem bounds.

    ## Fix safety
    No automatic fix: stopping early changes the trained model, and the right patience is a
    choice about the problem.

    ## Options
    - `min-epochs`
    - `material-saving-j`
    """

    code = "GL308"
    name = "training-without-early-stopping"
    MESSAGE = "`{method}()` runs {epochs} epochs{basis} with validation data but nothing stops it when validation stops improving"
    KEEPER_MESSAGE = (
        "`{method}()` runs {epochs} epochs{basis} and its callback `{keeper}` keeps the best weights,"
        " but nothing stops it when the model stops improving"
    )
    LOOP_MESSAGE = (
        "`{header}` runs {passes} {unit}{basis} that train the model and measure its progress ({progress}),"
        " but nothing in it ends the loop once the model stops improving or the task is solved"
    )
    DEAD_LOOP_MESSAGE = (
        "`{header}` runs {passes} {unit}{basis} that train the model and measure its progress ({progress}),"
        " and it stops early only when `{test}`, which is false with the program's defaults (`{name}` = {value!r}:"
        " {where}): run as it is by default, it trains every pass once the model stops improving"
    )
    AGENT_MESSAGE = (
        "`{call}()` trains the agent for {steps} steps{basis} on `{task}`, more than {episodes} of its episodes"
        " (at most {longest} steps each), but nothing stops it once the task is solved"
        " (a mean reward of {threshold:g} over {episodes} episodes, its registered threshold)"
    )
    SAVING = "; early stopping saves {saving}"
    #: Where the training's figure is not known: the saving in epochs, unknown until the run plateaus.
    UNPRICED = (
        "; what it would save, the {unit} after the model stops improving, is not known before the run"
        " (at most {stoppable} of the {count})"
    )
    FIX_TITLE = (
        "Stop when the model stops improving: a `tf.keras.callbacks.EarlyStopping(restore_best_weights=True)`"
        " callback, or a `break` on the measure a loop of your own already takes"
    )
    OPTIONS = (
        Option(
            "min-epochs",
            int,
            20,
            "GL308 flags fit() with at least this many epochs, and a training loop of at least this many passes.",
        ),
        SAVING_OPTION,
    )
    VALID = (
        Valid(  # the folds' curves averaged epoch by epoch over the fit's epoch count: the curve is the output
            KFOLD.format(epochs="num_epochs", after="curve = [np.mean([h[i] for h in histories]) for i in range(num_epochs)]\n"),
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the folds' curves stacked and averaged epoch by epoch: curves of one length needed
            KFOLD.format(epochs="num_epochs", after="curve = np.array(histories).mean(axis=0)\n"),
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the same read in a loop, straight from one history
            KFOLD.format(epochs="num_epochs", after="for i in range(num_epochs):\n    print(i, history.history['val_mae'][i])\n"),
            options={"material-saving-j": 0.0},
        ),
        Valid(SAVED.format(score="score = batch_loss", test="batch_loss < best")),  # the best by the training loss
        Valid(SAVED.format(score="score = score_of(sess, logits)", test="epoch % 10 == 0")),  # saved every 10 epochs
        Valid(GENERATED.format(epochs=EPOCHS, dev="x_train, y_train")),  # the dev step scores training data
        Valid(TRAINER.format(dev="x_train, y_train")),  # the method scores the data the loop trains on
        Valid(  # the skip compares the step, not a score: no best is kept
            CHECKPOINTED.format(skip="self.ckpt.step < 10000", update="print(psnr)", best_only="True", steps=1000000)
        ),
        Valid(  # the skip updates no best: the checkpoint after it is not the best one
            CHECKPOINTED.format(**{**BEST_ONLY, "update": "print(psnr)"}, steps=1000000)
        ),
        Valid(  # the variable assigned is another than the best compared
            CHECKPOINTED.format(**{**BEST_ONLY, "update": "self.ckpt.step.assign(psnr)"}, steps=1000000)
        ),
        Valid(  # keeping the best only is off with the program's defaults: every evaluation saves
            CHECKPOINTED.format(**{**BEST_ONLY, "best_only": "False"}, steps=1000000)
        ),
        Valid(CHECKPOINTED.format(**BEST_ONLY, steps=10)),  # one subclass trains 10 steps: at least 10
        Valid(  # the same, numbered by enumerate()
            CHECKPOINTED.format(**BEST_ONLY, steps=10).replace(
                "for lr, hr in train_ds.take(", "for i, (lr, hr) in enumerate(train_ds.take("
            ).replace(".numpy()):", ".numpy())):")
        ),
        Valid(  # the generator's epochs are too few
            GENERATED.format(epochs=EPOCHS, dev="x_dev, y_dev").replace("'num_epochs', 200", "'num_epochs', 10")
        ),
        Valid(  # the generator may end its epochs early: how many it makes is not known
            GENERATED.format(epochs=EPOCHS + "\n        if stop():\n            break", dev="x_dev, y_dev")
        ),
        Valid(  # the dev data is also read by the training step: not held out
            GENERATED.format(epochs=EPOCHS, dev="x_dev, y_dev").replace(
                "sess.run(train_op, feed_dict={X: x_batch, y: y_batch})",
                "sess.run(train_op, feed_dict={X: x_batch + x_dev[:1], y: y_batch})",
            )
        ),
        Valid(  # the epoch loop's early stop waits on a patience of 5 by default: it may be taken
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--patience', type=int, default=5)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "bad, best = 0, 1e9\nfor epoch in range(200):\n    for x, y in batches:\n        m.train_on_batch(x, y)\n"
            "    loss = m.evaluate(vx, vy)\n    bad = 0 if loss < best else bad + 1\n    best = min(best, loss)\n"
            "    if args.patience and bad >= args.patience:\n        break\n"
        ),
        Valid(  # the graph scored on the batch it last trained on: a measure of the training data
            GRAPH.format(batches=SHUFFLED, fed="{X: X_batch, y: y_batch}")
        ),
        Valid(  # scored on the arrays its batches are cut from: the training data again
            GRAPH.format(batches=SHUFFLED, fed="{X: X_train, y: y_train}")
        ),
        Valid(  # a priced fit: early stopping saves at most 98 % of its 1 kJ, under material-saving-j
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=100, validation_data=(vx, vy))\n"
        ),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "stop = tf.keras.callbacks.EarlyStopping(patience=3)\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[stop])\n"
        ),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=100)\n"),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=5, validation_split=0.2)\n"),
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=make_callbacks())\n"
        ),
        Valid(  # TimeStopping caps the wall time
            "import tensorflow as tf\nimport tensorflow_addons as tfa\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[tfa.callbacks.TimeStopping(seconds=600)])\n"
        ),
        Valid(  # a step-driven schedule given to the optimizer: the steps it decays over are the design
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "lr = tf.keras.optimizers.schedules.PiecewiseConstantDecay([200, 300], [0.003, 0.0003, 0.00003])\n"
            "m.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=lr, momentum=0.9), loss='mse')\n"
            "m.fit(x, y, epochs=50, validation_data=(vx, vy))\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the schedule given in place
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "opt = tf.keras.optimizers.Adam(tf.keras.optimizers.schedules.CosineDecay(0.001, 5000))\n"
            "m.compile(optimizer=opt, loss='mse')\n"
            "m.fit(x, y, epochs=50, validation_data=(vx, vy))\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # an epoch-driven schedule: the epoch count is part of the design
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "schedule = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.01 * 0.9 ** epoch)\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[schedule])\n"
        ),
        Valid(  # the list the name holds has an EarlyStopping appended
            "import tensorflow as tf\nm = tf.keras.Sequential()\ncallbacks = [tf.keras.callbacks.TensorBoard()]\n"
            "callbacks.append(tf.keras.callbacks.EarlyStopping(patience=3))\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=callbacks)\n"
        ),
        Valid(  # a flag's small default
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--epochs', type=int, default=5)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=args.epochs, validation_split=0.2)\n"
        ),
        Valid(  # the attribute is set again outside __init__: its value when fit runs is not known
            "import tensorflow as tf\nclass Trainer:\n"
            "    def __init__(self, model: tf.keras.Model, epochs=150):\n"
            "        self.model = model\n        self.epochs = epochs\n"
            "    def quick(self):\n        self.epochs = 3\n"
            "    def train(self):\n        self.model.fit(x, y, epochs=self.epochs, validation_split=0.1)\n"
        ),
        Valid(  # one of the lists the helper returns holds an EarlyStopping
            "import tensorflow as tf\ndef get_callbacks(patience):\n    if patience:\n"
            "        return [tf.keras.callbacks.EarlyStopping(patience=patience)]\n"
            "    return [tf.keras.callbacks.TensorBoard()]\n"
            "m = tf.keras.Sequential()\nm.fit(x, y, epochs=100, validation_split=0.2, callbacks=get_callbacks(5))\n"
        ),
        Valid(  # the callers pass the parameter different counts: which one a run takes is not known
            "import tensorflow as tf\ndef train(model, epochs):\n    model.fit(x, y, epochs=epochs, validation_split=0.2)\n"
            "train(tf.keras.Sequential(), 100)\ntrain(tf.keras.Sequential(), 3)\n"
        ),
        Valid(  # the class appends an EarlyStopping to the list it keeps in an attribute
            "import tensorflow as tf\nclass Trainer:\n    def __init__(self):\n        self.model = tf.keras.Sequential()\n"
            "        self.callbacks = [tf.keras.callbacks.ModelCheckpoint('w.h5')]\n"
            "        self.callbacks.append(tf.keras.callbacks.EarlyStopping(patience=4))\n"
            "    def train(self):\n        self.model.fit(x, y, epochs=100, validation_split=0.2, callbacks=self.callbacks)\n"
        ),
        Valid(  # the name holding the flag's default is bound again: its value when fit runs is not known
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--epochs', type=int, default=100)\nargs = p.parse_args()\nepochs = args.epochs\n"
            "if args.quick:\n    epochs = 2\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=epochs, validation_split=0.2)\n"
        ),
        Valid(  # a project callback may stop training (it is defined elsewhere)
            "import tensorflow as tf\nfrom .callbacks import StopAtAccuracy\nm = tf.keras.Sequential()\n"
            "stop = StopAtAccuracy(0.99)\n"
            "m.fit(x, y, epochs=100, validation_data=(vx, vy), callbacks=[tf.keras.callbacks.TensorBoard(), stop])\n"
        ),
        Valid(  # a callback of the file that sets the learning rate by the epoch: the count is a design choice
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Warmup(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_begin(self, epoch, logs=None):\n        m.optimizer.learning_rate = 0.1 * epoch\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[Warmup()])\n"
        ),
        Valid(  # a subclass of EarlyStopping stops training
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Stop(tf.keras.callbacks.EarlyStopping):\n    pass\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[Stop()])\n"
        ),
        Valid(  # no validation data, and the file's callback only prints: nothing measures progress
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Show(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        print(sample(m))\n"
            "m.fit(x, y, epochs=100, callbacks=[Show()])\n"
        ),
        Valid(  # the file's callback sets stop_training itself
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def __init__(self):\n        self.best = 0.0\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        acc = evaluate(valid)\n"
            "        if acc > self.best:\n            self.best = acc\n            m.save_weights('best.weights')\n"
            "        elif epoch > 5:\n            self.model.stop_training = True\n"
            "m.fit(gen, epochs=50, callbacks=[Evaluator()])\n"
        ),
        Valid(  # a function of the file sets stop_training: what it stops is not known
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def stop_on_signal(signum, frame):\n    m.stop_training = True\n"
            "m.fit(x, y, epochs=100, validation_split=0.2)\n"
        ),
        Valid(  # the helper that builds the list adds an EarlyStopping
            HELPER.format(extra="    callbacks.append(tf.keras.callbacks.EarlyStopping(patience=5))\n")
        ),
        Valid(  # the default takes the branch of a callback not known
            LOGGED.format(default="'my-project'"),
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the parameter's default is an option given no default: None, the epochs are the command line's
            OPTION_DEFAULT.format(option="p.add_argument('--epochs', type=int)"),
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the helper returns another call's result: the callbacks are unknown
            "import tensorflow as tf\ndef make_callbacks(args):\n    return build(args)\n"
            "m = tf.keras.Sequential()\ncallbacks = make_callbacks(args)\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=callbacks)\n"
        ),
        Valid(  # the loop stops once the task is solved
            AGENT.format(count=1000, stop="    if mean(scores) >= 475:\n        break\n")
        ),
        Valid(AGENT.format(count=10, stop="")),  # a handful of episodes
        Valid(  # a function the loop calls ends the program once solved
            AGENT.format(count=1000, stop="    check(t)\n")
            + "import sys\ndef check(score):\n    if score >= 475:\n        sys.exit(0)\n"
        ),
        Valid(  # weights saved every 10 passes: an equality test keeps no best, nothing measures progress
            "from keras.models import Sequential\nm = Sequential()\n"
            "for epoch in xrange(100):\n    m.fit(x, y, batch_size=256, nb_epoch=1)\n"
            "    if epoch % 10 == 0:\n        m.save_weights('last.h5')\n"
        ),
        Valid(  # the score is only printed: the manager saves every pass, and nothing keeps a best
            MANAGED.format(guarded="if score > best:\n        print(score)\n    manager.save()")
        ),
        Valid(  # the best kept is the loss the training step returns: no measure of progress
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\nopt = tf.keras.optimizers.Adam()\n"
            "manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model), 'ckpt', max_to_keep=1)\n"
            "def step(x, y):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(tf.square(y - model(x)))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "    return loss\nbest = 1e9\nfor epoch in range(100):\n    for x, y in batches:\n        loss = step(x, y)\n"
            "    if loss < best:\n        best = loss\n        manager.save()\n"
        ),
        Valid(VALIDATED.format(made="", valid="train_ds", scored="test_step(x, y)")),  # scored on the training data
        Valid(BARRED.format(imports="from tqdm import trange", header="trange(epochs)", epochs=5)),  # a short run
        Valid(  # a project's own `tqdm`, no progress bar greenlint knows: how often it yields is not known
            BARRED.format(imports="from utils import tqdm", header="tqdm(range(epochs))", epochs=50)
        ),
        Valid(  # a sample of the training data: not held out
            VALIDATED.format(made="val_ds = train_ds.take(10)\n", valid="val_ds", scored="test_step(x, y)")
        ),
        Valid(  # the pass only runs the model (samples to look at): no loss or metric measures progress
            VALIDATED.format(made="", valid="val_ds", scored="shown.append(model(x, training=False))")
        ),
        Valid(  # scored on a sample cut from the training files before the loop (a GAN's fixed sample): not held out
            "import numpy as np\nimport tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\n"
            "train_op = opt.minimize(loss)\nsess = tf.compat.v1.Session()\nsample_files = data[0:64]\n"
            "sample = [decode(f) for f in sample_files]\nsample_inputs = np.array(sample)\nfor epoch in range(25):\n"
            "    for idx in range(n):\n        batch = np.array([decode(f) for f in data[idx * 64:(idx + 1) * 64]])\n"
            "        sess.run(train_op, feed_dict={x: batch})\n    print(loss.eval(feed_dict={x: sample_inputs}))\n"
        ),
        Valid(  # a fixed budget of steps with nothing that measures progress: the count is the only budget
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor step in range(10000):\n"
            "    m.train_on_batch(*next_batch())\n"
        ),
        Valid(  # the loop reads a callback's stop_training flag
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(100):\n"
            "    m.train_on_batch(x, y)\n    logs = {'val_loss': m.evaluate(vx, vy)}\n"
            "    stopper.on_epoch_end(epoch, logs)\n    if m.stop_training:\n        m.stop_training = False\n"
        ),
        Valid(  # the count is not known (the length of the data)
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(len(batches)):\n"
            "    m.train_on_batch(x, y)\n    m.evaluate(vx, vy)\n"
        ),
        Valid(  # a test: a fixed count on purpose
            "import tensorflow as tf\ndef test_training_converges():\n    m = tf.keras.Sequential()\n"
            "    for epoch in range(50):\n        m.train_on_batch(x, y)\n        m.evaluate(vx, vy)\n"
        ),
        Valid(  # a search: each pass trains a new model (built by a function of the file)
            "import tensorflow as tf\ndef build(units):\n    return tf.keras.Sequential([tf.keras.layers.Dense(units)])\n"
            "for trial in range(50):\n    m = build(2 ** (trial % 8))\n"
            "    m.fit(x, y, epochs=5, validation_data=(vx, vy))\n"
        ),
        Valid(  # a step() whose result is not an environment's four or five values
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(100):\n"
            "    m.train_on_batch(x, y)\n    scheduler.step()\n"
        ),
        Valid(RL_AGENT.format(env="Pendulum-v1", fit="nb_steps=50000")),  # no solved threshold registered
        Valid(  # at most 50 CartPole-v0 episodes: fewer than the 100 whose mean says it is solved
            RL_AGENT.format(env="CartPole-v0", fit="nb_steps=10000, verbose=2")
        ),
        Valid(  # callbacks given: keras-rl's or the user's, they may stop the agent
            RL_AGENT.format(env="CartPole-v0", fit="nb_steps=50000, callbacks=[FileLogger('log.json')]")
        ),
        Valid(  # the loop consuming the generator's episodes stops once the task is solved
            GENERATOR.format(consume="    if total >= 475:\n        break\n")
        ),
        Valid(  # the generator is handed elsewhere too: a consumer not seen here may stop it
            GENERATOR.format(consume="    print(total)\nrun_until_solved(learn)\n")
        ),
    )
    INVALID = (
        Invalid(  # the curves read over their own lengths: a shorter curve reads as well, early stopping breaks nothing
            KFOLD.format(epochs="num_epochs", after="for h in histories:\n    for i in range(len(h)):\n        print(h[i])\n"),
            line=8,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # each fold's curve reduced on its own (its best epoch): a shorter curve reduces as well
            KFOLD.format(epochs="num_epochs", after="best = np.mean([np.min(h, axis=0) for h in histories])\n"),
            line=8,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # indexed over another count than the fit's epochs (the folds), not epoch by epoch
            KFOLD.format(epochs="num_epochs", after="best = [min(histories[i]) for i in range(4)]\n"),
            line=8,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a generator's episodes, each reward yielded to a loop that only prints it: nothing stops them
            GENERATOR.format(consume="    print(total)\n"),
            line=7,
            message_contains="`for e in range(episodes)` runs 1000 passes",
        ),
        Invalid(  # the schedule drives another model's optimizer; this one was compiled with a constant rate
            "import tensorflow as tf\nm = tf.keras.Sequential()\nother = tf.keras.Sequential()\n"
            "lr = tf.keras.optimizers.schedules.PiecewiseConstantDecay([200, 300], [0.003, 0.0003, 0.00003])\n"
            "other.compile(optimizer=tf.keras.optimizers.SGD(lr), loss='mse')\n"
            "m.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.003), loss='mse')\n"
            "m.fit(x, y, epochs=50, validation_data=(vx, vy))\n",
            line=7,
            message_contains="runs 50 epochs with validation data",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the model was compiled again, after the scheduled compile, with a constant rate
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "lr = tf.keras.optimizers.schedules.PiecewiseConstantDecay([200, 300], [0.003, 0.0003, 0.00003])\n"
            "m.compile(optimizer=tf.keras.optimizers.SGD(lr), loss='mse')\n"
            "m.compile(optimizer=tf.keras.optimizers.SGD(0.003), loss='mse')\n"
            "m.fit(x, y, epochs=50, validation_data=(vx, vy))\n",
            line=6,
            message_contains="runs 50 epochs with validation data",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a schedule the file builds but no optimizer takes: the fit's learning rate is constant
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "lr = tf.keras.optimizers.schedules.PiecewiseConstantDecay([200, 300], [0.003, 0.0003, 0.00003])\n"
            "m.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.003), loss='mse')\n"
            "m.fit(x, y, epochs=50, validation_data=(vx, vy))\n",
            line=5,
            message_contains="runs 50 epochs with validation data",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a TF1 loop over a batch generator's 200 epochs, a dev set scored through a function
            GENERATED.format(epochs=EPOCHS, dev="x_dev, y_dev"),
            line=22,
            message_contains="runs 200 epochs of `batch_iter()`'s batches (`FLAGS.num_epochs`: the default of"
            " `--num_epochs`) that train the model and measure its progress (`dev_step()` on data the loop does"
            " not train on)",
        ),
        Invalid(  # Keras: a loop over a generator's 100 epochs (its default), validated every 500 steps
            "import tensorflow as tf\ndef batches_of(x, y, size, epochs=100):\n    for _ in range(epochs):\n"
            "        for i in range(0, len(x), size):\n            yield x[i:i + size], y[i:i + size]\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\nmodel.compile(optimizer='adam', loss='mse')\n"
            "for step, (x, y) in enumerate(batches_of(x_train, y_train, 32)):\n    model.train_on_batch(x, y)\n"
            "    if step % 500 == 0:\n        print(model.evaluate(x_val, y_val))\n",
            line=8,
            message_contains="runs 100 epochs of `batches_of()`'s batches (the default of `batches_of`'s `epochs`)",
        ),
        Invalid(  # a TF1 `Saver` keeps the best weights by a score and nothing stops the loop on it
            SAVED.format(score="score = score_of(sess, logits)", test="score < best"),
            line=11,
            message_contains="measure its progress (`score < best`, which keeps the best weights)",
        ),
        Invalid(  # a TF2 step loop keeps its best checkpoint by the validation score and never stops on it
            CHECKPOINTED.format(**BEST_ONLY, steps=1000000),
            line=9,
            message_contains="runs 300000 steps (`steps`: the least that the calls of `train()` pass it, so at least"
            " that many; on a fresh run: one resumed from a checkpoint runs what is left) that train the model and measure its"
            " progress (`psnr <= self.ckpt.psnr`, which keeps the best checkpoint)",
        ),
        Invalid(  # the best is a variable the skip's follower assigns
            CHECKPOINTED.format(**{**BEST_ONLY, "update": "self.ckpt.psnr.assign(psnr)"}, steps=1000000),
            line=9,
            message_contains="(`psnr <= self.ckpt.psnr`, which keeps the best checkpoint)",
        ),
        Invalid(  # the same loop numbered by enumerate()
            CHECKPOINTED.format(**BEST_ONLY, steps=1000000).replace(
                "for lr, hr in train_ds.take(", "for i, (lr, hr) in enumerate(train_ds.take("
            ).replace(".numpy()):", ".numpy())):"),
            line=9,
            message_contains="runs 300000 steps",
        ),
        Invalid(  # a class's epoch loop scores the dev set through a method it hands the data
            TRAINER.format(dev="x_dev, y_dev"),
            line=16,
            message_contains="runs 50 passes that train the model and measure its progress (`self.dev_step()` on data",
        ),
        Invalid(  # priced: 30 fits of at most 1 kJ each, 98 % of which early stopping may save
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor seed in range(30):\n"
            "    m.fit(x, y, epochs=100, validation_data=(vx, vy))\n",
            line=4,
            message_contains="early stopping saves up to 14.7 kJ over a run of the program (up to 98% of the training's 15 kJ",
        ),
        Invalid(  # keras-rl: 50,000 steps are at least 250 CartPole-v0 episodes, solved at a mean of 195
            RL_AGENT.format(env="CartPole-v0", fit="nb_steps=50000, visualize=False, verbose=2"),
            line=9,
            message_contains="trains the agent for 50000 steps on `CartPole-v0`, more than 100 of its episodes",
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=100, validation_data=(vx, vy))\n",
            line=3,
            message_contains="100 epochs",
            options={"material-saving-j": 0.0},
        ),
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=50, validation_split=0.1, callbacks=[tf.keras.callbacks.TensorBoard()])\n",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # neither a learning-rate schedule nor stopping on NaN caps training
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "plateau = tf.keras.callbacks.ReduceLROnPlateau(patience=5)\n"
            "m.fit(x, y, epochs=200, validation_split=0.2, callbacks=[plateau, tf.keras.callbacks.TerminateOnNaN()])\n",
            line=4,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the name holds a list of callbacks that never stop training
            "import tensorflow as tf\nm = tf.keras.Sequential()\ncbs = [tf.keras.callbacks.ModelCheckpoint('w.h5')]\n"
            "cbs += [tf.keras.callbacks.TensorBoard()]\nm.fit(x, y, epochs=100, validation_split=0.2, callbacks=cbs)\n",
            line=5,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # an argparse default
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--num-epochs', type=int, default=300)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "m.fit(x, y, epochs=args.num_epochs, validation_data=(vx, vy))\n",
            line=7,
            message_contains="300 epochs (the default of `--num_epochs`)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the list a helper of the file returns, passed as its call
            "import tensorflow as tf\ndef get_callbacks(name):\n"
            "    return [tf.keras.callbacks.ModelCheckpoint(name + '.h5', save_best_only=True),"
            " tf.keras.callbacks.TensorBoard('logs/' + name)]\n"
            "m = tf.keras.Sequential()\nm.fit(x, y, epochs=100, validation_data=(vx, vy), callbacks=get_callbacks('m'))\n",
            line=5,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the list a class keeps in an attribute
            "import tensorflow as tf\nclass Trainer:\n    def __init__(self):\n        self.model = tf.keras.Sequential()\n"
            "        self.callbacks = [tf.keras.callbacks.ModelCheckpoint('w.h5')]\n"
            "        self.callbacks.append(tf.keras.callbacks.TensorBoard())\n"
            "    def train(self):\n        self.model.fit(x, y, epochs=100, validation_split=0.2, callbacks=self.callbacks)\n",
            line=8,
        ),
        Invalid(  # an argparse default held by a name bound once
            "import argparse\nimport tensorflow as tf\ndef main():\n    p = argparse.ArgumentParser()\n"
            "    p.add_argument('--epochs', type=int, default=100)\n    args = p.parse_args()\n"
            "    num_epochs = args.epochs\n    m = tf.keras.Sequential()\n"
            "    m.fit(x, y, epochs=num_epochs, validation_split=0.2)\n",
            line=9,
            message_contains="100 epochs (the default of `--epochs`)",
        ),
        Invalid(  # a flag's default passed to the parameter of the function that trains
            "import argparse\nimport tensorflow as tf\ndef train(model, epochs):\n"
            "    model.fit(x, y, epochs=epochs, validation_split=0.2)\nif __name__ == '__main__':\n"
            "    p = argparse.ArgumentParser()\n    p.add_argument('--epochs', type=int, default=100)\n"
            "    train(tf.keras.Sequential(), p.parse_args().epochs)\n",
            line=4,
            message_contains="100 epochs (the default of `--epochs`)",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # an absl flag's default
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer('epochs', 150, 'epochs')\n"
            "FLAGS = flags.FLAGS\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=FLAGS.epochs, validation_split=0.1)\n",
            line=6,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a parameter's default (its callers are elsewhere)
            "import tensorflow as tf\ndef train(m: tf.keras.Model, epochs=200):\n"
            "    m.fit(x, y, epochs=epochs, validation_split=0.1)\n",
            line=3,
            message_contains="the default of parameter `epochs`",
        ),
        Invalid(  # an attribute the class sets once, from its __init__'s parameter default
            "import tensorflow as tf\nclass Trainer:\n"
            "    def __init__(self, model: tf.keras.Model, epochs=150):\n"
            "        self.model = model\n        self.epochs = epochs\n"
            "    def train(self):\n        self.model.fit(x, y, epochs=self.epochs, validation_split=0.1)\n",
            line=7,
            message_contains="150 epochs (the default of parameter `epochs` of `Trainer`)",
        ),
        Invalid(  # fit_generator takes validation data too
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit_generator(gen, epochs=100, validation_data=val_gen)\n",
            line=3,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # Keras 1's `nb_epoch`, which Keras 2 reads as `epochs`
            "from keras.models import Sequential\nfrom keras.callbacks import ModelCheckpoint\nm = Sequential()\n"
            "m.fit_generator(gen, samples_per_epoch=2000, nb_epoch=50, validation_data=val_gen, nb_val_samples=800,\n"
            "                callbacks=[ModelCheckpoint('w.h5', save_best_only=True)])\n",
            line=4,
            message_contains="50 epochs",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the EarlyStopping of the file goes to another fit only
            "import tensorflow as tf\nm = tf.keras.Sequential()\nstop = tf.keras.callbacks.EarlyStopping(patience=3)\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[stop])\n"
            "m.fit(x2, y2, epochs=100, validation_split=0.2)\n",
            line=5,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the file's stopping callback goes to the first fit only
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class StopAt(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n"
            "        if logs['val_accuracy'] > 0.99:\n            self.model.stop_training = True\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[StopAt()])\n"
            "m.fit(x2, y2, epochs=100, validation_split=0.2)\n",
            line=8,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a callback of the file keeps the best weights on its own validation pass
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Evaluator(tf.keras.callbacks.Callback):\n"
            "    def __init__(self):\n        self.best = 0.0\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        acc = evaluate(valid)\n"
            "        if acc > self.best:\n            self.best = acc\n            m.save_weights('best.weights')\n"
            "evaluator = Evaluator()\nm.fit(gen, steps_per_epoch=100, epochs=50, callbacks=[evaluator])\n",
            line=12,
            message_contains="its callback `Evaluator` keeps the best weights",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # with validation data, a logging callback of the file does not stop training
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Show(tf.keras.callbacks.Callback):\n"
            "    def on_epoch_end(self, epoch, logs=None):\n        print(logs)\n"
            "m.fit(x, y, epochs=100, validation_split=0.2, callbacks=[Show()])\n",
            line=6,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the list a helper of the file builds and returns (a TensorBoard only when logging)
            HELPER.format(extra=""),
            line=13,
        ),
        Invalid(  # epochs a parameter whose default is an option's, read when the function is defined
            OPTION_DEFAULT.format(option="p.add_argument('--epochs', type=int, default=60)"),
            line=9,
            message_contains="runs 60 epochs (the default of parameter `epochs`, `args.epochs`: the default of"
            " `--epochs`) with validation data",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the list bound in two branches: the one the program's defaults take holds no stopping callback
            LOGGED.format(default="''"),
            line=13,
            message_contains="runs 50 epochs with validation data",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # an agent trained for a fixed number of episodes: the break leaves the episode only
            AGENT.format(count=1000, stop=""),
            line=8,
            message_contains="runs 1000 passes (`EPISODES` = 1000) that train the model and measure its progress"
            " (the reward `env.step()` returns)",
        ),
        Invalid(  # an epoch loop that evaluates on validation data every pass and never stops on it
            "import tensorflow as tf\nm = tf.keras.Sequential()\nfor epoch in range(200):\n"
            "    for x, y in batches:\n        m.train_on_batch(x, y)\n    print(m.evaluate(vx, vy))\n",
            line=3,
            message_contains="`evaluate()` on other data",
        ),
        Invalid(  # a TF1 graph scored on held-out arrays once an epoch
            GRAPH.format(batches=SHUFFLED, fed="{X: X_valid, y: y_valid}"),
            line=9,
            message_contains="(`accuracy.eval()` on data the loop does not train on)",
        ),
        Invalid(  # scored on a frozen layer's cache of the validation set, made by a run fed the placeholder the steps feed
            "import numpy as np\nimport tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer()\n"
            "training_op = opt.minimize(loss)\nsess = tf.compat.v1.Session()\n"
            "h_train = sess.run(hidden, feed_dict={X: X_train})\nh_valid = sess.run(hidden, feed_dict={X: X_valid})\n"
            "for epoch in range(20):\n    for hb, yb in zip(np.array_split(h_train, 50), np.array_split(y_train, 50)):\n"
            "        sess.run(training_op, feed_dict={hidden: hb, y: yb})\n"
            "    print(accuracy.eval(feed_dict={hidden: h_valid, y: y_valid}))\n",
            line=8,
            message_contains="(`accuracy.eval()` on data the loop does not train on)",
        ),
        Invalid(  # a loop's saving, the passes after the plateau, is the run's to decide
            GRAPH.format(batches=SHUFFLED, fed="{X: X_valid, y: y_valid}"),
            line=9,
            message_contains="; what it would save, the passes after the model stops improving, is not known before"
            " the run (at most 38 of the 40)",
        ),
        Invalid(  # the pass count a name bound twice: the value the program reaches the loop with
            "n_epochs = 5\nn_epochs = 40\n"
            + GRAPH.format(batches=SHUFFLED, fed="{X: X_valid, y: y_valid}").replace("range(40)", "range(n_epochs)"),
            line=11,
            message_contains="runs 40 passes (`range(n_epochs)`, as the program runs in order)",
        ),
        Invalid(  # held-out data as an attribute of the dataset its batches come from
            GRAPH.format(
                batches="        for it in range(500):\n            X_batch, y_batch = mnist.train.next_batch(50)\n",
                fed="{X: mnist.validation.images, y: mnist.validation.labels}",
            ),
            line=9,
        ),
        Invalid(  # Python 2's xrange; a helper of another module scores the model, the loop keeps the best weights
            "from keras.models import Sequential\nfrom evaluate import hit_ratio\nm = Sequential()\nbest = 0\n"
            "for epoch in xrange(100):\n    m.fit(x, y, batch_size=256, nb_epoch=1)\n    hr = hit_ratio(m, ratings)\n"
            "    if hr > best:\n        best = hr\n        m.save_weights('best.h5')\n",
            line=5,
            message_contains="`for epoch in xrange(100)` runs 100 passes that train the model and measure"
            " its progress (`hr > best`, which keeps the best weights)",
        ),
        Invalid(  # a TF2 checkpoint manager keeps the best-scoring pass of an epoch loop
            MANAGED.format(guarded="if score > best:\n        best = score\n        manager.save()"),
            line=8,
            message_contains="runs 100 passes that train the model and measure its progress (`score > best`,"
            " which keeps the best weights)",
        ),
        Invalid(  # a TF2 loop scores a held-out split each epoch through a test step's metric
            VALIDATED.format(made="val_ds = ds.take(1000)\ntrain_ds = ds.skip(1000)\n", valid="val_ds", scored="test_step(x, y)"),
            line=16,
            message_contains="runs 50 passes that train the model and measure its progress (a loss or metric over"
            " `val_ds`, data the loop does not train on)",
        ),
        Invalid(  # the epoch loop of a function counts through a progress bar wrapping its range
            BARRED.format(imports="from tqdm import tqdm", header="tqdm(range(epochs))", epochs=50),
            line=13,
            message_contains="`for epoch in tqdm(range(epochs))` runs 50 passes (`epochs`: the default of parameter"
            " `epochs`) that train the model and measure its progress",
        ),
        Invalid(  # tqdm's `trange`, given a description: a range all the same
            BARRED.format(imports="import tqdm", header="tqdm.trange(epochs, desc='epoch')", epochs=100),
            line=13,
            message_contains="runs 100 passes",
        ),
        Invalid(  # the validation pass calls the model and a metric itself, not through a step function
            VALIDATED.format(made="", valid="val_ds", scored="val_loss(loss_fn(y, model(x, training=False)))"),
            line=14,
            message_contains="(a loss or metric over `val_ds`, data the loop does not train on)",
        ),
        Invalid(  # the epoch loop's early stop waits on a patience that defaults to 0
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--patience', type=int, default=0)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "bad, best = 0, 1e9\nfor epoch in range(200):\n    for x, y in batches:\n        m.train_on_batch(x, y)\n"
            "    loss = m.evaluate(vx, vy)\n    bad = 0 if loss < best else bad + 1\n    best = min(best, loss)\n"
            "    if args.patience and bad >= args.patience:\n        break\n",
            line=8,
            message_contains="stops early only when `args.patience`, which is false with the"
            " program's defaults (`args.patience` = 0: the default of `--patience`)",
        ),
        Invalid(  # gymnasium's five values, the count a parameter's default; the outer loop of two is reported
            "import gymnasium\nimport tensorflow as tf\nm = tf.keras.Sequential()\nopt = tf.keras.optimizers.Adam()\n"
            "def train(env, episodes=300):\n    for e in range(episodes):\n        obs, info = env.reset()\n"
            "        for t in range(1000):\n            obs, reward, terminated, truncated, info = env.step(policy(obs))\n"
            "            opt.apply_gradients(grads(obs, reward))\n",
            line=6,
            message_contains="300 passes (`episodes`: the default of parameter `episodes`)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        minimum = int(options.get("min-epochs", 20))
        if _stops_elsewhere(facts):
            return
        schedules = any(s.api.startswith(LR_SCHEDULES) for s in facts.sites)
        apis: dict[int, str] | None = None  # built once, for the first fit with a callbacks list
        for site in facts.sites:
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):
                continue
            if site.features.get("receiver") == "wrapper":
                wrapped = _wrapped_fit(facts, site)
                if wrapped is None:
                    continue
                epochs, basis = wrapped
                validated, keeper = True, None
                if epochs < minimum:
                    continue
            else:
                call = facts.node(site)
                if call is None:
                    continue
                validated = keyword(call, "validation_data") is not None or keyword(call, "validation_split") is not None
                counted, basis = _epochs(facts, site, call)
                if counted is None or counted < minimum or any(k.arg is None for k in call.keywords):
                    continue
                if curve_read_per_epoch(facts, call, site.callsite.span.cell):
                    continue  # the whole per-epoch curve is the program's output
                if schedules:
                    apis = apis if apis is not None else {id(facts.node(s)): s.api for s in facts.sites}
                    if _scheduled_fit(facts, call, site.callsite.span.cell, apis):
                        continue
                epochs = counted
                callbacks = keyword(call, "callbacks")
                elements = listed(facts, callbacks.value) if callbacks is not None else []
                if elements is None:
                    continue
                if elements:
                    apis = apis if apis is not None else {id(facts.node(s)): s.api for s in facts.sites}
                    if _may_stop(facts, elements, apis):
                        continue
                keeper = None if validated else _keeper(facts, elements)
                if not validated and keeper is None:
                    continue
            share = stopped_share(epochs)
            work = work_j([site])
            saving = share_of(work, share)
            if immaterial_saving(saving, options) or in_tests(facts, site):
                continue
            method = site.api.rsplit(".", 1)[-1]
            template = self.MESSAGE if validated else self.KEEPER_MESSAGE
            basis = f" ({basis})" if basis else ""
            message = template.format(method=method, epochs=epochs, basis=basis, keeper=keeper)
            if work is not None:
                message += self.SAVING.format(saving=saving_clause(work, share, site.prediction.label))
            else:
                message += self.UNPRICED.format(unit="epochs", stoppable=stoppable(epochs), count=epochs)
            yield self.diagnostic(site.callsite.span, facts.path, message)
        yield from self._agents(facts)
        for found in fixed_training_loops(facts, minimum):
            loop, head = found.loop, found.loop.iter
            span = facts.span(loop, found.cell, through=head)
            header = ast.unparse(loop).split("\n", 1)[0].rstrip(":")
            shown = dict(header=header, passes=found.passes, unit=found.unit, basis=found.basis, progress=found.progress)
            if found.dead is None:
                unpriced = self.UNPRICED.format(unit=found.unit, stoppable=stoppable(found.passes), count=found.passes)
                message = self.LOOP_MESSAGE.format(**shown) + unpriced
            else:
                message = self.DEAD_LOOP_MESSAGE.format(**shown, **found.dead._asdict())
            yield self.diagnostic(span, facts.path, message)

    def _agents(self, facts: FileFacts) -> Iterator[Diagnostic]:
        """keras-rl's `agent.fit(env, nb_steps)` without callbacks on a Gym task that has a solved
        threshold, for more steps than `EPISODES` of its longest episodes."""
        if "Agent" not in facts.text:  # keras-rl agent classes: `DQNAgent`, `DDPGAgent`, ...
            return
        for cell, call in agent_fits(facts):
            callbacks = fit_argument(call, "callbacks")
            env = fit_argument(call, "env")
            if (
                not (callbacks is None or (isinstance(callbacks, ast.Constant) and callbacks.value is None))
                or env is None
            ):
                continue
            task = gym_task(facts, env, cell)
            given = fit_argument(call, "nb_steps")
            steps, basis = known_value(facts, given, cell) if given is not None else (None, "")
            if task is None or not isinstance(steps, int) or steps <= EPISODES * task.max_episode_steps:
                continue
            message = self.AGENT_MESSAGE.format(
                call=ast.unparse(call.func),
                steps=steps,
                basis=basis,
                task=task.id,
                episodes=EPISODES,
                longest=task.max_episode_steps,
                threshold=task.reward_threshold,
            )
            yield self.diagnostic(facts.span(call, cell), facts.path, message)


def stopped_share(epochs: int) -> tuple[float, float]:
    """The share of a fit's epochs early stopping can save: none where the model improves to the
    end; at most all but two (`stoppable`)."""
    return 0.0, stoppable(epochs) / epochs


def stoppable(epochs: int) -> int:
    """The most epochs (or passes) a stop on a plateau can save: all but two, the best one and the
    one that shows no improvement, at `EarlyStopping`'s least patience."""
    return max(epochs - 2, 0)


def _wrapped_fit(facts: FileFacts, site: Site) -> tuple[int, str] | None:
    """The epochs, and where they come from, of a fit a project wrapper makes for this call
    (`model.train(train, val, epochs=30)`, analysis/wrapped.py), where the analysis walked it with
    this call's arguments and found validation data, its epochs and every callback it is given, each
    one known never to end training; None otherwise (a callback not known, none given: the walk
    does not say which, a `**kwargs` passed on)."""
    call = facts.call_at(site)
    epochs = site.features.get("epochs")
    given = site.features.get("callbacks")
    validated = "validation_samples" in site.callsite.work or site.features.get("validation_split")
    if (
        call is None
        or any(k.arg is None for k in call.keywords)
        or not isinstance(epochs, int)
        or isinstance(epochs, bool)
        or not validated
        or not isinstance(given, list)
        or any(api not in NOT_STOPPING for api in given)
    ):
        return None
    resumed = ("; it resumes from an `initial_epoch` not known here: at most that many"
               if "initial_epoch" in site.callsite.work else "")
    return epochs, f"passed through this call to {site.features.get('via', site.api)}{resumed}"


def _epochs(facts: FileFacts, site: Site, call: ast.Call) -> tuple[int | None, str]:
    """The epochs the fit runs (a literal, or the default it runs with) and where that comes from (the
    analysis reads an option's default too: `epochs=args.num_epochs` is still said to be one)."""
    epochs = site.features.get("epochs")
    given = keyword(call, "epochs")
    found = default_value(facts, given.value, site.callsite.span.cell) if given is not None else None
    if isinstance(epochs, int) and not isinstance(epochs, bool):
        return epochs, found.where if found is not None and found.value == epochs else ""
    if found is None or not isinstance(found.value, int) or isinstance(found.value, bool):
        return None, ""
    return found.value, found.where
