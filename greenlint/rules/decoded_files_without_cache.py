"""GL408 decoded-files-without-cache: a pipeline or Python loader that decodes files again on every epoch, never cached."""

from __future__ import annotations

import ast
import copy
import functools
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from greenlint.analysis import flow
from greenlint.analysis.arrays import tfds_split_samples
from greenlint.analysis.callsite import Span
from greenlint.analysis.hostwork import DECODES, encoding
from greenlint.analysis.sources import MAX_BYTES, read_bytes
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument, notebook
from greenlint.rules.batch_draw import draw_node, each_step
from greenlint.rules.callbacks import imported_from_project
from greenlint.rules.constant_branches import never_runs
from greenlint.rules.dataset_cache import caches, optional_cache
from greenlint.rules.deliberate import in_test, in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.epoch_passes import epochs_of
from greenlint.rules.importers import (
    imported_modules,
    importer_facts,
    loader_of,
    module_facts,
    per_content,
)
from greenlint.rules.listings import LISTED_BY
from greenlint.rules.pipeline_runs import (
    ITERATES,
    loop_at,
    pipeline_passes,
    repeated_after,
    repeated_in_helper,
    runs_once,
)
from greenlint.rules.queue_decoding import queue_decodes
from greenlint.rules.site import Site, is_dataset_method, is_keras_model_method
from greenlint.rules.syntax import (
    LOOPS,
    SCOPES,
    Function,
    Loop,
    calls_of,
    chain_top,
    definitions,
    enclosing,
    is_training_step,
    last_bindings,
    last_name,
    located_definitions,
    loop_varying,
    map_function,
    own_loops,
    parameters,
)
from greenlint.rules.tf_data_defaults import OPTION
from greenlint.rules.tf_decoders import DECODER

#: TF1: a function making a filename queue over `paths` (`{epochs}`: its other arguments), reading each file
#: whole and decoding it (`{decode}`, line 6 where one line) into batches.
QUEUE = (
    "import tensorflow as tf\ndef loader(paths, batch_size, png=False, raw=False, epochs=1):\n"
    "    queue = tf.train.string_input_producer(paths, shuffle=False{epochs})\n"
    "    reader = tf.WholeFileReader()\n    _, data = reader.read(queue)\n    {decode}\n"
    "    return tf.train.shuffle_batch([image], batch_size=batch_size, capacity=5000, min_after_dequeue=1000)\n"
)

#: Keras utilities that list a folder of files and decode each file on every pass.
FROM_DIRECTORY = ("image_dataset_from_directory", "audio_dataset_from_directory")
#: What a module's text holds where one of its pipelines may decode files (the bytes read before analysing it).
DECODER_TEXT = re.compile(rb"\b(decode_\w+|parse_\w*example|parse_tensor|\w+_dataset_from_directory)\b")
#: Substrings without which `DECODER_TEXT` cannot match: looked for first (a plain search is much cheaper).
DECODER_WORDS = (b"decode_", b"parse_", b"_dataset_from_directory")
#: What an ASCII module's text holds where it builds a decoding pipeline (`_decoding_maps`): the word `map`
#: (a `Dataset.map()` is called by that name, `ds.map(f)`, or bound from it) or a directory utility.
PIPELINE_TEXT = re.compile(rb"\bmap\b|_dataset_from_directory")
#: A module-level function's name as a module's text defines it (`def name(` at the start of a line: a
#: method or a nested function is indented), read without a tree. Only a module-level function's
#: pipeline is followed to another module (`_returned_decoding`).
DEFINED_TEXT = re.compile(rb"(?:^|\r)\f*(?:async\s+)?def\s+([^\s(]+)\s*\(", re.MULTILINE)  # a lone \r ends a line too
#: module path -> (its stamp, the names of the module-level functions its text defines where it names a
#: decoder and a pipeline, else none): `_decoding_defines` memoised.
_DECODING_DEFINES: dict[str, tuple[tuple | None, frozenset[str]]] = {}
#: module path -> (its stamp, whether its text defines an iterator's method): `_iterators_in_reach`
#: reads each project module once per content, not once per module importing it.
_ITERATOR_DEFINES: dict[str, tuple[tuple | None, bool]] = {}
#: The package TFDS is imported as: `tfds.load()` gives datasets that decode each example as it is read.
TFDS = "tensorflow_datasets"
#: How a finding names a `tfds.load()` dataset.
TFDS_WHAT = "The dataset `tfds.load()` gives (TFDS decodes each example as it reads it)"
#: How a finding names the dataset a `tfds.builder()`'s `as_dataset()` gives.
TFDS_BUILDER_WHAT = "The dataset `as_dataset()` of a `tfds.builder()` gives (TFDS decodes each example as it reads it)"
#: Bytes per decoded pixel channel: the directory utilities yield float32 images.
FLOAT32 = 4
#: How many helpers a map function is followed through, parameter to parameter (`map_fn=map_fn`).
MAX_HOPS = 4
#: How `input_host_work` names an `ImageDataGenerator` flow of arrays in memory (analysis/hostwork.py's
#: `describe`): host work per item, but no file read.
ARRAY_FLOW = "`ImageDataGenerator.flow` "
#: The names only file decoders end in (`imread`, `load_img`), however imported; not `open`, `load`, `read`.
DECODED_BY = frozenset(name.rsplit(".", 1)[-1] for name in DECODES) - {"open", "load", "read"}


#: The definition of an iterator's or a sequence's item method, as written.
ITERATOR_TEXT = re.compile(rb"\bdef\s+(?:__next__|__getitem__)\s*\(")
#: The calls that add to a list or a dict: kept where they add to an attribute of `self`.
KEEPING = frozenset({"append", "extend", "update", "setdefault", "insert"})

#: A case's iterator class whose `__next__` decodes a file per item through its `read` (line 19); `{make}`
#: builds one before the script's loops (line 21).
ITERATED_LOADER = (
    "import cv2\nimport numpy as np\nimport tensorflow as tf\nclass Loader:\n    def __init__(self, paths, batch=8):\n"
    "        self.paths, self.batch, self.i = paths, batch, 0\n    def __len__(self):\n"
    "        return len(self.paths) // self.batch\n    def __iter__(self):\n        self.i = 0\n        return self\n"
    "    def __next__(self):\n        if self.i >= len(self):\n            raise StopIteration\n"
    "        chunk = self.paths[self.i * self.batch:(self.i + 1) * self.batch]\n        self.i += 1\n"
    "        return np.stack([self.read(p) for p in chunk])\n    def read(self, path):\n"
    "        return cv2.resize(cv2.imread(path), (64, 64))\n"
    "paths = sorted(open('train.txt').read().split())\n{make}\n"
)
#: The `read` of `ITERATED_LOADER` keeping each decoded file in a dict of the instance, decoding it on a miss only.
KEPT_READ = (
    "        if path not in self.kept:\n            self.kept[path] = cv2.resize(cv2.imread(path), (64, 64))\n"
    "        return self.kept[path]\n"
)


#: A case's endless generator that reads and decodes a file per item (line 8), before its fit.
DECODING_GENERATOR = (
    "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
    "def batches(paths):\n    while True:\n        for i in range(0, len(paths), 32):\n"
    "            yield np.array([cv2.imread(p) for p in paths[i:i + 32]]), np.zeros(32)\n"
)
#: A case's `keras.utils.Sequence` that reads and decodes a file per item in `__getitem__` (line 11), before its fit.
DECODING_SEQUENCE = (
    "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
    "class Faces(tf.keras.utils.Sequence):\n    def __init__(self, paths):\n        self.paths = paths\n"
    "    def __len__(self):\n        return len(self.paths) // 32\n"
    "    def __getitem__(self, i):\n"
    "        x = np.array([cv2.resize(cv2.imread(p), (64, 64)) for p in self.paths[i * 32:(i + 1) * 32]])\n"
    "        return x, np.zeros(32)\n"
)


#: A case's decoding pipeline whose `.cache()` an absl flag guards (`{default}`: the flag's default), fit for 30 epochs.
FLAGGED_CACHE = (
    "import tensorflow as tf\nfrom absl import flags\n"
    "flags.DEFINE_bool('cache_dataset', {default}, 'Cache the decoded images.')\nFLAGS = flags.FLAGS\n"
    "def load(path):\n    return tf.io.decode_png(tf.io.read_file(path))\n"
    "def train(model, files):\n    ds = tf.data.Dataset.from_tensor_slices(files).map(load)\n"
    "    if FLAGS.cache_dataset:\n        ds = ds.cache()\n    model.fit(ds.batch(32), epochs=30)\n"
)


#: ITERATED_LOADER whose decode runs only where `IN_MEMORY` (a case's constant, set before it) is false, iterated on
#: 20 epochs (its loop at line 26 once the constant's line comes first).
SWITCHED_LOADER = ITERATED_LOADER.replace(
    "        return cv2.resize(cv2.imread(path), (64, 64))\n",
    "        if not IN_MEMORY:\n            return cv2.resize(cv2.imread(path), (64, 64))\n        return DECODED[path]\n",
).format(make="train = Loader(paths)") + "for epoch in range(20):\n    for x in train:\n        train_step(x)\n"

#: A case's decoding pipelines (line 6) made per pattern, appended to a list and each handed by a comprehension to a
#: helper that maps and repeats it (line 12).
HANDED_ON = (
    "import tensorflow as tf\n\n\ndef decoded(pattern):\n    files = tf.data.Dataset.list_files(pattern)\n"
    "    images = files.map(tf.io.read_file).map(tf.io.decode_png)\n    return images\n\n\n"
    "def prepare(dataset, batch_size, count=1):\n    patches = dataset.map(lambda x: tf.image.resize(x, [64, 64]))\n"
    "    patches = patches.repeat()\n    return patches.shuffle(5 * batch_size).batch(batch_size)\n\n\n"
    "def provide(batch_size, patterns):\n    images = []\n    for pattern in patterns:\n"
    "        images.append(decoded(pattern))\n    return [prepare(x, batch_size) for x in images]\n"
)


#: A case's `tfds.builder()` whose `as_dataset()` (`{options}`: its further arguments) is fit for 10 epochs.
TFDS_BUILDER = (
    "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
    "def train(model):\n    builder = tfds.builder('mnist')\n    builder.download_and_prepare()\n"
    "    ds = builder.as_dataset(split='train', as_supervised=True{options})\n"
    "    model.fit(ds.shuffle(1000).batch(128), epochs=10)\n"
)


