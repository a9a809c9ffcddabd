"""GL409 decoding-generator (opt-in): Keras training fed by a Python generator that decodes files per item, on one thread."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, is_keras_model_method
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.devices import hides_gpus
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.generator_in_one_worker import one_worker


class DecodingGenerator(Rule):
    """
    ## What it does
    Flags a Keras training whose batches a plain Python generator (the call of a generator
    function, of the file or of a project module) builds by reading and decoding files for
    each item: OpenCV's `imread`/`imdecode`, PIL's `Image.open`, scikit-image's or imageio's
    `imread`, librosa's `load`, soundfile's `read` or Keras' `load_img` called in one of its
    loops (or in a function it calls there), or an `ImageDataGenerator`
    `.flow_from_directory()`/`.flow_from_dataframe()` it iterates (the analysis's
    `input_host_work` feature). Two shapes:

    - `fit()` (or Keras 2's `fit_generator()`) given such a generator with `workers` left at
      its default (1) or set to 0 or 1, as written or as the default of a parameter or flag;
    - `train_on_batch()` run in a loop on a batch drawn from such a generator between steps
      (`x, y = next(gen)`, `for x, y in gen:`): no worker at all.

    Not reported: a generator whose batches come from memory (slices of arrays it was given:
    nothing is decoded per item), or that decodes one file once, before its loop; a
    `keras.utils.Sequence` (GL407's); test code; a file that hides every GPU at top level (the
    step runs on the host, whose cores the decoding would share anyway).

    Opt-in (`--extend-select GL409`): whether the device really waits depends on how long a
    step takes beside a batch's decoding, which the code rarely shows. A small network on
    batches of a hundred JPEG files waits on the host most of the time; a 30-million-parameter
    U-Net on batches of two small grayscale images does not (the real-world benchmark judged
    two such findings false). The finding says what is decoded and where, not how long it takes.

    ## Why is this bad?
    Keras draws a plain generator's batches on one thread: tf.keras 2.x wraps it in
    `Dataset.from_generator` with one batch of prefetch when `workers` is 1, and Keras 3's
    `GeneratorDataAdapter` in `Dataset.from_generator(...).prefetch(...)`, whose Python
    function runs on one thread under the GIL (`keras/src/trainers/data_adapters/generator_data_adapter.py`).
    A `train_on_batch()` loop that calls `next(gen)` between steps does not overlap the two
    at all. Where reading, decoding and augmenting a batch on that one core takes longer than
    the step, the accelerator idles for the difference on every step, drawing its idle power
    for the whole run. A plain generator cannot be given more workers (threads raise
    "generator already executing", processes each yield the same batches): its per-item work
    moves into a `tf.data` pipeline whose `map` runs in parallel, or into a
    `keras.utils.Sequence` whose `__getitem__` builds batch *i*, given several workers.

    ## Example
    ```python
    def batches(paths, labels):
        while True:
            for i in range(0, len(paths), 32):
                x = np.array([cv2.resize(cv2.imread(p), (224, 224)) for p in paths[i:i + 32]])
                yield x, labels[i:i + 32]

    model.fit(batches(paths, labels), steps_per_epoch=len(paths) // 32, epochs=30)
    ```

    ## Use instead
    ```python
    def load(path, label):
        image = tf.image.resize(tf.io.decode_image(tf.io.read_file(path), 3, expand_animations=False), (224, 224))
        return image, label

    ds = tf.data.Dataset.from_tensor_slices((paths, labels)).map(load, num_parallel_calls=tf.data.AUTOTUNE)
    model.fit(ds.batch(32).prefetch(tf.data.AUTOTUNE), epochs=30)
    ```

    ## Energy evidence
    Not measured: the saving is the accelerator's idle time while one host core prepares each
    batch, which needs an accelerator and a step shorter than the batch's decoding to show;
    bench/rules/not_measurable.json says so.

    ## Fix safety
    No automatic fix: the generator's body becomes a pipeline or a `Sequence`, a rewrite of
    the user's own code.

    ## Options
    None.
    """

    code = "GL409"
    name = "decoding-generator"
    DEFAULT_ENABLED = False  # see "Opt-in" above: the step's length beside the decoding is rarely known
    MESSAGE = (
        "`{method}()` draws its batches from a Python generator that reads and decodes files per item ({host})"
        " on one thread ({workers}): where that takes longer than a step, the device waits on every step"
    )
    DRAWN_MESSAGE = (
        "`train_on_batch()` trains on batches drawn between steps from a Python generator that reads and decodes"
        " files per item ({host}): the device idles while each batch is prepared"
    )
    FIX_TITLE = (
        "Build the batches in a `tf.data` pipeline with a parallel `map` and `prefetch`, or in a `keras.utils.Sequence`"
        " given several workers"
    )
    VALID = (
        Valid(  # a plain generator of slices of arrays in memory: nothing decoded per item
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(x, y):\n    while True:\n        yield x[:32], y[:32]\n"
            "m.fit_generator(batches(x, y), steps_per_epoch=100, epochs=5)\n"
        ),
        Valid(  # a generator that reads one image once, before its loop, then yields crops of it
            "import cv2\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def crops(path):\n    big = cv2.imread(path)\n    while True:\n        yield big[:256, :256], big[:1, :1]\n"
            "m.fit(crops('scene.png'), steps_per_epoch=100, epochs=5)\n"
        ),
        Valid(  # every GPU hidden: the step runs on the host
            "import os\nimport cv2\nimport numpy as np\nimport tensorflow as tf\nos.environ['CUDA_VISIBLE_DEVICES'] = '-1'\n"
            "m = tf.keras.Sequential()\ndef batches(paths, labels):\n    while True:\n"
            "        yield np.array([cv2.imread(p) for p in paths[:8]]), labels[:8]\n"
            "m.fit(batches(paths, labels), steps_per_epoch=100, epochs=5)\n"
        ),
        Valid(  # a Sequence: GL407's, whose advice (workers) differs
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=40)\n"
            "m.fit(aug.flow_from_directory('train/', batch_size=32), epochs=20)\n"
        ),
        Valid(  # train_on_batch on batches drawn from a generator of slices in memory
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(x, y):\n    while True:\n        yield x[:32], y[:32]\n"
            "gen = batches(x, y)\nfor step in range(500):\n    xb, yb = next(gen)\n    m.train_on_batch(xb, yb)\n"
        ),
        Valid(  # one train_on_batch, no loop
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "x, y = next(batches(paths))\nm.train_on_batch(x, y)\n"
        ),
        Valid(  # test code
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "def test_fit():\n    m.fit(batches(['a.png']), steps_per_epoch=2, epochs=1)\n"
        ),
    )
    INVALID = (
        Invalid(  # a generator reading and decoding each image with OpenCV, through a helper of the file
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def load(path):\n    return cv2.resize(cv2.imread(path), (224, 224))\n"
            "def batches(paths, labels, size):\n    while True:\n        for i in range(0, len(paths), size):\n"
            "            x = np.array([load(p) for p in paths[i:i + size]])\n            yield x, labels[i:i + size]\n"
            "m.fit(batches(paths, labels, 16), steps_per_epoch=500, epochs=20)\n",
            line=12,
            message_contains="reads and decodes files per item (`cv2.imread` (line 6)) on one thread (the default)",
        ),
        Invalid(  # two augmenting directory flows zipped in a generator (image and mask)
            "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
            "m = tf.keras.Sequential()\ndef pairs(path):\n"
            "    images = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['image'], seed=1)\n"
            "    masks = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['mask'], seed=1)\n"
            "    for image, mask in zip(images, masks):\n        yield image / 255, mask / 255\n"
            "m.fit_generator(pairs('train'), steps_per_epoch=300, epochs=5)\n",
            line=9,
            message_contains="`ImageDataGenerator.flow_from_directory` (line 5)",
        ),
        Invalid(  # PIL images through Keras 3's fit
            "import numpy as np\nimport keras\nfrom PIL import Image\nm = keras.Sequential()\n"
            "def batches(paths, labels):\n    while True:\n        for p, y in zip(paths, labels):\n"
            "            yield np.asarray(Image.open(p))[None], y[None]\n"
            "m.fit(batches(paths, labels), steps_per_epoch=1000, epochs=10)\n",
            line=9,
            message_contains="`PIL.Image.open` (line 8)",
        ),
        Invalid(  # train_on_batch in a loop on batches drawn with next() from a decoding generator
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "gen = batches(paths)\nfor epoch in range(20):\n    for step in range(500):\n"
            "        x, y = next(gen)\n        m.train_on_batch(x, y)\n",
            line=12,
            message_contains="drawn between steps from a Python generator that reads and decodes files per item",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if hides_gpus(facts):
            return
        for site in facts.sites:
            host = site.features.get("input_host_work")
            if host is None or in_test_code(facts, site):
                continue
            if is_keras_model_method(site.api, ("train_on_batch",)):
                loop = site.loop_runs
                if loop is None or loop > 1:
                    yield self.diagnostic(site.callsite.span, facts.path, self.DRAWN_MESSAGE.format(host=host))
                continue
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):
                continue
            call = facts.node(site)
            if not isinstance(call, ast.Call) or any(k.arg is None for k in call.keywords):
                continue
            workers = one_worker(facts, site, call)
            if workers is not None:
                method = site.api.rsplit(".", 1)[-1]
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(method=method, host=host, workers=workers))
