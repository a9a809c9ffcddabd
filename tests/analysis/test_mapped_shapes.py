"""A TF1 graph built on a tf.data pipeline of files mapped by a project function (`Resolver.mapped_static`):
the function walked on one element decodes it to stated channels and resizes or crops it to literal sides,
so `get_next()` is a batch of that static shape and the session run fed nothing is priced as the same graph
on a placeholder of that shape; a side or channel count the code does not state leaves the run a floor.
And the losses such graphs sum: a loop indexing lists of a graph's tensors is walked trip by trip
(unroll.py), `extend` of a display of them keeps the list, `sum` of them is their `add_n` (one add per
element per operand past the first, as `tf.add_n` of tensors of one shape)."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file, analyse_source
from tests.analysis.test_whole_program import write


def runs(code: str, name: str = "train.py") -> dict[int, dict]:
    result = analyse_source(textwrap.dedent(code).lstrip("\n"), name)
    assert result.errors == []
    return {s.span.line: s.work for s in result.callsites if "step" in s.work}


LOADED = """
import glob
import tensorflow as tf


def load(path):
    image = tf.image.decode_jpeg(tf.read_file(path), channels=3)
    image = tf.image.resize_images(image, [128, 128])
    return tf.cast(image, tf.float32) / 127.5 - 1


files = glob.glob("images/*.jpg")
images = tf.data.Dataset.from_tensor_slices(files).map(load).batch(8).make_one_shot_iterator().get_next()
loss = tf.reduce_mean(tf.layers.conv2d(images, 64, 3, padding="same"))
train_op = tf.train.AdamOptimizer().minimize(loss)
with tf.Session() as sess:
    for step in range(1000):
        sess.run(train_op)
"""
#: The same graph on a placeholder of the batch and shape the pipeline yields.
PLACED = """
import tensorflow as tf
images = tf.placeholder(tf.float32, [8, 128, 128, 3])
loss = tf.reduce_mean(tf.layers.conv2d(images, 64, 3, padding="same"))
train_op = tf.train.AdamOptimizer().minimize(loss)
with tf.Session() as sess:
    for step in range(1000):
        sess.run(train_op, feed_dict=feed)
"""


def _placed() -> int:
    return runs(PLACED)[7]["flops_per_sample"].value


def test_a_pipeline_of_files_decoded_and_resized_by_its_map_is_a_batch_of_that_shape():
    train = runs(LOADED)[17]
    assert train["step"].value == "training"
    assert train["samples"].value == 8
    assert train["flops_per_sample"].value == _placed() > 0 and train["flops_per_sample"].bound is None


#: The map a method of an instance whose construction gives the sides and channels.
METHOD = LOADED.replace('''def load(path):
    image = tf.image.decode_jpeg(tf.read_file(path), channels=3)
    image = tf.image.resize_images(image, [128, 128])
    return tf.cast(image, tf.float32) / 127.5 - 1
''', '''class Loader:
    def __init__(self, size, channels):
        self.size = size
        self.channels = channels

    def load(self, path):
        image = tf.image.decode_jpeg(tf.read_file(path), channels=self.channels)
        image = tf.image.resize_images(image, [self.size, self.size])
        return tf.cast(image, tf.float32) / 127.5 - 1
''').replace(".map(load)", ".map(Loader(128, 3).load)")


def test_a_method_of_an_instance_maps_with_the_sizes_its_construction_gave():
    train = runs(METHOD)[22]
    assert train["samples"].value == 8
    assert train["flops_per_sample"].value == _placed()


def test_a_crop_back_to_the_shape_before_an_enlarging_resize_keeps_that_shape():
    """`random_crop(image, tf.shape(original))` after a resize to 143x143: TF folds the shape of a tensor
    whose static shape is known whole into a constant, so the crop is 128x128x3 again."""
    code = LOADED.replace("    return tf.cast(image, tf.float32) / 127.5 - 1", """    sides = tf.shape(image)
    image = tf.random_crop(tf.image.resize_images(image, [143, 143]), sides)
    return tf.cast(image, tf.float32) / 127.5 - 1""")
    assert runs(code)[19]["flops_per_sample"].value == _placed()


def test_a_map_whose_sides_or_channels_the_code_does_not_state_leaves_the_run_a_floor():
    for unknown, line in (
        (LOADED.replace("channels=3", "channels=0"), 17),  # the file's own channels
        (LOADED.replace("[128, 128]", "[side, side]"), 17),
        (LOADED.replace("    return tf.cast", "    image = tf.random_crop(image, tf.shape(path))\n    return tf.cast"), 18),
        (LOADED.replace(".map(load)", ".map(lambda p: load(p))"), 17),
    ):
        assert runs(unknown)[line]["flops_per_sample"].value is None


def test_a_method_of_an_instance_of_another_module_maps_with_its_construction(tmp_path):
    loaders = METHOD[: METHOD.index("files = ")].replace("import glob\n", "")
    train = METHOD[METHOD.index("files = "):].replace("Loader(128, 3)", "loaders.Loader(128, 3)")
    write(tmp_path, {"loaders.py": loaders, "train.py": "import glob\nimport tensorflow as tf\nimport loaders\n\n" + train})
    result = analyse_file(tmp_path / "train.py")
    assert result.errors == []
    [site] = [s for s in result.callsites if "step" in s.work]
    assert site.work["samples"].value == 8 and site.work["flops_per_sample"].value == _placed()


LOSSES = """
import tensorflow as tf


