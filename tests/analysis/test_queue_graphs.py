"""A TF1 graph built on an input queue's batch (queues.py) and of slim's layers (slim.py): a session run fed
nothing reads the queue's batch, each op of the graph priced on the element's static shape; a shape only a
file states leaves the graph a floor."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_source


def runs(code: str) -> dict[int, dict]:
    result = analyse_source(textwrap.dedent(code).lstrip("\n"), "train.py")
    assert result.errors == []
    return {s.span.line: s.work for s in result.callsites if "step" in s.work}


QUEUE = """
import argparse
import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=16)
a = parser.parse_args()
queue = tf.train.string_input_producer(paths)
_, contents = tf.WholeFileReader().read(queue)
image = tf.image.decode_png(contents, channels=3)
image.set_shape([64, 64, 3])
images, labels = tf.train.shuffle_batch([image, label], batch_size=a.batch_size, capacity=100, min_after_dequeue=10)
x = tf.to_float(images)
logits = tf.layers.dense(tf.layers.flatten(x), 10)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train_op = tf.train.AdamOptimizer().minimize(loss)
with tf.Session() as sess:
    for step in range(1000):
        sess.run(train_op)
"""
#: the cast, the dense layer on the 64x64x3 image, the loss over the 10 classes and its mean.
QUEUE_FORWARD = 64 * 64 * 3 + 2 * 64 * 64 * 3 * 10 + 10 + 1


def test_a_run_fed_nothing_reads_the_queue_batch_of_the_element_shape():
    train = runs(QUEUE)[19]
    assert train["step"].value == "training"
    assert train["samples"].value == 16 and "queue" in train["samples"].note
    assert train["flops_per_sample"].value == QUEUE_FORWARD and train["flops_per_sample"].bound is None


def test_an_element_the_code_gives_no_shape_leaves_the_graph_a_floor():
    """BEGAN sets its images' shape from the first file's size (`shape = [h, w, 3]` from PIL): the sides
    unknown, the dense layer's work is; the batch is still the queue's."""
    train = runs(QUEUE.replace("[64, 64, 3]", "[h, w, 3]"))[19]
    assert train["samples"].value == 16
    assert train["flops_per_sample"].value is None
    unset = runs(QUEUE.replace("image.set_shape([64, 64, 3])\n", ""))[18]
    assert unset["flops_per_sample"].value is None and unset["samples"].value == 16


def test_a_batch_of_a_size_not_known_leaves_the_samples_unknown():
    train = runs(QUEUE.replace("batch_size=a.batch_size", "batch_size=size"))[19]
    assert train["samples"].value is None
    assert train["flops_per_sample"].value == QUEUE_FORWARD


def test_a_feed_sets_the_samples_over_the_queue():
    fed = "sess.run(train_op, feed_dict={images: np.zeros((8, 64, 64, 3))})"
    train = runs(QUEUE.replace("sess.run(train_op)", fed))[19]
    assert train["samples"].value == 8


def test_a_placeholder_of_literal_batch_is_the_batch_of_a_run_fed_arrays_not_known():
    code = """
    import tensorflow as tf
    x = tf.placeholder(tf.float32, [32, 100])
    y = tf.placeholder(tf.float32, [None, 100])
    with tf.Session() as sess:
        sess.run(tf.nn.relu(x), feed_dict=feed)
        sess.run(tf.nn.relu(y), feed_dict=feed)
    """
    found = runs(code)
    assert found[5]["samples"].value == 32
    assert found[6]["samples"].value is None


ITERATOR = """
import numpy as np
import tensorflow as tf
x = np.zeros((1000, 784), dtype=np.float32)
ds = tf.data.Dataset.from_tensor_slices(x).shuffle(1000).repeat().batch(50)
features = tf.data.make_one_shot_iterator(ds).get_next()
loss = tf.reduce_mean(tf.layers.dense(features, 10))
train_op = tf.train.AdamOptimizer().minimize(loss)
with tf.Session() as sess:
    for step in range(1000):
        sess.run(train_op)
