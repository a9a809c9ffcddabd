"""Static features of one call site: literal arguments by parameter name, tensor sizes.

Parameter names come from the catalog's signatures, so `model.fit(x, y, 32, 10)` gives
``batch_size=32, epochs=10``. Only JSON-ready literals become features; anything computed at
run time is left out rather than guessed. Keys of `CallSite.features`:

=====================  ==========================================================================
<parameter name>       literal argument (keyword or positional): number, string, bool, null, list;
                       module constants and literal arithmetic count (`EPOCHS * 2`); a TF symbol
                       argument is its dotted name (`activation=tf.nn.relu` -> "tensorflow.nn.relu")
loop_multiplier        product of the literal trip counts of the enclosing loops in the same
                       function (`range(...)`, literal lists, comprehensions); 1 outside loops
loop_depth             number of enclosing loops (absent outside loops)
loop_unbounded         true when an enclosing loop has no literal trip count (while, `for b in ds`)
in_tf_function         inside a function run as a graph: decorated with `tf.function` (however
                       imported, with or without arguments), wrapped by `tf.function(f)`, passed
                       to `Dataset.map/filter/flat_map/interleave` or to a `tf.distribute` strategy's
                       `run` from a traced function, or nested in such a function
in_keras_step          inside `call`/`train_step`/`test_step`/`predict_step` of a Keras subclass, or
                       a function given to a Keras model's `compile` (loss, metrics, weighted_metrics)
graph_mode             true where a TF1 graph is built: a module making a TF1 graph call at top level
                       (a Session, a placeholder, `disable_eager_execution()`, ...:
                       `greenlint.catalog.kinds.TF1_GRAPH`), else a function making one (nested
                       functions included), a method of a class one of whose methods makes one, or
                       a function called only from those: TF ops there (a file read or decode that
                       returns a tensor too) add graph nodes, their work runs in `Session.run`
                       (absent otherwise)
tensor_shape, tensor_elements, dtype, tensor_bytes
                       tensor-creating calls with a literal shape or value (tf.zeros, ones, fill,
                       eye, random.*, constant, convert_to_tensor, Variable, keras.Input)
receiver               for calls on an object: how its class is known (constructor, factory,
                       method, with, annotation, subclass); "differentiated" (a value not typed whose
                       trainable variables the code differentiates: a model, differentiated.py);
                       "untyped" (matched by method name and arguments) or
                       "wrapper" (another module's function, listed as its TF call: wrappers.py);
                       "driver" (a library driver calling a function given, drivers.py)
via                    wrapper and driver call sites: the TF call they are listed as, and where it is
init                   for calls on an object: the literal arguments of the call that made it
                       (`Dense(128)` then `layer(x)` -> {"units": 128})
pipeline_elements      for calls on a tf.data pipeline of known size: the elements (batches once
                       batched) it yields per pass (`Dataset.from_tensors(x)`: 1, `range(10)`: 10)
batch_size_from        "dataset" when `batch_size` comes from the literal `.batch(n)` of a
                       tf.data.Dataset argument (`model.fit(ds)`), which Keras then uses
n_layers               Sequential models: layers in the literal list plus literal `add` calls (a nested
                       model its own count, an input none); functional models: the layer calls
                       between inputs and outputs (a layer called twice counts twice); absent or null
                       where a count is unknown
model_name             models from `keras.applications` ("ResNet50")
traces_step            `fit`/`evaluate`/`predict` (and their `_generator`, `_on_batch` forms) on a known model:
                       true where it is the model's first call of that function since its `compile`
                       (it traces the step), in the order the program runs, false where an earlier one
                       did (`traced_at`: its line; a `fit` that validates traces the test function too);
                       absent where not known (step_traces.py)
traces_each_run        with `traces_step` true: each run builds or compiles the model anew (an
                       enclosing loop or the call's function binds its name), so each build traces
traces_shared_by       with `traces_each_run`: the literal trips of the loops inside the innermost one
                       that rebinds the model (its runs per build, which share one tracing); absent: one
input_kind             `fit`/`fit_generator`: what its batches come from, where known (`input_kind`)
input_plain_flow       `fit`/`fit_generator` fed by an `ImageDataGenerator.flow()` of arrays whose
                       arguments are all literal and none augments: true (hostwork.augments)
input_sliced           `fit`/`fit_generator` fed by an instance of a `Sequence` class whose `__getitem__`
                       only slices arrays the instance is known to hold (no loop, no call but index
                       arithmetic): true (hostwork.slices_only)
input_workers          `fit`/`fit_generator` fed by an instance of a `Sequence` class whose constructor gives
                       `super().__init__()` its `workers` (Keras 3's `PyDataset`): the literal count, or
                       "given" (hostwork.given_workers)
input_host_work        `fit`/`fit_generator` fed by a Python generator, a `Sequence` or an `ImageDataGenerator` flow, or
                       `train_on_batch` on a batch
                       drawn from one or from an `ImageDataGenerator` flow (`next(gen)`), or returned
                       in the loop by a function decoding per item in its loops: the call
                       that reads, decodes, tokenises or augments data per item, and its line
                       (`"`cv2.imread` (loader.py line 12)"`: hostwork.py)
input_generator_host   `fit`/`fit_generator` fed by a `Dataset.from_generator()` pipeline (not cached) whose Python
                       generator reads, decodes, tokenises or augments data per item: that call and its
                       line, as `input_host_work` names it
input_drawn_above      `train_on_batch` given `input_host_work`: how many lines above the call the
                       batch is drawn (`next(gen)`, the `for` over the generator, the call of the
                       decoding function); 0 on the same line
=====================  ==========================================================================
"""

