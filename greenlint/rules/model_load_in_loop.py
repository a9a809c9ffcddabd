"""GL202 model-load-in-loop: a model loaded from disk on every iteration of a loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, keyword
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method
from greenlint.rules.syntax import STEP_METHODS, definitions, last_bindings, last_name, loop_varying, own_loops

LOADERS = frozenset(
    {
        "tensorflow.keras.models.load_model",
        "tensorflow.keras.saving.load_model",
        "tensorflow.saved_model.load",
        "tensorflow.keras.Model.load_weights",
        "tensorflow.keras.Sequential.load_weights",
    }
)


#: A loop that builds a model (`{build}`) and loads weights into it (`{path}`) on every pass, then
#: predicts (and runs `{then}`).
REBUILT = (
    "import tensorflow as tf\nSIZE = 416\n\n\ndef build(size):\n"
    "    return tf.keras.Sequential([tf.keras.layers.Dense(size), tf.keras.layers.Dense(10)])\n\n\n"
    "while True:\n    model = {build}\n    model.load_weights({path})\n"
    "    print(model.predict(read_image()))\n{then}"
)


class ModelLoadInLoop(Rule):
    """
    ## What it does
    Flags `load_model()`, `tf.saved_model.load()` and `load_weights()` called inside a Python
    `for` or `while` loop that repeats it. A loop whose variable reaches the call (`for path in
    checkpoints: load_model(path)`, evaluating several checkpoints) loads a different model each
    time and is not reported, but `load_weights` into a model the loop builds anew on every pass
    from what every pass gives alike (`model = build(SIZE)` then `model.load_weights(PATH)`) is the
    same model loaded again, where neither the loop nor a function of the file it calls trains (a
    model reset to the same weights before each training run needs the load); nor is a load repeated by a loop that also writes weights to
    disk (`save_weights`, a model's or a checkpoint's `save`, or a `fit` given callbacks, where a
    `ModelCheckpoint` may save), around the load or around a call of its function in the file (followed by name, up to
    three calls up): the file may hold the weights written since the last load (evaluating
    the latest checkpoint after each training round). A web server's route handler (`@app.route`
    of a Flask, FastAPI, Quart or Sanic application), and a function of another module a handler
    calls, runs once per request: a load there is reported as repeated on every request.

    ## Why is this bad?
    Loading a model reads and deserialises every weight from disk and rebuilds (and, for
    SavedModels, retraces) its graph. Doing it once per iteration repeats that work for a
    result that is normally the same each time. The cost grows with the model size; it is
    pure overhead when the same file is loaded again and again.

    ## Example
    ```python
    import tensorflow as tf

    for batch in batches:
        model = tf.keras.models.load_model("classifier.keras")
        outputs = model(batch, training=False)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    model = tf.keras.models.load_model("classifier.keras")
    for batch in batches:
        outputs = model(batch, training=False)
    ```

    ## Energy evidence
    Qualitative: the bundled knowledge base has no measurement of loading a model, so greenlint
    cannot put a figure on one load. The waste is the repeated work itself, proportional to the
    number of iterations.

    ## Fix safety
    No automatic fix: the file may change between iterations in ways greenlint does not see
    (written by the loop itself); suppress the finding with `# noqa: GL202` then.

    ## Options
    None.
    """

    code = "GL202"
    name = "model-load-in-loop"
    CALLS = frozenset(map(method, LOADERS))
    MESSAGE = "`{api}` is called inside a loop: the model is read from disk and rebuilt on every iteration"
    REQUEST = (
        "`{api}` is called on every web request ({request}): the model is read from disk and rebuilt per"
        " request; load it once, when the server starts"
    )
    FIX_TITLE = "Load the model once, before the loop"
    VALID = (
        Valid(  # each pass builds another model (its width from the loop) and loads that model's weights
            REBUILT.format(build="build(width)", path="f'weights-{width}.h5'", then="").replace(
                "while True:", "for width in (64, 128, 256):"
            )
        ),
        Valid(  # each pass loads another file into the model it builds
            REBUILT.format(build="build(SIZE)", path="next_checkpoint()", then="")
        ),
        Valid(  # each pass resets the model to the pretrained weights before training it: the reload is needed
            REBUILT.format(build="build(SIZE)", path="'weights.h5'", then="    model.fit(x, y, epochs=5)\n")
        ),
        Valid(  # the same, trained by a function of the file
            REBUILT.format(build="build(SIZE)", path="'weights.h5'", then="    tune(model)\n")
            + "\n\ndef tune(model):\n    model.compile('adam', 'mse')\n    model.fit(x, y, epochs=5)\n"
        ),
        Valid(
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\nfor x in inputs:\n    model(x)\n"
        ),
        Valid(  # each iteration loads another checkpoint
            "import tensorflow as tf\n"
            "for step in [100, 200, 300]:\n"
            "    path = f'ckpt-{step}.keras'\n"
            "    model = tf.keras.models.load_model(path)\n"
        ),
        Valid(  # a helper called from two cells loads twice, in no loop
            "import tensorflow as tf\n"
            "def restore():\n"
            "    return tf.keras.models.load_model('m.keras')\n"
            "a = restore()\n"
            "b = restore()\n"
        ),
        Valid(  # loaded once when the server starts, used by each request
            "import tensorflow as tf\n"
            "from flask import Flask\n"
            "app = Flask(__name__)\n"
            "model = tf.keras.models.load_model('m.keras')\n"
            "@app.route('/predict', methods=['POST'])\n"
            "def predict():\n"
            "    return model(x)\n"
        ),
        Valid(  # a decorator of an object that is no web application: no request runs it
            "import tensorflow as tf\n"
            "import registry\n"
            "routes = registry.Router()\n"
            "@routes.get('/m')\n"
            "def build():\n"
            "    return tf.keras.models.load_model('m.keras')\n"
        ),
        Valid(  # the loop saves between loads: each load reads the newest weights
            "import tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "eval_model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "def evaluate():\n"
            "    eval_model.load_weights(tf.train.latest_checkpoint('ckpt'))\n"
            "for round in range(10):\n"
            "    model.fit(ds, epochs=1)\n"
            "    model.save_weights('ckpt/step')\n"
            "    evaluate()\n"
        ),
    )
    INVALID = (
        Invalid(  # a demo that builds the same model and loads the same weights into it on every pass
            REBUILT.format(build="build(SIZE)", path="'weights.h5'", then=""),
            line=11,
        ),
        Invalid(  # a route handler: every request loads the model again
            "import tensorflow as tf\n"
            "from flask import Flask\n"
            "app = Flask(__name__)\n"
            "@app.route('/predict', methods=['POST'])\n"
            "def predict():\n"
            "    model = tf.keras.models.load_model('m.keras')\n"
            "    return model(x)\n",
            line=6,
        ),
        Invalid(  # a loop that trains another model: the file loaded is the same each time
            "import tensorflow as tf\n"
            "def score(x):\n"
            "    teacher = tf.keras.models.load_model('teacher.keras')\n"
            "    return teacher(x)\n"
            "for x, y in batches:\n"
            "    student.train_on_batch(x, score(x))\n",
            line=3,
        ),
        Invalid(
            "import tensorflow as tf\n"
            "for x in inputs:\n"
            "    model = tf.keras.models.load_model('m.keras')\n"
            "    model(x)\n",
            line=3,
        ),
        Invalid(  # the loop variable feeds the model, not the load
            "import tensorflow as tf\n"
            "for i in range(10):\n"
            "    model = tf.keras.models.load_model('m.keras')\n"
            "    model(inputs[i])\n",
            line=3,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api not in LOADERS or not (site.repeats() or _rebuilt_each_pass(facts, site)):
                continue
            if not _loop_writes_weights(facts, site):
                request = site.callsite.runs.request
                message = (self.MESSAGE if request is None else self.REQUEST).format(api=site.api, request=request)
                yield self.diagnostic(site.callsite.span, facts.path, message)


def _rebuilt_each_pass(facts: FileFacts, site) -> bool:
    """`load_weights` whose model the loop builds anew on each pass before it, from what every pass
    gives alike (`model = build(SIZE); model.load_weights(PATH)`: the same model, the same file), in
    a loop that trains nothing (`_trains`: a model reset to the same weights before each training run
    is not repeated work): only its receiver differs from pass to pass."""
    node, cell = facts.node(site), site.callsite.span.cell
    if node is None or not isinstance(node.func, ast.Attribute) or not isinstance(node.func.value, ast.Name):
        return False
    if site.loop_runs is not None and site.loop_runs <= 1 or any(
        set(names) - {"receiver"} for names in site.callsite.runs.varying
    ):
        return False
    loops = own_loops(facts, node, cell)
    if not loops:
        return False
    loop = loops[0]
    built = last_bindings(loop, node.lineno).get(node.func.value.id)
    varying = loop_varying(loop)
    return (
        built is not None
        and isinstance(built.value, ast.Call)
        and all(_alike(a, varying) for a in (*built.value.args, *(k.value for k in built.value.keywords)))
        and all(_alike(a, varying) for a in (*node.args, *(k.value for k in node.keywords)))
        and not _trains(facts, loop, cell)
    )


def _trains(facts: FileFacts, loop: ast.AST, cell: int | None) -> bool:
    """The loop, or a function of the file it calls, makes a training call (`TRAINS`)."""
    calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
    called = [n for c in calls for f in definitions(facts, c.func, cell) for n in ast.walk(f) if isinstance(n, ast.Call)]
    return any(last_name(n.func) in TRAINS for n in (*calls, *called))


def _alike(argument: ast.expr, varying: frozenset) -> bool:
    """*argument* is the same on every pass: it reads no name the passes differ in, and calls
    nothing but a join of a path or a format (`next_checkpoint()` may give another file each time)."""
    return not flow.names(argument) & varying and all(
        last_name(n.func) in ("join", "format") for n in ast.walk(argument) if isinstance(n, ast.Call)
    )


#: Calls that train a model: a loop that makes them may reset the weights it loads on purpose.
TRAINS = STEP_METHODS | {"fit", "fit_generator"}
#: Methods that write a model's weights to disk (`fit` only when given callbacks: `ModelCheckpoint`).
SAVES = frozenset({"save_weights", "save"})
FITS = frozenset({"fit", "fit_generator"})


def _loop_writes_weights(facts: FileFacts, site) -> bool:
    """A loop that repeats the load writes weights to disk too: around the load, or around a call
    of its function in the same file (or cell), followed by name up to three calls up."""
    node, cell = facts.node(site), site.callsite.span.cell
    if node is None:
        return False
    module = facts.module(cell)
    todo, seen = [(node, 0)], set()
    while todo:
        at, depth = todo.pop()
        loops = own_loops(facts, at, cell)
        if any(_writes(loop) for loop in loops):
            return True
        func = next(
            (a for a in facts.ancestors(at, cell) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))), None
        )
        if loops or func is None or depth >= 3 or func.name in seen or module is None:
            continue
        seen.add(func.name)
        todo += [(call, depth + 1) for call in facts.nodes(cell, ast.Call) if last_name(call.func) == func.name]
    return False


def _writes(loop: ast.AST) -> bool:
    """The loop (its nested blocks included) saves weights: `save_weights`/`save`, or `fit` given
    callbacks."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and (n.func.attr in SAVES or n.func.attr in FITS and keyword(n, "callbacks") is not None)
        for n in ast.walk(loop)
    )
