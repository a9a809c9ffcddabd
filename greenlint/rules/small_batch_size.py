"""GL301 small-batch-size: a tiny batch (a literal, a parameter's or flag's default) for `fit()`/`evaluate()`/`predict()`, `Dataset.batch()`, a
TF1 queue's `tf.train.batch()`, a generator feeding them, or a one-batch training step."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.callsite import Span, estimator_method
from greenlint.analysis.queues import BATCHES as QUEUE_BATCHES
from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, argument
from greenlint.rules.batch_origin import parameter_literals, step_literals, written_at, written_batch
from greenlint.rules.batch_price import MIN_SAVING, Saving, priced_saving
from greenlint.rules.deliberate import in_test_code, test_module
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import SAVING_OPTION, Joules, immaterial_saving, saving_clause, saving_j, work_j
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import (
    FEW_ELEMENTS,
    LOOPS,
    SCOPES,
    STEP_METHODS,
    calls_of,
    cell_units,
    innermost_loop,
    int_literal,
    last_bindings,
    last_name,
    loop_varying,
    own_body,
    own_loops,
    scope_of,
    units,
)

MODEL_METHODS = ("fit", "evaluate", "predict")
#: The model and Estimator methods that only run the model forward: their outputs do not depend on the batch.
INFERENCE = frozenset({"evaluate", "predict"})
#: Model methods a Python generator may feed (its batches then its own, set by the generator's arguments).
GENERATOR_METHODS = (*MODEL_METHODS, "fit_generator", "evaluate_generator", "predict_generator")
DATASET_BATCH = "tensorflow.data.Dataset.batch"
#: The calls that batch a pipeline's elements: `Dataset.batch()` and TF1's input queues (`tf.train.batch`).
BATCHERS = frozenset({DATASET_BATCH, *QUEUE_BATCHES})
#: Model methods that run one step on the batch they are given.
ONE_BATCH = ("train_on_batch", "test_on_batch", "predict_on_batch")
#: A TF1 session's run: one step of the graph on the batch it is fed, a training step where it fetches an update.
GRAPH_RUNS = ("Session.run",)
#: Builtins that only look at a dataset (a demo printing its batches).
_BUILTINS = frozenset({"print", "list", "len", "enumerate", "iter", "next", "zip", "repr", "str", "type", "display"})
#: Layer and Input arguments that fix the batch dimension of a model.
_FIXED_BATCH = frozenset({"batch_input_shape", "batch_shape"})
#: What normalises over the batch, at batch 1 over each sample alone: Keras' layer, TF1's functions
#: (`tf.layers.batch_normalization`, `tf.contrib.layers.batch_norm`, slim's).
BATCH_NORMS = frozenset({"BatchNormalization", "batch_normalization", "batch_norm"})


def _fixed_steps(site: Site) -> bool:
    """A literal step count: `fit(steps_per_epoch=n)`, `evaluate(steps=n)`, `predict(steps=n)`."""
    return any(isinstance(site.features.get(k), int) for k in ("steps_per_epoch", "steps"))


def _steps(node: ast.AST, functions: dict[str, ast.AST], seen: frozenset[str] = frozenset()) -> bool:
    """Whether the code runs a training step: a step method, or a call of a function of the
    file that does."""
    for n in own_body(node) if isinstance(node, LOOPS) else ast.walk(node):
        if not isinstance(n, ast.Call):
            continue
        name = last_name(n.func)
        if name in STEP_METHODS:
            return True
        if name in functions and name not in seen and _steps(functions[name], functions, seen | {name}):
            return True
    return False


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _in_scope(facts: FileFacts, site: Site, statement: ast.stmt) -> list[tuple[tuple[int, int, int], ast.AST]]:
    """The nodes of the statement's scope in program order (cells, lines): its function's body,
    or every unit's top-level code (not entering functions or classes)."""
    cell = site.callsite.span.cell
    function = next(
        (a for a in facts.ancestors(statement, cell) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None
    )
    roots = [(cell or 0, function)] if function is not None else list(enumerate(units(facts), 1))
    nodes = []
    for index, root in roots:
        todo = list(ast.iter_child_nodes(root))
        while todo:
            node = todo.pop()
            if hasattr(node, "lineno"):
                nodes.append(((index, node.lineno, node.col_offset), node))
            if not isinstance(node, SCOPES):
                todo.extend(ast.iter_child_nodes(node))
    return sorted(nodes, key=lambda pair: pair[0])


def _leaves_or_trains(facts: FileFacts, site: Site) -> bool:
    """The dataset the `.batch()` call makes leaves the code in view (returned, or passed to a
    function other than a builtin such as `print`), or a loop over it runs a training step (in
    its body, or in a function of the file the body calls). Uses are followed from the
    assignment until the name is bound to something else."""
    node, cell = facts.node(site), site.callsite.span.cell
    statement = next((a for a in facts.ancestors(node, cell) if isinstance(a, ast.stmt)), None)
    if isinstance(statement, ast.Return):
        return True
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return False
    names = set(flow.targets(statement.targets[0]))
    functions = {
        f.name: f
        for unit, _ in cell_units(facts)
        for f in facts.nodes(unit, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))  # for the type checker
    }
    nodes = _in_scope(facts, site, statement)
    here = (
        next(i for i, (_, n) in enumerate(nodes) if n is statement)
        if any(n is statement for _, n in nodes)
        else len(nodes)
    )
    for _, n in nodes[here + 1 :]:
        if isinstance(n, ast.Assign):
            read = flow.names(n.value)
            names -= {name for name in names if name not in read and any(_is_name(t, name) for t in n.targets)}
            if not names:
                return False  # bound to another dataset from here on
        if isinstance(n, ast.Return) and n.value is not None:
            returned = names & flow.names(n.value)
            if any(not _discarded(facts, statement, n.value, name, cell) for name in returned):
                return True
        if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in _BUILTINS):
            if any(isinstance(a, ast.Name) and a.id in names for a in (*n.args, *(k.value for k in n.keywords))):
                return True
        if isinstance(n, (ast.For, ast.AsyncFor)) and names & flow.names(n.iter) and _steps(n, functions):
            return True
    return False


def _discarded(facts: FileFacts, statement: ast.stmt, value: ast.expr, name: str, cell: int | None) -> bool:
    """The dataset *name*, returned as one element of a tuple by a function of the file, is thrown away
    by each of the function's callers, all in the file (`train, _ = create_dataset(...)`): its
    batches never run. A function the file never calls, or names other than by calling it, is out of
    view (its callers may keep it)."""
    function = next(
        (a for a in facts.ancestors(statement, cell) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None
    )
    if function is None or not isinstance(value, ast.Tuple):
        return False
    index = next((i for i, element in enumerate(value.elts) if _is_name(element, name)), None)
    if index is None:
        return False
    calls = calls_of(facts, function, cell)
    names = [n for unit, _ in cell_units(facts) for n in facts.nodes(unit, ast.Name)]
    if not calls or sum(n.id == function.name for n in names) != len(calls):
        return False
    loads = {n.id for n in names if isinstance(n.ctx, ast.Load)}
    for unit, call in calls:
        parent = facts.parent(call, unit)
        target = parent.targets[0] if isinstance(parent, ast.Assign) and len(parent.targets) == 1 else None
        if not (isinstance(target, ast.Tuple) and len(target.elts) == len(value.elts)):
            return False
        kept = target.elts[index]
        if not isinstance(kept, ast.Name) or (kept.id != "_" and kept.id in loads):
            return False
    return True


def _padded(site: Site) -> bool:
    """A TF1 queue's batch that pads its elements to the largest of each batch (`dynamic_pad=True`):
    they may differ in shape (images of their own sizes, one to a batch), and in a larger batch the
    graph would compute on the padding too."""
    return site.api in QUEUE_BATCHES and site.features.get("dynamic_pad") is True


def _batches_reach_work(facts: FileFacts, site: Site, size: int) -> bool:
    """Batches of `size` from a dataset reach training or inference that a larger batch would
    make cheaper: a model method consuming it without a fixed step count, or, when no model
    method consumes such a dataset, a training loop over it or code out of view."""
    consumers = [
        s
        for s in facts.sites
        if is_keras_model_method(s.api, MODEL_METHODS)
        and s.features.get("batch_size_from") == "dataset"
        and s.features.get("batch_size") == size
    ]
    if consumers:
        return any(not _fixed_steps(s) for s in consumers)
    return _leaves_or_trains(facts, site)


def _unseen_model(site: Site) -> bool:
    """None of the layers of the model the site runs is seen by the analysis (no `n_layers`, no
    FLOPs): built by a project helper it does not follow (YOLOv3's factory), loaded, a preset
    (`CausalLM.from_preset`), an Estimator's `model_fn`. Its per-sample work may already fill
    the device at a batch of 4 (YOLOv2 at 416x416, tens of GFLOPs an image), so a small batch
    claims nothing there."""
    flops = site.callsite.work.get("flops_per_sample")
    return "n_layers" not in site.features and (flops is None or flops.value is None)


def _reaches_unseen_model(facts: FileFacts, site: Site) -> bool:
    """The dataset the `.batch()` call binds to a name is given, by that name or one the scope
    derives from it (`train_ds = ds.skip(100)`), to a Keras model's `fit()`/`evaluate()`/`predict()`
    none of whose layers the analysis sees (`_unseen_model`)."""
    node, cell = facts.node(site), site.callsite.span.cell
    statement = next((a for a in facts.ancestors(node, cell) if isinstance(a, ast.stmt)), None) if node else None
    if not (
        isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)
    ):
        return False
    scope = scope_of(facts, statement, cell)
    body = getattr(scope, "body", None)
    names = flow.derived(frozenset({statement.targets[0].id}), body if isinstance(body, list) else [statement])
    for other in facts.sites:
        if not _unseen_model(other) or not is_keras_model_method(other.api, MODEL_METHODS):
            continue
        call = facts.node(other)
        given = (*call.args, *(k.value for k in call.keywords)) if call is not None else ()
        if any(isinstance(a, ast.Name) and a.id in names for a in given):
            return True
    return False


#: Tensor constructors whose first argument (or `shape=`) is a shape.
_SHAPED = frozenset(
    {"random_uniform", "random_normal", "truncated_normal", "uniform", "normal", "zeros", "ones", "fill"}
)


def _fixed_batch(facts: FileFacts, batch: int) -> bool:
    """The file's code holds its batch size, so that a larger batch would break it or change what the
    model computes: a model that runs with one batch size only (a layer with the literal
    `stateful=True`, a literal batch dimension: `batch_input_shape=(1, ...)`, `Input(batch_size=1)`),
    a class of the file (a layer, a model) that makes a tensor whose shape's first dimension is the
    literal *batch* (`K.random_uniform((32, 1, 1, 1))` in a merge layer), or a batch of 1 where the
    file builds a `BatchNormalization` layer or calls TF1's batch normalisation, which then normalises each sample by its own statistics
    (instance normalisation, pix2pix's deliberate choice): a larger batch changes the model."""
    if any(s.api.endswith("keras.Input") and isinstance(s.features.get("batch_size"), int) for s in facts.sites):
        return True
    for unit, _ in cell_units(facts):
        if batch == 1 and any(
            last_name(call.func) in BATCH_NORMS for call in facts.nodes(unit, ast.Call) if isinstance(call, ast.Call)
        ):
            return True
        for given in facts.nodes(unit, ast.keyword):
            value = given.value
            if given.arg == "stateful" and isinstance(value, ast.Constant) and value.value is True:
                return True
            if given.arg in _FIXED_BATCH and isinstance(value, (ast.Tuple, ast.List)) and value.elts:
                first = value.elts[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, int):
                    return True
        for cls in facts.nodes(unit, ast.ClassDef):
            for node in ast.walk(cls):
                if not (isinstance(node, ast.Call) and last_name(node.func) in _SHAPED):
                    continue
                shapes = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "shape")]
                if any(
                    isinstance(s, (ast.Tuple, ast.List)) and s.elts and int_literal(s.elts[0], batch) for s in shapes
                ):
                    return True
    return False


