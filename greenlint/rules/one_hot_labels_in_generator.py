"""GL410 one-hot-labels-in-generator (opt-in): labels one-hot encoded in NumPy for every batch a Python generator yields."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from greenlint.analysis.callsite import Span
from greenlint.rules.base import FileFacts, Invalid, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import Function, cell_units, definitions, last_name, scope_body, text_mentions, units

#: The Keras helper that turns integer labels into a dense one-hot array.
TO_CATEGORICAL = "to_categorical"
#: How many times the names holding the encoded labels are followed (`y.append(...)`, then `y = np.array(y)`).
MAX_RENAMES = 8
#: How many functions of the file are followed from a generator's call (`load_labels` calling `encode`).
MAX_FOLLOWED = 20


class OneHotLabelsInGenerator(Rule):
    """
    ## What it does
    Flags, in a Python data generator (a function that `yield`s, or the `__getitem__` of a
    class such as a `keras.utils.Sequence`), the one-hot encoding of labels in NumPy on the
    host: `to_categorical(...)`, `np.eye(n)[labels]`, or a loop over the classes that fills one
    channel per class (`for c in range(n_classes): out[..., c] = (mask == c)`), written in the
    generator or in a function of this file the generator calls (the finding is on the call in
    the generator), when the encoded array is among the labels the generator hands out: an
    element after the first of a tuple it yields or returns (`yield x, y`), itself or through
    the names that hold it (`y.append(...)`, then `y = np.array(y)`).

    Not reported: one-hot *inputs* (`yield np.eye(4)[bases], y`: the model's input, for which
    no sparse loss exists); an encoding done once, outside a generator (`y = to_categorical(y_train)`
    before `fit`: one pass over the labels, not one per batch); a one-hot array the generator
    then mixes or smooths (`lam * y + (1 - lam) * y2`, arithmetic on the encoded labels: mixup
    and label smoothing need dense labels); `tf.one_hot` (a vectorised op, in the graph or the
    `tf.data` pipeline).

    Opt-in (preview): the waste grows with the size of a label. For dense labels, one per pixel
    (segmentation masks), the one-hot array is `n_classes` times the integer mask (times 8 bytes
    more in float64), the largest array of the batch, built class by class on the host and
    copied to the device on every step of every epoch. For one class index per sample
    (`batch × 10` floats) the cost is small, and greenlint cannot tell the two apart when the
    generator's shapes come from arguments.

    ## Why is this bad?
    The model's loss does not need the dense labels: `sparse_categorical_crossentropy` (and
    `SparseCategoricalCrossentropy`) takes the integer class of each label and computes the
    same loss, and a metric or a loss that does need them can encode them on the device with
    `tf.one_hot`. Building the one-hot array costs host work on every batch (one pass over the
    mask per class for the hand-written loop), memory for `n_classes` values per label instead
    of one, and a host-to-device copy that many times larger, all redone in every epoch, while
    the device waits for the generator.

    ## Example
    ```python
    import numpy as np
    from tensorflow.keras.utils import to_categorical


    def batches(images, masks, n_classes):
        while True:
            index = np.random.randint(0, len(images), 8)
            yield images[index], to_categorical(masks[index], n_classes)


    model.compile(loss="categorical_crossentropy", optimizer="adam")
    model.fit(batches(images, masks, 21), steps_per_epoch=500, epochs=50)
    ```

    ## Use instead
    ```python
    import numpy as np


    def batches(images, masks):
        while True:
            index = np.random.randint(0, len(images), 8)
            yield images[index], masks[index]  # the integer classes, one byte per pixel


    model.compile(loss="sparse_categorical_crossentropy", optimizer="adam")
    model.fit(batches(images, masks), steps_per_epoch=500, epochs=50)
    ```

    ## Energy evidence
    The pair under bench/rules/ trains a small fully convolutional network on 64×64 images with
    21 classes per pixel for 40 steps from a Python generator: one-hot float64 masks built
    class by class with categorical cross-entropy, against the integer masks with sparse
    categorical cross-entropy.

    ## Fix safety
    No automatic fix: the loss (often compiled in another module) must become the sparse one
    in the same change, and a custom loss or metric that reads the one-hot channels must encode
    them itself.

    ## Options
    None.
    """

    code = "GL410"
    name = "one-hot-labels-in-generator"
    DEFAULT_ENABLED = False  # preview: worth it for dense (per-pixel) labels, small for one class per sample
    SITELESS = True  # a data loader often holds NumPy code alone
    MESSAGE = (
        "{what} one-hot encodes labels on the host for every batch the generator `{generator}` yields:"
        " yield the integer labels and train with a sparse loss (`sparse_categorical_crossentropy`),"
        " or encode on the device with `tf.one_hot`"
    )
    FIX_TITLE = "Yield the integer labels and use a sparse loss"
    VALID = (
        Valid(  # encoded once, before training: one pass over the labels
            "from tensorflow.keras.utils import to_categorical\n"
            "y = to_categorical(y_train, 10)\nmodel.fit(x_train, y, epochs=20)\n"
        ),
        Valid(  # mixup: the one-hot labels are mixed, so the loss needs them dense
            "import numpy as np\nfrom tensorflow.keras.utils import to_categorical\n\n\n"
            "def mixup(x, y):\n    while True:\n        i, j = pick(), pick()\n        lam = np.random.beta(0.2, 0.2)\n"
            "        a, b = to_categorical(y[i], 10), to_categorical(y[j], 10)\n"
            "        yield lam * x[i] + (1 - lam) * x[j], lam * a + (1 - lam) * b\n"
        ),
        Valid(  # tf.one_hot: a vectorised op, not a NumPy loop on the host
            "import tensorflow as tf\n\n\ndef batches(x, y):\n    while True:\n"
            "        yield x, tf.one_hot(y, 10)\n"
        ),
        Valid(  # a loop over the classes that reads, not a one-hot encoding (per-class counts)
            "import numpy as np\n\n\ndef batches(masks, n):\n    for mask in masks:\n        counts = np.zeros(n)\n"
            "        for c in range(n):\n            counts[c] = (mask == c).sum()\n        yield mask, counts\n"
        ),
        Valid(  # one-hot *inputs* (DNA bases): the model's input, not labels a sparse loss could take
            "import numpy as np\nimport tensorflow as tf\n\n\ndef batches(seqs, y):\n    for i in range(len(seqs)):\n"
            "        yield np.eye(4)[seqs[i]], y[i]\n"
        ),
        Valid(  # a helper of this file that encodes, called outside any generator
            "import numpy as np\n\n\ndef encode(y, n):\n    return np.eye(n)[y]\n\n\ny = encode(labels, 10)\n"
        ),
    )
    INVALID = (
        Invalid(
            "import numpy as np\nfrom tensorflow.keras.utils import to_categorical\n\n\n"
            "def batches(images, masks, n_classes):\n    while True:\n        index = np.random.randint(0, len(images), 8)\n"
            "        yield images[index], to_categorical(masks[index], n_classes)\n",
            line=8,
            message_contains="`to_categorical` one-hot encodes labels on the host for every batch the generator `batches`",
        ),
        Invalid(  # a helper of this file that fills one channel per class, called by the generator
            "import numpy as np\nimport tensorflow as tf\n\n\ndef segmentation_labels(mask, n_classes):\n"
            "    labels = np.zeros(mask.shape + (n_classes,))\n    for c in range(n_classes):\n"
            "        labels[:, :, c] = (mask == c).astype(int)\n    return labels\n\n\n"
            "def generator(pairs, n_classes):\n    while True:\n        x, y = [], []\n        for image, mask in pairs:\n"
            "            x.append(image)\n            y.append(segmentation_labels(mask, n_classes))\n"
            "        yield np.array(x), np.array(y)\n",
            line=17,
            message_contains="`segmentation_labels(...)` one-hot encodes",
        ),
        Invalid(  # a Keras Sequence's __getitem__, with np.eye
            "import numpy as np\nfrom tensorflow import keras\n\n\nclass Batches(keras.utils.Sequence):\n"
            "    def __getitem__(self, i):\n        y = self.y[i * 32:(i + 1) * 32]\n"
            "        return self.x[i * 32:(i + 1) * 32], np.eye(self.n)[y]\n",
            line=8,
            message_contains="`np.eye(self.n)[...]` one-hot encodes labels on the host for every batch the generator `__getitem__`",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if not (text_mentions(facts, "yield") or text_mentions(facts, "__getitem__")):
            return
        if not any(TO_CATEGORICAL in s.api for s in facts.sites) and not (text_mentions(facts, "eye") or text_mentions(facts, "range")):
            return
        numpy = _numpy_names(facts)
        for cell, module in cell_units(facts):
            for generator in _generators(module):
                for node in scope_body(generator):
                    if not isinstance(node, ast.expr):
                        continue
                    what = _encodes_here(facts, node, cell, numpy)
                    if what is not None and _mixed(facts, generator, node, cell):
                        continue
                    if what is None and isinstance(node, ast.Call) and _helper_encodes(facts, node, cell, numpy):
                        what = f"`{ast.unparse(node.func)}(...)`"
                    if what is not None and _yielded_as_labels(facts, generator, node, cell):
                        span = Span(node.lineno, node.col_offset + 1, node.end_lineno or node.lineno,
                                    (node.end_col_offset or node.col_offset) + 1, cell)
                        yield self.diagnostic(span, facts.path, self.MESSAGE.format(what=what, generator=generator.name))


def _generators(module: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions that yield (in their own body, not a nested function's), and the `__getitem__` methods."""
    for node in ast.walk(module):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
            node.name == "__getitem__" or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in scope_body(node))
        ):
            yield node


