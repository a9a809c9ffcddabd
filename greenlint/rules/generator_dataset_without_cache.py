"""GL413 generator-dataset-without-cache: a `from_generator` pipeline run for many passes, its Python generator again on each."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Rule, Valid, argument, last_name
from greenlint.rules.dataset_cache import caches, optional_cache
from greenlint.rules.deliberate import in_test_code
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.pipeline_runs import pipeline_passes, repeated_after
from greenlint.rules.site import method
from greenlint.rules.syntax import chain_top, own_yields
from greenlint.rules.tf_data_defaults import OPTION

API = "tensorflow.data.Dataset.from_generator"
#: Calls that draw at random (`random.shuffle`, `np.random.randint`, `tf.random.uniform`) or
#: augment (GL408's words): a generator making them yields other elements on each pass.
CHANGING = re.compile(r"(^|\.)_?random|shuffle|aug|transform|distort|jitter", re.IGNORECASE)
#: The methods a random generator object draws with (`rng.choice(...)`, `rng.integers(...)` of a
#: NumPy `Generator` bound to any name): a draw whatever the receiver is called.
DRAWS = frozenset({
    "choice", "choices", "sample", "permutation", "integers", "randint", "rand", "randn", "uniform",
    "normal", "beta", "binomial", "poisson",
})
#: `itertools` functions whose loop never ends (`for x in itertools.cycle(data): yield x`): an endless
#: stream, as a `while` loop is, which a cache would never finish holding.
ENDLESS = frozenset({"count", "cycle"})
#: How many of the file's functions a generator is followed through, call by call.
MAX_HOPS = 4

_PASSES = (
    "import tensorflow as tf\n\n\ndef pairs(texts, labels):\n"
    "    for text, label in zip(texts, labels):\n        yield [vocab[w] for w in text.split()], label\n\n\n"
)


#: A case's generator pipeline whose `.cache()` an argparse option guards (`{action}`: how the option is stored).
_FLAGGED = _PASSES.replace("import tensorflow as tf\n", "import argparse\nimport tensorflow as tf\n", 1) + (
    "parser = argparse.ArgumentParser()\nparser.add_argument('--cache', action='{action}')\nargs = parser.parse_args()\n"
    "ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))\n"
    "if args.cache:\n    ds = ds.cache()\nmodel.fit(ds.padded_batch(32), epochs=30)\n"
)


class GeneratorDatasetWithoutCache(Rule):
    """
    ## What it does
    Flags `tf.data.Dataset.from_generator(generator, ...)` whose pipeline is run for many passes
    with no `.cache()`: repeated after it by `.repeat()` (no count, `None`, -1 or a literal count
    above 1), given to `fit()` with `epochs` other than 1 (with no `steps_per_epoch`: given
    one, Keras keeps one iterator across the epochs of a generator's dataset), or iterated inside an epoch loop (the
    passes GL408 reads for a decoding pipeline, followed through the names it is assigned to and
    the functions that return it), when the generator yields the same elements on every pass: a
    function of the file, written as a generator (it `yield`s), with no `while` loop nor `itertools.cycle`/`count` one (a stream or
    an endless generator: no pass ends, a cache would never fill) and no call that draws at random
    or augments (`random.shuffle`, `np.random.*`, `tf.random.*`, a random generator's
    `rng.choice(...)` or `rng.integers(...)`, a name holding `aug`, `transform`, `distort` or
    `jitter`), in it or in the functions of the file it calls (by name).

    Not reported: a file that calls `Dataset.cache()` anywhere where the program's defaults run it
    (as for GL408: a cache an option leaves off by default does not count, and the finding names it); a generator greenlint cannot see
    (a lambda, a method, a function of another module, a parameter); a pipeline returned to code
    the file does not show or handed to a helper (it may cache it); one pass; test code.

    Whether the elements fit in memory is not known from the code, nor how many there are: the
    finding claims no share of the run, only that the generator's work is redone on every pass
    after the first, and its advice holds where they fit.

    Off by default: a new rule whose findings are not yet judged on real code (bench/realworld/),
    and whose saving, the host's work per element times the elements and the passes after the
    first, is material only where that work is a share of the run: where the device's steps are
    long and the generator keeps ahead of them behind a shuffle buffer, only the host core's
    energy is saved.

    ## Why is this bad?
    `from_generator` runs the Python generator on one thread, under the GIL, and converts every
    element it yields into tensors through a Python call inside the pipeline (`tf.py_function`);
    the TensorFlow guide on tf.data performance notes that this is slow. On every pass of a
    `repeat()` or an epoch the generator starts again and redoes all of it (tokenising, lookups,
    reading), only to yield the same elements as before. `.cache()` right after `from_generator`
    (before `shuffle`, `batch` and `repeat`) runs the generator once and replays the elements
    from memory on the other passes.

    ## Example
    ```python
    import tensorflow as tf

    def pairs(texts, labels):
        for text, label in zip(texts, labels):
            yield [vocab[w] for w in text.split()], label

    ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))
    ds = ds.shuffle(10000).repeat().padded_batch(64)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    def pairs(texts, labels):
        for text, label in zip(texts, labels):
            yield [vocab[w] for w in text.split()], label

    ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))
    ds = ds.cache().shuffle(10000).repeat().padded_batch(64)
    ```

    ## Energy evidence
    The pair under bench/rules/GL413/ tokenises 5,000 pairs of sentences of 5 to 40 words through a
    dict in a `from_generator` pipeline, padded into batches of 64, for 5 passes, without and with
    `.cache()` after `from_generator` (a new pipeline each run, so every run starts with an empty
    cache): with 5 passes a cache can save at most four fifths of the generator's work. Measured
    apart while writing the rule (TensorFlow 2.21, 20,000 such pairs, this 2-core machine): the
    generator's pass took about 270 µs of CPU per element, a pass read back from the cache 4 µs.

    ## Fix safety
    No automatic fix: a cache holds every element in memory, which only the user knows fits.

    ## Options
    - `tensorflow-version`: the TensorFlow the code targets (default: read from the project's pins), for
      how `fit()` with `steps_per_epoch` goes over a dataset again (GL408's "Options").
    """

    code = "GL413"
    name = "generator-dataset-without-cache"
    OPTIONS = (OPTION,)
    DEFAULT_ENABLED = False  # opt-in until bench/realworld/ shows its precision
    CALLS = frozenset({method(API)})  # a file that never calls it is not checked
    MESSAGE = (
        "`from_generator({generator})` runs the Python generator `{generator}` again on {when}, each element"
        " converted into tensors by a Python call: if its elements fit in memory (their number is not known from"
        " the code), `.cache()` right after `from_generator` (before shuffling) runs the generator once"
    )
    FIX_TITLE = "Cache the generator's elements (`.cache()` right after `from_generator`)"
    EVIDENCE_APIS = (API,)
    VALID = (
        Valid(_FLAGGED.format(action="store_false")),  # the option's cache runs by default (`--cache` defaults to True)
        Valid(  # cached: the generator runs once
            _PASSES + "ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))\n"
            "ds = ds.cache().shuffle(1000).repeat().padded_batch(64)\n"
        ),
        Valid(  # one pass: nothing is redone
            _PASSES + "ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))\n"
            "for batch in ds.padded_batch(64):\n    predict_step(batch)\n"
        ),
        Valid(  # an endless stream: no pass ends, a cache would never fill
            "import tensorflow as tf\n\n\ndef frames(camera):\n    while True:\n        yield camera.read()\n\n\n"
            "ds = tf.data.Dataset.from_generator(frames, args=(0,), output_types=tf.uint8).repeat()\n"
        ),
        Valid(  # drawn at random in a helper the generator calls: other elements on each pass
            "import random\nimport tensorflow as tf\n\n\ndef crop(text):\n    start = random.randint(0, 10)\n"
            "    return text[start:start + 64]\n\n\ndef pieces(texts):\n    for text in texts:\n        yield crop(text)\n\n\n"
            "ds = tf.data.Dataset.from_generator(pieces, args=(texts,), output_types=tf.string).repeat()\n"
        ),
        Valid(  # drawn by a random generator object, whatever its name: other elements on each pass
            "import numpy as np\nimport tensorflow as tf\nrng = np.random.default_rng(0)\n\n\n"
            "def windows(series):\n    for s in series:\n        start = rng.integers(0, len(s) - 64)\n"
            "        yield s[start:start + 64]\n\n\n"
            "ds = tf.data.Dataset.from_generator(windows, args=(series,), output_types=tf.float32).repeat()\n"
        ),
        Valid(  # augmented on each pass
            "import tensorflow as tf\n\n\ndef images(arrays):\n    for a in arrays:\n        yield augment(a)\n\n\n"
            "model.fit(tf.data.Dataset.from_generator(images, args=(x,), output_types=tf.float32).batch(32), epochs=20)\n"
        ),
        Valid(  # an endless stream through itertools: a cache would never be complete
            "import itertools\nimport tensorflow as tf\n\n\ndef pairs(texts, labels):\n"
            "    for text, label in itertools.cycle(zip(texts, labels)):\n        yield text, label\n\n\n"
            "ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.string, tf.int32))\n"
            "model.fit(ds.batch(32), epochs=30, steps_per_epoch=100)\n"
        ),
        Valid(  # a `repeat(n)` whose count may be 1
            _PASSES + "ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))\n"
            "ds = ds.repeat(args.passes)\n"
        ),
        Valid(  # returned to code the file does not show: the caller may cache it
            _PASSES + "def make(texts, labels):\n"
            "    return tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))\n"
        ),
        Valid(  # `steps_per_epoch` over a dataset of unknown cardinality: Keras keeps one iterator across the epochs
            "import tensorflow as tf\n\n\ndef encode(text):\n    return [vocab.get(w, 1) for w in text.split()]\n\n\n"
            "def pairs(texts, labels):\n    for text, label in zip(texts, labels):\n        yield encode(text), label\n\n\n"
            "ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))\n"
            "model.fit(ds.padded_batch(32), epochs=30, steps_per_epoch=100)\n"
        ),
    )
    INVALID = (
        Invalid(  # the one cache runs only with `--cache` (False by default): the defaults run the generator every epoch
            _FLAGGED.format(action="store_true"),
            line=13,
            message_contains="the `.cache()` at line 15 does not run with the program's defaults (`if args.cache:` at line 14)",
        ),
        Invalid(  # repeated for ever: the generator runs again on every pass
            _PASSES + "ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))\n"
            "ds = ds.shuffle(1000)\nds = ds.repeat()\nds = ds.padded_batch(64).prefetch(1)\n",
            line=9,
            message_contains="again on every pass of `repeat()` (line 11)",
        ),
        Invalid(  # given to a fit of many epochs, through a function of the file that tokenises
            "import tensorflow as tf\n\n\ndef encode(text):\n    return [vocab.get(w, 1) for w in text.split()]\n\n\n"
            "def pairs(texts, labels):\n    for text, label in zip(texts, labels):\n        yield encode(text), label\n\n\n"
            "ds = tf.data.Dataset.from_generator(pairs, args=(texts, labels), output_types=(tf.int32, tf.int32))\n"
            "model.fit(ds.padded_batch(32), epochs=30)\n",
            line=13,
            message_contains="each of 30 epochs",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if caches(facts):
            return
        optional = optional_cache(facts)  # a cache the program's defaults skip, named by each finding below
        for site in facts.sites:
            if site.api != API or in_test_code(facts, site):
                continue
            call, cell = facts.node(site), site.callsite.span.cell
            generator = argument(call, "generator", 0) if call is not None else None
            if call is None or not isinstance(generator, ast.Name) or not _same_each_pass(facts, generator.id):
                continue
            when = repeated_after(facts, call, cell) or pipeline_passes(facts, chain_top(facts, call, cell), cell, options)
            if when:
                message = self.MESSAGE.format(generator=generator.id, when=when) + optional
                yield self.diagnostic(site.callsite.span, facts.path, message)


def _same_each_pass(facts: FileFacts, name: str) -> bool:
    """Whether *name* is the file's one function of that name, a generator that yields the same
    elements on every pass: no `while` loop nor endless `itertools` one, and no call drawing at random or augmenting in it or
    in the functions of the file it calls (followed MAX_HOPS deep)."""
    defined = facts.functions_named(name)
    if len(defined) != 1 or not any(own_yields(defined[0][1])):
        return False
    todo, seen = [(defined[0][1], 0)], {name}
    while todo:
        function, depth = todo.pop()
        for node in ast.walk(function):
            if isinstance(node, ast.While):
                return False
            if not isinstance(node, ast.Call):
                continue
            callee = last_name(node.func)
            if CHANGING.search(ast.unparse(node.func)) or callee in DRAWS or _endless(node.func):
                return False
            if isinstance(node.func, ast.Name) and callee not in seen and depth < MAX_HOPS:
                seen.add(callee)
                todo += [(f, depth + 1) for _, f in facts.functions_named(callee)]
    return True


def _endless(func: ast.expr) -> bool:
    """`itertools.cycle` / `itertools.count`, or either called by its bare name (`from itertools import cycle`)."""
    if isinstance(func, ast.Attribute):
        return func.attr in ENDLESS and isinstance(func.value, ast.Name) and func.value.id == "itertools"
    return isinstance(func, ast.Name) and func.id in ENDLESS