#: A generator of batches for a two-input model; its batch size is its caller's.
GENERATOR = (
    "import numpy as np\nimport tensorflow as tf\n"
    "a_in, b_in = tf.keras.Input((10,)), tf.keras.Input((4,))\n"
    "model = tf.keras.Model([a_in, b_in], tf.keras.layers.Dense(1)(tf.keras.layers.Concatenate()([a_in, b_in])))\n"
    "model.compile(optimizer='sgd', loss='mse')\n"
    "def batches(rows, batch_size):\n    while True:\n"
    "        a = np.zeros((batch_size, 10))\n        b = np.zeros((batch_size, 4))\n"
    "        yield [a, b], np.zeros(batch_size)\n"
)


#: A `keras.utils.Sequence` of batches for the same model: Keras draws `__getitem__(i)` per step.
#: A TPUEstimator whose evaluation batch is an absl flag's default (8), its `model_fn` running `net`.
ESTIMATOR = (
    "import tensorflow as tf\nfrom absl import flags\n\nflags.DEFINE_integer('eval_batch_size', 8, 'Eval batch')\n"
    "FLAGS = flags.FLAGS\n\n\ndef model_fn(features, labels, mode, params):\n    logits = net(features)\n"
    "    return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(mode, loss=tf.reduce_mean(logits))\n\n\n"
    "def main(_):\n    estimator = tf.compat.v1.estimator.tpu.TPUEstimator(\n"
    "        model_fn=model_fn, use_tpu=False, train_batch_size=32, eval_batch_size=FLAGS.eval_batch_size)\n"
    "    estimator.train(input_fn=train_input_fn, max_steps=1000)\n"
    "    estimator.evaluate(input_fn=eval_input_fn)\n"
)
SEQUENCE = GENERATOR.split("def batches", 1)[0] + (
    "class Batches(tf.keras.utils.Sequence):\n"
    "    def __init__(self, rows, batch_size=32):\n        self.rows, self.batch_size = rows, batch_size\n"
    "    def __len__(self):\n        return len(self.rows) // self.batch_size\n"
    "    def __getitem__(self, i):\n        n = self.batch_size\n"
    "        return [np.zeros((n, 10)), np.zeros((n, 4))], np.zeros(n)\n"
)


#: The generator's script with a command-line option whose default is a batch of 4.
_OPTION_GENERATOR = (
    "import argparse\n" + GENERATOR + "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--batch_size', type=int, default=4)\nargs = parser.parse_args()\n"
)


#: A trainer whose step's batch is its method's parameter; a loop draws the batches by it.
TRAINER = (
    "import numpy as np\nimport tensorflow as tf\n\n\nclass Trainer:\n"
    "    def __init__(self):\n        self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
    "        self.model.compile(optimizer='sgd', loss='mse')\n\n"
    "    def train(self, epochs, batch_size=32):\n        for epoch in range(epochs):\n"
    "            for start in range(0, 1000, batch_size):\n"
    "                self.model.train_on_batch(np.zeros((batch_size, 8)), np.ones((batch_size, 1)))\n\n\n"
)


#: The same trainer whose step's batch is an attribute its `__init__` sets to 2.
HELD_TRAINER = (
    TRAINER.replace("loss='mse')\n", "loss='mse')\n        self.batch_size = 2\n", 1)
    .replace("def train(self, epochs, batch_size=32)", "def train(self, epochs)")
    .replace("batch_size)", "self.batch_size)")
    .replace("(batch_size,", "(self.batch_size,")
)


#: The same trainer whose step's batch is its method's parameter, given a command-line option's default.
OPTION_TRAINER = (
    "import argparse\n" + TRAINER + "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--batch_size', type=int, default=2)\nargs = parser.parse_args()\n"
    "Trainer().train(10, args.batch_size)\n"
)


#: A trainer of 64-channel 3x3 convolutions at 64x64 (0.3 GFLOPs a layer pass per sample): a step
#: of one sample is 3.6 GFLOPs, far from filling a GPU in any of its layer passes.
CONV_TRAINER = TRAINER.replace(
    "tf.keras.Sequential([tf.keras.layers.Dense(1)])",
    "tf.keras.Sequential([tf.keras.layers.Conv2D(64, 3, padding='same', input_shape=(64, 64, 64))"
    + ", tf.keras.layers.Conv2D(64, 3, padding='same')" * 3
    + "])",
).replace(
    "np.zeros((batch_size, 8)), np.ones((batch_size, 1))",
    "np.zeros((batch_size, 64, 64, 64)), np.ones((batch_size, 64, 64, 64))",
)


#: Two models trained in turn on one batch (a GAN's discriminator and combined model): a small Dense
#: model, priced overhead-bound, and `OTHER`, the second model.
TWO_STEPS = (
    "import numpy as np\nimport tensorflow as tf\n\n"
    "x, y = np.zeros((1000, 8)), np.zeros((1000, 1))\n"
    "small = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(8,))])\n"
    "small.compile(optimizer='sgd', loss='mse')\nOTHER\n\n\n"
    "def train(epochs, batch_size=32):\n    for epoch in range(epochs):\n"
    "        idx = np.random.randint(0, 1000, batch_size)\n"
    "        small.train_on_batch(x[idx], y[idx])\n        big.train_on_batch(x[idx], y[idx])\n\n\n"
    "train(epochs=1000, batch_size=2)\n"
)


#: A Dense model trained in 30 folds at the batch a function's parameter defaults to.
FOLDS = (
    "import numpy as np\nimport tensorflow as tf\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
    "model.compile(optimizer='sgd', loss='mse')\nx, y = np.zeros((100000, 8)), np.zeros((100000, 10))\n\n\n"
    "def train(epochs, batch_size=2):\n    model.fit(x, y, batch_size=batch_size, epochs=epochs)\n\n\n"
    "for fold in range(30):\n    train(5)\n"
)



#: A Dense model of a few hundred FLOPs a sample fitted on a million rows for 100 epochs at batch 64.
LARGE_FIT = (
    "import numpy as np\nimport tensorflow as tf\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
    "model.compile(optimizer='sgd', loss='mse')\nx, y = np.zeros((1000000, 8)), np.zeros((1000000, 10))\n"
    "model.fit(x, y, batch_size=64, epochs=100)\n"
)

#: The same model trained at the batch a command-line option defaults to.
FLAGGED = (
    "import argparse\nimport numpy as np\nimport tensorflow as tf\n"
    "parser = argparse.ArgumentParser()\nparser.add_argument('--batch_size', type=int, default=2)\n"
    "args = parser.parse_args()\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
    "model.compile(optimizer='sgd', loss='mse')\nx, y = np.zeros((100000, 8)), np.zeros((100000, 10))\n"
    "model.fit(x, y, batch_size=args.batch_size, epochs=100)\n"
)


#: A function of the file returning a training and a test dataset, the test one in batches of 1.
_TWO_DATASETS = (
    "import tensorflow as tf\n\n\ndef create_dataset(train_files, test_files):\n"
    "    train = tf.data.Dataset.list_files(train_files).map(load).batch(64)\n"
    "    test = tf.data.Dataset.list_files(test_files).map(load)\n"
    "    test = test.batch(1)\n"
    "    return train, test\n\n\n"
    "def main():\n"
)


#: A TF1 script training a small MLP for 100,000 steps on batches a queue draws by a flag's default of 2.
_QUEUE = (
    'import tensorflow as tf\n'
    '\n'
    "tf.app.flags.DEFINE_integer('batch_size', 2, 'Images per step.')\n"
    'FLAGS = tf.app.flags.FLAGS\n'
    '\n'
    'reader = tf.TFRecordReader()\n'
    "_, record = reader.read(tf.train.string_input_producer(['train.tfrecords']))\n"
    "parsed = tf.parse_single_example(record, {'image': tf.FixedLenFeature([784], tf.float32), 'label': tf.FixedLenFeature([], tf.int64)})\n"
    "images, labels = tf.train.shuffle_batch([parsed['image'], parsed['label']], batch_size=FLAGS.batch_size, capacity=1000, min_after_dequeue=500)\n"
    'logits = tf.layers.dense(tf.layers.dense(images, 128, activation=tf.nn.relu), 10)\n'
    'loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)\n'
    'train_op = tf.train.AdamOptimizer().minimize(loss)\n'
    'with tf.Session() as sess:\n'
    '    sess.run(tf.global_variables_initializer())\n'
    '    tf.train.start_queue_runners(sess)\n'
    '    for step in range(100000):\n'
    '        sess.run(train_op)\n'
)


#: A TF1 script training a small MLP on MNIST-sized arrays, fed 4 rows a run by a loop drawing them by the batch.
_FED = (
    'import numpy as np\n'
    'import tensorflow as tf\n'
    '\n'
    'x_train, y_train = np.zeros((60000, 784), np.float32), np.zeros((60000, 10), np.float32)\n'
    'x = tf.placeholder(tf.float32, [None, 784])\n'
    'y = tf.placeholder(tf.float32, [None, 10])\n'
    'hidden = tf.layers.dense(x, 256, activation=tf.nn.relu)\n'
    'logits = tf.layers.dense(hidden, 10)\n'
    'loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))\n'
    'train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n'
    'batch_size = 4\n'
    'with tf.Session() as sess:\n'
    '    sess.run(tf.global_variables_initializer())\n'
    '    for epoch in range(20):\n'
    '        for i in range(0, 60000, batch_size):\n'
    '            sess.run(train_op, feed_dict={x: x_train[i:i + batch_size], y: y_train[i:i + batch_size]})\n'
)


#: An agent fitting its model at each step of an episode on the state that step left (one sample a pass).
_AGENT = (
    "import numpy as np\nimport tensorflow as tf\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(24, input_shape=(4,)), tf.keras.layers.Dense(2)])\n"
    "model.compile(optimizer='adam', loss='mse')\nfor episode in range(5000):\n"
    "    state, done = env.reset(), False\n    while not done:\n"
    "        next_state, reward, done = env.step(np.argmax(model.predict(state)[0]))\n"
    "        model.fit(state, reward + model.predict(next_state), batch_size=1, epochs=1, verbose=0)\n"
    "        state = next_state\n"
)


