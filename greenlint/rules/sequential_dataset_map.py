"""GL402 sequential-dataset-map: `Dataset.map()` without `num_parallel_calls`, one element at a time."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, FixBy, Invalid, Rule, Valid, binds
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.site import is_dataset_method
from greenlint.rules.syntax import (
    Function,
    calls_of,
    cell_units,
    definitions,
    few_elements,
    last_name,
    map_function,
    parameters,
    scope_of,
)
from greenlint.rules.tf_data_defaults import by_hand
from greenlint.rules.tf_decoders import DECODER

#: A call in a map function that makes it stateful: random draws (`tf.random.uniform`,
#: `np.random.rand`, `tf.image.random_flip_left_right`; not the `stateless_` ones), Python run
#: from the graph, a variable updated.
_RANDOM = re.compile(r"(^|\.)_?random", re.IGNORECASE)
_STATEFUL_CALLS = frozenset({"py_function", "numpy_function", "py_func", "assign", "assign_add", "assign_sub"})
#: The namespaces of TensorFlow's lookup tables: their ops (`LookupTableFindV2`, `HashTableV2`, ...) are
#: stateful in TensorFlow's op registry, so a key looked up in a table makes the map function stateful.
_TABLES = ("tensorflow.lookup.", "tensorflow.compat.v1.lookup.", "tensorflow.contrib.lookup.")
#: Keras preprocessing layers that look their inputs up in such a table when called.
_TABLE_LAYERS = ("StringLookup.__call__", "IntegerLookup.__call__", "TextVectorization.__call__")
#: Image ops whose work grows with each element's pixels (a resize, a crop, a colour change): with a
#: decode or a parse, work that a table's lookup of a few keys (a hash each) is not.
_IMAGE_OPS = ("tensorflow.image.", "tensorflow.compat.v1.image.")
#: Methods that change the object they are called on (a cache filled, a counter list appended to).
_MUTATORS = frozenset(
    {"append", "extend", "update", "add", "pop", "popitem", "setdefault", "insert", "clear", "remove"}
)


#: The cases' TensorFlow: before tf.data parallelised stateless maps by itself.
TF_2_6 = {"tensorflow-version": "2.6"}


class SequentialDatasetMap(Rule):
    """
    ## What it does
    Flags `tf.data.Dataset.map()` called without `num_parallel_calls` (by keyword or as the
    second positional argument, and with no `*args`/`**kwargs` that could carry it): the map
    function then runs on one element at a time, on one core. A pipeline known to hold at most
    32 elements (a one-element `Dataset.from_tensors(x)`, a `Dataset.range(10)` demo, a `take(4)`)
    is not reported: there is nothing worth spreading over cores. Nor are a `map` whose result is
    discarded, a projection (`lambda x, y: x`: nothing to compute), and a `map` inside the
    function an `interleave` runs (the interleave already reads and maps several files at once).
    Nor is a `map` whose dataset goes on, every way it goes, into a file cache (`.cache(path)`, in
    its chain, through the names it is bound to in its function, or returned to callers in the file
    that all cache it: `self._decoded(files).cache(path)`): its elements are computed once, while
    the cache file is written, and read from the file on every later pass and run. An in-memory
    `.cache()` is filled again by every run, so its first pass is reported.

    It applies to code that targets TensorFlow before 2.7, to pipelines whose `tf.data.Options`
    set `experimental_optimization.map_parallelization` (or `apply_default_optimizations`) to
    False, and to stateful map functions. Since TensorFlow 2.7,
    `tf.data.experimental.OptimizationOptions.map_parallelization` ("Whether to parallelize
    stateless map transformations. If None, defaults to True."; TensorFlow's
    tensorflow/python/data/ops/options.py) runs a stateless map function in parallel by itself,
    and `num_parallel_calls` adds nothing. A map function is stateful when it draws random
    numbers (`tf.random.*`, `np.random.*`, `tf.image.random_*`; not `stateless_*`), runs Python
    (`tf.py_function`, `tf.numpy_function`), updates a variable, or changes a Python object from
    outside it (a tokenizer's cache filled): read from the function where this file defines it
    (a lambda, a function or method, and the functions of this file those call). A key looked up
    in a `tf.lookup` table (`class_table.lookup(labels)` on a `tf.lookup.StaticHashTable`, or by a
    Keras `StringLookup`, `IntegerLookup` or `TextVectorization` layer called there) makes it
    stateful too: the table ops, `LookupTableFindV2` among them, are stateful in TensorFlow's op
    registry, and the optimisation (`CanParallelize` in
    tensorflow/core/grappler/optimizers/data/map_parallelization.cc) leaves a function holding any
    stateful op but `Assert` sequential. That is reported only where the function also decodes or
    parses file contents (`tf.io.decode_jpeg`, `tf.io.parse_single_example`) or runs a `tf.image`
    op, milliseconds per element on one core; a map that only looks ids up (a hash per key,
    microseconds per element) costs little beside a training step, however sequential. The version
    targeted is read as GL401 reads it (the `tensorflow-version` option sets it); where it predates
    2.7 (or the options turn the rewrite off) the message gives that reason, not the function's
    state: no map is parallelised there, stateless or not.

    ## Why is this bad?
    The TensorFlow guide "Better performance with the tf.data API" (section "Parallelizing data
    transformation") recommends `num_parallel_calls=tf.data.AUTOTUNE`, which lets tf.data run
    the map function on several elements at once and tune the parallelism to the machine.
    Sequential preprocessing leaves cores idle while the accelerator or the training step waits
    for the next batch, and the whole machine draws its baseline power for longer.

    ## Example
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(images).map(augment).batch(64)
    ```

    ## Use instead
    ```python
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices(images).map(augment, num_parallel_calls=tf.data.AUTOTUNE).batch(64)
    ```

    ## Energy evidence
    Parallel calls need idle cores: this machine's estimate (process CPU time) counts the same
    calls however they are spread, and on its 2 loaded cores the pair under bench/rules/, kept
    for a GPU, was not cheaper. On a machine whose cores or accelerator wait on the input
    pipeline the gain is the one the tf.data guide describes; greenlint has no such measurement
    to state.

    The case on a GPU, from the same guide (section "Parallelizing data transformation"): with
    `num_parallel_calls` the map runs on several elements at once, so a batch whose map took `t` on
    one core takes about `t / k` on `k` idle cores. Where the step waits on the map, the time saved
    per step is that difference, up to the step's wait, at the draw of a device waiting on the host
    (greenlint's device model, greenlint/predict/devices.py: 0.222 of the board's TDP, 15.5 W on a
    Tesla T4, within a factor 2) plus the host's; the map's own CPU work is the same either way, so
    the saving is never below 0 while cores are idle.

    ## Fix safety
    Safe: adds `num_parallel_calls=tf.data.AUTOTUNE`. `map` stays deterministic (elements come
    out in the same order) unless the code opts out with `deterministic=False` or
    `tf.data.Options`, so the pipeline yields the same elements. A map function with Python
    side effects (a `tf.py_function` that appends to a list) may run them in another order. The
    fix needs the file to import `tensorflow` as a module (`import tensorflow as tf`).

    ## Options
    - `tensorflow-version`: the TensorFlow version the code targets (see GL401).
    """

    code = "GL402"
    name = "sequential-dataset-map"
    CALLS = frozenset({"map"})
    MESSAGE = "`Dataset.map()` without `num_parallel_calls` transforms one element at a time: {why}"
    FIX_TITLE = "Add `num_parallel_calls=tf.data.AUTOTUNE`"
    FIX = FixBy("SetArgument", {"name": "num_parallel_calls", "value": "{tf}.data.AUTOTUNE", "position": 1}, safe=True)
    VALID = (
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f, num_parallel_calls=tf.data.AUTOTUNE)\n"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f, tf.data.AUTOTUNE)\n"),
        Valid("import tensorflow as tf\nds = tf.data.Dataset.range(8).map(f, **options)\n"),
        Valid("results = map(str, [1, 2, 3])\n"),
        Valid("import pandas as pd\ns = pd.Series([1, 2]).map(str)\n"),
        Valid(  # TensorFlow 2.21 parallelises a stateless map by itself
            "import tensorflow as tf\nds = tf.data.Dataset.range(100_000).map(double)\n",
            options={"tensorflow-version": "2.21"},
        ),
        Valid(  # `lookup` of the program's own class, not a TensorFlow table: a stateless map, parallelised by itself
            "import tensorflow as tf\nclass Vocab:\n    def lookup(self, x):\n        return tf.strings.to_hash_bucket_fast(x, 1000)\n"
            "vocab = Vocab()\nds = tf.data.Dataset.from_tensor_slices(words).map(lambda w: vocab.lookup(w))\n",
            options={"tensorflow-version": "2.21"},
        ),
        Valid(  # a map that only looks ids up in a table: stateful, but a hash per key beside the step
            "import tensorflow as tf\n"
            "table = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(words, ids), 1000)\n"
            "def encode(x, y):\n    return table.lookup(x), y\n"
            "ds = tf.data.Dataset.from_tensor_slices((texts, labels)).batch(32).map(encode)\n",
            options={"tensorflow-version": "2.21"},
        ),
        Valid(  # the result is discarded
            "import tensorflow as tf\nds = tf.data.Dataset.range(100_000)\nds.map(double)\n", options=TF_2_6
        ),
        Valid(  # a module that says it is slow on purpose (rules/deliberate.py, DECLARED_SLOW): a profiling tutorial
            '"""An input pipeline created by deoptimizing the fast one, for profiling purposes."""\n'
            "import tensorflow as tf\nds = tf.data.Dataset.range(100_000).map(double)\n",
            options=TF_2_6,
        ),
        Valid(  # a projection: nothing to compute
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices((x, y)).repeat(100).map(lambda x, y: x)\n",
            options=TF_2_6,
        ),
        Valid(  # inside the function interleave runs over many files at once
            "import tensorflow as tf\nfiles = tf.data.Dataset.list_files(pattern)\n"
            "ds = files.interleave(lambda f: tf.data.TFRecordDataset(f).map(parse), num_parallel_calls=4)\n",
            options=TF_2_6,
        ),
        Valid(  # the same through a named function
            "import tensorflow as tf\ndef read(f):\n    return tf.data.TFRecordDataset(f).map(parse)\n"
            "ds = tf.data.Dataset.list_files(pattern).interleave(read, cycle_length=4)\n",
            options=TF_2_6,
        ),
        Valid(  # a stateless random op: parallelised like any stateless map
            "import tensorflow as tf\ndef aug(x):\n    return tf.image.stateless_random_flip_left_right(x, seed)\n"
            "ds = tf.data.Dataset.range(100_000).map(aug)\n",
            options={"tensorflow-version": "2.21"},
        ),
        Valid(  # the decoded images go into a file cache: decoded once, when the file is written
            "import tensorflow as tf\nclass Images:\n    @staticmethod\n    def _decoded(files):\n"
            "        ds = tf.data.Dataset.from_tensor_slices(files)\n        ds = ds.map(tf.io.read_file)\n"
            "        ds = ds.map(tf.io.decode_png)\n        return ds\n"
            "    def dataset(self, files):\n        return self._decoded(files).cache('images.cache')\n",
            options=TF_2_6,
        ),
        Valid(  # the same in one chain
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(files).map(load).cache(path).repeat()\n",
            options=TF_2_6,
        ),
        Valid(  # one element: a test feeding one example through the pipeline
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensors(image).map(preprocess).batch(1)\n",
            options=TF_2_6,
        ),
        Valid(  # an API demo over ten integers, through a name
            "import tensorflow as tf\nds = tf.data.Dataset.range(10).repeat(3)\nds = ds.batch(7)\n"
            "for b in ds.map(f):\n    print(b)\n",
            options=TF_2_6,
        ),
    )
    INVALID = (
        Invalid(  # a docstring about profiling and speed declares nothing slow on purpose
            '"""An optimized input pipeline, for profiling purposes: what is slow shows in the trace."""\n'
            "import tensorflow as tf\nds = tf.data.Dataset.range(100_000).map(double)\n",
            line=3,
            options=TF_2_6,
        ),
        Invalid(
            "import tensorflow as tf\nds = tf.data.Dataset.range(100_000).map(double)\n",
            line=2,
            options=TF_2_6,
            message_contains="TensorFlow 2.6 (the tensorflow-version setting) has no `map_parallelization` by default",
            expected_replacement=(
                "import tensorflow as tf\n"
                "ds = tf.data.Dataset.range(100_000).map(double, num_parallel_calls=tf.data.AUTOTUNE)\n"
            ),
        ),
        Invalid(
            "import tensorflow as t\nds = t.data.TFRecordDataset(files)\nds = ds.map(\n    f,\n).map(g)\n",
            options=TF_2_6,
            expected_replacement=(
                "import tensorflow as t\n"
                "ds = t.data.TFRecordDataset(files)\n"
                "ds = ds.map(\n"
                "    f, num_parallel_calls=t.data.AUTOTUNE,\n"
                ").map(g, num_parallel_calls=t.data.AUTOTUNE)\n"
            ),
        ),
        Invalid(  # an in-memory cache is filled again by every run: its first pass maps one element at a time
            "import tensorflow as tf\nds = tf.data.Dataset.from_tensor_slices(files).map(load).cache().repeat()\n",
            options=TF_2_6,
        ),
        Invalid(  # one caller caches the helper's dataset, the other trains on it directly: every epoch maps
            "import tensorflow as tf\ndef decoded(files):\n    ds = tf.data.Dataset.from_tensor_slices(files)\n"
            "    return ds.map(load)\n"
            "train = decoded(train_files).cache('train.cache')\nvalid = decoded(valid_files)\n",
            line=4,
            options=TF_2_6,
        ),
        Invalid(  # before 2.7 the version is the reason, stateful or not: no map is parallelised by itself
            "import tensorflow as tf\ndef augment(image):\n    return image + tf.random.normal(tf.shape(image))\n"
            "ds = tf.data.Dataset.from_tensor_slices(images).map(augment)\n",
            options=TF_2_6,
            message_contains="TensorFlow 2.6 (the tensorflow-version setting) has no `map_parallelization` by default",
        ),
        Invalid(  # random draws: a stateful map function runs one element at a time on any TensorFlow
            "import tensorflow as tf\ndef augment(image):\n    return image + tf.random.normal(tf.shape(image))\n"
            "ds = tf.data.Dataset.from_tensor_slices(images).map(augment)\n",
            options={"tensorflow-version": "2.21"},
            message_contains="stateful",
        ),
        Invalid(  # a label looked up in a hash table: a stateful op, so TensorFlow leaves the map sequential
            "import tensorflow as tf\n"
            "def parse(record, table):\n    x = tf.io.parse_single_example(record, FEATURES)\n"
            "    return tf.io.decode_jpeg(x['image']), table.lookup(x['label'])\n"
            "def load(pattern, class_file):\n"
            "    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(class_file, tf.string, 0, tf.int64, -1), -1)\n"
            "    return tf.data.TFRecordDataset(pattern).map(lambda r: parse(r, table))\n",
            line=7,
            options={"tensorflow-version": "2.21"},
            message_contains="stateful (`table.lookup`)",
        ),
        Invalid(  # a Keras StringLookup layer (a table inside) beside a JPEG decode and resize
            "import tensorflow as tf\nnames = tf.keras.layers.StringLookup(vocabulary=['cat', 'dog'])\n"
            "def load(path, label):\n"
            "    image = tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (224, 224))\n"
            "    return image, names(label)\n"
            "ds = tf.data.Dataset.from_tensor_slices((paths, labels)).map(load)\n",
            line=6,
            options={"tensorflow-version": "2.21"},
            message_contains="stateful (`names`)",
        ),
        Invalid(  # a tokenizer whose Python cache the map function fills
            "import tensorflow as tf\ncache = {}\ndef tokenize(text):\n    cache[text] = split(text)\n    return cache[text]\n"
            "ds = tf.data.Dataset.from_tensor_slices(texts).map(lambda t: tf.py_function(tokenize, [t], tf.string))\n",
            options={"tensorflow-version": "2.21"},
        ),
        Invalid(  # the pipeline's options turn map parallelisation off
            "import tensorflow as tf\nopts = tf.data.Options()\nopts.experimental_optimization.map_parallelization = False\n"
            "ds = tf.data.Dataset.range(100_000).map(double).with_options(opts)\n",
            options={"tensorflow-version": "2.21"},
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        for site in facts.sites:
            if not is_dataset_method(site.api, "map"):
                continue
            call, cell = facts.node(site), site.callsite.span.cell
            if call is None or binds(call, "num_parallel_calls", 1) or few_elements(site):
                continue
            if _discarded(facts, call, cell) or _projection(call) or _in_interleave(facts, call, cell):
                continue
            if _file_cached(facts, call, cell):
                continue
            # the version (or the options) first: before 2.7 tf.data parallelises no map by itself, stateless or not
            why = by_hand(facts, options, "map_parallelization")
            if why is None and (stateful := _stateful(facts, call, cell)):
                why = f"its function is stateful (`{stateful}`): tf.data parallelises only stateless maps itself"
            if why is not None:
                yield self.diagnostic(site.callsite.span, facts.path, self.MESSAGE.format(why=why))


def _discarded(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """`ds.map(f)` as a statement: the mapped dataset is thrown away."""
    return isinstance(facts.parent(call, cell), ast.Expr)


def _chain(facts: FileFacts, node: ast.expr, cell: int | None) -> tuple[ast.expr, bool]:
    """The method chain *node* starts (`node.batch(8).cache(path)`), and whether a step of it is a
    file cache: `.cache()` given a file name (not the in-memory `""`)."""
    cached = False
    while isinstance(parent := facts.parent(node, cell), ast.Attribute):
        call = facts.parent(parent, cell)
        if not (isinstance(call, ast.Call) and call.func is parent):
            break
        given = [*call.args, *(k.value for k in call.keywords if k.arg == "filename")]
        if parent.attr == "cache" and given and not (isinstance(given[0], ast.Constant) and given[0].value == ""):
            cached = True
        node = call
    return node, cached


def _file_cached(facts: FileFacts, node: ast.expr, cell: int | None, depth: int = 0) -> bool:
    """Every way the dataset *node* makes goes on into a file cache (`.cache(path)`): in its
    chain, through the name it is bound to in its function's (or module's) own statements, or
    returned to callers that all cache it (`self._images(files).cache(path)`). Its elements are then
    computed once, when the cache file is written, and read from the file ever after."""
    top, cached = _chain(facts, node, cell)
    if cached:
        return True
    if depth > 3:
        return False
    statement = facts.parent(top, cell)
    if isinstance(statement, ast.Return):
        function = scope_of(facts, statement, cell)
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        calls = calls_of(facts, function, cell)
        return bool(calls) and all(_file_cached(facts, c, unit, depth + 1) for unit, c in calls)
    if not (
        isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)
    ):
        return False
    name, scope = statement.targets[0].id, scope_of(facts, statement, cell)
    body = getattr(scope, "body", [])
    if statement not in body:
        return False  # bound under a branch or a loop: its uses are not followed
    reads = []
    for later in body[body.index(statement) + 1 :]:
        named = [n for n in ast.walk(later) if isinstance(n, ast.Name) and n.id == name]
        reads += [n for n in named if isinstance(n.ctx, ast.Load)]
        if any(isinstance(n.ctx, ast.Store) for n in named):
            break
    return bool(reads) and all(_file_cached(facts, r, cell, depth + 1) for r in reads)


def _projection(call: ast.Call) -> bool:
    """A lambda that only picks parts of its element (`lambda x, y: x`, `lambda d: d["image"]`)."""
    func = map_function(call)
    if not isinstance(func, ast.Lambda):
        return False
    return all(
        isinstance(n, (ast.Name, ast.Load, ast.Tuple, ast.List, ast.Dict, ast.Subscript, ast.Constant, ast.Attribute))
        for n in ast.walk(func.body)
    )


def _in_interleave(facts: FileFacts, call: ast.Call, cell: int | None) -> bool:
    """The map is written in the function an `interleave` runs: a lambda given to it, or a
    function of this file passed to one by name."""
    for scope in facts.ancestors(call, cell):
        if isinstance(scope, ast.Lambda):
            parent = facts.parent(scope, cell)
            if isinstance(parent, ast.Call) and last_name(parent.func) == "interleave":
                return True
        elif isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return any(
                isinstance(n, ast.Call)
                and last_name(n.func) == "interleave"
                and any(
                    isinstance(a, ast.Name) and a.id == scope.name for a in [*n.args, *(k.value for k in n.keywords)]
                )
                for unit, _ in cell_units(facts)
                for n in facts.nodes(unit, ast.Call)
            )
    return False


def _stateful(facts: FileFacts, call: ast.Call, cell: int | None) -> str | None:
    """The call (or mutation) that makes the map function stateful, where this file defines it; a
    table's lookup only where the function also decodes, parses or transforms images."""
    seen: set[Function] = set()
    todo = [f for f in definitions(facts, map_function(call), cell)]
    table, heavy = None, False
    while todo:
        func = todo.pop()
        if func in seen or len(seen) > 20:
            continue
        seen.add(func)
        local = _locals(func)
        body: ast.AST = func.body if isinstance(func, ast.Lambda) else ast.Module(body=func.body, type_ignores=[])
        for node in ast.walk(body):
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                last = last_name(node.func)
                if (_RANDOM.search(name) and "stateless" not in name) or last in _STATEFUL_CALLS:
                    return name
                api = site.api if (site := facts.site_at(node, cell)) is not None else ""
                if api.startswith(_TABLES) or ("keras" in api and api.endswith(_TABLE_LAYERS)):
                    table = table or name
                heavy = heavy or DECODER.match(api) is not None or api.startswith(_IMAGE_OPS)
                if last in _MUTATORS and isinstance(node.func, ast.Attribute) and _outer(node.func.value, local):
                    return name
                todo.extend(definitions(facts, node.func, cell))
                todo.extend(
                    d for a in node.args for d in definitions(facts, a, cell)
                )  # `tf.py_function(tokenize, ...)`
            elif isinstance(node, (ast.Assign, ast.AugAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, (ast.Subscript, ast.Attribute)) and _outer(target.value, local):
                        return ast.unparse(target)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                return f"{type(node).__name__.lower()} {', '.join(node.names)}"
    return table if heavy else None


def _locals(func: Function) -> frozenset:
    params = set(parameters(func))
    body = [func.body] if isinstance(func, ast.Lambda) else func.body
    bound = {n.id for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return frozenset(params | bound)


def _outer(expr: ast.expr, local: frozenset) -> bool:
    """An object from outside the function: `self.cache`, a module-level dict (not a local or parameter, `self` aside)."""
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        expr = expr.value
    return isinstance(expr, ast.Name) and (expr.id not in local or expr.id == "self")