def _numpy_names(facts: FileFacts) -> frozenset[str]:
    """The names the file binds to NumPy (`import numpy as np`)."""
    names: set[str] = set()
    for module in units(facts):
        for node in ast.walk(module):
            if isinstance(node, ast.Import):
                names.update(a.asname or a.name for a in node.names if a.name == "numpy")
    return frozenset(names)


def _encodes_here(facts: FileFacts, node: ast.AST, cell: int | None, numpy: frozenset[str]) -> str | None:
    """How *node* itself one-hot encodes: "`to_categorical`", "`np.eye(n)[...]`"; None otherwise."""
    if isinstance(node, ast.Call):
        site = facts.site_at(node, cell)
        if site is not None and site.api.rsplit(".", 1)[-1] == TO_CATEGORICAL:
            return f"`{TO_CATEGORICAL}`"
    if isinstance(node, ast.Subscript) and _is_eye(node.value, numpy):
        return f"`{ast.unparse(node.value)}[...]`"
    return None


def _is_eye(node: ast.expr, numpy: frozenset[str]) -> bool:
    """`np.eye(n)` or `np.identity(n)`: the rows of an identity matrix, indexed by the labels."""
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("eye", "identity")
        and isinstance(node.func.value, ast.Name) and node.func.value.id in numpy
    )