class DecodedFilesWithoutCache(Rule):
    """
    ## What it does
    Flags a `tf.data` pipeline that reads and decodes files and is run for many epochs with no
    `.cache()`: `tf.keras.utils.image_dataset_from_directory()` (or
    `audio_dataset_from_directory()`), or a `Dataset.map()` whose function (a decoder itself, given
    by reference as in `ds.map(tf.io.decode_png)`, a lambda, or a function of this file and the
    functions of this file it calls) decodes or parses file contents (`tf.io.decode_jpeg`, `tf.image.decode_png`, `tf.io.decode_image`,
    `tf.audio.decode_wav`, `tf.io.parse_single_example`, ...), or a split `tfds.load()` gives (TFDS
    parses and decodes each example as it reads it, unless given `decoders=`; named by a literal
    `split`, alone, in a list, or with `with_info=True`: a list's split picked by unpacking, a nested
    target too (`(train, test), info = tfds.load(...)`), or by its index, `ds[0]`; likewise the split `as_dataset()` gives of a `tfds.builder()`, called on it or
    on the name its function last bound to it: not on a builder it is given, whose kind is not known
    there), when the pipeline, directly or through the names it is assigned to in
    the same function (in a notebook, a top-level name also in the later cells; a name bound
    again holds another value from there on), is given to `fit()` with `epochs`
    other than 1 (as the training or the validation data; with `steps_per_epoch`, as "Options"
    says), or iterated by a `for` loop inside
    another loop (an epoch loop), also through `enumerate`, `zip` or `tqdm`. A pipeline a function
    returns (alone or as an element of a tuple) is followed to the calls of that function in the
    file, and a module-level function the file never calls to its calls in the scripts beside the
    module that name TensorFlow and import it (`data.make_dataset(paths)` in train.py; the finding
    stays where the pipeline is built and names the script's loop, "every pass of the loop at
    train.py line 176"). A call of a module-level function of a project module the file imports
    (directly or through others) that returns such a pipeline, to callers in other modules only and
    with no `.cache()` in that module (`dataset = tl.disk_image_batch_dataset(paths, map_fn=f)`), is
    a pipeline built here: followed likewise, and reported at that call. A map function a helper is
    given as a parameter (`dataset.map(map_fn)`) is each function the file's calls of the helper
    pass there. Also such a pipeline repeated after the
    decoding by `.repeat()` with no count, `None`, -1 or a literal count above 1 (in its chain
    or on a name it is assigned to), wherever it goes then: a cache after an endless `repeat()`
    would never fill, so only the code that builds it can put the cache before it. The finding names the number of epochs or
    the `repeat()` where the code shows it. Likewise such a pipeline that no fit or loop runs again
    but that reaches, through the file's own functions, such a `repeat()` of another function of the
    file: returned to the calls of its function, bound to names, appended to or listed in a list
    that a `for` or a comprehension goes over, and given to a parameter (by position or by name) of
    a function of the file (`[prepare(ds, 32) for ds in images]`, whose `dataset.map(crop).repeat()` runs every
    pass over the files); that finding is on the `repeat()`, where the cache goes (after the maps
    that function makes, before the repeat), and names the decoding. A pipeline given to a method,
    to another module's function, or kept anywhere else (a tuple, an attribute) is not followed
    there.

    Also TensorFlow 1's queue pipelines: a decoder of images or audio (`tf.image.decode_jpeg`,
    `decode_png`, `decode_image`, `tf.audio.decode_wav`, ...; also through a name every binding of
    which in the function is one, `decode = tf.image.decode_jpeg`) given the contents a reader
    reads (`key, value = reader.read(queue)`) from a filename queue that the same function makes
    with `tf.train.string_input_producer(files)` and no `num_epochs` (or None): the queue cycles
    through its files for ever, so each file is decoded again on every pass. The finding is on the
    decode; its advice is to decode each file once and read the decoded arrays (TensorFlow 1 has no
    `.cache()` for a queue). A `num_epochs` count (a parameter may be 1), a parse of a record
    (`TFRecordReader`'s examples: the records are the stored form) and `decode_raw` are not reported.

    Also a `fit()` (or Keras 2's `fit_generator()`) run for more than one epoch (a literal, a
    default, or a count the code does not show, as above) on a Python generator or a
    `keras.utils.Sequence` that reads and decodes a file per item (the analysis's
    `input_host_work`, of the generator's loops or the `Sequence`'s `__getitem__`, less a `.flow()`
    of arrays and text preprocessing), where each epoch is a pass over the same data: a `Sequence`
    given no `steps_per_epoch` (Keras draws all its batches, by index, on each epoch), or a
    `steps_per_epoch` computed from a length (`int(len(train_keys) / batch_size)`: the code sizes an
    epoch as one pass over a list). The finding is on the fit, naming the decode; where the decoded
    set may not fit in memory, a memory-mapped `.npy` file on a local disk keeps it (Energy
    evidence: its read back costs far less than a decode). Not reported: a
    `steps_per_epoch` not derived from a length (a count of steps may never come back to a file),
    a plain generator given none, one epoch, a fit given `**kwargs`, test code; a decode in a
    function that keeps every result (`functools.cache`, `lru_cache(maxsize=None)`: each file is
    decoded once) or that fills a dict kept between passes on a miss (`if p not in self.cache:
    self.cache[p] = cv2.imread(p)`, the dict an attribute, a global, or a name bound before the
    loops; not one bound afresh on each pass), here and in the Python loops below.

    Also a Python loop that decodes the files again on every epoch: a `for` that draws the
    batches of a training step (`train_on_batch()`, a `tf.function` training step such as
    `train_step(x)`, a TF1 `sess.run` of the training op: GL409's steps) from a Python
    generator (or function) that reads and decodes a file per item (OpenCV, PIL, scikit-image,
    imageio, SciPy, librosa, soundfile or Keras' `load_img`, or an `ImageDataGenerator` flow over files: the analysis's `input_host_work`, as
    GL409 reads it, less the `.flow()` of arrays in memory and Keras' text preprocessing, which reads
    no file), called in the `for`'s header inside
    another loop of the same function (`for epoch in range(200): for a, b in
    loader.load_batch(1):`) with arguments that do not change from one pass of that loop to the
    next: each pass makes the generator anew, and it decodes the same files again. The finding
    is on that `for`'s header, where the file shows both the generator made anew and the loop
    repeating it, with the generator's decode named. Where the generator is a function of a
    loader module beside the script, imported by it and importing no module of the project
    (analysed with its scripts: greenlint.rules.importers, its cache key holding their
    contents), the finding is in the loader instead, where the decoded arrays are to be kept:
    at the first call in the generator's loops that decodes a file (directly or through a
    function of the loader, `self.imread(path)`), naming the script's loop and draw; an editor
    shows it as of the loader's last analysis. Likewise a list
    comprehension that decodes each batch of such a step from a slice of a list of files
    (`[imread(f) for f in files[i * 64:(i + 1) * 64]]`, or through a name bound to that slice), or a
    loop filling the batch item by item from such a slice (`for f in files[i * 64:(i + 1) * 64]:
    images.append(imread(f))`, or `batch[j] = imread(f)` into a preallocated array)
    whose bounds follow the step loop's variable, in a step loop inside another loop, where the
    list holds the same files on each pass of that loop: no name it reads changes from pass to
    pass, but for the list listed again there from a folder whose path does not change
    (`self.data = glob(pattern)`, then shuffled in place); that finding is on the expression
    drawing the batch. Likewise a `for` inside a loop of more than one pass (an epoch loop) over an
    instance of a class of the file or of a project module the file imports it from (`for x, y in
    trainset:` with `trainset = Dataset(cfg)`, also through `enumerate` or `tqdm`) whose `__next__`
    (else `__getitem__`) reads and decodes a file (OpenCV, PIL, ... as above; itself or through the
    functions and methods of its module, `self.parse_annotation(line)`), the instance made before the
    loop or in it from what is the same on each pass: each pass decodes the same files again. The
    finding is on that `for`'s header, naming the class and its decode. Not where the class keeps what
    it decodes (an item stored in, or added to, an attribute of `self`: `self.cache[path] = image`,
    `self.images.append(image)`), where the `for` may `break` (a pass may draw other files), where an
    instance made once does not start over (its `__iter__` returns `self` unchanged and its `__next__`
    resets nothing where it raises `StopIteration`: the second pass draws nothing), nor for one pass.

    Not reported: a file that calls `Dataset.cache()` anywhere (in memory or to a file) where the
    program's defaults run it (greenlint/rules/dataset_cache.py: one under an `if` on an option whose
    default skips it, `if FLAGS.cache_dataset:` with the flag False by default, does not count, and the
    finding names it and the option); a
    pipeline that is yielded, passed to a function other than `fit`, or returned by a function
    the file never calls and no script beside it calls either (the caller or the helper may cache
    it), nor one a script caches (`Dataset.cache()` anywhere in it), hands to a helper of its own,
    or that a test module iterates; a pipeline only inspected (`.take(n)`; not a split, whose
    `take(n)` the code pairs with a `skip(n)` of the same dataset by the same count: the part taken
    is the training data); one pass
    (`epochs=1`, the default, or a single loop over the batches); a pipeline made anew on every
    pass of the loop that iterates it (a cache would not outlive the pass); for the Python
    loops, a generator made once and drawn from with `next()` or iterated by name, or one whose
    arguments change with each pass of the outer loop (other files each time); a list of files
    made on each pass by anything but a listing of the same folder (a random sample, another
    shard), or the same slice on every step; a `repeat(n)` whose count is a name or an expression
    (a parameter may be 1), a `repeat()` before the decoding; a generator that draws at random,
    yields in a `while` loop, or only yields what it was given (rows of arrays in memory); one that
    calls an augmentation (a call whose name holds `aug`, `transform`, `distort` or `jitter`).

    A `for` over `range(n)` (maybe through a progress bar: `tqdm(range(n))`, tqdm's `trange(n)`) whose
    bounds the code shows to allow at most one pass (a literal, a parameter's or flag's default, what the file's calls pass:
    `train(epochs=1)`) repeats nothing and is not reported; a count the code does not show (`epochs=args.epochs` with the flag
    defined elsewhere) is taken as the more than one pass an epoch loop is written for, and the
    finding quotes it.

    Whether the decoded set fits in memory is not known from the code. The finding says what it
    knows (the shape and size of one decoded image where `image_size` is given), never a size of
    the data set it cannot see, and its advice holds where the set fits. A set of a few thousand
    images at 180×180 fits in a few gigabytes; ImageNet does not, and there `cache(filename)` to
    a local disk (whose read back of a decoded image costs far less than its decode: Energy
    evidence), or nothing, is the right answer. On by default: the decoding it names is redone on
    every epoch after the first whatever the set's size, and a cache saves that host work on each
    of them; how large a share of the whole run that is depends on the training step beside it,
    which the finding does not claim.

    ## Why is this bad?
    Without a cache, every epoch opens every file again, reads its bytes and decodes it (JPEG or
    PNG decoding, resizing, parsing a `tf.train.Example`) on the host's cores, only to produce
    the same tensors as in the previous epoch (a Python loader does the same in NumPy, on one
    thread, between the device's steps). The TensorFlow guide "Better performance with the
    tf.data API" recommends `.cache()` after the expensive, deterministic part of a pipeline
    (and before random augmentation, shuffling and batching): the first epoch decodes, the
    others read the decoded tensors from memory. Over tens of epochs that removes nearly all
    the input pipeline's work, and, when the device waited for input, shortens every epoch.
    For a Python loader, the same holds for its decoded arrays, read once and kept (random
    flips and crops still drawn per batch from them).

    ## Example
    ```python
    import tensorflow as tf

    train = tf.keras.utils.image_dataset_from_directory("flowers", image_size=(180, 180))
    model.fit(train, epochs=30)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    train = tf.keras.utils.image_dataset_from_directory("flowers", image_size=(180, 180))
    train = train.cache().prefetch(tf.data.AUTOTUNE)
    model.fit(train, epochs=30)
    ```

    ## Energy evidence
    The pair under bench/rules/ writes 400 PNG files (96×96, random pixels) and iterates their
    decoded, resized batches for 5 epochs, without and with `.cache()` after the decoding map
    (a new pipeline each run, so every run starts with an empty cache). The saving grows with
    the number of epochs and with what the decoding costs against the training step. The pair
    measures a decoding map. The Python forms are priced per image by
    bench/rules/GL408/decode_cost.py (its results in decode_cost.json beside it): on 2 cores of an
    Intel Xeon at load average 7.9, opening, decoding and resizing one JPEG photograph to
    128×128 took 0.39 to 4.7 ms of CPU time with OpenCV 5.1, 0.85 to 11.6 ms with PIL 13 and 1.5 to
    5.1 ms with `tf.io.decode_jpeg` (TensorFlow 2.21; 178×218 to 1024×768 pixels, 13 to 160 kB
    files), while reading the decoded array back took 8.5 µs from a list in memory and 13 µs from a
    memory-mapped `.npy` file in the page cache: 30 to over 1,000 times less, per image and per
    epoch after the first, whatever the number of images. From a cold disk the read back adds the
    array's bytes at the disk's bandwidth (49 kB per 128×128×3 image: 0.1 ms at 500 MB/s), still
    below every decode measured.

    ## Fix safety
    No automatic fix: a cache holds the whole decoded set in memory, which only the user knows
    fits, and caching after a shuffled file list (`list_files` shuffles by default) or a random
    augmentation would freeze their first epoch's order or draws.

    ## Options
    - `tensorflow-version`: the TensorFlow the code targets (default: read from the project's pins,
      as GL401 reads it). Given `steps_per_epoch`, `fit()` keeps one iterator across the epochs
      over a dataset whose cardinality is infinite or unknown (`from_generator`, `filter`,
      `TFRecordDataset`): no epoch starts it again, and nothing is reported, nor where the code
      does not show the cardinality. Over a finite one, Keras 3 (TensorFlow 2.16 on) starts it again
      each time its batches are all drawn; tf.keras 2 on each epoch where `steps_per_epoch` is its
      number of batches (greenlint/rules/epoch_passes.py).
    """

    code = "GL408"
    name = "decoded-files-without-cache"
    OPTIONS = (OPTION,)
    SITELESS = True  # a loader module decoding per item often holds no TensorFlow call
    MESSAGE = (
        "{what} reads and decodes the files again on {when}: if the decoded set fits in memory ({size}),"
        " `.cache()` after the decoding (before random augmentation and shuffling) decodes each file once"
    )
    HELPER_MESSAGE = (
        "The files {what} at line {line} decodes are read and decoded again on every pass of this `repeat()`, in"
        " another function than the decoding: if the decoded set fits in memory ({size}), `.cache()` right before"
        " it (after the maps that give each element the same result every time, before random augmentation and"
        " shuffling) decodes each file once"
    )
    FIT_MESSAGE = (
        "`{method}()` draws its batches from Python code that reads and decodes the files again ({host}) on {when},"
        " {passes}: decode each file once and keep the arrays (in memory if the decoded set fits: its size is not"
        " known from the code; else in a memory-mapped `.npy` file on a local disk, whose read back costs far less"
        " than a decode), then draw the batches (and any random augmentation) from them"
    )
    LOOP_MESSAGE = (
        "`{what}()` reads and decodes the files again ({host}) on every pass of the loop at line {outer}: if the"
        " decoded set fits in memory (its size is not known from the code), decode each file once, keep the arrays"
        " and draw the batches from them"
    )
    LOADER_MESSAGE = (
        "`{what}()` reads and decodes the files again ({host}) on every pass of the loop at {script} line {outer},"
        " which draws its batches at line {draw}: if the decoded set fits in memory (its size is not known from the"
        " code), decode each file once, keep the arrays and draw the batches from them"
    )
    ITERATOR_MESSAGE = (
        "`{what}`, a `{cls}` whose `{method}` reads and decodes a file per item (`{decode}`, {module} line {line}),"
        " is iterated anew on every pass of the loop at line {outer}, decoding every file again: if the decoded set"
        " fits in memory (its size is not known from the code), decode each file once, keep the arrays and draw the"
        " batches from them"
    )
    SLICED_MESSAGE = (
        "The files of `{what}` are read and decoded again, a batch's slice at a time ({host}), on every pass of the"
        " loop at line {outer}: if the decoded set fits in memory (its size is not known from the code), decode each"
        " file once, keep the arrays and slice the batches from them"
    )
    QUEUE_MESSAGE = (
        "{what} decodes every file again on each pass over the files: the `string_input_producer`"
        " at line {line} cycles through them for ever (no `num_epochs`). If the decoded set fits in memory or on a"
        " local disk (its size is not known from the code), decode (and crop or resize) each file once, keep the"
        " arrays (a `.npy` file, or a TFRecord of the decoded images) and read those instead (with `tf.data`,"
        " `.cache()` after the decoding)"
    )
    FIX_TITLE = "Decode each file once and keep the decoded elements (`.cache()` after a `tf.data` decoding map)"
    VALID = (
        Valid(  # a batch filled item by item from a random sample of the files: each pass draws other files
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "files = sorted(open('train.txt').read().split())\nfor epoch in range(20):\n"
            "    for i in range(len(files) // 64):\n        images = []\n"
            "        for f in np.random.choice(files, 64):\n            images.append(cv2.imread(f))\n"
            "        m.train_on_batch(np.array(images), np.zeros(64))\n"
        ),
        Valid(  # a batch filled from a slice that does not follow the step loop: the same files on every step
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "files = sorted(open('train.txt').read().split())\nfor epoch in range(20):\n"
            "    for i in range(100):\n        batch = np.zeros((64, 64, 64, 3))\n"
            "        for j, f in enumerate(files[:64]):\n            batch[j] = cv2.imread(f)\n"
            "        m.train_on_batch(batch, np.zeros(64))\n"
        ),
        Valid(  # a decoding iterator class walked over one epoch: each file decoded once
            ITERATED_LOADER.format(make="train = Loader(paths)")
            + "for epoch in range(1):\n    for x in train:\n        train_step(x)\n"
        ),
        Valid(  # the class keeps each decoded file in a dict of the instance: decoded on the first pass only
            ITERATED_LOADER.replace("        return cv2.resize(cv2.imread(path), (64, 64))\n", KEPT_READ).format(
                make="train = Loader(paths)"
            )
            + "for epoch in range(20):\n    for x in train:\n        train_step(x)\n"
        ),
        Valid(  # each epoch builds its loader over another shard of files: a stream, no file decoded twice
            ITERATED_LOADER.format(make="shards = [paths[i::20] for i in range(20)]")
            + "for epoch in range(20):\n    for x in Loader(shards[epoch]):\n        train_step(x)\n"
        ),
        Valid(  # the inner loop may stop early (`break`): a pass may draw other files than the last one
            ITERATED_LOADER.format(make="train = Loader(paths)")
            + "for epoch in range(20):\n    for x in train:\n        if train_step(x) < 0.1:\n            break\n"
        ),
        Valid(  # an iterator that never starts over (`__iter__` returns it as it is): only the first pass decodes
            ITERATED_LOADER.replace("        self.i = 0\n        return self\n", "        return self\n").format(
                make="train = Loader(paths)"
            )
            + "for epoch in range(20):\n    for x in train:\n        train_step(x)\n"
        ),
        Valid(  # the loader iterated once, in no epoch loop
            ITERATED_LOADER.format(make="train = Loader(paths)") + "for x in train:\n    train_step(x)\n"
        ),
        Valid(  # an iterator class that loads arrays kept on disk (`np.load`): nothing to decode
            ITERATED_LOADER.replace("cv2.resize(cv2.imread(path), (64, 64))", "np.load(path)").format(
                make="train = Loader(paths)"
            )
            + "for epoch in range(20):\n    for x in train:\n        train_step(x)\n"
        ),
        Valid(  # the builder's images left encoded (`decoders=`): the program decodes them, in a map GL408 reads
            TFDS_BUILDER.format(options=", decoders={'image': tfds.decode.SkipDecoding()}")
        ),
        Valid(  # `as_dataset()` of a builder the function is given: what it is, is not known here
            TFDS_BUILDER.format(options="").replace("def train(model):", "def train(model, builder):")
            .replace("    builder = tfds.builder('mnist')\n", "")
        ),
        Valid(  # another library's `as_dataset()` (a replay buffer's) in a module that imports TFDS
            TFDS_BUILDER.format(options="").replace("tfds.builder('mnist')", "TFUniformReplayBuffer(spec, 1)")
        ),
        Valid(HANDED_ON.replace("patches.repeat()", "patches.cache().repeat()")),  # the helper caches before its repeat
        Valid(HANDED_ON.replace("patches.repeat()", "patches.repeat(count)")),  # a count from a parameter, 1 by default
        Valid(  # handed to a method: another object's code, not followed
            HANDED_ON.replace("def prepare(dataset,", "class Steps:\n    def prepare(self, dataset,")
            .replace("\n    patches", "\n        patches").replace("\n    return patches", "\n        return patches")
            .replace("prepare(x, batch_size)", "Steps().prepare(x, batch_size)")
        ),
        Valid(HANDED_ON.replace("images.append(decoded(pattern))", "images.append((decoded(pattern), pattern))")),  # in a tuple: not followed
        Valid(FLAGGED_CACHE.format(default=True)),  # a cache an option guards, on by default: decoded once
        Valid(  # a cache in the `else` of an option false by default: the defaults run it
            FLAGGED_CACHE.format(default=False).replace("ds = ds.cache()", "ds = ds.prefetch(1)\n    else:\n        ds = ds.cache()")
        ),
        Valid(  # a cache guarded by a test the code does not settle (a flag and a call of the program): it may run
            FLAGGED_CACHE.format(default=False).replace("FLAGS.cache_dataset:", "FLAGS.cache_dataset and small(files):")
        ),
        Valid(  # the module's `tfds` is the program's own: TFDS is imported by another function, for itself
            "import tensorflow as tf\nimport mydata.sets as tfds\n"
            "def builder():\n    import tensorflow_datasets as tfds\n    return tfds.builder('mnist')\n"
            "ds = tfds.load('mnist', split='train', as_supervised=True)\n"
            "ds = ds.map(lambda x, y: (tf.cast(x, tf.float32) / 255.0, y)).shuffle(1000).batch(128)\nmodel.fit(ds, epochs=10)\n"
        ),
        Valid(  # the decoder given by reference, its output cached: decoded once
            "import tensorflow as tf\n"
            "images = tf.data.Dataset.list_files('horses/*.jpg').map(tf.io.read_file)\n"
            "images = images.map(tf.io.decode_png).cache().repeat().batch(8)\n"
            "model.fit(images, steps_per_epoch=100, epochs=50)\n"
        ),
        Valid(  # a function given by reference that decodes nothing
            "import tensorflow as tf\n"
            "lengths = tf.data.Dataset.list_files('texts/*.txt').map(tf.io.read_file).map(tf.strings.length)\n"
            "model.fit(lengths.batch(8), epochs=50)\n"
        ),
        Valid(  # cached: the files are decoded once
            "import tensorflow as tf\n"
            "train = tf.keras.utils.image_dataset_from_directory('flowers', image_size=(180, 180))\n"
            "train = train.cache().prefetch(tf.data.AUTOTUNE)\nmodel.fit(train, epochs=30)\n"
        ),
        Valid(  # one epoch: nothing is decoded twice
            "import tensorflow as tf\n"
            "train = tf.keras.utils.image_dataset_from_directory('flowers')\nmodel.fit(train)\n"
        ),
        Valid(  # a map that decodes nothing (in-memory arrays scaled)
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (a / 255, b)).batch(32)\n"
            "model.fit(ds, epochs=20)\n"
        ),
        Valid(  # returned: the caller may cache it
            "import tensorflow as tf\n\n\ndef load(path):\n    return tf.io.decode_png(tf.io.read_file(path))\n\n\n"
            "def make(files):\n    return tf.data.Dataset.from_tensor_slices(files).map(load).batch(32)\n"
        ),
        Valid(  # passed to a helper of the user: it may cache it
            "import tensorflow as tf\n"
            "train = tf.keras.utils.image_dataset_from_directory('flowers')\n"
            "train = configure_for_performance(train)\nmodel.fit(train, epochs=30)\n"
        ),
        Valid(  # one pass over the files (inference over a folder)
            "import tensorflow as tf\n\n\ndef load(path):\n    return tf.io.decode_jpeg(tf.io.read_file(path))\n\n\n"
            "ds = tf.data.Dataset.list_files('data/*.jpg').map(load).batch(64)\n"
            "for batch in ds:\n    predictions.append(model(batch))\n"
        ),
        Valid(  # a look at a few batches
            "import tensorflow as tf\n"
            "ds = tf.data.TFRecordDataset(files).map(lambda r: tf.io.parse_single_example(r, spec))\n"
            "for epoch in range(3):\n    for x in ds.take(2):\n        print(x)\n"
        ),
        Valid(  # TF1: a queue of one pass over the files (`num_epochs=1`): nothing is decoded twice
            QUEUE.format(decode="image = tf.image.decode_jpeg(data, channels=3)", epochs=", num_epochs=1")
        ),
        Valid(  # a count of passes from a parameter: it may be 1
            QUEUE.format(decode="image = tf.image.decode_jpeg(data, channels=3)", epochs=", num_epochs=epochs")
        ),
        Valid(  # a name also bound to a function of the program: what it does is not known here
            QUEUE.format(
                decode="decode = tf.image.decode_jpeg\n    if raw:\n        decode = my_decode\n    image = decode(data)",
                epochs="",
            )
        ),
        Valid(  # a record's bytes reinterpreted (`decode_raw`): no decoding worth keeping
            QUEUE.format(decode="image = tf.io.decode_raw(data, tf.uint8)", epochs="")
        ),
        Valid(  # the name holds other data from there on: the arrays in memory are trained on, not the split
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds, info = tfds.load('mnist', split='train', with_info=True)\n"
            "ds = tf.data.Dataset.from_tensor_slices((x, y))\nmodel.fit(ds.batch(128), epochs=10)\n"
        ),
        Valid(  # a notebook whose later cell binds the name to arrays in memory before the fit
            notebook(
                "import tensorflow as tf\nimport tensorflow_datasets as tfds\n",
                "ds = tfds.load('mnist', split='train', as_supervised=True)\n",
                "ds = tf.data.Dataset.from_tensor_slices((x, y))\n",
                "model.fit(ds.batch(128), epochs=10)\n",
            ),
            filename="train.ipynb",
        ),
        Valid(  # `take(64)` with no `skip` of the same count: a look at a few examples, not a split
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('mnist', split='train', as_supervised=True)\nrest = ds.skip(1000)\n"
            "model.fit(ds.take(64).batch(64), epochs=10)\n"
        ),
        Valid(  # a few examples repeated for ever for a look: `take(8)` with no `skip`, not a split
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('mnist', split='train', as_supervised=True)\n"
            "for x, y in ds.take(8).repeat().batch(8):\n    show(x)\n"
        ),
        Valid(  # the repeat comes after a cache: each file decoded once
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds, info = tfds.load('mnist', split='train', with_info=True)\n"
            "model.fit(ds.cache().shuffle(1000).repeat().batch(128), steps_per_epoch=100, epochs=10)\n"
        ),
        Valid(  # the held-out split kept whole in a dict the file does not follow, repeated there
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('mnist', split=['train', 'test'])\nsplits = {'all': ds}\n"
        ),
        Valid(  # a helper's pipeline returned to a call of this file that goes over it once
            "import tensorflow as tf\n\n\ndef batched(dataset, map_fn=None):\n    dataset = dataset.shuffle(2048)\n"
            "    if map_fn:\n        dataset = dataset.map(map_fn, num_parallel_calls=4)\n    return dataset.batch(64)\n\n\n"
            "def parse(path):\n    return tf.image.decode_png(tf.io.read_file(path), 3)\n\n\n"
            "def images(paths, batch_size):\n    dataset = batched(tf.data.Dataset.from_tensor_slices(paths), map_fn=parse)\n"
            "    return dataset, len(paths) // batch_size\n\n\n"
            "dataset, steps = images(paths, 64)\nfor x in tqdm.tqdm(dataset, total=steps):\n    predict_step(x)\n"
        ),
        Valid(  # a helper's pipeline returned, then given to another helper (which may cache it)
            "import tensorflow as tf\n\n\ndef batched(dataset, map_fn=None):\n    dataset = dataset.shuffle(2048)\n"
            "    if map_fn:\n        dataset = dataset.map(map_fn, num_parallel_calls=4)\n    return dataset.batch(64)\n\n\n"
            "def parse(path):\n    return tf.image.decode_png(tf.io.read_file(path), 3)\n\n\n"
            "def images(paths, batch_size):\n    dataset = batched(tf.data.Dataset.from_tensor_slices(paths), map_fn=parse)\n"
            "    return dataset, len(paths) // batch_size\n\n\n"
            "dataset, steps = images(paths, 64)\ndataset = prepare(dataset)\n"
            "for epoch in range(25):\n    for x in dataset:\n        train_step(x)\n"
        ),
        Valid(  # the pipeline made anew on every pass of the epoch loop: a cache would not outlive it
            "import tensorflow as tf\n\n\ndef images(paths):\n"
            "    return tf.data.Dataset.from_tensor_slices(paths).map(lambda p: tf.io.decode_png(tf.io.read_file(p)))\n\n\n"
            "for epoch in range(25):\n    for x in images(paths).batch(64):\n        train_step(x)\n"
        ),
        Valid(  # a module constant keeps the decode from running: each file was decoded once into `DECODED`
            "IN_MEMORY = True\n"
            + SWITCHED_LOADER
        ),
        Valid(  # a parameter's default keeps it from running: the file's one call of `read` leaves it there
            SWITCHED_LOADER.replace("    def read(self, path):\n", "    def read(self, path, IN_MEMORY=True):\n")
        ),
        Valid(  # a decoding generator made once and drawn with next(): one stream, no pass redone
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        yield np.array([cv2.imread(p) for p in paths[:8]]), np.zeros(8)\n"
            "gen = batches(paths)\nfor epoch in range(20):\n    for step in range(500):\n"
            "        x, y = next(gen)\n        m.train_on_batch(x, y)\n"
        ),
        Valid(  # other files on each pass of the outer loop: nothing decoded twice
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    for p in paths:\n        yield np.array([cv2.imread(p)]), np.zeros(1)\n"
            "for shard in shards:\n    for x, y in batches(shard):\n        m.train_on_batch(x, y)\n"
        ),
        Valid(  # a flow of arrays in memory augmented at random on every epoch: nothing read from files
            "import tensorflow as tf\nm = tf.keras.Sequential()\n"
            "aug = tf.keras.preprocessing.image.ImageDataGenerator(rotation_range=15, horizontal_flip=True)\n"
            "for epoch in range(100):\n    for xb, yb in aug.flow(x_train, y_train, batch_size=64):\n"
            "        m.train_on_batch(xb, yb)\n"
        ),
        Valid(  # a generator of slices of arrays in memory, made anew every epoch: nothing decoded
            "import numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(x, y):\n    for i in range(0, len(x), 32):\n        yield x[i:i + 32], y[i:i + 32]\n"
            "for epoch in range(20):\n    for xb, yb in batches(x, y):\n        m.train_on_batch(xb, yb)\n"
        ),
        Valid(  # a generator tokenising and padding texts in memory, made anew every epoch: no file decoded (GL409's)
            "import numpy as np\nimport tensorflow as tf\nfrom tensorflow.keras.preprocessing.sequence import pad_sequences\n"
            "m = tf.keras.Sequential()\n"
            "def batches(seqs, y):\n    for i in range(0, len(seqs), 32):\n"
            "        yield np.array([pad_sequences([s], maxlen=40)[0] for s in seqs[i:i + 32]]), y[i:i + 32]\n"
            "for epoch in range(20):\n    for xb, yb in batches(seqs, y):\n        m.train_on_batch(xb, yb)\n"
        ),
        Valid(  # each pass of the outer loop lists another folder: other files each time
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nfrom glob import glob\nm = tf.keras.Sequential()\n"
            "for shard in shards:\n    paths = glob(shard + '/*.jpg')\n    for i in range(len(paths) // 32):\n"
            "        x = np.array([cv2.imread(f) for f in paths[i * 32:(i + 1) * 32]])\n        m.train_on_batch(x, x)\n"
        ),
        Valid(  # the list of files comes anew from a call on each pass: not known to be the same files
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "for epoch in range(20):\n    paths = sample_paths(1000)\n    for i in range(len(paths) // 32):\n"
            "        files = paths[i * 32:(i + 1) * 32]\n        x = np.array([cv2.imread(f) for f in files])\n"
            "        m.train_on_batch(x, x)\n"
        ),
        Valid(  # the epoch loop runs once (its count is the parameter's default, which the one call keeps)
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    for i in range(0, len(paths), 8):\n"
            "        yield np.array([cv2.imread(p) for p in paths[i:i + 8]]), np.zeros(8)\n"
            "def train(epochs=1):\n    for epoch in range(epochs):\n        for x, y in batches(paths):\n"
            "            m.train_on_batch(x, y)\n"
            "train()\n"
        ),
        Valid(  # tqdm's trange over one epoch: one pass over the files
            "import tensorflow as tf\nimport tqdm\n"
            "ds = tf.data.Dataset.list_files('x/*.png').map(lambda p: tf.io.decode_png(tf.io.read_file(p))).batch(8)\n"
            "for epoch in tqdm.trange(1, desc='epoch'):\n    for x in ds:\n        train_step(x)\n"
        ),
        Valid(  # tqdm's bar around a range of one: one pass over the files
            "import tensorflow as tf\nfrom tqdm import tqdm\n"
            "ds = tf.data.Dataset.list_files('x/*.png').map(lambda p: tf.io.decode_png(tf.io.read_file(p))).batch(8)\n"
            "for epoch in tqdm(range(1)):\n    for x in ds:\n        train_step(x)\n"
        ),
        Valid(  # a map function passed through a parameter: the arrays in memory are scaled, nothing decoded
            "import tensorflow as tf\n\n\ndef batched(dataset, map_fn):\n    return dataset.map(map_fn).batch(64)\n\n\n"
            "ds = batched(tf.data.Dataset.from_tensor_slices(x), lambda a: a / 255)\n"
            "for epoch in range(25):\n    for b in ds:\n        train_step(b)\n"
        ),
        Valid(  # a decoding generator whose epochs are a count of steps not tied to the data: not known to come back to a file
            DECODING_GENERATOR + "m.fit(batches(paths), steps_per_epoch=500, epochs=30)\n"
        ),
        Valid(  # the decode kept by an unbounded memo (`lru_cache(maxsize=None)`): each file decoded once
            "import functools\nimport cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "@functools.lru_cache(maxsize=None)\ndef load(path):\n    return cv2.resize(cv2.imread(path), (64, 64))\n"
            "def batches(paths):\n    while True:\n        for i in range(0, len(paths), 32):\n"
            "            yield np.array([load(p) for p in paths[i:i + 32]]), np.zeros(32)\n"
            "m.fit(batches(paths), steps_per_epoch=len(paths) // 32, epochs=30)\n"
        ),
        Valid(  # a decoding `Sequence` over one epoch (Keras' default): each file decoded once
            DECODING_SEQUENCE + "m.fit(Faces(paths))\n"
        ),
        Valid(  # a TFDS dataset cached after its decoding: each example decoded once
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('mnist', split='train', as_supervised=True).cache().shuffle(1000).batch(128)\n"
            "model.fit(ds, epochs=10)\n"
        ),
        Valid(  # the program's own decoders (`SkipDecoding`): its map decodes, and is what GL408 reads
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('imagenet2012', split='train', decoders={'image': tfds.decode.SkipDecoding()})\n"
            "model.fit(ds.batch(128), epochs=10)\n"
        ),
        Valid(  # a TFDS dataset trained on for one epoch
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('mnist', split='train', as_supervised=True)\nmodel.fit(ds.batch(128), epochs=1)\n"
        ),
        Valid(  # the decode fills a dict the `Sequence` keeps, on a miss only: each file decoded once
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "class Faces(tf.keras.utils.Sequence):\n    def __init__(self, paths):\n"
            "        self.paths, self.cache = paths, {}\n"
            "    def __len__(self):\n        return len(self.paths) // 32\n"
            "    def __getitem__(self, i):\n        x = []\n        for p in self.paths[i * 32:(i + 1) * 32]:\n"
            "            if p not in self.cache:\n                self.cache[p] = cv2.imread(p)\n"
            "            x.append(self.cache[p])\n        return np.array(x), np.zeros(32)\n"
            "m.fit(Faces(paths), epochs=30)\n"
        ),
        Valid(  # a generator's dict, bound before its loops, filled on a miss (`if ... in ...: else:`)
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    cache = {}\n    while True:\n        for i in range(0, len(paths), 32):\n"
            "            x = []\n            for p in paths[i:i + 32]:\n"
            "                if p in cache:\n                    x.append(cache[p])\n                else:\n"
            "                    cache[p] = cv2.imread(p)\n                    x.append(cache[p])\n"
            "            yield np.array(x), np.zeros(32)\n"
            "m.fit(batches(paths), steps_per_epoch=len(paths) // 32, epochs=30)\n"
        ),
        Valid(  # a generator tokenising texts in memory for many epochs: no file decoded (GL409's)
            "import numpy as np\nimport tensorflow as tf\nfrom tensorflow.keras.preprocessing.sequence import pad_sequences\n"
            "m = tf.keras.Sequential()\n"
            "def batches(seqs, y):\n    while True:\n        for i in range(0, len(seqs), 32):\n"
            "            yield np.array([pad_sequences([s], maxlen=40)[0] for s in seqs[i:i + 32]]), y[i:i + 32]\n"
            "m.fit(batches(seqs, y), steps_per_epoch=len(seqs) // 32, epochs=20)\n"
        ),
        Valid(  # `steps_per_epoch` over records of unknown cardinality: Keras keeps one iterator across the epochs
            "import tensorflow as tf\n"
            "ds = tf.data.TFRecordDataset(files).map(lambda r: tf.io.decode_png(tf.io.parse_single_example(r, spec)['img']))\n"
            "model.fit(ds.batch(32), epochs=30, steps_per_epoch=500)\n"
        ),
        Valid(  # `steps_per_epoch` over files filtered (cardinality unknown), through the names it is bound to
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.list_files('x/*.png')\nds = ds.map(lambda p: tf.io.decode_png(tf.io.read_file(p)))\n"
            "ds = ds.filter(lambda x: tf.shape(x)[0] > 8).batch(8)\nmodel.fit(ds, epochs=30, steps_per_epoch=100)\n",
            options={"tensorflow-version": "2.10"},
        ),
        Valid(  # `steps_per_epoch` over a dataset whose cardinality the code does not show: not known to run again
            "import tensorflow as tf\n\n\ndef train(files):\n"
            "    ds = files.map(lambda p: tf.io.decode_png(tf.io.read_file(p))).batch(8)\n"
            "    model.fit(ds, epochs=30, steps_per_epoch=100)\n"
        ),
    )
    INVALID = (
        Invalid(  # an iterator class decoding a file per item (through its `read`), walked again on each of 20 epochs
            ITERATED_LOADER.format(make="train = Loader(paths)")
            + "for epoch in range(20):\n    for x in train:\n        train_step(x)\n",
            line=23,
            message_contains="`train`, a `Loader` whose `__next__` reads and decodes a file per item (`cv2.imread`,"
            " example.py line 19), is iterated anew on every pass of the loop at line 22 (20 passes), decoding every"
            " file again",
        ),
        Invalid(  # the module constant takes the decoding branch
            "IN_MEMORY = False\n"
            + SWITCHED_LOADER,
            line=26,
        ),
        Invalid(  # near miss: the parameter's default keeps the decode off, but the file's call turns it on
            SWITCHED_LOADER.replace("    def read(self, path):\n", "    def read(self, path, IN_MEMORY=True):\n").replace(
                "self.read(p)", "self.read(p, IN_MEMORY=False)"
            ),
            line=25,
        ),
        Invalid(  # a parameter of the same name is not the module constant: the caller may take the decode
            "IN_MEMORY = True\n"
            + SWITCHED_LOADER.replace("    def read(self, path):\n", "    def read(self, path, IN_MEMORY=False):\n"),
            line=26,
        ),
        Invalid(  # an iterator that starts over where it ends (`self.i = 0` before its `StopIteration`)
            ITERATED_LOADER.replace("        self.i = 0\n        return self\n", "        return self\n").replace(
                "            raise StopIteration\n", "            self.i = 0\n            raise StopIteration()\n"
            ).format(make="train = Loader(paths)")
            + "for epoch in range(20):\n    for x in train:\n        train_step(x)\n",
            line=23,
        ),
        Invalid(  # the loader made in the epoch loop from the same files each pass, drawn through `enumerate`
            ITERATED_LOADER.format(make="epochs = 20")
            + "while epochs:\n    epochs -= 1\n    for i, x in enumerate(Loader(paths)):\n        train_step(x)\n",
            line=24,
            message_contains="`Loader(paths)`, a `Loader` whose `__next__`",
        ),
        Invalid(  # the split a `tfds.builder()`'s `as_dataset()` gives is decoded again on each of 10 epochs
            TFDS_BUILDER.format(options=""),
            line=6,
            message_contains="The dataset `as_dataset()` of a `tfds.builder()` gives (TFDS decodes each example as it"
            " reads it) reads and decodes the files again on each of 10 epochs: if the decoded set fits in memory"
            " (60,000 examples of 28×28×1 in `train`)",
        ),
        Invalid(  # a fit resuming at epoch 4 of 10 runs 6 of them
            TFDS_BUILDER.format(options="").replace("epochs=10)", "epochs=10, initial_epoch=4)"),
            line=6,
            message_contains="reads and decodes the files again on each of 6 epochs:",
        ),
        Invalid(  # decoding pipelines appended to a list, whose comprehension hands each to a helper that repeats it
            HANDED_ON,
            line=12,
            message_contains="The files `map(tf.io.decode_png)` at line 6 decodes are read and decoded again on every"
            " pass of this `repeat()`, in another function than the decoding",
        ),
        Invalid(  # the decoding pipelines listed in a list display, which a `for` hands to the helper one by one
            HANDED_ON.replace("    return [prepare(x, batch_size) for x in images]\n", "    for x in images:\n        yield prepare(x, batch_size)\n")
            .replace("    images = []\n    for pattern in patterns:\n        images.append(decoded(pattern))\n",
                     "    images = [decoded(patterns[0]), decoded(patterns[1])]\n"),
            line=12,
        ),
        Invalid(  # the decoding pipeline a function returns, given straight to the helper, by name
            HANDED_ON.replace("    return [prepare(x, batch_size) for x in images]\n", "    return prepare(batch_size=8, dataset=decoded(patterns))\n")
            .replace("    images = []\n    for pattern in patterns:\n        images.append(decoded(pattern))\n", ""),
            line=12,
        ),
        Invalid(  # the one `.cache()` runs only when a flag off by default is set: the defaults decode on every epoch
            FLAGGED_CACHE.format(default=False),
            line=8,
            message_contains="on each of 30 epochs: if the decoded set fits in memory (its size is not known from the code),"
            " `.cache()` after the decoding (before random augmentation and shuffling) decodes each file once; the"
            " `.cache()` at line 10 does not run with the program's defaults (`if FLAGS.cache_dataset:` at line 9):"
            " set that option, or make caching the default",
        ),
        Invalid(  # a cache in the `else` of an option true by default: the defaults skip it
            FLAGGED_CACHE.format(default=True).replace("ds = ds.cache()", "ds = ds.prefetch(1)\n    else:\n        ds = ds.cache()"),
            line=8,
            message_contains="the `.cache()` at line 12 does not run with the program's defaults (`if FLAGS.cache_dataset:` at line 9)",
        ),
        Invalid(  # an argparse `store_true` option (False by default) guarding the cache, before an endless repeat
            "import argparse\nimport tensorflow as tf\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--cache', action='store_true')\nargs = parser.parse_args()\n"
            "ds = tf.data.Dataset.list_files('data/*.jpg').map(lambda p: tf.io.decode_jpeg(tf.io.read_file(p)))\n"
            "if args.cache:\n    ds = ds.cache()\nds = ds.shuffle(1000).repeat().batch(32)\n"
            "model.fit(ds, steps_per_epoch=100, epochs=30)\n",
            line=6,
            message_contains="the `.cache()` at line 8 does not run with the program's defaults (`if args.cache:` at line 7)",
        ),
        Invalid(  # an epoch loop counted through tqdm's bar around its range: the count is named
            "import tensorflow as tf\nfrom tqdm import tqdm\n"
            "ds = tf.data.Dataset.list_files('x/*.png').map(lambda p: tf.io.decode_png(tf.io.read_file(p))).batch(8)\n"
            "for epoch in tqdm(range(30)):\n    for x in ds:\n        train_step(x)\n",
            line=3,
            message_contains="on every pass of the loop at line 4 (30 passes)",
        ),
        Invalid(  # the decoder itself given to map, by reference, then repeated for a fit of 100 steps an epoch
            "import tensorflow as tf\n"
            "images = tf.data.Dataset.list_files('horses/*.jpg').map(tf.io.read_file, num_parallel_calls=4)\n"
            "images = images.map(tf.image.decode_image, num_parallel_calls=4)\n"
            "patches = images.map(lambda x: tf.image.resize(x, (64, 64))).repeat().batch(8)\n"
            "model.fit(patches, steps_per_epoch=100, epochs=50)\n",
            line=3,
            message_contains="`map(tf.image.decode_image)` reads and decodes the files again on every pass of `repeat()`",
        ),
        Invalid(
            "import tensorflow as tf\n"
            "train = tf.keras.utils.image_dataset_from_directory('flowers', image_size=(180, 180))\n"
            "val = tf.keras.utils.image_dataset_from_directory('flowers_val', image_size=(180, 180))\n"
            "model.fit(train, validation_data=val, epochs=30)\n",
            line=2,
            message_contains="on each of 30 epochs: if the decoded set fits in memory (its size is not known from the"
            " code; one decoded image is 180×180×3 float32, 389 kB)",
        ),
        Invalid(  # the validation set too is decoded again after every epoch
            "import tensorflow as tf\n"
            "train = tf.keras.utils.image_dataset_from_directory('flowers', image_size=(180, 180))\n"
            "val = tf.keras.utils.image_dataset_from_directory('flowers_val', image_size=(180, 180))\n"
            "model.fit(train, validation_data=val, epochs=30)\n",
            line=3,
        ),
        Invalid(  # a map that reads and decodes each file, through a helper of this file, fed to an epoch loop
            "import tensorflow as tf\n\n\ndef decode(raw):\n    return tf.image.resize(tf.io.decode_jpeg(raw, channels=3), (64, 64))\n\n\n"
            "def load(path):\n    return decode(tf.io.read_file(path))\n\n\n"
            "ds = tf.data.Dataset.list_files('celeba/*.jpg').map(load, num_parallel_calls=tf.data.AUTOTUNE)\n"
            "ds = ds.shuffle(1000).batch(64)\nfor epoch in range(25):\n    for x in ds:\n        train_step(x)\n",
            line=12,
            message_contains="`map(load)` reads and decodes the files again on every pass of the loop at line 14",
        ),
        Invalid(  # TFRecords parsed and decoded on every epoch; the epochs come from a flag
            "import tensorflow as tf\n"
            "ds = tf.data.TFRecordDataset(files).map(lambda r: tf.io.decode_png(tf.io.parse_single_example(r, spec)['img']))\n"
            "model.fit(ds.batch(32), epochs=args.epochs)\n",
            line=2,
            message_contains="every epoch (`epochs=args.epochs`)",
        ),
        Invalid(  # a helper's pipeline, its decoding map given as a parameter, returned in a tuple, iterated per epoch
            "import tensorflow as tf\n\n\ndef batched(dataset, map_fn=None):\n    dataset = dataset.shuffle(2048)\n"
            "    if map_fn:\n        dataset = dataset.map(map_fn, num_parallel_calls=4)\n    return dataset.batch(64)\n\n\n"
            "def parse(path):\n    return tf.image.decode_png(tf.io.read_file(path), 3)\n\n\n"
            "def images(paths, batch_size):\n    dataset = batched(tf.data.Dataset.from_tensor_slices(paths), map_fn=parse)\n"
            "    return dataset, len(paths) // batch_size\n\n\n"
            "dataset, steps = images(paths, 64)\nfor epoch in range(25):\n"
            "    for step, x in enumerate(tqdm.tqdm(dataset, total=steps)):\n        train_step(x)\n",
            line=7,
            message_contains="`map(map_fn)` reads and decodes the files again on every pass of the loop at line 21",
        ),
        Invalid(  # methods: the decoding method given to the one that maps, its pipeline returned to a fit
            "import tensorflow as tf\n\n\nclass Data:\n    def parse(self, path):\n"
            "        return tf.io.decode_jpeg(tf.io.read_file(path))\n\n"
            "    def batched(self, map_fn, size=32):\n        ds = tf.data.Dataset.from_tensor_slices(self.paths).map(map_fn)\n"
            "        return ds.batch(size)\n\n    def train(self, model):\n        model.fit(self.batched(self.parse), epochs=30)\n",
            line=9,
            message_contains="on each of 30 epochs",
        ),
        Invalid(  # a loader's generator decoding every image, made anew on each epoch of a GAN loop
            "import numpy as np\nimport scipy\nimport tensorflow as tf\n"
            "class Loader:\n    def __init__(self, paths):\n        self.paths = paths\n"
            "    def load_batch(self, size):\n        for i in range(len(self.paths) // size):\n"
            "            yield np.array([scipy.misc.imread(p) for p in self.paths[i * size:(i + 1) * size]])\n"
            "loader = Loader(paths)\nm = tf.keras.Sequential()\n"
            "for epoch in range(200):\n    for i, imgs in enumerate(loader.load_batch(1)):\n"
            "        m.train_on_batch(imgs, imgs)\n",
            line=13,
            message_contains="`load_batch()` reads and decodes the files again (`scipy.misc.imread` (line 9)) on every"
            " pass of the loop at line 12",
        ),
        Invalid(  # a tf.function training step fed by a decoding generator made anew on each epoch
            "import cv2\nimport numpy as np\nimport tensorflow as tf\n"
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nopt = tf.keras.optimizers.Adam()\n"
            "def batches(paths):\n    for i in range(0, len(paths), 8):\n"
            "        yield np.array([cv2.imread(p) for p in paths[i:i + 8]])\n"
            "@tf.function\ndef train_step(x):\n    with tf.GradientTape() as tape:\n"
            "        loss = tf.reduce_mean(model(x, training=True))\n"
            "    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))\n"
            "for epoch in range(100):\n    for x in batches(paths):\n        train_step(x)\n",
            line=15,
            message_contains="`batches()` reads and decodes the files again (`cv2.imread` (line 8)) on every pass of the loop at line 14",
        ),
        Invalid(  # a list of files walked a batch's slice at a time by the step loop, again on each epoch
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nfrom glob import glob\nm = tf.keras.Sequential()\n"
            "paths = glob('faces/*.jpg')\nfor epoch in range(25):\n    np.random.shuffle(paths)\n"
            "    for i in range(len(paths) // 64):\n        files = paths[i * 64:(i + 1) * 64]\n"
            "        x = np.array([cv2.imread(f) for f in files]).astype(np.float32)\n        m.train_on_batch(x, x)\n",
            line=11,
            message_contains="The files of `paths` are read and decoded again, a batch's slice at a time (`cv2.imread`"
            " (line 11)), on every pass of the loop at line 7",
        ),
        Invalid(  # the same slices filled item by item into a list, then into a preallocated array, on each epoch
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "files = sorted(open('train.txt').read().split())\nfor epoch in range(20):\n"
            "    for i in range(len(files) // 64):\n        images = []\n"
            "        for f in files[i * 64:(i + 1) * 64]:\n            images.append(cv2.resize(cv2.imread(f), (64, 64)))\n"
            "        m.train_on_batch(np.array(images) / 255.0, np.zeros(64))\n"
            "    for i in range(len(files) // 64):\n        batch = np.zeros((64, 64, 64, 3))\n"
            "        for j, f in enumerate(files[i * 64:(i + 1) * 64]):\n            batch[j] = cv2.imread(f)\n"
            "        m.train_on_batch(batch, np.zeros(64))\n",
            line=10,
            message_contains="The files of `files` are read and decoded again, a batch's slice at a time (`cv2.imread`"
            " (line 10)), on every pass of the loop at line 6",
        ),
        Invalid(  # the same folder listed again on each epoch (then shuffled): the same files, decoded again
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nfrom glob import glob\nm = tf.keras.Sequential()\n"
            "class GAN:\n    def train(self, epochs):\n        for epoch in range(epochs):\n"
            "            self.data = glob(self.pattern)\n            np.random.shuffle(self.data)\n"
            "            for idx in range(len(self.data) // 64):\n"
            "                batch_files = self.data[idx * 64:(idx + 1) * 64]\n"
            "                batch = [cv2.imread(f) for f in batch_files]\n"
            "                m.train_on_batch(np.array(batch), np.zeros(64))\n",
            line=13,
            message_contains="The files of `self.data` are read and decoded again",
        ),
        Invalid(  # Keras 3 with `steps_per_epoch` over a finite dataset: a new pass each time its batches run out
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.list_files('x/*.png').map(lambda p: tf.io.decode_png(tf.io.read_file(p))).batch(8)\n"
            "model.fit(ds, epochs=30, steps_per_epoch=100)\n",
            options={"tensorflow-version": "2.17"},
            line=2,
            message_contains="on every pass `fit()` makes over its batches (30 epochs of `steps_per_epoch=100`: Keras 3"
            " starts the dataset again each time they are all drawn)",
        ),
        Invalid(  # tf.keras 2: a new iterator each epoch only where `steps_per_epoch` is the number of batches
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.list_files('x/*.png').map(lambda p: tf.io.decode_png(tf.io.read_file(p))).batch(8)\n"
            "model.fit(ds, epochs=30, steps_per_epoch=100)\n",
            options={"tensorflow-version": "2.10"},
            line=2,
            message_contains="on each of 30 epochs, where `steps_per_epoch=100` is its number of batches",
        ),
        Invalid(  # the validation data is iterated anew on each epoch, `steps_per_epoch` or not
            "import tensorflow as tf\n"
            "val = tf.data.TFRecordDataset(files).map(lambda r: tf.io.decode_png(tf.io.parse_single_example(r, spec)['i']))\n"
            "model.fit(train, validation_data=val.batch(32), epochs=30, steps_per_epoch=100, validation_steps=10)\n",
            line=2,
            message_contains="on each of 30 epochs",
        ),
        Invalid(  # a `Sequence` decoding its files in `__getitem__`, drawn whole on each of 30 epochs
            DECODING_SEQUENCE + "m.fit_generator(Faces(paths), epochs=30)\n",
            line=13,
            message_contains="`fit_generator()` draws its batches from Python code that reads and decodes the files again"
            " (`cv2.imread` (line 11)) on each of 30 epochs, where Keras draws every batch of the `Sequence` on each",
        ),
        Invalid(  # TFDS decodes each example of the split as it reads it: again on each of 10 epochs
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('mnist', split='train', as_supervised=True)\n"
            "ds = ds.map(lambda x, y: (tf.cast(x, tf.float32) / 255.0, y)).shuffle(1000).batch(128)\n"
            "model.fit(ds, epochs=10)\n",
            line=3,
            message_contains="The dataset `tfds.load()` gives (TFDS decodes each example as it reads it) reads and decodes"
            " the files again on each of 10 epochs: if the decoded set fits in memory (60,000 examples of 28×28×1 in"
            " `train`)",
        ),
        Invalid(  # TFDS's `load` imported by name
            "import tensorflow as tf\nfrom tensorflow_datasets import load\nds = load('mnist', split='train', as_supervised=True)\n"
            "ds = ds.map(lambda x, y: (tf.cast(x, tf.float32) / 255.0, y)).shuffle(1000).batch(128)\nmodel.fit(ds, epochs=10)\n",
            line=3,
            message_contains="reads and decodes the files again on each of 10 epochs",
        ),
        Invalid(  # splits unpacked with their info, the training split repeated for ever for a fit of 100 steps an epoch
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "(train, test), info = tfds.load('mnist', split=['train', 'test'], with_info=True, as_supervised=True)\n"
            "train = train.shuffle(10000).repeat().batch(128)\n"
            "model.fit(train, steps_per_epoch=100, epochs=10, validation_data=test.batch(128))\n",
            line=3,
            message_contains="reads and decodes the files again on every pass of `repeat()` (line 4)",
        ),
        Invalid(  # a split cut by percents, unpacked from a nested target: its size read from the table's
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "(train, held), info = tfds.load('tf_flowers', split=['train[:70%]', 'train[70%:]'], with_info=True)\n"
            "model.fit(train.shuffle(1000).batch(32), epochs=6, validation_data=held.batch(32))\n",
            line=3,
            message_contains="on each of 6 epochs: if the decoded set fits in memory (2,569 examples in `train[:70%]`)",
        ),
        Invalid(  # a split repeated by a literal count in its chain: each of its passes decodes again
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('mnist', split='train', as_supervised=True)\n"
            "for x, y in ds.shuffle(1000).repeat(20).batch(128):\n    train_step(x, y)\n",
            line=3,
            message_contains="on every pass of `repeat(20)` (line 4)",
        ),
        Invalid(  # a list of splits with its info: the split picked by its index, cut into training and held-out parts
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds, info = tfds.load('mnist', split=['train'], with_info=True)\nds = ds[0]\n"
            "train = ds.take(50000)\nheld = ds.skip(50000)\nmodel.fit(train.batch(128), epochs=10)\n",
            line=3,
            message_contains="reads and decodes the files again on each of 10 epochs: if the decoded set fits in memory"
            " (60,000 examples of 28×28×1 in `train`)",
        ),
        Invalid(  # a notebook: the pipeline's names followed into the later cells
            notebook(
                "import tensorflow as tf\nimport tensorflow_datasets as tfds\n",
                "ds = tfds.load('mnist', split='train', as_supervised=True)\n",
                "ds = ds.shuffle(1000).batch(128)\n",
                "model.fit(ds, epochs=10)\n",
            ),
            filename="train.ipynb",
            line=1,
            message_contains="reads and decodes the files again on each of 10 epochs",
        ),
        Invalid(  # a function's own name, bound in the function, is another name: the pipeline is still trained on
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds = tfds.load('mnist', split='train', as_supervised=True)\n"
            "def show(x):\n    ds = x.take(1)\n    return [b for ds in [ds] for b in ds]\n"
            "model.fit(ds.batch(128), epochs=10)\n",
            line=3,
            message_contains="on each of 10 epochs",
        ),
        Invalid(  # the name bound in each branch of an `if`: the other branch's binding does not follow this one
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "if flowers:\n    ds = tfds.load('tf_flowers', split='train', as_supervised=True)\n"
            "else:\n    ds = tf.data.Dataset.from_tensor_slices((x, y))\n"
            "model.fit(ds.batch(128), epochs=10)\n",
            line=4,
            message_contains="on each of 10 epochs",
        ),
        Invalid(  # a notebook: the map function in an earlier cell, the epoch loop in a later one (the finding names its cell)
            notebook(
                "import tensorflow as tf\ndef load(p):\n    return tf.io.decode_jpeg(tf.io.read_file(p))\n",
                "ds = tf.data.Dataset.list_files('d/*.jpg').map(load).batch(32)\n",
                "for epoch in range(10):\n    for x in ds:\n        train_step(x)\n",
            ),
            filename="train.ipynb",
            line=1,
            message_contains="on every pass of the loop at cell 3 line 1 (10 passes)",
        ),
        Invalid(  # TF1: a filename queue cycling for ever, each file read whole and decoded again on each pass
            QUEUE.format(decode="image = tf.image.decode_jpeg(data, channels=3)", epochs=""),
            line=6,
            message_contains="`tf.image.decode_jpeg()` decodes every file again on each pass"
            " over the files: the `string_input_producer` at line 3 cycles through them for ever (no `num_epochs`)",
        ),
        Invalid(  # the decoder chosen by the files' extension: a name bound to decoders alone
            QUEUE.format(
                decode="decode = tf.image.decode_jpeg\n    if png:\n        decode = tf.image.decode_png\n"
                "    image = decode(data)",
                epochs=", num_epochs=None",
            ),
            line=9,
            message_contains="`decode()` (`tf.image.decode_jpeg` or `tf.image.decode_png`) decodes every file again",
        ),
        Invalid(  # the dataset of `with_info=True`, iterated on each pass of an epoch loop
            "import tensorflow as tf\nimport tensorflow_datasets as tfds\n"
            "ds, info = tfds.load('cifar10', split='train', with_info=True)\n"
            "for epoch in range(5):\n    for batch in ds.batch(64):\n        train_step(batch)\n",
            line=3,
            message_contains="on every pass of the loop at line 4",
        ),
        Invalid(  # the generator's dict is bound afresh on each pass over the files: it keeps nothing between them
            "import cv2\nimport numpy as np\nimport tensorflow as tf\nm = tf.keras.Sequential()\n"
            "def batches(paths):\n    while True:\n        cache = {}\n        for i in range(0, len(paths), 32):\n"
            "            x = []\n            for p in paths[i:i + 32]:\n"
            "                if p not in cache:\n                    cache[p] = cv2.imread(p)\n"
            "                x.append(cache[p])\n            yield np.array(x), np.zeros(32)\n"
            "m.fit(batches(paths), steps_per_epoch=len(paths) // 32, epochs=30)\n",
            line=15,
            message_contains="reads and decodes the files again (`cv2.imread` (line 12))",
        ),
        Invalid(  # a `Sequence` given `steps_per_epoch=None`: Keras' default, all its batches on each epoch
            DECODING_SEQUENCE + "m.fit(Faces(paths), epochs=30, steps_per_epoch=None)\n",
            line=13,
        ),
        Invalid(  # an endless decoding generator, each epoch sized as a pass over the list; the epochs from a flag
            DECODING_GENERATOR + "m.fit_generator(batches(paths), steps_per_epoch=int(len(paths) / 32), epochs=args.epochs)\n",
            line=9,
            message_contains="on every epoch (`epochs=args.epochs`), where `steps_per_epoch=int(len(paths) / 32)` sizes"
            " each by the data's length",
        ),
        Invalid(  # a decoding map repeated for ever: a cache after the repeat would never fill, before it decodes once
            "import tensorflow as tf\n"
            "ds = tf.data.Dataset.list_files('x/*.png', shuffle=False)\n"
            "ds = ds.map(lambda p: tf.io.decode_png(tf.io.read_file(p))).repeat(-1).batch(8)\n",
            line=3,
            message_contains="on every pass of `repeat(-1)` (line 3)",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site, epochs, passes in _fit_passes(facts):
            method = site.api.rsplit(".", 1)[-1]
            host = site.features["input_host_work"]
            message = self.FIT_MESSAGE.format(method=method, host=host, when=epochs, passes=passes)
            yield self.diagnostic(site.callsite.span, facts.path, message)
        for span, sliced, what, host, outer in _loop_passes(facts):
            if not sliced and not facts.functions_named(what) and loader_of(facts.path, what) is not None:
                continue  # the loader beside the script reports it, at its decode (`_drawn_by_scripts`)
            message = self.SLICED_MESSAGE if sliced else self.LOOP_MESSAGE
            yield self.diagnostic(span, facts.path, message.format(what=what, host=host, outer=outer))
        for span, fields in _iterated_loaders(facts):
            yield self.diagnostic(span, facts.path, self.ITERATOR_MESSAGE.format(**fields))
        for span, fields in _drawn_by_scripts(facts):
            yield self.diagnostic(span, facts.path, self.LOADER_MESSAGE.format(**fields))
        for queued in queue_decodes(facts):
            message = self.QUEUE_MESSAGE.format(what=queued.what, line=queued.producer.lineno)
            yield self.diagnostic(facts.span(queued.decode, queued.cell), facts.path, message)
        if caches(facts):
            return
        optional = optional_cache(facts)  # a cache the program's defaults skip, named by each finding below
        repeats: set[int] = set()  # one finding per `repeat()` of a helper, whichever decoding reaches it
        for site, call, cell, what in _decoding_maps(facts):
            when = repeated_after(facts, call, cell) or pipeline_passes(facts, chain_top(facts, call, cell), cell, options)
            if when:
                message = self.MESSAGE.format(what=what, when=when, size=_size(site)) + optional
                yield self.diagnostic(site.callsite.span, facts.path, message)
            elif (helper := repeated_in_helper(facts, call, cell)) is not None and id(helper[0]) not in repeats:
                repeats.add(id(helper[0]))
                message = self.HELPER_MESSAGE.format(what=what, line=call.lineno, size=_size(site)) + optional
                yield self.diagnostic(facts.span(*helper), facts.path, message)
        reported: set[int] = set()  # one finding per `tfds.load()`, whichever of its splits runs again
        for call, cell, elements, size, what in _tfds_loads(facts):
            when = (
                None
                if id(call) in reported
                else repeated_after(facts, call, cell, elements)
                or pipeline_passes(facts, call, cell, options, elements=elements)
            )
            if when:
                reported.add(id(call))
                message = self.MESSAGE.format(what=what, when=when, size=size) + optional
                yield self.diagnostic(facts.span(call, cell), facts.path, message)
        for call, cell, what in _decoding_helpers(facts):
            when = pipeline_passes(facts, chain_top(facts, call, cell), cell, options)
            if when:
                message = self.MESSAGE.format(what=what, when=when, size="its size is not known from the code") + optional
                yield self.diagnostic(facts.span(call, cell), facts.path, message)


def _decoding_maps(facts: FileFacts) -> Iterator[tuple[Site, ast.Call, int | None, str]]:
    """The file's pipelines that decode files: each `image_dataset_from_directory()` (or audio) and
    each `Dataset.map()` whose function decodes (`_decodes`), with its call, cell and name."""
    for site in facts.sites:
        if site.api.rsplit(".", 1)[-1] not in FROM_DIRECTORY and not is_dataset_method(site.api, "map"):
            continue
        call, cell = facts.node(site), site.callsite.span.cell
        if call is None:
            continue
        if is_dataset_method(site.api, "map"):
            func = map_function(call)
            if func is None or not (_decoder_given(site) or _decodes(facts, func, cell)):
                continue
            what = f"`map({ast.unparse(func) if not isinstance(func, ast.Lambda) else 'lambda'})`"
        else:
            what = f"`{site.api.rsplit('.', 1)[-1]}`"
        yield site, call, cell, what


def _decoder_given(site: Site) -> bool:
    """The map is given a decoder itself, by reference (`ds.map(tf.image.decode_jpeg)`): the function the
    resolver names as its `map_func`."""
    given = site.features.get("map_func")
    return isinstance(given, str) and DECODER.match(given) is not None


def _tfds_loads(facts: FileFacts) -> Iterator[tuple[ast.Call, int | None, tuple[int, ...], str, str]]:
    """The file's `tfds.load()` calls, and `as_dataset()` calls of a `tfds.builder()` (called on it, or on
    the name the scope last bound to it before), that give datasets TFDS decodes as it reads them (its
    own decoders, no `decoders=`): each with its cell, the elements of what it gives that are the
    dataset (`with_info=True`: (0,); a list of splits: each, (1,); both: (0, 1); else none), what
    the table says of the split's size and how a finding names it. A call without `split` (a dict of
    every split) is not followed."""
    if TFDS not in facts.text:
        return  # no import of TFDS: the tree is not needed
    for cell in facts.cells:
        for call in facts.calls(cell):
            if last_name(call.func) == "load" and facts.imported_path(call.func, cell) == f"{TFDS}.load":
                source, what, at = call, TFDS_WHAT, 1  # `tfds.load(name, split, ...)`
            elif last_name(call.func) == "as_dataset" and (made := _tfds_builder(facts, call, cell)) is not None:
                source, what, at = made, TFDS_BUILDER_WHAT, 0  # `builder.as_dataset(split, ...)`
            else:
                continue  # neither, as the imports visible there bind it
            named = {k.arg: k.value for k in call.keywords}
            if None in named or "decoders" in named or any(isinstance(a, ast.Starred) for a in call.args):
                continue  # `decoders=`: the program decodes (a map GL408 reads), or arguments not shown
            split = named.get("split", call.args[at] if len(call.args) > at else None)
            info = named.get("with_info")
            with_info = isinstance(info, ast.Constant) and info.value is True
            if info is not None and not isinstance(info, ast.Constant):
                continue
            name = argument(source, "name", 0)
            info_first = (0,) if with_info else ()
            if isinstance(split, (ast.List, ast.Tuple)):
                for index, one in enumerate(split.elts):
                    yield call, cell, (*info_first, index), _tfds_size(name, one), what
            elif isinstance(split, ast.Constant) and isinstance(split.value, str):
                yield call, cell, info_first, _tfds_size(name, split), what


def _tfds_builder(facts: FileFacts, call: ast.Call, cell: int | None) -> ast.Call | None:
    """The `tfds.builder(...)` call whose builder an `as_dataset()` call is made on: that call itself
    (`tfds.builder("mnist").as_dataset(...)`), or the one the name it is made on was last bound to in
    its scope before (`builder = tfds.builder("mnist")`); None otherwise (a parameter, say)."""
    owner = call.func.value if isinstance(call.func, ast.Attribute) else None
    if isinstance(owner, ast.Name):
        scope = next((a for a in facts.ancestors(call, cell) if isinstance(a, SCOPES)), None)
        bound = last_bindings(scope if scope is not None else facts.module(cell), call.lineno).get(owner.id)
        owner = bound.value if bound is not None else None
    if isinstance(owner, ast.Call) and facts.imported_path(owner.func, cell) == f"{TFDS}.builder":
        return owner
    return None


def _tfds_size(name: ast.expr | None, split: ast.expr) -> str:
    """What TFDS's table (data/work/tfds.csv) says of a split's size, sliced too (`arrays.tfds_split_samples`):
    "60,000 examples of 28×28×1 in `train`", "2,569 examples in `train[:70%]`"."""
    unknown = "its size is not known from the code"
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return unknown
    if not (isinstance(split, ast.Constant) and isinstance(split.value, str)):
        return unknown
    found = tfds_split_samples(name.value.partition(":")[0], split.value)
    if found is None:
        return unknown
    samples, table = found
    shape = f" of {'×'.join(map(str, table.shape))}" if table.shape else ""
    return f"{samples:,} examples{shape} in `{split.value}`"


def _decoding_helpers(facts: FileFacts) -> Iterator[tuple[ast.Call, int | None, str]]:
    """The file's calls (`tl.disk_image_batch_dataset(paths, ...)`) of a module-level function of a
    project module it imports, directly or not, that returns a pipeline decoding files uncached
    there (`_returned_decoding`), where the file defines no function of that name; each with its
    cell and what it names ("`tl.disk_image_batch_dataset()` (its `map(map_fn)` at
    tf2lib/data/dataset.py line 33 decodes)")."""
    modules = [(module, defined) for module in imported_modules(facts.path) if (defined := _decoding_defines(module))]
    text = facts.text
    if text.isascii():  # a name the text lacks is never called (non-ASCII: the parser may normalise a name)
        modules = [(module, defined) for module, defined in modules if any(name in text for name in defined)]
    if not modules:
        return  # nothing to read: the file's calls stay unindexed
    called = {  # the names the file calls as `f(...)` or `m.f(...)`: only these can be reported
        call.func.id if isinstance(call.func, ast.Name) else call.func.attr
        for cell in facts.cells
        for call in facts.calls(cell)
        if isinstance(call.func, ast.Name)
        or (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name))
    }
    exported: dict[str, str] = {}
    for module, defined in modules:
        callee = module_facts(module) if not called.isdisjoint(defined) else None
        if callee is None:
            continue
        shown = os.path.relpath(module, os.path.dirname(os.path.abspath(facts.path)))
        for name, line in _returned_decoding(callee).items():
            exported.setdefault(name, f"at {shown} line {line}")
    for name, where in exported.items():
        if facts.functions_named(name):
            continue
        for cell in facts.cells:
            for call in facts.calls_named(cell, name):
                if isinstance(call.func, ast.Name) or (
                    isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                ):
                    yield call, cell, f"`{ast.unparse(call.func)}()` (its decoding `map` {where})"


def _decoding_defines(path: str) -> frozenset[str]:
    """The names of the module-level functions the module's text defines (`DEFINED_TEXT`) where it
    names a decoder (`DECODER_TEXT`) and, an ASCII text, a pipeline (`PIPELINE_TEXT`: a non-ASCII
    name may be normalised to `map`), else none: read once per content of the module (a module
    returning no decoding pipeline is not analysed for it)."""
    return per_content(_DECODING_DEFINES, path, path, lambda: _defined_if_decoding(path))


def _defined_if_decoding(path: str) -> frozenset[str]:
    data, _ = read_bytes(Path(path), MAX_BYTES)
    decodes = (
        data is not None
        and any(word in data for word in DECODER_WORDS)
        and DECODER_TEXT.search(data) is not None
        and (not data.isascii() or PIPELINE_TEXT.search(data) is not None)
    )
    names = DEFINED_TEXT.findall(data) if data is not None and decodes else []
    return frozenset(name.decode("utf-8", "replace") for name in names)


def _returned_decoding(facts: FileFacts) -> dict[str, int]:
    """The module-level functions of a module that return one of its decoding pipelines
    (`_decoding_maps`) with no `repeat()` after the decoding, to callers in other modules only,
    where the module calls no `Dataset.cache()` that runs by default: each with the line of its decoding map."""
    if caches(facts):
        return {}
    found: dict[str, int] = {}
    for site, call, cell, _ in _decoding_maps(facts):
        exits: list[str] = []
        top = chain_top(facts, call, cell)
        if repeated_after(facts, call, cell) is None and pipeline_passes(facts, top, cell, {}, exits) is None:
            for name in exits:
                found.setdefault(name, site.callsite.span.line)
    return found


def _fit_passes(facts: FileFacts) -> Iterator[tuple[Site, str, str]]:
    """Each `fit()` (or `fit_generator()`) given a Python generator or `Sequence` that reads and decodes a
    file per item (`input_host_work`, less a `.flow()` of arrays and text preprocessing) for more than one
    epoch, each epoch a pass over the data (`_each_epoch`): with how often ("each of 30 epochs") and why a pass."""
    for site in facts.sites:
        host, kind = site.features.get("input_host_work"), site.features.get("input_kind")
        if host is None or kind not in ("generator", "sequence") or host.startswith(ARRAY_FLOW) or encoding(host):
            continue
        if not is_keras_model_method(site.api, ("fit", "fit_generator")) or in_test_code(facts, site):
            continue
        call = facts.node(site)
        if not isinstance(call, ast.Call) or any(k.arg is None for k in call.keywords):
            continue  # `**kwargs` may carry the epochs and steps
        by_position = site.api.endswith(".fit_generator")  # Keras 2: (generator, steps_per_epoch, epochs, ...)
        when = _epochs(site, argument(call, "epochs", 2 if by_position else None))
        passes = _each_epoch(kind, argument(call, "steps_per_epoch", 1 if by_position else None))
        if when is not None and passes is not None:
            yield site, when, passes


def _epochs(site: Site, written: ast.expr | None) -> str | None:
    """How many epochs a fit runs where more than one: "each of 30 epochs" (less a literal `initial_epoch`:
    "at most" where it is not literal), or, not known, "every epoch (`epochs=args.epochs`)"; None for one
    (Keras' default) or fewer."""
    epochs = epochs_of(site)
    if epochs is not None:
        return f"each of {epochs[0]}{epochs[1]} epochs" if epochs[1] > 1 else None
    return None if written is None else f"every epoch (`epochs={ast.unparse(written)}`)"


def _each_epoch(kind: str, steps: ast.expr | None) -> str | None:
    """Why each epoch of a fit goes over the same data again: a `Sequence` given no `steps_per_epoch`
    (Keras draws all its batches, by index, on each epoch), or `steps_per_epoch` derived from a length
    (`int(len(train_keys) / batch_size)`: the code sizes an epoch as a pass over a list); None otherwise
    (a count of steps not tied to the data may never come back to a file)."""
    if steps is None or isinstance(steps, ast.Constant) and steps.value is None:
        return "where Keras draws every batch of the `Sequence` on each" if kind == "sequence" else None
    if any(isinstance(n, ast.Call) and last_name(n.func) == "len" for n in ast.walk(steps)):
        return f"where `steps_per_epoch={ast.unparse(steps)}` sizes each by the data's length"
    return None


def _loop_passes(facts: FileFacts) -> Iterator[tuple[Span, bool, str, str, str]]:
    """Where a training step's batches are decoded again on each pass of an outer loop: a `for`
    header that calls a decoding generator (or function) anew with the same arguments, or a list
    comprehension (in the expression drawing the batch) or a loop filling the batch (`_filling_loop`)
    that decodes a slice, walked by the step loop, of a list of files that is the same on each pass
    (`_sliced`). Each with whether it slices, what decodes (a generator's name,
    or the list sliced), its decode (`input_host_work`) and the outer loop's line with its passes where known
    (`loop_at`); one per draw."""
    seen: set[int] = set()
    for site in facts.sites:
        host, above = site.features.get("input_host_work"), site.features.get("input_drawn_above")
        if host is None or not isinstance(above, int) or is_keras_model_method(site.api, ("fit", "fit_generator")):
            continue
        if not is_training_step(site):
            continue  # a step on the batch it is handed: `train_on_batch()`, `train_step(x)`, `sess.run(train_op, ...)`
        if host.startswith(ARRAY_FLOW) or encoding(host):
            continue  # a flow of arrays in memory, warped at random on each pass: nothing to keep; texts, not files
        cell = site.callsite.span.cell
        draw = draw_node(facts, site, site.callsite.span.line - above)
        if draw is None or id(draw) in seen or in_test_code(facts, site):
            continue
        if isinstance(draw, (ast.For, ast.AsyncFor)):
            made = _made(draw.iter)
            outer = own_loops(facts, draw, cell)
            if made is None or not outer or flow.names(made) & loop_varying(outer[0]) or runs_once(facts, outer[0], cell):
                continue  # made once, from other data on each pass, or in a loop that runs once
            seen.add(id(draw))
            yield facts.span(draw, cell, draw.iter), False, last_name(made.func), host, loop_at(facts, outer[0], cell)
        elif isinstance(draw, ast.expr) and each_step(facts, draw, site):
            comprehension = next((n for n in ast.walk(draw) if isinstance(n, ast.ListComp)), None)
            walker = comprehension or _filling_loop(facts, draw, site)
            sliced = _sliced(facts, walker, cell) if walker is not None else None
            if sliced is not None:
                seen.add(id(draw))
                yield facts.span(draw, cell), True, ast.unparse(sliced[0]), host, sliced[1]


def _iterated_loaders(facts: FileFacts) -> Iterator[tuple[Span, dict[str, str | int]]]:
    """Each `for` inside another loop (an epoch loop that runs more than once, `runs_once`) over an
    instance of a class of the file or of a project module it imports (`for x, y in trainset`, through
    `enumerate` or `tqdm`) whose `__next__` (or `__getitem__`) reads and decodes a file, itself or
    through the module's functions (`_class_decode`), made outside that loop or from what is the same on
    each pass: its files are decoded again on every pass. Not where the `for` may stop early (`break`:
    each pass may draw other files) nor where the class keeps what it decoded (`_keeps`)."""
    if not _iterators_in_reach(facts):
        return  # (no tree indexed for a file that reaches no iterator class)
    for cell in facts.cells:
        for loop in facts.nodes(cell, ast.For):
            outer = own_loops(facts, loop, cell)
            iterated = loop.iter
            while isinstance(iterated, ast.Call) and ast.unparse(iterated.func) in ITERATES and iterated.args:
                iterated = iterated.args[0]
            made = _made_instance(facts, iterated, loop, cell)
            if not outer or made is None or flow.names(made) & loop_varying(outer[0]) or _stops_early(loop):
                continue
            if runs_once(facts, outer[0], cell) or in_test(facts, loop, cell):
                continue
            found = _class_decode(facts, last_name(made.func), made is iterated)
            if found is not None:
                method, decode, module = found
                yield facts.span(loop, cell, loop.iter), {
                    "what": ast.unparse(iterated), "cls": last_name(made.func), "method": method,
                    "decode": ast.unparse(decode.func), "line": decode.lineno, "module": module,
                    "outer": loop_at(facts, outer[0], cell),
                }


def _iterators_in_reach(facts: FileFacts) -> bool:
    """Whether the file or a project module it imports defines a `__next__` or `__getitem__` (`ITERATOR_TEXT`)."""
    text = facts.source if isinstance(facts.source, str) else "\n".join(facts.source)
    if _defines_iterator(text.encode("utf-8", "replace")):
        return True
    return any(per_content(_ITERATOR_DEFINES, module, module, functools.partial(_module_defines_iterator, module))
               for module in imported_modules(facts.path))


def _module_defines_iterator(path: str) -> bool:
    data, _ = read_bytes(Path(path), MAX_BYTES)
    return data is not None and _defines_iterator(data)


def _defines_iterator(data: bytes) -> bool:
    """`ITERATOR_TEXT` in *data*, its method names looked for first (the pattern has no literal prefix)."""
    return (b"__next__" in data or b"__getitem__" in data) and ITERATOR_TEXT.search(data) is not None


def _made_instance(facts: FileFacts, iterated: ast.expr, loop: ast.For, cell: int | None) -> ast.Call | None:
    """The constructor call *iterated* is: written there, or the last plain binding of its name before the
    loop in the loop's function (`trainset = Dataset(cfg)`); None for anything else."""
    if isinstance(iterated, ast.Name):
        bound = last_bindings(enclosing(facts, loop, cell), loop.lineno).get(iterated.id)
        iterated = bound.value if bound is not None else iterated
    return iterated if isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) else None


