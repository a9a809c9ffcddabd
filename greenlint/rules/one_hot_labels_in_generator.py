"""GL410 one-hot-labels-in-generator: dense labels (one per pixel) one-hot encoded in NumPy for every batch a Python
generator yields."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from greenlint.rules.base import FileFacts, Invalid, Option, Rule, Valid
from greenlint.rules.diagnostic import Diagnostic
from greenlint.rules.syntax import (
    Function,
    cell_units,
    definitions,
    last_name,
    own_yields,
    scope_body,
)

#: The Keras helper that turns integer labels into a dense one-hot array.
TO_CATEGORICAL = "to_categorical"
#: How many times the names holding the encoded labels are followed (`y.append(...)`, then `y = np.array(y)`).
MAX_RENAMES = 8
#: How many functions of the file are followed from a generator's call (`load_labels` calling `encode`).
MAX_FOLLOWED = 20
#: The axes a one-hot channel must follow to hold a label per position (a mask's rows and columns).
DENSE_AXES = 2
#: Calls that read an image: a label read by one is a mask, one class per pixel.
IMAGE_READS = frozenset({"imread", "load_img", "read_image", "decode_png", "decode_image"})


class OneHotLabelsInGenerator(Rule):
    """
    ## What it does
    Flags, in a Python data generator (a function that `yield`s, or the `__getitem__` of a
    class such as a `keras.utils.Sequence`), the one-hot encoding of dense labels in NumPy on
    the host: a loop over the classes that fills one channel per class of a label with at least
    two axes before the channel (`for c in range(n): out[:, :, c] = (mask == c)`: a mask's rows
    and columns, one class per pixel), or `to_categorical(...)` / `np.eye(n)[...]` of a label
    read as an image (`mask = cv2.imread(path)`), written in the generator or in a function of
    this file the generator calls (the finding is on the call in the generator), when the
    encoded array is among the labels the generator hands out: an element after the first of a
    tuple it yields or returns (`yield x, y`), itself or through the names that hold it
    (`y.append(...)`, then `y = np.array(y)`).

    Not reported: one-hot *inputs* (`yield np.eye(4)[bases], y`: the model's input, for which
    no sparse loss exists); an encoding done once, outside a generator (`y = to_categorical(y_train)`
    before `fit`: one pass over the labels, not one per batch); a one-hot array the generator
    then mixes or smooths (`lam * y + (1 - lam) * y2`, arithmetic on the encoded labels: mixup
    and label smoothing need dense labels); `tf.one_hot` (a vectorised op, in the graph or the
    `tf.data` pipeline); and, unless `one-hot-sample-labels` is set, labels not shown to be
    dense (`to_categorical(y[batch], 10)`, one class index per sample: `batch × 10` floats, a
    small array beside the batch's inputs).

    The waste grows with the size of a label: for dense labels the one-hot array is
    `n_classes` times the integer mask (times 8 bytes more in float64), the largest array of
    the batch, built class by class on the host and copied to the device on every step of
    every epoch. Default since the real-world benchmark judged its finding of this shape
    (bench/realworld: 1 of 1 true, a segmentation loader's per-pixel masks); the per-sample
    shape, whose cost is small, is the option.

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
    import cv2
    import numpy as np
    from tensorflow.keras.utils import to_categorical


    def batches(pairs, n_classes):
        while True:
            for image_path, mask_path in pairs:
                mask = cv2.imread(mask_path, cv2.IMREAD_GRAYSCALE)
                yield cv2.imread(image_path)[None], to_categorical(mask, n_classes)[None]


    model.compile(loss="categorical_crossentropy", optimizer="adam")
    model.fit(batches(pairs, 21), steps_per_epoch=500, epochs=50)
    ```

    ## Use instead
    ```python
    import cv2


    def batches(pairs):
        while True:
            for image_path, mask_path in pairs:
                mask = cv2.imread(mask_path, cv2.IMREAD_GRAYSCALE)
                yield cv2.imread(image_path)[None], mask[None]  # the integer classes, one byte per pixel


    model.compile(loss="sparse_categorical_crossentropy", optimizer="adam")
    model.fit(batches(pairs), steps_per_epoch=500, epochs=50)
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
    - `one-hot-sample-labels`
    """

    code = "GL410"
    name = "one-hot-labels-in-generator"
    OPTIONS = (
        Option(
            "one-hot-sample-labels",
            bool,
            False,
            "GL410 also flags one-hot labels not shown to be dense (one class per sample: a small array per batch).",
        ),
    )
    SITELESS = True  # a data loader often holds NumPy code alone
    MENTIONS = ("__getitem__", "yield")  # a generator
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
            "import tensorflow as tf\n\n\ndef batches(x, y):\n    while True:\n        yield x, tf.one_hot(y, 10)\n"
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
        Valid(  # one class index per sample: `batch x 10` floats, small beside the inputs (the option reports it)
            "import numpy as np\nfrom tensorflow.keras.utils import to_categorical\n\n\n"
            "def batches(x, y, size):\n    for start in range(0, len(x), size):\n"
            "        yield x[start:start + size], to_categorical(y[start:start + size], 10)\n"
        ),
        Valid(  # a channel per class after the batch axis alone: one class per sample, not per pixel
            "import numpy as np\n\n\ndef encode(y, n):\n    out = np.zeros((len(y), n))\n"
            "    for c in range(n):\n        out[:, c] = (y == c)\n    return out\n\n\n"
            "def batches(x, y):\n    while True:\n        yield x, encode(y, 10)\n"
        ),
        Valid(  # the image read is the input; the labels encoded are class indices
            "import cv2\nimport numpy as np\nfrom tensorflow.keras.utils import to_categorical\n\n\n"
            "def batches(paths, classes):\n    for path, label in zip(paths, classes):\n"
            "        image = cv2.imread(path)\n        yield image[None], to_categorical([label], 10)\n"
        ),
    )
    INVALID = (
        Invalid(  # the labels are masks read as images: one class per pixel
            "import cv2\nfrom tensorflow.keras.utils import to_categorical\n\n\n"
            "def batches(pairs, n_classes):\n    while True:\n        for image_path, mask_path in pairs:\n"
            "            mask = cv2.imread(mask_path, 0)\n            mask = cv2.resize(mask, (256, 256))\n"
            "            yield cv2.imread(image_path)[None], to_categorical(mask, n_classes)[None]\n",
            line=10,
            message_contains="`to_categorical` one-hot encodes labels on the host for every batch the generator `batches`",
        ),
        Invalid(  # with the option, labels not shown to be dense too
            "import numpy as np\nfrom tensorflow.keras.utils import to_categorical\n\n\n"
            "def batches(images, masks, n_classes):\n    while True:\n        index = np.random.randint(0, len(images), 8)\n"
            "        yield images[index], to_categorical(masks[index], n_classes)\n",
            options={"one-hot-sample-labels": True},
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
        Invalid(  # a Keras Sequence's __getitem__, with np.eye (the option: labels not shown to be dense)
            "import numpy as np\nfrom tensorflow import keras\n\n\nclass Batches(keras.utils.Sequence):\n"
            "    def __getitem__(self, i):\n        y = self.y[i * 32:(i + 1) * 32]\n"
            "        return self.x[i * 32:(i + 1) * 32], np.eye(self.n)[y]\n",
            options={"one-hot-sample-labels": True},
            line=8,
            message_contains="`np.eye(self.n)[...]` one-hot encodes labels on the host for every batch the generator `__getitem__`",
        ),
    )

    def check(self, facts: FileFacts, options: Mapping[str, Any]) -> Iterator[Diagnostic]:
        if not any(TO_CATEGORICAL in s.api for s in facts.sites) and not (
            "eye" in facts.text or "range" in facts.text
        ):
            return
        sample_labels = bool(options.get("one-hot-sample-labels", False))
        numpy = _numpy_names(facts)
        for cell, _ in cell_units(facts):
            for generator in _generators(facts, cell):
                for node in scope_body(generator):
                    if not isinstance(node, ast.expr):
                        continue
                    what = _encodes_here(facts, node, cell, numpy)
                    if what is not None and _mixed(facts, generator, node, cell):
                        continue
                    dense = what is not None and _read_as_image(generator, node)
                    if what is None and isinstance(node, ast.Call):
                        helper = _helper_encodes(facts, node, cell, numpy)
                        if helper is not None:
                            what, dense = f"`{ast.unparse(node.func)}(...)`", helper
                    if (
                        what is not None
                        and (dense or sample_labels)
                        and _yielded_as_labels(facts, generator, node, cell)
                    ):
                        yield self.diagnostic(
                            facts.span(node, cell), facts.path, self.MESSAGE.format(what=what, generator=generator.name)
                        )


def _generators(facts: FileFacts, cell: int | None) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions that yield (in their own body, not a nested function's), and the `__getitem__`
    methods, in `ast.walk`'s order."""
    return [
        f
        for f in facts.nodes(cell, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and (f.name == "__getitem__" or any(own_yields(f)))
    ]


def _numpy_names(facts: FileFacts) -> frozenset[str]:
    """The names the file binds to NumPy (`import numpy as np`)."""
    names: set[str] = set()
    for cell, _ in cell_units(facts):
        for node in facts.nodes(cell, ast.Import):  # the file's one walk, shared
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
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("eye", "identity")
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in numpy
    )


def _class_loop(node: ast.AST) -> int | None:
    """`for c in range(n): out[..., c] = (mask == c)...`: one channel filled per class. How many
    axes the index names before the channel (`out[:, :, c]`: 2; `...` counts for none), else None."""
    if not (
        isinstance(node, ast.For)
        and isinstance(node.target, ast.Name)
        and isinstance(node.iter, ast.Call)
        and last_name(node.iter.func) == "range"
    ):
        return None
    var = node.target.id
    for statement in node.body:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Subscript)
        ):
            continue
        index = statement.targets[0].slice
        last = index.elts[-1] if isinstance(index, ast.Tuple) and index.elts else index
        if not (isinstance(last, ast.Name) and last.id == var) or isinstance(index, ast.Name):
            continue  # `counts[c] = ...` fills one value per class, not a channel
        if any(
            isinstance(n, ast.Compare)
            and any(isinstance(o, ast.Eq) for o in n.ops)
            and any(isinstance(e, ast.Name) and e.id == var for e in (n.left, *n.comparators))
            for n in ast.walk(statement.value)
        ):
            before = index.elts[:-1] if isinstance(index, ast.Tuple) else []
            return sum(1 for e in before if not (isinstance(e, ast.Constant) and e.value is Ellipsis))
    return None