from __future__ import annotations

import math
from typing import Any

from greenlint.analysis import handed, hostwork
from greenlint.analysis.arrays import (  # numpy etc. followed for shapes and sizes only
    ARRAY,
    DATA_ROOTS,
    DATASET,
    FLOW_ITERATOR,
    GENERATOR_HOST,
    PY_GENERATOR,
    TENSOR,
    elements,
    here,
    kept,
    shape_of,
)
from greenlint.analysis.mapped import DRAWN_IN
from greenlint.analysis.untyped import LEGACY_FIT_ARGUMENTS
from greenlint.analysis.values import (
    SAVED,
    SEQUENCE,
    TRACKED,
    WORK_KEYS,
    Const,
    ExtInst,
    Inst,
    Ref,
    Seq,
    UserInst,
    items_of,
)

#: `ImageDataGenerator` and the methods that give its iterators (arrays.FLOW_ITERATOR).
IMAGE_DATA_GENERATOR = "tensorflow.keras.preprocessing.image.ImageDataGenerator"
FLOWS = frozenset({"flow", "flow_from_directory", "flow_from_dataframe"})
#: Keras model methods whose first argument is the training data (`x`, or `generator` in Keras 2).
FITS = frozenset({"fit", "fit_generator"})
#: Strings longer than MAX_STRING and sequences of more than MAX_LITERAL_ITEMS items (nested
#: ones counted together) are not copied into the features.
MAX_LITERAL_ITEMS = 64
MAX_STRING = 200

_DTYPE_BYTES = {
    "bool": 1, "int8": 1, "uint8": 1, "qint8": 1, "quint8": 1,
    "float16": 2, "half": 2, "bfloat16": 2, "int16": 2, "uint16": 2, "qint16": 2,
    "float32": 4, "float": 4, "single": 4, "int32": 4, "uint32": 4, "qint32": 4,
    "float64": 8, "double": 8, "int64": 8, "uint64": 8, "complex64": 8,
    "complex128": 16,
}  # fmt: skip

