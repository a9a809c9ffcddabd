"""The forward FLOPs of a TF1 graph a session runs, followed from its placeholders (symops.py): the
ops whose shapes the code shows, helpers of the project building them, and a lower bound where an
op's work is not known."""

from __future__ import annotations

import textwrap

from greenlint.analysis.analyse import analyse_file, analyse_source


def runs(code: str) -> dict[int, dict]:
    result = analyse_source(textwrap.dedent(code).lstrip("\n"), "train.py")
    assert result.errors == []
    return {s.span.line: s.work for s in result.callsites if "step" in s.work}


def trained(graph: str) -> str:
    """*graph* (indented, a `loss` built), then an Adam update of its loss run in a session, 10 steps."""
    return textwrap.dedent(graph).lstrip("\n") + (
        "train_op = tf.train.AdamOptimizer(0.001).minimize(loss)\n"
        "with tf.Session() as sess:\n    for i in range(10):\n        sess.run(train_op)\n"
    )


MLP = """
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.int64, [None])
w1 = tf.Variable(tf.random_normal([784, 256]))
b1 = tf.Variable(tf.zeros([256]))
hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
logits = tf.layers.dense(hidden, 10)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(0.001).minimize(loss)
with tf.Session() as sess:
    for i in range(1000):
        sess.run(train_op, feed_dict={x: xs, y: ys})
        sess.run(logits, feed_dict={x: xs})
        sess.run(tf.global_variables_initializer())
"""
#: matmul, bias, relu; the dense layer; the loss over the 10 classes, then its mean.
MLP_FORWARD = 2 * 784 * 256 + 256 + 256 + 2 * 256 * 10 + 10 + 1


def test_a_training_step_is_priced_from_the_forward_pass_of_the_loss_graph():
    found = runs(MLP)
    train = found[13]
    assert train["step"].value == "training"
    assert train["flops_per_sample"].value == MLP_FORWARD and train["flops_per_sample"].bound is None
    assert "from its placeholders" in train["flops_per_sample"].note


def test_a_run_fetching_a_tensor_counts_the_ops_it_is_computed_by_alone():
    found = runs(MLP)
    assert found[14]["step"].value == "inference"
    assert found[14]["flops_per_sample"].value == 2 * 784 * 256 + 256 + 256 + 2 * 256 * 10
    assert found[15]["flops_per_sample"].value is None  # the initializer: no placeholder behind it


def test_an_update_fetched_in_a_dict_or_grouped_is_a_training_step():
    code = MLP.replace(
        "        sess.run(train_op, feed_dict={x: xs, y: ys})\n",
        "        sess.run({'train': train_op, 'loss': loss}, feed_dict={x: xs, y: ys})\n"
        "        sess.run(fetches, feed_dict={x: xs, y: ys})\n"
        "        sess.run(tf.group(update_ops, train_op), feed_dict={x: xs, y: ys})\n"
        "        sess.run(tf.group([train_op]), feed_dict={x: xs, y: ys})\n"
        "        sess.run({'loss': loss}, feed_dict={x: xs, y: ys})\n"
        "        sess.run(tf.group(update_ops), feed_dict={x: xs, y: ys})\n",
    ).replace("with tf.Session()", "fetches = {'step': [train_op], 'loss': loss}\nwith tf.Session()")
    found = runs(code)
    for line in (14, 15, 16, 17):  # a dict display, a name bound to one (a list in it), a group, a group of a list
        assert found[line]["step"].value == "training", line
        assert found[line]["flops_per_sample"].value == MLP_FORWARD
    assert found[18]["step"].value == "inference"  # a dict of the loss alone: no update
    assert found[19]["step"].value == "inference"  # a group with no update in it


def test_an_op_built_under_control_dependencies_on_an_update_is_a_training_step():
    """BEGAN's `with tf.control_dependencies([d_optim, g_optim]): k_update = tf.assign(...)`, fetched
    alone: running it runs both updates first. An op built after the block, or under dependencies
    on no update (a model's batch-norm `update_ops`), is one run of its graph."""
    code = MLP.replace(
        "with tf.Session() as sess:",
        "k = tf.Variable(0.)\n"
        "with tf.control_dependencies([train_op, loss]):\n"
        "    k_update = tf.assign(k, k + loss)\n"
        "after = tf.assign(k, k + loss)\n"
        "with tf.control_dependencies(update_ops):\n"
        "    plain = tf.assign(k, k + loss)\n"
        "with tf.Session() as sess:",
    ).replace(
        "        sess.run(train_op, feed_dict={x: xs, y: ys})\n",
        "        sess.run({'k': k_update}, feed_dict={x: xs, y: ys})\n"
        "        sess.run(after, feed_dict={x: xs, y: ys})\n"
        "        sess.run(plain, feed_dict={x: xs, y: ys})\n",
    )
    found = runs(code)
    assert found[19]["step"].value == "training"
    assert found[19]["flops_per_sample"].value >= MLP_FORWARD  # the update's loss graph, and the assign's
    assert found[20]["step"].value == "inference"
    assert found[21]["step"].value == "inference"


