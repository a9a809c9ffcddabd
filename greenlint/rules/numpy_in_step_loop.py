"""GL203 numpy-in-step-loop: `.numpy()` on every training step."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import in_unguarded_step_loop

NUMPY = "tensorflow.Tensor.numpy"


class NumpyInStepLoop(Rule):
    """
    ## What it does
    Flags `Tensor.numpy()` called directly in the body of a loop that runs a training step
    (`apply_gradients`, `minimize` or `train_on_batch` in the same loop), with no `if` around
    it inside that loop. The step must repeat on the same optimizer or model: a loop over
    settings (dtypes, one new optimizer each) is no training loop; nor is a loop of one trip
    (`ds.take(1)`).

    ## Why is this bad?
    `.numpy()` copies the tensor to host memory and makes Python wait until every operation
    producing it has finished. On a GPU that stops the host from queueing the next step while
    the device works, so device and host take turns idling. Logging a loss every N steps, or
    accumulating it in a `tf.keras.metrics.Mean`, avoids the sync on every step.

    ## Example
    ```python
    for x, y in dataset:
        loss = train_step(x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        history.append(loss.numpy())
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    mean_loss = tf.keras.metrics.Mean()
    for x, y in dataset:
        loss = train_step(x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        mean_loss.update_state(loss)
    history.append(mean_loss.result().numpy())
    ```

    ## Energy evidence
    The cost is the lost overlap of host and accelerator. On a CPU-only machine there is no
    device to overlap with: the pair under bench/rules/ is expected to show no measurable saving
    here, and says so.

    ## Fix safety
    No automatic fix: the values are usually wanted, just not every step.

    ## Options
    None.
    """

    code = "GL203"
    name = "numpy-in-step-loop"
    MESSAGE = "`.numpy()` on every training step makes the host wait for the device each step"
    FIX_TITLE = "Accumulate in a metric and read it every N steps"
    VALID = (
        Valid(
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor step, x in enumerate(ds):\n"
            "    opt.apply_gradients(zip(g, v))\n    if step % 100 == 0:\n        print(tf.reduce_sum(x).numpy())\n"
        ),
        Valid("import tensorflow as tf\nfor x in ds:\n    print(tf.reduce_sum(x).numpy())\n"),
        Valid(  # one step: `take(1)` is no loop
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds.take(1):\n"
            "    opt.apply_gradients(zip(g, v))\n    losses.append(tf.reduce_sum(x).numpy())\n"
        ),
        Valid(  # a loop over dtypes, one new optimizer and one step each: no training loop
            "import tensorflow as tf\nfor dtype in [tf.float32, tf.float64]:\n"
            "    var = tf.Variable([1.0, 2.0], dtype=dtype)\n    opt = tf.keras.optimizers.SGD(0.1)\n"
            "    opt.apply_gradients([(tf.constant([0.1, 0.1], dtype=dtype), var)])\n"
            "    check(var[0].numpy())\n"
        ),
    )
    INVALID = (
        Invalid(
            "import tensorflow as tf\nopt = tf.keras.optimizers.Adam()\nfor x in ds:\n"
            "    opt.apply_gradients(zip(g, v))\n    losses.append(tf.reduce_sum(x).numpy())\n",
            line=5,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if site.api == NUMPY and site.repeats(same=()) and in_unguarded_step_loop(facts, site):
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE)
