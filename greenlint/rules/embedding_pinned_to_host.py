"""GL604 embedding-pinned-to-host: an embedding pinned to the CPU while the rest of the model runs on the GPU."""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument, last_name
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.devices import hides_gpus, host_block, host_device, other_device
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import method
from greenlint.rules.syntax import enclosing

#: The embeddings looked up by index: TF's lookups and Keras' layer.
EMBEDDINGS = frozenset({
    "tensorflow.nn.embedding_lookup",
    "tensorflow.compat.v1.nn.embedding_lookup",
    "tensorflow.nn.embedding_lookup_sparse",
    "tensorflow.nn.safe_embedding_lookup_sparse",
    "tensorflow.keras.layers.Embedding",
})
#: The APIs whose calls outside every host block are the model's other layers, placed on the default device.
MODEL_OPS = ("tensorflow.nn.", "tensorflow.compat.v1.nn.", "tensorflow.keras.layers.", "tensorflow.layers.",
             "tensorflow.compat.v1.layers.")
#: A table known to hold fewer elements than this is not reported: its update and its rows cost next to nothing.
SMALL_TABLE = 100_000
#: Keras 2's data parallelism, whose template model is built on the host on purpose (its replicas run on the GPUs).
MULTI_GPU = "multi_gpu_model"
#: Calls that make a table in a pinned block, and where its shape is written.
TABLES = ("Variable", "get_variable", "Embedding")

#: The text CNN of the cases: an embedding pinned to the host, the convolutions and the classifier after it.
TEXT_CNN = (
    "import tensorflow as tf\n"
    "x = tf.compat.v1.placeholder(tf.int32, [None, 56])\n"
    "{pin}\n"
    "    W = tf.Variable(tf.random.uniform([{vocab}, 128], -1.0, 1.0), name='W')\n"
    "    embedded = tf.expand_dims(tf.nn.embedding_lookup(W, x), -1)\n"
    "conv = tf.nn.conv2d(embedded, tf.Variable(tf.random.normal([3, 128, 1, 128])), [1, 1, 1, 1], 'VALID')\n"
    "pooled = tf.nn.max_pool(tf.nn.relu(conv), [1, 54, 1, 1], [1, 1, 1, 1], 'VALID')\n"
)
PIN = "with tf.device('/cpu:0'), tf.name_scope('embedding'):"