class SmallBatchSize(Rule):
    """
    ## What it does
    Flags `fit()`, `evaluate()` and `predict()` on a Keras model, `Dataset.batch()` and a TF1 input
    queue's `tf.train.batch()` (`shuffle_batch`, `batch_join` and their kin; not one given
    `dynamic_pad=True`, whose elements may differ in shape: a larger batch would compute on their
    padding), and an
    Estimator's `train()`, `evaluate()` and `predict()` whose batch its constructor sets where the
    estimator is built in the same scope (TPUEstimator's `train_batch_size`, `eval_batch_size`,
    `predict_batch_size`; a batch its `input_fn` writes is its `Dataset.batch()`'s), when
    their `batch_size`, run with the program's defaults, is smaller than `min-batch-size` (default
    16; Keras' own default is 32): a literal, a name bound to one, a parameter's default (or the one
    value the file's calls of its function pass), or the default of an argparse option or absl flag
    (`args.batch_size`, `FLAGS.batch_size`: what the program runs with unless told otherwise); the
    message says where the number is written. Not the default of a parameter of a function the file
    neither calls nor names (a library's API, such as tf-models' `build_eval_dataset(filenames,
    batch_size=1)`; `defaults.Origin.UNCALLED`): its callers set the batch. A Python generator feeding `fit()`/`fit_generator()` (or `evaluate`, `predict`
    and their `_generator` forms) batches itself: reported where the call of the generator
    function (given to the method, or bound to the name it is given: `gen = batches(rows, 8)`)
    passes a batch size that greenlint finds in the arrays the generator yields (inputs, a list of
    them, or targets: `yield [b0, b1], np.zeros(batch_size)`) or in the Keras image iterators it
    draws one batch of each per step (`for image, mask in zip(images, masks)` over two
    `flow_from_directory(batch_size=batch_size)`); so does a `keras.utils.Sequence` of the file,
    where its construction passes the batch its `__getitem__` returns (`return x[i * self.batch_size:
    ...], np.zeros(self.batch_size)`, with `self.batch_size` as the constructions made by then set it:
    a training and a validation Sequence that differ leave it unknown); an `ImageDataGenerator` flow given to the
    method (alone or zipped with another) where its own `batch_size` is (`aug.flow(x, y,
    batch_size=2)`). Each at the literal, at the assignment `batch_size = 8` the name passed was
    last given, at the default of the command-line option or absl flag passed (`args.batch_size`),
    or, for a parameter of the function around the method, where the file's calls of
    that function set it (`train(rows, 4)`, as for a one-batch step below). Where the step count
    does not follow the batch (`steps_per_epoch=300`; `len(lines) // batch_size`, or none given,
    does), a larger batch as written runs as many steps, each larger: the message says to divide
    that count too.

    A one-batch step (`train_on_batch`, `test_on_batch`, `predict_on_batch`, a model's forward
    pass under a `GradientTape`, or a TF1 session's run that fetches an optimizer's update) whose
    batch greenlint knows (the rows of its inputs, or of its targets; the rows a run is fed), whatever its size, is reported at the integer literal its arguments derive
    from: an assignment in its function (`batch_size = 4`), or a parameter of its function set by a
    call in the file (`gan.train(epochs=200, batch_size=1)`, a name the caller bound to the literal,
    or a parameter of the caller's set so in turn, up to three calls up; the default of a command-line
    option the caller passes, `gan.train(batch_size=args.batch_size)`), or by its default where no
    call passes it; an attribute its class's `__init__` alone sets (`self.batch_size = 4`, or
    `self.batch_size = batch_size`, its parameter, as the file's constructions of the class pass it,
    else its default), or a module constant bound once, in a script or any cell of a notebook
    (`BATCH = 4`) (a literal in test code is not reported), when the saving priced below reaches
    25 % (no size threshold: a step is overhead-bound when its FLOPs are small against its fixed
    costs, at batch 32 as well as at 2). Only where a `for` loop around the step draws its batches
    by that value (`for a, b in loader.load_batch(batch_size)`, `range(0, n, batch_size)`), or,
    for a training step, where a `for` loop around it runs a fixed count (`for epoch in
    range(epochs)` drawing `idx = np.random.randint(0, n, batch_size)` each time): there the same
    samples in fewer, larger steps need the count divided too, and the message names the outermost
    loop (the training's length; an inner one, such as a WGAN's critic steps, is the algorithm's)
    and by how much. Where that loop runs the training steps of two models or more in turn (a GAN's
    discriminator and generator), the message says so and no longer calls the change the same
    training with the learning rate scaled: fewer, larger steps alternate the models fewer times,
    and how an adversarial game's learning rates and update ratio follow a larger batch is not known
    (large-batch GANs such as BigGAN train well, at rates of their own): a new recipe, whose results
    are to be checked. A literal that sets the batch of several steps (a GAN's discriminator and its
    combined model, both given `batch_size`) changes them all: each is priced, each must reach the
    saving below, and the finding states the widest range over them; where one of them cannot be
    priced exactly (its FLOPs unknown or a lower bound, such as an SRGAN generator trained through
    VGG19 features), that step may be compute-bound and pay most of the joules, so nothing is claimed.
    A fixed count of inference steps (`predict_on_batch`, `test_on_batch`) is not reported: it may be sequential by nature, such as an agent acting on each observation. Nor where a `while` loop
    is among the loops around the step (an agent learning from replay while it acts until an
    episode ends: the episodes are not the steps' count).

    The saving is priced where the model's FLOPs per sample are known exactly (the analysis', or a
    named Keras Application's, with its layers): greenlint's device model (greenlint/predict/devices.py) prices the same samples at the program's batch and at a
    larger one (Keras' 32, or `min-batch-size` where higher, at most 8 times the program's batch; 4
    times a batch already that large, the 128 DCGAN-style training runs at for 32) on
    the GPU stated (`--device`), else on an NVIDIA Tesla T4, named in the message. Each step pays,
    whatever its batch, the host's per-step time, each layer's launch and, per layer pass, the
    GPU's fill (a pass of F FLOPs runs at P x F / (F + 10^9), P the GPU's peak, at its base clock where
    the table lists one); only its FLOPs grow with the
    batch. A finding needs the least saving over the device model's spread (each of those
    constants taken half and twice as large; a model whose layer count is unknown priced as one
    layer, the least fixed cost) to reach 25 %, and states it: a batch of 1 through 64-channel
    convolutions at 64x64 (0.3 GFLOPs a layer pass) is reported although its step is several
    GFLOPs, a batch of 2 through a U-Net at 256x256 (tens of GFLOPs a layer pass) is not. A
    generator's or a step's batch is reported only so priced: where greenlint cannot price the model
    (a detector built by helpers it does not follow), or knows only a lower bound (the layers before
    a layer of another library, such as keras-contrib's `PELU`: its output's shape is unknown, so
    the layers after it are too; a normalisation layer of another library, such as keras-contrib's
    `InstanceNormalization`, keeps its input's shape and is counted), a batch of 4 may
    already fill the device, so nothing is claimed. The same premise holds for every form: a
    `fit()`/`evaluate()`/`predict()` literal, an Estimator's batch, or a `.batch(n)` whose dataset, by
    the name it is bound to or one its scope derives from it (`train_ds = ds.skip(100)`), such a
    method is given, is not reported where none of that model's layers is seen and its FLOPs are
    unknown (a detector a project module builds, a loaded model, a `from_preset` language model, an
    Estimator's `model_fn` running a model greenlint does not see; a subclassed model, whose layers
    the analysis does not count, where its input shape is not known either): its per-sample work may already
    fill the device (YOLOv2 and YOLOv3 at 416x416 are tens of GFLOPs a forward pass per image, a
    1B-parameter language model at 512 tokens about a TFLOP a sample; five such batch-2 to batch-8
    findings were judged false on code kept apart from the benchmark). Where the model's layers are
    seen but its FLOPs are not known (a Sequential of `Dense(64)` layers whose input width is the
    data's), the literal is reported without a figure: the network is the file's own, its widths
    written where the finding is weighed, not one it hides. Either way the message says what
    a larger batch changes besides the cost: for a training (`fit`, an Estimator's `train`, a
    step), fewer updates an epoch, so the learning rate is to be scaled with the batch and the
    convergence checked; for an inference (`evaluate`, `predict`), nothing: it computes the same
    outputs; a `.batch(n)`, whose batches may feed either, says neither. A priced saving
    is also stated in joules where the work it is a share of is known (greenlint/rules/material.py:
    the steps' or the call's 80 % interval times their counted runs), and is reported only where
    its most at the point figure (the predictor's median) reaches `material-saving-j` (10 kJ) over
    a run of the program; a `.batch(n)` (its
    batches trained on elsewhere) or a work of unknown size keeps its finding without joules.

    A `fit()`/`evaluate()`/`predict()` batch of `min-batch-size` or more (Keras' 32, a recommender's
    256) is small too where the model's work is: priced as above, against 4 times that batch, it is
    reported where the least saving reaches 25 % and its joules are known (the data's size, the
    epochs and the runs counted) and reach `material-saving-j`: a model of a few hundred FLOPs a
    sample at batch 64 leaves each step its host, launch and fill costs and almost no work, while a
    convolutional network's layer passes at that batch already keep the GPU busy. Where the model is
    not priced or the joules are not known, a batch of that order is not reported (nothing says it
    is small), nor is a `.batch(n)` of that order (its work is not priced where it is batched).

    One finding per literal: a `fit()`/`evaluate()`/`predict()` whose batch size comes from the
    `.batch(n)` of the dataset it consumes is not reported again (the `batch` call is). A
    `.batch(n)` is reported only when its batches reach training or inference in the file: a
    `fit()`/`evaluate()`/`predict()` consumes that dataset, or, with none, the dataset leaves
    the code in view (returned by an input function, passed to a function) or a loop over it
    runs a training step (`apply_gradients`, `minimize`, `train_on_batch`, in its body or in a
    function of the file it calls); a dataset only printed has no epoch to slow down. A fixed number of steps
    (`steps_per_epoch=`, `steps=`) of a `fit()` on arrays or a dataset fixes the step count over
    data of its own size, so a larger batch would only add work: not reported (a generator's count,
    above, is the training's length). Not reported where the small batch is a requirement or the point: in a file that builds a
    stateful model (a layer with `stateful=True`, or a fixed batch dimension given by
    `batch_input_shape`/`batch_shape`/`Input(batch_size=...)`: the model then runs only with
    that, often tiny, batch), at a batch of 1 in a file that builds a `BatchNormalization` layer
    or calls TF1's batch normalisation (`tf.layers.batch_normalization`, `tf.contrib.layers.batch_norm`)
    (over one sample it normalises each image by its own statistics, the instance normalisation
    pix2pix chooses batch 1 for: a larger batch changes the model, not only its cost), and in test code (a test module, `test_*.py` or `*_test.py`, a
    `test*` function, a test class, a pytest fixture, a helper only they call), where a few batches of toy data exercise the code and the test may assert the
    step count or the batches' structure; nor where the data is known to hold at most 32 samples
    (arrays of that length, a pipeline of that many elements): too little for the batch size to
    matter; nor where one pass of a loop hands the call only that pass's input: an `evaluate()` or
    `predict()` given what the passes differ in (text grown by each prediction), a `fit()` given the
    state the loop carries from one pass to the next, made from what a model predicted in the pass
    (`model.fit(state, target, batch_size=1)`, then `state = next_state` from `env.step` of the
    predicted action: an agent learning at each step of its environment, on the one sample that step
    made), where a larger `batch_size` changes nothing.

    ## Why is this bad?
    Each batch is one step of Python, graph dispatch and (on a GPU) kernel launches and
    transfers. With tiny batches the fixed cost per step dominates and the hardware idles
    between steps, so the same epochs take longer and, at nearly the same power, cost more
    energy. Del Rey, Martínez-Fernández, Cruz et al. ("How to use model architecture and
    training environment to estimate the energy consumption of DL training", 2024), training
    InceptionV3 with batch sizes 32, 64 and 256 on two datasets in two environments, report
    that increasing the batch size "considerably reduces the amount of energy required to
    train the model", because it cuts training time while power rises only slightly. Larger
    training batches make fewer updates an epoch and can change convergence: scale the learning
    rate with the batch (the linear scaling rule) and check the result. An inference's outputs do
    not depend on its batch.

    ## Example
    ```python
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x_train, y_train, batch_size=1, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x_train, y_train, batch_size=64, epochs=10)
    ```

    ## Energy evidence
    Literature (measured on GPUs, not on greenlint's reference machine): del Rey et al., 2024,
    RQ 3.1 and its figures on batch and input size. Neither the bundled knowledge base nor the
    training-run table (`data/training/runs.csv`, all at batch size 32) has paired measurements
    of one workload at several batch sizes: the saving a finding states is the device model's
    (spec-sheet peaks, the work model's per-step host time, dispatch and n-half; nothing fitted
    on the device), checked against GAISSA's recorded runs (docs/accuracy.md).

    ## Fix safety
    No automatic fix: a larger batch needs more memory and may need a retuned learning rate.

    ## Options
    - `min-batch-size`
    - `material-saving-j`
    """

    code = "GL301"
    name = "small-batch-size"
    MESSAGE = "`{api}` uses batch_size={size}{where}: tiny batches make each epoch slower and costlier"
    #: An unpriced literal of a training (`fit`, an Estimator's `train`): the cost, and what a larger batch changes.
    TRAINING_MESSAGE = (
        "`{api}` uses batch_size={size}{where}: each step pays the host's and launch costs for a few samples;"
        " a larger batch runs an epoch in fewer steps, but also makes fewer updates: scale the learning rate"
        " with it and check the convergence{unpriced}"
    )
    #: An unpriced literal of an inference (`evaluate`, `predict`): the cost, and that the outputs stay the same.
    INFERENCE_MESSAGE = (
        "`{api}` uses batch_size={size}{where}: each step pays the host's and launch costs for a few samples;"
        " a larger batch computes the same outputs in fewer steps{unpriced}"
    )
    #: Why an unpriced literal's message states no saving.
    UNPRICED = " (the saving is not priced: the model's work per sample is not known)"
    PRICED_MESSAGE = "`{api}` uses batch_size={size}{where}: {saving}"
    GENERATOR_MESSAGE = "batch size {size} given to the {feeder} that feeds `{api}`: {saving}"
    GENERATOR_COUNTED_MESSAGE = (
        "batch size {size} given to the {feeder} that feeds `{api}`, which runs a fixed count of steps: {saving};"
        " divide `{count}` (line {line}) by {times} to train on as many samples"
    )
    STEP_MESSAGE = (
        "batch size {size} set here is the batch of `{api}` (line {line}), whose loop draws batches by it:"
        " {saving}{alternating}"
    )
    COUNTED_MESSAGE = (
        "batch size {size} set here is the batch of `{api}` (line {line}), whose loop runs a fixed count of steps:"
        " {saving}; divide the count of `{loop}` (line {loop_line}) by {times} to train on as many samples{alternating}"
    )
    ALTERNATING = (
        "; but that loop alternates the training steps of {models} (an adversarial game, such as a GAN's): fewer,"
        " larger steps alternate them fewer times, so this is a new training recipe (learning rates and update"
        " ratio to retune, results to check), not the same training made cheaper"
    )
    FIX_TITLE = "Use a larger batch size (32 or more, memory permitting)"
    OPTIONS = (
        Option(
            "min-batch-size",
            int,
            16,
            "Literal batch sizes below this are flagged by GL301 (a one-batch step's, or a fit's whose saving"
            " and joules are priced, at any size its priced saving holds for); the larger batch priced is at least this.",
        ),
        SAVING_OPTION,
    )
    VALID = (
        Valid(  # batch 64 of a tiny model, fitted in a loop of unknown length: the joules at stake are not known
            LARGE_FIT.replace("model.fit(", "for seed in seeds:\n    model.fit("), options={"material-saving-j": 0.0}
        ),
        Valid(  # batch 64 of a tiny model for 2 epochs of 10,000 rows: priced, but far under material-saving-j
            LARGE_FIT.replace("1000000", "10000").replace("epochs=100", "epochs=2")
        ),
        Valid(  # one batch of all 700 rows: no larger batch holds more than the data
            LARGE_FIT.replace("1000000", "700").replace("batch_size=64", "batch_size=700"), options={"material-saving-j": 0.0}
        ),
        Valid(  # batch 64 through 64-channel convolutions at 64x64: its layer passes fill the GPU (under 25 %)
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.Sequential([\n"
            "    tf.keras.layers.Conv2D(64, 3, padding='same', input_shape=(64, 64, 64)),\n"
            "    tf.keras.layers.Conv2D(64, 3, padding='same'),\n])\nmodel.compile(optimizer='sgd', loss='mse')\n"
            "x, y = np.zeros((100000, 64, 64, 64)), np.zeros((100000, 64, 64, 64))\n"
            "model.fit(x, y, batch_size=64, epochs=100)\n"
        ),
        Valid(  # a `.batch(64)`: its batches' work is not priced where it is batched
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
            "model.compile(optimizer='sgd', loss='mse')\nmodel.fit(ds, epochs=100)\n"
        ),
        Valid(  # a dataset returned beside another, thrown away by the file's only caller: its batches never run
            _TWO_DATASETS + "    train, _ = create_dataset('train/*.jpg', 'test/*.jpg')\n"
            "    fit(train)\n"
        ),
        Valid(  # an Estimator whose constructor sets no batch: its input_fn's, not known here
            "import tensorflow as tf\nest = tf.estimator.Estimator(model_fn=model_fn)\n"
            "est.train(input_fn, steps=100)\nest.evaluate(input_fn)\n"
        ),
        Valid(  # a TPUEstimator's batches of 32 and more
            "import tensorflow as tf\nest = tf.compat.v1.estimator.tpu.TPUEstimator(model_fn=model_fn,"
            " train_batch_size=64, eval_batch_size=32)\nest.train(input_fn, max_steps=100)\nest.evaluate(input_fn)\n"
        ),
        Valid(  # an Estimator's evaluation at batch 8 of a `model_fn` whose model is not seen: its work may fill the device
            ESTIMATOR.replace("net(features)", "build_network(features)")
        ),
        Valid(  # a library function's default, called nowhere in the file: what its callers pass is not known
            "import tensorflow as tf\n\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(64), tf.keras.layers.Dense(1)])\n"
            "\n\ndef score(x, batch_size=2):\n    return model.evaluate(x, batch_size=batch_size)\n"
        ),
        Valid(  # one pass's input, rebuilt from what the previous prediction added: a larger batch changes nothing
            "import tensorflow as tf\n\n\ndef generate(model, text, encode):\n    while len(text) < 100:\n"
            "        x = encode(text[-40:])\n        text.append(model.predict(x, batch_size=1)[0].argmax())\n"
        ),
        Valid(  # priced: 87 % of one fit of at most 1 kJ is under material-saving-j
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
            "model.compile(optimizer='sgd', loss='mse')\nmodel.fit(x, y, batch_size=2, epochs=5)\n"
        ),
        Valid(  # an agent's fit on the state the previous pass left: one pass's samples, whatever batch_size says
            _AGENT, options={"material-saving-j": 0.0}
        ),
        Valid(  # a policy's predict on the one state it is given, reshaped to one row: no larger batch exists
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(6)])\n"
            "def act(state):\n    state = state.reshape([1, state.shape[0]])\n"
            "    return model.predict(state, batch_size=1).flatten()\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the attribute set again by another method: the batch a step runs at is not one literal
            HELD_TRAINER.replace("    def train(", "    def resize(self, n):\n        self.batch_size = n\n\n    def train(")
            + "Trainer().train(epochs=10)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # two trainers built with batches of 2 and 64: the attribute is not one value
            HELD_TRAINER.replace("def __init__(self):", "def __init__(self, batch_size=32):").replace(
                "self.batch_size = 2", "self.batch_size = batch_size"
            )
            + "Trainer(batch_size=2).train(epochs=10)\nTrainer(batch_size=64).train(epochs=10)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the module constant rebound by a function: not the one value the steps run at
            HELD_TRAINER.replace("        self.batch_size = 2\n", "").replace("self.batch_size", "BATCH")
            + "BATCH = 2\n\n\ndef larger():\n    global BATCH\n    BATCH = 64\n\n\nTrainer().train(epochs=10)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # an option without a default: the batch is the user's to give
            OPTION_TRAINER.replace(", default=2", ", required=True"), options={"material-saving-j": 0.0}
        ),
        Valid(  # a fixed number of inference steps: sequential by nature (an agent acting on each observation)
            TRAINER.replace("range(0, 1000, batch_size)", "range(100)").replace("train_on_batch", "predict_on_batch")
            + "Trainer().train(epochs=10, batch_size=2)\n"
        ),
        Valid(  # replay steps while an agent acts until its episode ends: the episodes are not the steps' count
            TRAINER.replace(
                "            for start in range(0, 1000, batch_size):\n",
                "            done = False\n            while not done:\n                done = env.step()\n",
            ).replace("np.zeros((batch_size, 8))", "memory[np.random.randint(0, 1000, batch_size)]")
            + "memory = np.zeros((1000, 8))\nTrainer().train(epochs=10, batch_size=2)\n"
        ),
        Valid(  # 64 samples of 3.6 GFLOPs a step keep a GPU busy: batch 256 priced under 25 %
            CONV_TRAINER + "Trainer().train(epochs=10, batch_size=64)\n"
        ),
        Valid(  # 256-channel convolutions at 256x256: each layer pass of 2 samples fills the GPU, priced under 25 %
            "import tensorflow as tf\nmodel = tf.keras.Sequential([\n"
            "    tf.keras.layers.Conv2D(256, 3, padding='same', input_shape=(256, 256, 256)),\n"
            "    tf.keras.layers.Conv2D(256, 3, padding='same'),\n])\n"
            "model.compile(optimizer='sgd', loss='mse')\nmodel.fit(x, y, batch_size=2, epochs=10)\n"
        ),
        Valid(  # a layer of another library: the known layers' FLOPs are only a lower bound of the step's
            "from keras_contrib.layers import PELU\n"
            + TRAINER.replace(
                "self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])",
                "inputs = tf.keras.Input((8,))\n"
                "        hidden = PELU()(tf.keras.layers.Dense(64)(inputs))\n"
                "        self.model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(hidden))",
            )
            + "Trainer().train(epochs=10, batch_size=2)\n"
        ),
        Valid(  # a test sets the step's batch: a few batches of toy data on purpose
            TRAINER + "def test_train():\n    Trainer().train(epochs=1, batch_size=2)\n"
        ),
        Valid(  # the same literal sets the batch of a second model's step, which greenlint cannot price (built by a
            # module it does not see): that step may be compute-bound and pay most of the joules (SRGAN's combined model)
            TWO_STEPS.replace("OTHER", "from detector import create_model\nbig = create_model()")
        ),
        Valid(  # a training Sequence of 4 and a validation one of 64: its `self.batch_size` is not told apart
            SEQUENCE + "train, val = Batches(rows, 4), Batches(rows, 64)\nmodel.fit(train, validation_data=val, epochs=30)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a Sequence given `batch_size=4` by its construction, none of which its `__getitem__` reads
            SEQUENCE.replace("n = self.batch_size", "n = 64") + "model.fit(Batches(rows, batch_size=4), epochs=30)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a generator of batches of 32
            GENERATOR + "size = 32\nmodel.fit_generator(batches(rows, size), steps_per_epoch=len(rows) // size)\n"
        ),
        Valid(  # ResNet50 at batch 8: its layer passes and memory traffic keep a GPU busy (batch 32 priced under 25 %)
            "import numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.applications.ResNet50(weights=None)\nmodel.compile(optimizer='sgd', loss='mse')\n"
            "def batches(size):\n    while True:\n        yield np.zeros((size, 224, 224, 3)), np.zeros((size, 1000))\n"
            "size = 8\nmodel.fit_generator(batches(size), steps_per_epoch=len(rows) // size, epochs=30)\n"
        ),
        Valid(  # a dataset batched by a flag's default of 8 for a network none of whose layers is seen here (a
            # detector a project module builds): its per-sample work may fill the device at 8, nothing is claimed
            "import tensorflow as tf\nfrom absl import flags\nfrom detector.models import YoloV3\n"
            "flags.DEFINE_integer('batch_size', 8, 'Batch size')\nFLAGS = flags.FLAGS\n"
            "model = YoloV3(416, training=True)\nmodel.compile(optimizer='adam', loss='mse')\n"
            "ds = tf.data.TFRecordDataset(files).map(parse).batch(FLAGS.batch_size)\nmodel.fit(ds, epochs=10)\n"
        ),
        Valid(  # a model greenlint cannot price (built by a module it does not see): a batch of 4 may fill the device
            "import numpy as np\nfrom detector import create_model\nmodel = create_model()\n"
            + GENERATOR.split("model.compile(optimizer='sgd', loss='mse')\n", 1)[1]
            + "size = 4\nmodel.fit_generator(batches(rows, size), steps_per_epoch=len(rows) // size, epochs=30)\n"
        ),
        Valid(  # an option's default of 64 passed to the generator: not a small batch
            _OPTION_GENERATOR.replace("default=4", "default=64") + "model.fit(batches(rows, args.batch_size), epochs=30)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # the small default is another option's (the validation batch): the generator's is 64
            _OPTION_GENERATOR.replace("default=4)", "default=64)\nparser.add_argument('--val_batch_size', default=4)")
            + "model.fit(batches(rows, args.batch_size), epochs=30)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a TF1 queue's batch of 32
            _QUEUE.replace("'batch_size', 2,", "'batch_size', 32,")
        ),
        Valid(  # batch 1 through TF1's batch normalisation: each image normalised by its own statistics (pix2pix's
            # choice); a larger batch changes the model
            _QUEUE.replace("'batch_size', 2,", "'batch_size', 1,").replace(
                "tf.layers.dense(images, 128", "tf.layers.dense(tf.layers.batch_normalization(images, training=True), 128"
            )
        ),
        Valid(  # a queue padding its elements to the largest of each batch: they may differ in shape (images of
            # their own sizes), and a larger batch would compute on the padding too
            _QUEUE.replace("shuffle_batch(", "batch(").replace("min_after_dequeue=500", "dynamic_pad=True")
        ),
        Valid(  # a queue's batch nothing reads (its tensors never reach a graph)
            _QUEUE.split("logits = ", 1)[0]
        ),
        Valid(  # the same loop running the loss alone (no update fetched): an evaluation, not a training step
            _FED.replace("sess.run(train_op, feed_dict", "sess.run(loss, feed_dict")
        ),
        Valid(  # a loaded model: none of its layers seen, its work per sample may already fill the device at 4
            "import tensorflow as tf\nmodel = tf.keras.models.load_model(path)\nscores = model.predict(x, batch_size=4)\n",
        ),
        Valid(  # a subclassed model of unknown input shape: its layers not counted, its work not known
            "import tensorflow as tf\n\n\nclass Net(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
            "        self.dense = tf.keras.layers.Dense(1)\n\n    def call(self, x):\n        return self.dense(x)\n\n\n"
            "model = Net()\nmodel.compile(optimizer='adam', loss='mse')\nmodel.fit(x, y, batch_size=4, epochs=10)\n",
        ),
        Valid(  # a detector a project helper builds, trained at 8: none of its layers seen
            "import tensorflow as tf\nfrom detector import body\n\n"
            "image = tf.keras.Input(shape=(416, 416, 3))\nmodel = tf.keras.Model(image, body(image))\n"
            "model.compile(optimizer='adam', loss='mse')\nmodel.fit(x, y, batch_size=8, epochs=30)\n",
        ),
        Valid(  # a `.batch(2)` whose splits (`skip`, `take`) a preset's `fit()` trains on: none of its layers seen
            "import keras_hub\nimport tensorflow as tf\n\n"
            "lm = keras_hub.models.CausalLM.from_preset('preset')\n"
            "ds = tf.data.Dataset.from_tensor_slices(data).shuffle(2000).batch(2)\n"
            "val_ds = ds.take(100)\ntrain_ds = ds.skip(100)\n"
            "lm.fit(train_ds, validation_data=val_ds, epochs=1)\n",
        ),
        Valid(  # a graph built by a module greenlint does not see: its FLOPs unknown, a batch of 4 may fill the device
            _FED.replace("import tensorflow as tf\n", "import tensorflow as tf\nfrom nets import network\n").replace(
                "hidden = tf.layers.dense(x, 256, activation=tf.nn.relu)\nlogits = tf.layers.dense(hidden, 10)",
                "logits = network(x)",
            )
        ),
        Valid(  # the name passed holds another value by the call
            GENERATOR + "size = 8\nsize = int(arguments.batch)\nmodel.fit_generator(batches(rows, size), epochs=30)\n"
        ),
        Valid(  # five samples: a toy set, whatever the batch size costs next to nothing
            "import numpy as np\nimport tensorflow as tf\nx = np.random.rand(5, 3)\ny = np.random.rand(5)\n"
            "m = tf.keras.Sequential()\nm.fit(x, y, batch_size=2, epochs=3)\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)\nm.evaluate(ds)\n"
        ),
        Valid("import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, batch_size=64)\n"),
        Valid(  # an option's default of 64: the program runs at a batch that is not small
            FLAGGED.replace("default=2", "default=64")
        ),
        Valid(  # an option without a default: unknown stays unknown
            FLAGGED.replace(", default=2", ", required=True")
        ),
        Valid(  # the name passed is bound in the function to a size not known: the module's literal is not the batch
            "import tensorflow as tf\nBATCH = 2\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
            "model.compile(optimizer='sgd', loss='mse')\n\n\ndef train(x, y):\n    BATCH = len(x) // 100\n"
            "    model.fit(x, y, batch_size=BATCH, epochs=5)\n"
        ),
        Valid(  # the parameter's default is 2, but the file's one call of its function passes 64 (in a loop of
            # unknown length: the joules a larger batch would save are not known)
            FOLDS.replace("range(30)", "folds").replace("train(5)", "train(5, batch_size=64)")
        ),
        Valid("import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, batch_size=bs)\n"),
        Valid("from sklearn.neural_network import MLPClassifier\nMLPClassifier(batch_size=1).fit(x, y)\n"),
        Valid(  # a stateful RNN keeps its state per batch row: it needs its fixed batch
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([\n"
            "    tf.keras.layers.LSTM(32, stateful=True, batch_input_shape=(1, 10, 1)),\n"
            "    tf.keras.layers.Dense(1),\n"
            "])\n"
            "model.compile(optimizer='adam', loss='mse')\n"
            "model.fit(x, y, batch_size=1, epochs=5, shuffle=False)\n"
        ),
        Valid(  # batch 1 through BatchNormalization is instance normalisation (pix2pix): the batch is the model's
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.Input((256, 256, 3)), tf.keras.layers.Conv2D(64, 4, strides=2),\n"
            "    tf.keras.layers.BatchNormalization(), tf.keras.layers.Conv2DTranspose(3, 4, strides=2)])\n"
            "model.compile(optimizer='adam', loss='mae')\n"
            "model.fit(x, y, batch_size=1, epochs=200)\n",
            options={"material-saving-j": 0.0},
        ),
        Valid(  # a layer of the file draws a tensor of the batch's size: a larger batch would break it
            TRAINER.replace(
                "class Trainer:",
                "class Mix(tf.keras.layers.Layer):\n"
                "    def call(self, inputs):\n"
                "        return tf.random.uniform((2, 1)) * inputs\n\n\nclass Trainer:",
            )
            + "Trainer().train(epochs=10, batch_size=2)\n"
        ),
        Valid(
            "import tensorflow as tf\n"
            "inputs = tf.keras.Input(shape=(10, 1), batch_size=4)\n"
            "model = tf.keras.Model(inputs, tf.keras.layers.GRU(8, stateful=True)(inputs))\n"
            "model.predict(x, batch_size=4)\n"
        ),
        Valid(  # a helper only tests call is test code
            "import numpy as np\nimport tensorflow as tf\n\n\n"
            "def _fit_tiny(layer):\n"
            "    model = tf.keras.Sequential([layer, tf.keras.layers.Dense(1)])\n"
            "    model.compile(optimizer='sgd', loss='mse')\n"
            "    model.fit(np.zeros((10, 3)), np.zeros((10, 1)), epochs=1, batch_size=1)\n\n\n"
            "def test_dense():\n    _fit_tiny(tf.keras.layers.Dense(4))\n\n\n"
            "class NormTest(tf.test.TestCase):\n    def test_norm(self):\n        _fit_tiny(tf.keras.layers.LayerNormalization())\n"
        ),
        Valid(  # a demo of batching: the batches reach no training
            "import tensorflow as tf\n"
            "dataset = tf.data.Dataset.range(10).repeat(3).batch(7)\n"
            "for item in dataset:\n"
            "    print(item)\n"
        ),
        Valid(  # the name is bound to another dataset before anything trains on it
            "import tensorflow as tf\n"
            "dataset = tf.data.Dataset.range(10).batch(7)\n"
            "for item in dataset:\n"
            "    print(item)\n"
            "dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "model.compile(optimizer='sgd', loss='mse')\n"
            "train(model, dataset)\n"
        ),
        Valid(  # a fixed number of steps: a larger batch would only add work
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(1)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "model.compile(optimizer='sgd', loss='mse')\n"
            "model.fit(ds, epochs=2, steps_per_epoch=10)\n"
        ),
        Valid(  # a test module's mock task: its input function batches toy data for the tests
            "import tensorflow as tf\n\n\nclass MockTask:\n    def build_inputs(self):\n"
            "        return tf.data.Dataset.range(1).repeat().batch(2)\n",
            filename="evaluator_test.py",
        ),
        Valid(  # a test asserting the step count picks its batch on purpose
            "import numpy as np\nimport tensorflow as tf\n\n\n"
            "def test_steps_per_epoch():\n"
            "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "    model.compile(loss='mse')\n"
            "    history = model.fit(np.zeros((10, 3)), np.zeros((10, 1)), batch_size=5, epochs=1)\n"
            "    assert len(history.history['loss']) == 1\n"
        ),
    )
    INVALID = (
        Invalid(  # batch 64 of a tiny model over a million rows for 100 epochs: priced overhead-bound, joules known
            LARGE_FIT,
            line=6,
            message_contains=(
                "uses batch_size=64: the same samples at batch 256, with the learning rate scaled (fewer updates an"
                " epoch: convergence to check), cost 75%"
            ),
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: the next pass's data read afresh (not what a prediction led to), in batches of 1
            _AGENT.replace("        state = next_state\n", "        state = buffer.next_chunk()\n"),
            line=9,
            message_contains="uses batch_size=1",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: each pass fits on a whole fold, bound afresh before the call, in batches of 1
            _AGENT.replace("    state, done = env.reset(), False\n    while not done:\n", "    for fold in range(30):\n")
            .replace("        next_state, reward, done = env.step(np.argmax(model.predict(state)[0]))\n", "")
            .replace("        state = next_state\n", "")
            .replace("        model.fit(", "        state, reward, next_state = folds[fold]\n        model.fit("),
            line=8,
            message_contains="uses batch_size=1",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # near miss: the same model without BatchNormalization takes a larger batch unchanged
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.Input((256, 256, 3)), tf.keras.layers.Conv2D(64, 4, strides=2),\n"
            "    tf.keras.layers.Conv2DTranspose(3, 4, strides=2)])\n"
            "model.compile(optimizer='adam', loss='mae')\n"
            "model.fit(x, y, batch_size=1, epochs=200)\n",
            line=5,
            message_contains="uses batch_size=1",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # an Estimator's evaluation at the batch its constructor sets from an absl flag's default, of a
            # `model_fn` running a Keras model of known FLOPs: priced
            ESTIMATOR.replace(
                "def model_fn",
                "net = tf.keras.Sequential([tf.keras.Input(shape=(16,)),"
                " tf.keras.layers.Dense(32), tf.keras.layers.Dense(1)])\n\n\ndef model_fn",
            ),
            line=20,
            message_contains="uses batch_size=8 (`FLAGS.eval_batch_size`: the default of `--eval_batch_size`): the same"
            " samples at batch 32",
        ),
        Invalid(  # the batch an argparse option's default: what the program runs with unless told otherwise
            FLAGGED,
            line=10,
            message_contains="uses batch_size=2 (`args.batch_size`: the default of `--batch_size`): the same samples",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # an absl flag's default batching a dataset the file trains on; its model's layers seen, FLOPs unknown
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer('batch_size', 1, 'Batch size')\n"
            "FLAGS = flags.FLAGS\nds = tf.data.Dataset.from_tensor_slices((x, y)).batch(FLAGS.batch_size)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.fit(ds, epochs=10)\n",
            line=5,
            message_contains="uses batch_size=1 (`FLAGS.batch_size`: the default of `--batch_size`): tiny batches",
        ),
        Invalid(  # a flag's default reaching the batch through a dict of keyword arguments, which the analysis follows
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer('batch_size', 1, 'Batch size')\n"
            "FLAGS = flags.FLAGS\n\ndef main(batch_size):\n"
            "    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch_size)\n"
            "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n    model.fit(ds, epochs=10)\n\n"
            "main(**{'batch_size': FLAGS.batch_size})\n",
            line=7,
            message_contains="uses batch_size=1 (the default of `--batch_size`): tiny batches",
        ),
        Invalid(  # a parameter's default no call of its function overrides
            FOLDS,
            line=9,
            message_contains="uses batch_size=2 (`batch_size`: the default of parameter `batch_size`): the same",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a name bound to the literal in the loop: the assignment named
            FOLDS.replace("    train(5)\n", "    size = 2\n    model.fit(x, y, batch_size=size, epochs=5)\n"),
            line=14,
            message_contains="uses batch_size=2 (`size = 2`, line 13): the same samples",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # priced in joules: 87 % of 30 fits of 250 J - 1 kJ each
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
            "model.compile(optimizer='sgd', loss='mse')\nfor fold in range(30):\n"
            "    model.fit(x, y, batch_size=2, epochs=5)\n",
            line=5,
            message_contains="; that is 13.1 kJ over a run of the program (87% of the training's 15 kJ, from data)",
        ),
        Invalid(  # two models' training steps in turn (a GAN): reported, the change named a new recipe
            TRAINER.replace(
                "        self.model.compile(optimizer='sgd', loss='mse')\n",
                "        self.model.compile(optimizer='sgd', loss='mse')\n"
                "        self.critic = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                "        self.critic.compile(optimizer='sgd', loss='mse')\n",
            ).replace(
                "                self.model.train_on_batch(",
                "                self.critic.train_on_batch(np.zeros((batch_size, 8)), np.ones((batch_size, 1)))\n"
                "                self.model.train_on_batch(",
            )
            + "Trainer().train(epochs=10, batch_size=2)\n",
            line=19,
            message_contains="alternates the training steps of `self.critic` and `self.model`",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a normalisation layer of another library keeps its input's shape: the model is priced whole
            "from keras_contrib.layers import InstanceNormalization\n"
            + TRAINER.replace(
                "self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])",
                "inputs = tf.keras.Input((8,))\n"
                "        hidden = InstanceNormalization()(tf.keras.layers.Dense(64)(inputs))\n"
                "        self.model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(hidden))",
            )
            + "Trainer().train(epochs=10, batch_size=2)\n",
            line=19,
            message_contains="whose loop draws batches by it",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a step of several GFLOPs, each layer pass far below filling the GPU: priced, with the device
            CONV_TRAINER + "Trainer().train(epochs=10, batch_size=1)\n",
            line=16,
            message_contains="the same samples at batch 8, with the learning rate scaled (fewer updates an epoch: convergence to",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the same default, and a call of the function in the file that runs it
            "import tensorflow as tf\n\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(64), tf.keras.layers.Dense(1)])\n"
            "\n\ndef score(x, batch_size=2):\n    return model.evaluate(x, batch_size=batch_size)\n\n\nscore(x)\n",
            line=7,
            message_contains="the default of parameter `batch_size`",
        ),
        Invalid(  # inference on a model of known FLOPs: priced, no learning rate to scale
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(8,))])\n"
            "model.predict(x, batch_size=2)\n",
            line=3,
            message_contains="the same samples at batch 16, with the same outputs, cost 87% fewer joules",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the GPU stated: priced on it
            CONV_TRAINER + "Trainer().train(epochs=10, batch_size=1)\n",
            device="NVIDIA A100-SXM4",
            message_contains="fewer joules on the stated NVIDIA A100-SXM4",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # fixed counts, nested: the same samples in fewer, larger steps, the outermost count divided
            TRAINER.replace("range(0, 1000, batch_size)", "range(100)") + "Trainer().train(epochs=10, batch_size=2)\n",
            line=16,
            message_contains="divide the count of `range(epochs)` (line 11) by 8",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # Keras' default batch through a tiny model, its rows drawn by an index array per iteration
            TRAINER.replace("for start in range(0, 1000, batch_size):", "for step in range(1000):").replace(
                "np.zeros((batch_size, 8))", "data[np.random.randint(0, 1000, batch_size)]"
            )
            + "data = np.zeros((1000, 8))\nTrainer().train(epochs=10, batch_size=32)\n",
            line=17,
            message_contains="at batch 128, with the learning rate scaled (fewer updates an epoch: convergence to check), cost",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the step's batch an attribute `__init__` sets: reported at that literal
            HELD_TRAINER + "Trainer().train(epochs=10)\n",
            line=9,
            message_contains="batch size 2 set here is the batch of",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the step's batch a module constant, bound once: reported at that literal
            HELD_TRAINER.replace("        self.batch_size = 2\n", "").replace("self.batch_size", "BATCH")
            + "BATCH = 2\nTrainer().train(epochs=10)\n",
            line=16,
            message_contains="batch size 2 set here is the batch of",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the attribute `__init__` sets from its parameter, which the construction passes: reported there
            HELD_TRAINER.replace("def __init__(self):", "def __init__(self, batch_size=32):").replace(
                "self.batch_size = 2", "self.batch_size = batch_size"
            )
            + "Trainer(batch_size=2).train(epochs=10)\n",
            line=17,
            message_contains="batch size 2 set here is the batch of",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a notebook's constant, bound once in its first cell: reported there (cell 1, line 1)
            json.dumps({"cells": [{"cell_type": "code", "source": source} for source in (
                "BATCH = 2\n",
                HELD_TRAINER.replace("        self.batch_size = 2\n", "").replace("self.batch_size", "BATCH"),
                "Trainer().train(epochs=10)\n",
            )], "nbformat": 4, "nbformat_minor": 5}),
            filename="gan.ipynb",
            line=1,
            message_contains="batch size 2 set here is the batch of",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the caller passes an option: reported at the option's default
            OPTION_TRAINER,
            line=18,
            message_contains="batch size 2 set here is the batch of",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the caller passes a name bound to an option: reported at the option's default
            OPTION_TRAINER.replace("Trainer().train(10, args.batch_size)", "size = args.batch_size\nTrainer().train(10, size)"),
            line=18,
            message_contains="batch size 2 set here is the batch of",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the step's batch set by the caller of its method: reported at the caller's literal
            TRAINER + "Trainer().train(epochs=10, batch_size=2)\n",
            line=16,
            message_contains="batch size 2 set here is the batch of",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # no caller passes it: the default sets it; a name bound to it across two functions
            TRAINER.replace("batch_size=32", "batch_size=4") + "Trainer().train(epochs=10)\n",
            line=10,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a custom training step (a forward pass under a GradientTape) on slices of the batch's size
            "import numpy as np\nimport tensorflow as tf\n\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(8,))])\n"
            "opt = tf.keras.optimizers.SGD()\n\n\n"
            "def train(x, y, epochs, batch_size=32):\n    for epoch in range(epochs):\n"
            "        for start in range(0, len(x), batch_size):\n"
            "            with tf.GradientTape() as tape:\n"
            "                loss = tf.reduce_mean((model(x[start:start + batch_size]) - y[start:start + batch_size]) ** 2)\n"
            "            grads = tape.gradient(loss, model.trainable_variables)\n"
            "            opt.apply_gradients(zip(grads, model.trainable_variables))\n\n\n"
            "train(np.zeros((1000, 8)), np.zeros((1000, 1)), epochs=5, batch_size=4)\n",
            line=17,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # through a function of the file that passes its own parameter on
            TRAINER + "def main(size):\n    Trainer().train(10, size)\n\n\nmain(size=1)\n",
            line=20,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # both steps the literal sets are priced overhead-bound: one finding, at the literal
            TWO_STEPS.replace(
                "OTHER",
                "big = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(8,)), tf.keras.layers.Dense(1)])\n"
                "big.compile(optimizer='sgd', loss='mse')",
            ),
            line=18,
            message_contains="alternates the training steps of `small` and `big`",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the generator's batch, bound to a name the call passes it: reported where it is bound
            GENERATOR + "size = 8\n"
            "model.fit_generator(batches(rows, size), steps_per_epoch=len(rows) // size, epochs=30)\n",
            line=11,
            message_contains="batch size 8 given to the generator",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a training and a validation Sequence of one batch: reported where it is bound
            SEQUENCE + "size = 4\nmodel.fit(Batches(rows, size), validation_data=Batches(rows, size), epochs=30)\n",
            line=14,
            message_contains="batch size 4 given to the `Sequence`",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a Sequence batches itself: reported at the literal its construction passes, not at Keras' 32
            SEQUENCE + "train = Batches(rows, batch_size=4)\nmodel.fit(train, epochs=30)\n",
            line=14,
            message_contains="batch size 4 given to the `Sequence`",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a TF1 queue's batch, a flag's default: reported at the queue, saying where the number is
            _QUEUE,
            line=9,
            message_contains="`tensorflow.compat.v1.train.shuffle_batch` uses batch_size=2 (`FLAGS.batch_size`: the default",
        ),
        Invalid(  # its batch given by position (`tf.train.batch(tensors, batch_size)`)
            _QUEUE.replace("shuffle_batch(", "batch(").replace(
                "batch_size=FLAGS.batch_size, capacity=1000, min_after_dequeue=500", "4"
            ),
            line=9,
            message_contains="uses batch_size=4",
        ),
        Invalid(  # a TF1 session's training run fed 4 rows a step by a loop drawing them by the batch
            _FED,
            line=11,
            message_contains="batch size 4 set here is the batch of `tensorflow.compat.v1.Session.run` (line 16)",
        ),
        Invalid(  # two training runs alternating on the batch (a GAN's discriminator and generator): said so
            _FED.replace(
                "minimize(loss)\n", "minimize(loss)\nother_op = tf.train.AdamOptimizer().minimize(loss)\n"
            ).replace(
                "            sess.run(train_op, feed_dict={x: x_train[i:i + batch_size], y: y_train[i:i + batch_size]})",
                "            sess.run(train_op, feed_dict={x: x_train[i:i + batch_size], y: y_train[i:i + batch_size]})\n"
                "            sess.run(other_op, feed_dict={x: x_train[i:i + batch_size], y: y_train[i:i + batch_size]})",
            ),
            line=12,
            message_contains="alternates the training steps of `train_op` and `other_op`",
        ),
        Invalid(  # the same, its rows drawn at random for a fixed count of steps: the count to divide too
            _FED.replace(
                "        for i in range(0, 60000, batch_size):\n"
                "            sess.run(train_op, feed_dict={x: x_train[i:i + batch_size], y: y_train[i:i + batch_size]})",
                "        for step in range(15000):\n            idx = np.random.randint(0, 60000, batch_size)\n"
                "            sess.run(train_op, feed_dict={x: x_train[idx], y: y_train[idx]})",
            ),
            line=11,
            message_contains="divide",
        ),
        Invalid(  # a literal passed to the generator itself
            GENERATOR + "model.fit(batches(rows, 4), epochs=30)\n",
            line=11,
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a command-line option's default passed to the generator: reported at that default
            _OPTION_GENERATOR + "model.fit(batches(rows, args.batch_size), epochs=30)\n",
            line=13,
            message_contains="batch size 4 given to the generator",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the option's value bound to a name first, with a step count it does not set: divide it too
            _OPTION_GENERATOR + "size = args.batch_size\nmodel.fit(batches(rows, size), steps_per_epoch=100, epochs=30)\n",
            line=13,
            message_contains="divide `100`",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the generator bound to a name first: reported at the literal its call passes
            GENERATOR + "train = batches(rows, 4)\nmodel.fit(train, epochs=30)\n",
            line=11,
            message_contains="batch size 4 given to the generator",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the batch a parameter of the fit's function, set by the file's call of it: reported there
            GENERATOR + "def train(rows, batch_size):\n    model.fit(batches(rows, batch_size), epochs=30)\n"
            "train(rows, 4)\n",
            line=13,
            message_contains="batch size 4 given to the generator",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # an ImageDataGenerator flow of arrays given a small batch: reported at its `batch_size`
            "import numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3, input_shape=(64, 64, 1)),"
            " tf.keras.layers.Conv2D(1, 3)])\nmodel.compile(optimizer='sgd', loss='mse')\n"
            "x, y = np.zeros((5000, 64, 64, 1)), np.zeros((5000, 60, 60, 1))\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=10)\n"
            "model.fit(aug.flow(x, y, batch_size=2), epochs=30)\n",
            line=7,
            message_contains="batch size 2 given to the generator that feeds",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a zip of image and mask flows, each bound to a name, for a fixed count of steps
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3, input_shape=(64, 64, 1)),"
            " tf.keras.layers.Conv2D(1, 3)])\nmodel.compile(optimizer='sgd', loss='mse')\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=10)\nsize = 2\n"
            "images = aug.flow_from_directory('i/', target_size=(64, 64), color_mode='grayscale', batch_size=size)\n"
            "masks = aug.flow_from_directory('m/', target_size=(64, 64), color_mode='grayscale', batch_size=size)\n"
            "model.fit_generator(zip(images, masks), steps_per_epoch=1000, epochs=30)\n",
            line=5,
            message_contains="divide `1000` (line 8) by 8 to train on as many samples",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a fixed number of steps: the same samples in fewer steps need the count divided too
            GENERATOR + "size = 8\nmodel.fit_generator(batches(rows, size), steps_per_epoch=100, epochs=30)\n",
            line=11,
            message_contains="which runs a fixed count of steps: the same samples at batch 32",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # the step count set apart from the batch: the count named, to divide
            GENERATOR + "size = 8\nmodel.fit_generator(batches(rows, size), steps_per_epoch=steps, epochs=30)\n",
            line=11,
            message_contains="divide `steps` (line 12) by 4 to train on as many samples",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a generator drawing one batch of each of two image flows per step: the flows' batch
            "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
            "model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3, input_shape=(64, 64, 1)),"
            " tf.keras.layers.Conv2D(1, 3)])\nmodel.compile(optimizer='sgd', loss='mse')\n"
            "def pairs(path, batch_size):\n    aug = ImageDataGenerator(rotation_range=10)\n"
            "    images = aug.flow_from_directory(path, classes=['i'], batch_size=batch_size, seed=1)\n"
            "    masks = aug.flow_from_directory(path, classes=['m'], batch_size=batch_size, seed=1)\n"
            "    for image, mask in zip(images, masks):\n        yield image, mask\n"
            "model.fit(pairs('train', 2), epochs=30)\n",
            line=11,
            message_contains="batch size 2 given to the generator",
            options={"material-saving-j": 0.0},
        ),
        Invalid(  # a training of unknown FLOPs (its input's width is the data's), its layers seen: not priced;
            # a larger batch makes fewer updates, said with the fix
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(64), tf.keras.layers.Dense(1)])\n"
            "model.fit(x, y, batch_size=1, epochs=3)\n",
            line=3,
            message_contains="batch_size=1: each step pays the host's and launch costs for a few samples; a larger"
            " batch runs an epoch in fewer steps, but also makes fewer updates: scale the learning rate with it",
        ),
        Invalid(  # an inference of unknown FLOPs, its layers seen: not priced; its outputs do not depend on the batch
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(64), tf.keras.layers.Dense(1)])\n"
            "scores = model.predict(x, batch_size=4)\n",
            line=3,
            message_contains="batch_size=4: each step pays the host's and launch costs for a few samples; a larger"
            " batch computes the same outputs in fewer steps (the saving is not priced: the model's work per sample",
        ),
        Invalid(  # the splits of a `.batch(2)` trained on by a model whose layers are seen: reported at the batch
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)\n"
            "train_ds = ds.skip(100)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "model.compile(optimizer='sgd', loss='mse')\n"
            "model.fit(train_ds, epochs=10)\n",
            line=2,
        ),
        Invalid(
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "model.compile(optimizer='sgd', loss='mse')\n"
            "model.fit(ds, epochs=10)\n",
            line=2,
        ),
        Invalid(  # a dataset returned beside another, kept by the file's caller
            _TWO_DATASETS + "    train, test = create_dataset('train/*.jpg', 'test/*.jpg')\n"
            "    fit(train, test)\n",
            line=7,
        ),
        Invalid(  # an input function: its batches are consumed elsewhere
            "import tensorflow as tf\n\n\ndef make_eval_dataset(paths, labels):\n"
            "    ds = tf.data.Dataset.from_tensor_slices((paths, labels)).map(decode)\n"
            "    return ds.batch(4)\n",
            line=6,
        ),
        Invalid(  # a custom training loop over the batches, its step in a function
            "import tensorflow as tf\n"
            "opt = tf.keras.optimizers.SGD()\n\n\n"
            "@tf.function\n"
            "def train_step(xb, yb):\n"
            "    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean((model(xb) - yb) ** 2)\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n\n\n"
            "train_ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)\n"
            "for epoch in range(10):\n"
            "    for xb, yb in train_ds:\n"
            "        train_step(xb, yb)\n",
            line=12,
        ),
        Invalid(  # a custom training loop over the batches
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).batch(4)\n"
            "opt = tf.keras.optimizers.Adam()\n"
            "for xb, yb in ds:\n"
            "    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean((model(xb) - yb) ** 2)\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n",
            line=2,
        ),
        Invalid(
            "import tensorflow as tf\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, batch_size=32)\n",
            options={"min-batch-size": 64},
        ),
        Invalid(  # one literal, one finding: at `batch`, not again at the fit and evaluate it feeds
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(5)\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "model.compile(loss='mse')\n"
            "model.fit(ds, epochs=3)\n"
            "model.evaluate(ds)\n",
            line=2,
        ),
        Invalid(  # a stateless LSTM: its batch is free
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.LSTM(32, stateful=False), tf.keras.layers.Dense(1)])\n"
            "model.compile(optimizer='adam', loss='mse')\n"
            "model.fit(x, y, batch_size=1, epochs=5)\n",
            line=4,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if test_module(facts.path):  # every batch in it is a test's
            return
        minimum = int(options.get("min-batch-size", 16))
        literals: set[Span] = set()
        steps: dict[int, Any] | None = None
        for site in facts.sites:
            found = _generator_literal(facts, site, minimum)
            if found is not None and not in_test_code(facts, site) and not _few_samples(site):
                spans, batch, count = found
                spans = [span for span in spans if span not in literals]
                skip = not spans or _fixed_batch(facts, batch)
                saving = None if skip else _claimed(site, batch, minimum, facts.device)
                joules = _joules(saving, [site]) if saving is not None else None
                if saving is not None and not immaterial_saving(joules, options):
                    literals.update(spans)
                    claim = saving.clause() + _stated(saving, [site])
                    message = (
                        self.GENERATOR_MESSAGE.format(api=site.api, size=batch, saving=claim, feeder=_feeder(site))
                        if count is None
                        else self.GENERATOR_COUNTED_MESSAGE.format(
                            api=site.api,
                            feeder=_feeder(site),
                            size=batch,
                            saving=claim,
                            count=ast.unparse(count),
                            line=count.lineno,
                            times=f"{saving.larger / batch:.3g}",
                        )
                    )
                    for span in spans:
                        yield self.diagnostic(span, facts.path, message, data=_data(batch, minimum, saving))
                continue
            if steps is None:
                steps = {id(s): _step_literals(facts, s, minimum) for s in facts.sites}
            stepped = steps[id(site)]
            if stepped is not None and not in_test_code(facts, site):
                setters, batch = stepped
                setters = [(span, loop) for span, loop in setters if span not in literals]
                setters = setters if setters and not _fixed_batch(facts, batch) else []
                stepped_all = [steps[id(s)] for s in facts.sites]
                shared = _shared_saving(facts, stepped_all, setters, minimum) if setters else None
                if shared is None:
                    continue
                saving, priced = shared
                joules = _joules(saving, priced)
                if immaterial_saving(joules, options):
                    continue
                models = _alternated(facts, site)
                alternating = self.ALTERNATING.format(models=_listed(models)) if models else ""
                for span, loop in setters:
                    literals.add(span)
                    message = (self.STEP_MESSAGE if loop is None else self.COUNTED_MESSAGE).format(
                        size=batch,
                        api=site.api,
                        line=site.callsite.span.line,
                        saving=saving.clause(scaled=not models) + _stated(saving, priced),
                        alternating=alternating,
                        times=f"{saving.larger / batch:.3g}",
                        loop=ast.unparse(loop.iter) if loop is not None else "",
                        loop_line=loop.lineno if loop is not None else 0,
                    )
                    yield self.diagnostic(span, facts.path, message, data=_data(batch, minimum, saving))
                continue
            if not (site.api in BATCHERS or is_keras_model_method(site.api, MODEL_METHODS)
                    or estimator_method(site.api)):
                continue
            if site.features.get("batch_size_from") == "dataset":
                continue
            written = written_batch(facts, site)
            size, where = written if written is not None else (0, "")
            # a batch of `min-batch-size` or more is small only where its model is priced overhead-bound and
            # the joules at stake are known (a dataset's batches are trained on elsewhere: never known here)
            large = size >= minimum
            if size <= 0 or (large and site.api in BATCHERS) or in_test_code(facts, site):
                continue
            if (
                _few_samples(site)
                or _fixed_steps(site)
                or _per_pass_input(facts, site)
                or (site.api in BATCHERS and not _batches_reach_work(facts, site, size))
                or _padded(site)
            ):
                continue
            if _fixed_batch(facts, size):
                continue
            saving = priced_saving(site, size, minimum, facts.device)
            if saving is None and (_reaches_unseen_model(facts, site) if site.api in BATCHERS else _unseen_model(site)):
                continue  # a network greenlint cannot see at all (a detector a helper builds) may fill the device
            work = [site] if site.api not in BATCHERS else []  # a dataset's batches are trained on elsewhere
            joules = _joules(saving, work) if saving is not None else None
            if large and (saving is None or joules is None):
                continue
            if saving is None:  # the model's FLOPs unknown: the literal alone, with what a larger one changes
                message = self._unpriced(site).format(api=site.api, size=size, where=where, unpriced=self.UNPRICED)
            elif saving.least >= MIN_SAVING and not immaterial_saving(joules, options):
                claim = saving.clause() + _stated(saving, work)
                message = self.PRICED_MESSAGE.format(api=site.api, size=size, where=where, saving=claim)
            else:
                continue  # priced: its layer passes already keep the GPU busy, or the joules it saves are not material
            yield self.diagnostic(site.callsite.span, facts.path, message, data=_data(size, minimum, saving))

    def _unpriced(self, site: Site) -> str:
        """The message of a literal whose saving is not priced: a training's (fewer updates, a learning rate
        to scale) for `fit` and an Estimator's `train`, an inference's (the same outputs) for `evaluate`
        and `predict`; a `.batch(n)`'s, whose batches may feed either, says neither."""
        if site.api in BATCHERS:
            return self.MESSAGE
        return self.INFERENCE_MESSAGE if site.api.rpartition(".")[2] in INFERENCE else self.TRAINING_MESSAGE