"""


def test_an_iterator_over_a_pipeline_of_known_elements_gives_its_batch_and_shape():
    for code in (ITERATOR, ITERATOR.replace("tf.data.make_one_shot_iterator(ds)", "ds.make_initializable_iterator()")):
        train = runs(code)[10]
        assert train["samples"].value == 50
        assert train["flops_per_sample"].value == 2 * 784 * 10 + 10


def test_an_iterator_over_tuples_gives_each_part_of_its_shape_and_the_batch():
    """`images, labels = iterator.get_next()` over `from_tensor_slices((x, y))`: each part a batch of its own
    shape; a `map` since leaves the parts unknown (what it returns is not read here)."""
    code = ITERATOR.replace("from_tensor_slices(x)", "from_tensor_slices((x, np.zeros((1000,), dtype=np.int64)))")
    code = code.replace("features = ", "features, labels = ")
    train = runs(code)[10]
    assert train["samples"].value == 50
    assert train["flops_per_sample"].value == 2 * 784 * 10 + 10 and train["flops_per_sample"].bound is None
    mapped = runs(code.replace(".shuffle(1000)", ".map(parse)"))[10]
    assert mapped["flops_per_sample"].value is None


#: A pipeline of records mapped by a function of the file returning a pair, unpacked from the iterator.
PARSED = ITERATOR.replace("x = np.zeros", "def parse(record):\n    return tf.io.decode_raw(record, tf.uint8), record\nx = np.zeros")
PARSED = PARSED.replace(".shuffle(1000)", ".map(parse)").replace("features = ", "features, labels = ")


def test_an_iterator_over_a_map_returning_a_tuple_gives_its_parts_of_the_batch():
    """`map(parse)` where every return of `parse` is a literal pair: `images, labels = it.get_next()` is a
    pair of tensors of the pipeline's batch, their shapes unknown (what `parse` computes is not followed)."""
    for code in (PARSED, PARSED.replace(".map(parse)", ".map(lambda r: (tf.io.decode_raw(r, tf.uint8), r))")):
        train = runs(code)[12 if "def parse" in code else 10]
        assert train["samples"].value == 50 and train["flops_per_sample"].value is None


def test_a_map_returning_a_name_or_tuples_of_two_lengths_leaves_the_parts_unknown():
    """A name may hold a tuple of any length, and two returns of different lengths say no one arity."""
    held = PARSED.replace("    return tf.io.decode_raw(record, tf.uint8), record",
                          "    pair = tf.io.decode_raw(record, tf.uint8), record\n    return pair")
    assert runs(held)[13]["samples"].value is None
    two = PARSED.replace("    return tf.io.decode_raw(record, tf.uint8), record",
                         "    if flag:\n        return record, record, record\n    return record, record")
    assert runs(two)[14]["samples"].value is None


def test_apply_of_map_and_batch_is_a_map_then_a_batch():
    """`ds.apply(tf.data.experimental.map_and_batch(parse, 50))` (TF 1.x's fused transformation): the batch
    of 50 of the pairs `parse` returns; a batch size not known leaves the samples unknown."""
    code = PARSED.replace(".map(parse).repeat().batch(50)", ".repeat().apply(tf.data.experimental.map_and_batch(parse, 50))")
    assert runs(code)[12]["samples"].value == 50
    assert runs(code.replace("map_and_batch(parse, 50)", "map_and_batch(parse, n)"))[12]["samples"].value is None


def test_an_iterator_over_elements_of_unknown_shape_is_a_floor():
    train = runs(ITERATOR.replace("from_tensor_slices(x)", "from_tensor_slices((x, y))"))[10]
    assert train["samples"].value == 50 and train["flops_per_sample"].value is None  # a dense layer on the tuple
    train = runs(ITERATOR.replace("np.zeros((1000, 784), dtype=np.float32)", "np.load(path)"))[10]
    assert train["flops_per_sample"].value is None


SLIM = """
import tensorflow as tf
import tensorflow.contrib.slim as slim

x = tf.placeholder(tf.float32, [None, 32, 32, 3])
with slim.arg_scope([slim.conv2d], padding="VALID", stride=2):
    h = slim.conv2d(x, 16, [3, 3])
    p = slim.max_pool2d(h, [2, 2])
h2 = slim.conv2d(x, 16, 3)
logits = slim.fully_connected(slim.flatten(p), 10, activation_fn=None)
with tf.Session() as sess:
    sess.run(logits, feed_dict={x: xs})
    sess.run(h2, feed_dict={x: xs})
"""