def test_an_update_bound_on_either_path_of_an_if_stays_an_update():
    """gpt-2-simple's `opt_apply`: a gradient accumulator's `total_loss / count_loss`, built under its
    optimizer's update, on one path; `opt.apply_gradients(grads)` on the other. Either path's op runs
    an update, so a run fetching it is a training step; the graph it is computed by is the floor of
    the paths' where each is known. An update on one path and a loss on the other is one run of the graph."""
    code = MLP.replace(
        "with tf.Session() as sess:",
        "total = tf.Variable(0.)\n"
        "if accumulate > 1:\n"
        "    with tf.control_dependencies([train_op]):\n"
        "        opt_apply = total / 2.\n"
        "    either = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
        "    mixed = train_op\n"
        "else:\n"
        "    grads = tf.train.AdamOptimizer(0.001).compute_gradients(loss)\n"
        "    opt_apply = tf.train.AdamOptimizer(0.001).apply_gradients(grads)\n"
        "    either = tf.train.AdamOptimizer(0.001).minimize(loss)\n"
        "    mixed = loss\n"
        "after = total / 2.\n"
        "with tf.Session() as sess:",
    ).replace(
        "        sess.run(train_op, feed_dict={x: xs, y: ys})\n",
        "        sess.run(opt_apply, feed_dict={x: xs, y: ys})\n"
        "        sess.run(either, feed_dict={x: xs, y: ys})\n"
        "        sess.run(mixed, feed_dict={x: xs, y: ys})\n"
        "        sess.run(after, feed_dict={x: xs, y: ys})\n",
    )
    found = runs(code)
    assert found[25]["step"].value == "training"
    assert found[25]["flops_per_sample"].value == MLP_FORWARD  # the accumulator's op runs the update's loss graph
    assert found[26]["step"].value == "training"
    assert found[26]["flops_per_sample"].value == MLP_FORWARD  # both paths' loss graph
    assert found[27]["step"].value == "inference"
    assert found[28]["step"].value == "inference"  # built after the block: no update runs first


def test_an_update_returned_in_a_namedtuple_is_read_back_by_its_field(tmp_path):
    """pix2pix's `create_model` returns `Model(..., train=tf.group(...))`, a `collections.namedtuple`,
    and the loop fetches `model.train`: the field holds the update, also through a module's function;
    a field the construction did not give, or a record built from a spread of unknown items or with
    `rename`, stays unknown."""
    (tmp_path / "nets.py").write_text(textwrap.dedent("""
        import collections
        import tensorflow as tf

        Model = collections.namedtuple("Model", "loss, train")
        Renamed = collections.namedtuple("Renamed", ["loss", "train"], rename=True)

        def create_model(x, y):
            logits = tf.layers.dense(x, 10)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
            train = tf.train.AdamOptimizer(0.001).minimize(loss)
            return Model(loss=loss, train=tf.group(train))

        def create_spread(x, y):
            loss = tf.reduce_mean(tf.layers.dense(x, 10))
            return Model(*tf.train.AdamOptimizer(0.001).compute_gradients(loss))

        def create_renamed(x, y):
            loss = tf.reduce_mean(tf.layers.dense(x, 10))
            return Renamed(loss, tf.train.AdamOptimizer(0.001).minimize(loss))
        """).lstrip("\n"))
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        from collections import namedtuple
        from nets import create_model, create_spread, create_renamed

        Local = namedtuple("Local", "loss train")
        x = tf.placeholder(tf.float32, [None, 784])
        y = tf.placeholder(tf.int64, [None])
        model, spread, renamed = create_model(x, y), create_spread(x, y), create_renamed(x, y)
        loss = tf.reduce_mean(tf.layers.dense(x, 10))
        update = tf.train.AdamOptimizer(0.001).minimize(loss)
        local, partial = Local(loss, update), Local(loss)
        with tf.Session() as sess:
            for step in range(1000):
                sess.run({"train": model.train, "loss": model.loss}, feed_dict={x: xs, y: ys})
                sess.run(local.train, feed_dict={x: xs})
                sess.run(spread.train, feed_dict={x: xs})
                sess.run(renamed.train, feed_dict={x: xs})
                sess.run(partial.train, feed_dict={x: xs})
                sess.run(update, feed_dict={x: xs})
        """).lstrip("\n"))
    result = analyse_file(tmp_path / "train.py")
    found = {s.span.line: s.work for s in result.callsites if "step" in s.work}
    assert found[14]["step"].value == "training"  # through a function of another module
    assert found[15]["step"].value == "training"  # positional fields, a class of this module
    assert found[15]["flops_per_sample"] == found[19]["flops_per_sample"]  # the graph of the update itself
    assert found[15]["flops_per_sample"].value is not None
    for line in (16, 17, 18):  # spread, renamed, a field not given
        assert found[line]["step"].value == "inference", line


def test_an_op_of_unknown_work_on_the_path_leaves_a_lower_bound():
    code = MLP.replace("hidden = tf.nn.relu(tf.matmul(x, w1) + b1)",
                       "hidden = tf.nn.relu(tf.matmul(x, w1) + b1)\nhidden = tf.gather(hidden, [0, 1, 2])")
    train = runs(code)[14]["flops_per_sample"]
    assert train.bound == "lower" and "gather" in train.note
    assert train.value == 2 * 784 * 256 + 256 + 256  # the ops after the gather: their shapes unknown


def test_an_unknown_dimension_leaves_the_flops_unknown_not_guessed():
    code = MLP.replace("[None, 784]", "[None, n_features]").replace("[784, 256]", "[n_features, 256]")
    train = runs(code)[13]["flops_per_sample"]
    assert train.value is None and train.provenance == "unknown"
    code = MLP.replace("[784, 256]", "[n_features, 256]")  # the first product unknown, and so every shape after it
    train = runs(code)[13]["flops_per_sample"]
    assert train.value is None and "no op of known work" in train.note


def test_convolutions_reshapes_and_transposed_convolutions_of_literal_filters():
    found = runs("""
        import tensorflow as tf

        images = tf.placeholder(tf.float32, [64, 32, 32, 3])
        w = tf.get_variable("w", [5, 5, 3, 16])
        h = tf.nn.conv2d(images, w, strides=[1, 2, 2, 1], padding="SAME")
        flat = tf.reshape(h, [64, -1])
        back = tf.reshape(flat, [-1, 16, 16, 16])
        up = tf.nn.conv2d_transpose(back, tf.get_variable("u", [5, 5, 3, 16]), output_shape=[64, 32, 32, 3],
                                    strides=[1, 2, 2, 1])
        loss = tf.reduce_mean(tf.square(up - images))
        step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        sess = tf.Session()
        sess.run(step, {images: batch})
        """)
    conv = 16 * 16 * 16 * 2 * 5 * 5 * 3  # per output position: 2·k·c_in, 16 channels
    transposed = 16 * 16 * 2 * 5 * 5 * 16 * 3  # per input position: 2·k·c_in·c_out
    elementwise = 3 * 32 * 32 * 3  # the difference, its square, the mean's reads
    assert found[13]["flops_per_sample"].value == conv + transposed + elementwise


def test_keras_layers_applied_to_a_placeholder_join_its_graph():
    found = runs("""
        import tensorflow as tf

        x = tf.placeholder(tf.float32, shape=(None, 20))
        out = tf.keras.layers.Dense(5)(x)
        loss = tf.reduce_sum(out)
        opt = tf.train.AdamOptimizer().minimize(loss)
        with tf.Session() as s:
            s.run(opt, feed_dict={x: data})
        """)
    assert found[8]["flops_per_sample"].value == 2 * 20 * 5 + 5


def test_layer_helpers_of_another_module_add_their_ops_at_each_call(tmp_path):
    """dcgan's ops.py: a helper sizes its variable from its input's shape (`get_shape()[-1]`,
    `get_shape().as_list()`); each call on a symbolic tensor adds its own ops."""
    (tmp_path / "ops.py").write_text(textwrap.dedent("""
        import tensorflow as tf

        def conv2d(input_, output_dim, k=5, stride=2, name="conv2d"):
            with tf.variable_scope(name):
                w = tf.get_variable("w", [k, k, input_.get_shape()[-1], output_dim])
                return tf.nn.conv2d(input_, w, strides=[1, stride, stride, 1], padding="SAME")

        def linear(input_, output_size, scope=None):
            shape = input_.get_shape().as_list()
            matrix = tf.get_variable("Matrix", [shape[1], output_size], tf.float32)
            return tf.matmul(input_, matrix)
        """).lstrip("\n"))
    (tmp_path / "model.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        from ops import *

        images = tf.placeholder(tf.float32, [64, 32, 32, 3])
        h0 = conv2d(images, 64, name="h0")
        h1 = conv2d(h0, 128, name="h1")
        logit = linear(tf.reshape(h1, [64, -1]), 1)
        loss = tf.reduce_mean(logit)
        optim = tf.train.AdamOptimizer(0.0002).minimize(loss)
        sess = tf.Session()
        for step in range(100):
            sess.run(optim, feed_dict={images: batch})
        """).lstrip("\n"))
    result = analyse_file(tmp_path / "model.py")
    train = next(s for s in result.callsites if s.span.line == 12)
    first = 16 * 16 * 64 * 2 * 25 * 3
    second = 8 * 8 * 128 * 2 * 25 * 64
    assert train.work["flops_per_sample"].value == first + second + 2 * 8 * 8 * 128 + 1