class EmbeddingPinnedToHost(Rule):
    """
    ## What it does
    Flags a `with tf.device("/cpu:0"):` block (any literal naming a CPU) that holds an embedding
    lookup (`tf.nn.embedding_lookup` and its sparse forms) or a Keras `Embedding` layer, where the
    function (or module) holding the block builds other layers of the model outside every such
    block (`tf.nn`, `tf.layers` or Keras layers: placed on the default device, a GPU where there is
    one). The finding is on the block's `tf.device` call, where the fix goes.

    Not reported: a file that hides every GPU at top level (everything runs on the host); a file
    that places work on another device by name (`tf.device("/gpu:%d" % i)`, one tower per GPU,
    where variables kept on the host are shared between the towers on purpose) or calls Keras 2's
    `multi_gpu_model` (whose template model is built on the host on purpose); a model built
    wholly inside the block, or whose other layers are built only in other functions (which the
    block may call: nothing is known to cross between devices); a block whose every table is known
    to hold fewer than 100,000 elements
    (`[40, 10]`, `Embedding(40, 10)`: its update and its rows cost next to nothing); test code.

    ## Why is this bad?
    The pin puts the table, its lookup and its optimizer's update on the host. On every step the
    looked-up rows (batch x sequence x width floats) cross PCIe to the device that runs the rest of
    the model, their gradient crosses back, and the host updates the table: TensorFlow 1's Adam
    applies a sparse gradient by decaying both of its slots and the table itself over every row
    (`AdamOptimizer._apply_sparse_shared` assigns `m * beta1` and `v * beta2` whole), three dense
    passes over the table in host memory per step, which a GPU does at many times the bandwidth.
    The pin dates from TensorFlow versions whose GPU had no kernel for some sparse updates; the
    lookup (`ResourceGather`) and the scatter and dense updates Adam and SGD use have GPU kernels,
    and a table of a few hundred megabytes fits any current GPU. Where the table does not fit,
    keep the pin. The saving is largest under Adam (TensorFlow 1's and Keras' decay both slots over
    the whole table on every sparse update); where the updates touch the looked-up rows alone (SGD,
    Adagrad, `LazyAdam`), it is the transfers, small beside a large step (an LSTM language model's);
    the optimizer is often chosen in another file than the model, and the finding does not depend on it.

    ## Example
    ```python
    with tf.device("/cpu:0"), tf.name_scope("embedding"):
        W = tf.Variable(tf.random.uniform([vocab_size, 128], -1.0, 1.0))
        embedded = tf.nn.embedding_lookup(W, input_x)
    conv = tf.nn.conv2d(tf.expand_dims(embedded, -1), filters, [1, 1, 1, 1], "VALID")
    ```

    ## Use instead
    ```python
    with tf.name_scope("embedding"):
        W = tf.Variable(tf.random.uniform([vocab_size, 128], -1.0, 1.0))
        embedded = tf.nn.embedding_lookup(W, input_x)
    conv = tf.nn.conv2d(tf.expand_dims(embedded, -1), filters, [1, 1, 1, 1], "VALID")
    ```

    ## Energy evidence
    Not measured: the saving is the transfers and the host's table update on a machine with a
    GPU, which this machine lacks (bench/rules/not_measurable.json). Argued from TensorFlow's
    source instead. The pin saves no work on a GPU machine (only the GPU memory the table takes):
    what it places on the host (`Gather` or `ResourceGather` for the lookup, the `ScatterAdd` and
    dense assigns of the update) has GPU kernels, so without it the same ops run where the
    table's consumers are, and the transfers disappear. What it costs per step, for a lookup of `b x s` rows of width `w` from a
    `V x w` float32 table: the rows (`4·b·s·w` bytes) cross PCIe to the device and their gradient
    crosses back (at 12 to 25 GB/s, against a GPU's hundreds), and the update runs at the host's
    memory bandwidth. Under Adam that update is dense: `tensorflow/python/training/adam.py`'s
    `_apply_sparse_shared` assigns `m * beta1` and `v * beta2` over the whole slots before
    scattering the rows in, then `assign_sub`s `lr * m_t / (sqrt(v_t) + eps)` over the whole table,
    about 8 passes of `4·V·w` bytes per step. For the text CNN of the examples with a vocabulary
    of 20,000 words (a 20,000 x 128 table, batches of 64 sentences of 56 words) that is about
    82 MB of host memory traffic and 2 x 1.8 MB over PCIe per step, some 8 ms at a host's
    ~10 GB/s, against a forward and backward pass of about 4 GFLOP (filters of 3, 4 and 5 words, 128 each), 0.5 ms on greenlint's
    reference GPU (an NVIDIA Tesla T4, 8.1 TFLOP/s): the host's share dominates each step while the
    GPU waits. Under SGD or Adagrad, whose sparse updates touch the looked-up rows alone, the
    saving is the transfers, still a few tenths of a millisecond per step there.

    On by default since the real-world benchmark judged its finding (1 of 1 true: a text CNN
    whose embedding, the bulk of its parameters, is pinned under Adam); the exceptions above
    (every GPU hidden, towers placed by name, a whole model on the host, a small table) are the
    programs where the pin is deliberate or moot.

    ## Fix safety
    No automatic fix: where the table is larger than the GPU's memory the pin is needed.

    ## Options
    None.
    """

    code = "GL604"
    name = "embedding-pinned-to-host"
    CALLS = frozenset(map(method, EMBEDDINGS))
    MENTIONS = ("cpu", "CPU")
    MESSAGE = (
        "The embedding is pinned to the host by `{device}` while the model's other layers run on the default"
        " device: on a GPU, each step copies the looked-up rows to it and their gradient back, and updates the"
        " table on the host"
    )
    FIX_TITLE = "Drop the CPU pin, unless the table is larger than the GPU's memory"
    VALID = (
        Valid(TEXT_CNN.format(pin="with tf.name_scope('embedding'):", vocab="vocab_size")),  # not pinned
        Valid(TEXT_CNN.format(pin=PIN, vocab=40)),  # a table of 40 x 128 known: its rows and update cost little
        Valid(  # every GPU hidden: the whole model runs on the host
            "import os\n" + TEXT_CNN.format(pin=PIN, vocab="vocab_size").replace(
                "import tensorflow as tf\n", "import tensorflow as tf\nos.environ['CUDA_VISIBLE_DEVICES'] = '-1'\n"
            )
        ),
        Valid(  # the whole model built on the host (word2vec): nothing crosses between devices
            "import tensorflow as tf\ngraph = tf.Graph()\nwith graph.as_default(), tf.device('/cpu:0'):\n"
            "    x = tf.compat.v1.placeholder(tf.int32, [128])\n"
            "    embeddings = tf.Variable(tf.random.uniform([vocabulary_size, 128], -1.0, 1.0))\n"
            "    embed = tf.nn.embedding_lookup(embeddings, x)\n"
            "    loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(w, b, y, embed, 64, vocabulary_size))\n"
        ),
        Valid(  # towers on several GPUs, the shared table kept on the host on purpose
            "import tensorflow as tf\nwith tf.device('/cpu:0'):\n"
            "    table = tf.compat.v1.get_variable('table', [vocab_size, 256])\n"
            "for i in range(4):\n    with tf.device('/gpu:%d' % i):\n"
            "        rows = tf.nn.embedding_lookup(table, ids[i])\n        logits = tf.nn.relu(tf.matmul(rows, w))\n"
        ),
        Valid(  # an input pipeline on the host, the embedding on the default device
            "import tensorflow as tf\nwith tf.device('/cpu:0'):\n    images = tf.image.resize(raw, [224, 224])\n"
            "emb = tf.keras.layers.Embedding(20000, 300)(ids)\nx = tf.keras.layers.Dense(10)(emb)\n"
        ),
        Valid(  # a Keras model built wholly on the host: nothing crosses between devices
            "import tensorflow as tf\nwith tf.device('/cpu:0'):\n    model = tf.keras.Sequential([\n"
            "        tf.keras.layers.Embedding(20000, 64), tf.keras.layers.LSTM(32), tf.keras.layers.Dense(1)])\n"
        ),
        Valid(  # the other layers only in a function the block calls: they are built on the host too
            "import tensorflow as tf\ndef head(x):\n    return tf.keras.layers.Dense(2)(tf.keras.layers.LSTM(32)(x))\n"
            "inputs = tf.keras.Input((100,), dtype='int32')\nwith tf.device('/cpu:0'):\n"
            "    out = head(tf.keras.layers.Embedding(20000, 300)(inputs))\n"
        ),
        Valid(  # Keras 2's data parallelism: the template model kept on the host, its replicas on the GPUs
            "import tensorflow as tf\nfrom keras.utils import multi_gpu_model\n"
            "inputs = tf.keras.Input((100,), dtype='int32')\nwith tf.device('/cpu:0'):\n"
            "    emb = tf.keras.layers.Embedding(20000, 300)(inputs)\n"
            "model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(tf.keras.layers.LSTM(32)(emb)))\n"
            "parallel = multi_gpu_model(model, gpus=4)\n"
        ),
        Valid(  # test code
            "import tensorflow as tf\ndef test_lookup():\n    with tf.device('/cpu:0'):\n"
            "        rows = tf.nn.embedding_lookup(table, ids)\n    return tf.nn.relu(rows)\n"
        ),
    )
    INVALID = (
        Invalid(TEXT_CNN.format(pin=PIN, vocab="vocab_size"), line=3, message_contains="tf.device('/cpu:0')"),
        Invalid(  # a Keras embedding layer built on the host, the convolutions and classifier on the default device
            "import tensorflow as tf\ninputs = tf.keras.Input((100,), dtype='int32')\nwith tf.device('/cpu:0'):\n"
            "    emb = tf.keras.layers.Embedding(20000, 300)(inputs)\n"
            "x = tf.keras.layers.Conv1D(128, 5, activation='relu')(emb)\n"
            "out = tf.keras.layers.Dense(2)(tf.keras.layers.GlobalMaxPooling1D()(x))\n",
            line=3,
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        pinned = [site for site in facts.sites if site.api in EMBEDDINGS and not in_test_code(facts, site)]
        if not pinned or hides_gpus(facts) or MULTI_GPU in facts.text:
            return
        blocks: dict[int, tuple[ast.With | ast.AsyncWith, int | None]] = {}
        for site in pinned:
            node = facts.node(site)
            block = host_block(facts, node, site.callsite.span.cell) if node is not None else None
            if block is not None:
                blocks.setdefault(id(block), (block, site.callsite.span.cell))
        layers = _layers_on_device(facts) if blocks else None
        if layers is None:
            return
        for block, cell in blocks.values():
            if id(enclosing(facts, block, cell)) not in layers or _small_tables(block):
                continue
            device = next(item.context_expr for item in block.items if host_device(item.context_expr))
            yield self.diagnostic(
                facts.span(device, cell), facts.path, self.MESSAGE.format(device=ast.unparse(device))
            )


def _layers_on_device(facts: FileFacts) -> set[int] | None:
    """The ids of the scopes (functions, classes, modules) holding a layer of the model outside every
    host block; None where the file places something on another device by name."""
    scopes = set()
    for site in facts.sites:
        node = facts.node(site)
        if node is None:
            continue
        if method(site.api) == "device" and other_device(node):
            return None
        cell = site.callsite.span.cell
        if site.api not in EMBEDDINGS and site.api.startswith(MODEL_OPS) and host_block(facts, node, cell) is None:
            scopes.add(id(enclosing(facts, node, cell)))
    return scopes


def _small_tables(block: ast.With | ast.AsyncWith) -> bool:
    """Whether every table the block makes has a shape of literals holding fewer than `SMALL_TABLE`
    elements (and it makes one)."""
    sizes = [_elements(node) for node in ast.walk(block) if isinstance(node, ast.Call) and last_name(node.func) in TABLES]
    return bool(sizes) and all(size is not None and size < SMALL_TABLE for size in sizes)


def _elements(call: ast.Call) -> int | None:
    """The elements of the table *call* makes, where its shape is written as integer literals:
    `Embedding(input_dim, output_dim)`, or the first list of literals in a variable's arguments."""
    if last_name(call.func) == "Embedding":
        dims = [argument(call, "input_dim", 0), argument(call, "output_dim", 1)]
    else:
        shape = next((node for node in ast.walk(call) if isinstance(node, (ast.List, ast.Tuple))), None)
        dims = list(shape.elts) if shape is not None else []
    if not dims or not all(isinstance(d, ast.Constant) and type(d.value) is int for d in dims):
        return None
    return math.prod(d.value for d in dims)  # type: ignore[union-attr]