def test_slim_layers_are_priced_as_their_keras_twins_under_arg_scope_defaults():
    found = runs(SLIM)
    # VALID, stride 2 from the scope: 15x15x16 outputs, each a 3x3x3 window, its ReLU; the 2x2 pool (stride 2,
    # slim's default) to 7x7x16; the dense layer on its 784 values, no activation
    conv = 2 * 3 * 3 * 3 * 16 * 15 * 15 + 15 * 15 * 16
    pool = 7 * 7 * 16 * 4
    assert found[11]["flops_per_sample"].value == conv + pool + 2 * 784 * 10
    # outside the scope: slim's SAME padding and stride 1, 32x32x16 outputs
    assert found[12]["flops_per_sample"].value == 2 * 3 * 3 * 3 * 16 * 32 * 32 + 32 * 32 * 16


def test_a_slim_layer_whose_stride_or_layout_is_not_known_leaves_its_work_unknown():
    found = runs(SLIM.replace("h2 = slim.conv2d(x, 16, 3)", "h2 = slim.conv2d(x, 16, 3, stride=s)"))
    assert found[12]["flops_per_sample"].value is None
    found = runs(SLIM.replace('padding="VALID", stride=2', "data_format=layout"))
    assert found[11]["flops_per_sample"].value is None  # channels first or last: the layers after it of unknown shape too


def test_a_slim_layer_of_channels_first_is_priced_as_its_channels_last_twin():
    code = SLIM.replace("[None, 32, 32, 3]", "[None, 3, 32, 32]").replace("slim.conv2d(x, 16, 3)", 'slim.conv2d(x, 16, 3, data_format="NCHW")')
    assert runs(code)[12]["flops_per_sample"].value == 2 * 3 * 3 * 3 * 16 * 32 * 32 + 32 * 32 * 16


def test_a_scope_given_a_scope_and_a_network_called_in_it_use_its_defaults():
    code = SLIM.replace(
        'with slim.arg_scope([slim.conv2d], padding="VALID", stride=2):\n'
        "    h = slim.conv2d(x, 16, [3, 3])\n    p = slim.max_pool2d(h, [2, 2])\n",
        'def scope():\n    with slim.arg_scope([slim.conv2d], padding="VALID", stride=2) as sc:\n        return sc\n'
        "def net(x):\n    h = slim.conv2d(x, 16, [3, 3])\n    return slim.max_pool2d(h, [2, 2])\n"
        "with slim.arg_scope(scope()):\n    p = net(x)\n",
    )
    found = runs(code)
    conv = 2 * 3 * 3 * 3 * 16 * 15 * 15 + 15 * 15 * 16
    assert found[16]["flops_per_sample"].value == conv + 7 * 7 * 16 * 4 + 2 * 784 * 10


def test_an_update_applying_computed_gradients_trains_the_graph_of_their_loss():
    """pix2pix's `discrim_optim.apply_gradients(discrim_optim.compute_gradients(loss, var_list=tvars))`."""
    code = QUEUE.replace(
        "train_op = tf.train.AdamOptimizer().minimize(loss)",
        "opt = tf.train.AdamOptimizer()\ntrain_op = opt.apply_gradients(opt.compute_gradients(loss, var_list=tvars))",
    )
    train = runs(code)[20]
    assert train["step"].value == "training"
    assert train["samples"].value == 16 and train["flops_per_sample"].value == QUEUE_FORWARD
    clipped = code.replace("opt.compute_gradients(loss, var_list=tvars)", "clip(opt.compute_gradients(loss))")
    assert runs(clipped)[20]["flops_per_sample"].value is None  # gradients changed by code not followed