def _stops_early(loop: ast.For) -> bool:
    """Whether a `break` of *loop* itself (not of a loop in it) can end it before its iterable does."""
    todo: list[ast.AST] = list(loop.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Break):
            return True
        if not isinstance(node, (*LOOPS, *SCOPES)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _class_decode(facts: FileFacts, name: str, anew: bool) -> tuple[str, ast.Call, str] | None:
    """The `__next__` (else `__getitem__`) of the class *name* of this file or of the project module the file
    imports it from and the first file decode it reaches (`_decode_reached`), with that module's file name; None
    where there is none, where the class keeps what it decodes (`_keeps`), or, for an instance iterated again
    (not made *anew*), where it is not known to start over (`_starts_over`)."""
    places = [(facts, name)] + [
        (module, member)
        for path, member in imported_from_project(facts, name) or ()
        if path is not None and (module := module_facts(path)) is not None
    ]
    for where, member in places:
        for cell in where.cells:
            for klass in where.nodes(cell, ast.ClassDef):
                if klass.name != member or _keeps(klass):
                    continue
                methods = {n.name: n for n in klass.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
                method = methods.get("__next__", methods.get("__getitem__"))
                if not anew and not _starts_over(methods):
                    continue
                calls = [n for n in ast.walk(method) if isinstance(n, ast.Call)] if method is not None else []
                decode = next((d for c in calls if (d := _decode_reached(where, c, cell, 0)) is not None), None)
                if method is not None and decode is not None:
                    return method.name, decode, os.path.basename(where.path)
    return None


def _starts_over(methods: Mapping[str, ast.FunctionDef | ast.AsyncFunctionDef]) -> bool:
    """Whether a second `for` over one instance of the class walks all its items again: it has no
    `__iter__` nor `__next__` (Python indexes its `__getitem__` from 0), its `__iter__` yields, resets an
    attribute or returns another iterator than `self`, or its `__next__` resets an attribute where it raises
    `StopIteration` (`self.count = 0; raise StopIteration`); an iterator that only ends stays ended."""
    walk, step = methods.get("__iter__"), methods.get("__next__")
    if walk is None and step is None:
        return True
    if walk is not None and any(
        isinstance(n, (ast.Yield, ast.YieldFrom))
        or _sets_attribute(n)
        or isinstance(n, ast.Return) and n.value is not None and not (isinstance(n.value, ast.Name) and n.value.id == "self")
        for n in ast.walk(walk)
    ):
        return True
    blocks = [b for n in ast.walk(step) if isinstance(n, ast.If) for b in (n.body, n.orelse)] if step else []
    return any(
        any(isinstance(n, ast.Raise) and n.exc is not None
            and last_name(n.exc.func if isinstance(n.exc, ast.Call) else n.exc) == "StopIteration" for n in block)
        and any(_sets_attribute(n) for n in block)
        for block in blocks
    )


def _sets_attribute(node: ast.AST) -> bool:
    """Whether *node* assigns an attribute of `self` (`self.count = 0`)."""
    return isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" for t in node.targets
    )


def _keeps(klass: ast.ClassDef) -> bool:
    """Whether a method of the class stores into an item of an attribute of `self` (`self.cache[path] = image`)
    or adds to one (`self.images.append(image)`): a store the class can keep its decoded files in."""
    for node in ast.walk(klass):
        target = node.value if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in KEEPING:
            target = node.func.value
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
            return True
    return False


def _drawn_by_scripts(facts: FileFacts) -> Iterator[tuple[Span, dict[str, str | int]]]:
    """In a loader module, the decodes of its generators (or functions) that a training script
    beside it draws anew on every pass of an outer loop (`_loop_passes` read in the script): each
    at the decode in the generator's loops (`_decode_in`), else at its `def`, with the script's
    loop and draw."""
    here = os.path.abspath(facts.path)
    text = facts.source if isinstance(facts.source, str) else "\n".join(facts.source)
    for script in importer_facts(facts.path, text):
        for span, sliced, what, host, outer in _loop_passes(script):
            if sliced or script.functions_named(what) or loader_of(script.path, what) != here:
                continue
            for cell, function in facts.functions_named(what):
                anchor = _decode_in(facts, function, cell)
                where = facts.span(anchor, cell) if anchor is not None else _header(function, cell)
                script_name = os.path.basename(script.path)
                yield where, {"what": what, "host": host, "script": script_name, "outer": outer, "draw": span.line}


def _header(function: ast.FunctionDef | ast.AsyncFunctionDef, cell: int | None) -> Span:
    """The span of a function's `def name` (`async def name`)."""
    written = ("async def " if isinstance(function, ast.AsyncFunctionDef) else "def ") + function.name
    start = function.col_offset + 1
    return Span(function.lineno, start, function.lineno, start + len(written), cell)


def _decode_in(facts: FileFacts, function: Function, cell: int | None) -> ast.Call | None:
    """The first call, in a loop of *function*, that decodes a file (`DECODES`, as written or by a
    name only they end in, `imread`) or calls a function of this file that does (through
    `MAX_HOPS` calls): `self.imread(path)`; None where none is seen."""
    loops = [n for n in ast.walk(function) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]
    calls = sorted(
        {id(n): n for loop in loops for n in ast.walk(loop) if isinstance(n, ast.Call)}.values(),
        key=lambda n: (n.lineno, n.col_offset),
    )
    return next((call for call in calls if _decodes_file(facts, call, cell, 0)), None)


def _decodes_file(facts: FileFacts, call: ast.Call, cell: int | None, depth: int) -> bool:
    return _decode_reached(facts, call, cell, depth) is not None


def _decode_reached(facts: FileFacts, call: ast.Call, cell: int | None, depth: int) -> ast.Call | None:
    """The file decode *call* is (`DECODES`, or a name only they end in) or reaches through this file's
    functions (through `MAX_HOPS - depth` calls); None where none is seen, or where a project constant keeps the call
    from running (`never_runs`: `if LOAD_TO_RAM: image = cached[i] else: image = cv2.imread(path)`)."""
    if never_runs(facts, call, cell):
        return None
    if ast.unparse(call.func) in DECODES or last_name(call.func) in DECODED_BY:
        return call
    if depth >= MAX_HOPS:
        return None
    inner = (
        _decode_reached(facts, n, cell, depth + 1)
        for function in definitions(facts, call.func, cell)
        for n in ast.walk(function)
        if isinstance(n, ast.Call) and n is not call
    )
    return next((found for found in inner if found is not None), None)


def _filling_loop(facts: FileFacts, draw: ast.expr, step: Site) -> ast.For | None:
    """The `for` inside the step's loop that fills the batch item by item where *draw*, a decode in
    its body, is drawn (`for f in files[i * n:(i + 1) * n]: images.append(imread(f))`, or `batch[j] =
    imread(f)` into a preallocated array); None where the draw is in no loop of its own."""
    call, cell = facts.node(step), step.callsite.span.cell
    around = own_loops(facts, draw, cell)
    if call is None or not around or not isinstance(around[0], ast.For):
        return None
    return around[0] if around[0] not in own_loops(facts, call, cell) else None


def _sliced(facts: FileFacts, walker: ast.ListComp | ast.For, cell: int | None) -> tuple[ast.expr, str] | None:
    """The list a comprehension, or a loop filling the batch (`_filling_loop`), decodes a slice of
    (`[imread(f) for f in files[i * n:(i + 1) * n]]`, also through `enumerate`, or through a name bound
    to that slice in the loop) and the line of the loop outside the step (`loop_at`)
    loop, where the slice's bounds follow the step loop's variable (one pass of it walks the list)
    and the list holds the same files on each pass of the outer loop (`_same_each_pass`)."""
    loops = own_loops(facts, walker, cell)
    if len(loops) < 2 or not isinstance(loops[0], (ast.For, ast.AsyncFor)):
        return None
    steps, outer = loops[0], loops[1]
    if runs_once(facts, outer, cell):
        return None
    iterated = walker.generators[0].iter if isinstance(walker, ast.ListComp) else walker.iter
    while isinstance(iterated, ast.Call) and ast.unparse(iterated.func) in ITERATES and iterated.args:
        iterated = iterated.args[0]
    if isinstance(iterated, ast.Name):
        bound = last_bindings(steps, walker.lineno).get(iterated.id)
        iterated = bound.value if bound is not None else iterated
    if not isinstance(iterated, ast.Subscript) or not isinstance(iterated.slice, ast.Slice):
        return None
    if not flow.names(iterated.slice) & flow.targets(steps.target):
        return None  # the same slice on every step
    return (iterated.value, loop_at(facts, outer, cell)) if _same_each_pass(iterated.value, outer) else None


def _same_each_pass(files: ast.expr, outer: Loop) -> bool:
    """The list *files* holds the same files on each pass of *outer*: no name it reads changes
    from pass to pass, but for its own assignments in the loop from a listing of a folder whose
    path does not change (`self.data = glob(pattern)`, then shuffled in place: the same files in
    another order)."""
    written = ast.unparse(files)
    relisted = [
        node
        for node in ast.walk(ast.Module(body=outer.body, type_ignores=[]))
        if isinstance(node, ast.Assign) and any(ast.unparse(t) == written for t in node.targets)
    ]
    varying = loop_varying(outer) if not relisted else _varying_besides(outer, written)
    return not flow.names(files) & varying and all(
        _listing(node.value) and not flow.names(node.value) & varying for node in relisted
    )


def _varying_besides(outer: Loop, written: str) -> frozenset:
    """The names the passes of *outer* differ in, its assignments to *written* left out."""

    class Without(ast.NodeTransformer):
        def visit_Assign(self, node: ast.Assign) -> ast.Assign | None:
            return None if any(ast.unparse(t) == written for t in node.targets) else node

    body = [Without().visit(statement) for statement in copy.deepcopy(outer.body)]
    loop = copy.copy(outer)
    loop.body = [statement for statement in body if statement is not None]
    return loop_varying(loop)


def _listing(value: ast.expr) -> bool:
    """A listing of a folder (`glob(...)`, `os.listdir(...)`), sorted or made a list or not."""
    while isinstance(value, ast.Call) and last_name(value.func) in ("sorted", "list") and value.args:
        value = value.args[0]
    return isinstance(value, ast.Call) and last_name(value.func) in LISTED_BY


def _made(iterated: ast.expr) -> ast.Call | None:
    """The call a `for` header makes the iterated generator with (through `enumerate`, `zip`,
    `tqdm`: their first argument); None where it iterates a name (a generator made before)."""
    while isinstance(iterated, ast.Call) and ast.unparse(iterated.func) in ITERATES and iterated.args:
        iterated = iterated.args[0]
    return iterated if isinstance(iterated, ast.Call) else None


def _decodes(facts: FileFacts, func: ast.expr, cell: int | None) -> bool:
    """The map function, or a function of this file it calls, decodes or parses file contents; a
    function given as a parameter (`dataset.map(map_fn)` in a helper) is each one the file's calls
    of the helper pass there."""
    seen: set[Function] = set()
    todo = _functions(facts, func, cell)
    while todo:
        function, unit = todo.pop()
        if function in seen or len(seen) > 20:
            continue
        seen.add(function)
        body: ast.AST = (
            function.body if isinstance(function, ast.Lambda) else ast.Module(body=function.body, type_ignores=[])
        )
        for node in ast.walk(body):
            if isinstance(node, ast.Call):
                inner = facts.site_at(node, unit)
                if inner is not None and DECODER.match(inner.api):
                    return True
                todo.extend(_functions(facts, node.func, unit))
    return False


def _functions(facts: FileFacts, expr: ast.expr, cell: int | None, depth: int = 0) -> list[tuple[Function, int | None]]:
    """The functions *expr* names (`definitions`), with the cell to read them in; for a parameter
    of the function *expr* is written in, the functions its calls in this file pass there."""
    found = located_definitions(facts, expr, cell)
    if found or not isinstance(expr, ast.Name) or depth >= MAX_HOPS:
        return found
    for unit, given in _arguments(facts, expr, cell):
        found += _functions(facts, given, unit, depth + 1)
    return found


def _arguments(facts: FileFacts, name: ast.Name, cell: int | None) -> list[tuple[int | None, ast.expr]]:
    """What the file's calls of the function *name* is a parameter of pass for it (by position or
    keyword, with their cells); [] where *name* is no parameter of the function it is read in."""
    function = enclosing(facts, name, cell)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or name.id not in parameters(function):
        return []
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if isinstance(facts.parent(function, cell), ast.ClassDef) and not any(
        last_name(d) == "staticmethod" for d in function.decorator_list
    ):
        positional = positional[1:]  # `self`, bound by `self.f(...)`
    found = []
    for unit, call in calls_of(facts, function, cell):
        given = argument(call, name.id, positional.index(name.id) if name.id in positional else None)
        if given is not None:
            found.append((unit, given))
    return found


def _size(site) -> str:
    """What the code tells of the decoded set's size: one image's, where `image_size` is given."""
    shape = site.features.get("image_size")
    unknown = "its size is not known from the code"
    if (
        site.api.endswith("image_dataset_from_directory")
        and isinstance(shape, list)
        and len(shape) == 2
        and all(isinstance(v, int) for v in shape)
    ):
        height, width = shape
        return (
            f"{unknown}; one decoded image is {height}×{width}×3 float32, {height * width * 3 * FLOAT32 / 1000:.0f} kB"
        )
    return unknown


