"""GL206 batch-of-one-in-loop: a model run on a batch of one item, once per item of a loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_keras_model_method, method
from greenlint.rules.syntax import (
    FEW_ELEMENTS,
    autograph_loop,
    batch_of_one,
    loop_varying,
    own_body,
    own_loops,
    simple_bindings,
    times_each_call,
    waits_for_user,
)

#: Model calls that run the model once on what they are given (`predict` is GL201's).
RUNS_ONCE = ("predict_on_batch", "__call__")


class BatchOfOneInLoop(Rule):
    """
    ## What it does
    Flags `predict_on_batch()` on a Keras model, or the model called directly, given a batch
    of one item (`np.expand_dims(image, axis=0)`, `image[None]`, `x[i:i + 1]`,
    `np.array([image])`, a `reshape` to a leading 1; or a name the loop binds to one) on every
    iteration of a `for` loop over the items, when the items are independent: nothing the
    model returned in one iteration reaches the input of the next. Not reported: a decoding or
    control loop whose next input is made from the last output (a token appended to the
    sequence, an action fed to an environment), a `while` loop (a camera or a stream read as
    it comes, where waiting for a batch adds latency), a call in a traced function, a loop
    whose variable does not reach the item, a loop that waits for the user on each item
    (`cv2.waitKey(0)`, `input()`, `plt.show()`: a person's pace, not the model's, sets its
    time) or reads its items from standard input as they come (`for line in sys.stdin:`), a
    loop that times each call (a clock read before and after it: a latency measurement, whose
    point is one item per call), and a loop known to run at most 32 times (a plot
    of nine samples: one batch's worth of items gains nothing worth a finding).

    ## Why is this bad?
    A model run on one item at a time does the work of a batch of one per call: each layer's
    weights are read from memory again for every item, and the matrix products are too small
    to keep the device's cores busy, so the device runs mostly idle while it stays powered. A
    GPU or TPU is built for batches; on a CPU too, per-item calls pay the call's fixed cost
    (the Python dispatch, the graph function's launch, the copy of the input) once per item.
    The items of a loop over a data set are independent (each image's detections depend on
    that image only): stacking them into batches computes the same outputs in a fraction of
    the calls.

    ## Example
    ```python
    import numpy as np
    import tensorflow as tf

    model = tf.keras.models.load_model("detector.keras")
    for i in range(len(images)):
        boxes = model.predict_on_batch(np.expand_dims(images[i], axis=0))
    ```

    ## Use instead
    ```python
    import numpy as np
    import tensorflow as tf

    model = tf.keras.models.load_model("detector.keras")
    for start in range(0, len(images), 32):
        boxes = model.predict_on_batch(np.stack(images[start:start + 32]))
    ```

    ## Energy evidence
    The pair under bench/rules/GL206/ runs 64 images of 64×64 through a small convolutional
    network, one image per `predict_on_batch` call against one call on the batch of 64, on
    this machine's CPU. On a GPU, whose cores a batch of one leaves mostly idle, the saving
    is expected to be larger; it is not measured here.

    ## Fix safety
    No automatic fix: batching changes the loop's structure and needs items of one shape.

    ## Options
    None.
    """

    code = "GL206"
    name = "batch-of-one-in-loop"
    CALLS = frozenset(RUNS_ONCE)
    MESSAGE = (
        "`{method}` runs the model on a batch of one item (`{item}`) on every iteration of the loop{times}: "
        "the items are independent, stack them into batches"
    )
    FIX_TITLE = "Stack the loop's items into batches and run the model once per batch"
    VALID = (
        Valid(  # a latency benchmark: each call timed on its own
            "import time\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for i in range(len(images)):\n    start = time.time()\n"
            "    out = model.predict_on_batch(np.expand_dims(images[i], axis=0))\n    took.append(time.time() - start)\n"
        ),
        Valid(  # one batch of many
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for batch in batches:\n    model.predict_on_batch(batch)\n"
        ),
        Valid(  # autoregressive: the next input is made from the last output
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "seq = start\nfor i in range(100):\n"
            "    probs = model.predict_on_batch(seq[None])\n"
            "    token = probs[0, -1].argmax()\n    seq = np.append(seq, token)\n"
        ),
        Valid(  # a control loop: the action changes the state the model sees next
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('q.keras')\n"
            "state = env.reset()\nfor t in range(500):\n"
            "    q = model(np.expand_dims(state, 0), training=False)\n"
            "    state, reward, done, _ = env.step(int(q.numpy().argmax()))\n"
        ),
        Valid(  # frames of a camera, read as they come
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "while True:\n    ok, frame = cap.read()\n    boxes = model.predict_on_batch(frame[None])\n"
        ),
        Valid(  # the same item each time: not this rule's (the loop does not vary it)
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for trial in range(5):\n    model.predict_on_batch(np.expand_dims(sample, 0))\n"
        ),
        Valid(  # expand_dims on the last axis adds a channel, not a batch
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for batch in batches:\n    model.predict_on_batch(np.expand_dims(batch, -1))\n"
        ),
        Valid(  # each image is shown until a key is pressed: the user's pace sets the loop's time
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for path in paths:\n    image = cv2.imread(path)\n"
            "    boxes = model.predict_on_batch(np.expand_dims(image, axis=0))\n"
            "    cv2.imshow('image', draw(image, boxes))\n    cv2.waitKey(0)\n"
        ),
        Valid(  # nine samples for a plot: at most one batch's worth
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for i in range(9):\n    probs = model.predict_on_batch(x_test[i][None])\n"
        ),
        Valid(  # a traced function: the loop is a graph loop
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "@tf.function\ndef run(xs):\n    for x in xs:\n        model(x[None])\n"
        ),
    )
    INVALID = (
        Invalid(  # near miss: the loop as a whole is timed, not each call
            "import time\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "start = time.time()\nfor i in range(len(images)):\n"
            "    out = model.predict_on_batch(np.expand_dims(images[i], axis=0))\ntook = time.time() - start\n",
            line=7,
        ),
        Invalid(  # an evaluation helper given the model
            "import numpy as np\nfrom tensorflow import keras\n"
            "def detections(generator, model):\n"
            "    for i in range(generator.size()):\n"
            "        image, scale = generator.preprocess_image(generator.load_image(i))\n"
            "        boxes, scores, labels = model.predict_on_batch([np.expand_dims(image, axis=0)])\n"
            "        boxes /= scale\n",
            line=6,
            message_contains="`np.expand_dims(image, axis=0)`",
        ),
        Invalid(  # the model called directly, the item made a batch on the line before
            "import tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "for image in images:\n    batch = image[tf.newaxis, ...]\n    scores.append(model(batch, training=False))\n",
            line=5,
        ),
        Invalid(
            "import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "for i in range(100):\n    model.predict_on_batch(data[i:i + 1])\n",
            line=4,
            message_contains="(100 times)",
        ),
        Invalid(  # the images are shown only when asked: the evaluation runs at the model's pace
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.models.load_model('m.keras')\n"
            "def detections(paths, visualize=False):\n    for path in paths:\n        image = cv2.imread(path)\n"
            "        boxes = model.predict_on_batch(np.expand_dims(image, axis=0))\n"
            "        if visualize:\n            cv2.imshow('image', draw(image, boxes))\n            cv2.waitKey(0)\n",
            line=8,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not is_keras_model_method(site.api, RUNS_ONCE) or site.features.get("in_tf_function"):
                continue
            runs = site.loop_runs
            if not site.repeats(same=("receiver",)) or (runs is not None and runs <= FEW_ELEMENTS):
                continue
            call, cell = facts.node(site), site.callsite.span.cell
            if call is None:
                continue
            loops = own_loops(facts, call, cell)
            if not loops or not isinstance(loops[0], (ast.For, ast.AsyncFor)) or autograph_loop(facts, loops[0], cell):
                continue
            loop = loops[0]
            item = _one_item(call, loop)
            if item is None or not flow.names(item) & loop_varying(loop) or _fed_back(call, item, loop):
                continue
            if waits_for_user(loop) or times_each_call(loop, call):
                continue
            yield self.diagnostic(
                site.callsite.span,
                facts.path,
                self.MESSAGE.format(
                    method=method(site.api) if method(site.api) != "__call__" else "model(...)",
                    item=ast.unparse(item),
                    times=site.loop_times(),
                ),
            )


def _one_item(call: ast.Call, loop: ast.AST) -> ast.expr | None:
    """The expression making the call's input a batch of one item, written in the call (in a
    list of inputs too) or bound by the loop's body to the name given; None if there is none."""
    given = argument(call, "x", 0) or argument(call, "inputs")
    inputs = given.elts if isinstance(given, (ast.List, ast.Tuple)) else [given] if given is not None else []
    bound = simple_bindings(loop)
    for expr in inputs:
        expr = bound.get(expr.id, expr) if isinstance(expr, ast.Name) else expr
        if batch_of_one(expr):
            return expr
    return None


def _fed_back(call: ast.Call, item: ast.expr, loop: ast.For | ast.AsyncFor) -> bool:
    """What the call returns reaches the item of a later iteration (a decoding or control loop):
    the names bound from its result, closed over the loop's assignments, meet the item's."""
    results: frozenset = frozenset()
    for node in own_body(loop):
        if isinstance(node, ast.Assign):
            value, bound = node.value, node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            value, bound = node.value, [node.target]
        else:
            continue
        if any(n is call for n in ast.walk(value)):
            results = results.union(*(flow.targets(t) for t in bound))
    return bool(flow.derived(results, loop.body) & flow.names(item))