def test_a_queue_of_stated_shapes_dequeues_a_batch_of_them():
    """tensorflow-wavenet's `tf.PaddingFIFOQueue(size, ['float32'], shapes=[(None, 1)])`, `dequeue_many(n)`:
    the batch is n; a length the code leaves open leaves the work unknown."""
    code = """
    import tensorflow as tf
    audio = tf.PaddingFIFOQueue(32, ['float32'], shapes=[(None, 1)]).dequeue_many(4)
    x, y = tf.FIFOQueue(32, ['float32', 'int32'], shapes=[(784,), ()]).dequeue_many(8)
    free = tf.FIFOQueue(32, ['float32']).dequeue_many(8)
    with tf.Session() as sess:
        sess.run(tf.reduce_mean(audio))
        sess.run(tf.layers.dense(x, 10))
        sess.run(tf.reduce_mean(free))
    """
    found = runs(code)
    assert found[6]["samples"].value == 4 and found[6]["flops_per_sample"].value is None
    assert found[7]["samples"].value == 8 and found[7]["flops_per_sample"].value == 2 * 784 * 10
    assert found[8]["samples"].value is None


def test_paths_reading_batches_of_other_sizes_join_with_their_batch_unknown():
    code = """
    import tensorflow as tf
    small = tf.placeholder(tf.float32, [16, 100])
    large = tf.placeholder(tf.float32, [64, 100])
    def build(other):
        if flag:
            return tf.nn.relu(small)
        return tf.nn.relu(other)
    with tf.Session() as sess:
        sess.run(build(large), feed_dict=feed)
        sess.run(build(small), feed_dict=feed)
    """
    found = runs(code)
    assert found[9]["samples"].value is None
    assert found[10]["samples"].value == 16


def test_a_static_shape_set_is_no_feature_of_the_calls_on_the_tensor():
    code = QUEUE.replace("image.set_shape([64, 64, 3])\n", "image.set_shape([64, 64, 3])\nimage.get_shape()\n")
    result = analyse_source(textwrap.dedent(code).lstrip("\n"), "train.py")
    get_shape = next(s for s in result.callsites if s.api == "tensorflow.Tensor.get_shape")
    assert get_shape.features["receiver"] == "factory" and "static_shape" not in get_shape.features


def test_a_slim_batch_norm_keeps_the_graph_its_shape_and_adds_its_work():
    found = runs(SLIM.replace("h2 = slim.conv2d(x, 16, 3)", "h2 = slim.conv2d(slim.batch_norm(x), 16, 3)"))
    # one FLOP per element normalised (symops.NORMALISATIONS), then the convolution as outside the scope
    assert found[12]["flops_per_sample"].value == 32 * 32 * 3 + 2 * 3 * 3 * 3 * 16 * 32 * 32 + 32 * 32 * 16


DECODED = """
import argparse
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--scale_size", type=int, default=286)
parser.add_argument("--gray", action="store_true")
a = parser.parse_args()


def preprocess(image):
    with tf.name_scope("preprocess"):
        return image * 2 - 1


def transform(image):
    r = tf.image.random_flip_left_right(image)
    r = tf.image.resize_images(r, [a.scale_size, a.scale_size], method=tf.image.ResizeMethod.AREA)
    return tf.image.crop_to_bounding_box(r, 0, 0, 256, 256)


_, contents = tf.WholeFileReader().read(tf.train.string_input_producer(paths))
raw = tf.identity(tf.image.decode_png(contents))
raw.set_shape([None, None, 3])
width = tf.shape(raw)[1]
if a.gray:
    half = tf.image.rgb_to_grayscale(raw[:, :width // 2, :])
else:
    half = preprocess(raw[:, :width // 2, :])
images = tf.train.batch([transform(half)], batch_size=4)
logits = tf.layers.conv2d(images, 8, kernel_size=4, strides=(2, 2), padding="same")
train_op = tf.train.AdamOptimizer().minimize(tf.reduce_mean(logits))
with tf.Session() as sess:
    for step in range(1000):
        sess.run(train_op)
"""
#: the 4x4 convolution from 256x256x3 to 128x128x8 and the mean of its outputs.
DECODED_FORWARD = 2 * 4 * 4 * 3 * 8 * 128 * 128 + 128 * 128 * 8