def _claimed(site: Site, batch: int, minimum: int, device: str | None) -> Saving | None:
    """The priced saving of a larger batch where its least, over the device model's spread, reaches
    MIN_SAVING; None otherwise (the model's FLOPs unknown or a lower bound, or a step whose layer
    passes already keep the GPU busy)."""
    saving = priced_saving(site, batch, minimum, device)
    return saving if saving is not None and saving.least >= MIN_SAVING else None


def _joules(saving: Saving, sites: list[Site]) -> Joules | None:
    """The joules the saving's share of the sites' work comes to over a run (`material.saving_j`);
    None where there is no site or that work is unknown."""
    return saving_j(sites, (saving.least, saving.most)) if sites else None


def _stated(saving: Saving, sites: list[Site]) -> str:
    """The joules of a priced saving as the message goes on, "" where they are unknown."""
    work = work_j(sites)
    if work is None:
        return ""
    kind = "training" if saving.training else "inference"
    return "; that is " + saving_clause(work, (saving.least, saving.most), sites[0].prediction.label, kind)


def _shared_saving(
    facts: FileFacts, stepped: list[Any], setters: list[tuple[Span, Any]], minimum: int
) -> tuple[Saving, list[Site]] | None:
    """The priced saving of the one-batch steps whose batch the *setters*' literals set (a GAN's
    discriminator and combined model, both given `batch_size`): a larger batch changes them all, so
    each must be priced and reach MIN_SAVING; the claim is the widest range over them (their joules
    combined save no less than the least of them, no more than the most), with those steps. None where
    one of them is not priced (its FLOPs unknown or a lower bound: a compute-bound step may pay most of
    the joules) or saves less."""
    spans = {span for span, _ in setters}
    chosen = [
        (site, found[1])
        for site, found in zip(facts.sites, stepped)
        if found is not None and not in_test_code(facts, site) and spans & {span for span, _ in found[0]}
    ]
    sites = [site for site, _ in chosen]
    savings = [priced_saving(site, batch, minimum, facts.device) for site, batch in chosen]
    if not savings or any(s is None or s.least < MIN_SAVING for s in savings):
        return None
    priced = [s for s in savings if s is not None]  # for the type checker
    widest = replace(
        priced[0],
        least=min(s.least for s in priced),
        most=max(s.most for s in priced),
        training=any(s.training for s in priced),
    )
    return widest, sites


