"""GL409 decoding-generator: Keras training that draws batches between steps from a Python generator decoding files."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.callsite import Span
from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Site, Valid, is_keras_model_method
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.devices import hides_gpus
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.generator_in_one_worker import worker_setting


class DecodingGenerator(Rule):
    """
    ## What it does
    Flags a Keras training that prepares each batch on the training thread itself, between two
    steps, from a plain Python generator (the call of a generator function, of the file or of a
    project module) that reads, decodes or augments data for each item: OpenCV's `imread`/`imdecode`,
    PIL's `Image.open`, scikit-image's or imageio's `imread`, SciPy's old `misc.imread` and
    `ndimage.imread`, librosa's `load`, soundfile's `read` or Keras' `load_img` called in one of its loops (or in a function it calls there),
    or an `ImageDataGenerator` flow it iterates: `.flow_from_directory()`/`.flow_from_dataframe()`,
    which read, decode and augment every image of a batch, or `.flow()` of arrays given
    augmenting arguments as literals (`rotation_range`, shifts, `shear_range`, `zoom_range`,
    flips, `brightness_range`, `channel_shift_range`, `zca_whitening`), which warps every image
    of a batch in NumPy and SciPy (the analysis's `input_host_work` feature; the finding cites
    the call the fewest conditions guard, the one most items run). Two shapes:

    - `train_on_batch()` run in a loop on a batch drawn from such a generator between steps
      (`x, y = next(gen)`, `for x, y in gen:`), or drawn the same way from such an
      `ImageDataGenerator` flow itself, or returned by a plain function (or method, of the file
      or of a project module) that decodes per item in one of its loops, called in the same loop
      (`x, y = loader.load_data(32)` before each step): the finding is on the code drawing the
      batch (`next(gen)`, the `for` header, the function's call), once for all the steps it feeds;
    - `fit()` (or Keras 2's `fit_generator()`) given such a generator with `workers=0`, as
      written or as the default of a parameter or flag.

    With the option `decoding-generator-one-worker = true`, also a `fit()` given such a
    generator with `workers` left at its default (1) or set to 1 (see below why not by default).

    Not reported: a generator (or a `.flow()`) whose batches come from memory (slices of arrays
    it was given, rescaled at most: nothing is decoded or warped per item), or that decodes one
    file once, before its loop; a `keras.utils.Sequence` given to `fit()` (GL407's); a fit
    with several workers or whose number of workers is not known; a `train_on_batch()` that runs once; test code; a file that hides every GPU at
    top level: the step then runs on the host, whose cores the decoding shares whatever the
    code does, so overlapping the two saves little energy.

    A `fit()` with one worker is not reported by default: Keras already prepares the next batch
    on one thread while the device runs the step (standalone Keras 2's `fit_generator` through a
    `GeneratorEnqueuer` thread and a queue of 10 batches; tf.keras 2.x through
    `Dataset.from_generator(...).prefetch(1)`; Keras 3 through `from_generator(...).prefetch`),
    so the device waits only where decoding a batch on one core takes longer than a step,
    which the code rarely shows: a small network on batches of a hundred JPEG files waits on the
    host most of the time, a 30-million-parameter U-Net on batches of two small grayscale images
    does not (the real-world benchmark judged two such findings false, two debatable).

    ## Why is this bad?
    A batch drawn between steps (`next(gen)` before each `train_on_batch()`, or a `fit()` with
    `workers=0`, which draws the generator on the training thread with no prefetch in both
    standalone Keras 2 and tf.keras 2.x) is never prepared while the device computes: on every
    step the accelerator idles for the whole time one host core reads, decodes, resizes and
    augments the batch's files in Python, drawing its idle power meanwhile, and the run lasts
    that much longer. On a machine without an accelerator the step and the decoding share the
    same cores, and there is little to gain (such files are not reported). The work moves off
    the training thread, where it overlaps the step: into a `tf.data` pipeline whose `map`
    decodes in parallel (`num_parallel_calls=tf.data.AUTOTUNE`) and `prefetch`es, or into a
    `keras.utils.Sequence` whose `__getitem__` builds batch *i*, drawn by several workers
    (Keras 2's `fit(..., workers=8, use_multiprocessing=True)`; on Keras 3, TensorFlow 2.16 and
    later, a `keras.utils.PyDataset` given `workers=8, use_multiprocessing=True` in its
    constructor). A plain generator cannot be given more workers (threads raise "generator
    already executing", processes each yield the same batches).

    ## Example
    ```python
    def batches(paths, labels):
        while True:
            for i in range(0, len(paths), 32):
                x = np.array([cv2.resize(cv2.imread(p), (224, 224)) for p in paths[i:i + 32]])
                yield x, labels[i:i + 32]

    gen = batches(paths, labels)
    for step in range(10_000):
        x, y = next(gen)
        model.train_on_batch(x, y)
    ```

    ## Use instead
    ```python
    def load(path, label):
        image = tf.image.resize(tf.io.decode_image(tf.io.read_file(path), 3, expand_animations=False), (224, 224))
        return image, label

    ds = tf.data.Dataset.from_tensor_slices((paths, labels)).map(load, num_parallel_calls=tf.data.AUTOTUNE)
    model.fit(ds.shuffle(1000).batch(32).repeat().prefetch(tf.data.AUTOTUNE), steps_per_epoch=10_000, epochs=1)
    ```

    ## Energy evidence
    Not measured: the saving is the accelerator's idle time while one host core prepares each
    batch, which needs an accelerator to show; bench/rules/not_measurable.json says so. The
    physical case rests on the Keras sources named above: the shapes reported are those in which
    no thread prepares a batch while a step runs. Default since the real-world benchmark judged
    its findings of these shapes (bench/realworld: 1 of 1 true; the one-worker `fit()` findings,
    2 false and 2 debatable, are why that shape is an option).

    ## Fix safety
    No automatic fix: the generator's body becomes a pipeline or a `Sequence`, a rewrite of
    the user's own code.

    ## Options
    - `decoding-generator-one-worker`
    """

    code = "GL409"
    name = "decoding-generator"
    OPTIONS = (
        Option(
            "decoding-generator-one-worker",
            bool,
            False,
            "GL409 also flags a `fit()` whose decoding generator Keras draws on one thread that prepares the next"
            " batch during the step (workers=1, the default).",
        ),
    )
    MESSAGE = (
        "`{method}()` draws its batches from a Python generator that reads, decodes or augments data per item ({host})"
        " on one thread ({workers}): where that takes longer than a step, the device waits on every step"
    )
    UNOVERLAPPED_MESSAGE = (
        "`{method}()` draws its batches on the training thread ({workers}) from a Python generator that reads,"
        " decodes or augments data per item ({host}): the device idles while each batch is prepared"
    )
    DRAWN_MESSAGE = (
        "The batches drawn here between steps come from Python code that reads, decodes or augments data per item"
        " ({host}) and feed `train_on_batch()` ({steps}): the device idles while each batch is prepared"
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
        Valid(  # train_on_batch on the batches of a flow over arrays in memory: nothing read from files
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "flow = tf.keras.preprocessing.image.ImageDataGenerator().flow(x, y, batch_size=32)\n"
            "for step in range(1000):\n    xb, yb = next(flow)\n    m.train_on_batch(xb, yb)\n"
        ),
        Valid(  # train_on_batch on a flow over arrays that only rescales: a multiply, not per-image work
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "flow = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255, horizontal_flip=False).flow(x, y)\n"
            "for step in range(1000):\n    xb, yb = next(flow)\n    m.train_on_batch(xb, yb)\n"
        ),
        Valid(  # a decoding function called once, before the loop: every step trains on the same arrays in memory
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def load(paths):\n    return np.array([cv2.imread(p) for p in paths]), np.zeros(len(paths))\n"
            "x, y = load(paths)\nfor step in range(1000):\n    m.train_on_batch(x[:32], y[:32])\n"
        ),
        Valid(  # one train_on_batch, no loop
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "x, y = next(batches(paths))\nm.train_on_batch(x, y)\n"
        ),
        Valid(  # fit() with one worker (the default): Keras prepares the next batch during the step (see the option)
            "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
            "m = tf.keras.Sequential()\ndef pairs(path):\n"
            "    images = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['image'], seed=1)\n"
            "    masks = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['mask'], seed=1)\n"
            "    for image, mask in zip(images, masks):\n        yield image / 255, mask / 255\n"
            "m.fit_generator(pairs('train'), steps_per_epoch=300, epochs=5)\n"
        ),
        Valid(  # workers=0 on a generator of slices of arrays in memory: nothing to decode
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(x, y):\n    while True:\n        yield x[:32], y[:32]\n"
            "m.fit(batches(x, y), steps_per_epoch=100, epochs=5, workers=0)\n"
        ),
        Valid(  # the option on, but several worker processes
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "m.fit(batches(paths), steps_per_epoch=100, epochs=5, workers=4, use_multiprocessing=True)\n",
            options={"decoding-generator-one-worker": True},
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
            options={"decoding-generator-one-worker": True},
            line=12,
            message_contains="reads, decodes or augments data per item (`cv2.imread` (line 6)) on one thread (the default)",
        ),
        Invalid(  # two augmenting directory flows zipped in a generator, drawn on the training thread (workers=0)
            "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
            "m = tf.keras.Sequential()\ndef pairs(path):\n"
            "    images = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['image'], seed=1)\n"
            "    masks = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['mask'], seed=1)\n"
            "    for image, mask in zip(images, masks):\n        yield image / 255, mask / 255\n"
            "m.fit_generator(pairs('train'), steps_per_epoch=300, epochs=5, workers=0)\n",
            line=9,
            message_contains="on the training thread (workers=0) from a Python generator that reads, decodes or augments"
            " data per item (`ImageDataGenerator.flow_from_directory` (line 5))",
        ),
        Invalid(  # PIL images through Keras 3's fit
            "import numpy as np\nimport keras\nfrom PIL import Image\nm = keras.Sequential()\n"
            "def batches(paths, labels):\n    while True:\n        for p, y in zip(paths, labels):\n"
            "            yield np.asarray(Image.open(p))[None], y[None]\n"
            "m.fit(batches(paths, labels), steps_per_epoch=1000, epochs=10)\n",
            options={"decoding-generator-one-worker": True},
            line=9,
            message_contains="`PIL.Image.open` (line 8)",
        ),
        Invalid(  # train_on_batch in a loop on batches drawn with next() from a decoding generator
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "gen = batches(paths)\nfor epoch in range(20):\n    for step in range(500):\n"
            "        x, y = next(gen)\n        m.train_on_batch(x, y)\n",
            line=11,
            message_contains="drawn here between steps come from Python code that reads, decodes or augments data per item",
        ),
        Invalid(  # train_on_batch on the batches of a directory flow, iterated between steps
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=40)\n"
            "for epoch in range(50):\n    for x, y in aug.flow_from_directory('train/', batch_size=32):\n"
            "        m.train_on_batch(x, y)\n",
            line=5,
            message_contains="(`ImageDataGenerator.flow_from_directory` (line 5))",
        ),
        Invalid(  # next() of a dataframe flow made beforehand
            "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
            "m = tf.keras.Sequential()\nflow = ImageDataGenerator().flow_from_dataframe(frame, 'images/', batch_size=64)\n"
            "for step in range(1000):\n    x, y = next(flow)\n    m.train_on_batch(x, y)\n",
            line=6,
        ),
        Invalid(  # a GAN-style loop drawing augmented batches of arrays from a flow between steps
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=15, zoom_range=0.1, horizontal_flip=True)\n"
            "for epoch in range(100):\n    for xb, yb in aug.flow(x_train, y_train, batch_size=64):\n"
            "        m.train_on_batch(xb, yb)\n",
            line=6,
            message_contains="(`ImageDataGenerator.flow` (line 6))",
        ),
        Invalid(  # the decode the fewest conditions guard is cited (the image read every item runs, not the mask's)
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(pairs, with_masks):\n    while True:\n        x, y = [], []\n        for image, mask in pairs:\n"
            "            if with_masks:\n                y.append(cv2.imread(mask))\n"
            "            x.append(cv2.imread(image))\n        yield np.array(x), np.array(y)\n"
            "for x, y in batches(pairs, False):\n    m.train_on_batch(x, y)\n",
            line=13,
            message_contains="(`cv2.imread` (line 11))",
        ),
        Invalid(  # a loader object's generator method reading each image with SciPy's old reader, drawn in a GAN loop
            "import scipy\nimport numpy as np\nimport tensorflow as tf\n"
            "class Loader:\n    def __init__(self, paths):\n        self.paths = paths\n"
            "    def load_batch(self, size):\n        for i in range(len(self.paths) // size):\n"
            "            yield np.array([self.imread(p) for p in self.paths[i * size:(i + 1) * size]])\n"
            "    def imread(self, path):\n        return scipy.misc.imread(path, mode='RGB').astype(np.float32)\n"
            "class GAN:\n    def __init__(self):\n        self.loader = Loader(paths)\n"
            "        self.model = tf.keras.Sequential()\n"
            "    def train(self, epochs):\n        for epoch in range(epochs):\n"
            "            for i, imgs in enumerate(self.loader.load_batch(1)):\n"
            "                self.model.train_on_batch(imgs, imgs)\n"
            "GAN().train(200)\n",
            line=18,
            message_contains="(`scipy.misc.imread` (line 11))",
        ),
        Invalid(  # a plain method decoding a random batch, called before each step
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n"
            "class Loader:\n    def __init__(self, paths):\n        self.paths = paths\n"
            "    def load_data(self, size):\n        x = []\n"
            "        for p in np.random.choice(self.paths, size=size):\n            x.append(cv2.imread(p))\n"
            "        return np.array(x), np.zeros(size)\n"
            "loader = Loader(paths)\nm = tf.keras.Sequential()\nfor step in range(30000):\n"
            "    x, y = loader.load_data(1)\n    m.train_on_batch(x, y)\n",
            line=15,
            message_contains="(`cv2.imread` (line 10))",
        ),
        Invalid(  # one draw feeding two steps (a GAN's discriminator and combined model): one finding, at the draw
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nd = tf.keras.Sequential()\ng = tf.keras.Sequential()\n"
            "def pairs(paths):\n    for i in range(0, len(paths), 4):\n"
            "        yield np.array([cv2.imread(p) for p in paths[i:i + 4]]), np.array([cv2.imread(p) for p in paths[i:i + 4]])\n"
            "for epoch in range(200):\n    for a, b in pairs(paths):\n        d.train_on_batch(a, ones)\n"
            "        g.train_on_batch([a, b], [ones, a])\n",
            line=10,
            message_contains="feed `train_on_batch()` (lines 11, 12)",
        ),
        Invalid(  # workers=0 as a flag's default
            "import argparse\nimport cv2\nimport numpy as np\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--workers', type=int, default=0)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "m.fit(batches(paths), steps_per_epoch=100, epochs=5, workers=args.workers)\n",
            line=12,
            message_contains="workers=0, the default of `--workers`",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if hides_gpus(facts):
            return
        draws: dict[tuple[int | None, int], list[Site]] = {}  # (cell, line drawing the batch) -> the steps it feeds
        for site in facts.sites:
            host = site.features.get("input_host_work")
            if host is None or in_test_code(facts, site):
                continue
            if is_keras_model_method(site.api, ("train_on_batch",)):
                loop = site.loop_runs
                if loop is None or loop > 1:
                    span = site.callsite.span
                    above = site.features.get("input_drawn_above")
                    draws.setdefault(
                        (span.cell, span.line - above if isinstance(above, int) else span.line), []
                    ).append(site)
                continue
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):
                continue
            call = facts.node(site)
            if not isinstance(call, ast.Call) or any(k.arg is None for k in call.keywords):
                continue
            found = worker_setting(facts, site, call)
            if found is None:
                continue
            count, workers = found
            method = site.api.rsplit(".", 1)[-1]
            if count == 0:
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.UNOVERLAPPED_MESSAGE.format(method=method, host=host, workers=workers),
                )
            elif options.get("decoding-generator-one-worker", False):
                yield self.diagnostic(
                    site.callsite.span, facts.path, self.MESSAGE.format(method=method, host=host, workers=workers)
                )
        for (_, line), steps in draws.items():
            lines = sorted({step.callsite.span.line for step in steps})
            where = ("line " if len(lines) == 1 else "lines ") + ", ".join(map(str, lines))
            host = steps[0].features["input_host_work"]
            yield self.diagnostic(
                draw_span(facts, steps[0], line), facts.path, self.DRAWN_MESSAGE.format(host=host, steps=where)
            )


def draw_span(facts: FileFacts, step: Site, line: int) -> Span:
    """Where the batch a `train_on_batch()` step trains on is drawn, at *line* (the analysis's
    `input_drawn_above`): the header of the loop over the generator, else the outermost call
    starting on that line (`next(gen)`, the decoding function's), else the step itself."""
    span = step.callsite.span
    call = facts.node(step)
    if call is None or line == span.line:
        return span
    for node in facts.ancestors(call, span.cell):
        if isinstance(node, (ast.For, ast.AsyncFor)) and node.lineno == line:
            return Span(
                line, node.col_offset + 1, node.iter.end_lineno or line, (node.iter.end_col_offset or 0) + 1, span.cell
            )
    starting = [c for c in facts.calls(span.cell) if c.lineno == line]
    if not starting:
        return span
    outer = min(starting, key=lambda c: (c.col_offset, -(c.end_lineno or line), -(c.end_col_offset or 0)))
    return Span(line, outer.col_offset + 1, outer.end_lineno or line, (outer.end_col_offset or 0) + 1, span.cell)