def test_tensors_joined_along_a_sample_axis_keep_their_graphs():
    found = runs("""
        import tensorflow as tf

        a = tf.placeholder(tf.float32, [None, 8])
        b = tf.placeholder(tf.float32, [None, 4])
        joined = tf.concat([a, b], 1)
        out = tf.layers.dense(joined, joined.get_shape()[-1])
        loss = tf.reduce_mean(out)
        sess = tf.Session()
        sess.run(tf.train.AdamOptimizer().minimize(loss), {a: xa, b: xb})
        """)
    assert found[9]["flops_per_sample"].value == 2 * 12 * 12 + 12  # the dense on the 12 joined features


def test_summaries_fetched_with_the_step_and_an_accuracy_keep_the_graph_known():
    found = runs(MLP.replace("train_op = ", "summaries = tf.compat.v1.summary.scalar('loss', loss)\n"
                                           "correct = tf.nn.in_top_k(logits, y, 1)\n"
                                           "accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))\ntrain_op = ")
                 .replace("sess.run(train_op, ", "sess.run([train_op, summaries, accuracy], "))
    train = found[16]["flops_per_sample"]
    assert train.value == MLP_FORWARD + 1 + 10 + 1 + 1 and train.bound is None  # summary, top k, cast, mean


def test_one_predicate_tells_a_symbolic_tensor_and_no_module_writes_it_again():
    """`arrays.is_sym`: a Keras input's or a placeholder's value (meta "sym"), nothing else; the
    analysis' other modules ask it rather than test the meta themselves."""
    import re
    from pathlib import Path

    from greenlint.analysis import arrays
    from greenlint.analysis.values import Const, Inst, Seq

    sym = Inst("tensorflow.Tensor", "factory", {"sym": arrays.Sym((784,), (784,))})
    assert arrays.is_sym(sym)
    assert not any(map(arrays.is_sym, [Inst("tensorflow.Tensor", "factory", {"shape": (3,)}), Seq((sym,)),
                                       Const(1), None]))
    inline = re.compile(r"""["']sym["'] (?:not )?in \w+\.meta""")
    folder = Path(arrays.__file__).parent
    written = [p.name for p in folder.glob("*.py") if p.name != "arrays.py" and inline.search(p.read_text())]
    assert written == []
    assert inline.search((folder / "arrays.py").read_text())