def _alternated(facts: FileFacts, site: Site) -> list[str]:
    """The receivers of the training steps (`train_on_batch`, `apply_gradients`, `minimize`), and the
    fetches of a TF1 session's training runs (`sess.run(d_optim, ...)`), that the outermost loop around
    the site's step runs, nested loops included, where there are two or more (a GAN's discriminator
    and generator, updated in turn); [] otherwise."""
    cell = site.callsite.span.cell
    call = facts.node(site)
    loops = own_loops(facts, call, cell) if call is not None else []
    if not loops:
        return []
    outer = loops[-1]
    steps = (
        ast.unparse(n.func.value)
        for n in ast.walk(outer)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in STEP_METHODS
    )
    runs = (
        ast.unparse(node.args[0])
        for other in facts.sites
        if other.api.endswith(GRAPH_RUNS) and other.work_value("step") == "training"
        for node in [facts.node(other)]
        if isinstance(node, ast.Call) and node.args and any(a is outer for a in facts.ancestors(node, cell))
    )
    found = dict.fromkeys((*steps, *runs))
    return list(found) if len(found) > 1 else []


def _listed(names: list[str]) -> str:
    quoted = [f"`{name}`" for name in names]
    return ", ".join(quoted[:-1]) + f" and {quoted[-1]}"