#: Tensor-creating APIs: (parameter holding the shape, or the literal value when `from_value`),
#: default dtype (None: inferred from the literal value).
_SHAPE_APIS = {
    "tensorflow.zeros": ("shape", "float32"),
    "tensorflow.ones": ("shape", "float32"),
    "tensorflow.fill": ("dims", None),
    "tensorflow.random.normal": ("shape", "float32"),
    "tensorflow.random.uniform": ("shape", "float32"),
    "tensorflow.random.truncated_normal": ("shape", "float32"),
    "tensorflow.random.stateless_normal": ("shape", "float32"),
    "tensorflow.random.stateless_uniform": ("shape", "float32"),
    "tensorflow.keras.Input": ("shape", "float32"),
    "tensorflow.keras.ops.zeros": ("shape", "float32"),
    "tensorflow.keras.ops.ones": ("shape", "float32"),
    "tensorflow.keras.random.normal": ("shape", "float32"),
    "tensorflow.keras.random.uniform": ("shape", "float32"),
    "tensorflow.keras.random.truncated_normal": ("shape", "float32"),
}
_VALUE_APIS = {
    "tensorflow.constant": "value",
    "tensorflow.convert_to_tensor": "value",
    "tensorflow.Variable": "initial_value",
}


def literal(value: Any) -> tuple[bool, Any]:
    """(True, JSON-ready form) for a literal value, (False, None) otherwise.

    Tuples become lists; a TF dtype, activation or other symbol becomes its dotted name.
    """
    kind = type(value)
    if kind is Const:
        return _plain(value.value)
    if kind is Ref:
        root = value.path.partition(".")[0]
        return (False, None) if root in DATA_ROOTS or root in hostwork.ROOTS else (True, value.path)
    return False, None


def _plain(value: Any, budget: list[int] | None = None) -> tuple[bool, Any]:
    """JSON form of a literal; sequences hold at most MAX_LITERAL_ITEMS scalars in all."""
    if value is None or isinstance(value, (bool, int)):
        return True, value
    if isinstance(value, float):
        return (True, value) if math.isfinite(value) else (False, None)
    if isinstance(value, str):
        return (True, value) if len(value) <= MAX_STRING else (False, None)
    if isinstance(value, (tuple, list)):
        budget = budget if budget is not None else [MAX_LITERAL_ITEMS]
        budget[0] -= len(value)
        if budget[0] < 0:
            return False, None
        out = []
        for item in value:
            ok, plain = _plain(item, budget)
            if not ok:
                return False, None
            out.append(plain)
        return True, out
    return False, None


def argument_values(params: list[str], args: list[tuple[bool, Any]], keywords: list[tuple[str | None, Any]]) -> dict:
    """Argument values by parameter name: positional ones (until a `*arg`, `*args` or a bare `*`)
    and keywords.

    *args* holds (starred, value) pairs; *keywords* (name or None for `**kw`, value) pairs.
    """
    named: dict[str, Any] = {}
    for (starred, value), name in zip(args, params):
        if starred or name.startswith("*"):
            break
        named[name] = value
    for keyword, value in keywords:
        if keyword is not None:
            named[keyword] = value
    return named


_FIT_METHODS = (".fit", ".fit_generator")


def legacy_fit_arguments(api: str, named: dict[str, Any]) -> dict[str, Any]:
    """*named* as a Keras model's `fit`/`fit_generator` reads it: `nb_epoch=100` is `epochs=100`
    where `epochs` is not given."""
    if not (api.startswith("tensorflow.keras.") and api.endswith(_FIT_METHODS)):
        return named
    read = dict(named)
    for old, new in LEGACY_FIT_ARGUMENTS.items():
        if old in read and new not in read:
            read[new] = read.pop(old)
    return read


