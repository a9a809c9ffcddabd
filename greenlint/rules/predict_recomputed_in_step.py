"""GL210 predict-recomputed-in-step (opt-in): a sub-model's predict that the combined model's training step computes again."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import enclosing, every_pass, own_loops

#: Calls that change a model's weights: between the predict and the step, the two forward passes differ.
UPDATES = frozenset({"train_on_batch", "fit", "fit_generator", "set_weights", "load_weights"})


def _names(expr: ast.expr | None) -> tuple[str, ...] | None:
    """`x` -> ("x",), `[a, b]` -> ("a", "b"); None for anything else (an expression computed in place)."""
    if isinstance(expr, ast.Name):
        return (expr.id,)
    if isinstance(expr, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Name) for e in expr.elts):
        return tuple(e.id for e in expr.elts if isinstance(e, ast.Name))
    return None


def _applied_on_inputs(
    facts: FileFacts, receiver: ast.expr, model: ast.expr, owner: ast.AST | None, cell: int | None
) -> set[tuple[int, ...]]:
    """Where the file builds *model* once, in the class *owner* (None: outside classes), as
    `Model(inputs, outputs)` and, in the same function, calls *receiver* on some of those inputs
    (`fake_A = self.generator(img_B)`): the positions of those inputs, one tuple per such call.
    Empty when the model is bound more than once."""
    target = ast.unparse(model)
    made = [
        a.value for a in facts.nodes(cell, ast.Assign) if len(a.targets) == 1 and ast.unparse(a.targets[0]) == target
    ]
    if len(made) == 1 and enclosing(facts, made[0], cell, (ast.ClassDef,)) is not owner:
        return set()
    if len(made) != 1 or not isinstance(made[0], ast.Call):
        return set()
    site = facts.site_at(made[0], cell)
    if site is None or not site.api.startswith("tensorflow.keras") or not site.api.endswith(".Model"):
        return set()
    inputs = _names(argument(made[0], "inputs", 0))
    function = enclosing(facts, made[0], cell)
    if not inputs or function is None:
        return set()
    applied = set()
    wanted = ast.unparse(receiver)
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and len(node.args) == 1 and ast.unparse(node.func) == wanted:
            names = _names(node.args[0])
            if names and all(n in inputs for n in names):
                applied.add(tuple(inputs.index(n) for n in names))
    return applied


def _unchanged(loop: ast.AST, names: tuple[str, ...], receiver: ast.expr, first: int, last: int) -> bool:
    """From line *first* (the predict's own, `x = g.predict(x)` included) to line *last* of the
    loop, no name of *names* is bound again and no call updates *receiver*'s weights."""
    wanted = ast.unparse(receiver)
    for node in ast.walk(loop):
        line = getattr(node, "lineno", 0)
        if not first <= line <= last:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in names:
            return False
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in UPDATES
            and ast.unparse(node.func.value) == wanted
        ):
            return False
    return True