def _data(batch: int, minimum: int, saving: Saving | None) -> dict:
    data: dict = {"batch_size": batch, "min_batch_size": minimum}
    if saving is not None:
        data |= {"larger_batch": saving.larger, "saving": [round(saving.least, 3), round(saving.most, 3)]}
    return data


def _per_pass_input(facts: FileFacts, site: Site) -> bool:
    """An `evaluate()`/`predict()` in a loop, given what the loop's passes differ in (`x = encode(text[-40:])`
    then `model.predict(x, batch_size=1)`, text growing by each prediction), or a `fit()` in a loop given
    the state the loop carries from one pass to the next, made from a prediction of the pass
    (`model.fit(state, target, batch_size=1)` then `state = next_state`: an agent learning at each step
    of its environment, `_carried_state`): one pass's input, of a size
    the code does not show, which a larger `batch_size` does not change (GL201 reports the calls per pass)."""
    if site.api in BATCHERS:
        return False
    loop, _ = innermost_loop(facts, site)
    call = facts.node(site)
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or not isinstance(call, ast.Call) or not call.args:
        return False
    given = {node.id for node in ast.walk(call.args[0]) if isinstance(node, ast.Name)}
    if is_keras_model_method(site.api, ("fit",)):
        return bool(given & _carried_state(facts, site, loop, call))
    return bool(given & loop_varying(loop))


