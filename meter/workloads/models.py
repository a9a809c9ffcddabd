"""Model construction, compile, and fit / evaluate / predict on synthetic data at several sizes.

The `fit` and `predict`/`evaluate` workloads are a sweep of their work, so `greenlint calibrate`
can fit this machine's own time model (greenlint.predict.local_work), over-determined: more
workloads of distinct work than constants, so the fit has residuals that say how well it holds.
`fit` (`FIT_SWEEP`) runs the same MLP at 32 to 384 steps and at 1 and 3 epochs (384 steps in one
epoch and in three: the per-epoch cost apart from each step's), long enough (a second or more on a
loaded 2-core machine) that the steps, not the start-up, are most of the longer calls, and a wide MLP at about 100 times the FLOPs per sample
(each FLOP's cost apart from each step's); `predict` runs on one batch (where a call's fixed cost
is most of it) up to 256 batches. Their features carry that work as the analysis states it for a
user's call (samples, batch size, epochs, FLOPs per sample, params).
Calls that run one batch are timed on their own (`mlp_call_32`: an eager `model(x)`;
`mlp_tape_step_32`: an eager training step under a `tf.GradientTape`; `mlp_*_on_batch_32`): each
pays an overhead per call that a step inside `fit` does not (greenlint.predict.batch_calls), so a
loop of them is priced from what one costs here, not from a `fit` step.
"""

from __future__ import annotations

from greenlint.meter.workloads import Call, Workload

FEATURES = 32
BATCH = 32
#: Hidden layers of the small MLP (one of 64 units) and of the wide one (two of 512 units).
SMALL = (64,)
WIDE = (512, 512)
#: The quick suite's `fit` sweep: (name, samples, epochs, batch size, hidden layers). Four constants
#: (a call's, an epoch's, a step's and a FLOP's seconds) from six workloads of distinct work; the same
#: 384 steps in one epoch and in three tell an epoch's set-up from a step's.
FIT_SWEEP = (
    ("mlp_fit_1024", 1024, 1, BATCH, SMALL),  # 32 steps: mostly the call's own cost
    ("mlp_fit_1024_batch8", 1024, 1, 8, SMALL),  # 128 steps of a quarter of the FLOPs
    ("mlp_fit_8192", 8192, 1, BATCH, SMALL),  # 256 steps
    ("mlp_fit_4096_3_epochs", 4096, 3, BATCH, SMALL),  # 384 steps in 3 epochs
    ("mlp_fit_12288", 12288, 1, BATCH, SMALL),  # 384 steps in 1 epoch
    ("wide_mlp_fit_2048", 2048, 1, BATCH, WIDE),  # 64 steps at ~130x the FLOPs per sample
)
#: The full suite's longer `fit`: 1,280 steps in 5 epochs, the fit's range towards a user's training.
LONG_FIT = ("mlp_fit_8192_5_epochs", 8192, 5, BATCH, SMALL)


def dense_work(hidden: tuple[int, ...], inputs: int = FEATURES, outputs: int = 1) -> dict:
    """`params`, `flops_per_sample`, `activations_per_sample` and `n_layers` of an MLP of Dense layers as
    the analysis counts them (a multiply-add is 2 FLOPs, plus one per bias; each layer's outputs; the
    Input a layer)."""
    sizes = (inputs, *hidden, outputs)
    macs = sum(a * b for a, b in zip(sizes, sizes[1:]))
    biases = sum(sizes[1:])
    return {"params": macs + biases, "flops_per_sample": 2 * macs + biases, "activations_per_sample": biases,
            "n_layers": 1 + len(hidden) + 1}


def _data(n: int):
    import numpy as np

    rng = np.random.default_rng(0)
    return rng.random((n, FEATURES), dtype="float32"), rng.random((n, 1), dtype="float32")


def _mlp(compiled: bool = True, hidden: tuple[int, ...] = SMALL):
    import tensorflow as tf

    model = tf.keras.Sequential(
        [tf.keras.layers.Input((FEATURES,)), *(tf.keras.layers.Dense(u, activation="relu") for u in hidden),
         tf.keras.layers.Dense(1)]
    )
    if compiled:
        model.compile(optimizer="adam", loss="mse")
    return model


def _build() -> Call:
    import tensorflow as tf

    def build():
        return tf.keras.Sequential(
            [tf.keras.layers.Input((FEATURES,)), tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1)]
        )

    return Call(build)


def _compile() -> Call:
    model = _mlp(compiled=False)
    return Call(model.compile, kwargs={"optimizer": "adam", "loss": "mse"})


def _fit(n: int, batch: int = BATCH, hidden: tuple[int, ...] = SMALL, epochs: int = 1):
    def setup() -> Call:
        x, y = _data(n)
        return Call(_mlp(hidden=hidden).fit, (x, y), {"epochs": epochs, "batch_size": batch, "verbose": 0})

    return setup


def _evaluate(n: int):
    def setup() -> Call:
        x, y = _data(n)
        return Call(_mlp().evaluate, (x, y), {"batch_size": BATCH, "verbose": 0})

    return setup


