"""Frozen layers (issue 26): a training call's backward FLOPs follow what its model's compile trains,
read statically; where the code does not say it statically, the whole model's backward pass stays."""

from __future__ import annotations

import textwrap

import pytest

from greenlint.analysis.analyse import analyse_source

HEADER = """
import numpy as np
from tensorflow import keras

x = np.zeros((2000, 32, 32, 3))
y = np.zeros((2000,))
"""
#: A small convolutional base and a dense head, built at the lines named in the tests.
BASE = """
base = keras.Sequential([
    keras.Input(shape=(32, 32, 3)),
    keras.layers.Conv2D(32, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(32, 3, padding="same", activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
])
head = keras.layers.Dense(10)
model = keras.Sequential([base, head])
"""


def _sites(body: str, base: bool = True):
    text = textwrap.dedent(HEADER) + (textwrap.dedent(BASE) if base else "") + textwrap.dedent(body)
    result = analyse_source(text, "train.py")
    assert result.errors == []
    return result.callsites


def _fits(sites):
    return [s for s in sites if s.api.endswith(".fit")]


def _flops(sites, leaf: str) -> list[int]:
    """The FLOPs per sample of the layers constructed by *leaf* (`Dense`), in the order built."""
    return [s.work["flops_per_sample"].value for s in sites if s.api.endswith(f".layers.{leaf}")]


def _value(site, key: str):
    return getattr(site.work.get(key), "value", None)


def test_a_frozen_base_trains_only_the_head_until_a_second_compile_unfreezes_it():
    sites = _sites("""
        base.trainable = False
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y, epochs=10)
        model.fit(x, y, epochs=10)  # no compile: Keras keeps the traced step
        base.trainable = True
        model.fit(x, y, epochs=10)  # still frozen: the change counts from the next compile
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y, epochs=10)
    """)
    (head_flops,) = _flops(sites, "Dense")
    frozen, again, unchanged, whole = _fits(sites)
    for site in (frozen, again, unchanged):
        # no input gradient below the head (the lowest layer that trains), its weight gradient: 2 x its FLOPs
        assert _value(site, "backward_flops_per_sample") == 2 * head_flops
        assert _value(site, "trainable_params") == 32 * 10 + 10
        assert _value(site, "flops_per_sample") > 100 * head_flops  # the base's forward pass is still run
    assert "backward_flops_per_sample" not in whole.work and "trainable_params" not in whole.work
    assert _value(whole, "flops_per_sample") == _value(frozen, "flops_per_sample")


def test_trainable_set_between_compile_and_the_first_fit_is_not_known():
    """Keras 2 reads it at compile, Keras 3.15 at the first fit after it (a GAN's discriminator frozen
    after its own compile): the two disagree, so the whole backward pass stays; the combined model
    compiled after the change trains its generator alone in both."""
    sites = _sites("""
        model.compile(optimizer="adam", loss="mse")
        model.trainable = False
        gan = keras.Sequential([keras.layers.Dense(32 * 32 * 3, input_shape=(8,)), keras.layers.Reshape((32, 32, 3)),
                                model])
        gan.compile(optimizer="adam", loss="mse")
        model.train_on_batch(x[:32], y[:32])
        gan.train_on_batch(np.zeros((32, 8)), y[:32])
    """)
    discriminator, combined = (s for s in sites if s.api.endswith(".train_on_batch"))
    assert "backward_flops_per_sample" not in discriminator.work
    generator = _flops(sites, "Dense")[1]
    # the generator trains (weight gradient; no input gradient below it), the frozen discriminator
    # above it passes its input gradient down
    assert _value(combined, "backward_flops_per_sample") == 2 * generator + _value(discriminator, "flops_per_sample")


