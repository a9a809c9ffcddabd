"""TF-GAN's `gan_train` runs training steps of the model its train ops were built for
(analysis/tfgan.py): a call site there, a TF1 training step of the graph the generator and
discriminator functions build on the data given, run as often as a literal `StopAtStepHook` says."""

from __future__ import annotations

import pytest

from greenlint.analysis.analyse import analyse_file, analyse_source

NETWORKS = """def generator(x):
    net = tf.layers.conv2d(x, 64, 3, padding="same")
    return tf.layers.conv2d(net, 3, 3, padding="same")

def discriminator(x, unused_conditioning=None):
    return tf.layers.flatten(tf.layers.conv2d(x, 64, 4, strides=2))
"""
PROGRAM = """import tensorflow.compat.v1 as tf
import tensorflow_gan as tfgan

{networks}
images = tf.placeholder(tf.float32, [8, 64, 64, 3])
noise = tf.placeholder(tf.float32, [8, 64, 64, 3])
model = tfgan.{builder}
loss = tfgan.gan_loss(model)
ops = tfgan.gan_train_ops(model, loss, generator_optimizer=g_opt, discriminator_optimizer=d_opt)
tfgan.gan_train(ops, "/tmp/log", hooks=[{hook}])
"""
GAN = "gan_model(generator_fn=generator, discriminator_fn=discriminator, real_data=images, generator_inputs=noise)"
CYCLE = "cyclegan_model(generator, discriminator, data_x=images, data_y=noise)"
#: Forward FLOPs per sample: the generator's two convolutions on 64x64 (3 -> 64 -> 3 channels, 3x3),
#: the discriminator's one (3 -> 64, 4x4, stride 2, valid: 31x31 outputs).
GENERATOR = 64 * 64 * 64 * (3 * 9) * 2 + 64 * 64 * 3 * (64 * 9) * 2
DISCRIMINATOR = 31 * 31 * 64 * (3 * 16) * 2


def train_site(builder: str = GAN, hook: str = "tf.estimator.StopAtStepHook(num_steps=1000)", networks=NETWORKS):
    result = analyse_source(PROGRAM.format(builder=builder, hook=hook, networks=networks), "train.py")
    assert result.errors == []
    (site,) = [s for s in result.callsites if s.api.endswith("Session.run")]
    return site


def test_gan_train_is_a_training_step_of_the_generator_and_discriminator_graph():
    site = train_site()
    assert site.api == "tensorflow.compat.v1.Session.run"
    assert site.work["step"].value == "training"
    flops = site.work["flops_per_sample"]
    assert flops.value == GENERATOR + 2 * DISCRIMINATOR  # real and generated data
    assert flops.bound == "lower"  # each update recomputes the passes it needs
    assert (site.runs.count, site.runs.bound) == (1000, "upper")
    assert site.features["via"] == "TF-GAN's gan_train"
    assert "gan_model" in site.work["driver"].note


def test_a_cyclegan_runs_both_generators_each_way_and_both_discriminators():
    site = train_site(CYCLE)
    # per direction: the generator, the generator again on its output (the cycle), the discriminator
    # on the other domain's data and on the generated
    assert site.work["flops_per_sample"].value == 2 * (2 * GENERATOR + 2 * DISCRIMINATOR)


@pytest.mark.parametrize("hook", ["tf.estimator.StopAtStepHook(num_steps=steps)", "tf.train.NanTensorHook(loss)"])
def test_a_step_count_not_stated_leaves_the_runs_unknown(hook):
    site = train_site(hook=hook)
    assert site.runs.count is None
    assert site.work["step"].value == "training"  # still one step's figure: a floor


def test_data_of_unknown_shape_leaves_the_flops_unknown_not_guessed():
    site = train_site("gan_model(generator, discriminator, next_batch(), next_batch())")
    assert site.work["flops_per_sample"].value is None
    assert site.work["flops_per_sample"].provenance == "unknown"


def test_real_data_of_unknown_shape_leaves_a_lower_bound():
    site = train_site("gan_model(generator, discriminator, next_batch(), noise)")
    flops = site.work["flops_per_sample"]
    assert (flops.value, flops.bound) == (GENERATOR + DISCRIMINATOR, "lower")


def test_a_project_that_is_tf_gan_keeps_its_own_modules(tmp_path):
    package = tmp_path / "tensorflow_gan" / "examples"
    package.mkdir(parents=True)
    (tmp_path / "setup.py").write_text("")
    (package / "networks.py").write_text("import tensorflow.compat.v1 as tf\n" + NETWORKS)
    script = package / "train.py"
    script.write_text(
        "import tensorflow.compat.v1 as tf\nimport tensorflow_gan as tfgan\n"
        "from tensorflow_gan.examples import networks\n"
        "images = tf.placeholder(tf.float32, [8, 64, 64, 3])\n"
        "model = tfgan.gan_model(networks.generator, networks.discriminator, images, images)\n"
        "tfgan.gan_train(tfgan.gan_train_ops(model, tfgan.gan_loss(model)), 'log')\n"
    )
    result = analyse_file(script)
    (site,) = [s for s in result.callsites if s.span.line == 6]
    assert site.work["flops_per_sample"].value == GENERATOR + 2 * DISCRIMINATOR


def test_other_names_of_the_package_give_no_site():
    result = analyse_source("import tensorflow_gan as tfgan\ntfgan.eval.add_gan_model_image_summaries(model)\n"
                            "tfgan.gan_train_ops(model, loss)\n", "train.py")
    assert result.callsites == []
