"""GL531 frozen-model-on-fixed-input: a model whose weights never change run on an input that never changes, in every training step."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis import flow
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.base_classes import FUNCTIONS
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_keras_model_method
from greenlint.rules.syntax import (
    LOOPS,
    STEP_METHODS,
    enclosing,
    last_name,
    own_body,
    own_loops,
    parameters,
    unguarded_body,
)

#: Calls that change a variable's value or a model's weights: what they are given is not fixed.
UPDATES = frozenset({*STEP_METHODS, "assign", "assign_add", "assign_sub", "fit", "fit_generator"})
#: What `compile` is given that `fit` runs on every batch.
COMPILED = frozenset({"loss", "metrics", "weighted_metrics"})
#: How an attribute of the object a method runs on is written.
SELF = "self."
#: Attributes through which a training step reaches a model's weights (`tape.gradient(loss, m.trainable_variables)`).
TRAINED = frozenset({"trainable_variables", "trainable_weights"})
#: What an input may be written with and stay the same value on every run: names and their parts, literals,
#: arithmetic (no call, which may draw new random numbers or read new data).
FIXED_NODES = (
    ast.Name,
    ast.Attribute,
    ast.Subscript,
    ast.Constant,
    ast.BinOp,
    ast.UnaryOp,
    ast.Tuple,
    ast.List,
    ast.Slice,
    ast.Load,
    ast.operator,
    ast.unaryop,
)

#: A TF2 feature-loss training: a frozen VGG extractor, a transform net trained on each batch of `dataset`.
STYLE = (
    "import tensorflow as tf\n"
    "vgg = tf.keras.applications.VGG19(include_top=False, weights='imagenet')\n"
    "vgg.trainable = False\n"
    "extractor = tf.keras.Model(vgg.input, vgg.get_layer('block4_conv2').output)\n"
    "net = tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding='same')])\n"
    "opt = tf.keras.optimizers.Adam()\n"
    "style = tf.keras.utils.img_to_array(tf.keras.utils.load_img('style.jpg'))[None]\n"
    "def train_step(images):\n"
    "    with tf.GradientTape() as tape:\n"
    "        loss = tf.reduce_mean((extractor(net(images)) - {target}) ** 2)\n"
    "    grads = tape.gradient(loss, net.trainable_variables)\n"
    "    opt.apply_gradients(zip(grads, net.trainable_variables))\n"
    "for epoch in range(2):\n"
    "    for images in dataset:\n"
    "        train_step(images)\n"
)

#: A Keras model subclass distilling a frozen VGG's features into a student, its step's loss against `{call}`.
CLASS = (
    "import tensorflow as tf\n"
    "class Distil(tf.keras.Model):\n"
    "    def __init__(self, student, style):\n"
    "        super().__init__()\n"
    "        self.vgg = tf.keras.applications.VGG19(include_top=False, weights='imagenet')\n"
    "        self.vgg.trainable = False\n"
    "        self.student = student\n"
    "        self.style = style\n"
    "    def train_step(self, data):\n"
    "        with tf.GradientTape() as tape:\n"
    "            loss = tf.reduce_mean((self.vgg(self.student(data)) - {call}) ** 2)\n"
    "        grads = tape.gradient(loss, self.student.trainable_variables)\n"
    "        self.optimizer.apply_gradients(zip(grads, self.student.trainable_variables))\n"
    "        return {{'loss': loss}}\n"
)

#: A Keras style loss comparing a frozen VGG's features of the fixed style image and of the output.
LOSS = (
    "import tensorflow as tf\n"
    "vgg = tf.keras.applications.VGG19(include_top=False, weights='imagenet')\n"
    "vgg.trainable = False\n"
    "style = tf.keras.utils.img_to_array(tf.keras.utils.load_img('style.jpg'))[None]\n"
    "net = tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding='same')])\n"
    "def style_loss(y_true, y_pred):\n"
    "    return tf.reduce_mean((vgg(style) - vgg(y_pred)) ** 2)\n"
    "net.compile(optimizer='adam', {compiled})\n"
    "net.fit(images, images, epochs=2)\n"
)


class FrozenModelOnFixedInput(Rule):
    """
    ## What it does
    Flags a Keras model called (`extractor(style)`, `self.vgg(self.style)`) in a training step, a
    function or loop body that also applies an update (`apply_gradients`, `minimize`,
    `train_on_batch`), on each of its passes (no `if` around it in the step), that a loop runs
    again and again (or a Keras `train_step` override, or a loss or metric function given to
    `compile`, which `fit` runs once per batch), when neither the model nor its input can change between the steps,
    so its output is the same every time:

    - the model is frozen: the file sets `m.trainable = False` on it, or on a model it is built
      from (`extractor = tf.keras.Model(vgg.input, ...)` after `vgg.trainable = False`), or it is
      made by a function of the file that freezes a model (`vgg_layers(names)`); and nothing in the
      file trains it (`m.fit(...)`, `m.train_on_batch(...)`, `m.trainable_variables` given to a
      gradient) or sets anything trainable again (`layer.trainable = True`: a fine-tuning stage,
      which may unfreeze part of it);
    - its input is the same on every step: names or attributes of `self` (and their items,
      attributes and arithmetic) that the analysis found no loop varies, none of them a parameter
      of the step's function, bound to a `tf.Variable`, given to an update
      (`opt.apply_gradients([(grad, image)])`, `image.assign(...)`: the image a style transfer
      optimises changes every step), assigned in any loop of the file, declared `global` in a
      function, or, for an attribute of `self`, assigned in any method but `__init__`
      (`set_style`); no call (`tf.random.normal(...)`
      draws new numbers each time);
    - it is not called with `training=True` (dropout draws anew on each call).

    A feature loss against a fixed image (a style image's Gram matrices, a content image's
    features) computed inside the step is the common case. Not reported: a teacher or feature
    extractor run on each step's batch (its input changes); a model the step trains, or that the
    file trains anywhere (a GAN's generator on a fixed seed: its weights change); a model of
    unknown provenance (a parameter, an attribute of another object), whose weights greenlint cannot
    follow.

    Opt-in until the real-world benchmark has judged its findings.

    ## Why is this bad?
    Every step runs the model's forward pass on the same input with the same weights and gets the
    same output: the work of every step after the first is done for nothing. For a VGG-19 feature
    loss on a full-size style image that is a forward pass of tens of GFLOPs or more per step,
    comparable to the loss network's work on the step's batch of small crops. Computing the output once before the
    loop and using it as a constant in the step gives the same losses and gradients.

    ## Example
    ```python
    import tensorflow as tf

    vgg = tf.keras.applications.VGG19(include_top=False, weights="imagenet")
    vgg.trainable = False
    for images in dataset:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((vgg(net(images)) - vgg(style)) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    vgg = tf.keras.applications.VGG19(include_top=False, weights="imagenet")
    vgg.trainable = False
    style_features = vgg(style)  # once
    for images in dataset:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((vgg(net(images)) - style_features) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
    ```

    ## Energy evidence
    None measured: the saving is the repeated forward pass itself, one per step after the first;
    greenlint names the count where the analysis knows it.

    ## Fix safety
    No automatic fix: the output must be computed before the loop and handed to the step.

    ## Options
    None.
    """

    code = "GL531"
    name = "frozen-model-on-fixed-input"
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    CALLS = frozenset({"__call__"})  # a file that never calls a model is not checked
    MESSAGE = (
        "`{call}` runs `{model}`, frozen and trained nowhere in the file, on an input that is the same on every"
        " step, in a training step{times}: its output never changes, yet every step computes it again; compute it"
        " once before the loop and use the result in the step"
    )
    FIX_TITLE = "Compute the frozen model's output on the fixed input once, before the loop"
    VALID = (
        Valid(STYLE.format(target="extractor(images)")),  # the extractor's input changes on every step
        Valid(  # the model is trained in the file: its output on a fixed input changes
            STYLE.replace("vgg.trainable = False\n", "").format(target="extractor(style)")
            + "extractor.fit(x, y, epochs=1)\n"
        ),
        Valid(  # never frozen: the model built from vgg may share weights with a model trained elsewhere
            STYLE.replace("vgg.trainable = False\n", "").format(target="extractor(style)")
        ),
        Valid(  # set trainable again: fine-tuning changes its weights
            STYLE.format(target="extractor(style)") + "vgg.trainable = True\n"
        ),
        Valid(  # its last layers unfrozen one by one: the model's output changes as they train
            STYLE.format(target="extractor(style)") + "for layer in vgg.layers[-4:]:\n    layer.trainable = True\n"
        ),
        Valid(  # under an `if` in the step: run on some steps only (a periodic check), not on every one
            STYLE.format(target="(extractor(style) if warm else 0.0)").replace(
                "        loss = tf.reduce_mean(",
                "        if warm:\n            extractor(style)\n        loss = tf.reduce_mean(",
            )
        ),
        Valid(  # the image a style transfer optimises: the same variable, a new value each step
            "import tensorflow as tf\n"
            "vgg = tf.keras.applications.VGG19(include_top=False, weights='imagenet')\n"
            "vgg.trainable = False\n"
            "opt = tf.keras.optimizers.Adam()\n"
            "image = tf.Variable(content)\n"
            "def train_step():\n"
            "    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(vgg(image) ** 2)\n"
            "    opt.apply_gradients([(tape.gradient(loss, image), image)])\n"
            "for step in range(1000):\n"
            "    train_step()\n"
        ),
        Valid(  # the input is the step's parameter: what each call gives it is not followed
            STYLE.format(target="extractor(images * 0 + 1)")
        ),
        Valid(  # new noise drawn on each call
            STYLE.format(target="extractor(tf.random.normal((1, 64, 64, 3)))")
        ),
        Valid(  # dropout draws anew on each call
            STYLE.format(target="extractor(style, training=True)")
        ),
        Valid(  # a global the loop rebinds: a new style image every epoch
            STYLE.format(target="extractor(style)").replace(
                "for images in dataset:", "style = next(styles)\n    for images in dataset:"
            )
        ),
        Valid(  # the object's style is set again by another method: it may change between steps
            CLASS.format(call="self.vgg(self.style)") + "    def set_style(self, style):\n        self.style = style\n"
        ),
        Valid(  # the object's image is a variable the step optimises
            CLASS.format(call="self.vgg(self.image)").replace("self.style = style", "self.image = tf.Variable(style)")
        ),
        Valid(  # a function sets the module's style again (`global`): it may change between steps
            STYLE.format(target="extractor(style)")
            + "def next_style(path):\n    global style\n    style = load(path)\n"
        ),
        Valid(  # the same function never given to compile: no step runs it
            LOSS.format(compiled="loss='mse'")
        ),
        Valid(  # no training step around it: a latency loop of a frozen model on one input
            "import tensorflow as tf\n"
            "vgg = tf.keras.applications.VGG19(include_top=False, weights='imagenet')\n"
            "vgg.trainable = False\n"
            "for i in range(100):\n"
            "    vgg(style)\n"
        ),
    )
    INVALID = (
        Invalid(
            STYLE.format(target="extractor(style)"),
            line=10,
            message_contains="`extractor(style)` runs `extractor`, frozen and trained nowhere in the file",
        ),
        Invalid(  # frozen by the function of the file that builds it
            "import tensorflow as tf\n"
            "def vgg_layers(names):\n"
            "    vgg = tf.keras.applications.VGG19(include_top=False, weights='imagenet')\n"
            "    vgg.trainable = False\n"
            "    return tf.keras.Model([vgg.input], [vgg.get_layer(n).output for n in names])\n"
            "extractor = vgg_layers(['block1_conv1', 'block2_conv1'])\n"
            "net = tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding='same')])\n"
            "opt = tf.keras.optimizers.Adam()\n"
            "for images in dataset:\n"
            "    with tf.GradientTape() as tape:\n"
            "        targets = extractor(style_image * 255.0)\n"
            "        loss = tf.add_n([tf.reduce_mean((a - b) ** 2) for a, b in zip(extractor(net(images)), targets)])\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))\n",
            line=11,
        ),
        Invalid(  # a loss given to compile, which fit evaluates on every batch: the style's features each time
            LOSS.format(compiled="loss=style_loss"),
            line=7,
        ),
        Invalid(  # a Keras train_step override, which fit runs once per batch, on attributes set in __init__
            CLASS.format(call="self.vgg(self.style)"),
            line=11,
            message_contains="`self.vgg(self.style)` runs `self.vgg`",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        candidates = [  # model calls repeated step after step (fit runs a Keras train_step once per batch)
            site
            for site in facts.sites
            if is_keras_model_method(site.api, ("__call__",)) and (site.repeats() or site.features.get("in_keras_step"))
        ]
        if not candidates:
            return  # the file's tree is read only for sites worth judging
        frozen, thawed, trained, changing = _file_facts(facts)
        if not frozen or thawed:  # anything set trainable again (`layer.trainable = True`): a fine-tuning stage
            return
        for site in candidates:
            call = facts.node(site)
            cell = site.callsite.span.cell
            if not (isinstance(call, ast.Call) and call.args and _refs(call.func) == {ast.unparse(call.func)}):
                continue
            model = ast.unparse(call.func)
            if model in trained or not _frozen(facts, model, frozen):
                continue
            step = _step(facts, call, cell)
            if step is None or not _fixed_input(call, step, changing):
                continue
            yield self.diagnostic(
                site.callsite.span,
                facts.path,
                self.MESSAGE.format(call=ast.unparse(call), model=model, times=site.loop_times()),
            )


def _file_facts(facts: FileFacts) -> tuple[frozenset, frozenset, frozenset, frozenset]:
    """Across the file: the names set `.trainable = False`, those set `.trainable = True`, those
    trained (`m.fit(...)`, `m.train_on_batch(...)`, `m.trainable_variables`), and those not fixed
    (bound to a `Variable(...)`, given to an update, or assigned in a loop)."""
    frozen: set[str] = set()
    thawed: set[str] = set()
    trained: set[str] = set()
    changing: set[str] = set()
    for cell in facts.cells:
        for node in facts.nodes(cell, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr == "trainable"
                    and isinstance(node.value, ast.Constant)
                ):
                    (frozen if node.value.value is False else thawed).add(ast.unparse(target.value))
            if isinstance(node.value, ast.Call) and last_name(node.value.func) == "Variable":
                changing.update(*map(_refs, node.targets))
        for attribute in facts.nodes(cell, ast.Attribute):
            if attribute.attr in TRAINED:
                trained.add(ast.unparse(attribute.value))
        for call in facts.nodes(cell, ast.Call):
            if isinstance(call.func, ast.Attribute) and call.func.attr in UPDATES:
                trained.add(ast.unparse(call.func.value))
                changing.update(_refs(call))
        for loop in facts.nodes(cell, *LOOPS):
            if isinstance(loop, (ast.For, ast.AsyncFor)):
                changing.update(flow.targets(loop.target))
            for bound in own_body(loop):
                if isinstance(bound, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    for target in bound.targets if isinstance(bound, ast.Assign) else [bound.target]:
                        changing.update(_refs(target))
        for declared in facts.nodes(cell, ast.Global):  # a module's name a function may set again
            if isinstance(declared, ast.Global):
                changing.update(declared.names)
        for function in facts.nodes(cell, *FUNCTIONS):
            if isinstance(function, FUNCTIONS) and function.name != "__init__":  # an attribute set again later
                for bound in ast.walk(function):
                    if isinstance(bound, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                        for target in bound.targets if isinstance(bound, ast.Assign) else [bound.target]:
                            changing.update(r for r in _refs(target) if r.startswith(SELF))
    return frozenset(frozen), frozenset(thawed), frozenset(trained), frozenset(changing)


def _frozen(facts: FileFacts, model: str, frozen: frozenset) -> bool:
    """*model* is frozen: set `.trainable = False` itself, or bound (every binding of it in the file) to
    a call given a frozen model (`Model(vgg.input, ...)`) or of a function of the file that freezes one."""
    if model in frozen:
        return True
    freezers = {
        f.name
        for c in facts.cells
        for f in facts.nodes(c, *FUNCTIONS)
        if isinstance(f, FUNCTIONS)
        and any(
            isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Attribute) and t.attr == "trainable" for t in n.targets)
            and isinstance(n.value, ast.Constant)
            and n.value.value is False
            for n in ast.walk(f)
        )
    }
    values = [
        n.value
        for c in facts.cells
        for n in facts.nodes(c, ast.Assign)
        if any(ast.unparse(t) == model for t in n.targets)
    ]
    return bool(values) and all(
        _refs(v) & frozen
        if not isinstance(v, ast.Call)
        else last_name(v.func) in freezers or any(_refs(a) & frozen for a in (*v.args, *(k.value for k in v.keywords)))
        for v in values
    )


def _step(facts: FileFacts, call: ast.Call, cell: int | None) -> ast.AST | None:
    """The training step around the call: its function, else the loop around it, where that applies
    an update (`apply_gradients`, `minimize`, `train_on_batch`), or a function given to a Keras
    model's `compile` as its loss or a metric, which `fit` evaluates on every batch; None elsewhere."""
    scope = enclosing(facts, call, cell, FUNCTIONS)
    loops = own_loops(facts, call, cell)
    step = scope if scope is not None else loops[0] if loops else None
    if step is None or not any(n is call for n in unguarded_body(step)):  # on every pass, not under an `if`
        return None
    body = ast.walk(step) if scope is not None else own_body(step)
    if any(isinstance(n, ast.Call) and last_name(n.func) in STEP_METHODS for n in body):
        return step
    return step if isinstance(scope, FUNCTIONS) and _compiled_with(facts, scope.name) else None


def _compiled_with(facts: FileFacts, name: str) -> bool:
    """The function *name* is given to a model's `compile` as its loss or a metric (`loss=style_loss`,
    `metrics=[psnr]`, `loss={'out': style_loss}`)."""
    return any(
        isinstance(call.func, ast.Attribute)
        and call.func.attr == "compile"
        and any(
            isinstance(n, ast.Name) and n.id == name
            for k in call.keywords
            if k.arg in COMPILED
            for n in ast.walk(k.value)
        )
        for c in facts.cells
        for call in facts.nodes(c, ast.Call)
    )


def _fixed_input(call: ast.Call, step: ast.AST, changing: frozenset) -> bool:
    """The call's input is written with names and arithmetic alone, none of them changing (`changing`) nor a
    parameter of the step's function, and the call does not ask for `training=True`."""
    if any(
        k.arg == "training" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
        for k in call.keywords
    ):
        return False
    given = [*call.args, *(k.value for k in call.keywords if k.arg != "training")]
    if not all(isinstance(n, FIXED_NODES) for a in given for n in ast.walk(a)):
        return False
    refs = frozenset().union(*map(_refs, given))
    own = frozenset(parameters(step)) if isinstance(step, FUNCTIONS) else frozenset()
    return bool(refs) and not refs & (changing | own)


def _refs(node: ast.AST) -> set[str]:
    """What an expression reads, as text: its names, and `self.<attr>` for each attribute of `self` (an
    object's state, which its methods share) in place of `self`."""
    found: set[str] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self":
            found.add(f"{SELF}{n.attr}")
        elif isinstance(n, ast.Name):
            found.add(n.id)
        else:
            todo.extend(ast.iter_child_nodes(n))
    return found
