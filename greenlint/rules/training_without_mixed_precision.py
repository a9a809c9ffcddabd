"""GL602 training-without-mixed-precision: a Keras training in float32 where a mixed-precision policy exists."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.predict.work_energy import HALF_PEAK_FLOPS, TRAINING_FLOPS
from greenlint.rules.base import FileFacts, Invalid, Rule, Site, Valid, is_keras_model_method
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.devices import hides_gpus
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.keras_flavour import keras_flavour
from greenlint.rules.syntax import text_mentions
from greenlint.rules.tf_target import target

#: Words whose presence says the program chooses its floating-point precision itself: a policy
#: name, the `mixed_precision` module or a project helper named after it
#: (`performance.set_mixed_precision_policy(dtype)`, the TF 1.14+ graph rewrite
#: `enable_mixed_precision_graph_rewrite`), or Keras' global float type.
CHOSEN = ("mixed_float16", "mixed_bfloat16", "mixed_precision", "set_floatx")


class TrainingWithoutMixedPrecision(Rule):
    """
    ## What it does
    Flags a Keras training (`fit()`, or Keras 2's `fit_generator()`) in a file that never
    chooses its floating-point precision: it mentions no mixed-precision policy
    (`mixed_float16`, `mixed_bfloat16`), no `mixed_precision` API or helper (a project's
    `set_mixed_precision_policy(dtype)`, TensorFlow 1's `enable_mixed_precision_graph_rewrite`)
    and no `set_floatx`. One finding per file, on its first training not excepted here, where
    the advice cannot be followed or changes what the code is for:

    - the program runs on **multi-backend Keras 2.0-2.3** (the standalone `keras` package of
      2017-2019, recognised from its imports and from `fit_generator`-style calls or a
      TensorFlow 1.x pin: see greenlint/rules/keras_flavour.py): it has no dtype policy, and
      TensorFlow's graph rewrite does not accept its optimizers. tf.keras (TensorFlow 2.1 and
      later: `tf.keras.mixed_precision`, experimental until 2.4), standalone Keras 2.4 and
      later (tf.keras under another name) and Keras 3 (`keras.mixed_precision`) have it;
    - the project pins a TensorFlow older than 1.14, which has neither the policy nor the rewrite;
    - the file hides every GPU (`os.environ["CUDA_VISIBLE_DEVICES"] = ""` or `"-1"`, or
      `tf.config.set_visible_devices([], "GPU")`, at top level): it trains on the host, where
      float16 is emulated and slower;
    - the fit is test code (a `test*` function or a test class's method, or any fit in a
      `test_*.py` / `*_test.py` file): a test of a layer or an optimizer checks float32 numbers,
      and its policy is what it tests;
    - the fit forwards `**kwargs` (a library's wrapper around its caller's model: the policy
      must be set before that model is built, by the caller);
    - the model's training step is known to be too small to fill a GPU: its forward and backward
      FLOPs (3 x the model's FLOPs per sample, read from its layers, x the batch) stay below
      10^9, the work at which one GPU kernel reaches half its peak (greenlint's cost model,
      greenlint/predict/work_energy.py). Such a step's time is kernel launches and Python, not
      arithmetic: faster arithmetic saves nothing (a one-neuron regression, an MNIST MLP).

    ## Why is this bad?
    On GPUs with tensor cores (compute capability 7.0 and later) and on TPUs, computing in 16-bit
    floats while keeping variables in 32 bits runs matrix multiplications and convolutions much
    faster and halves activation memory; the TensorFlow mixed-precision guide
    (tensorflow.org/guide/mixed_precision) reports speed-ups of up to three times on modern GPUs
    and 60 % on TPUs. Time at a device's steady power is energy: a training that takes half the
    time draws about half the energy. On CPUs and older GPUs it does not help; the finding is
    for code that trains on such accelerators, and says so.

    ## Example
    ```python
    import tensorflow as tf

    model = tf.keras.applications.ResNet50(weights=None)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train_ds, epochs=10)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    model = tf.keras.applications.ResNet50(weights=None)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train_ds, epochs=10)
    ```

    ## Energy evidence
    Not measurable on this machine: it has no GPU with tensor cores, and on its CPU mixed
    precision is expected to be slower, not faster. The physical case is TensorFlow's own: the
    mixed-precision guide's measured speed-ups on V100/A100 GPUs and TPUs, at the same steady power.

    ## Fix safety
    No automatic fix: the model's output layer should stay in float32 and the loss may need
    scaling.

    ## Options
    None.
    """

    code = "GL602"
    name = "training-without-mixed-precision"
    MESSAGE = "training without a mixed-precision policy (useful on GPUs with tensor cores and TPUs)"
    FIX_TITLE = 'Call `tf.keras.mixed_precision.set_global_policy("mixed_float16")` before building the model'
    VALID = (
        Valid(
            "import tensorflow as tf\ntf.keras.mixed_precision.set_global_policy('mixed_float16')\n"
            "m = tf.keras.Sequential()\nm.fit(x, y)\n"
        ),
        Valid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.evaluate(x, y)\n"),
        Valid(  # the project's helper sets the policy from a flag (tf-models' performance module)
            "import tensorflow as tf\nfrom official.modeling import performance\n"
            "performance.set_mixed_precision_policy(params.dtype)\nm = tf.keras.Sequential()\nm.fit(x, y)\n"
        ),
        Valid(  # multi-backend Keras 2: no dtype policy (and fit_generator says Keras 2.3 or older)
            "from keras.models import Sequential\nm = Sequential()\n"
            "m.fit_generator(gen, steps_per_epoch=300, epochs=5)\n"
        ),
        Valid(  # every GPU hidden: float16 on the host is slower
            "import os\nimport tensorflow as tf\nos.environ['CUDA_VISIBLE_DEVICES'] = ''\n"
            "m = tf.keras.Sequential()\nm.fit(x, y, epochs=10)\n"
        ),
        Valid(  # every GPU hidden through tf.config
            "import tensorflow as tf\ntf.config.set_visible_devices([], 'GPU')\n"
            "m = tf.keras.Sequential()\nm.fit(x, y, epochs=10)\n"
        ),
        Valid(  # a test checks float32 numbers
            "import tensorflow as tf\ndef test_optimizer_moves_weights():\n"
            "    m = tf.keras.Sequential()\n    m.fit(x, y, epochs=2)\n"
        ),
        Valid(  # any fit in a test file
            "import tensorflow as tf\ndef check(layer):\n    m = tf.keras.Sequential([layer])\n    m.fit(x, y)\n",
            filename="layers_test.py",
        ),
        Valid(  # a library's wrapper: its caller builds the model, under the caller's policy
            "import tensorflow as tf\ndef refit(model: tf.keras.Model, *args, **kwargs):\n"
            "    model.fit(*args, **kwargs)\n"
        ),
        Valid(  # a one-neuron regression: the step is launches, not arithmetic
            "import tensorflow as tf\nimport numpy as np\nc = np.array([-40, -10, 0, 8, 15, 22, 38], dtype=float)\n"
            "f = np.array([-40, 14, 32, 46, 59, 72, 100], dtype=float)\n"
            "m = tf.keras.Sequential([tf.keras.layers.Dense(units=1, input_shape=[1])])\n"
            "m.compile(loss='mean_squared_error', optimizer='adam')\nm.fit(c, f, epochs=500, verbose=False)\n"
        ),
    )
    INVALID = (
        Invalid("import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y)\nm.fit(x, y)\n", line=3),
        Invalid(  # a convnet on 224x224 images: about 4 x 10^9 FLOPs per image
            "import tensorflow as tf\nm = tf.keras.Sequential([tf.keras.Input((224, 224, 3)),"
            " tf.keras.layers.Conv2D(64, 3), tf.keras.layers.Conv2D(64, 3), tf.keras.layers.GlobalAveragePooling2D(),"
            " tf.keras.layers.Dense(10)])\nm.fit(x, y, batch_size=32, epochs=10)\n",
            line=3,
        ),
        Invalid(  # tf.keras's generator training is a training too
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit_generator(gen, steps_per_epoch=100, epochs=5)\n",
            line=3,
        ),
        Invalid(  # standalone Keras with fit(): Keras 2.4+ or Keras 3, which have the policy
            "import keras\nm = keras.Sequential()\nm.fit(x, y, epochs=10)\n",
            line=3,
        ),
        Invalid(  # a backend shim that may import tf.keras: not multi-backend only
            "import os\nif os.environ.get('TF_KERAS'):\n    import tensorflow.keras as keras\nelse:\n    import keras\n"
            "m = keras.models.Sequential()\nm.fit_generator(gen, steps_per_epoch=100, epochs=5)\n",
            line=7,
        ),
        Invalid(  # one GPU chosen, not hidden
            "import os\nimport tensorflow as tf\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
            "m = tf.keras.Sequential()\nm.fit(x, y, epochs=10)\n",
            line=5,
        ),
        Invalid(  # the first fit large enough to gain
            "import tensorflow as tf\nsmall = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=[1])])\n"
            "small.fit(x, y, epochs=500)\nbig = tf.keras.applications.ResNet50(weights=None)\nbig.fit(images, labels, epochs=5)\n",
            line=5,
        ),
        Invalid(  # the first fit outside test code
            "import tensorflow as tf\ndef test_fit():\n    tf.keras.Sequential().fit(x, y)\n"
            "m = tf.keras.Sequential()\nm.fit(x, y, epochs=10)\n",
            line=5,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if any(text_mentions(facts, word) for word in CHOSEN):
            return
        fits = [s for s in facts.sites if is_keras_model_method(s.api, ("fit", "fit_generator"))]
        if not fits or _test_file(facts.path) or hides_gpus(facts):
            return
        first = next((s for s in fits if not _latency_bound(s) and not _forwards(facts, s) and not in_test_code(facts, s)),
                     None)
        if first is None:
            return
        tf = target(facts.path)
        if tf.older_than(1, 14) or keras_flavour(facts, tf).multi_backend:
            return
        yield self.diagnostic(first.callsite.span, facts.path, self.MESSAGE)


def _test_file(path: str) -> bool:
    """A test module by pytest's and unittest's naming (`test_*.py`, `*_test.py`)."""
    name = os.path.basename(path)
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _latency_bound(site: Site) -> bool:
    """The training step's work is known, and too small to fill a GPU: its forward and backward
    FLOPs (`TRAINING_FLOPS` x the model's FLOPs per sample x the batch) stay below the n-half of
    greenlint's cost model (`HALF_PEAK_FLOPS`, about 10^9: a kernel below it runs far under peak,
    its time set by launches, not arithmetic). Faster arithmetic then saves nothing."""
    flops, batch = site.work_value("flops_per_sample"), site.work_value("batch_size")
    if not isinstance(flops, (int, float)) or not isinstance(batch, int) or site.work_lower("flops_per_sample"):
        return False
    return TRAINING_FLOPS * flops * batch < HALF_PEAK_FLOPS


def _forwards(facts: FileFacts, site: Site) -> bool:
    """The fit passes on `**kwargs` it was given: a wrapper whose caller owns the model."""
    call = facts.node(site)
    return call is not None and any(k.arg is None for k in call.keywords)
