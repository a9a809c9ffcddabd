"""Per-item host work in a Python input function: reading, decoding, tokenising or augmenting data on the host.

A Python generator that feeds a Keras `fit` builds each batch on one host core; where it reads and
decodes files for every item (an image with OpenCV, PIL, scikit-image, imageio, SciPy or Keras' `load_img`,
a sound with librosa or soundfile), tokenises or pads a text with Keras' text preprocessing (`ENCODES`),
or iterates an `ImageDataGenerator` flow over files (which reads, decodes and augments every image of
each batch) or over arrays with augmenting arguments (which warps every image of each batch in NumPy
and SciPy), that core does work a GPU step does not
wait for only when it runs elsewhere (`generator_in_one_worker.py`). The resolver notes such a call
a function makes inside one of its loops, or through a function it calls there (the one the fewest
`if`s guard: `Resolver.note_host`); a generator function's batches carry it (`input_host_work`), as
do a `Sequence`'s whose `__getitem__` shows it and the batches drawn from such a generator or flow
(`arrays.drawn`).

A decode outside any loop of the function (one image read once) is kept apart (`once`): it becomes
per-item work where a caller calls the function inside a loop of its own.

PIL's `Image.open` is lazy: it reads the file's header (size, mode) and decodes the pixels on their
first use. Its image (`OPENED`) is noted as decoded where the pixels are used: a method called on it
(`resize`, `convert`, `load`), or the image passed to a call (`np.asarray(image)`); `image.size`
alone decodes nothing. A helper whose decode sits under an `if` on one of its parameters
(`if proc_img:`) does it, for one call, only where that call's arguments take that branch
(`Resolver.host_for`).

A `keras.utils.Sequence` whose `__getitem__` only slices arrays the instance holds (`slices_only`)
does no per-item work at all: a batch costs a copy of its rows, whatever the data.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from typing import Any

from greenlint.analysis import trees
from greenlint.analysis.arrays import ARRAY, TENSOR
from greenlint.analysis.options import last_name
from greenlint.analysis.values import Inst

#: Roots of the libraries whose decode calls are listed below (the resolver follows their imports);
#: SciPy's readers are followed alone (`holds`), its other names staying foreign.
ROOTS = frozenset({"cv2", "PIL", "skimage", "imageio", "librosa", "soundfile"})

#: Calls that read and decode a file on the host, by the path they are imported as.
DECODES = frozenset({
    "cv2.imread", "cv2.imdecode", "cv2.imreadmulti",
    "PIL.Image.open",
    "skimage.io.imread", "skimage.io.imread_collection",
    "imageio.imread", "imageio.v2.imread", "imageio.v3.imread", "imageio.mimread",
    "librosa.load", "librosa.core.load",
    "soundfile.read",
    "scipy.misc.imread", "scipy.ndimage.imread",  # SciPy before 1.2: PIL's decode behind them
    "tensorflow.keras.utils.load_img",
})

#: Keras' text preprocessing, which tokenises or pads texts in Python, one token at a time: per element
#: of the model's input (a token) it costs what an image's decode and resize cost per pixel or more
#: (measured with TensorFlow 2.21 on a shared two-core machine: `texts_to_sequences` and `pad_sequences`
#: of one 40-character window 480 ns a token; `pad_sequences` of 128 such windows 80 ns a token;
#: against 150 ns a pixel for a PNG's decode and resize).
ENCODES = frozenset({
    "tensorflow.keras.utils.pad_sequences",
    "tensorflow.keras.preprocessing.text.Tokenizer.texts_to_sequences",
    "tensorflow.keras.preprocessing.text.Tokenizer.texts_to_matrix",
    "tensorflow.keras.preprocessing.text.text_to_word_sequence",
    "tensorflow.keras.preprocessing.text.one_hot",
    "tensorflow.keras.preprocessing.text.hashing_trick",
})

#: Calls that cut a text into its pieces (words, regular-expression matches) in Python, by the path they are
#: imported as (`regex` is the package GPT-2's byte-pair encoder matches with): a loop over their result
#: works on a text piece by piece, as a tokeniser does (`PIECES`).
SPLITS = frozenset({
    "re.findall", "re.finditer", "re.split", "regex.findall", "regex.finditer", "regex.split",
})
#: The `str` methods that cut a text into pieces, called on a value the walk does not type (a text).
STR_SPLITS = frozenset({"split", "splitlines"})
#: The value of a `SPLITS` call or a `STR_SPLITS` method: a text's pieces (its meta "host": the call).
PIECES = "builtins.str.pieces"

#: Decode calls that only read the header: the pixels are decoded where the image is used.
LAZY = frozenset({"PIL.Image.open"})
#: The value of a `LAZY` call: an image whose pixels are not decoded yet (its meta "host": the open).
OPENED = "PIL.Image.Image.opened"

#: `ImageDataGenerator` methods whose iterator reads (and augments) every image of each batch from files.
FILE_FLOWS = frozenset({"flow_from_directory", "flow_from_dataframe"})

#: `ImageDataGenerator` arguments that transform every image of a batch on the host, in NumPy and
#: SciPy (affine warps, flips, shifts, whitening), when the batch is drawn: the arrays its `flow()`
#: iterates are then worked on per item although nothing is read from files.
AUGMENTS = frozenset({
    "rotation_range", "width_shift_range", "height_shift_range", "brightness_range", "shear_range",
    "zoom_range", "channel_shift_range", "horizontal_flip", "vertical_flip", "zca_whitening",
})


#: The calls a `__getitem__` that only slices may make: index arithmetic on the batch's bounds.
INDEXING = frozenset({"len", "range", "slice", "min", "max", "int"})
#: Nodes that repeat work per item (a loop, a comprehension).
PER_ITEM = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def memoised(function: ast.AST) -> bool:
    """Whether *function* keeps every result by its arguments: decorated `functools.cache` or
    `functools.lru_cache(maxsize=None)` (`lru_cache(None)`), as written. A decode in it runs once per
    file, not again on each pass; a bounded `lru_cache` (128 results by default) decodes again a set
    larger than its size."""
    for decorator in getattr(function, "decorator_list", ()):
        if last_name(decorator) == "cache":
            return True
        if isinstance(decorator, ast.Call) and last_name(decorator.func) == "lru_cache":
            given = decorator.args[0] if decorator.args else next(
                (k.value for k in decorator.keywords if k.arg == "maxsize"), None
            )
            if isinstance(given, ast.Constant) and given.value is None:
                return True
    return False


#: Statements that repeat their body (a binding inside one is made again on each pass).
_REPEATS = (ast.For, ast.AsyncFor, ast.While)
#: Scopes of their own: a binding inside one is not the enclosing scope's.
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def kept_by_key(node: ast.If, scope: ast.AST | None, in_loop: bool) -> bool:
    """Whether the `if` *node* looks a key up in a dict kept between passes and fills it on a miss:
    `if path not in self.cache: self.cache[path] = cv2.imread(path)` (or `if k in d: ... else: d[k] = ...`).
    A decode in it runs once per key, as in a `memoised` function. The dict is kept where it is an
    attribute (`self.cache`: it lives as long as its object), or a name the walked *scope* (a function,
    or the module) does not bind (a global or a closure's), or binds only outside its loops while the
    lookup is inside one (*in_loop*: `cache = {}` before the epoch loop). A dict bound afresh on each
    call or pass keeps nothing."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn))):
        return False
    held = test.comparators[0]
    if not isinstance(held, (ast.Name, ast.Attribute)):
        return False
    text = ast.unparse(held)
    miss = node.body if isinstance(test.ops[0], ast.NotIn) else node.orelse
    if not any(
        isinstance(target, ast.Subscript) and ast.unparse(target.value) == text
        for statement in miss
        for found in trees.walk(statement)
        if isinstance(found, ast.Assign)
        for target in found.targets
    ):
        return False
    if isinstance(held, ast.Attribute):
        return True
    bound = list(_bindings(scope, held.id, False)) if scope is not None else [True]
    return not bound or in_loop and not any(bound)


def _bindings(node: ast.AST, name: str, looped: bool):
    """For each binding of *name* in *node*'s own scope, whether a loop of that scope encloses it."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _SCOPES):
            continue
        if isinstance(child, ast.Name) and child.id == name and isinstance(child.ctx, ast.Store):
            yield looped
        yield from _bindings(child, name, looped or isinstance(child, _REPEATS))


def slices_only(function: ast.AST, held: Callable[[str], Any]) -> bool:
    """Whether a `Sequence`'s `__getitem__` only slices arrays it holds (`return self.x[i * n:(i + 1) * n],
    ...`): no loop or comprehension, no call but the index arithmetic of `INDEXING`, and every
    attribute it indexes or binds to a name (`self.x`) holds NumPy arrays or tensors (*held*: an
    attribute's value, `arrays.ARRAY`/`TENSOR`); a batch is then a copy of rows already in memory.
    An attribute of unknown value, or holding a flow or another `Sequence`, may do work when indexed."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    nodes = trees.walk(ast.Module(body=function.body, type_ignores=[]))
    sliced = {  # the names bound to a slice in the body
        target.id
        for node in nodes
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in nodes:
        if isinstance(node, PER_ITEM):
            return False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in INDEXING):
            return False
        indexed = node.value if isinstance(node, (ast.Subscript, ast.Assign)) else None
        if isinstance(indexed, ast.Name) and isinstance(node, ast.Subscript) and indexed.id not in sliced:
            return False  # a parameter or a name bound to anything else, indexed
        own = isinstance(indexed, ast.Attribute) and isinstance(indexed.value, ast.Name) and indexed.value.id == "self"
        if own and not _in_memory(held(indexed.attr)):  # type: ignore[union-attr]
            return False
    return True


def _in_memory(value: Any) -> bool:
    return type(value) is Inst and value.cls in (ARRAY, TENSOR)


def given_workers(init: ast.AST) -> int | str | None:
    """The `workers` a `Sequence`'s constructor gives `super().__init__()` (Keras 3's `PyDataset` is
    given its workers there, not `fit()`): the literal count, "given" where it is not a literal
    integer, None where it gives none."""
    if not isinstance(init, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    for node in trees.walk(ast.Module(body=init.body, type_ignores=[])):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or node.func.attr != "__init__":
            continue
        made = node.func.value
        if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id == "super"):
            continue
        for keyword in node.keywords:
            if keyword.arg == "workers":
                value = keyword.value
                return value.value if isinstance(value, ast.Constant) and type(value.value) is int else "given"
    return None


def augments(init: object, complete: bool) -> bool | None:
    """Whether an `ImageDataGenerator` transforms each image, from its literal constructor arguments
    (*init*): True where one of them does; False where none does and they are all it was given
    (*complete*); None where an argument it was given is not known (`rotation_range=args.rotation`)."""
    given = init if isinstance(init, dict) else {}
    if any(given.get(key) not in (None, 0, 0.0, False) for key in AUGMENTS):
        return True
    return False if complete else None


def decodes(path: str) -> bool:
    """Whether a call of *path* reads and decodes a file on the host."""
    return path in DECODES


def encodes(api: str) -> bool:
    """Whether a call of the TF/Keras symbol *api* (its canonical path) tokenises or pads texts on the host."""
    return api in ENCODES


def holds(path: str) -> bool:
    """Whether *path* is a decode call or a module holding one (`scipy.misc`): an import the
    resolver follows although the rest of its library stays foreign (asked of every import)."""
    return path in _HOLDERS


#: Each decode or split call and every module above it (`scipy`, `scipy.misc`, `scipy.misc.imread`).
_HOLDERS = frozenset(
    call.rsplit(".", dots)[0] for call in DECODES | SPLITS for dots in range(call.count(".") + 1)
)


def encoding(host: str) -> bool:
    """Whether a description of `describe` names a text's tokenising or padding (`pad_sequences`), not a
    file's read."""
    return host.partition("`")[2].partition("`")[0] in _ENCODED_BY


#: The names `describe` gives the calls of `ENCODES` and `SPLITS` (a function's or a method's last name).
_ENCODED_BY = frozenset(api.rpartition(".")[2] for api in ENCODES | SPLITS) | STR_SPLITS

#: `features.receiver` of a call of the program's own function that does per-item host work (`Resolver.host_site`).
HOST = "host"
#: What such a function does per item, by its kind (`host_kind`): a text's tokens, a file's decode.
DOES = {"text": "tokenises or encodes a text piece by piece", "decode": "reads and decodes files"}
#: Why its items are not known statically, by kind.
UNKNOWN_ITEMS = {
    "text": "the text's size is unknown: how many tokens it holds is not known statically",
    "decode": "the files' size is unknown: how many pixels or samples they hold is not known statically",
}


def sited(host: str, function: ast.AST | None) -> bool:
    """Whether a call of a function doing the per-item host work *host* does it at the call: not where the
    function is a generator's (its body runs where its items are drawn: the `fit` it feeds) or the work is
    an `ImageDataGenerator` flow's (done where the flow is iterated)."""
    if host.startswith("`ImageDataGenerator."):
        return False
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return function is None
    return not any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in trees.walk(ast.Module(body=function.body, type_ignores=[])))


