"""GL605 model-in-float64: a model trained or run in float64 (`set_floatx("float64")`, a float64 policy or layer)."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.predict.work_energy import HALF_PEAK_FLOPS
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument
from greenlint.rules.deliberate import deliberate_switch
from greenlint.rules.devices import hides_gpus
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.large_step import step_flops
from greenlint.rules.site import Site, is_keras_model_method, method
from greenlint.rules.syntax import is_training_step
from greenlint.rules.tf_target import cpu_only

#: The calls that set the precision of every layer built after them, and the feature holding the dtype.
GLOBAL_CHOICES = {"tensorflow.keras.config.set_floatx": "value", "tensorflow.keras.config.set_dtype_policy": "policy"}
#: A layer's own `dtype=` naming double precision.
FLOAT64 = frozenset({"float64", "tensorflow.float64", "tensorflow.dtypes.float64"})
LAYERS = "tensorflow.keras.layers."
#: The model methods that run it without training it.
RUNS = ("predict", "predict_on_batch", "evaluate")
#: The largest FP32:FP64 throughput ratio of a GPU TensorFlow runs on (GeForce boards since Ampere: 1/64).
FP64_SLOWDOWN = 64
#: A step known to do fewer FLOPs than this is launches and copies even at a consumer board's FP64 rate: its
#: float64 arithmetic takes less time than one float32 kernel needs to reach half its peak.
SMALL_STEP = HALF_PEAK_FLOPS / FP64_SLOWDOWN
#: TensorFlow's dense solvers and decompositions (`tf.linalg.*`, TF1's `tf.matrix_*`, `tf.self_adjoint_eig`):
#: numerical code whose ill-conditioned systems may need double precision.
SOLVERS = frozenset({
    "solve", "cholesky", "cholesky_solve", "triangular_solve", "lstsq", "inv", "eig", "eigh", "eigvals",
    "eigvalsh", "svd", "logdet", "slogdet", "matrix_solve", "matrix_inverse", "matrix_solve_ls",
    "matrix_triangular_solve", "self_adjoint_eig", "self_adjoint_eigvals",
})

#: A small Keras regression trained after its precision is set: the cases' program.
PROGRAM = (
    "import tensorflow as tf\n{choice}\n"
    "model = tf.keras.Sequential([tf.keras.Input((None, 64)), tf.keras.layers.LSTM(256),"
    " tf.keras.layers.Dense(1{dense})])\n"
    "model.compile('adam', 'mse')\nmodel.fit(dataset, epochs=50)\n"
)
FLOATX = "tf.keras.backend.set_floatx('float64')"


class ModelInFloat64(Rule):
    """
    ## What it does
    Flags the choice of double precision for a model that the file trains or runs (Keras' `fit`,
    `fit_generator`, `train_on_batch`, `predict`, `evaluate`; a custom step's `apply_gradients`): the
    global `set_floatx("float64")` (`tf.keras.backend`, `keras.backend`, `keras.config`), the global
    dtype policy `mixed_precision.set_global_policy("float64")`, and a Keras layer built with
    `dtype="float64"` or `dtype=tf.float64` (the file's first such layer). The finding is on the choice.

    Not reported: a file that hides every GPU at top level or a project that pins `tensorflow-cpu`
    (greenlint/rules/devices.py, tf_target.py: the program runs on the host, where float64 halves
    the SIMD lanes, a smaller cost than an accelerator's FP64 rate); a file that calls a dense solver or
    decomposition of `tf.linalg` (`solve`, `cholesky`, `eig`, `lstsq`, TF1's `matrix_solve`): numerical
    code, such as a Gaussian process or a physics-informed network, whose ill-conditioned systems may
    need double precision; a choice under a condition (`if args.double:`) or in test code; a file
    whose every training and inference step is known to do fewer than 1.6e7 FLOPs (`SMALL_STEP`:
    10^9, the FLOPs at which a float32 kernel reaches half its peak, over the 64 by which a consumer
    board's FP64 rate trails its FP32 one), where the step is kernel launches and copies whatever its
    precision (a known batch of 32 through Dense layers of 32 and 16 units: GL603 advises the CPU
    there). NumPy's float64 on
    the host and a `tf.cast(..., tf.float64)` of a metric choose nothing for the model.

    ## Why is this bad?
    In float64 every weight, activation and gradient is a double: each matrix product and
    convolution runs on the GPU's FP64 units and moves twice the bytes. GeForce boards run FP64 at
    1/64 (Ampere, Ada) or 1/32 (Turing, Pascal) of FP32, workstation RTX A-series boards at 1/32;
    data-centre boards at 1/2, but without the TF32 tensor cores TensorFlow uses for float32 matrix
    products by default, so an A100 or H100 runs them 7 to 16 times slower; cuDNN's fused RNN kernels
    (`LSTM`, `GRU`) take no float64, which falls back to the generic loop of small kernels. Neural
    networks are trained in float32 or lower as a rule (mixed precision: GL602);
    `set_floatx("float64")` is often there only to silence a dtype mismatch with NumPy's float64
    inputs, which Keras 2's and 3's layers cast to their own dtype themselves.

    ## Example
    ```python
    tf.keras.backend.set_floatx("float64")
    model = tf.keras.Sequential([tf.keras.Input((None, 64)), tf.keras.layers.LSTM(256), tf.keras.layers.Dense(1)])
    model.fit(dataset, epochs=50)
    ```

    ## Use instead
    ```python
    model = tf.keras.Sequential([tf.keras.Input((None, 64)), tf.keras.layers.LSTM(256), tf.keras.layers.Dense(1)])
    model.fit(dataset, epochs=50)
    ```

    ## Energy evidence
    Estimated, not measured: the saving is on a GPU, which this machine lacks, and greenlint's device
    table (greenlint/predict/devices.py) holds no FP64 peaks. From NVIDIA's spec sheets: the
    GeForce RTX 3090 does 35.6 TFLOP/s in FP32 and 0.56 in FP64 (1/64); the RTX A6000 38.7 and 1.2
    (1/32); the A100 19.5 in FP64 (9.7 without its FP64 tensor cores, which cuBLAS uses for matrix
    products alone) against 156 in TF32 (1/8 to 1/16); the H100 SXM 67 in FP64 tensor cores and 34 in
    FP64 against 495 in TF32 (1/7 to 1/15), dense figures all.
    At the same board power, a compute-bound step's energy scales with its time.

    Opt-in: no research or precision corpus of the benchmark chooses float64 for a model, so its
    precision on judged findings is unknown; the one probe that did (a set of TF2 RL agents) trains
    models of a few thousand FLOPs a sample, under `SMALL_STEP`, where the change saves nothing.

    ## Fix safety
    No automatic fix: a model whose inputs or losses are built in float64 elsewhere (a `tf.constant`
    of NumPy data, a custom loss) then needs casts, and numerical code may need the precision.

    ## Options
    None.
    """

    code = "GL605"
    name = "model-in-float64"
    DEFAULT_ENABLED = False
    MENTIONS = ("float64",)
    MESSAGE = (
        "`{choice}` computes the model in float64: on a GPU its matrix products and convolutions run at the"
        " FP64 rate (1/64 of FP32 on GeForce boards, 1/7 to 1/16 of TF32 on an A100 or H100) and move twice"
        " the bytes; {step}"
    )
    FIX_TITLE = "Compute in float32 (or mixed precision), unless the numerics need double precision"
    VALID = (
        Valid(PROGRAM.format(choice="", dense="")),  # float32
        Valid(PROGRAM.format(choice="tf.keras.backend.set_floatx('float32')", dense="")),
        Valid(PROGRAM.format(choice="if args.double:\n    " + FLOATX, dense="")),  # chosen on purpose
        Valid(  # every GPU hidden: the host runs it, at no FP64 rate of an accelerator
            "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = ''\n" + PROGRAM.format(choice=FLOATX, dense="")
        ),
        Valid(  # a solver in the program: numerical code that may need double precision
            PROGRAM.format(choice=FLOATX, dense="")
            + "kernel = tf.linalg.cholesky(gram + noise * tf.eye(n))\n"
        ),
        Valid(  # nothing trained or run
            "import tensorflow as tf\ntf.keras.backend.set_floatx('float64')\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nmodel.save('m.keras')\n"
        ),
        Valid(  # float64 on the host and in a metric: nothing chosen for the model
            "import numpy as np\nimport tensorflow as tf\nx = np.zeros((1000, 64), dtype=np.float64)\n"
            "model = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(1)])\n"
            "model.compile('adam', 'mse')\nmodel.fit(x, y, epochs=5)\n"
            "error = tf.cast(tf.reduce_mean(model(x)), tf.float64)\n"
        ),
        Valid(  # a step of 4 x 32 x 16 x 2 Dense units on batches of 32: launches whatever its precision
            "import numpy as np\nimport tensorflow as tf\ntf.keras.backend.set_floatx('float64')\n"
            "model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(32),"
            " tf.keras.layers.Dense(16), tf.keras.layers.Dense(2)])\nmodel.compile('adam', 'mse')\n"
            "model.fit(np.zeros((5000, 4)), np.zeros((5000, 2)), batch_size=32, epochs=100)\n"
        ),
        Valid(  # test code
            "import tensorflow as tf\ndef test_double():\n    tf.keras.backend.set_floatx('float64')\n"
            "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n    model.fit(x, y)\n"
        ),
    )
    INVALID = (
        Invalid(PROGRAM.format(choice=FLOATX, dense=""), line=2, message_contains="set_floatx('float64')"),
        Invalid(  # standalone Keras 3
            PROGRAM.format(choice="import keras\nkeras.config.set_floatx('float64')", dense=""), line=3
        ),
        Invalid(  # the global policy
            PROGRAM.format(
                choice="from tensorflow.keras import mixed_precision\nmixed_precision.set_global_policy('float64')",
                dense="",
            ),
            line=3,
        ),
        Invalid(PROGRAM.format(choice="", dense=", dtype=tf.float64"), line=3, message_contains="dtype"),
        Invalid(  # inference alone: a model run over a dataset
            "from keras import backend as K\nimport tensorflow as tf\nK.set_floatx('float64')\n"
            "model = tf.keras.applications.EfficientNetB0(weights=None)\nscores = model.predict(images, batch_size=64)\n",
            line=3,
        ),
        Invalid(  # a custom training step
            "import tensorflow as tf\ntf.keras.backend.set_floatx('float64')\n"
            "model = tf.keras.applications.ResNet50(weights=None)\nopt = tf.keras.optimizers.Adam()\n"
            "for images, labels in dataset:\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(loss_fn(labels, model(images)))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n",
            line=2,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        choices = [site for site in facts.sites if _float64_choice(site)]
        if not choices or hides_gpus(facts) or cpu_only(facts.path):
            return
        steps = [site for site in facts.sites if is_training_step(site) or is_keras_model_method(site.api, RUNS)]
        if not steps or any(site.api.startswith("tensorflow.") and method(site.api) in SOLVERS for site in facts.sites):
            return
        if all(_small(site) for site in steps):
            return
        step = _largest_known(steps)
        layers = 0
        for site in choices:
            if deliberate_switch(facts, site):
                continue
            if site.api.startswith(LAYERS):
                layers += 1
                if layers > 1:
                    continue
            yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(choice=_choice(facts, site), step=step))


def _float64_choice(site: Site) -> bool:
    """A global float64 choice, or a Keras layer given a float64 `dtype`."""
    feature = GLOBAL_CHOICES.get(site.api)
    if feature is not None:
        return site.features.get(feature) == "float64"
    return site.api.startswith(LAYERS) and site.features.get("dtype") in FLOAT64


def _choice(facts: FileFacts, site: Site) -> str:
    """The choice as written: the global call, or the layer's name and its `dtype=`."""
    node = facts.node(site)
    if node is None:
        return method(site.api)
    dtype = argument(node, "dtype")
    if site.api.startswith(LAYERS) and dtype is not None:
        return f"{method(site.api)}(..., dtype={ast.unparse(dtype)})"
    return ast.unparse(node)


def _small(site: Site) -> bool:
    """The step's exact FLOPs are known and under `SMALL_STEP`."""
    step = step_flops(site)
    return step is not None and not step[1] and step[0] < SMALL_STEP


def _largest_known(steps: list[Site]) -> str:
    """What the message says of the program's steps: the largest, where every step's FLOPs are known
    exactly; else the largest known (or its lower bound), the others' size unknown."""
    known = [step for site in steps if (step := step_flops(site)) is not None]
    if not known:
        return "its steps' FLOPs are unknown"
    flops, lower, _ = max(known, key=lambda step: step[0])
    largest = f"{'at least ' if lower else ''}{flops:.1e} FLOPs"
    if len(known) < len(steps) or any(step[1] for step in known):
        return f"the size of its steps is not all known (the largest known: {largest})"
    return f"its largest step does {largest}"