#: Model methods whose result is the model's output, what an agent acts on.
_OUTPUTS = ("predict", "predict_on_batch", "__call__")


def _carried_state(facts: FileFacts, site: Site, loop: ast.For | ast.AsyncFor | ast.While, call: ast.Call) -> frozenset:
    """The names *loop* binds only after *call* in its body, each time from what a model's prediction in
    that pass led to and not from the name itself (`next_state, reward, done = env.step(np.argmax(
    model.predict(state)))` then `state = next_state`): the next pass's input, which depends on this
    pass's prediction, as an agent's next state does, so the passes run one after the other (data
    read afresh, `x, y = next_chunk()`, is not; the loop's own variable is bound afresh each pass)."""
    cell = site.callsite.span.cell
    predicting = {
        id(node)
        for other in facts.sites
        if is_keras_model_method(other.api, _OUTPUTS)
        for node in [facts.node(other)]
        if node is not None and any(a is loop for a in facts.ancestors(node, cell))
    }
    body = list(own_body(loop))
    seeds = frozenset().union(
        *(
            flow.targets(target)
            for node in body
            if isinstance(node, ast.Assign) and any(id(n) in predicting for n in ast.walk(node.value))
            for target in node.targets
        )
    )
    predicted = flow.derived(seeds, loop.body)
    before = set(flow.targets(loop.target)) if isinstance(loop, (ast.For, ast.AsyncFor)) else set()
    after: set[str] = set()
    for node in body:
        if isinstance(node, ast.Assign):
            targets = frozenset().union(*(flow.targets(t) for t in node.targets))
            read = flow.names(node.value)
            if node.lineno > (call.end_lineno or call.lineno) and read & predicted and not targets & read:
                after |= targets
            else:
                before |= targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            before |= flow.targets(node.target)
    return frozenset(after - before)