def test_the_layers_of_a_slice_frozen_in_a_loop():
    sites = _sites("""
        net = keras.Sequential([
            keras.layers.Dense(64, input_shape=(100,)),
            keras.layers.Dense(64),
            keras.layers.Dense(64),
            keras.layers.Dense(10),
        ])
        for layer in net.layers[:-2]:
            layer.trainable = False
        net.compile(optimizer="adam", loss="mse")
        net.fit(np.zeros((500, 100)), np.zeros((500, 10)), epochs=3)
    """, base=False)
    flops = _flops(sites, "Dense")
    (fit,) = _fits(sites)
    assert _value(fit, "backward_flops_per_sample") == 2 * (flops[2] + flops[3])
    assert _value(fit, "trainable_params") == (64 * 64 + 64) + (64 * 10 + 10)


def test_a_frozen_layer_above_one_that_trains_passes_its_input_gradient_down():
    """Input gradients flow from the loss down to the lowest layer that trains, frozen ones included."""
    sites = _sites("""
        frozen = keras.layers.Dense(64, trainable=False)
        net = keras.Sequential([keras.layers.Dense(64, input_shape=(100,)), frozen, keras.layers.Dense(10)])
        net.compile(optimizer="adam", loss="mse")
        net.fit(np.zeros((500, 100)), np.zeros((500, 10)), epochs=3)
    """, base=False)
    middle, bottom, top = _flops(sites, "Dense")  # (in the order built)
    (fit,) = _fits(sites)
    assert _value(fit, "backward_flops_per_sample") == 2 * bottom + middle + 2 * top


def test_what_the_code_does_not_say_statically_keeps_the_whole_backward_pass():
    for body in (
        """
        import sys
        if "--freeze" in sys.argv:
            base.trainable = False
        """,
        """
        import sys
        base.trainable = bool(len(sys.argv) > 10)
        """,
        """
        for layer in base.layers:
            if layer.name.startswith("conv"):
                layer.trainable = False
        """,
        """
        for layer in base.layers[:len(x)]:
            layer.trainable = False
        """,
        """
        import sys
        flag = len(sys.argv) > 10
        model = keras.Sequential([base, keras.layers.Dense(10, trainable=flag)])
        base.trainable = False
        """,
        # a function's body is walked once, whether and whenever it is called (a length the code gives
        # would say: `len(x) > 10` of x's 2,000 rows is a known test)
        """
        import sys
        def freeze():
            base.trainable = False
        if len(sys.argv) > 10:
            freeze()
        """,
        """
        def unfreeze():
            base.trainable = True
        base.trainable = False
        unfreeze()
        """,
    ):
        sites = _sites(textwrap.dedent(body) + "model.compile(optimizer='adam', loss='mse')\nmodel.fit(x, y, epochs=2)\n")
        (fit,) = _fits(sites)
        assert "backward_flops_per_sample" not in fit.work, body
        assert _value(fit, "flops_per_sample") is not None


def test_a_method_freezing_what_its_own_compile_trains():
    """A GAN built in a class: the combined model is compiled in `__init__` after the discriminator is
    frozen there, and trained in another method."""
    sites = _sites("""
        class GAN:
            def __init__(self):
                self.critic = model
                self.critic.trainable = False
                self.combined = keras.Sequential([keras.layers.Dense(32 * 32 * 3, input_shape=(8,)),
                                                  keras.layers.Reshape((32, 32, 3)), self.critic])
                self.combined.compile(optimizer="adam", loss="mse")

            def train(self):
                self.combined.train_on_batch(np.zeros((32, 8)), y[:32])

        GAN().train()
    """)
    (combined,) = (s for s in sites if s.api.endswith(".train_on_batch"))
    assert _value(combined, "backward_flops_per_sample") == 2 * _flops(sites, "Dense")[1] + _value(
        combined, "flops_per_sample") - _flops(sites, "Dense")[1]