def test_an_element_keeps_the_static_shape_tf_infers_through_slices_resizes_and_crops():
    """pix2pix: the decoded image's channels from `set_shape`, its half taken and scaled to [-1, 1], resized
    to the option's literal size and cropped to 256x256: the batch's per-sample shape, so the graph on it is
    priced (the switch `--gray`, argparse's False, takes the branch that keeps the channels)."""
    train = runs(DECODED)[34]
    assert train["samples"].value == 4
    assert train["flops_per_sample"].value == DECODED_FORWARD and train["flops_per_sample"].bound is None
    cropped = DECODED.replace("return tf.image.crop_to_bounding_box(r, 0, 0, 256, 256)", "return r")
    assert runs(cropped)[34]["flops_per_sample"].value == 2 * 4 * 4 * 3 * 8 * 143 * 143 + 143 * 143 * 8
    cropped = DECODED.replace("tf.image.crop_to_bounding_box(r, 0, 0, 256, 256)", "tf.random_crop(r, [200, 200, 3])")
    assert runs(cropped)[34]["flops_per_sample"].value == 2 * 4 * 4 * 3 * 8 * 100 * 100 + 100 * 100 * 8


def test_image_ops_the_catalog_gives_no_return_type_keep_the_static_shape():
    """pix2pix converts the decoded image to float32 before `set_shape` (and others adjust its brightness):
    `convert_image_dtype` and `random_brightness` return one tensor of their input's shape, though the
    catalog states no return type for them; the graph on the batch is priced as without them."""
    converted = DECODED.replace("tf.identity(tf.image.decode_png(contents))",
                                "tf.identity(tf.image.convert_image_dtype(tf.image.decode_png(contents), tf.float32))")
    assert runs(converted)[34]["flops_per_sample"].value == DECODED_FORWARD
    brightened = DECODED.replace("r = tf.image.random_flip_left_right(image)",
                                 "r = tf.image.random_brightness(tf.image.random_flip_left_right(image), 0.2)")
    assert runs(brightened)[34]["flops_per_sample"].value == DECODED_FORWARD


def test_an_element_whose_size_or_channels_the_code_does_not_state_leaves_the_graph_a_floor():
    for unknown in (DECODED.replace("[a.scale_size, a.scale_size]", "[a.scale_size, side]").replace(
                        "return tf.image.crop_to_bounding_box(r, 0, 0, 256, 256)", "return r"),
                    DECODED.replace("raw.set_shape([None, None, 3])", "raw.set_shape(shape)"),
                    DECODED.replace("preprocess(raw[:, :width // 2, :])", "preprocess(raw[:, :width // 2, :]) * mask"),
                    DECODED.replace('parser.add_argument("--gray", action="store_true")',
                                    'parser.add_argument("--gray", action="store_false")')):
        train = runs(unknown)[34]
        assert train["samples"].value == 4
        assert train["flops_per_sample"].value is None


def saved(code: str) -> dict[int, dict]:
    result = analyse_source(textwrap.dedent(code).lstrip("\n"), "train.py")
    return {s.span.line: s.work for s in result.callsites if s.api.endswith("Saver.save")}


SAVED = DECODED.replace("with tf.Session() as sess:", "saver = tf.train.Saver()\nwith tf.Session() as sess:").replace(
    "        sess.run(train_op)", "        sess.run(train_op)\n        saver.save(sess, 'ckpt', global_step=step)"
)


def test_a_graph_of_known_ops_has_its_weights_and_a_saver_writes_at_least_them():
    """The convolution's 4x4x3x8 kernel and 8 biases: the weights a training step reads and updates, which a
    Saver given no `var_list` (built after the graph) writes at least, with the optimizer's slots besides."""
    train = runs(SAVED)[35]
    assert train["params"].value == 4 * 4 * 3 * 8 + 8 and train["params"].bound is None
    save = saved(SAVED)[36]
    assert save["params"].value == 4 * 4 * 3 * 8 + 8 and save["params"].bound == "lower"