def _class_loop(node: ast.AST) -> bool:
    """`for c in range(n): out[..., c] = (mask == c)...`: one channel filled per class."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Call)
            and last_name(node.iter.func) == "range"):
        return False
    var = node.target.id
    for statement in node.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Subscript)):
            continue
        index = statement.targets[0].slice
        last = index.elts[-1] if isinstance(index, ast.Tuple) and index.elts else index
        if not (isinstance(last, ast.Name) and last.id == var) or isinstance(index, ast.Name):
            continue  # `counts[c] = ...` fills one value per class, not a channel
        if any(
            isinstance(n, ast.Compare) and any(isinstance(o, ast.Eq) for o in n.ops)
            and any(isinstance(e, ast.Name) and e.id == var for e in (n.left, *n.comparators))
            for n in ast.walk(statement.value)
        ):
            return True
    return False


def _helper_encodes(facts: FileFacts, call: ast.Call, cell: int | None, numpy: frozenset[str]) -> bool:
    """The call is to a function of this file that one-hot encodes, itself or through the functions it calls."""
    seen: set[Function] = set()
    todo = definitions(facts, call.func, cell)
    while todo:
        function = todo.pop()
        if function in seen or len(seen) > MAX_FOLLOWED or isinstance(function, ast.Lambda):
            continue
        seen.add(function)
        for node in scope_body(function):
            if _encodes_here(facts, node, cell, numpy) is not None or _class_loop(node):
                return True
            if isinstance(node, ast.Call):
                todo.extend(definitions(facts, node.func, cell))
    return False


def _mixed(facts: FileFacts, generator: ast.AST, encoded: ast.AST, cell: int | None) -> bool:
    """The encoded labels take part in arithmetic (mixup, label smoothing): they must stay dense."""
    parent = facts.parent(encoded, cell)
    if isinstance(parent, ast.BinOp):
        return True
    names: set[str] = set()
    while isinstance(parent, (ast.Tuple, ast.List)):
        parent = facts.parent(parent, cell)
    if isinstance(parent, ast.Assign):
        for target in parent.targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return any(
        isinstance(n, ast.BinOp) and any(isinstance(s, ast.Name) and s.id in names for s in (n.left, n.right))
        for n in scope_body(generator)
    )


def _yielded_as_labels(facts: FileFacts, generator: ast.AST, encoded: ast.expr, cell: int | None) -> bool:
    """The encoded array reaches the labels the generator hands out: an element after the first
    of a tuple it yields or returns (`yield x, y`), itself or through the names that hold it
    (`y.append(encoded)`, `y = np.array(y)`). One-hot *inputs* (`yield np.eye(4)[bases], y`) and a
    value kept for anything else are not labels."""
    holders = _holders(facts, encoded, cell)
    for _ in range(MAX_RENAMES):
        more = {
            name
            for node in scope_body(generator) if isinstance(node, ast.Assign) and _mentions(node.value, holders)
            for target in node.targets for name in _bound(target)
        } - holders
        if not more:
            break
        holders |= more
    for node in scope_body(generator):
        value = node.value if isinstance(node, (ast.Yield, ast.Return)) else None
        if isinstance(value, ast.Tuple) and len(value.elts) > 1 and any(
            _mentions(e, holders) or any(n is encoded for n in ast.walk(e)) for e in value.elts[1:]
        ):
            return True
    return False


def _holders(facts: FileFacts, encoded: ast.expr, cell: int | None) -> set[str]:
    """The names the statement holding *encoded* binds it to: assigned, appended, stored in."""
    node: ast.AST = encoded
    for parent in facts.ancestors(encoded, cell):
        if isinstance(parent, ast.stmt):
            break
        node = parent
    else:
        return set()
    if isinstance(parent, ast.Assign):
        return {name for target in parent.targets for name in _bound(target)}
    if isinstance(parent, ast.Expr) and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("append", "extend", "insert"):
        return set(_bound(node.func.value))
    return set()


def _bound(target: ast.expr) -> list[str]:
    """The names a target binds or stores into (`y`, `a, b`, `y[i]`)."""
    while isinstance(target, (ast.Subscript, ast.Attribute)):
        target = target.value
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for e in target.elts for name in _bound(e)]
    return [target.id] if isinstance(target, ast.Name) else []


def _mentions(expr: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))