FROZEN_BASE = """
    import numpy as np
    from tensorflow import keras

    x = np.zeros((2000, 128, 128, 3))
    base = keras.applications.MobileNetV2(include_top=False, weights="imagenet", input_shape=(128, 128, 3))
    base.trainable = False
    inputs = keras.Input(shape=(128, 128, 3))
    h = keras.layers.POOL()(base(inputs, training=False))
    model = keras.Model(inputs, keras.layers.Dense(1)(h))
    model.compile(optimizer="adam", loss="binary_crossentropy")
    model.fit(x, np.zeros((2000,)), epochs=10)
"""


def test_a_frozen_keras_application_under_a_head_of_unknown_size_counts_no_backward_of_its_own():
    (fit,) = _fits(analyse_source(textwrap.dedent(FROZEN_BASE.replace("POOL", "Flatten")), "app.py").callsites)
    # the base's last feature map at 128x128 has 1,280 channels, its sides not tabled there: the flattened head's
    # FLOPs are unknown, and what is known is a lower bound
    backward = fit.work["backward_flops_per_sample"]
    assert (backward.value, backward.bound) == (0, "lower")
    assert fit.work["flops_per_sample"].bound == "lower" and _value(fit, "flops_per_sample") > 0
    # pooled to its channels, the head is known: its Dense layer's backward pass alone, the base's none
    (fit,) = _fits(analyse_source(textwrap.dedent(FROZEN_BASE.replace("POOL", "GlobalAveragePooling2D")),
                                  "app.py").callsites)
    assert _value(fit, "trainable_params") == 1280 + 1
    assert 0 < _value(fit, "backward_flops_per_sample") < 10 * 2 * 1280


#: A custom training step: a tf.function differentiating the model's trainable weights under a tape.
STEP = """
optimizer = keras.optimizers.Adam()


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(labels - model(images, training=True)))
    grads = tape.gradient(loss, SOURCES)
    optimizer.apply_gradients(zip(grads, SOURCES))


"""


def _step_sites(before: str, after: str = "", sources: str = "model.trainable_variables"):
    """The custom step's model call and the tf.function's calls, *before* and *after* the step is defined."""
    text = "import tensorflow as tf\n" + textwrap.dedent(before) + STEP.replace("SOURCES", sources) \
        + textwrap.dedent(after)
    sites = _sites(text)
    (taped,) = [s for s in sites if s.api.endswith("Sequential.__call__")]
    return sites, taped, [s for s in sites if _value(s, "step") == "training" and s is not taped]


@pytest.mark.parametrize("freeze_after_the_step", [False, True])
def test_a_custom_step_of_a_frozen_base_trains_the_head_the_tape_differentiates(freeze_after_the_step):
    freeze, loop = "base.trainable = False\n", "for epoch in range(10):\n    train_step(x[:32], y[:32])\n"
    sites, taped, calls = _step_sites(*(("", freeze + loop) if freeze_after_the_step else (freeze, loop)))
    (head_flops,) = _flops(sites, "Dense")
    (call,) = calls
    for site in (taped, call):  # the model call under the tape, and the tf.function's call counting it
        assert _value(site, "backward_flops_per_sample") == 2 * head_flops
        assert _value(site, "trainable_params") == 32 * 10 + 10
    assert _value(call, "flops_per_sample") == _value(taped, "flops_per_sample") > 100 * head_flops
    assert "trainable weights the step's GradientTape differentiates" in taped.work["backward_flops_per_sample"].note


def test_a_custom_step_trains_the_whole_model_where_its_tape_or_its_freeze_is_not_known():
    freeze = "base.trainable = False\n"
    run = "\ntrain_step(x[:32], y[:32])\n"
    for before, after, sources in (
        ("", run, "model.trainable_variables"),  # nothing frozen
        (freeze, run, "head.trainable_variables"),  # another model's weights: what its backward reaches is not read
        (freeze, run, "model.trainable_variables + []"),
        # unfrozen after the first call: an eager step trains the whole from then on, a traced one keeps its trace
        (freeze, run + "base.trainable = True\n" + run, "model.trainable_variables"),
        ("", run + freeze + run, "model.trainable_variables"),  # frozen after the first call, as a trace is kept
        ("import sys\nif sys.argv:\n    base.trainable = False\n", run, "model.trainable_variables"),
    ):
        _, taped, calls = _step_sites(before, after, sources)
        for site in (taped, *calls):
            assert "backward_flops_per_sample" not in site.work and "trainable_params" not in site.work, (before, after)


