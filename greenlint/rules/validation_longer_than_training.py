"""GL316 validation-longer-than-training: `fit()` whose validation runs as many steps per epoch as its training, or more."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.predict.work_energy import TRAINING_FLOPS
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, keyword
from greenlint.rules.defaults import argument_value
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import Site, is_keras_model_method

#: A fit whose counts a configuration class of the file holds: 100 training steps, `{validation}` validation steps.
CONFIGURED = (
    "import tensorflow as tf\n\n\nclass Config:\n    STEPS_PER_EPOCH = 100\n    VALIDATION_STEPS = {validation}\n\n\n"
    "cfg = Config()\nm = tf.keras.Sequential()\n"
    "m.fit(ds, epochs=30, steps_per_epoch=cfg.STEPS_PER_EPOCH, validation_data=val, validation_steps=cfg.VALIDATION_STEPS)\n"
)

class ValidationLongerThanTraining(Rule):
    """
    ## What it does
    Flags `fit()` (or `fit_generator()`) on a Keras model given `validation_data`,
    `steps_per_epoch` and `validation_steps`, when the validation steps are at least as many
    as the training steps: each epoch runs as many batches checking the model as training it,
    or more. The counts are literals or the defaults the program runs with (a parameter's, an
    argparse option's or an absl flag's default written in the file, or what every call of the
    function in the file passes a parameter without one), a module constant, a configuration of
    the file (a class attribute or dict entry no statement sets again: `cfg.VALIDATION_STEPS`),
    or the literal the analysis resolved for the argument. A `validation_freq` of
    `n` validates every `n`-th epoch: the validation steps are divided by it before the
    comparison (a list of epochs, or a frequency greenlint cannot read, is not reported).
    Not reported either: `validation_steps` without `validation_data` (Keras ignores it).
    A fit a project wrapper makes for a call of the file (`model.train(train, val, epochs=30)`
    whose method of another module calls `self.keras_model.fit_generator(...)`) is judged on the
    counts the analysis found walking the wrapper with this call's arguments and the instance's
    construction (analysis/wrapped.py: a configuration's `STEPS_PER_EPOCH` and
    `VALIDATION_STEPS`), and reported at that call.

    ## Why is this bad?
    Keras runs `validation_steps` batches of the validation data at the end of every epoch
    (the `Model.fit` documentation). A validation step is a forward pass, about a third of a
    training step (whose backward pass costs about twice the forward one): as many validation
    steps as training steps are about a quarter of each epoch's work, four times as many are
    more than half of it. Validation only measures the model, and its estimate rarely needs as
    many batches as the training does (a held-out set is usually a tenth or a fifth of the
    training set); an endless validation generator (the usual shape of a Python generator
    given to `fit()`) goes over a smaller set several times per epoch to fill the count. Fewer
    `validation_steps` (the validation set once: its size over its batch), or validating every
    few epochs with `validation_freq`, gives the same signal for less.

    ## Example
    ```python
    model.fit(train, epochs=50, steps_per_epoch=100, validation_data=val, validation_steps=500)
    ```

    ## Use instead
    ```python
    model.fit(train, epochs=50, steps_per_epoch=100, validation_data=val, validation_steps=50)
    ```

    ## Energy evidence
    The pair under bench/rules/ fits a perceptron (64 → 256 → 256 → 10, batches of 32) for 2
    epochs of 100 training steps: before, 500 validation steps per epoch, as in the example;
    after, 50. The saving is the share of each epoch the removed validation steps take (a
    forward pass per batch, without the backward one).

    ## Fix safety
    No automatic fix: how many validation batches the model's selection needs is a choice
    about the problem.

    ## Options
    None.
    """

    code = "GL316"
    name = "validation-longer-than-training"
    CALLS = frozenset({"fit", "fit_generator"})
    MESSAGE = (
        "`{method}()` validates {validation} steps{every}{validation_basis}, {relation} its {training}"
        " training steps{training_basis}: with {step}, about {share} % of each"
        " epoch's work checks the model instead of training it"
    )
    FIX_TITLE = "Use fewer `validation_steps` (or `validation_freq`)"
    VALID = (
        Valid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(ds, epochs=5, steps_per_epoch=100, "
            "validation_data=val, validation_steps=50)\n"
        ),
        Valid(  # no training step count: the epoch's length is the data's
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(ds, epochs=5, validation_data=val, validation_steps=50)\n"
        ),
        Valid(  # counts greenlint cannot read
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, steps_per_epoch=n // batch, validation_data=val, validation_steps=v // batch)\n"
        ),
        Valid(  # fewer validation steps than training steps
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, steps_per_epoch=512, validation_data=val, validation_steps=511)\n"
        ),
        Valid(  # validated every fourth epoch: 100 steps per epoch on average, against 200
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=40, steps_per_epoch=200, validation_data=val, validation_steps=400, validation_freq=4)\n"
        ),
        Valid(  # validated on the epochs listed only
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=40, steps_per_epoch=200, validation_data=val, validation_steps=400,"
            " validation_freq=[10, 20, 40])\n"
        ),
        Valid(  # no validation data: Keras ignores validation_steps
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, steps_per_epoch=100, validation_steps=500)\n"
        ),
        Valid(CONFIGURED.format(validation=20)),  # the configuration's 20 validation steps against 100
        Valid(  # validation_data=None written out
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, steps_per_epoch=100, validation_data=None, validation_steps=500)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=50, steps_per_epoch=100, validation_data=val, validation_steps=500)\n",
            line=3,
            message_contains="validates 500 steps per epoch, more than its 100 training steps: with a forward pass a"
            " third of a training step, about 62 % of each epoch's work",
        ),
        Invalid(  # as many validation steps as training steps, both the defaults of the function's parameters
            "import tensorflow as tf\n"
            "def train(model, train_gen, val_gen, epochs=5, steps_per_epoch=512, val_steps_per_epoch=512):\n"
            "    model.fit(train_gen, steps_per_epoch=steps_per_epoch, validation_data=val_gen,\n"
            "              validation_steps=val_steps_per_epoch, epochs=epochs)\n"
            "m = tf.keras.Sequential()\ntrain(m, gen(), gen())\n",
            line=3,
            message_contains="validates 512 steps per epoch (`val_steps_per_epoch`: the default of parameter"
            " `val_steps_per_epoch`), as many as its 512 training steps (`steps_per_epoch`: the default of parameter"
            " `steps_per_epoch`): with a forward pass a third of a training step, about 25 %",
        ),
        Invalid(  # validated every second epoch: still 400 steps per epoch on average, against 200
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=40, steps_per_epoch=200, validation_data=val, validation_steps=800, validation_freq=2)\n",
            line=3,
            message_contains="validates 800 steps every 2 epochs (400 per epoch), more than its 200",
        ),
        Invalid(  # an absl flag's default
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer('eval_steps', 1000, 'steps')\n"
            "FLAGS = flags.FLAGS\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, steps_per_epoch=200, validation_data=val, validation_steps=FLAGS.eval_steps)\n",
            line=6,
            message_contains="(`FLAGS.eval_steps`: the default of `--eval_steps`)",
        ),
        Invalid(  # the counts a configuration class of the file holds
            CONFIGURED.format(validation=500),
            line=11,
            message_contains="validates 500 steps per epoch (`cfg.VALIDATION_STEPS` = 500), more than its 100 training"
            " steps (`cfg.STEPS_PER_EPOCH` = 100)",
        ),
        Invalid(  # its convolutions frozen: a training step is about one forward pass, not three
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((28, 28, 1)),"
            " tf.keras.layers.Conv2D(32, 3, trainable=False), tf.keras.layers.Conv2D(64, 3, trainable=False),"
            " tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])\nm.compile(optimizer='adam', loss='mse')\n"
            "m.fit(ds, epochs=5, steps_per_epoch=100, validation_data=val, validation_steps=100)\n",
            line=4,
            message_contains="with a training step of 1.1 forward passes (no backward pass through its frozen layers),"
            " about 48 % of each epoch's work",
        ),
        Invalid(  # module constants
            "import tensorflow as tf\nSTEPS, VAL_STEPS = 100, 100\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, steps_per_epoch=STEPS, validation_data=val, validation_steps=VAL_STEPS)\n",
            line=4,
            message_contains="validates 100 steps per epoch (`VAL_STEPS` = 100), as many as its 100 training steps",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):
                continue
            if site.features.get("receiver") == "wrapper":
                training, validation, every = _wrapped_counts(site)
            else:
                data = keyword(facts.node(site), "validation_data")
                if data is None or isinstance(data.value, ast.Constant) and data.value.value is None:
                    continue
                training, validation = _count(facts, site, "steps_per_epoch"), _count(facts, site, "validation_steps")
                every = _frequency(facts, site)
            if training is None or validation is None or every is None or validation[0] < training[0] * every:
                continue
            per_epoch = validation[0] / every
            passes = site.training_passes()  # a training step's forward passes: 3, fewer where layers are frozen
            message = self.MESSAGE.format(
                method=site.api.rsplit(".", 1)[-1],
                validation=validation[0],
                validation_basis=validation[1],
                every=f" every {every} epochs ({per_epoch:g} per epoch)" if every > 1 else " per epoch",
                relation="as many as" if per_epoch == training[0] else "more than",
                training=training[0],
                training_basis=training[1],
                step="a forward pass a third of a training step" if passes == TRAINING_FLOPS else
                f"a training step of {passes:.2g} forward passes (no backward pass through its frozen layers)",
                share=round(100 * per_epoch / (per_epoch + passes * training[0])),
            )
            yield self.diagnostic(site.callsite.span, facts.path, message)


def _wrapped_counts(site: Site) -> tuple[tuple[int, str] | None, tuple[int, str] | None, int | None]:
    """The training and validation steps per epoch (each with where it comes from) and the
    validation frequency of a fit a project wrapper makes for this call, as the analysis found them
    walking the wrapper with this call's arguments (analysis/wrapped.py); (None, None, None) where
    it found no validation data."""
    if "validation_samples" not in site.callsite.work:
        return None, None, None
    where = f" (passed through this call to {site.features.get('via', site.api)})"
    found = [site.features.get(name) for name in ("steps_per_epoch", "validation_steps", "validation_freq")]
    training, validation, every = (n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None for n in found)
    return (
        (training, where) if training is not None else None,
        (validation, where) if validation is not None else None,
        1 if found[2] is None else every,
    )


def _frequency(facts: FileFacts, site: Site) -> int | None:
    """Every how many epochs the fit validates: 1 without `validation_freq`, its count where it
    is one greenlint reads, None otherwise (a list of epochs, a value of the program's)."""
    if keyword(facts.node(site), "validation_freq") is None:
        return 1
    found = _count(facts, site, "validation_freq")
    return found[0] if found is not None else None


def _count(facts: FileFacts, site: Site, name: str) -> tuple[int, str] | None:
    """The count given as *name* (`defaults.argument_value`: as written, with the program's defaults,
    a module constant, a configuration of the file, or as the analysis resolved it), and where that
    comes from, as the message goes on (" (`cfg.VALIDATION_STEPS` = 500)"; "" as written)."""
    value, where = argument_value(facts, site, name)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        return None
    return value, where