def literal_features(named: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, value in named.items():
        ok, plain = literal(value)
        if ok:
            out[name] = plain
    return out


def tensor_features(api: str, named: dict[str, Any]) -> dict[str, Any]:
    """`tensor_shape`, `dtype` and `tensor_bytes` of a tensor-creating call with literal args."""
    shape: list[int] | None = None
    dtype = _dtype_name(named.get("dtype"))
    if api in _SHAPE_APIS:
        param, default = _SHAPE_APIS[api]
        shape = _shape(named.get(param))
        if api == "tensorflow.keras.Input" and shape is not None:
            batch = _int(named.get("batch_size"))
            shape = [batch if batch is not None else 1, *shape]
        if dtype is None:
            dtype = default or _infer_dtype(named.get("value"))
    elif api in _VALUE_APIS:
        value = named.get(_VALUE_APIS[api])
        if type(value) is Const:
            shape = _shape(named.get("shape")) or _nested_shape(value.value)
            if dtype is None:
                dtype = _infer_dtype(value)
    elif api == "tensorflow.eye":
        rows = _int(named.get("num_rows"))
        cols = _int(named.get("num_columns")) if "num_columns" in named else rows
        if rows is not None and cols is not None:
            shape = [rows, cols]
        dtype = dtype or "float32"
    if shape is None:
        return {}
    out: dict[str, Any] = {"tensor_shape": shape, "tensor_elements": math.prod(shape)}
    if dtype in _DTYPE_BYTES:
        out["dtype"] = dtype
        out["tensor_bytes"] = math.prod(shape) * _DTYPE_BYTES[dtype]
    return out


def _int(value: Any) -> int | None:
    if type(value) is Const and type(value.value) is int and value.value >= 0:
        return value.value
    return None


def _shape(value: Any) -> list[int] | None:
    if type(value) is not Const:
        return None
    raw = value.value
    if type(raw) is int and raw >= 0:
        return [raw]
    if isinstance(raw, (tuple, list)) and all(type(d) is int and d >= 0 for d in raw):
        return list(raw)
    return None


def _nested_shape(raw: Any) -> list[int] | None:
    """Shape of a rectangular nested list/tuple of scalars; [] for a scalar."""
    if isinstance(raw, (bool, int, float)):
        return []
    if not isinstance(raw, (tuple, list)) or not raw:
        return [0] if isinstance(raw, (tuple, list)) else None
    inner = [_nested_shape(item) for item in raw]
    if any(s is None or s != inner[0] for s in inner):
        return None
    return [len(raw), *inner[0]]


def _flat(raw: Any):
    if isinstance(raw, (tuple, list)):
        for item in raw:
            yield from _flat(item)
    else:
        yield raw


def _infer_dtype(value: Any) -> str | None:
    """TF's default dtype for a literal: bool, int32 or float32."""
    if type(value) is not Const:
        return None
    kinds = {type(x) for x in _flat(value.value)}
    if kinds == {bool}:
        return "bool"
    if kinds == {int}:
        return "int32"
    if kinds and kinds <= {int, float}:
        return "float32"
    return None


def _dtype_name(value: Any) -> str | None:
    if type(value) is Ref:
        return value.path.rpartition(".")[2]
    if type(value) is Const and isinstance(value.value, str):
        return value.value
    return None


def dataset_batch_size(values: list[Any]) -> int | None:
    """The literal batch size of the first batched tf.data.Dataset among call arguments."""
    for value in values:
        if type(value) is Inst and value.cls == DATASET and "batch_size" in value.meta:
            return value.meta["batch_size"]
    return None


def receiver_features(owner: Any) -> dict[str, Any]:
    """What is known of the object a method is called on."""
    if type(owner) is not Inst:
        return {}
    # (the loop that drew a batch, what a checkpoint saves, the functions a callback was built from:
    # the analysis' own objects, no feature)
    out = {
        "receiver": owner.how,
        **{k: v for k, v in owner.meta.items() if k not in WORK_KEYS and k not in (DRAWN_IN, GENERATOR_HOST, SAVED, TRACKED, handed.HANDS)},
    }
    count = elements(owner.meta.get("data"))
    if count is not None:
        out["pipeline_elements"] = count
    return out


def input_host_work(named: dict[str, Any]) -> str | None:
    """The per-item host work (a file read, decoded or augmented, hostwork.py) of the Python generator
    a `fit`/`fit_generator` call is given, where its body (or a function it calls) shows some, of
    the `ImageDataGenerator` flow it is given, or of the `__getitem__` of the `Sequence` it is given (of
    the file, walked before, or of a project module)."""
    value: Any = named.get("x", named.get("generator"))
    if type(value) is ExtInst:
        return value.cls.hosts.get("__getitem__", (None, None))[0]
    if type(value) is UserInst:
        method = value.info.find_method("__getitem__")
        return method.host if method is not None else None
    return value.meta.get("host") if type(value) is Inst and value.cls in (PY_GENERATOR, FLOW_ITERATOR) else None


def input_generator_host(named: dict[str, Any]) -> str | None:
    """The per-item host work of the Python generator behind the `Dataset.from_generator()` pipeline
    a `fit`/`fit_generator` call is given, where no `.cache()` came after it (arrays.GENERATOR_HOST)."""
    value: Any = named.get("x", named.get("generator"))
    return value.meta.get(GENERATOR_HOST) if type(value) is Inst and value.cls == DATASET else None


def input_plain_flow(named: dict[str, Any]) -> bool:
    """Whether a `fit`/`fit_generator` call is given an `ImageDataGenerator.flow()` of arrays whose
    generator's arguments are all known and none transforms each image (hostwork.augments)."""
    value: Any = named.get("x", named.get("generator"))
    return type(value) is Inst and value.cls == FLOW_ITERATOR and value.meta.get("plain", False)


def input_sliced(named: dict[str, Any]) -> bool:
    """Whether a `fit`/`fit_generator` call is given an instance of a `Sequence` class (of the file or
    a project module) whose `__getitem__` only slices arrays the instance holds (hostwork.slices_only)."""
    value: Any = named.get("x", named.get("generator"))
    if type(value) is ExtInst:
        return value.cls.sliced
    method = value.info.find_method("__getitem__") if type(value) is UserInst else None
    return method is not None and hostwork.slices_only(method.node, lambda name: value.info.find_attr(name)[1])


def input_workers(named: dict[str, Any]) -> int | str | None:
    """The `workers` the constructor of the `Sequence` class a `fit`/`fit_generator` call is given
    (of the file or a project module) passes to `super().__init__()`: the literal count, "given"
    where not a literal, None where it passes none (hostwork.given_workers)."""
    value: Any = named.get("x", named.get("generator"))
    if type(value) is ExtInst:
        return value.cls.workers
    init = value.info.find_method("__init__") if type(value) is UserInst else None
    return hostwork.given_workers(init.node) if init is not None else None


def drawn_host_work(named: dict[str, Any], walk: int) -> tuple[str, int] | None:
    """The per-item host work of the generator a `train_on_batch` call's batch was drawn from
    (`x = next(gen)`, `for x, y in gen:`), or of the function that returned it in the loop, where
    that generator or function decodes files (arrays.drawn, arrays.prepared), and the line drawing
    it; for a model of several inputs (`[x_a, x_b]`), the first input so drawn."""
    value: Any = named.get("x")
    for item in items_of(value):
        batch = kept(item)
        if batch is not None and here(batch, walk):
            return batch.meta["host"], batch.meta["line"]
    return None


def callback_classes(api: str, named: dict[str, Any]) -> list[str] | None:
    """The class of each callback a `fit`/`fit_generator` call is given (`callbacks=[TensorBoard(...)]`,
    or a list a wrapper builds), where the walk knows every one as an instance of a library's class;
    None where it is given none, or any is unknown (a class of the program's, another call's result)."""
    value: Any = named.get("callbacks")
    if api.rpartition(".")[2] not in FITS or type(value) is not Seq or not all(type(item) is Inst and isinstance(item.cls, str) for item in value.items):
        return None
    return [item.cls for item in value.items]


def input_kind(api: str, named: dict[str, Any]) -> str | None:
    """What a `fit`/`fit_generator` call's batches come from, None where not known: "sequence" (a
    `keras.utils.Sequence`: an `ImageDataGenerator` flow, an instance of a class deriving it, in
    the file or a project module), "generator" (what calling a Python generator function gives),
    "dataset" (a tf.data pipeline) or "arrays" (NumPy arrays or tensors, sliced by Keras)."""
    if api.rpartition(".")[2] not in FITS:
        return None
    value: Any = named.get("x", named.get("generator"))
    kind = type(value)
    if kind is UserInst:
        return "sequence" if value.info.tf_base == SEQUENCE else None
    if kind is ExtInst:
        return "sequence" if value.cls.tf_base == SEQUENCE else None
    if kind is Inst:
        found = {SEQUENCE: "sequence", FLOW_ITERATOR: "sequence", PY_GENERATOR: "generator", DATASET: "dataset"}
        if value.cls in found:
            return found[value.cls]
        if value.cls in (ARRAY, TENSOR):
            return "arrays"
    return "arrays" if shape_of(value) is not None else None
