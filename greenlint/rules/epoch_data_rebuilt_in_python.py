"""GL414 epoch-data-rebuilt-in-python: a training set rebuilt item by item in Python before each `fit()` of a loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.flow import own_nodes
from greenlint.analysis.trees import dotted
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.feed_work import PER_ITEM_WORK, host_work
from greenlint.rules.site import is_keras_model_method
from greenlint.rules.syntax import innermost_loop, target_binds

#: A training set drawn anew before each epoch, as NCF's scripts do: positive pairs and random negatives
#: rejected against a sparse matrix, one Python draw and lookup per item (`{fit}`: the fit's arguments).
NEGATIVES = (
    "import numpy as np\nimport tensorflow as tf\n"
    "def train_instances(train, num_negatives, num_items):\n"
    "    users, items, labels = [], [], []\n"
    "    for (u, i) in train.keys():\n"
    "        users.append(u)\n        items.append(i)\n        labels.append(1)\n"
    "        for t in range(num_negatives):\n"
    "            j = np.random.randint(num_items)\n"
    "            while train.has_key((u, j)):\n                j = np.random.randint(num_items)\n"
    "            users.append(u)\n            items.append(j)\n            labels.append(0)\n"
    "    return users, items, labels\n"
    "def run(model, train, epochs):\n"
    "    for epoch in range(epochs):\n"
    "        users, items, labels = train_instances(train, 4, 3706)\n"
    "        model.fit({fit}, batch_size=256, epochs=1, verbose=0)\n"
)
FIT_ARRAYS = "[np.array(users), np.array(items)], np.array(labels)"


class EpochDataRebuiltInPython(Rule):
    """
    ## What it does
    Flags a Keras `fit()` run once per pass of a `for` loop (one epoch at a time) whose training
    arrays a function of the file or of a project module builds anew on every pass, item by item, in
    a Python loop doing work per item beyond index arithmetic and random draws (a lookup per drawn
    negative, `train.has_key((u, j))` or a `while (u, j) in train:` redrawing it, a per-item
    conversion): a recommender's training pairs and their random negatives drawn before each epoch,
    one `np.random.randint` and one sparse-matrix lookup per item. The arrays are
    followed from `fit()`'s `x` and `y` to the names the loop's body binds them to and to the function
    whose call binds them there, as GL503 follows a session's feed (rules/feed_work.py); the finding
    names that function's loop.

    Not reported: a function given something the loop itself binds (its variable, an epoch counter,
    a name assigned in its body: a curriculum or data that changes with the pass), or the model being
    trained (data generated from the model's own play, as an agent's experience), or a method of an
    object the pass uses otherwise (`memory.sample(64)` after `memory.add(step)`: a replay memory that
    grows); data built by NumPy calls on whole arrays, by slices and index arithmetic, or by random
    draws alone (gathering rows already in memory, microseconds per item); one whole file read again
    on each pass (`np.load`) with no loop per item; a `fit()` called once, or by a `while` loop, or in
    a loop known to run once; test code. A per-item loop that reads and decodes files (`cv2.imread`
    per path) is reported: each pass decodes them all again, and the arrays it makes do not change
    between passes.

    Default since the real-world benchmark judged its findings (bench/realworld: 3 of 3 true, NCF's
    three scripts) and its pair measured a saving above 0 (Energy evidence).

    ## Why is this bad?
    Each pass runs the whole training set through the Python interpreter on one host core before
    `fit()` starts: a few microseconds per item for a draw, a dictionary or sparse-matrix lookup and
    three list appends (CPython's calls and NumPy's scalar draws each cost about a microsecond), so
    seconds to tens of seconds per epoch for millions of items, during which the accelerator idles and
    draws its idle power. A model as small as an embedding recommender trains on an item in about as
    long on a GPU (a batch of 256 in well under a millisecond), so the epoch can take twice as long as
    its training alone. Drawing the negatives in bulk (`np.random.randint(n_items, size=(n, k))`,
    re-drawing only the collisions found by one vectorised membership test) does the same work in
    compiled code, tens of times faster; data that does not change between passes is built once,
    before the loop.

    ## Example
    ```python
    for epoch in range(epochs):
        users, items, labels = get_train_instances(train, num_negatives)  # a Python loop per item
        model.fit([np.array(users), np.array(items)], np.array(labels), batch_size=256, epochs=1)
    ```

    ## Use instead
    ```python
    for epoch in range(epochs):
        users, items, labels = sample_negatives_vectorised(pairs, num_negatives, num_items)  # NumPy, in bulk
        model.fit([users, items], labels, batch_size=256, epochs=1)
    ```

    ## Energy evidence
    The pair under bench/rules/GL414/ trains NCF's GMF (embeddings of 8 for 1,000 users and 2,000
    items) for 2 one-epoch `fit()`s on 40,000 ratings with 4 negatives each, the instances drawn
    before each fit by NCF's Python loop (a draw and a dict lookup per negative: its `dok_matrix`
    was a dict in the SciPy of its day) and by NumPy in bulk (the clashes with a rating found by one
    `np.isin` and drawn again): the same instances, the same training. The saving is the Python loop's host time beside the training;
    its share of a real run grows with the items per epoch against the step's work on each, which
    greenlint does not know for such models (the message says the device waits for the loop, not by
    how much). On an accelerator the device also idles while the loop runs.

    ## Fix safety
    No automatic fix: the vectorised sampling is the program's own to write.

    ## Options
    None.
    """

    code = "GL414"
    name = "epoch-data-rebuilt-in-python"
    CALLS = frozenset({"fit"})
    MESSAGE = (
        "`fit()` trains on arrays that `{maker}()` builds anew on each pass of the loop at line {line}{times},"
        " with {work}: one host core runs it over every item before each `fit()` while the device waits"
    )
    FIX_TITLE = (
        "Build the arrays in bulk with NumPy (or in a parallel `tf.data` pipeline), or once before the loop"
        " where they do not change"
    )
    VALID = (
        Valid(  # the negatives drawn by a vectorised NumPy call: no Python loop per item
            "import numpy as np\nimport tensorflow as tf\n"
            "def train_instances(users, items, num_items):\n"
            "    negatives = np.random.randint(num_items, size=len(users))\n"
            "    return np.concatenate([users, users]), np.concatenate([items, negatives])\n"
            "def run(model, users, items, labels, epochs):\n"
            "    for epoch in range(epochs):\n"
            "        u, i = train_instances(users, items, 3706)\n"
            "        model.fit([u, i], labels, epochs=1)\n"
        ),
        Valid(  # the negatives drawn in bulk, the clashes with a rating redrawn in bulk until none is left
            "import numpy as np\nimport tensorflow as tf\n"
            "def train_instances(users, items, rated, num_items):\n"
            "    negatives = np.random.randint(num_items, size=len(users))\n"
            "    clash = np.isin(users * num_items + negatives, rated)\n"
            "    while clash.any():\n"
            "        negatives[clash] = np.random.randint(num_items, size=int(clash.sum()))\n"
            "        clash = np.isin(users * num_items + negatives, rated)\n"
            "    return np.concatenate([users, users]), np.concatenate([items, negatives])\n"
            "def run(model, users, items, rated, labels, epochs):\n"
            "    for epoch in range(epochs):\n"
            "        u, i = train_instances(users, items, rated, 3706)\n"
            "        model.fit([u, i], labels, epochs=1)\n"
        ),
        Valid(  # the function is given the epoch: a curriculum, other data on every pass
            NEGATIVES.replace("train_instances(train, 4, 3706)", "train_instances(train, epoch, 3706)").format(
                fit=FIT_ARRAYS
            )
        ),
        Valid(  # the function is given the model: its own play, data that exists only after the last fit
            "import numpy as np\nimport tensorflow as tf\n"
            "def play(model, env):\n    states, targets = [], []\n"
            "    for step in range(500):\n        q = model.predict(env.state())\n"
            "        states.append(env.state())\n        targets.append(q.max())\n"
            "    return np.array(states), np.array(targets)\n"
            "def run(model, env):\n    for game in range(1000):\n"
            "        x, y = play(model, env)\n        model.fit(x, y, epochs=1)\n"
        ),
        Valid(  # a replay memory the pass fills: `sample()` draws from what earlier passes stored
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.Sequential()\n"
            "class Memory:\n    def __init__(self):\n        self.items = []\n"
            "    def add(self, item):\n        self.items.append(item)\n"
            "    def sample(self, size):\n        xs, ys = [], []\n"
            "        for item in self.items[-size:]:\n            xs.append(np.asarray(item[0], np.float32))\n"
            "            ys.append(float(item[1]))\n        return np.array(xs), np.array(ys)\n"
            "memory = Memory()\n"
            "for episode in range(500):\n    memory.add(play())\n"
            "    x, y = memory.sample(64)\n    model.fit(x, y, epochs=1)\n"
        ),
        Valid(  # rows gathered at random positions: index arithmetic and draws, microseconds per item
            "import random\nimport numpy as np\nimport tensorflow as tf\n"
            "def pick(x, y, size):\n    xs, ys = [], []\n"
            "    for k in range(size):\n        i = random.randint(0, len(x) - 1)\n"
            "        xs.append(x[i])\n        ys.append(y[i])\n"
            "    return np.array(xs), np.array(ys)\n"
            "def run(model, x, y):\n    for epoch in range(100):\n"
            "        bx, by = pick(x, y, 10000)\n        model.fit(bx, by, epochs=1)\n"
        ),
        Valid(  # rows gathered at random, skipping the held-out ones: a membership test, but no redraw loop
            "import random\nimport numpy as np\nimport tensorflow as tf\n"
            "def pick(x, y, held_out, size):\n    xs, ys = [], []\n"
            "    for k in range(size):\n        i = random.randint(0, len(x) - 1)\n"
            "        if i in held_out:\n            continue\n"
            "        xs.append(x[i])\n        ys.append(y[i])\n"
            "    return np.array(xs), np.array(ys)\n"
            "def run(model, x, y, held_out):\n    for epoch in range(100):\n"
            "        bx, by = pick(x, y, held_out, 10000)\n        model.fit(bx, by, epochs=1)\n"
        ),
        Valid(  # one array file read again on each pass: no Python loop per item
            "import numpy as np\nimport tensorflow as tf\nmodel = tf.keras.Sequential()\n"
            "def load(path):\n    return np.load(path)\n"
            "def run(labels):\n    for epoch in range(50):\n        x = load('train.npy')\n"
            "        model.fit(x, labels, epochs=1)\n"
        ),
        Valid(  # built once, before the loop
            NEGATIVES.replace(
                "    for epoch in range(epochs):\n        users, items, labels = train_instances(train, 4, 3706)\n",
                "    users, items, labels = train_instances(train, 4, 3706)\n    for epoch in range(epochs):\n",
            ).format(fit=FIT_ARRAYS)
        ),
        Valid(  # test code
            NEGATIVES.replace("def run(", "def test_run(").format(fit=FIT_ARRAYS)
        ),
    )
    INVALID = (
        Invalid(  # items read one at a time by a `while` loop that appends them
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n"
            "def load(paths):\n    images = []\n    i = 0\n"
            "    while i < len(paths):\n        images.append(cv2.resize(cv2.imread(paths[i]), (64, 64)))\n        i += 1\n"
            "    return np.array(images)\n"
            "model = tf.keras.Sequential()\n"
            "def run(paths, labels):\n    for epoch in range(50):\n        x = load(paths)\n"
            "        model.fit(x, labels, epochs=1)\n",
            line=15,
        ),
        Invalid(  # every image decoded again in a Python loop before each epoch's fit
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n"
            "def load(paths):\n    images = []\n"
            "    for p in paths:\n        images.append(cv2.resize(cv2.imread(p), (64, 64)))\n"
            "    return np.array(images)\n"
            "model = tf.keras.Sequential()\n"
            "def run(paths, labels):\n    for epoch in range(50):\n        x = load(paths)\n"
            "        model.fit(x, labels, epochs=1)\n",
            line=13,
            message_contains="(50 times), with a Python loop over its items (in `load`, line 6)",
        ),
        Invalid(  # NCF's training instances: a draw and a lookup per negative, before every epoch
            NEGATIVES.format(fit=FIT_ARRAYS),
            line=20,
            message_contains="`train_instances()` builds anew on each pass of the loop at line 18",
        ),
        Invalid(  # Python 3's NCF: the redraw tests membership with `in`, a lookup per drawn negative all the same
            NEGATIVES.replace("while train.has_key((u, j)):", "while (u, j) in train:").format(fit=FIT_ARRAYS),
            line=20,
        ),
        Invalid(  # the same, through the keywords x= and y=
            NEGATIVES.format(fit="x=[np.array(users), np.array(items)], y=np.array(labels)"),
            line=20,
            message_contains="a Python loop over its items (in `train_instances`, line 9)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not is_keras_model_method(site.api, ("fit",)):
                continue
            loop, _ = innermost_loop(facts, site)
            call = facts.node(site)
            if not isinstance(loop, ast.For) or call is None or (site.loop_runs or 2) < 2:
                continue
            cell = site.callsite.span.cell
            fed = [a for a in (argument(call, "x", 0), argument(call, "y", 1)) if a is not None]
            maker = _maker(fed, loop, _receiver(call))
            if maker is None or in_test_code(facts, site):
                continue
            work = host_work(facts, maker, loop, call, cell, redraws=True)
            if work is None or not work.startswith(PER_ITEM_WORK):
                continue  # one file read again, or no per-item loop seen: nothing claimed
            yield self.diagnostic(
                site.callsite.span,
                facts.path,
                self.MESSAGE.format(
                    maker=".".join(dotted(maker.func) or ["?"]), line=loop.lineno, times=site.loop_times(), work=work
                ),
            )


def _receiver(call: ast.Call) -> str | None:
    """The name of the model `fit()` is called on (`model` of `model.fit`, `self.model`)."""
    return ".".join(dotted(call.func.value) or []) or None if isinstance(call.func, ast.Attribute) else None


def _maker(fed: list[ast.expr], loop: ast.For, receiver: str | None) -> ast.Call | None:
    """The call that the loop's body binds a name *fed* reads to, given nothing the loop binds nor the
    model: the same inputs on every pass, its result rebuilt from them each time."""
    stored = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)} | {
        n.id for n in own_nodes(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    read = {n.id for expr in fed for n in ast.walk(expr) if isinstance(n, ast.Name)}
    for node in own_nodes(loop):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        if not any(target_binds(t, name) for t in node.targets for name in read):
            continue
        given = [*node.value.args, *(k.value for k in node.value.keywords)]
        names = {n.id for a in given for n in ast.walk(a) if isinstance(n, ast.Name)}
        models = {".".join(dotted(a) or []) for a in given}
        if names & stored or (receiver is not None and receiver in models | names):
            continue
        owner = dotted(node.value.func)[:-1] if isinstance(node.value.func, ast.Attribute) else None
        if owner and _used_elsewhere(loop, node.value, owner[0]):
            continue  # `memory.sample(32)` after `memory.append(...)`: an object the pass changes
        return node.value
    return None


def _used_elsewhere(loop: ast.For, maker: ast.Call, name: str) -> bool:
    """Whether the loop reads *name* anywhere but in *maker*'s own call (`memory.append(step)`)."""
    inside = {id(n) for n in ast.walk(maker.func)}
    return any(
        isinstance(n, ast.Name) and n.id == name and id(n) not in inside for n in own_nodes(loop)
    )
