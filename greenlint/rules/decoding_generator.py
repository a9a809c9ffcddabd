"""GL409 decoding-generator: Keras training that draws batches between steps from a Python generator decoding files."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.callsite import Span
from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid, last_name
from greenlint.rules.batch_draw import draw_node, each_step
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.devices import hides_gpus
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.fit_workers import worker_setting
from greenlint.rules.hidden_decoding import HEAVY_MODEL_ONE_WORKER, hides_decoding
from greenlint.rules.keras_flavour import keras_flavour
from greenlint.rules.site import Site, is_keras_model_method
from greenlint.rules.syntax import is_training_step
from greenlint.rules.tf_data_defaults import OPTION, SINCE
from greenlint.rules.tf_target import target

#: A generator calling a helper whose decode and resize run only `if proc_img:` (`{given}`: the
#: call's extra arguments); PIL's `Image.open` reads the header alone.
GATED_DECODE = (
    "import numpy as np\nimport tensorflow as tf\nfrom PIL import Image\n"
    "def load(line, size, proc_img=True):\n    image = Image.open(line.split()[0])\n    iw, ih = image.size\n"
    "    data = 0\n    if proc_img:\n        data = np.array(image.resize(size, Image.BICUBIC)) / 255.\n"
    "    return data, np.array([iw, ih])\n"
    "def batches(lines, size):\n    while True:\n"
    "        yield [load(line, (416, 416){given}) for line in lines[:size]], np.zeros(size)\n"
    "def train(model, lines):\n    model.fit_generator(batches(lines, 32), steps_per_epoch=500, epochs=50)\n"
)


#: A `from_generator` pipeline over a generator that opens and resizes each image with PIL (line 7),
#: trained on by `fit` (line 11); `{after}`: what the pipeline does right after the generator.
FROM_GENERATOR = (
    "import numpy as np\nimport tensorflow as tf\nfrom PIL import Image\nm = tf.keras.Sequential()\n"
    "def samples():\n    for p, y in zip(paths, labels):\n"
    "        yield np.asarray(Image.open(p).convert('RGB').resize((224, 224))), y\n"
    "spec = (tf.TensorSpec((224, 224, 3), tf.uint8), tf.TensorSpec((), tf.int64))\n"
    "ds = tf.data.Dataset.from_generator(samples, output_signature=spec){after}\n"
    "ds = ds.shuffle(1000).batch(32).prefetch(tf.data.AUTOTUNE)\n"
    "m.fit(ds, epochs=30)\n"
)


class DecodingGenerator(Rule):
    """
    ## What it does
    Flags a Keras training that prepares each batch on the training thread itself, between two
    steps, from a plain Python generator (the call of a generator function, of the file or of a
    project module) that reads, decodes, tokenises or augments data for each item: OpenCV's
    `imread`/`imdecode`, PIL's `Image.open`, scikit-image's or imageio's `imread`, SciPy's old
    `misc.imread` and `ndimage.imread`, librosa's `load`, soundfile's `read` or Keras' `load_img`, or
    Keras' text preprocessing (`Tokenizer.texts_to_sequences`/`texts_to_matrix`, `pad_sequences`,
    `text_to_word_sequence`, `one_hot`, `hashing_trick`) called in one of its loops (or in a
    function it calls there), or an `ImageDataGenerator` flow it iterates: `.flow_from_directory()`/`.flow_from_dataframe()`,
    which read, decode and augment every image of a batch, or `.flow()` of arrays given
    augmenting arguments as literals (`rotation_range`, shifts, `shear_range`, `zoom_range`,
    flips, `brightness_range`, `channel_shift_range`, `zca_whitening`), which warps every image
    of a batch in NumPy and SciPy (the analysis's `input_host_work` feature; the finding cites
    the call the fewest conditions guard, the one most items run). Two shapes:

    - `train_on_batch()`, a `tf.function` whose traced body is a training step (`train_step(x)`,
      the batch among its arguments), or a TF1 graph run that fetches an optimizer's update
      (`sess.run(train_op, feed_dict={x: batch})`, the batch in the `feed_dict` display), run in a loop on a batch drawn
      from such a generator between steps (`x, y = next(gen)`, `for x, y in gen:`), or drawn the
      same way from such an `ImageDataGenerator` flow itself, or returned by a plain function (or
      method, of the file or of a project module) that decodes per item in one of its loops,
      called in the same loop (`x, y = loader.load_data(32)` before each step), or decoded item
      by item there by a list comprehension (`[imread(f) for f in files[i:i + 64]]`, directly or
      through a function that reads one file) or by a loop appending to a list after a decode in
      its body (`for f in batch_files: images.append(resize(imread(f)))`) or setting the items of an array
      preallocated before it (`batch = np.zeros(...)`, then `batch[j] = get_img(f)`; in the step loop or in
      the function called there), followed through NumPy's conversions, casts,
      reshapes, slices and scalar arithmetic (`np.array(batch).astype(np.float32) / 127.5 - 1`):
      the finding is on the code drawing the batch (`next(gen)`, the `for` header, the function's
      call, the comprehension), once for all the steps it feeds;
    - `fit()` (or Keras 2's `fit_generator()`) given such a generator with `workers=0`, as
      written or as the default of a parameter or flag, where the Keras that runs it is known to
      draw it on the training thread: multi-backend Keras 2.0-2.3 (the file imports the
      standalone `keras` and calls `fit_generator()`: rules/keras_flavour.py), or tf.keras of a
      TensorFlow set (`tensorflow-version`) or pinned before 2.11. Later ones prefetch it on a
      thread of their own (tf.data injects a `prefetch` after the generator from 2.11, tf.keras
      2.13 to 2.16 add one whatever `workers`; 2.17 refuses `workers=0`, Keras 3's `fit()` takes
      no `workers`), so a project whose version is not known is not reported;
    - `fit()` (or `fit_generator()`) given such a generator with `workers` left at its default (1)
      or set to 1, as written or as the default of a parameter or flag, unless the model is known
      to do at least 5.5e5 forward FLOPs per element of its input (`flops_per_sample` over the
      elements of `input_shape`: a full-resolution U-Net on small grayscale images), whose step
      hides one core's decoding (see below).

    - `fit()` (or `fit_generator()`) given a `tf.data` pipeline that starts with
      `Dataset.from_generator()` of such a generator function (of the file or of a project module),
      with no `.cache()` after it (the analysis's `input_generator_host`), unless the model is known
      to be as heavy as above: tf.data runs the generator on one thread, under the GIL, whatever
      the pipeline does after it (a parallel `map` or `prefetch` there does not spread the
      generator's own work), so it is one worker that no `workers` argument changes. The advice is
      to make the items in the pipeline: a `map` over the file names with `num_parallel_calls`,
      decoding with `tf.io` and `tf.image` ops.

    With the option `decoding-generator-one-worker = true`, also a `fit()` with one worker whose
    model is known to be that heavy, and a `keras.utils.Sequence` with one worker (GL407's too).

    Not reported: a generator (or a `.flow()`) whose batches come from memory (slices of arrays
    it was given, rescaled at most: nothing is decoded or warped per item), or that decodes one
    file once, before its loop, or through a function that keeps every result (`functools.cache`,
    `lru_cache(maxsize=None)`: after the first epoch nothing is decoded); an image PIL's `Image.open` opens whose pixels are never used
    (`Image.open(p).size`: PIL reads the header and decodes on the pixels' first use, a method
    of the image or a call given it); a helper's decode under an `if` on a parameter the
    generator's call sets so that it does not run (`load(line, proc_img=False)` where the
    resize and the array conversion sit under `if proc_img:`: the helper's body is read again
    with that call's literal arguments); a batch drawn outside the loop directly around the step (before
    it, in a loop of its own, or once per pass of an outer loop: the steps then train on arrays
    in memory), or in the other branch of an `if` testing the
    same expression as the one around the step (`if dataset == 'mnist':` twice); a graph run
    that fetches no optimizer's update, or a `tf.function` that trains nothing (predictions over
    a folder); a `keras.utils.Sequence`
    given to `fit()` (GL407's, without the option); a fit
    with several workers or whose number of workers is not known; a `train_on_batch()` that runs once; test code; a file that hides every GPU at
    top level: the step then runs on the host, whose cores the decoding shares whatever the
    code does, so overlapping the two saves little energy.

    With one worker Keras prepares the next batch on one thread while the device runs the step
    (standalone Keras 2's `fit_generator` through a `GeneratorEnqueuer` thread and a queue of 10
    batches; tf.keras 2.x through `Dataset.from_generator(...).prefetch(1)`; Keras 3 through
    `from_generator(...).prefetch`), so the device waits where one core's decoding of a batch
    outlasts the step. The batch size cancels out of that comparison (both grow with it): what
    decides is the step's work per element the host decodes and warps. One core takes 40-85 ns per
    element fed to decode, resize and warp an image with PIL and SciPy as Keras' `ImageDataGenerator`
    does (a 500x375 JPEG brought to 512x512x3: 40 ns; a 512x512 grayscale PNG brought to 256x256: 81-84
    ns; without the warp 2-48 ns; OpenCV 3-48 ns: bench/rules/GL409/host_cost.py, one thread's CPU time on
    a shared, loaded two-core machine), and Keras' tokeniser and padding about 0.5 us per token of a
    40-token window (0.08 us per token padding 128 windows at once); a training step does three times
    the forward FLOPs, which at 5.5e5 forward FLOPs per element take 85 ns at an A100's FP32 peak and
    more on older boards: from there on the step lasts as long as the decoding or longer, and the one
    worker keeps up (a 30-million-parameter U-Net on two 256x256 grayscale
    images, 3e6 per element: the real-world benchmark judged its two findings false; on tensor
    cores, TF32 or float16, the step is several times shorter and such a model may wait too, which
    the option reports). Image classifiers and detectors do far less per element (ResNet-50 at
    224x224 about 5e4, YOLOv3 at 416x416 about 1.3e5) and wait on the host; a model whose FLOPs are
    not known is reported, the message saying the device waits only where the decoding outlasts a
    step.

    ## Why is this bad?
    A batch drawn between steps (`next(gen)` before each `train_on_batch()` or each TF1
    `sess.run` of the training op, a `feed_dict` built in Python, or a `fit()` with
    `workers=0`, which draws the generator on the training thread with no prefetch in
    multi-backend Keras and in tf.keras before 2.11) is never prepared while the device computes: on every
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
    no thread prepares a batch while a step runs, or one thread does for a step not known to hide
    it. Default since the real-world benchmark judged
    its findings of these shapes (bench/realworld: 1 of 1 true; of the one-worker `fit()` findings,
    the 2 false, on a U-Net of 3e6 FLOPs per element, are why a model known to be that heavy is
    left to the option; 2 are debatable). The host's side of the comparison is measured:
    bench/rules/GL409/host_cost.py (host_cost.json) times the decode, resize and warp per element
    fed, from which `HIDING_FLOPS` (5.5e5) is the step that lasts the slowest of them at an A100's
    FP32 peak; the 150-300 ns first cited for PIL and SciPy measured 40-85 ns there.

    ## Fix safety
    No automatic fix: the generator's body becomes a pipeline or a `Sequence`, a rewrite of
    the user's own code.

    ## Options
    - `tensorflow-version`
    - `decoding-generator-one-worker`
    """

    code = "GL409"
    name = "decoding-generator"
    OPTIONS = (
        OPTION,
        Option(
            "decoding-generator-one-worker",
            bool,
            False,
            "GL409 also flags a `fit()` whose decoding generator (or `Sequence`) Keras draws on one thread that"
            " prepares the next batch during the step (workers=1, the default) where the model is known to do at"
            " least 5.5e5 FLOPs per input element, a step that hides the decoding.",
        ),
    )
    MESSAGE = (
        "`{method}()` draws its batches from a Python generator that reads, decodes, tokenises or augments data per item ({host})"
        " on one thread ({workers}): where that takes longer than a step, the device waits on every step"
    )
    UNOVERLAPPED_MESSAGE = (
        "`{method}()` draws its batches on the training thread ({workers}, on {keras}) from a Python generator that"
        " reads, decodes, tokenises or augments data per item ({host}): the device idles while each batch is prepared"
    )
    GENERATED_MESSAGE = (
        "`{method}()` trains on a `Dataset.from_generator()` pipeline whose Python generator reads, decodes, tokenises"
        " or augments data per item ({host}) on one thread, under the GIL, whatever the pipeline does after it:"
        " where that takes longer than a step, the device waits on every step; make the items in the pipeline"
        " instead (`from_tensor_slices(paths).map(load, num_parallel_calls=tf.data.AUTOTUNE)`, decoding with"
        " `tf.io` and `tf.image` ops)"
    )
    DRAWN_MESSAGE = (
        "The batches drawn here between steps come from Python code that reads, decodes, tokenises or augments data per item"
        " ({host}) and feed `{method}()` ({steps}): the device idles while each batch is prepared"
    )
    FIX_TITLE = (
        "Build the batches in a `tf.data` pipeline with a parallel `map` and `prefetch`, or in a `keras.utils.Sequence`"
        " given several workers"
    )
    VALID = (
        Valid(FROM_GENERATOR.format(after=".cache()")),  # cached after the generator: it runs on the first pass only
        Valid(  # a from_generator pipeline whose generator slices arrays in memory: nothing decoded per item
            FROM_GENERATOR.replace(
                "np.asarray(Image.open(p).convert('RGB').resize((224, 224)))", "images[i]"
            ).replace("for p, y in zip(paths, labels)", "for i, y in enumerate(labels)").format(after="")
        ),
        Valid(GATED_DECODE.format(given=", proc_img=False")),  # the pixels never decoded: PIL read the header alone
        Valid(  # PIL's open reads the header alone: only the image's size is used
            "import numpy as np\nimport tensorflow as tf\nfrom PIL import Image\n"
            "def sizes(paths, size):\n    while True:\n"
            "        yield np.array([Image.open(p).size for p in paths[:size]]), np.zeros(size)\n"
            "def train(model, paths):\n    model.fit_generator(sizes(paths, 32), steps_per_epoch=500, epochs=50)\n"
        ),
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
        Valid(  # a preallocated array filled image by image once, before the steps: they train on it in memory
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "x = np.zeros((256, 64, 64, 3), dtype=np.float32)\n"
            "for j, p in enumerate(paths[:256]):\n    x[j] = cv2.resize(cv2.imread(p), (64, 64))\n"
            "for step in range(1000):\n    m.train_on_batch(x[:32], y[:32])\n"
        ),
        Valid(  # a helper filling a preallocated array with every image, called once before the steps
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def load_all(files):\n    x = np.zeros((len(files), 64, 64, 3), dtype=np.float32)\n"
            "    for j, f in enumerate(files):\n        x[j] = cv2.resize(cv2.imread(f), (64, 64))\n    return x\n"
            "x = load_all(paths)\nfor step in range(1000):\n    m.train_on_batch(x[:32], y[:32])\n"
        ),
        Valid(  # a preallocated batch filled row by row from arrays in memory: nothing decoded per item
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for step in range(1000):\n    xb = np.zeros((32, 64, 64, 3), dtype=np.float32)\n"
            "    for j, k in enumerate(np.random.randint(0, len(x), 32)):\n        xb[j] = x[k]\n"
            "    m.train_on_batch(xb, y[:32])\n"
        ),
        Valid(  # one train_on_batch, no loop
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "x, y = next(batches(paths))\nm.train_on_batch(x, y)\n"
        ),
        Valid(  # one worker on a model known to do about 5e6 FLOPs per input element: its step hides the decoding
            HEAVY_MODEL_ONE_WORKER
        ),
        Valid(  # about 6.7e5 FLOPs per element: at the peak a step outlasts the slowest warp measured (85 ns)
            HEAVY_MODEL_ONE_WORKER.replace("Conv2D(512", "Conv2D(192")
        ),
        Valid(  # workers=0 on a generator of slices of arrays in memory: nothing to decode
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(x, y):\n    while True:\n        yield x[:32], y[:32]\n"
            "m.fit(batches(x, y), steps_per_epoch=100, epochs=5, workers=0)\n"
        ),
        Valid(  # workers=0 on tf.keras of a TensorFlow not set nor pinned: from 2.11 a prefetch runs the generator
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "m.fit(batches(paths), steps_per_epoch=100, epochs=5, workers=0)\n"
        ),
        Valid(  # workers=0 on TensorFlow 2.14: tf.keras prefetches the generator's batches whatever `workers`
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "m.fit(batches(paths), steps_per_epoch=100, epochs=5, workers=0)\n",
            options={"tensorflow-version": "2.14"},
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
        Valid(  # decoded once, before the loop: every step trains on slices of the arrays in memory
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "x = np.array([cv2.imread(p) for p in paths]).astype(np.float32) / 255\n"
            "for step in range(1000):\n    m.train_on_batch(x[:32], y[:32])\n"
        ),
        Valid(  # decoded in a loop of its own (one folder after another), then trained on from memory
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for folder in folders:\n    x = np.array([cv2.imread(p) for p in folder])\n"
            "for step in range(1000):\n    m.train_on_batch(x[:32], y[:32])\n"
        ),
        Valid(  # decoded once per epoch, then every step of the epoch trains on slices in memory (GL408's)
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for epoch in range(20):\n    x = np.array([cv2.imread(p) for p in paths])\n"
            "    for i in range(0, len(x), 32):\n        m.train_on_batch(x[i:i + 32], y[i:i + 32])\n"
        ),
        Valid(  # a list filled with decoded images once, before the training loop: the steps slice arrays in memory
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\nimages = []\n"
            "for p in paths:\n    images.append(cv2.imread(p))\nx = np.array(images)\n"
            "for epoch in range(20):\n    for i in range(0, len(x), 32):\n        m.train_on_batch(x[i:i + 32], y[i:i + 32])\n"
        ),
        Valid(  # a tf.function that only predicts, over the images of a folder
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
            "@tf.function\ndef predict_step(x):\n    return model(x, training=False)\n"
            "for chunk in chunks:\n    print(predict_step(np.array([cv2.imread(p) for p in chunk])))\n"
        ),
        Valid(  # a TF1 graph run over a folder once for its predictions: no training step waits
            "import cv2\nimport tensorflow as tf\nx = tf.compat.v1.placeholder(tf.float32, [None, 64, 64, 3])\n"
            "out = tf.compat.v1.layers.dense(x, 10)\nsess = tf.compat.v1.Session()\n"
            "for chunk in chunks:\n    batch = [cv2.imread(p) for p in chunk]\n"
            "    print(sess.run(out, feed_dict={x: batch}))\n"
        ),
        Valid(  # the text tokenised and padded once, before the generator: its batches slice an array in memory
            "import numpy as np\nimport tensorflow as tf\nfrom tensorflow.keras.preprocessing.sequence import pad_sequences\n"
            "m = tf.keras.Sequential()\n"
            "def windows(x, y, size):\n    while True:\n        for i in range(0, len(x), size):\n"
            "            yield x[i:i + size], y[i:i + size]\n"
            "x = pad_sequences(tokenizer.texts_to_sequences(lines), maxlen=40)\n"
            "m.fit(windows(x, labels, 128), steps_per_epoch=1000, epochs=50)\n"
        ),
    )
    INVALID = (
        Invalid(  # a from_generator pipeline whose generator opens and resizes each image with PIL
            FROM_GENERATOR.format(after=""),
            line=11,
            message_contains="trains on a `Dataset.from_generator()` pipeline whose Python generator reads, decodes,"
            " tokenises or augments data per item (`PIL.Image.open` (line 7)) on one thread",
        ),
        Invalid(  # a parallel map after the generator does not spread the generator's own decoding
            FROM_GENERATOR.format(after=".map(lambda x, y: (x / 255, y), num_parallel_calls=tf.data.AUTOTUNE)"),
            line=11,
            message_contains="whatever the pipeline does after it",
        ),
        Invalid(  # a generator tokenising and padding each window of a text in Python, given one worker
            "import numpy as np\nimport tensorflow as tf\nfrom tensorflow.keras.preprocessing.sequence import pad_sequences\n"
            "m = tf.keras.Sequential()\n"
            "def windows(text, tokenizer, size):\n    while True:\n        x, y = [], []\n"
            "        for end in range(40, len(text)):\n"
            "            x.append(pad_sequences(tokenizer.texts_to_sequences([text[end - 40:end]]), maxlen=40)[0])\n"
            "            y.append(tokenizer.word_index[text[end]])\n"
            "            if len(x) == size:\n                yield np.array(x), np.array(y)\n                x, y = [], []\n"
            "m.fit(windows(text, tokenizer, 128), steps_per_epoch=1000, epochs=50)\n",
            line=14,
            message_contains="(`pad_sequences` (line 9)) on one thread (the default)",
        ),
        Invalid(  # a generator reading and decoding each image with OpenCV, through a helper of the file
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def load(path):\n    return cv2.resize(cv2.imread(path), (224, 224))\n"
            "def batches(paths, labels, size):\n    while True:\n        for i in range(0, len(paths), size):\n"
            "            x = np.array([load(p) for p in paths[i:i + size]])\n            yield x, labels[i:i + size]\n"
            "m.fit(batches(paths, labels, 16), steps_per_epoch=500, epochs=20)\n",
            options={"decoding-generator-one-worker": True},
            line=12,
            message_contains="reads, decodes, tokenises or augments data per item (`cv2.imread` (line 6)) on one thread (the default)",
        ),
        Invalid(  # two augmenting directory flows zipped in a generator, drawn on the training thread (workers=0)
            "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n"
            "m = tf.keras.Sequential()\ndef pairs(path):\n"
            "    images = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['image'], seed=1)\n"
            "    masks = ImageDataGenerator(rotation_range=10).flow_from_directory(path, classes=['mask'], seed=1)\n"
            "    for image, mask in zip(images, masks):\n        yield image / 255, mask / 255\n"
            "m.fit_generator(pairs('train'), steps_per_epoch=300, epochs=5, workers=0)\n",
            options={"tensorflow-version": "2.10"},
            line=9,
            message_contains="on the training thread (workers=0, on TensorFlow 2.10 (the tensorflow-version setting)) from"
            " a Python generator that reads, decodes, tokenises or augments data per item"
            " (`ImageDataGenerator.flow_from_directory` (line 5))",
        ),
        Invalid(  # multi-backend Keras 2 (standalone `keras`, `fit_generator`) given workers=0
            "import cv2\nimport numpy as np\nfrom keras.models import Sequential\nm = Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "m.fit_generator(batches(paths), steps_per_epoch=100, epochs=5, workers=0)\n",
            line=8,
            message_contains="(workers=0, on standalone `keras` with `fit_generator()`)",
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
            message_contains="drawn here between steps come from Python code that reads, decodes, tokenises or augments data per item",
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
        Invalid(  # the helper's decode gated by a parameter this call leaves at its default (True)
            GATED_DECODE.format(given=""), line=15, message_contains="(`PIL.Image.open` (line 5))"
        ),
        Invalid(  # one worker (the default) on a model whose FLOPs are not known: PIL decoding and jitter per item
            "import numpy as np\nimport tensorflow as tf\nfrom PIL import Image\n"
            "def jittered(path, size):\n    image = Image.open(path).resize(size, Image.BICUBIC)\n"
            "    if np.random.rand() < .5:\n        image = image.transpose(Image.FLIP_LEFT_RIGHT)\n"
            "    return np.array(image) / 255. * np.random.uniform(.7, 1.3)\n"
            "def batches(lines, size):\n    while True:\n"
            "        yield np.array([jittered(line.split()[0], (416, 416)) for line in lines[:size]]), np.zeros(size)\n"
            "def train(model, lines):\n    model.fit_generator(batches(lines, 32), steps_per_epoch=500, epochs=50)\n",
            line=13,
            message_contains="(`PIL.Image.open` (line 5)) on one thread (the default)",
        ),
        Invalid(  # workers=1 on a small network known to do about 300 FLOPs per input element
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n"
            "m = tf.keras.Sequential([tf.keras.layers.Conv2D(16, 3, input_shape=(128, 128, 3)),"
            " tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(2)])\n"
            "def batches(paths):\n    while True:\n"
            "        yield np.array([cv2.resize(cv2.imread(p), (128, 128)) for p in paths[:64]]), np.zeros(64)\n"
            "m.fit(batches(paths), steps_per_epoch=100, epochs=5, workers=1)\n",
            line=8,
            message_contains="on one thread (workers=1)",
        ),
        Invalid(  # the option: also the model whose step hides the decoding
            HEAVY_MODEL_ONE_WORKER,
            options={"decoding-generator-one-worker": True},
            line=9,
        ),
        Invalid(  # workers=0 as a flag's default
            "import argparse\nimport cv2\nimport numpy as np\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--workers', type=int, default=0)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "m.fit(batches(paths), steps_per_epoch=100, epochs=5, workers=args.workers)\n",
            options={"tensorflow-version": "2.8"},
            line=12,
            message_contains="workers=0, the default of `--workers`",
        ),
        Invalid(  # a TF1 training step fed JPEGs decoded item by item before each run, on one of two paths
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n"
            "x = tf.compat.v1.placeholder(tf.float32, [None, 64, 64, 3])\n"
            "loss = tf.reduce_mean(tf.compat.v1.layers.dense(x, 1))\n"
            "train = tf.compat.v1.train.AdamOptimizer().minimize(loss)\nsess = tf.compat.v1.Session()\n"
            "for epoch in range(25):\n    for i in range(0, len(files), 64):\n"
            "        if dataset == 'mnist':\n            images = data_x[i:i + 64]\n"
            "        else:\n            batch = [cv2.resize(cv2.imread(f), (64, 64)) for f in files[i:i + 64]]\n"
            "            images = np.array(batch).astype(np.float32) / 127.5 - 1.\n"
            "        if dataset == 'mnist':\n            sess.run(train, feed_dict={x: images, y: labels})\n"
            "        else:\n            sess.run(train, feed_dict={x: images})\n",
            line=13,
            message_contains="(`cv2.imread` (line 13)) and feed `Session.run()` (line 18)",
        ),
        Invalid(  # train_on_batch on images a comprehension decodes in the loop, before each step
            "import numpy as np\nimport tensorflow as tf\nfrom PIL import Image\nm = tf.keras.Sequential()\n"
            "for epoch in range(20):\n    for i in range(0, len(paths), 32):\n"
            "        x = np.stack([np.asarray(Image.open(p)) for p in paths[i:i + 32]])[..., None]\n"
            "        m.train_on_batch(x / 255, labels[i:i + 32])\n",
            line=7,
            message_contains="feed `train_on_batch()` (line 8)",
        ),
        Invalid(  # a helper of the file returning a comprehension of decoded images, called before each step
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def load(batch_paths):\n    return [cv2.imread(p) for p in batch_paths]\n"
            "for i in range(0, len(paths), 32):\n    x = np.array(load(paths[i:i + 32])).astype(np.float32)\n"
            "    m.train_on_batch(x, labels[i:i + 32])\n",
            line=8,
            message_contains="(`cv2.imread` (line 6))",
        ),
        Invalid(  # a tf.function training step handed batches drawn from a decoding generator with next()
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nopt = tf.keras.optimizers.Adam()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]])\n"
            "@tf.function\ndef train_step(x):\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(model(x, training=True))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "gen = batches(paths)\nfor step in range(10000):\n    x = next(gen)\n    train_step(x)\n",
            line=16,
            message_contains="feed `train_step()` (line 17)",
        ),
        Invalid(  # a list filled image by image in the step loop, after a decode in the filling loop's body
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for epoch in range(20):\n    for i in range(0, len(paths), 32):\n        images = []\n"
            "        for p in paths[i:i + 32]:\n            image = cv2.resize(cv2.imread(p), (64, 64))\n"
            "            images.append(image)\n        m.train_on_batch(np.array(images) / 255, labels[i:i + 32])\n",
            line=10,
            message_contains="(`cv2.imread` (line 9)) and feed `train_on_batch()` (line 11)",
        ),
        Invalid(  # one buffer allocated before the steps, refilled with random images before each
            "import numpy as np\nimport tensorflow as tf\nfrom PIL import Image\nm = tf.keras.Sequential()\n"
            "batch = np.empty((8, 32, 32, 3), dtype=np.uint8)\nfor step in range(5000):\n    for j in range(8):\n"
            "        batch[j] = np.asarray(Image.open(paths[np.random.randint(len(paths))]).resize((32, 32)))\n"
            "    m.train_on_batch(batch / 255.0, np.zeros(8))\n",
            line=8,
            message_contains="(`PIL.Image.open` (line 8)) and feed `train_on_batch()` (line 9)",
        ),
        Invalid(  # a helper filling a preallocated batch image by image, called before each step
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def load_batch(files):\n    x = np.zeros((32, 64, 64, 3), dtype=np.float32)\n"
            "    for j, f in enumerate(files):\n        x[j] = cv2.resize(cv2.imread(f), (64, 64))\n    return x\n"
            "for epoch in range(20):\n    for i in range(0, len(paths), 32):\n"
            "        m.train_on_batch(load_batch(paths[i:i + 32]), labels[i:i + 32])\n",
            line=12,
            message_contains="(`cv2.imread` (line 8)) and feed `train_on_batch()` (line 12)",
        ),
        Invalid(  # a preallocated batch filled image by image in the step loop, by a helper that decodes one file
            "import numpy as np\nimport tensorflow as tf\nfrom PIL import Image\n"
            "x = tf.compat.v1.placeholder(tf.float32, [None, 64, 64, 3])\n"
            "train = tf.compat.v1.train.AdamOptimizer().minimize(tf.reduce_mean(tf.compat.v1.layers.dense(x, 1)))\n"
            "sess = tf.compat.v1.Session()\n"
            "def get_img(path):\n    return np.asarray(Image.open(path).convert('RGB').resize((64, 64)))\n"
            "for epoch in range(2):\n    for i in range(0, len(paths), 16):\n"
            "        batch = np.zeros((16, 64, 64, 3), dtype=np.float32)\n"
            "        for j, p in enumerate(paths[i:i + 16]):\n            batch[j] = get_img(p).astype(np.float32)\n"
            "        sess.run(train, feed_dict={x: batch})\n",
            line=13,
            message_contains="(`PIL.Image.open` (line 8)) and feed `Session.run()` (line 14)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if hides_gpus(facts):
            return
        draws: dict[tuple[int | None, int], list[Site]] = {}  # (cell, line drawing the batch) -> the steps it feeds
        for site in facts.sites:
            generated = site.features.get("input_generator_host")
            if generated is not None and is_keras_model_method(site.api, ("fit", "fit_generator")):
                if not in_test_code(facts, site) and (
                    options.get("decoding-generator-one-worker", False) or not hides_decoding(site)
                ):
                    method = site.api.rsplit(".", 1)[-1]
                    message = self.GENERATED_MESSAGE.format(method=method, host=generated)
                    yield self.diagnostic(site.callsite.span, facts.path, message)
                continue
            host = site.features.get("input_host_work")
            if host is None or in_test_code(facts, site):
                continue
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):  # a step on the batch it is handed
                if not is_training_step(site):
                    continue  # (a tf.function that trains nothing)
                loop = site.loop_runs
                if loop is None or loop > 1:
                    span = site.callsite.span
                    above = site.features.get("input_drawn_above")
                    draws.setdefault(
                        (span.cell, span.line - above if isinstance(above, int) else span.line), []
                    ).append(site)
                continue
            call = facts.node(site)
            if not isinstance(call, ast.Call) or any(k.arg is None for k in call.keywords):
                continue
            found = worker_setting(facts, site, call)
            if found is None:
                continue
            count, workers = found
            method = site.api.rsplit(".", 1)[-1]
            keras = training_thread(facts, options) if count == 0 else None
            if keras is not None:
                yield self.diagnostic(
                    site.callsite.span,
                    facts.path,
                    self.UNOVERLAPPED_MESSAGE.format(method=method, host=host, workers=workers, keras=keras),
                )
            elif options.get("decoding-generator-one-worker", False) or (
                count == 1 and site.features.get("input_kind") == "generator" and not hides_decoding(site)
            ):
                yield self.diagnostic(
                    site.callsite.span, facts.path, self.MESSAGE.format(method=method, host=host, workers=workers)
                )
        for (_, line), fed in draws.items():
            draw = draw_node(facts, fed[0], line)
            steps = [step for step in fed if draw is None or each_step(facts, draw, step)]
            if not steps:
                continue
            lines = sorted({step.callsite.span.line for step in steps})
            where = ("line " if len(lines) == 1 else "lines ") + ", ".join(map(str, lines))
            names = "()`, `".join(sorted({_step_name(facts, step) for step in steps}))
            message = self.DRAWN_MESSAGE.format(host=steps[0].features["input_host_work"], method=names, steps=where)
            yield self.diagnostic(_span(facts, draw, steps[0]), facts.path, message)


def training_thread(facts: FileFacts, options: Mapping[str, Any]) -> str | None:
    """The Keras that draws a `fit(workers=0)`'s generator on the training thread with nothing
    prefetched: multi-backend Keras 2.0-2.3, or tf.keras of a TensorFlow set or pinned before 2.11;
    None where neither is known. From 2.11 tf.data puts a prefetch after the generator by itself
    (`inject_prefetch`, tf_data_defaults.py), tf.keras 2.13 to 2.16 add one whatever `workers`
    (`GeneratorDataAdapter`), 2.17 refuses `workers=0` and Keras 3's `fit()` takes no `workers`."""
    found = target(facts.path, str(options.get(OPTION.key) or ""))
    flavour = keras_flavour(facts, found)
    if flavour.multi_backend:
        return flavour.basis
    return found.shown() if found.stated and found.older_than(*SINCE["inject_prefetch"]) else None


def _step_name(facts: FileFacts, step: Site) -> str:
    """How a finding names a step: `train_on_batch`, a TF1 graph run as `Session.run`, a
    `tf.function` by the name it is called by (`train_step`)."""
    if is_keras_model_method(step.api, ("train_on_batch",)):
        return "train_on_batch"
    call = facts.node(step)
    if step.api.endswith(".__call__") and isinstance(call, ast.Call):
        return last_name(call.func)
    return ".".join(step.api.rsplit(".", 2)[-2:])


def _span(facts: FileFacts, draw: ast.AST | None, step: Site) -> Span:
    """The finding's place: the header of the loop drawing the batch, the draw's call or
    comprehension, else the step itself."""
    span = step.callsite.span
    if isinstance(draw, (ast.For, ast.AsyncFor)):
        return facts.span(draw, span.cell, through=draw.iter)
    if isinstance(draw, ast.expr):
        return facts.span(draw, span.cell)
    return span
