"""GL504 through a TensorFlow 1 project's own helpers (greenlint.rules.helper_layers): the
convolution and its bias built in an `ops.py` module, the normalization a class around
`tf.contrib.layers.batch_norm`, both used by the model's module that imports them."""

from __future__ import annotations

from tests.rules.conftest import check_in_project

OPS = (
    "import tensorflow as tf\n\n\nclass batch_norm(object):\n"
    "    def __init__(self, name='batch_norm'):\n        self.name = name\n\n"
    "    def __call__(self, x, train=True):\n"
    "        return tf.contrib.layers.batch_norm(x, updates_collections=None, scale=True, is_training=train,"
    " scope=self.name)\n\n\n"
    "def conv2d(input_, output_dim, k_h=5, k_w=5, name='conv2d'):\n"
    "    with tf.compat.v1.variable_scope(name):\n"
    "        w = tf.compat.v1.get_variable('w', [k_h, k_w, input_.get_shape()[-1], output_dim])\n"
    "        conv = tf.nn.conv2d(input_, w, strides=[1, 2, 2, 1], padding='SAME')\n"
    "        biases = tf.compat.v1.get_variable('biases', [output_dim])\n"
    "{bias}"
    "        return conv\n\n\n"
    "def lrelu(x, leak=0.2):\n    return tf.maximum(x, leak * x)\n"
)
BIAS = "        conv = tf.reshape(tf.nn.bias_add(conv, biases), conv.get_shape())\n"
MODEL = (
    "import tensorflow as tf\nfrom ops import *\n\n\nclass DCGAN(object):\n"
    "    def __init__(self):\n        self.d_bn1 = batch_norm(name='d_bn1')\n{other}\n"
    "    def discriminator(self, image):\n"
    "        h0 = lrelu(conv2d(image, 64, name='d_h0_conv'))\n"
    "        h1 = lrelu(self.d_bn1(conv2d(h0, 128, name='d_h1_conv')))\n"
    "        return tf.nn.sigmoid(h1)\n"
)


def _gl504(tmp_path, predictor, bias: str = BIAS, other: str = "") -> list:
    files = {"ops.py": OPS.format(bias=bias), "model.py": MODEL.format(other=other)}
    return check_in_project(tmp_path, predictor, files, "model.py", "GL504")


def test_a_helper_convolution_normalised_by_a_helper_class_of_an_imported_module(tmp_path, predictor):
    found = _gl504(tmp_path, predictor)
    assert [(d.span.line, d.span.column) for d in found] == [(11, 31)]  # at `conv2d`, the helper's name
    assert "`tf.nn.bias_add` at ops.py line 17" in found[0].message
    assert "`self.d_bn1`" in found[0].message


def test_a_helper_without_the_bias_is_not_reported(tmp_path, predictor):
    assert _gl504(tmp_path, predictor, bias="") == []


def test_a_normalization_attribute_bound_twice_is_not_reported(tmp_path, predictor):
    # which callable `self.d_bn1` holds when the model is built is not known
    assert _gl504(tmp_path, predictor, other="        self.d_bn1 = tf.identity\n") == []


def test_a_helper_module_importing_tensorflow_under_try_is_read_as_its_module_binds_it(tmp_path, predictor):
    # `try: import tensorflow as tf`: module scope, the module's `tf` (analysis/import_table.py)
    guarded = OPS.format(bias=BIAS).replace(
        "import tensorflow as tf\n", "try:\n    import tensorflow as tf\nexcept ImportError:\n    raise\n", 1
    )
    files = {"ops.py": guarded, "model.py": MODEL.format(other="")}
    assert len(check_in_project(tmp_path, predictor, files, "model.py", "GL504")) == 1
    # `tf` bound to another library: no TensorFlow normalization
    local = guarded.replace("try:\n    import tensorflow as tf\nexcept ImportError:\n    raise\n", "import numpy as tf\n", 1)
    files = {"ops.py": local, "model.py": MODEL.format(other="")}
    assert check_in_project(tmp_path, predictor, files, "model.py", "GL504") == []