@pytest.mark.parametrize("decorator", ["@tf.function", ""])
def test_a_layer_frozen_in_its_constructor_above_one_that_trains_under_a_tape(decorator):
    """Input gradients flow from the loss down to the lowest layer the tape trains, the frozen one included;
    an eager step's tape differentiates the frozen layer's ops too (measured: trainable.py): priced whole."""
    sites = _sites("""
        import tensorflow as tf
        net = keras.Sequential([keras.layers.Dense(64, input_shape=(100,)), keras.layers.Dense(64, trainable=False),
                                keras.layers.Dense(10)])


        DECORATOR
        def step(batch, target):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(target - net(batch, training=True)))
            tape.gradient(loss, net.trainable_weights)


        step(np.zeros((16, 100), "float32"), np.zeros((16, 10), "float32"))
    """.replace("DECORATOR", decorator), base=False)
    bottom, middle, top = _flops(sites, "Dense")
    (taped,) = [s for s in sites if s.api.endswith("Sequential.__call__")]
    assert _value(taped, "trainable_params") == 100 * 64 + 64 + 64 * 10 + 10  # what its optimizer updates
    if not decorator:
        assert "backward_flops_per_sample" not in taped.work
        return
    assert _value(taped, "backward_flops_per_sample") == 2 * bottom + middle + 2 * top


def test_a_frozen_base_trained_eagerly_keeps_its_whole_backward_pass():
    """An eager step's tape differentiates the frozen layers' ops too (trainable.py): a fit compiled with
    `run_eagerly`, or any training call of a module that may run its functions eagerly."""
    fit = 'model.compile(optimizer="adam", loss="mse"RUN)\nmodel.fit(x, y, epochs=10)\n'
    for body in (fit.replace("RUN", ", run_eagerly=True"), fit.replace("RUN", ", run_eagerly=debug"),
                 "tf.config.run_functions_eagerly(True)\n" + fit.replace("RUN", "")):
        sites = _sites("import tensorflow as tf\ndebug = input()\nbase.trainable = False\n" + body)
        (site,) = _fits(sites)
        assert "backward_flops_per_sample" not in site.work, body
        assert _value(site, "trainable_params") == 32 * 10 + 10  # what the optimizer updates is still the head
    sites = _sites("import tensorflow as tf\nbase.trainable = False\n" + fit.replace("RUN", ", run_eagerly=False"))
    assert "backward_flops_per_sample" in _fits(sites)[0].work
    _, taped, calls = _step_sites("tf.config.run_functions_eagerly(True)\nbase.trainable = False\n",
                                  "\ntrain_step(x[:32], y[:32])\n")
    for site in (taped, *calls):
        assert "backward_flops_per_sample" not in site.work


def test_a_layer_of_no_weights_in_front_of_a_frozen_base_takes_no_backward_pass():
    """A `Rescaling` below a frozen stack has no weights to train: the backward pass stops above the
    stack, and the layers of no weights above it pass their input gradient down only (no weight gradient)."""
    sites = _sites("""
        net = keras.Sequential([
            keras.layers.Rescaling(1 / 255, input_shape=(100,)),
            keras.layers.Dense(64, trainable=False),
            keras.layers.Dense(64, trainable=False),
            keras.layers.Dense(10),
            keras.layers.Activation("softmax"),
        ])
        net.compile(optimizer="adam", loss="mse")
        net.fit(np.zeros((500, 100)), np.zeros((500, 10)), epochs=3)
    """, base=False)
    (fit,) = _fits(sites)
    top = _flops(sites, "Dense")[2]
    (activation,) = _flops(sites, "Activation")
    assert _value(fit, "backward_flops_per_sample") == 2 * top + activation