def _reads_image(expr: ast.AST) -> bool:
    """The expression calls an image reader (`cv2.imread(path)`, `Image.open(path)`)."""
    return any(
        isinstance(n, ast.Call)
        and (
            last_name(n.func) in IMAGE_READS
            or isinstance(n.func, ast.Attribute)
            and n.func.attr == "open"
            and last_name(n.func.value) == "Image"
        )
        for n in ast.walk(expr)
    )


def _read_as_image(function: ast.AST, encoded: ast.expr) -> bool:
    """What `to_categorical(label)` or `np.eye(n)[label]` encodes is read as an image in the
    function, itself or through the names it is assigned to (`mask = cv2.imread(p)`, then
    `mask = cv2.resize(mask, size)`): a mask, one class per pixel."""
    if isinstance(encoded, ast.Call) and encoded.args:
        label: ast.expr = encoded.args[0]
    elif isinstance(encoded, ast.Subscript):
        label = encoded.slice
    else:
        return False
    return _reads_image(label) or _mentions(label, _followed(function, set(), _reads_image))


def _helper_encodes(facts: FileFacts, call: ast.Call, cell: int | None, numpy: frozenset[str]) -> bool | None:
    """Whether the call is to a function of this file that one-hot encodes, itself or through the
    functions it calls: True where the labels it encodes are dense (a channel per class after two
    axes, or an image read), False where they are not shown to be, None where it does not encode."""
    seen: set[Function] = set()
    todo = definitions(facts, call.func, cell)
    found: bool | None = None
    while todo:
        function = todo.pop()
        if function in seen or len(seen) > MAX_FOLLOWED or isinstance(function, ast.Lambda):
            continue
        seen.add(function)
        for node in scope_body(function):
            axes = _class_loop(node)
            if axes is not None and axes >= DENSE_AXES:
                return True
            if axes is not None or (isinstance(node, ast.expr) and _encodes_here(facts, node, cell, numpy) is not None):
                if isinstance(node, ast.expr) and _read_as_image(function, node):
                    return True
                found = False
            if isinstance(node, ast.Call):
                todo.extend(definitions(facts, node.func, cell))
    return found


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
    holders = _followed(generator, _holders(facts, encoded, cell))
    for node in scope_body(generator):
        value = node.value if isinstance(node, (ast.Yield, ast.Return)) else None
        if (
            isinstance(value, ast.Tuple)
            and len(value.elts) > 1
            and any(_mentions(e, holders) or any(n is encoded for n in ast.walk(e)) for e in value.elts[1:])
        ):
            return True
    return False


def _followed(function: ast.AST, names: set[str], source: Callable[[ast.expr], bool] = lambda value: False) -> set[str]:
    """*names*, and the names the function's assignments bind from them or from a value *source*
    accepts (`y = np.array(y)`, `mask = cv2.imread(p)`), followed `MAX_RENAMES` deep."""
    names = set(names)
    for _ in range(MAX_RENAMES):
        more = {
            name
            for node in scope_body(function)
            if isinstance(node, ast.Assign) and (source(node.value) or _mentions(node.value, names))
            for target in node.targets
            for name in _bound(target)
        } - names
        if not more:
            break
        names |= more
    return names


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
    if (
        isinstance(parent, ast.Expr)
        and isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("append", "extend", "insert")
    ):
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