def test_the_syms_of_a_value_are_known_only_where_every_item_is_symbolic():
    """`work.syms_of`: a call's inputs or a model's outputs, one tensor or a list."""
    from greenlint.analysis import arrays
    from greenlint.analysis.values import Const, Inst, Seq
    from greenlint.analysis.work import syms_of

    a, b = arrays.Sym((784,), (784,)), arrays.Sym((10,), (10,))
    x, y = (Inst("tensorflow.Tensor", "factory", {"sym": s}) for s in (a, b))
    assert syms_of(x) == [a] and syms_of(Seq((x, y))) == [a, b]
    assert syms_of(Seq((x, Const(1)))) is None and syms_of(Seq(())) is None and syms_of(None) is None


def test_a_one_or_many_argument_is_read_by_one_function():
    """`values.items_of`: a list display's items, any other value alone; no analysis module writes
    the test again."""
    import re
    from pathlib import Path

    from greenlint.analysis import values
    from greenlint.analysis.values import Const, Seq, items_of

    x, y = Const(1), Const(2)
    assert items_of(Seq((x, y))) == (x, y) and items_of(x) == (x,) and items_of(Seq(())) == ()
    inline = re.compile(r"(\w+)\.items if type\(\1\) is Seq else \(\1,\)")
    folder = Path(values.__file__).parent
    assert [p.name for p in folder.glob("*.py") if p.name != "values.py" and inline.search(p.read_text())] == []