def _few_samples(site: Site) -> bool:
    """The data is known to hold at most `FEW_ELEMENTS` samples: the arrays a `fit` is given (its
    work's `samples`), or the pipeline a `batch` splits."""
    samples = site.callsite.work.get("samples")
    count = samples.value if samples is not None and samples.provenance != "unknown" else None
    if count is None:
        count = site.features.get("pipeline_elements")
    return isinstance(count, int) and not isinstance(count, bool) and 0 < count <= FEW_ELEMENTS


def _generator_literal(facts: FileFacts, site: Site, minimum: int) -> tuple[list[Span], int, ast.expr | None] | None:
    """Where a Python generator, a `keras.utils.Sequence` or a Keras image flow feeding a model method
    gets a small batch: the analysis found the batch it yields (its work's `batch_size`: from the
    arrays of a generator's `yield`s or a Sequence's `__getitem__` returns, from the Keras image
    iterators it draws one batch of each per step, or a flow's `batch_size`, for the arguments of this
    call), and the call that sets it passes it: the call of the generator function or the Sequence's
    class, or the `.flow*()` call (alone or in a `zip` of flows), given to the
    method or bound to the name it is given (`gen = batches(rows, 8)`). The batch is passed as a
    literal, as a name the call's scope last bound to that literal before the call (`batch_size =
    8`, the line a user edits), as the script's command-line option or flag whose default is that
    literal (`batches(rows, args.batch_size)`, directly or through such a name: reported at the
    default), or as a parameter of the call's function that the file's calls of it set so
    (`batch_origin`). With the spans, the step count to divide where it does not follow
    the batch (`steps_per_epoch=300`: as written, a larger batch runs as many steps, each larger);
    None where it does (absent, or an expression of that name: `len(lines) // batch_size`). None
    otherwise (the saving is priced by the caller)."""
    if not is_keras_model_method(site.api, GENERATOR_METHODS) or isinstance(site.features.get("batch_size"), int):
        return None
    entry = site.callsite.work.get("batch_size")
    if not (entry is not None and entry.provenance == "inferred"):
        return None
    size = entry.value
    if not (isinstance(size, int) and not isinstance(size, bool) and 0 < size < minimum):
        return None
    note = str(entry.note or "")
    if not note.startswith((*_GENERATOR_NOTES, "`flow")):
        return None
    call, cell = facts.node(site), site.callsite.span.cell
    if call is None:
        return None
    scope: ast.AST | None = next(
        (a for a in facts.ancestors(call, cell) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None
    )
    scope = scope if scope is not None else facts.module(cell)
    given = argument(call, "generator", 0) or argument(call, "x")
    if note.startswith("`flow"):
        flows = _flow_calls(given, scope, call.lineno)
        sizes = (argument(f, "batch_size", 2 if last_name(f.func) == "flow" else 5) for f in flows)
        passed = [size_given for size_given in sizes if size_given is not None]
    else:
        made = _bound_call(given, scope, call.lineno)
        passed = [*made.args, *(k.value for k in made.keywords)] if made is not None else []
    steps = argument(call, "steps_per_epoch") or argument(call, "steps")
    bindings = last_bindings(scope, call.lineno) if scope is not None else {}
    for given_to in passed:
        count = None if steps is None or any(ast.dump(n) == ast.dump(given_to) for n in ast.walk(steps)) else steps
        written = written_at(facts, given_to, cell)
        if int_literal(written, size):
            return [facts.span(written, cell)], size, steps if written is given_to else count
        if not isinstance(given_to, ast.Name):
            continue
        if given_to.id in bindings:
            bound = bindings[given_to.id]
            if bound is not None and int_literal(bound.value, size):
                return [facts.span(bound, cell)], size, count
            held = written_at(facts, bound.value, cell) if bound is not None else None
            if held is not None and int_literal(held, size):
                return [facts.span(held, cell)], size, count
            continue
        literals = parameter_literals(facts, call, cell, given_to.id, size)
        if literals:
            return literals, size, count
    return None


#: How the analysis notes a generator's batch it found (arrays.generator, arrays._drawn_generator), and a
#: `keras.utils.Sequence`'s (arrays.indexed_batches).
_SEQUENCE_NOTE = "the Sequence's __getitem__ returns batches of"
_GENERATOR_NOTES = ("the generator yields batches of", "the generator yields one batch per batch drawn from", _SEQUENCE_NOTE)


def _feeder(site: Site) -> str:
    """What the message calls the object feeding the site its batches."""
    batch = site.callsite.work.get("batch_size")
    note = str(batch.note or "") if batch is not None else ""
    return "`Sequence`" if note.startswith(_SEQUENCE_NOTE) else "generator"
#: The `ImageDataGenerator` methods making a flow whose `batch_size` is its batch.
_FLOWS = frozenset({"flow", "flow_from_directory", "flow_from_dataframe"})


def _bound_call(given: ast.expr | None, scope: ast.AST | None, line: int) -> ast.Call | None:
    """The call a model method's input is: the argument itself, or the call its name was last bound
    to before *line* in *scope* (`gen = batches(rows, 8)`)."""
    if isinstance(given, ast.Name) and scope is not None:
        bound = last_bindings(scope, line).get(given.id)
        given = bound.value if bound is not None else None
    return given if isinstance(given, ast.Call) else None


def _flow_calls(given: ast.expr | None, scope: ast.AST | None, line: int) -> list[ast.Call]:
    """The `.flow*()` calls a model method's input is (`aug.flow(x, y, batch_size=2)`), or draws
    from in a `zip` of them (image and mask flows), each maybe bound to a name first."""
    made = _bound_call(given, scope, line)
    if made is None:
        return []
    if isinstance(made.func, ast.Attribute) and made.func.attr in _FLOWS:
        return [made]
    if isinstance(made.func, ast.Name) and made.func.id == "zip":
        return [flow for part in made.args for flow in _flow_calls(part, scope, line)]
    return []


def _step_literals(
    facts: FileFacts, site: Site, minimum: int
) -> tuple[list[tuple[Span, ast.For | ast.AsyncFor | None]], int] | None:
    """Where the batch of a one-batch step (`train_on_batch`, `test_on_batch`, `predict_on_batch`, a
    model's forward pass under a GradientTape, or a TF1 session's run of an optimizer's update on the
    arrays it is fed) is set, when the analysis knows it (its work's
    `samples`): the literals `batch_origin.step_literals` finds, each with None where its loop draws
    the batches by it, else the outermost loop of a fixed count (kept for training steps only, where the
    same samples in fewer, larger steps is the change; a loop of inference steps of a fixed count
    may be sequential by nature, such as an agent acting on one observation at a time). Any batch
    is returned: below *minimum* priced against Keras' default, at or above it against
    `batch_price.SCALE` times itself (the saving, priced by the caller, decides). None for other
    sites."""
    work = site.callsite.work
    custom = site.api.endswith((".__call__", *GRAPH_RUNS)) and site.work_value("step") == "training"
    if not (custom or is_keras_model_method(site.api, ONE_BATCH)):
        return None
    entry = work.get("samples")
    size = entry.value if entry is not None and entry.provenance != "unknown" else None
    if not (isinstance(size, int) and not isinstance(size, bool) and 0 < size):
        return None
    call = facts.node(site)
    if call is None:
        return None
    training = custom or is_keras_model_method(site.api, ("train_on_batch",))
    found = step_literals(facts, call, site.callsite.span.cell, size)
    return [(span, loop) for span, loop in found if loop is None or training], size
