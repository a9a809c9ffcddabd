"""GL407 generator-in-one-worker: Keras training fed by a `keras.utils.Sequence` in one worker."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.devices import hides_gpus
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.fit_workers import fed_in_one_worker
from greenlint.rules.site import is_keras_model_method


class GeneratorInOneWorker(Rule):
    """
    ## What it does
    Flags a Keras training (`fit()`, or Keras 2's `fit_generator()`) whose batches come from
    a `keras.utils.Sequence` drawn by a single worker: an `ImageDataGenerator` iterator
    (`.flow()`, `.flow_from_directory()`, `.flow_from_dataframe()`) or an instance of a class
    deriving `Sequence`, made in the file or in a project module it imports (the analysis's
    `input_kind` feature), with `workers` left at its default (1) or set to 0 or 1, as
    written or as the default of a parameter or a flag of the file (`workers=args.workers`
    with `--workers` defaulting to 1, or passed so by every call of the function). A fit given no
    `workers` on a Keras 3 `PyDataset` counts those the call making it passes
    (`Images(paths, workers=4)`, directly or through the name the file assigns it to), else those
    its class's constructor gives `super().__init__()` (the analysis's `input_workers`): reported
    at a literal 0 or 1, not at 2 or more nor at an expression. Not reported: a `.flow()` of arrays whose
    `ImageDataGenerator`'s arguments are all literals and none augments (rotations, shifts,
    shears, zooms, flips, brightness or channel shifts, ZCA whitening: hostwork.py), which
    slices (and at most rescales) arrays already in memory, cheap beside a step; an instance of
    a `Sequence` class whose `__getitem__` only slices NumPy arrays or tensors the instance is
    known to hold (no loop, no comprehension, no call but `len`, `range`, `slice`, `min`, `max` or
    `int`: the analysis's `input_sliced`; an attribute of unknown value may be a flow that reads
    files when indexed), whose batch is a copy of rows already in memory whatever the worker count; a fit fed
    by a plain Python generator (a call of a generator function: more workers would break it, see Fix safety;
    GL409 reports one that decodes per item, whose fix is a pipeline or a `Sequence`), by a
    tf.data pipeline or arrays, or by data of unknown kind; a fit whose `workers` is not
    known, or is more than 1; one in test code; one in a file that hides every GPU at top
    level (`os.environ["CUDA_VISIBLE_DEVICES"] = ""` or `"-1"`, or
    `tf.config.set_visible_devices([], "GPU")`): the training runs on the host, whose step
    far outlasts a batch's preparation, and more workers would take cores from it.

    ## Why is this bad?
    Keras draws the batches of a Python generator or `Sequence` through a queue filled by
    `workers` threads (processes with `use_multiprocessing=True`; with `workers=0`, on the
    training thread itself in multi-backend Keras and tf.keras before 2.11, on one thread of
    tf.data's in later ones). With one worker, reading, decoding and augmenting every image
    runs on one host core, in Python: where that takes longer than a training step, the
    accelerator waits for the next batch. A training with on-the-fly augmentation
    (`ImageDataGenerator`, imgaug, OpenCV) of images a GPU processes in milliseconds is then
    bound by that one core: the device idles for much of each step and still draws its idle
    power for the whole run. Spreading the work over several processes, or moving it into a
    `tf.data` pipeline whose `map` runs in parallel (`num_parallel_calls=tf.data.AUTOTUNE`)
    and prefetches, keeps the device busy and shortens the run. On Keras 3 (TensorFlow 2.16 and
    later) `fit()` takes no `workers`: a `Sequence` is a `keras.utils.PyDataset`, given its
    workers in its constructor (`super().__init__(workers=8, use_multiprocessing=True)`), and
    with one worker its batches are drawn by one thread of `tf.data` (on the TensorFlow backend,
    `keras/src/trainers/data_adapters/py_dataset_adapter.py` wraps the `PyDataset` in
    `Dataset.from_generator(...).prefetch(AUTOTUNE)` and starts an `OrderedEnqueuer` only for
    `workers > 1` or multiprocessing).

    ## Example
    ```python
    train = ImageDataGenerator(rotation_range=40).flow_from_directory("train/", batch_size=32)
    model.fit_generator(train, steps_per_epoch=500, epochs=50)
    ```

    ## Use instead
    ```python
    train = ImageDataGenerator(rotation_range=40).flow_from_directory("train/", batch_size=32)
    model.fit_generator(train, steps_per_epoch=500, epochs=50, workers=8, use_multiprocessing=True)
    ```
    (or a `tf.data` pipeline with a parallel `map` and `prefetch`).

    ## Energy evidence
    Not measured: the saving is the device's idle time while one host core prepares each
    batch, which needs an accelerator and a workload whose Python preprocessing is the
    bottleneck to show; this machine has no accelerator. The physical case rests on Keras'
    own data adapters: tf.keras 2.x (`keras/engine/data_adapter.py`, `GeneratorDataAdapter`,
    which `KerasSequenceAdapter` extends) starts an `OrderedEnqueuer` of `workers` threads or
    processes only for `workers > 1` or multiprocessing, and otherwise draws the `Sequence`
    from one Python thread through `Dataset.from_generator` with one batch of prefetch; Keras 3
    (see Why is this bad?) from one thread too. A step whose batch is not ready
    waits, and the device draws its idle power meanwhile. Default since the real-world benchmark judged
    its findings (bench/realworld: 4 of 4 true).

    ## Fix safety
    No automatic fix: more processes take more host memory. A plain Python generator is not
    safe to share between workers (threads raise "generator already executing", processes
    each yield the same batches), which is why only a `keras.utils.Sequence`, whose batches
    are indexed, is reported.

    ## Options
    None.
    """

    code = "GL407"
    name = "generator-in-one-worker"
    CALLS = frozenset({"fit", "fit_generator"})
    MESSAGE = (
        "`{method}()` draws its batches from Python code in one worker ({workers}): one host core prepares"
        " every batch, and the device waits whenever that takes longer than a step"
    )
    FIX_TITLE = (
        "Give the batches several workers with `use_multiprocessing=True` (`fit()`'s on Keras 2, the `PyDataset`'s"
        " constructor's on Keras 3), or build a parallel `tf.data` pipeline"
    )
    VALID = (
        Valid(  # several worker processes
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "m.fit_generator(gen, steps_per_epoch=100, epochs=5, workers=8, use_multiprocessing=True)\n"
        ),
        Valid(  # fit() on arrays: Keras slices them itself
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit(x, y, epochs=5)\n"
        ),
        Valid(  # fit() on a tf.data pipeline
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)\nm.fit(ds, epochs=5)\n"
        ),
        Valid(  # the number of workers comes from elsewhere
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def train(workers):\n    m.fit_generator(gen, steps_per_epoch=100, epochs=5, workers=workers)\n"
        ),
        Valid(  # test code
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def test_fit():\n    m.fit_generator(Batches(), steps_per_epoch=2, epochs=1)\n"
            "class Batches(tf.keras.utils.Sequence):\n    def __len__(self):\n        return 100\n"
        ),
        Valid(  # a plain generator function: not safe to share between workers
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(x, y):\n    while True:\n        yield x[:32], y[:32]\n"
            "m.fit_generator(batches(x, y), steps_per_epoch=100, epochs=5)\n"
        ),
        Valid(  # a name bound to a generator function's call
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(flow_a, flow_b):\n    for a, b in zip(flow_a, flow_b):\n        yield a, b\n"
            "train = batches(a, b)\nm.fit(train, steps_per_epoch=100, epochs=5)\n"
        ),
        Valid(  # every GPU hidden: the step runs on the host
            "import os\nimport tensorflow as tf\nos.environ['CUDA_VISIBLE_DEVICES'] = ''\nm = tf.keras.Sequential()\n"
            "train = tf.keras.preprocessing.image.ImageDataGenerator().flow(x, y)\nm.fit(train, epochs=5)\n"
        ),
        Valid(  # a flow of arrays in memory, rescaled only: nothing read or warped per item
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "train = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255).flow(x, y, batch_size=32)\n"
            "m.fit(train, epochs=5)\n"
        ),
        Valid(  # a Sequence of the file whose batches are slices of the arrays it holds: no per-item work
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "(x, y), _ = tf.keras.datasets.mnist.load_data()\n"
            "class Batches(tf.keras.utils.Sequence):\n    def __init__(self, x, y, size):\n"
            "        self.x, self.y, self.size = x, y, size\n"
            "    def __len__(self):\n        return len(self.x) // self.size\n"
            "    def __getitem__(self, i):\n        rows = slice(i * self.size, min((i + 1) * self.size, len(self.x)))\n"
            "        return self.x[rows], self.y[rows]\n"
            "m.fit(Batches(x, y, 32), epochs=20)\n"
        ),
        Valid(  # Keras 3: the PyDataset's constructor gives it eight worker processes
            "import keras\nm = keras.Sequential()\n"
            "class Images(keras.utils.PyDataset):\n    def __init__(self, paths, **kwargs):\n"
            "        super().__init__(workers=8, use_multiprocessing=True, **kwargs)\n        self.paths = paths\n"
            "    def __getitem__(self, i):\n        return load(self.paths[i])\n"
            "m.fit(Images(paths), epochs=20)\n"
        ),
        Valid(  # Keras 3: the PyDataset given four workers where it is made, through its constructor's **kwargs
            "import keras\nm = keras.Sequential()\n"
            "class Images(keras.utils.PyDataset):\n    def __init__(self, paths, **kwargs):\n"
            "        super().__init__(**kwargs)\n        self.paths = paths\n"
            "    def __getitem__(self, i):\n        return load(self.paths[i])\n"
            "train = Images(paths, workers=4, use_multiprocessing=True)\nm.fit(train, epochs=20)\n"
        ),
        Valid(  # the input's kind is not known (a parameter, another library)
            "import tensorflow as tf\nm = tf.keras.Sequential()\nm.fit_generator(gen, steps_per_epoch=100, epochs=5)\n"
        ),
    )
    INVALID = (
        Invalid(  # a Sequence subclass of the file
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Batches(tf.keras.utils.Sequence):\n    def __len__(self):\n        return 100\n"
            "m.fit_generator(Batches(), steps_per_epoch=100, epochs=5)\n",
            line=6,
            message_contains="one worker (the default)",
        ),
        Invalid(  # a Sequence whose items are read from files in a loop over the batch
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Batches(tf.keras.utils.Sequence):\n    def __init__(self, ids, size):\n"
            "        self.ids, self.size = ids, size\n"
            "    def __len__(self):\n        return len(self.ids) // self.size\n"
            "    def __getitem__(self, i):\n        ids = self.ids[i * self.size:(i + 1) * self.size]\n"
            "        return np.stack([np.load('data/' + k + '.npy') for k in ids]), np.zeros(len(ids))\n"
            "m.fit(Batches(ids, 32), epochs=20)\n",
            line=12,
        ),
        Invalid(  # Keras 3: the PyDataset's constructor gives it one worker
            "import keras\nm = keras.Sequential()\n"
            "class Images(keras.utils.PyDataset):\n    def __init__(self, paths):\n"
            "        super().__init__(workers=1)\n        self.paths = paths\n"
            "    def __getitem__(self, i):\n        return load(self.paths[i])\n"
            "m.fit(Images(paths), epochs=20)\n",
            line=9,
            message_contains="workers=1 given to the `PyDataset`",
        ),
        Invalid(  # a Sequence indexing the augmenting flows it holds: each index reads and warps images
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Pair(tf.keras.utils.Sequence):\n    def __init__(self, images, masks):\n"
            "        self.images, self.masks = images, masks\n"
            "    def __getitem__(self, i):\n        return self.images[i][0], self.masks[i][0]\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=10)\n"
            "m.fit(Pair(aug.flow_from_directory('i/', seed=1), aug.flow_from_directory('m/', seed=1)), epochs=5)\n",
            line=9,
        ),
        Invalid(  # one of two Sequence subclasses, picked at run time
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Voc(tf.keras.utils.Sequence):\n    pass\nclass Coco(tf.keras.utils.Sequence):\n    pass\n"
            "def make(kind):\n    if kind == 'voc':\n        g = Voc()\n    else:\n        g = Coco()\n    return g\n"
            "m.fit(make('coco'), epochs=20, workers=1)\n",
            line=13,
            message_contains="workers=1",
        ),
        Invalid(  # an augmenting ImageDataGenerator given to fit()
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=40)\n"
            "train = aug.flow_from_directory('train/', batch_size=32)\n"
            "m.fit(train, epochs=20)\n",
            line=5,
        ),
        Invalid(  # one GPU chosen, not hidden; a flow of arrays warped per image
            "import os\nimport tensorflow as tf\nos.environ['CUDA_VISIBLE_DEVICES'] = '0'\nm = tf.keras.Sequential()\n"
            "train = tf.keras.preprocessing.image.ImageDataGenerator(shear_range=0.2).flow(x, y)\nm.fit(train, epochs=5)\n",
            line=6,
        ),
        Invalid(  # a flow of arrays whose generator's arguments are not all known: it may warp each image
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255, **augmentation)\n"
            "m.fit(aug.flow(x, y, batch_size=32), epochs=20)\n",
            line=4,
        ),
        Invalid(  # an argparse default of one worker
            "import argparse\nimport tensorflow as tf\np = argparse.ArgumentParser()\n"
            "p.add_argument('--workers', type=int, default=1)\nargs = p.parse_args()\nm = tf.keras.Sequential()\n"
            "gen = tf.keras.preprocessing.image.ImageDataGenerator().flow_from_directory('train/')\n"
            "m.fit_generator(gen, steps_per_epoch=100, epochs=5, workers=args.workers, use_multiprocessing=True)\n",
            line=8,
            message_contains="workers=1, the default of `--workers`",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if hides_gpus(facts):
            return
        for site in facts.sites:
            if not is_keras_model_method(site.api, ("fit", "fit_generator")):
                continue
            workers = fed_in_one_worker(facts, site)
            if workers is None or in_test_code(facts, site):
                continue
            method = site.api.rsplit(".", 1)[-1]
            yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(method=method, workers=workers))