def test_a_saver_writes_the_slots_the_optimizer_keeps_for_each_weight_it_trains():
    """`AdamOptimizer().minimize(loss)` trains every variable the loss reaches and keeps two moments for
    each, which the Saver writes with them; gradient descent keeps none, and a `minimize` given a
    `var_list`, or an optimizer not known, leaves the slots unknown."""
    assert saved(SAVED)[36]["optimizer_slots"].value == 2
    plain = SAVED.replace("tf.train.AdamOptimizer()", "tf.train.GradientDescentOptimizer(0.1)")
    assert saved(plain)[36]["optimizer_slots"].value == 0
    for other in ("tf.train.AdamOptimizer().minimize(tf.reduce_mean(logits), var_list=g_vars)",
                  "make_optimizer().minimize(tf.reduce_mean(logits))"):
        some = saved(SAVED.replace("tf.train.AdamOptimizer().minimize(tf.reduce_mean(logits))", other))[36]
        assert "optimizer_slots" not in some


def test_a_graph_of_an_unknown_op_or_a_saver_of_some_variables_has_no_weights():
    unknown = SAVED.replace("train_op = tf.train.AdamOptimizer().minimize(tf.reduce_mean(logits))",
                            "train_op = tf.train.AdamOptimizer().minimize(tf.reduce_mean(tf.nn.local_response_normalization(logits)))")
    assert "params" not in runs(unknown)[35] and "params" not in saved(unknown)[36]
    for saver in ("tf.train.Saver(var_list=g_vars)", "tf.train.Saver(g_vars)"):
        assert "params" not in saved(SAVED.replace("tf.train.Saver()", saver))[36]
    early = SAVED.replace("saver = tf.train.Saver()\n", "").replace("_, contents =", "saver = tf.train.Saver()\n_, contents =")
    assert "params" in runs(early)[35] and "params" not in saved(early)[36]


SKIPS = """
import tensorflow as tf

def build(x):
    h = tf.layers.conv2d(x, 8, 3, padding="same")
    layers = [h]
    for filters in (8, 16):
        h = tf.layers.conv2d(layers[-1], filters, 3, padding="same")
        APPEND
    merged = tf.concat([layers[-1], layers[len(layers) - 3]], axis=3)
    return merged

queue = tf.train.string_input_producer(paths)
_, contents = tf.WholeFileReader().read(queue)
image = tf.image.decode_png(contents, channels=3)
image.set_shape([32, 32, 3])
images, labels = tf.train.batch([image, label], batch_size=4)
logits = tf.layers.dense(tf.layers.flatten(build(tf.to_float(images))), 10)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train_op = tf.train.AdamOptimizer().minimize(loss)
with tf.Session() as sess:
    sess.run(train_op)
"""


def test_len_of_the_tensors_a_loop_appended_indexes_the_skip_it_concatenates():
    """pix2pix's U-Net: `layers[len(layers) - 3]` of the list its encoder's loop of known trips appended is
    its first layer, so the concatenation, and the graph after it, are priced as `layers[0]` is."""
    (train,) = runs(SKIPS.replace("APPEND", "layers.append(h)")).values()
    (literal,) = runs(SKIPS.replace("APPEND", "layers.append(h)").replace("len(layers) - 3", "0")).values()
    assert train["flops_per_sample"].bound is None and train["flops_per_sample"].value == literal["flops_per_sample"].value


def test_len_of_tensors_appended_on_a_branch_not_known_stays_unknown():
    (train,) = runs(SKIPS.replace("APPEND", "if deep:\n            layers.append(h)")).values()
    assert train["flops_per_sample"].bound == "lower" or train["flops_per_sample"].value is None


def test_a_slim_layer_given_a_dict_not_known_is_not_priced_at_its_defaults():
    """`slim.conv2d(x, 16, 3, **options)` of options not known may set any stride or padding: that layer's
    work is unknown; a dict the code shows is read as its keywords."""
    unknown = runs(SLIM.replace("h2 = slim.conv2d(x, 16, 3)", "h2 = slim.conv2d(x, 16, 3, **options)"))[12]
    assert unknown["flops_per_sample"].value is None
    shown = runs(SLIM.replace("h2 = slim.conv2d(x, 16, 3)", 'h2 = slim.conv2d(x, 16, 3, **{"stride": 2})'))[12]
    assert shown["flops_per_sample"].value == 2 * 3 * 3 * 3 * 16 * 16 * 16 + 16 * 16 * 16