def host_kind(host: str) -> str:
    """The kind of per-item host work a description of `describe` names: "text" or "decode"."""
    return "text" if encoding(host) else "decode"


def describe(call: str, line: int, path: str | None = None) -> str:
    """How a finding names the host work: the call as the library spells it, its file's name
    (where known: the generator may be another module's) and its line."""
    where = f"{os.path.basename(path)} line {line}" if path else f"line {line}"
    return f"`{call}` ({where})"


#: How deep `handed_methods` follows a parameter handed on to another function of the module.
HANDED_DEPTH = 4


def handed_methods(
    function: ast.AST, nested: dict[str, ast.AST], depth: int = 0, memo: dict[int, tuple] | None = None
) -> tuple[tuple[str, frozenset[str]], ...]:
    """Per parameter of *function* (self and cls aside), in order, the methods its body calls on it
    (`tokenizer.tokenize(text)`; `__call__` where it calls the parameter itself, `f([x, 0])`) and those
    the functions of its module it hands the parameter to call on theirs (`convert_single_example(example,
    tokenizer)`; *nested*: the module's functions by name), HANDED_DEPTH deep: an object given to the
    function has its work done there where its class's methods do host work, a function given to it
    runs there."""
    memo = {} if memo is None else memo
    if id(function) in memo:
        return memo[id(function)]
    memo[id(function)] = ()  # (a function handing the object to itself, directly or not: nothing more)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ()
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg not in ("self", "cls")]
    used: dict[str, set[str]] = {name: set() for name in names}
    for node in trees.walk(ast.Module(body=function.body, type_ignores=[])):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in used:
            used[func.value.id].add(func.attr)
        elif isinstance(func, ast.Name) and func.id in used:
            used[func.id].add("__call__")
        callee = nested.get(func.id) if isinstance(func, ast.Name) and depth < HANDED_DEPTH else None
        if callee is None:
            continue
        inner = dict(handed_methods(callee, nested, depth + 1, memo))
        order = list(inner)
        for i, arg in enumerate(node.args):
            if isinstance(arg, ast.Name) and arg.id in used and i < len(order):
                used[arg.id] |= inner[order[i]]
        for keyword in node.keywords:
            if isinstance(keyword.value, ast.Name) and keyword.value.id in used and keyword.arg in inner:
                used[keyword.value.id] |= inner[keyword.arg]
    memo[id(function)] = found = tuple((name, frozenset(methods)) for name, methods in used.items())
    return found
