"""GL316 validation-longer-than-training: `fit()` whose validation runs more steps per epoch than its training."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Site, Valid, is_keras_model_method, keyword
from greenlint.rules.defaults import default_value
from greenlint.rules.diagnostic import Diagnostic


class ValidationLongerThanTraining(Rule):
    """
    ## What it does
    Flags `fit()` (or `fit_generator()`) on a Keras model given both `steps_per_epoch` and
    `validation_steps`, when the validation steps outnumber the training steps: each epoch
    spends more batches checking the model than training it. The counts are literals or the
    defaults the program runs with (a parameter's, an argparse option's or an absl flag's
    default written in the file).

    ## Why is this bad?
    Keras runs `validation_steps` batches of the validation data at the end of every epoch
    (the `Model.fit` documentation). Validation only measures the model: when it runs longer
    than the training itself, most of each epoch's energy goes to a measurement whose
    precision rarely needs that many batches. A validation set sampled with fewer steps (or
    validated every few epochs with `validation_freq`) gives the same signal for less.

    ## Example
    ```python
    model.fit(train, epochs=50, steps_per_epoch=100, validation_data=val, validation_steps=500)
    ```

    ## Use instead
    ```python
    model.fit(train, epochs=50, steps_per_epoch=100, validation_data=val, validation_steps=50)
    ```

    ## Energy evidence
    Not measured: the saving is, by construction, the share of each epoch spent on the
    validation steps removed (a forward pass per batch, without the backward one);
    bench/rules/not_measurable.json says so.

    ## Fix safety
    No automatic fix: how many validation batches the model's selection needs is a choice
    about the problem.

    ## Options
    None.
    """

    code = "GL316"
    name = "validation-longer-than-training"
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    MESSAGE = (
        "`{method}()` validates {validation} steps per epoch{validation_basis}, more than its {training} training"
        " steps{training_basis}: most of each epoch checks the model instead of training it"
    )
    FIX_TITLE = "Use fewer `validation_steps` (or `validation_freq`)"
    VALID = (
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(ds, epochs=5, steps_per_epoch=100, "
              "validation_data=val, validation_steps=50)\n"),
        Valid(  # no training step count: the epoch's length is the data's
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(ds, epochs=5, validation_data=val, validation_steps=50)\n"
        ),
        Valid(  # counts greenlint cannot read
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, steps_per_epoch=n // batch, validation_data=val, validation_steps=v // batch)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=50, steps_per_epoch=100, validation_data=val, validation_steps=500)\n",
            line=3,
            message_contains="validates 500 steps per epoch, more than its 100 training steps",
        ),
        Invalid(  # an absl flag's default
            "import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_integer('eval_steps', 1000, 'steps')\n"
            "FLAGS = flags.FLAGS\nm = tf.keras.Sequential()\n"
            "m.fit(ds, epochs=5, steps_per_epoch=200, validation_data=val, validation_steps=FLAGS.eval_steps)\n",
            line=6,
            message_contains="(the default of `--eval_steps`)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):
                continue
            training, validation = _count(facts, site, "steps_per_epoch"), _count(facts, site, "validation_steps")
            if training is None or validation is None or validation[0] <= training[0]:
                continue
            message = self.MESSAGE.format(
                method=site.api.rsplit(".", 1)[-1],
                validation=validation[0],
                validation_basis=f" ({validation[1]})" if validation[1] else "",
                training=training[0],
                training_basis=f" ({training[1]})" if training[1] else "",
            )
            yield self.diagnostic(site.callsite.span, facts.path, message)


def _count(facts: FileFacts, site: Site, name: str) -> tuple[int, str] | None:
    """The literal count given as *name*, or the default it runs with, and where that comes from."""
    call = facts.node(site)
    given = keyword(call, name)
    found = default_value(facts, given.value, site.callsite.span.cell) if given is not None else None
    if found is None or not isinstance(found[0], int) or isinstance(found[0], bool) or found[0] <= 0:
        return None
    return found[0], found[1]