class PredictRecomputedInStep(Rule):
    """
    ## What it does
    Flags, in a training loop, `sub.predict(x)` on every pass followed in the same pass by
    `combined.train_on_batch(...)` given the same `x` at an input where `combined` applies
    `sub`: the file builds `combined` once as `Model(inputs, outputs)`, in the class whose
    method runs the loop, and, in the same function, calls `sub` on that input (`fake_A = self.generator(img_B)`, then
    `self.combined = Model([img_A, img_B], [valid, fake_A])`). This is the Keras GAN idiom:
    the generator's output is predicted to train the discriminator, then the combined model
    computes the same output again to train the generator.

    Not reported: an input bound again between the two calls (fresh noise drawn for the
    generator's step), a `sub` trained or given new weights between them, a call under an
    `if` in the loop or in another loop than the step's, a `combined` bound more than once
    in the file, and inputs written as expressions (greenlint does not compare their values).

    ## Why is this bad?
    Between the two calls nothing changes the sub-model's weights or the input, so the
    combined model's forward pass recomputes what `predict` has just computed, on every step:
    one extra forward pass of the sub-model (a generator that is often the larger network, at
    full image resolution). One custom training step (`tf.GradientTape`) that runs the
    sub-model once and uses its output for both losses does the step's work without it.
    Where the sub-model has dropout or batch normalisation, `predict` runs it in inference
    mode and the combined model in training mode, so the two outputs differ slightly; the
    custom step uses the training-mode output for both.

    ## Example
    ```python
    for step in range(steps):
        fake_A = self.generator.predict(imgs_B)
        self.discriminator.train_on_batch([fake_A, imgs_B], fake)
        self.combined.train_on_batch([imgs_A, imgs_B], [valid, imgs_A])
    ```

    ## Use instead
    ```python
    @tf.function
    def train_step(imgs_A, imgs_B):
        with tf.GradientTape(persistent=True) as tape:
            fake_A = generator(imgs_B, training=True)
            d_loss = d_loss_fn(discriminator([imgs_A, imgs_B]), discriminator([fake_A, imgs_B]))
            g_loss = g_loss_fn(discriminator([fake_A, imgs_B]), fake_A, imgs_A)
        ...
    ```

    ## Energy evidence
    The saving is one forward pass of the sub-model per step, against the step's forward and
    backward passes of the combined model and the discriminator's steps. The pair under
    bench/rules/ trains a GAN of the Keras-GAN shape (a generator of upsampling convolutions to
    32×32 images, about 96 M multiply-adds a sample, and a discriminator of two strided
    convolutions) for 8 steps of 16 images: before, `generator.predict`, two
    `discriminator.train_on_batch` and `combined.train_on_batch` on the same noise; after, one
    `tf.function` step that makes the same three updates in the same order and runs the
    generator once. Its saving (see the table) joins two things: the generator's second
    forward pass, and the fixed cost of four Keras calls a step against one (`predict`'s own is
    GL201's). The forward pass alone, between that custom step and one that still runs the
    generator twice (bench/rules/GL210/twice.py against after.py, measured as run.py measures a
    pair: 4 side-by-side rounds of 3 runs, fresh interpreters), saves 23 % of the step's energy
    (15 % to 25 % over the rounds).

    ## Fix safety
    No automatic fix: the rewrite is a custom training step, and the discriminator then
    sees the generator's training-mode output.

    ## Options
    None.
    """

    code = "GL210"
    name = "predict-recomputed-in-step"
    CALLS = frozenset({"train_on_batch"})
    MESSAGE = (
        "`{sub}.predict()` computes `{sub}` on `{given}`, and `{model}.train_on_batch()` at line {line} computes it"
        " again in its forward pass on the same `{given}` with the same weights, on every step{times}: run the"
        " sub-model once per step (one custom training step for both losses)"
    )
    FIX_TITLE = "Compute the sub-model's output once per step"
    EVIDENCE_APIS = ("tensorflow.keras.Model.predict",)
    _GAN = (
        "from tensorflow.keras.layers import Input\nfrom tensorflow.keras.models import Model\n"
        "class GAN:\n    def __init__(self):\n        self.generator = self.build_generator()\n"
        "        self.discriminator = self.build_discriminator()\n"
        "        img_A = Input(shape=(256, 256, 3))\n        img_B = Input(shape=(256, 256, 3))\n"
        "        fake_A = self.generator(img_B)\n        valid = self.discriminator([fake_A, img_B])\n"
        "        self.combined = Model(inputs=[img_A, img_B], outputs=[valid, fake_A])\n"
        "    def train(self, batches):\n        for imgs_A, imgs_B in batches:\n"
    )
    _DCGAN = (
        "from tensorflow.keras.layers import Input\nfrom tensorflow.keras.models import Model\n"
        "class DCGAN:\n    def __init__(self):\n        self.generator = self.build_generator()\n"
        "        z = Input(shape=(100,))\n        img = self.generator(z)\n"
        "        self.combined = Model(z, self.discriminator(img))\n"
        "    def train(self, epochs):\n        for epoch in range(epochs):\n"
    )
    VALID = (
        Valid(  # fresh noise for the generator's step: another forward pass than the predict's
            _DCGAN + "            noise = sample()\n            gen_imgs = self.generator.predict(noise)\n"
            "            self.discriminator.train_on_batch(gen_imgs, fake)\n"
            "            noise = sample()\n            self.combined.train_on_batch(noise, valid)\n"
        ),
        Valid(  # the predict fed the other input, which the generator does not take in the combined model
            _GAN + "            fake = self.generator.predict(imgs_A)\n"
            "            self.combined.train_on_batch([imgs_A, imgs_B], [ones, imgs_A])\n"
        ),
        Valid(  # samples drawn every 200 steps only
            _GAN + "            if step % 200 == 0:\n                fake_A = self.generator.predict(imgs_B)\n"
            "            self.combined.train_on_batch([imgs_A, imgs_B], [ones, imgs_A])\n"
        ),
        Valid(  # the generator trained between the two calls: its second forward pass has other weights
            _GAN + "            fake_A = self.generator.predict(imgs_B)\n"
            "            self.generator.train_on_batch(imgs_B, imgs_A)\n"
            "            self.combined.train_on_batch([imgs_A, imgs_B], [ones, imgs_A])\n"
        ),
        Valid(  # `self.combined` is built by another class, around another `self.generator`
            "from tensorflow.keras.layers import Input\nfrom tensorflow.keras.models import Model\n"
            "class Builder:\n    def __init__(self):\n        z = Input(shape=(100,))\n"
            "        self.combined = Model(z, self.generator(z))\n"
            "class Trainer:\n    def train(self, epochs):\n        for epoch in range(epochs):\n"
            "            noise = sample()\n            gen_imgs = self.generator.predict(noise)\n"
            "            self.combined.train_on_batch(noise, valid)\n"
        ),
        Valid(  # the predict's output replaces its input: the step is given the generated images
            _DCGAN + "            noise = sample()\n            noise = self.generator.predict(noise)\n"
            "            self.combined.train_on_batch(noise, valid)\n"
        ),
    )
    INVALID = (
        Invalid(
            _GAN + "            fake_A = self.generator.predict(imgs_B)\n"
            "            self.discriminator.train_on_batch([fake_A, imgs_B], zeros)\n"
            "            self.combined.train_on_batch([imgs_A, imgs_B], [ones, imgs_A])\n",
            line=14,
            message_contains="`self.combined.train_on_batch()` at line 16 computes it again",
        ),
        Invalid(  # one input, the same noise for both steps
            _DCGAN + "            noise = sample()\n            gen_imgs = self.generator.predict(noise)\n"
            "            self.discriminator.train_on_batch(gen_imgs, fake)\n"
            "            self.combined.train_on_batch(noise, valid)\n",
            line=12,
            message_contains="on the same `noise` with the same weights, on every step",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        steps = [
            s for s in facts.sites if is_keras_model_method(s.api, ("train_on_batch",)) and s.repeats(("receiver",))
        ]
        if not steps:
            return
        for site in facts.sites:
            if is_keras_model_method(site.api, ("predict",)) and site.repeats(("receiver",)):
                found = self._recomputed(facts, site, steps)
                if found is not None:
                    yield self.diagnostic(site.callsite.span, facts.path, found)

    def _recomputed(self, facts: FileFacts, site: Site, steps: list[Site]) -> str | None:
        """The message when a step of *steps* recomputes the predict's forward pass, else None."""
        call, cell = facts.node(site), site.callsite.span.cell
        if call is None or not isinstance(call.func, ast.Attribute) or not every_pass(facts, call, cell):
            return None
        sub, given = call.func.value, _names(argument(call, "x", 0))
        loops = own_loops(facts, call, cell)
        if given is None or not loops:
            return None
        owner = enclosing(facts, call, cell, (ast.ClassDef,))
        for step in steps:
            train = facts.node(step)
            if (
                train is None
                or step.callsite.span.cell != cell
                or train.lineno <= call.lineno
                or not isinstance(train.func, ast.Attribute)
                or own_loops(facts, train, cell)[:1] != loops[:1]
                or not every_pass(facts, train, cell)
            ):
                continue
            fed = _names(argument(train, "x", 0))
            applied = _applied_on_inputs(facts, sub, train.func.value, owner, cell)
            if (
                fed
                and any(
                    len(at) == len(given) and all(k < len(fed) and fed[k] == n for k, n in zip(at, given))
                    for at in applied
                )
                and _unchanged(loops[0], given, sub, call.lineno, train.lineno)
            ):
                return self.MESSAGE.format(
                    sub=ast.unparse(sub),
                    given=ast.unparse(argument(call, "x", 0) or call),
                    model=ast.unparse(train.func.value),
                    line=train.lineno,
                    times=site.loop_times(),
                )
        return None