def test_a_dcgan_generator_is_sized_through_its_helpers_and_the_sizes_it_computes(tmp_path):
    """dcgan-tensorflow's shape: a size helper of one `return` called with several literal sizes
    (`math.ceil`), a batch-norm object of another module called on each tensor, a transposed
    convolution written with TensorFlow 0.x's fallback, reshaped to its own `get_shape()`; the model
    class built by the script beside it, whose flag of None defaults to another flag's value, and its
    method named again only in a graph's scope name."""
    (tmp_path / "ops.py").write_text(textwrap.dedent("""
        import tensorflow as tf

        if "concat_v2" in dir(tf):
            def concat(tensors, axis):
                return tf.concat_v2(tensors, axis)
        else:
            def concat(tensors, axis):
                return tf.concat(tensors, axis)

        class batch_norm(object):
            def __init__(self, name="batch_norm"):
                self.name = name

            def __call__(self, x, train=True):
                return tf.contrib.layers.batch_norm(x, scale=True, is_training=train, scope=self.name)

        def deconv2d(input_, output_shape, k=5, name="deconv2d", with_w=False):
            with tf.variable_scope(name):
                w = tf.get_variable("w", [k, k, output_shape[-1], input_.get_shape()[-1]])
                try:
                    deconv = tf.nn.conv2d_transpose(input_, w, output_shape=output_shape, strides=[1, 2, 2, 1])
                except AttributeError:
                    deconv = tf.nn.deconv2d(input_, w, output_shape=output_shape, strides=[1, 2, 2, 1])
                deconv = tf.reshape(deconv, deconv.get_shape())
                if with_w:
                    return deconv, w
                return deconv
        """).lstrip("\n"))
    (tmp_path / "model.py").write_text(textwrap.dedent("""
        import math
        import tensorflow as tf
        from ops import *

        def size_after(size, stride):
            return int(math.ceil(float(size) / float(stride)))

        class GAN:
            def __init__(self, sess, height=64, width=64):
                self.sess, self.height, self.width = sess, height, width
                self.g_bn = batch_norm(name="g_bn")
                self.z = tf.placeholder(tf.float32, [64, 4, 4, 128])
                self.loss = tf.reduce_mean(self.generator(self.z))

            def generator(self, z):
                with tf.variable_scope("generator"):
                    h, w = size_after(self.height, 2), size_after(self.width, 2)
                    self.h1, self.w1 = deconv2d(concat([z, z], 3), [64, 8, 8, 64], name="g_h1", with_w=True)
                    return deconv2d(self.g_bn(self.h1), [64, h, w, 3], name="g_h2")

            def train(self):
                op = tf.train.AdamOptimizer(0.0002).minimize(self.loss)
                for step in range(100):
                    self.sess.run(op, feed_dict={self.z: batch})
        """).lstrip("\n"))
    (tmp_path / "main.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        from model import GAN

        flags = tf.app.flags
        flags.DEFINE_integer("height", 64, "output height")
        flags.DEFINE_integer("width", None, "output width: the height where None")
        FLAGS = flags.FLAGS
        if FLAGS.width is None:
            FLAGS.width = FLAGS.height
        with tf.Session() as sess:
            GAN(sess, height=FLAGS.height, width=FLAGS.width).train()
        """).lstrip("\n"))
    result = analyse_file(tmp_path / "model.py")
    train = next(s for s in result.callsites if s.api.endswith("Session.run"))
    first = 4 * 4 * 256 * 2 * 25 * 64  # each 4x4 position of the concat's 256 channels spreads to 5x5x64
    second = 8 * 8 * 64 * 2 * 25 * 3  # each 8x8 position of 64 channels to 5x5x3 (32x32x3: `size_after`)
    normalised, mean = 8 * 8 * 64, 32 * 32 * 3
    assert train.work["flops_per_sample"].value == first + second + normalised + mean


def test_tensorflow_0_fallbacks_take_the_branch_the_catalogs_tensorflow_runs():
    """`hasattr(tf, "concat_v2")` and `except AttributeError:` around a call the catalog's TF has: the
    branch and the body that TF runs, not a merge with TensorFlow 0.x's names (unknown there)."""
    code = """
        import tensorflow as tf

        x = tf.placeholder(tf.float32, [None, 100])
        if hasattr(tf, "concat_v2"):
            joined = tf.concat_v2([x, x], 1)
        else:
            joined = tf.concat([x, x], 1)
        try:
            h = tf.layers.dense(joined, 10)
        except AttributeError:
            h = tf.contrib.layers.fully_connected(joined, 10)
        op = tf.train.AdamOptimizer().minimize(tf.reduce_mean(h))
        with tf.Session() as s:
            s.run(op, feed_dict={x: data})
        """
    assert runs(code)[14]["flops_per_sample"].value == 2 * 200 * 10 + 10  # the dense layer on the 200 joined
    merged = code.replace('hasattr(tf, "concat_v2")', "flag")
    assert runs(merged)[14]["flops_per_sample"].value is None  # either branch may run: unknown


CONVNET = """
import tensorflow as tf

def conv(x, filters, name):
    with tf.variable_scope(name):
        w = tf.get_variable("w", [3, 3, x.get_shape()[-1], filters])
        return tf.nn.relu(tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME"))

images = tf.placeholder(tf.float32, [None, 32, 32, {channels}])
h = conv(images, {filters}, "c1")
h = conv(h, {filters}, "c2")
loss = tf.reduce_mean(h)
step = tf.train.AdamOptimizer().minimize(loss)
with tf.Session() as sess:
    for i in range(100):
        sess.run(step, feed_dict={{images: batch}})
"""


def test_a_tf1_convnet_s_run_follows_the_size_of_its_filters():
    """A session's run of two 3x3 convolutions over `tf.get_variable` weights: its FLOPs are the
    convolutions' (and the relus' and the mean's), and doubling the filters of both layers doubles
    the first's and quadruples the second's."""
    def forward(filters: int) -> int:
        first, second = 32 * 32 * filters * 2 * 9 * 3, 32 * 32 * filters * 2 * 9 * filters
        return first + second + 3 * 32 * 32 * filters  # two relus and the mean's reads

    small = runs(CONVNET.format(channels=3, filters=16))[15]["flops_per_sample"]
    large = runs(CONVNET.format(channels=3, filters=32))[15]["flops_per_sample"]
    assert small.value == forward(16) and small.bound is None
    assert large.value == forward(32) and large.bound is None
    assert 3 < large.value / small.value < 4


def test_a_channel_count_the_code_does_not_show_leaves_that_layer_unknown_and_the_rest_counted():
    """`[None, 32, 32] + [channels]` of channels read from the data: the placeholder keeps its known
    sides, the first convolution its output's shape (its FLOPs unknown), the second is counted in full:
    a lower bound, not a guess of the channels."""
    code = CONVNET.format(channels="channels", filters=16).replace("[None, 32, 32, channels]",
                                                                     "[None, 32, 32] + [channels]")
    train = runs("channels = data.shape[-1]\n" + code)[17]["flops_per_sample"]
    assert train.value == 32 * 32 * 16 * 2 * 9 * 16 + 3 * 32 * 32 * 16 and train.bound == "lower"
    assert "FLOPs of some layers unknown" in train.note


def test_a_helper_whose_ops_are_not_followed_leaves_the_run_a_floor():
    """A block of another library (not installed, not read) on the graph's path: its work is not known,
    so the run's FLOPs are those of the ops known, a lower bound naming it, never a guess; with nothing
    known before it, unknown."""
    code = CONVNET.format(channels=3, filters=16).replace('h = conv(h, 16, "c2")', 'h = residual_block(h, 16)')
    train = runs("from blocks import residual_block\n" + code)[17]["flops_per_sample"]
    assert train.value == 32 * 32 * 16 * 2 * 9 * 3 + 32 * 32 * 16 and train.bound == "lower"  # the first conv, its relu
    assert "residual_block" in train.note
    first = code.replace('h = conv(images, 16, "c1")', "h = images").replace("tf.reduce_mean(h)", "h")
    assert runs("from blocks import residual_block\n" + first)[17]["flops_per_sample"].value is None


def test_either_path_of_a_builder_counts_the_lesser_graph_as_a_floor():
    """`if conditional: ... return tf.nn.sigmoid(h)` / `else: ... return tf.nn.tanh(h)` of a test not
    known (dcgan's generator, with or without labels): the program builds one graph; its run is at
    least the lighter path's forward pass, said so, and the graph built on the join goes on being
    followed; with the test known, the path taken alone."""
    code = """
        import tensorflow as tf

        def generator(z, conditional):
            if conditional:
                h = tf.layers.dense(z, 64)
                return tf.nn.sigmoid(tf.layers.dense(h, 256))
            else:
                return tf.nn.tanh(tf.layers.dense(z, 256))

        z = tf.placeholder(tf.float32, [None, 100])
        fake = generator(z, FLAG)
        loss = tf.reduce_mean(tf.layers.dense(fake, 1))
        step = tf.train.AdamOptimizer().minimize(loss)
        sess = tf.Session()
        sess.run(step, {z: noise})
        """
    after = 2 * 256 * 1 + 1  # the dense on the joined 256 features, its mean
    conditional, plain = 2 * 100 * 64 + 2 * 64 * 256 + 256, 2 * 100 * 256 + 256  # each path's denses and activation
    train = runs(code)[15]["flops_per_sample"]
    assert train.value == min(conditional, plain) + after and train.bound == "lower"
    assert "one of several paths" in train.note
    taken = runs(code.replace("fake = generator(z, FLAG)", "fake = generator(z, False)"))[15]["flops_per_sample"]
    assert taken.value == plain + after and taken.bound is None


def test_padding_and_a_transposed_convolution_of_unknown_output_channels_keep_the_shapes():
    """`tf.pad` grows the sides it pads; a transposed convolution told `[batch, 16, 16, c_dim]` of a
    channel count not known gives those sides, its FLOPs unknown; a reshape to sizes the code does not
    all show keeps those it shows."""
    found = runs("""
        import tensorflow as tf

        x = tf.placeholder(tf.float32, [None, 8, 8, 32])
        p = tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
        w = tf.get_variable("w", [3, 3, 32, 64])
        h = tf.nn.conv2d(p, w, strides=[1, 1, 1, 1], padding="VALID")
        up = tf.nn.conv2d_transpose(h, u, output_shape=[64, 16, 16, c_dim], strides=[1, 2, 2, 1])
        flat = tf.reshape(up, [64, 16, 16 * c_dim])
        loss = tf.reduce_mean(tf.layers.dense(flat, 4))
        sess = tf.Session()
        sess.run(tf.train.AdamOptimizer().minimize(loss), {x: batch})
        """)
    train = found[11]["flops_per_sample"]
    # the convolution on the padded 10x10, the mean of the dense's 16x4 outputs (its own FLOPs unknown)
    assert train.value == 8 * 8 * 64 * 2 * 9 * 32 + 16 * 4 and train.bound == "lower"


def test_a_label_map_broadcast_over_the_features_keeps_their_sides():
    """A conditional GAN's `conv_cond_concat`: labels reshaped to `[batch, 1, 1, y_dim]` times
    `tf.ones([batch, h, w, y_dim])` broadcast to the features' sides, then concatenated on the channels:
    the convolution after it has its output shape, the one after that its FLOPs; a size clashing with
    another (a 3 against a 5) leaves the shape unknown."""
    code = """
        import tensorflow as tf

        x = tf.placeholder(tf.float32, [None, 16, 16, 8])
        y = tf.placeholder(tf.float32, [None, y_dim])
        yb = tf.reshape(y, [64, 1, 1, y_dim])
        s, t = x.get_shape(), yb.get_shape()
        h = tf.concat([x, yb * tf.ones([s[0], s[1], s[2], t[3]])], 3)
        w1 = tf.get_variable("w1", [3, 3, h.get_shape()[-1], 16])
        h = tf.nn.conv2d(h, w1, strides=[1, 1, 1, 1], padding="SAME")
        w2 = tf.get_variable("w2", [3, 3, 16, 16])
        h = tf.nn.conv2d(h, w2, strides=[1, 1, 1, 1], padding="SAME")
        step = tf.train.AdamOptimizer().minimize(tf.reduce_mean(h))
        sess = tf.Session()
        sess.run(step, {x: images, y: labels})
        """
    train = runs(code)[14]["flops_per_sample"]
    assert train.value == 16 * 16 * 16 * 2 * 9 * 16 + 16 * 16 * 16 and train.bound == "lower"
    clash = runs(code.replace("s[1], s[2]", "3, 5"))[14]["flops_per_sample"]
    assert clash.value is None


def test_a_layer_kept_on_self_by_a_method_walked_again_keeps_its_graph():
    """dcgan's `self.h0 = linear(z, ...)` then `tf.reshape(self.h0, ...)`: the method is walked again for
    each symbolic input it is given, setting the attribute again; the two settings are the same graph
    (no choice, no bound), not an attribute of unknown value."""
    found = runs("""
        import tensorflow as tf

        class Net:
            def __init__(self, sess, width=32):
                self.sess, self.width = sess, width
                self.x = tf.placeholder(tf.float32, [64, 784])
                self.loss = tf.reduce_mean(self.build(self.x))

            def build(self, x):
                self.h0 = tf.layers.dense(x, self.width)
                return tf.layers.dense(tf.nn.relu(self.h0), 10)

            def train(self):
                op = tf.train.AdamOptimizer().minimize(self.loss)
                for step in range(100):
                    self.sess.run(op, feed_dict={self.x: batch})

        with tf.Session() as sess:
            Net(sess).train()
        """)
    train = found[16]["flops_per_sample"]
    assert train.value == 2 * 784 * 32 + 32 + 2 * 32 * 10 + 10 and train.bound is None


NCHW = """
import tensorflow as tf
x = tf.placeholder(tf.float32, [8, {shape}])
w = tf.get_variable("w", [3, 3, 3, 32])
h = tf.nn.conv2d(x, w, {strides}, "SAME"{fmt})
h = tf.nn.max_pool(h, {strides}, {strides}, "VALID"{fmt})
h = tf.layers.conv2d(h, 16, 3, padding="same"{layer_fmt})
with tf.Session() as sess:
    sess.run(h, feed_dict=feed)
"""


def test_a_graph_of_channels_first_ops_costs_what_its_channels_last_twin_does():
    """`data_format="NCHW"`: the strides' 1s for the batch and the channels come first, and the channel axis
    is the first after the batch; read as channels last, the sides would be taken for channels."""
    last = runs(NCHW.format(shape="32, 32, 3", strides="[1, 2, 2, 1]", fmt="", layer_fmt=""))[8]
    first = runs(NCHW.format(shape="3, 32, 32", strides="[1, 1, 2, 2]", fmt=', data_format="NCHW"',
                             layer_fmt=', data_format="channels_first"'))[8]
    assert last["flops_per_sample"].value is not None and last["flops_per_sample"].bound is None
    assert first["flops_per_sample"].value == last["flops_per_sample"].value
    assert first["flops_per_sample"].bound is None


def test_a_data_format_the_code_does_not_state_leaves_the_layer_unknown():
    code = NCHW.format(shape="3, 32, 32", strides="[1, 1, 2, 2]", fmt=', data_format="NCHW"', layer_fmt=", data_format=fmt")
    flops = runs(code)[8]["flops_per_sample"]
    assert flops.value is None or flops.bound == "lower"


STRIDED = """
import tensorflow as tf

def block(x, stride, padding):
    return tf.reduce_mean(tf.layers.conv2d(x, 16, 3, strides=stride, padding=padding{extra}))

images = tf.placeholder(tf.float32, [None, 32, 32, 3])
loss = block(images, {stride}, {padding})
step = tf.train.AdamOptimizer().minimize(loss)
with tf.Session() as sess:
    sess.run(step, feed_dict={{images: batch}})
"""


def _strided(stride: str, padding: str = '"same"', extra: str = "", head: str = ""):
    (step,) = runs(head + STRIDED.format(stride=stride, padding=padding, extra=extra)).values()
    return step["flops_per_sample"]


def test_a_tf1_layer_s_option_given_as_a_known_variable_is_priced_at_its_value():
    """`tf.layers.conv2d(x, 16, 3, strides=stride)` of a parameter the caller gives 2 (or a module constant
    holding it): a stride of 2, as the literal, not the default 1."""
    halved = 2 * 3 * 3 * 3 * 16 * 16 * 16 + 16 * 16 * 16  # 16x16x16 outputs of 3x3x3 windows, the mean's reads
    assert _strided("2").value == halved and _strided("(2, 2)").value == halved
    assert _strided("STRIDE", head="STRIDE = [2, 2]\n").value == halved
    assert _strided("1").value == 2 * 3 * 3 * 3 * 16 * 32 * 32 + 32 * 32 * 16
    assert _strided("2", '"valid"').value == 2 * 3 * 3 * 3 * 16 * 15 * 15 + 15 * 15 * 16


def test_a_tf1_layer_s_option_given_as_a_value_not_known_leaves_its_flops_unknown():
    """A stride or padding the code does not show (an option of the command line not defined here, a
    `**dict` not known) is not the default's: the convolution's output sides and FLOPs are unknown."""
    assert _strided("FLAGS.stride").value is None
    assert _strided("2", "FLAGS.padding").value is None
    assert _strided("2", extra=", **options").value is None
    assert _strided("2", extra=', **{"dilation_rate": 1}').value == _strided("2").value  # a dict it shows


def test_a_tf1_layer_s_activation_adds_one_flop_per_output():
    """`activation=tf.nn.relu` is read as a Keras layer's (the same literal arguments): one FLOP per output
    element; none without."""
    outputs = 16 * 16 * 16
    assert _strided("2", extra=", activation=tf.nn.relu").value == _strided("2").value + outputs
    assert _strided("2", extra=", activation=None").value == _strided("2").value


def test_a_placeholder_whose_sides_two_paths_set_keeps_its_rank_batch_and_channels():
    code = """
    import tensorflow as tf

    def build(crop):
        if crop:
            image_dims = [64, 64, 3]
        else:
            image_dims = [108, 108, 3]
        images = tf.placeholder(tf.float32, [32] + image_dims)
        flat = tf.reshape(images, [32, -1])
        return tf.reduce_mean(tf.nn.conv2d(images, tf.Variable(tf.zeros([3, 3, 3, 8])), 1, "SAME")), flat

    loss, flat = build(FLAGS.crop)
    """
    step = runs(trained(code))[16]
    assert step["step"].value == "training"
    assert step["samples"].value == 32  # the placeholder's literal batch, which both paths give
    assert step["flops_per_sample"].value is None  # the convolution's sides differ between the paths: not known


def test_a_placeholder_whose_rank_two_paths_set_differently_stays_unknown():
    code = """
    import tensorflow as tf

    def build(gray):
        if gray:
            image_dims = [64, 64]
        else:
            image_dims = [64, 64, 3]
        images = tf.placeholder(tf.float32, [32] + image_dims)
        return tf.reduce_mean(images)

    loss = build(FLAGS.gray)
    """
    step = runs(trained(code))[15]
    assert step["samples"].value is None and step["flops_per_sample"].value is None


def test_contrib_instance_and_group_norms_keep_their_inputs_shape():
    """`tf.contrib.layers.instance_norm` (an image-to-image generator's normalisation, through an alias of
    `tf.contrib`) keeps its input's shape, one FLOP per element, so the convolution after it is counted."""
    code = """
    import tensorflow as tf
    import tensorflow.contrib as tf_contrib

    def norm(x, scope):
        return tf_contrib.layers.instance_norm(x, epsilon=1e-05, center=True, scale=True, scope=scope)

    x = tf.placeholder(tf.float32, [1, 32, 32, 3])
    h = norm(tf.layers.conv2d(x, 8, 3, padding="same"), "n1")
    h = tf.contrib.layers.group_norm(tf.layers.conv2d(h, 8, 3, padding="same"), groups=4)
    loss = tf.reduce_mean(h)
    """
    [step] = runs(trained(code)).values()
    convs = 32 * 32 * 8 * 2 * 9 * 3 + 32 * 32 * 8 * 2 * 9 * 8
    assert step["flops_per_sample"].value == convs + 2 * 32 * 32 * 8 + 32 * 32 * 8  # two norms, the mean
    assert step["flops_per_sample"].bound is None


def test_a_contrib_function_of_unknown_shape_is_not_taken_for_a_normalisation():
    code = """
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [1, 32, 32, 3])
    h = tf.contrib.layers.weight_norm(tf.layers.conv2d(x, 8, 3, padding="same"))
    loss = tf.reduce_mean(tf.layers.conv2d(h, 8, 3, padding="same"))
    """
    [step] = runs(trained(code)).values()
    assert step["flops_per_sample"].value is None  # `weight_norm` wraps a layer: not followed


def test_a_helpers_parity_test_of_its_arguments_takes_one_branch_for_each_call():
    """`if (kernel - stride) % 2 == 0:` in a convolution helper (a period's form, no step counter): for each
    call's literal arguments it takes one branch, so the padding it computes, and the sides after it, are
    known."""
    code = """
    import tensorflow as tf

    def conv(x, channels, kernel, stride, pad):
        if (kernel - stride) % 2 == 0:
            pad_bottom = pad
        else:
            pad_bottom = kernel - stride - pad
        x = tf.pad(x, [[0, 0], [pad, pad_bottom], [pad, pad_bottom], [0, 0]])
        return tf.layers.conv2d(x, channels, kernel, strides=stride)

    x = tf.placeholder(tf.float32, [1, 32, 32, 3])
    h = conv(x, 8, 3, 1, 1)
    h = conv(h, 16, 3, 2, 1)
    loss = tf.reduce_mean(h)
    """
    [step] = runs(trained(code)).values()
    first = 32 * 32 * 8 * 2 * 9 * 3  # padded to 34x34: 32x32 out
    second = 16 * 16 * 16 * 2 * 9 * 8  # padded to 33x33 (1 on top, 0 below), stride 2: 16x16 out
    assert step["flops_per_sample"].value == first + second + 16 * 16 * 16
    assert step["flops_per_sample"].bound is None


def test_a_step_counters_period_in_a_function_called_from_a_loop_still_divides_its_runs():
    code = """
    import tensorflow as tf

    def log(sess, summary, step):
        if step % 100 == 0:
            sess.run(summary)

    x = tf.placeholder(tf.float32, [None, 4])
    summary = tf.reduce_mean(x)
    with tf.Session() as sess:
        for step in range(1000):
            log(sess, summary, step)
    """
    result = analyse_source(textwrap.dedent(code).lstrip("\n"), "train.py")
    run = next(s for s in result.callsites if s.api.endswith("Session.run"))
    assert run.runs.count == 10


def test_moments_written_out_as_an_instance_norm_keep_the_graph_and_broadcast():
    """An adaptive instance/layer normalisation written with `tf.nn.moments(x, axes=[1, 2], keep_dims=True)`:
    the mean and variance of shape (1, 1, c) (or (1, 1, 1) over every axis), `x - mean` broadcast to the
    input's shape, so the convolution after it is counted."""
    code = """
    import tensorflow as tf

    def norm(x):
        mean, var = tf.nn.moments(x, axes=[1, 2], keep_dims=True)
        x_ins = (x - mean) / tf.sqrt(var + 1e-5)
        ln_mean, ln_var = tf.nn.moments(x, axes=[1, 2, 3], keep_dims=True)
        return x_ins + (x - ln_mean) / tf.sqrt(ln_var + 1e-5)

    x = tf.placeholder(tf.float32, [1, 16, 16, 4])
    h = norm(x)
    loss = tf.reduce_mean(tf.layers.conv2d(h, 8, 3, padding="same", use_bias=False))
    """
    [step] = runs(trained(code)).values()
    flops = step["flops_per_sample"]
    assert flops.bound is None
    conv, mean = 16 * 16 * 8 * 2 * 9 * 4, 16 * 16 * 8
    x = 16 * 16 * 4
    moments = 2 * 3 * x  # each reads x: its sum, then deviations squared and summed
    elementwise = 2 * (x + 4 + x) + x + 2 * 1  # two (x - m) / sqrt(v + eps), their sum
    assert flops.value == conv + mean + moments + elementwise


def test_moments_over_axes_not_literal_and_operands_that_clash_stay_unknown():
    code = """
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [1, 16, 16, 4])
    y = tf.placeholder(tf.float32, [1, 8, 8, 4])
    mean, var = tf.nn.moments(x, axes=AXES, keep_dims=True)
    loss = tf.reduce_mean(tf.layers.conv2d(x - mean, 8, 3)) + tf.reduce_mean(tf.layers.conv2d(x - y, 8, 3))
    """
    [step] = runs(trained(code)).values()
    flops = step["flops_per_sample"]
    assert flops.bound == "lower" and "unknown: moments, conv2d, add" in flops.note
