"""GL310 checkpoint-every-few-batches: `ModelCheckpoint(save_freq=<int>)` whose saves take a real
share of the steps between them, or, where that is not priced, a small literal `save_freq`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Option, Rule, Valid, keyword
from greenlint.rules.callbacks import constructors, listed
from greenlint.rules.defaults import argument_value
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.material import MIN_SHARE
from greenlint.rules.save_price import FEW_SAVES, FEW_STEPS, SaveShare, save_share
from greenlint.rules.site import Site, is_keras_model_method, method

API = "tensorflow.keras.callbacks.ModelCheckpoint"
#: Wide dense layers (75M weights) fitted on batches of 8, with a checkpoint every `{freq}` batches.
WIDE = (
    "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((784,)),"
    " tf.keras.layers.Dense(8192, activation='relu'), tf.keras.layers.Dense(8192), tf.keras.layers.Dense(10)])\n"
    "m.compile(optimizer='adam', loss='mse')\nx, y = np.zeros((60000, 784)), np.zeros((60000, 10))\n"
    "cb = tf.keras.callbacks.ModelCheckpoint('w.weights.h5', save_weights_only=True, save_freq={freq})\n"
    "m.fit(x, y, batch_size={batch}, epochs=3, callbacks=[cb])\n"
)


class CheckpointEveryFewBatches(Rule):
    """
    ## What it does
    Flags `tf.keras.callbacks.ModelCheckpoint` with an integer `save_freq` (a checkpoint every
    that many batches) where its saves take a real share of the training: priced as GL311 prices
    a periodic save (greenlint/rules/save_price.py), on the `fit()` (or `fit_generator()`) of the
    file whose `callbacks=` list holds it (read as GL308 reads them): each save writes at least
    the fitted model's weights (`params` x 4 bytes) at the page cache's bandwidth plus 5 ms to lay
    out the file, against `save_freq` of the fit's steps on its `batch_size`, timed at the slow
    end of greenlint's device model on the GPU stated with `--device`, else a T4. Reported when
    that least share reaches 10 %, whatever `save_freq` is, and the message states it; not
    reported when it is under 10 % (a large convolutional network on large batches computes far
    longer than it writes), nor when the fit is known to save fewer than 10 checkpoints. Where
    no such fit is found or its model, batch or FLOPs are not known, nothing is priced, and the
    callback is reported when its `save_freq` is an integer below `min-save-freq` (default 10).
    `save_freq` is read as written or with the program's defaults (a module constant, a
    parameter's default, an argparse option's or absl flag's default), or as the analysis
    resolves it (a configuration class's attribute, a dict's entry: `save_freq=cfg.SAVE_FREQ`). Test code (a `test*` function, a test class, a pytest fixture) is not
    reported: a test of checkpointing saves every batch of its few batches on purpose.

    ## Why is this bad?
    An integer `save_freq` counts batches. Every save serialises the model (or its weights) and
    writes it to disk; with `save_freq=1` that happens after every step, and the writes can
    take longer than the steps. Every few dozen batches is not much better where the model's
    bytes are large beside a step's work (wide dense layers or embeddings on small batches). `save_freq="epoch"` (the default) saves once per epoch.

    ## Example
    ```python
    import tensorflow as tf

    checkpoint = tf.keras.callbacks.ModelCheckpoint("ckpt.weights.h5", save_weights_only=True, save_freq=1)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    checkpoint = tf.keras.callbacks.ModelCheckpoint("ckpt.weights.h5", save_weights_only=True, save_freq="epoch")
    ```

    ## Energy evidence
    The pair under bench/rules/ trains a small model with `save_freq=1` and with `"epoch"`.

    ## Fix safety
    Unsafe: `save_freq="epoch"` writes fewer checkpoints, so a crash loses more work. Not
    offered for a callback created under a condition (`if args.checkpoint_often:`): a fix never
    changes a literal written under one; nor where `save_freq` is not written as a literal
    (`args.save_every`, a constant): the setting is changed where the program makes it.

    ## Options
    - `min-save-freq`
    """

    code = "GL310"
    name = "checkpoint-every-few-batches"
    CALLS = frozenset({method(API)})
    MESSAGE = "`ModelCheckpoint(save_freq={freq})`{source} writes a checkpoint every {freq} batch(es)"
    PRICED = (
        "`ModelCheckpoint(save_freq={freq})`{source} writes a checkpoint every {freq} batch(es) of `{fit}()`: {price};"
        " save less often (once per epoch)"
    )
    FIX_TITLE = 'Save once per epoch (`save_freq="epoch"`) or every few hundred batches'
    FIX = FixBy("SetArgument", {"name": "save_freq", "value": '"epoch"', "literal_only": True}, safe=False)
    OPTIONS = (
        Option("min-save-freq", int, FEW_STEPS, "GL310 flags an unpriced literal integer save_freq below this."),
    )
    VALID = (
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq='epoch')\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=500)\n"),
        Valid("import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras')\n"),
        Valid(WIDE.format(freq=100, batch=8)),  # priced: the saves take under 10 % of 100 steps
        Valid(  # priced: ResNet50 on batches of 128 computes far longer than it writes, even every batch
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.applications.ResNet50(weights=None)\n"
            "m.compile(optimizer='sgd', loss='sparse_categorical_crossentropy')\n"
            "x, y = np.zeros((10000, 224, 224, 3)), np.zeros((10000,))\n"
            "cb = tf.keras.callbacks.ModelCheckpoint('w.weights.h5', save_weights_only=True, save_freq=2)\n"
            "m.fit(x, y, batch_size=128, epochs=3, callbacks=[cb])\n"
        ),
        Valid(  # priced, but the fit makes 40 steps: 2 checkpoints
            WIDE.format(freq=20, batch=8).replace(
                "np.zeros((60000, 784)), np.zeros((60000, 10))", "np.zeros((320, 784)), np.zeros((320, 10))"
            )
        ),
        Valid(  # the fit's batch read from the command line without a default: not priced, the literal is not small
            WIDE.format(freq=20, batch="args.batch")
        ),
        Valid(  # a parameter's default of 500 batches
            "import tensorflow as tf\n\n\ndef callbacks(path, save_freq=500):\n"
            "    return [tf.keras.callbacks.ModelCheckpoint(path, save_freq=save_freq)]\n"
        ),
        Valid(  # a configuration read from a file: its value is not known
            "import json\nimport tensorflow as tf\nconfig = json.load(open('config.json'))\n"
            "cb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=config['save_freq'])\n"
        ),
        Valid(
            "import tensorflow as tf\n\n\ndef test_saves_every_batch(tmp_path):\n"
            "    cb = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / 'c.keras'), save_freq=1)\n"
        ),
    )
    INVALID = (
        Invalid(  # the default of a parameter of the function that makes the callbacks, unpriced
            "import tensorflow as tf\n\n\ndef callbacks(path, save_freq=2):\n"
            "    return [tf.keras.callbacks.ModelCheckpoint(path, save_freq=save_freq)]\n",
            line=5,
            message_contains="(`save_freq`: the default of parameter `save_freq`) writes a checkpoint every 2 batch(es)",
        ),
        Invalid(  # a configuration class's attribute, which the analysis resolves
            "import tensorflow as tf\n\n\nclass Config:\n    SAVE_FREQ = 5\n\n\n"
            "cb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=Config.SAVE_FREQ)\n",
            line=8,
            message_contains="(`Config.SAVE_FREQ` = 5) writes a checkpoint every 5 batch(es)",
        ),
        Invalid(  # priced: 295 MB of weights every 20 steps of batch 8
            WIDE.format(freq=20, batch=8),
            line=6,
            message_contains="every 20 batch(es) of `fit()`: each save takes at least",
        ),
        Invalid(  # the callback in a list the file builds, every 30 steps of batch 1
            WIDE.format(freq=30, batch=1)
            .replace("callbacks=[cb]", "callbacks=callbacks")
            .replace("m.fit(", "callbacks = [tf.keras.callbacks.TerminateOnNaN()]\ncallbacks.append(cb)\nm.fit("),
            line=6,
            message_contains="every 30 batch(es) of `fit()`",
        ),
        Invalid(
            "import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=1)\n",
            line=2,
            expected_replacement=(
                "import tensorflow as tf\ncb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=\"epoch\")\n"
            ),
        ),
        Invalid(  # a flag's default: reported, the call left as written (the default is the setting)
            "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--every', type=int, default=2)\nargs = parser.parse_args()\n"
            "cb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=args.every)\n",
            line=6,
            expected_replacement=(
                "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
                "parser.add_argument('--every', type=int, default=2)\nargs = parser.parse_args()\n"
                "cb = tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=args.every)\n"
            ),
        ),
        Invalid(  # written under a condition: reported, the literal is left as written
            "import tensorflow as tf\ncallbacks = []\nif args.often:\n"
            "    callbacks.append(tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=2))\n",
            line=4,
            expected_replacement=(
                "import tensorflow as tf\ncallbacks = []\nif args.often:\n"
                "    callbacks.append(tf.keras.callbacks.ModelCheckpoint('c.keras', save_freq=2))\n"
            ),
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        minimum = int(options.get("min-save-freq", FEW_STEPS))
        for site in facts.sites:
            if site.api != API:
                continue
            freq, source = argument_value(facts, site, "save_freq")
            if (
                not isinstance(freq, int)
                or isinstance(freq, bool)
                or freq <= 0
                or in_test_code(facts, site)
            ):
                continue
            made = facts.node(site)
            fits = _fits_given(facts, made) if made is not None else []
            priced = [(fit, share) for fit in fits if (share := _price(fit, freq, facts.device)) is not None]
            if priced:
                fit, share = max(priced, key=lambda p: p[1].share)
                if share.share >= MIN_SHARE:
                    message = self.PRICED.format(freq=freq, source=source, fit=method(fit.api), price=share.clause())
                    yield self.diagnostic(site.callsite.span, facts.path, message)
            elif freq < minimum:
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(freq=freq, source=source))


def _fits_given(facts: FileFacts, made: ast.AST) -> list[Site]:
    """The `fit()`/`fit_generator()` calls of the file whose `callbacks=` list holds the callback
    constructed at *made*."""
    found = []
    for site in facts.sites:
        call = facts.node(site) if is_keras_model_method(site.api, ("fit", "fit_generator")) else None
        given = keyword(call, "callbacks") if call is not None else None
        elements = listed(facts, given.value) if given is not None else None
        if any(c is made for e in elements or () for c in constructors(facts, e) or ()):
            found.append(site)
    return found


def _price(fit: Site, freq: int, told: str | None) -> SaveShare | None:
    """The least share of a save of the fitted model every *freq* steps of *fit* (save_price),
    None where it is not priced or the fit is known to save fewer than `FEW_SAVES` times."""
    steps = fit.work_value("steps")
    if isinstance(steps, int) and not isinstance(steps, bool) and steps // freq < FEW_SAVES:
        return None
    return save_share(fit.work_value("params"), [fit], freq, told, per_batch=True)