def _predict(n: int, hidden: tuple[int, ...] = SMALL):
    def setup() -> Call:
        x, _ = _data(n)
        return Call(_mlp(hidden=hidden).predict, (x,), {"batch_size": BATCH, "verbose": 0})

    return setup


def _call() -> Call:
    """An eager `model(x)` on one batch: a model call outside `fit`/`predict`, op by op."""
    import tensorflow as tf

    x, _ = _data(BATCH)
    model = _mlp(compiled=False)
    return Call(model, (tf.constant(x),))


def _on_batch(method: str):
    """`model.train_on_batch(x, y)` / `model.predict_on_batch(x)` on one batch: a compiled step plus
    the call's own overhead (converting the batch in, the results out), paid by each call of a loop."""

    def setup() -> Call:
        x, y = _data(BATCH)
        model = _mlp()
        return Call(getattr(model, method), (x, y) if method == "train_on_batch" else (x,))

    return setup


def _tape_step() -> Call:
    """One eager training step of a custom loop: the forward pass under a `tf.GradientTape`, its
    gradient and the optimizer's update, op by op (no `tf.function`)."""
    import tensorflow as tf

    x, y = _data(BATCH)
    x, y = tf.constant(x), tf.constant(y)
    model = _mlp(compiled=False)
    loss_fn = tf.keras.losses.MeanSquaredError()
    optimizer = tf.keras.optimizers.Adam()

    def step():
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return Call(step)


def _cnn_fit() -> Call:
    import numpy as np
    import tensorflow as tf

    rng = np.random.default_rng(0)
    x = rng.random((512, 28, 28, 1), dtype="float32")
    y = rng.integers(0, 10, 512)
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Input((28, 28, 1)),
            tf.keras.layers.Conv2D(8, 3, activation="relu"),
            tf.keras.layers.MaxPooling2D(),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(10),
        ]
    )
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return Call(model.fit, (x, y), {"epochs": 1, "batch_size": BATCH, "verbose": 0})


def _adapt() -> Call:
    import tensorflow as tf

    x, _ = _data(4096)
    return Call(tf.keras.layers.Normalization().adapt, (x,))


def workloads() -> list[Workload]:
    seq = "tensorflow.keras.Sequential"
    out = [
        Workload("sequential_build", seq, _build, quick=True, features={"layers": 2}),
        Workload("sequential_compile", f"{seq}.compile", _compile, quick=True),
    ]
    small, wide = dense_work(SMALL), dense_work(WIDE)
    out += [Workload(name, f"{seq}.fit", _fit(n, batch, hidden, epochs), quick=True, sweep="fit",
                     features={"samples": n, "batch_size": batch, "epochs": epochs, **dense_work(hidden)})
            for name, n, epochs, batch, hidden in FIT_SWEEP]
    name, n, epochs, batch, hidden = LONG_FIT
    out.append(Workload(name, f"{seq}.fit", _fit(n, batch, hidden, epochs), sweep="fit",
                        features={"samples": n, "batch_size": batch, "epochs": epochs, **small}))
    for n, quick in ((1024, True), (8192, False)):
        f = {"samples": n, "batch_size": BATCH, "epochs": 1, **small}
        out += [
            Workload(f"mlp_evaluate_{n}", f"{seq}.evaluate", _evaluate(n), quick=quick, features=f, sweep="pass"),
            Workload(f"mlp_predict_{n}", f"{seq}.predict", _predict(n), quick=True, features=f, sweep="pass"),
        ]
    out += [
        # one batch: a call's own cost (its data pipeline and iterator, made on each call) is most of it,
        # so the sweep pins the fitted per-call seconds instead of leaving them to an intercept
        Workload("mlp_predict_32", f"{seq}.predict", _predict(BATCH), quick=True, sweep="pass",
                 features={"samples": BATCH, "batch_size": BATCH, "epochs": 1, **small}),
        Workload("wide_mlp_predict_4096", f"{seq}.predict", _predict(4096, hidden=WIDE), quick=True, sweep="pass",
                 features={"samples": 4096, "batch_size": BATCH, "epochs": 1, **wide}),
        Workload("mlp_call_32", f"{seq}.__call__", _call, quick=True,
                 features={"samples": BATCH, "step": "inference", **small}),
        Workload("mlp_tape_step_32", f"{seq}.__call__", _tape_step, quick=True,
                 features={"samples": BATCH, "step": "training", **small}),
        Workload("mlp_train_on_batch_32", f"{seq}.train_on_batch", _on_batch("train_on_batch"), quick=True,
                 features={"samples": BATCH, "batch_size": BATCH, **small}),
        Workload("mlp_predict_on_batch_32", f"{seq}.predict_on_batch", _on_batch("predict_on_batch"), quick=True,
                 features={"samples": BATCH, "batch_size": BATCH, **small}),
        Workload("cnn_fit_512", f"{seq}.fit", _cnn_fit, features={"samples": 512, "batch_size": BATCH, "epochs": 1}),
        Workload("normalization_adapt", "tensorflow.keras.layers.Normalization.adapt", _adapt, features={"samples": 4096}),
    ]
    return out