def scored(loss_func, real, fake):
    loss = []
    for i in range(2):
        if loss_func == "lsgan":
            real_loss = tf.reduce_mean(tf.squared_difference(real[i], 1.0))
            fake_loss = tf.reduce_mean(tf.square(fake[i]))
        loss.append(real_loss + fake_loss)
    return sum(loss)


def discriminator(x):
    logits = []
    logits.extend([tf.layers.conv2d(x, 64, 3), tf.layers.conv2d(x, 32, 3)])
    return logits


x = tf.placeholder(tf.float32, [4, 32, 32, 3])
loss = scored("lsgan", discriminator(x), discriminator(x * 2.0))
train_op = tf.train.AdamOptimizer().minimize(loss)
with tf.Session() as sess:
    for step in range(10):
        sess.run(train_op, feed_dict=feed)
"""
#: The same losses written out: the four convolutions reach the loss either way.
WRITTEN = LOSSES.replace("""    loss = []
    for i in range(2):
        if loss_func == "lsgan":
            real_loss = tf.reduce_mean(tf.squared_difference(real[i], 1.0))
            fake_loss = tf.reduce_mean(tf.square(fake[i]))
        loss.append(real_loss + fake_loss)
    return sum(loss)""", """    first = tf.reduce_mean(tf.squared_difference(real[0], 1.0)) + tf.reduce_mean(tf.square(fake[0]))
    return first + tf.reduce_mean(tf.squared_difference(real[1], 1.0)) + tf.reduce_mean(tf.square(fake[1]))""").replace(
    """    logits = []
    logits.extend([tf.layers.conv2d(x, 64, 3), tf.layers.conv2d(x, 32, 3)])
    return logits""", "    return [tf.layers.conv2d(x, 64, 3), tf.layers.conv2d(x, 32, 3)]")


def test_losses_summed_over_lists_of_a_graph_s_tensors_reach_every_tensor_indexed():
    summed = runs(LOSSES)[25]["flops_per_sample"]
    written = runs(WRITTEN)[18]["flops_per_sample"]
    convolutions = 2 * 2 * 3 * 3 * 3 * (64 + 32) * 30 * 30
    assert summed.value == written.value > convolutions and summed.bound is written.bound is None


def test_a_list_extended_under_a_branch_or_summed_from_no_tensors_stays_unknown():
    branched = LOSSES.replace("    logits.extend(", "    if flag:\n        logits.extend(")
    assert runs(branched)[26]["flops_per_sample"].value is None
    assert runs(LOSSES.replace("return sum(loss)", "return sum([1, 2])"))[25]["flops_per_sample"].value is None


def test_add_n_of_tensors_of_one_shape_adds_each_element_once_per_operand_past_the_first():
    code = """
    import tensorflow as tf
    x = tf.placeholder(tf.float32, [None, 10])
    with tf.Session() as sess:
        sess.run(tf.add_n([x, x * 2.0, x * 3.0]), feed_dict=feed)
        sess.run(tf.add_n([x, tf.reduce_mean(x, axis=1, keepdims=True)]), feed_dict=feed)
    """
    found = runs(code)
    assert found[4]["flops_per_sample"].value == 2 * 10 + 2 * 10  # the two products, then two adds per element
    assert found[5]["flops_per_sample"].bound == "lower"  # shapes that differ: the add's work not known


def test_losses_summed_by_a_helper_of_another_module_reach_the_graph(tmp_path):
    """The helper's own walk knows no tensor of its parameters, but every item it appends to its list is a
    tensor: its `sum` is one, so the helper is walked again with each call's tensors (a Template)."""
    helper = LOSSES[: LOSSES.index("\ndef discriminator")]
    model = "import tensorflow as tf\nimport losses\n\n" + LOSSES[LOSSES.index("def discriminator"):].replace(
        "loss = scored(", "loss = losses.scored(")
    write(tmp_path, {"losses.py": helper, "train.py": model})
    result = analyse_file(tmp_path / "train.py")
    assert result.errors == []
    [site] = [s for s in result.callsites if "step" in s.work]
    assert site.work["flops_per_sample"].value == runs(LOSSES)[25]["flops_per_sample"].value
    numbers = helper.replace("loss.append(real_loss + fake_loss)", "loss.append(float(step))")
    write(tmp_path, {"losses.py": numbers})
    [site] = [s for s in analyse_file(tmp_path / "train.py").callsites if "step" in s.work]
    assert site.work["flops_per_sample"].value is None
