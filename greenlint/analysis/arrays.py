"""Shapes of arrays, tensors and datasets the resolver can follow, and what operations do to them.

Abstract values (`values.Inst`) carry what is known in their `meta`:
  - "shape": the whole shape of a NumPy array or a tensor (first axis: samples), each dimension
    an int or None, with "shape_prov" (literal | table | inferred) and "shape_note";
  - "data": a tf.data pipeline's `Data` (samples per pass, per-sample shape, batch size);
  - "sym": a Keras symbolic tensor's `Sym` (functional models: per-sample shape, the layers
    applied so far with their parameters and FLOPs).
Sources: literal lists and NumPy constructors (`np.array([[0, 1], ...])`, `np.zeros((1000, 32))`,
`np.random.rand(100, 8)`, `np.random.default_rng().normal(size=...)`, `np.arange`, `np.linspace`,
`np.concatenate`, `np.append`, `np.hstack`), a literal reshape of a value of unknown shape (bytes read:
`np.fromfile(f)[16:].reshape((60000, 28, 28, 1))`, `reshaped`), TF constructors with literal shapes
(features.tensor_features, ops.result_shape), TF1's tutorial MNIST (tutorial_mnist.py),
`keras.datasets.*.load_data()` and `tfds.load(...)` (shipped tables, worktables.py; without `split=`,
a KEYED value of every split: `datasets["train"]`; likewise a `tfds.builder(name)`'s `as_dataset(...)`), downloaded files (downloads.py),
`sklearn.model_selection.train_test_split`, what a model returns on data (`model.predict(x)`,
`predict_on_batch`, an eager `model(x)`: work.output_array); indexing `x[:1000]`, `x[i:i + 32]`, `x[None, ...]`,
`x[0, :5]`, `reshape`, `astype`, a new first axis on a value of unknown shape (`np.expand_dims(x, 0)`,
`x[None]`: meta "rows" 1), a literal slice of the first axis of a value of unknown rows (`x[:64]`,
`x[-500:]`, `x[a:b]`: meta "most_rows", at most that many rows; `most_rows`; literal slices of
the other axes, `x[:64, :50]`: meta "most_sample", each row's axes at most that long), rows drawn from a
value of unknown rows by an index of known length or a slice of known width (`x[np.random.randint(0, n,
bs)]`, `x[perm[i:i + bs]]`, `x[i * bs:(i + 1) * bs]`: meta "rows", `taken`), arithmetic with
literals, `Dataset.from_tensor_slices`, `batch`, `take`, `skip`, `repeat`, `shuffle`, `map`, `filter`. Anything else leaves the shape unknown.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from greenlint.analysis import worktables
from greenlint.analysis.values import OPAQUE, Const, Inst, Seq, items_of, set_as
from greenlint.units import fmt_counted

#: Libraries followed only for the shapes and sizes they imply; no call of theirs is reported.
DATA_ROOTS = frozenset({"numpy", "tensorflow_datasets", "sklearn", "random"})
ARRAY = "numpy.ndarray"
#: `np.random.default_rng(...)` / `np.random.RandomState(...)`: their methods draw like `np.random.*`.
GENERATOR = "numpy.random.Generator"
DATASET = "tensorflow.data.Dataset"
#: A dataset value's meta key: a `batch` was applied (its size known or not; mapped.dataset_step).
BATCHED = "batched"
TENSOR = "tensorflow.Tensor"
#: A Python list filled by `.append` in loops: meta "length" (items appended, None: unknown) and
#: "length_bound" ("exact" or "upper": some appends sit under a condition); `HOLDS_TENSORS` where every
#: item appended is a tensor (a loss per scale, whose `sum` is a tensor).
LIST = "builtins.list"
HOLDS_TENSORS = "tensors"
#: What calling a Python generator function gives (`def gen(): ... yield x[i:i + bs]`): meta
#: "data", a `Data` with the batch its yields show (samples unknown: it may loop forever).
PY_GENERATOR = "builtins.generator"
#: The meta key of a `Dataset.from_generator()` pipeline (and the datasets made from it, up to a
#: `.cache()`) whose Python generator reads, decodes or augments data per item: that work, as
#: hostwork.py names it. tf.data runs the generator on one thread, under the GIL, on every pass.
GENERATOR_HOST = "generator_host"
#: The pipeline source that runs a Python generator function.
FROM_GENERATOR = "tensorflow.data.Dataset.from_generator"
#: What `ImageDataGenerator.flow()`, `.flow_from_directory()`, `.flow_from_dataframe()` give: a
#: Keras image iterator, a `keras.utils.Sequence` (its batches are indexed, so workers can share it);
#: meta "host" where it reads, decodes or warps each image of a batch (hostwork.py), "plain" where
#: it only slices (and at most rescales) arrays in memory (hostwork.augments).
FLOW_ITERATOR = "tensorflow.keras.preprocessing.image.Iterator"
#: A batch drawn from a Python generator, or a Keras image iterator, that works on each item (`drawn`),
#: or decoded item by item on the spot (`decoded`, or a list a loop fills with decoded items); the
#: array conversions, casts, reshapes, slices and scalar arithmetic of `kept` leave it that batch.
HOST_BATCH = "builtins.generator.batch"
#: A mapping of string keys to known values (`tfds.load(name)` without `split=`, `np.load` of an
#: `.npz`): meta "items"; indexed with a literal key it gives that key's value (resolver.e_subscript).
KEYED = "builtins.dict"
#: What `tfds.builder(name)` gives: meta "name", the dataset's name where known; its `as_dataset(split)` is
#: the split `tfds.load(name, split)` gives (`tfds_as_dataset`).
TFDS_BUILDER = "tensorflow_datasets.core.DatasetBuilder"
TFDS_BUILD = "tensorflow_datasets.builder"
#: What a TF op returns (a placeholder, a variable, an op's result), and a Keras layer's call on symbolic tensors.
TF_TENSORS = frozenset({TENSOR, "tensorflow.Variable"})
KERAS_TENSOR = "tensorflow.keras.KerasTensor"


@dataclass(frozen=True)
class Data:
    """A tf.data pipeline: samples it yields per pass (None: unknown), per-sample shape, batch."""

    samples: int | None
    shape: tuple | None
    batch: int | None = None
    prov: str = "inferred"
    note: str | None = None
    forever: bool = False  # `.repeat()` without a count
    upper: bool = False  # `.filter(...)`: at most `samples`
    batch_note: str | None = None  # where `batch` was read, if not a `.batch(n)`
    most_shape: tuple | None = None  # the per-sample axes' most, where `shape` is unknown (`x[:64, :50]`)
    whole: bool = False  # each element is one tensor of `shape` (`from_tensor_slices(x)`), not a tuple
    parts: tuple | None = None  # where each element is a tuple (`from_tensor_slices((x, y))`): each part's per-sample shape
    decoded: int | None = None  # pixels each sample decodes from its file per pass (`image_dataset_from_directory`)


@dataclass(frozen=True)
class Sym:
    """A Keras symbolic tensor: per-sample shape (None: unknown), the layers applied to reach it
    (id of the layer's meta -> (parameters, that meta); id of the call node -> FLOPs per sample),
    the model input's shape, the names of layers whose work is unknown, the layer each call
    applies (id of the call node -> id of the layer's or model's meta; an op of no layer has none),
    and the layers each call dispatches per step (id of the call node -> 1 for a layer or an op, a
    nested model's own count, None where not known); *sized*: where the input's free sides were given
    their size (builders.stated_size), None where they were not free; *outputs*: the elements each call
    writes per sample (id of the call node -> its output's, a nested model's layers' summed; None where
    not known or a recurrent layer's, whose time steps' state its output does not show); *batch*: the rows
    a run of a TF1 graph reads from the inputs it is built on (a queue's `batch_size`, a placeholder's
    literal first axis), None where not known."""

    shape: tuple | None
    input_shape: tuple | None
    params: dict = field(default_factory=dict)
    flops: dict = field(default_factory=dict)
    unknown: tuple = ()
    owners: dict = field(default_factory=dict)
    layers: dict = field(default_factory=dict)
    sized: str | None = None
    outputs: dict = field(default_factory=dict)
    batch: int | None = None


def is_sym(value: Any) -> bool:
    """A symbolic tensor: what `keras.Input` or a TF1 placeholder gives, and a layer or TF op called
    on one (its meta's "sym", a `Sym`)."""
    return type(value) is Inst and "sym" in value.meta


def holds_tensor(value: Any) -> bool:
    """A tensor (TF's or Keras's), or a tuple holding one (`return deconv, w, biases`)."""
    if type(value) is Seq:
        return any(holds_tensor(item) for item in value.items)
    return type(value) is Inst and (value.cls in TF_TENSORS or value.cls == KERAS_TENSOR)


# -- shapes of values ------------------------------------------------------------------------
def shape_of(value: Any) -> tuple | None:
    """The whole shape of an array or tensor value (first axis: samples), or None."""
    if type(value) is Inst:
        meta = value.meta
        if "shape" in meta:
            return meta["shape"]
        if value.cls in TF_TENSORS:
            init = meta.get("init")
            if init and "tensor_shape" in init:
                return tuple(init["tensor_shape"])
        return None
    if type(value) is Const and value is not OPAQUE and isinstance(value.value, (list, tuple)):
        return _nested(value.value)
    return None


def rows_of(value: Any) -> int | None:
    """The first dimension (samples) of an array or tensor value: from its shape, else from a new
    first axis given to a value of unknown shape (`new_first_axis`) or the rows an index drew from it
    (`taken`); None when not known."""
    shape = shape_of(value)
    if shape:
        return shape[0]
    return value.meta.get("rows") if type(value) is Inst else None


def most_rows(value: Any) -> int | None:
    """The rows an array or tensor value of unknown rows has at most (a literal slice of its first
    axis, `sliced`); None where nothing bounds them or they are known (`rows_of`)."""
    if type(value) is not Inst or rows_of(value) is not None:
        return None
    return value.meta.get("most_rows")


def sliced(owner: Any, parts: list, cls: str = ARRAY) -> Inst | None:
    """`x[:64]`, `x[-500:, 1:]` of a value of unknown rows: at most the rows the first axis's literal
    slice keeps (and those *owner* has at most), the rest of its shape unknown; None where no
    literal slice of the first axis bounds them (`x[:, :64]`, `x[:n]`)."""
    if not parts or type(parts[0]) is not Cut:
        return None
    bounds = [b for b in (parts[0].most(), most_rows(owner)) if b is not None]
    if not bounds:
        return None
    rows = min(bounds)
    meta = {"most_rows": rows, "shape_prov": "inferred",
            "shape_note": f"at most {rows:,} rows: a literal slice of data of unknown size"}
    most = tuple(p.most() if type(p) is Cut else None for p in parts[1:])
    if all(type(p) is Cut for p in parts[1:]) and any(m is not None for m in most):
        meta["most_sample"] = most  # `x[:7000, :50]`: each row at most 50 long on its first axis
    return Inst(cls, "operator", meta)


#: An int known to be at most meta "most_rows": `len(x)` or `x.shape[0]` of a value whose rows are
#: bounded (`most_rows`), or `min(32, len(memory))` (`least_of`).
ROWS = "builtins.int.rows"
#: `x.shape` of such a value: its first item (`x.shape[0]`) is a `ROWS`.
SHAPE = "builtins.tuple.shape"


def rows_count(value: Any, how: str = "len") -> Inst | None:
    """`len(x)` (*how* "len") or `x.shape` (*how* "shape") of an array or tensor value of bounded
    rows (`ROWS`, `SHAPE`); `x.shape[0]` of such a shape (*value* a `SHAPE`); None otherwise."""
    if type(value) is Inst and value.cls == SHAPE:
        return Inst(ROWS, "len", dict(value.meta))
    rows = most_rows(value)
    return None if rows is None else Inst(ROWS if how == "len" else SHAPE, how, {"most_rows": rows})


def at_most(count: Any) -> int | None:
    """The most an int value is: a literal's value, a bounded count's (`ROWS`); None otherwise."""
    if type(count) is Const and type(count.value) is int:
        return count.value
    return count.meta.get("most_rows") if type(count) is Inst and count.cls == ROWS else None


def least_of(values: list) -> Inst | None:
    """`min(32, len(memory))`: an int at most the least of the values that are bounded (literal ints
    or `ROWS`), the others not known; None where none is bounded, one is negative or not an int."""
    bounds = [at_most(v) for v in values]
    if any(type(v) is Const and v is not OPAQUE and type(v.value) is not int for v in values):
        return None
    known = [b for b in bounds if b is not None]
    if not known or min(known) < 0:
        return None
    return Inst(ROWS, "min", {"most_rows": min(known)})


def bounded_rows(sides: Any) -> Inst | None:
    """`np.zeros((min(32, len(memory)), 4))`: an array of at most as many rows as its first side, a
    bounded count (`ROWS`), is; its other sides where literal; None where the first side is no such count."""
    dims = list(sides.items) if type(sides) is Seq else [sides]
    rows = at_most(dims[0]) if dims and type(dims[0]) is Inst else None
    if rows is None:
        return None
    meta: dict = {"most_rows": rows, "shape_prov": "inferred", "shape_note": f"at most {rows:,} rows: a bounded count"}
    rest = [_int(d) for d in dims[1:]]
    if all(d is not None and d >= 0 for d in rest):
        meta["shape"] = (None, *rest)
    return Inst(ARRAY, "constructor", meta)


def sampled(args: list, keywords: list) -> Inst | None:
    """`random.sample(population, k)`: a list of k items, exactly where k is a literal, at most where k is
    a bounded count (`min(32, len(memory))`); None where k is neither."""
    positional = [value for starred, value in args if not starred]
    if len(positional) != len(args):
        return None
    k = positional[1] if len(positional) > 1 else dict(keywords).get("k")
    length = at_most(k)
    if length is None or length < 0:
        return None
    return Inst(LIST, "sample", {"length": length, "length_bound": "exact" if type(k) is Const else "upper"})


def new_first_axis(how: str, cls: str = ARRAY) -> Inst:
    """What a new first axis makes of a value of unknown shape (`np.expand_dims(x, 0)`, `x[None]`):
    an array of one row, the rest of its shape unknown (meta "rows", read by `rows_of`)."""
    return Inst(cls, "operator", {"rows": 1, "shape_prov": "inferred", "shape_note": f"{how}: a batch of one"})


def shape_source(value: Any) -> tuple[str, str | None]:
    """(provenance, note) of `shape_of(value)`."""
    if type(value) is Inst:
        return value.meta.get("shape_prov", "literal"), value.meta.get("shape_note")
    return "literal", None


def _nested(raw: Any) -> tuple | None:
    if isinstance(raw, (bool, int, float)):
        return ()
    if not isinstance(raw, (list, tuple)) or not raw:
        return (0,) if isinstance(raw, (list, tuple)) else None
    inner = _nested(raw[0])
    if inner is None or len(raw) > 4096:
        return None
    return (len(raw), *inner)


def array(shape: tuple | None, prov: str = "literal", note: str | None = None, cls: str = ARRAY) -> Inst | None:
    if shape is None:
        return None
    meta: dict[str, Any] = {"shape": tuple(shape), "shape_prov": prov}
    if note:
        meta["shape_note"] = note
    return Inst(cls, "constructor", meta)


def with_shape(value: Inst, shape: tuple | None) -> Inst:
    """A value of the same class as *value* with *shape* (same provenance)."""
    meta = {"shape": shape, "shape_prov": value.meta.get("shape_prov", "literal")} if shape is not None else {}
    if shape is not None and "shape_note" in value.meta:
        meta["shape_note"] = value.meta["shape_note"]
    return Inst(value.cls, "operator", meta)


def _int(value: Any) -> int | None:
    return value.value if type(value) is Const and type(value.value) is int else None


def _dims(value: Any) -> tuple | None:
    """A literal shape argument: an int or a list/tuple of ints."""
    if type(value) is Const and value is not OPAQUE:
        raw = value.value
        if type(raw) is int and raw >= 0:
            return (raw,)
        if isinstance(raw, (list, tuple)) and all(type(d) is int and d >= 0 for d in raw):
            return tuple(raw)
    return None


def input_shape(value: Any) -> tuple | None:
    """A per-sample shape argument (`keras.Input(shape=(None, 8))`): ints and Nones."""
    if type(value) is Const and value is not OPAQUE:
        raw = value.value
        if type(raw) is int and raw >= 0:
            return (raw,)
        if isinstance(raw, (list, tuple)) and all(d is None or (type(d) is int and d >= 0) for d in raw):
            return tuple(raw)
    return None


# -- NumPy -----------------------------------------------------------------------------------
_NP_SHAPE_FIRST = frozenset({"numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full"})
_NP_LIKE = frozenset({"numpy.zeros_like", "numpy.ones_like", "numpy.empty_like", "numpy.full_like"})
_NP_DIMS = frozenset({"numpy.random.rand", "numpy.random.randn"})
#: NumPy random functions taking `size`: position of `size` when passed positionally.
_NP_SIZE = {
    "numpy.random.random": 0, "numpy.random.random_sample": 0, "numpy.random.sample": 0,
    "numpy.random.standard_normal": 0, "numpy.random.normal": 2, "numpy.random.uniform": 2,
    "numpy.random.randint": 2, "numpy.random.binomial": 2, "numpy.random.poisson": 1,
    "numpy.random.exponential": 1, "numpy.random.choice": 1,
}  # fmt: skip
#: NumPy's scalar types that hold any Python number as a float (a narrower one may round or overflow).
_NP_SCALARS = frozenset({"numpy.float32", "numpy.float64", "numpy.single", "numpy.double"})
_GENERATORS = frozenset({"numpy.random.default_rng", "numpy.random.RandomState"})
#: A Generator's methods under their `np.random` names (same parameters).
_GENERATOR_ALIASES = {"integers": "randint"}
_JOINS = frozenset({"numpy.concatenate", "numpy.vstack", "numpy.hstack", "numpy.stack"})
#: NumPy's rounding of a number (`np.ceil(len(x) / bs)`): a number still, rounded.
_NP_ROUNDING = {"numpy.ceil": math.ceil, "numpy.floor": math.floor}


def data_call(path: str, args: list, keywords: list) -> Any:
    """What a call into a data library (DATA_ROOTS) returns, where its size is known; None otherwise."""
    if path.startswith("numpy."):
        return numpy_call(path, args, keywords)
    if path == "random.sample":
        return sampled(args, keywords)
    if path == "tensorflow_datasets.load":
        return tfds_load(args, keywords)
    if path == TFDS_BUILD:
        positional = [value for starred, value in args if not starred]
        name = positional[0] if positional else dict(keywords).get("name")
        return Inst(TFDS_BUILDER, "factory", {"name": name})
    if path.rpartition(".")[2] == "train_test_split" and path.startswith("sklearn."):
        return train_test_split(args, keywords)
    return None


def numpy_method(name: str, owner: Inst, args: list, keywords: list) -> Any:
    """A method of an array (`x.reshape(...)`) or of a random generator (`rng.normal(size=...)`)."""
    if owner.cls == GENERATOR:
        return numpy_call(f"numpy.random.{_GENERATOR_ALIASES.get(name, name)}", args, keywords)
    return array_method(name, owner, [value for _, value in args])


def numpy_call(path: str, args: list, keywords: list) -> Any:
    """The array a NumPy call returns, where its shape is literal; None otherwise."""
    positional = [value for starred, value in args if not starred]
    if len(positional) != len(args):
        return None
    named = {name: value for name, value in keywords if name is not None}
    shape: tuple | None = None
    batch = kept(positional[0], path) if positional else None
    if batch is not None:
        return batch
    if path in _NP_SCALARS and len(positional) == 1 and not named:  # `x / np.float32(255)`: a number still
        number = positional[0]
        return Const(float(number.value), number.option) if type(number) is Const and type(number.value) in (int, float) else None
    if path in _NP_ROUNDING and len(positional) == 1 and not named:  # `int(np.ceil(len(x) / bs))`: a number of batches
        number = positional[0]
        if type(number) is not Const or type(number.value) not in (int, float):
            return None
        value = number.value
        return Const(float(_NP_ROUNDING[path](value) if math.isfinite(value) else value), number.option)
    if path in _GENERATORS:
        return Inst(GENERATOR, "factory")
    if path == "numpy.prod" and len(positional) == 1 and not named:  # `Dense(np.prod(img_shape))`: a size
        factors = _dims(positional[0])
        return Const(math.prod(factors)) if factors is not None else None
    if path in _JOINS:
        return _joined(path, positional[0] if positional else named.get("arrays"), named.get("axis", Const(0)))
    if path == "numpy.append" and len(positional) >= 2:  # `np.append(a, b, axis=0)`; no axis: both flattened
        axis = positional[2] if len(positional) > 2 else named.get("axis", Const(None))
        return _joined("numpy.concatenate", Seq(tuple(positional[:2])), axis)
    if path in _NP_LIKE:
        source = positional[0] if positional else named.get("a")
        return with_shape(source, shape_of(source)) if type(source) is Inst and shape_of(source) else None
    if path in _NP_SHAPE_FIRST:
        sides = positional[0] if positional else named.get("shape")
        shape = _dims(sides)
        if shape is None:
            return bounded_rows(sides)
    elif path in _NP_DIMS:
        dims = [_int(v) for v in positional]
        shape = tuple(dims) if all(d is not None and d >= 0 for d in dims) else None
    elif path in _NP_SIZE:
        at = _NP_SIZE[path]
        size = named.get("size", positional[at] if len(positional) > at else None)
        shape = _dims(size) if size is not None else None
        first = positional[0] if positional else named.get("a", named.get("low"))
        if shape is not None and len(shape) == 1 and (path == "numpy.random.randint" or path == "numpy.random.choice" and _rows_drawn_from(first)):
            return _index(shape[0], size)
    elif path == "numpy.random.permutation" and positional and _rows_drawn_from(positional[0]):
        length = _int(positional[0])  # `permutation(len(x))` of rows not known: row numbers, how many not known
        return _index(length, positional[0]) if length is not None else Inst(ARRAY, "constructor", {"index": True})
    elif path in ("numpy.array", "numpy.asarray", "numpy.asanyarray", "numpy.ascontiguousarray"):
        source = positional[0] if positional else named.get("object", named.get("a"))
        if type(source) is Seq:  # a list of arrays of one shape: stacked
            return _joined("numpy.stack", source, Const(0))
        if type(source) is Inst and source.cls == LIST and source.meta.get("length_bound") == "exact":
            rows = source.meta["length"]  # `images.append(img)` batch_size times: a batch of that many
            return Inst(ARRAY, "operator", {"rows": rows, "shape_prov": "inferred",
                                            "shape_note": f"a list of {rows} items filled by append"})
        if type(source) is Inst and source.cls == LIST and source.meta.get("length") is not None:
            rows = source.meta["length"]  # appended to under a condition, or a loop over a bounded sample
            return Inst(ARRAY, "operator", {"most_rows": rows, "shape_prov": "inferred",
                                            "shape_note": f"a list of at most {rows} items"})
        shape = shape_of(source)
        prov, note = shape_source(source)
        return array(shape, prov, note) if shape is not None else _rows_kept(source)
    elif path == "numpy.arange":
        bounds = [_int(v) for v in positional]
        if positional and all(b is not None for b in bounds) and len(bounds) <= 3 and (len(bounds) < 3 or bounds[2]):
            shape = (len(range(*bounds)),)
        elif len(positional) == 1 and not named and _rows_drawn_from(positional[0]):
            return Inst(ARRAY, "constructor", {"index": True})  # `np.arange(len(x))`: row numbers, how many not known
    elif path == "numpy.linspace":
        num = _int(named.get("num", positional[2] if len(positional) > 2 else Const(50)))
        shape = (num,) if num is not None else None
    elif path == "numpy.where" and len(positional) == 3:
        return elementwise(ARRAY, *positional)
    elif path in ("numpy.reshape", "numpy.expand_dims") and positional:
        rest = positional[1:] or [named.get("newshape", named.get("axis"))]
        return array_method("reshape" if path == "numpy.reshape" else "expand_dims", positional[0], rest)
    return array(shape)


def _index(length: int | None, given: Any = None) -> Inst | None:
    """A 1-D array of *length* row numbers (`np.random.randint(0, n, size)`, `permutation(n)`,
    `choice(n, size)`): indexing an array with it draws that many rows. *given*: the value that set
    its length, whose command-line option (`Const.option`) it keeps (meta "options")."""
    if length is None or length < 0:
        return None
    option = given.option if type(given) is Const else ""
    meta = {"shape": (length,), "shape_prov": "literal", "index": True, **({"options": (option,)} if option else {})}
    return Inst(ARRAY, "constructor", meta)


def _rows_drawn_from(population: Any) -> bool:
    """Whether NumPy draws row numbers from *population* (`choice(n, size)`, `permutation(n)`,
    `arange(n)`): an int, row numbers, or a value not known (`len(x)`, `x.shape[0]` of data of
    unknown size); not the values of known data (`choice(x[:, 0], 8)`) nor a literal list."""
    if population is None or population is OPAQUE:
        return True
    if type(population) is Const:
        return type(population.value) is int
    return type(population) is Inst and (population.cls == ROWS or bool(population.meta.get("index")))


def rows_per_item(count: int) -> Inst:
    """`np.array([obs])`, a list display of *count* items of unknown shape: an array of one row per
    item, the rest of its shape unknown (meta "rows", read by `rows_of`)."""
    return Inst(ARRAY, "operator", {"rows": count, "shape_prov": "inferred",
                                    "shape_note": f"a list display of {fmt_counted(count, 'item')}: a row each"})


def _joined(path: str, items: Any, axis: Any) -> Inst | None:
    """`np.concatenate(arrays, axis)` (axis None: each flattened first), `np.vstack(arrays)`,
    `np.hstack(arrays)` (1-D arrays end to end, others side by side), `np.stack(arrays)` along the
    first axis: its shape, where every array's is known and they fit."""
    values = items.items if type(items) is Seq else ()
    if type(items) is Const and isinstance(items.value, (list, tuple)):
        values = tuple(Const(v) for v in items.value)
    found = [shape_of(v) for v in values]
    shapes = [s for s in found if s is not None]
    if not shapes or len(shapes) < len(found):
        return None
    if type(axis) is Const and axis.value is None and path == "numpy.concatenate":
        sizes = [_prod(s) for s in shapes]
        return None if None in sizes else array((sum(size for size in sizes if size is not None),))
    if path == "numpy.hstack":
        axis = Const(0 if all(len(s) == 1 for s in shapes) else 1)
    at = _int(axis)
    if at is None or at != 0 and path != "numpy.concatenate":
        return None
    if path == "numpy.stack" or (path == "numpy.vstack" and all(len(s) == 1 for s in shapes)):
        return array((len(shapes), *shapes[0])) if all(s == shapes[0] for s in shapes) else None
    first = shapes[0]
    at = at + len(first) if at < 0 else at
    if not 0 <= at < len(first) or any(len(s) != len(first) or s[:at] + s[at + 1 :] != first[:at] + first[at + 1 :]
                                       or s[at] is None for s in shapes):
        return None
    return array((*first[:at], sum(s[at] for s in shapes), *first[at + 1 :]))


def array_method(name: str, owner: Any, args: list) -> Any:
    """`x.reshape(...)`, `x.astype(...)`, `np.expand_dims(x, axis)`: the resulting array."""
    shape = shape_of(owner)
    if name == "expand_dims" and shape is None and args and _int(args[0]) == 0:
        return new_first_axis("np.expand_dims(x, 0)")
    kept_rows = _kept_rows_shape(name, shape, args)
    if kept_rows is not None and (most_rows(owner) is not None or shape is None and rows_of(owner) is not None):
        return _rows_kept(owner, owner.cls, kept_rows or None)
    if name == "reshape" and (shape is None or _target(args) is None):
        return (reshaped(args) if shape is None else None) or first_rows(args)
    if shape is None or type(owner) is not Inst:
        return None
    if name in ("astype", "copy"):
        return with_shape(owner, shape)
    if name in ("flatten", "ravel"):
        return with_shape(owner, (_prod(shape),))
    if name == "reshape":
        return with_shape(owner, _reshape(shape, _target(args)))
    if name == "expand_dims" and args:
        axis = _int(args[0])
        if axis is None:
            return None
        dims = list(shape)
        dims.insert(axis if axis >= 0 else len(dims) + axis + 1, 1)
        return with_shape(owner, tuple(dims))
    return None


def _target(args: list) -> tuple | None:
    """The literal shape a `reshape` is given, one tuple or several ints (-1 allowed); None otherwise."""
    target = _dims(args[0]) if len(args) == 1 else None
    if target is None and len(args) == 1 and type(args[0]) is Const and isinstance(args[0].value, (list, tuple)):
        target = tuple(args[0].value) if all(type(d) is int for d in args[0].value) else None
    if target is None and len(args) > 1:
        dims = [_int(a) for a in args]
        target = tuple(dims) if all(d is not None for d in dims) else None
    if target is None and len(args) == 1 and _int(args[0]) is not None:
        target = (_int(args[0]),)
    return target


def _sides(args: list) -> list:
    """The sides a `reshape` is given, one value each: its arguments, or the items of the one tuple or list
    it is given (`reshape((len(x), 28, 28))`, `reshape([1, n])`)."""
    if len(args) == 1 and type(args[0]) is Seq:
        return list(args[0].items)
    if len(args) == 1 and type(args[0]) is Const and isinstance(args[0].value, (list, tuple)):
        return [Const(d) for d in args[0].value]
    return args


def first_rows(args: list) -> Inst | None:
    """`x.reshape([1, x.shape[0]])`: a reshape to a literal count of rows, the other sides not literal: an array
    of that many rows (meta "rows", read by `rows_of`), the rest of its shape unknown; None otherwise."""
    sides = _sides(args)
    rows = _int(sides[0]) if sides else None
    if rows is None or rows <= 0:
        return None
    return Inst(ARRAY, "operator", {"rows": rows, "shape_prov": "inferred",
                                    "shape_note": f"reshaped to {rows} row{'s' if rows > 1 else ''}"})


def reshaped(args: list) -> Inst | None:
    """`x.reshape((60000, 28, 28, 1))` of a value whose shape is not known (`np.fromfile(...)`, bytes
    read from a file): a literal shape of positive sides, without -1, is the whole result's (any other
    reshape fails); None where the shape given is not such."""
    target = _target(args)
    if target is None or not target or any(d <= 0 for d in target):
        return None
    return array(target)


def _rows_kept(value: Any, cls: str = ARRAY, shape: tuple | None = None) -> Inst | None:
    """A value of *cls* of the rows *value* has at most (`most_rows`), of *shape* (first axis None)
    where known; None where nothing bounds its rows."""
    rows = most_rows(value)
    exact = value.meta.get("rows") if rows is None and type(value) is Inst and shape_of(value) is None else None
    if rows is None and type(exact) is not int:
        return None
    meta = {"most_rows": rows} if rows is not None else {"rows": exact}  # `X[idx] / 127.5`: the rows drawn
    meta.update({k: value.meta[k] for k in ("shape_prov", "shape_note", "options") if k in value.meta})
    if shape and rows is None:
        shape = (exact, *shape[1:])
    return Inst(cls, "operator", {**meta, "shape": shape} if shape else meta)


def _kept_rows_shape(name: str, shape: tuple | None, args: list) -> tuple | None:
    """The shape (`()` where unknown) an array method that keeps the first axis gives: `astype`,
    `copy`, or a `reshape` to `len(x)` or `x.shape[0]` rows (`ROWS`: any value whose rows are
    bounded) or to `-1` rows of *shape*'s elements per row; None for another method or reshape."""
    if name in ("astype", "copy"):
        return shape or ()
    if name != "reshape" or not args:
        return None
    target = [a.value if type(a) is Const else a for a in _sides(args)]
    rest = tuple(d for d in target[1:] if type(d) is int and d > 0)
    known = len(rest) == len(target) - 1
    if target and type(target[0]) is Inst and target[0].cls == ROWS:
        return (None, *rest) if known else ()
    per_row = _prod(tuple(shape[1:])) if shape else None
    if target and target[0] == -1 and known and per_row is not None and math.prod(rest) == per_row:
        return (None, *rest)
    return None


def _prod(shape: tuple) -> int | None:
    return None if any(d is None for d in shape) else math.prod(shape)


def _reshape(shape: tuple, target: tuple | None) -> tuple | None:
    if target is None:
        return None
    total = _prod(shape)
    if target.count(-1) == 1 and total is not None:
        known = -math.prod(target)
        if known <= 0 or total % known:
            return None
        return tuple(total // known if d == -1 else d for d in target)
    if -1 in target or (total is not None and math.prod(target) != total):
        return None
    return target


NEW_AXIS, REST = "new axis", "rest"  # `None` and `...` in an index


@dataclass(frozen=True)
class Cut:
    """One slice of an index, `a:b:c`: its literal bounds (None where absent or not literal;
    `literal` False when some bound is not), or `span` for `i:i + k` (k items, i unknown)."""

    lower: int | None = None
    upper: int | None = None
    step: int | None = None
    literal: bool = True
    span: int | None = None
    below: int | None = None  # `:n` with n a bounded count (`ROWS`): at most that many items

    def most(self) -> int | None:
        """Items the slice keeps at most of an axis of any length, where its literal bounds say so
        (`:64`, `-500:`, `7000:9000`, with a positive step) or its end is bounded (`:n`, n at most
        64); None where they do not (`7000:`, `:-1`)."""
        if self.below is not None:
            return self.below
        lower, upper, step = self.lower, self.upper, self.step or 1
        if not self.literal or self.span is not None or step < 0:
            return None
        if (lower is None or lower >= 0) and upper is not None and upper >= 0:
            width = upper - (lower or 0)
        elif lower is not None and lower < 0 and (upper is None or upper < 0):
            width = (upper or 0) - lower
        else:
            return None
        return len(range(0, max(width, 0), step))

    def length(self, dim: int | None) -> int | None:
        """Items the slice keeps of an axis of *dim* items (None: unknown)."""
        if self.span is not None:
            return self.span if dim is None else min(self.span, dim)
        if self.literal and (self.lower, self.upper, self.step) == (None, None, None):
            return dim  # `:`
        if not self.literal or dim is None or self.step == 0:
            return None
        return len(range(dim)[slice(self.lower, self.upper, self.step)])


def cut(lower: Any, upper: Any, step: Any, span: int | None = None) -> Cut:
    """A slice from its bounds' values (None where a bound is absent); `:n` with n a bounded count
    (`ROWS`) keeps at most its bound (`Cut.below`)."""
    start, stop, every = bounds = [None if part is None else _int(part) for part in (lower, upper, step)]
    literal = all(b is not None or part is None for b, part in zip(bounds, (lower, upper, step)))
    end = at_most(upper) if type(upper) is Inst and lower in (None, Const(0)) and step in (None, Const(1)) else None
    return Cut(start, stop, every, literal=literal, span=span if span is not None and span >= 0 else None,
               below=end if end is not None and end >= 0 else None)


def subscript(owner: Inst, parts: list) -> Inst:
    """`x[...]` on an array or tensor of known shape: each part a `Cut`, NEW_AXIS, REST or an
    index value (a literal int drops its axis; anything else, e.g. a mask, leaves the shape unknown).
    A slice whose bounds are not literal keeps the other axes with that one unknown."""
    shape = shape_of(owner)
    unknown = Inst(owner.cls, "operator")
    axes = [p for p in parts if p is not NEW_AXIS and p is not REST]
    if shape is None and parts and parts[0] is NEW_AXIS:
        return new_first_axis("x[None]", owner.cls)
    if shape is None or parts.count(REST) > 1 or len(axes) > len(shape):
        return taken(owner, parts, owner.cls) or sliced(owner, parts, owner.cls) or unknown
    dims, out, at = list(shape), [], 0
    for i, part in enumerate(parts):
        if part is NEW_AXIS:
            out.append(1)
        elif part is REST:
            take = len(dims) - at - sum(1 for p in parts[i + 1 :] if p is not NEW_AXIS and p is not REST)
            out.extend(dims[at : at + take])
            at += take
        elif type(part) is Cut:
            out.append(part.length(dims[at]))
            at += 1
        elif _int(part) is not None and (dims[at] is None or -dims[at] <= part.value < dims[at]):
            at += 1
        elif (drawn_rows := row_numbers(part)) is not None:
            out.append(drawn_rows)  # `x[idx]`: as many rows as idx holds row numbers
            at += 1
        else:
            return unknown
    found = with_shape(owner, (*out, *dims[at:]))
    bounded = sliced(owner, parts) if out and out[0] is None else None
    if bounded is not None:  # `x[:64]` of rows unknown, each row's shape known
        found.meta.update(most_rows=bounded.meta["most_rows"], shape_prov="inferred", shape_note=bounded.meta["shape_note"])
    drawn = [p for p in parts if row_numbers(p) is not None]
    if drawn:
        found.meta.update(_drawn_meta(drawn[0]))
    if owner.meta.get("index") and len(found.meta.get("shape") or ()) == 1:
        found.meta["index"] = True  # `permutation(n)[:batch]`: still row numbers
    return found


def row_numbers(part: Any) -> int | None:
    """How many row numbers an index part holds: a 1-D index array's (`_index`, `taken`) length;
    None for anything else (a mask, values drawn from data, an index of unknown length)."""
    if type(part) is not Inst or not part.meta.get("index") or len(shape_of(part) or (None,)) != 1:
        return None
    return rows_of(part)


def _drawn_meta(index: Inst) -> dict:
    """What indexing with *index* (`row_numbers`) says of the rows drawn: how many, and what set them
    (the default of a command-line option, kept as meta "options", or the code itself)."""
    rows, options = row_numbers(index), index.meta.get("options", ())
    how = f"the default of `{set_as(options[0])}`, which the command line can change" if options else "set in the code"
    meta = {"rows": rows, "shape_prov": "inferred", "shape_note": f"{rows:,} rows drawn by an index array ({how})"}
    return {**meta, "options": options} if options else meta


def rowless(value: Any) -> bool:
    """Whether *value* may be what a helper returns as arrays or batches of rows not known (`return
    X[idx]`, `return np.array(hr) / 127.5, np.array(lr) / 127.5` where the size drawn is a parameter):
    unknown, or such an array, alone or in a tuple of them; not another value (a model, a literal)."""
    return all(v is None or type(v) is Inst and v.cls in (ARRAY, HOST_BATCH) and rows_of(v) is None
               and most_rows(v) is None for v in items_of(value))


def taken(owner: Any, parts: list, cls: str = ARRAY) -> Inst | None:
    """`x[idx]`, `x[i:i + k]` of a value of unknown shape (*owner*, None where not known at all): as
    many rows as the index array holds (`row_numbers`) or the slice spans (the last maybe fewer), the
    rest of its shape unknown; a slice of row numbers is row numbers still (`perm[i:i + k]`). None for
    any other index (a mask, literal bounds: `sliced`)."""
    first = parts[0] if len(parts) == 1 or parts and all(type(p) is Cut for p in parts[1:]) else None
    if type(first) is Cut and first.span is not None:
        meta: dict = {"rows": first.span, "shape_prov": "inferred",
                      "shape_note": f"a slice of {first.span:,} rows (the last maybe fewer)"}
    elif type(first) is Inst and row_numbers(first) is not None:
        meta = _drawn_meta(first)
    else:
        return None
    if type(owner) is Inst and owner.meta.get("index") and len(parts) == 1:
        meta["index"] = True
    return Inst(cls, "operator", meta)


def drawn(value: Any, line: int) -> Inst | None:
    """What `next(gen)` (or `for batch in gen`) at *line* gives from a Python generator, or a Keras
    image iterator, that reads, decodes, tokenises or augments data per item (its `host` meta, hostwork.py): a
    batch known by that work and the line drawing it, prepared on the calling thread, and by its size
    where the generator shows it (meta "data", the generator's: `Data.batch`); from a Python generator
    that does no such work, an array of the rows its yields show (meta "drawn": each part of a yielded
    tuple has them); None for other values."""
    if type(value) is Inst and value.cls in (PY_GENERATOR, FLOW_ITERATOR) and "host" in value.meta:
        data = value.meta.get("data")
        meta = {"host": value.meta["host"], "line": line, **({"data": data} if data is not None else {})}
        return Inst(HOST_BATCH, "next", meta)
    data = value.meta.get("data") if type(value) is Inst and value.cls == PY_GENERATOR else None
    if data is not None and data.batch is not None:  # `x, y = next(batches(X, y, 32))`: each part of those rows
        return Inst(ARRAY, "next", {"rows": data.batch, "drawn": True, "shape_prov": "inferred", "shape_note": data.batch_note})
    return None


def decoded(host: str, line: int, walk: int) -> Inst:
    """What a list comprehension at *line* inside a loop gives where its element reads and decodes
    a file per item (*host*, hostwork.py): a batch prepared on the spot, on the calling thread, in
    the function walk *walk* (its lines are that function's: `here`)."""
    return Inst(HOST_BATCH, "comprehension", {"host": host, "line": line, "walk": walk})


def here(value: Any, walk: int) -> bool:
    """Whether a host batch was prepared in the function walk *walk* (or drawn where it is used);
    one a called function made returns to its caller through `prepared`, at the call's line."""
    return type(value) is Inst and value.meta.get("walk", walk) == walk


#: NumPy calls that give their first argument's rows back, converted, stacked, cast or reshaped.
_KEEPS_ROWS = frozenset({
    "numpy.array", "numpy.asarray", "numpy.asanyarray", "numpy.ascontiguousarray", "numpy.stack",
    "numpy.concatenate", "numpy.vstack", "numpy.expand_dims", "numpy.reshape", "numpy.transpose",
    "numpy.squeeze", "numpy.float32",
})
#: Array methods that give the same rows back, cast or reshaped.
_KEEPING_METHODS = frozenset({"astype", "copy", "reshape", "transpose", "squeeze", "swapaxes"})


def kept(value: Any, path: str | None = None, method: str | None = None) -> Inst | None:
    """The host batch *value* still is after the NumPy call *path* or the array method *method* on it
    (`np.array(batch).astype(np.float32)`), or after a slice or scalar arithmetic (neither given);
    None where *value* is no host batch or the call makes something else of it."""
    if type(value) is Inst and value.cls == LIST and "host" in value.meta:  # a list a loop filled with decoded items
        meta = {key: value.meta[key] for key in ("host", "line", "walk")}
        if value.meta.get("length_bound") == "exact":  # `images.append(img)` batch_size times: a batch of that many
            rows = value.meta["length"]
            meta.update(rows=rows, data=Data(None, None, rows, batch_note=f"the {fmt_counted(rows, 'item')} a loop decodes with {meta['host']}"))
        value = Inst(HOST_BATCH, "list", meta)
    if type(value) is not Inst or value.cls != HOST_BATCH:
        return None
    if path is not None and path not in _KEEPS_ROWS or method is not None and method not in _KEEPING_METHODS:
        return None
    return value


def filled_in(value: Any, host: str, line: int, walk: int, drawn: bool) -> Inst | None:
    """What an array preallocated in NumPy (*value*) holds once a loop sets its items one by one after
    a decode (*host*, at *line*, in the function walk *walk*): `batch[j] = imread(p)` into `np.zeros(...)`.
    Where that loop runs inside another loop of the walk (*drawn*: the steps'), a batch decoded item by
    item on the spot, as a list a loop appends to is (`kept`), of the array's rows and shape where
    known; else the array still, noted as filled by that decode (meta "filled"), which a caller calling
    the function in a loop draws as a batch (`prepared`). Meta "before": the array as it was, which a
    path skipping the loop keeps (values.merge). None where *value* is no such array."""
    if type(value) is Inst and value.cls == HOST_BATCH:
        return value
    if type(value) is Inst and "filled" in value.meta:
        if not drawn:
            return value
        value = value.meta["before"]
    if type(value) is not Inst or value.cls != ARRAY:
        return None
    if not drawn:
        return Inst(ARRAY, value.how, {**value.meta, "filled": host, "before": value})
    meta: dict = {"host": host, "line": line, "walk": walk, "before": value}
    shape = shape_of(value)
    if shape and type(shape[0]) is int:
        rows = shape[0]
        note = f"the {fmt_counted(rows, 'item')} a loop decodes with {host}"
        meta.update(rows=rows, data=Data(None, tuple(shape[1:]), rows, batch_note=note))
    return Inst(HOST_BATCH, "filled", meta)


def prepared(value: Any, host: str, line: int) -> Any:
    """What a call at *line*, inside a loop, of a plain function that reads, decodes or augments data
    per item in its own loops (*host*, hostwork.py) gives: a batch prepared on the spot, on the
    calling thread, as `next(gen)` of a decoding generator does (`drawn`). What it returns stays
    as known where known; the unknown parts, alone or in a tuple, are batches known only by that
    work, or known by their rows alone (`np.array(images)` of a list filled in the loop, `rows_of`:
    a batch of that size), or an array it preallocated and filled item by item (`filled_in`). A
    generator's call is not a batch (it is drawn from later), nor is any other value of known shape."""
    if type(value) is Seq:
        return Seq(tuple(prepared(item, host, line) for item in value.items))
    filled = type(value) is Inst and value.cls == ARRAY and "filled" in value.meta
    batch = filled_in(value, value.meta["filled"], line, 0, True) if filled else kept(value)
    if batch is not None:  # decoded item by item in the function: drawn here, at the call (of its rows, where known)
        data = batch.meta.get("data")
        return Inst(HOST_BATCH, "call", {"host": host, "line": line, **({"data": data} if data is not None else {})})
    if value is None or value is OPAQUE:  # (OPAQUE: a list its comprehension decodes, `[imread(p) for p in ps]`)
        return Inst(HOST_BATCH, "call", {"host": host, "line": line})
    rows = value.meta.get("rows") if type(value) is Inst and shape_of(value) is None else None
    if type(rows) is int:
        data = Data(None, None, rows, batch_note=f"the {fmt_counted(rows, 'item')} a call decodes with {host}")
        return Inst(HOST_BATCH, "call", {"host": host, "line": line, "data": data})
    return value


def element(value: Any) -> Inst | None:
    """What `for row in x` binds for an array or tensor of known shape, `for x in ds` for a batched
    data set whose elements are single tensors (`from_tensor_slices(x).batch(b)`), and `for a in items`
    for a list comprehension of arrays of one known shape."""
    if type(value) is Inst and value.cls in (ARRAY, TENSOR):
        shape = shape_of(value)
        if shape:
            return with_shape(value, shape[1:])
    if type(value) is Inst and value.cls == LIST:  # a list comprehension's items (`listed`)
        return value.meta.get("item")
    data = value.meta.get("data") if type(value) is Inst and value.cls == DATASET else None
    return _one_batch(data) if data is not None and data.whole else None


def batch_parts(value: Any, count: int) -> Seq | None:
    """What `for x, y in ds` binds over a batched data set of (x, y) pairs: x a tensor of one batch
    (`.batch(b)`: b samples, the last batch maybe fewer) of the per-sample shape, the rest unknown."""
    if type(value) is not Inst or value.cls != DATASET:
        return None
    data = value.meta.get("data")
    x = _one_batch(data) if data is not None and not data.whole else None
    return None if x is None else Seq((x, *([None] * (count - 1))))


def _one_batch(data: Data) -> Inst | None:
    """A tensor of one batch of *data* (the last batch maybe fewer), where its batch is known: of the
    per-sample shape where that is known, else of those rows alone (a `map` hides the shape, not the batch)."""
    if data.batch is None:
        return None
    note = f"one batch of the data set ({data.batch} samples, the last maybe fewer)"
    if data.shape is None:
        return Inst(TENSOR, "element", {"rows": data.batch, "shape_prov": "inferred", "shape_note": note})
    return Inst(TENSOR, "element", {"shape": (data.batch, *data.shape), "shape_prov": "inferred", "shape_note": note})


def elementwise(cls: str, *operands: Any) -> Inst:
    """`a + b`, `np.where(c, a, b)` and the like: the operands' shapes broadcast (NumPy's rules,
    a scalar literal has shape ()); the result is shaped as the operand of most dimensions."""
    shapes = [s for s in (_operand_shape(value) for value in operands) if s is not None]
    shape = broadcast(shapes) if len(shapes) == len(operands) else None
    shaped = [value for value in operands if type(value) is Inst]
    if shape is None and len(shaped) == 1 and all(_operand_shape(v) == () for v in operands if v is not shaped[0]):
        return _rows_kept(shaped[0], cls) or Inst(cls, "operator")  # `x[:5000] / 255.`: the same rows
    if shape is None or not shaped:
        return Inst(cls, "operator")
    return with_shape(max(shaped, key=lambda value: len(shape_of(value) or ())), shape)


def broadcast(shapes: list[tuple]) -> tuple | None:
    """The shape NumPy broadcasting gives *shapes* (None where an axis is unknown or they clash)."""
    out: list = []
    for axis in range(1, max(map(len, shapes), default=0) + 1):
        dims = {shape[-axis] for shape in shapes if len(shape) >= axis} - {1}
        if len(dims) > 1 or None in dims:
            return None
        out.append(dims.pop() if dims else 1)
    return tuple(reversed(out))


def _operand_shape(value: Any) -> tuple | None:
    if type(value) is Const and type(value.value) in (int, float, bool):
        return ()
    return shape_of(value)


def iterations(value: Any) -> tuple[int | None, bool]:
    """(trips, at most) of `for item in value` over a data set, an array of known length or a
    list filled by `append` in loops of known length."""
    if type(value) is Inst and value.cls == LIST:
        return value.meta.get("length"), value.meta.get("length_bound") == "upper"
    if type(value) is Inst and value.cls == DATASET:
        data = value.meta.get("data")
        if data is None or data.forever or data.samples is None:
            return None, False
        return (-(-data.samples // data.batch) if data.batch else data.samples), data.upper
    rows = rows_of(value)  # (`for path in paths[i:i + k]`: the k rows of a slice)
    return (rows, False) if type(rows) is int else (None, False)


def listed(trips: int | None, upper: bool, item: Any) -> Any:
    """`[f(v) for v in it]` with no condition: a list of as many items as the loop's *trips* (exactly,
    unless *upper*), each an array or tensor of *item*'s shape where that is known (`element` reads it);
    unknown (OPAQUE) where the trips are not known."""
    if trips is None:
        return OPAQUE
    meta: dict = {"length": trips, "length_bound": "upper" if upper else "exact"}
    if type(item) is Inst and item.cls in (ARRAY, TENSOR) and shape_of(item):
        meta["item"] = item
    return Inst(LIST, "comprehension", meta)


def appended(value: Any, count: int | None, upper: bool) -> Inst | None:
    """A list after `value.append(...)` runs *count* times (None: unknown; *upper*: at most): its
    length follows where *value* is a literal list or such a filled list, else None (unknown)."""
    if type(value) is Const and value is not OPAQUE and type(value.value) is list:
        length, bound = len(value.value), "exact"
    elif type(value) is Inst and value.cls == LIST and value.meta.get("length") is not None:
        length, bound = value.meta["length"], value.meta["length_bound"]
    else:
        return None
    if count is None:
        return None
    return Inst(LIST, "append", {"length": length + count, "length_bound": "upper" if upper else bound})


def flow_data(method: str, named: dict) -> Data | None:
    """The batches an `ImageDataGenerator` flow yields (`flow_from_directory(batch_size=2,
    target_size=(256, 256), color_mode="grayscale")`): its batch where `batch_size` is a literal or
    left to Keras' default (32), each image's shape where the directory flows' `target_size` and
    `color_mode` are; how many images it holds is not followed. None where the batch is not known."""
    given = "batch_size" in named  # passed, maybe as a value not known here (a parameter)
    batch = _int(named["batch_size"]) if given else 32
    if batch is None or batch <= 0:
        return None
    how = f"batch_size={batch}" if given else "Keras' default batch_size=32"
    shape = None
    if method in ("flow_from_directory", "flow_from_dataframe"):
        size = _dims(named.get("target_size", Const((256, 256))))
        mode = named.get("color_mode", Const("rgb"))
        channels = _CHANNELS.get(mode.value) if type(mode) is Const else None
        shape = (*size, channels) if size is not None and len(size) == 2 and channels else None
    note = f"an ImageDataGenerator.{method} iterator: how many images it holds is not known statically"
    return Data(None, shape, batch, note=note, batch_note=f"`{method}({how})`")


def unsized_generator(value: Any) -> bool:
    """Whether *value* is what a generator function gives whose batches are not known."""
    return type(value) is Inst and value.cls == PY_GENERATOR and "data" not in value.meta


def unsized_dataset(value: Any, unknown: bool = False) -> bool:
    """Whether *value*, alone or in a tuple (`return ds, len(x) // batch_size`), holds a tf.data pipeline
    whose elements per pass are not known (`elements`), or, with *unknown*, a value not known at all."""
    return any(v is None and unknown or type(v) is Inst and v.cls == DATASET and elements(v.meta.get("data")) is None
               for v in items_of(value))


def drawn_data(value: Any) -> Data | None:
    """The batches a loop over *value* draws, where it is a Keras image iterator or a Python
    generator (a `zip` of iterators included) whose batch is known."""
    if type(value) is Inst and value.cls in (FLOW_ITERATOR, PY_GENERATOR):
        data = value.meta.get("data")
        return data if data is not None and data.batch is not None else None
    return None


def zipped(values: list) -> Inst | None:
    """`zip(images, masks)` of iterators of one known batch (image and mask flows with one seed): a
    Python iterator drawing one batch of each per step, so batches of that size, where the first
    decodes files per batch that work too (`host`); `zip(a, b)` of arrays of known rows: as many
    pairs as the fewest rows (a `LIST` of that length, `iterations`); None for other values."""
    rows = [r for r in map(rows_of, values) if type(r) is int]
    if values and len(rows) == len(values):  # `zip(batch_a, batch_b)` of arrays of known rows: the fewest
        return Inst(LIST, "zip", {"length": min(rows), "length_bound": "exact"})
    drawn = [data for data in map(drawn_data, values) if data is not None]
    if not drawn or len(drawn) != len(values) or len({data.batch for data in drawn}) != 1:
        return None
    first = drawn[0]
    data = Data(None, None, first.batch, note="a zip of iterators: how many batches it yields is not known",
                batch_note=first.batch_note)
    host = next((value.meta["host"] for value in values if "host" in value.meta), None)
    return Inst(PY_GENERATOR, "zip", {"data": data, **({"host": host} if host else {})})


def generator(yields: list, drawn: list | None = None) -> Inst:
    """What calling a generator function gives: its batches' size where every `yield` shows the
    same first dimension (`yield x[i:i + 32], y[i:i + 32]`, `yield np.zeros((16, 416, 416, 3)), ...`);
    how many it yields is not known (it may loop forever)."""
    found = _shared_batch(yields)
    if found is None:
        return _drawn_generator(drawn or [])
    batch, sample = found
    data = Data(None, sample, batch, note="a Python generator: how many batches it yields is not known",
                batch_note=f"the generator yields batches of {batch}")
    return Inst(PY_GENERATOR, "factory", {"data": data})


def indexed_batches(returned: list) -> Data | None:
    """The batches a `keras.utils.Sequence` gives Keras, one per `__getitem__(i)`: where every value
    its `return`s give shows the same first dimension (as a generator's `yield`s, `_yield_batch`),
    that batch; None otherwise. How many it gives is its `__len__`, not read here."""
    found = _shared_batch(returned)
    if found is None:
        return None
    batch, sample = found
    return Data(None, sample, batch, note="a keras.utils.Sequence: its length is not read",
                batch_note=f"the Sequence's __getitem__ returns batches of {batch}")


def _shared_batch(values: list) -> tuple[int, tuple | None] | None:
    """The batch every one of *values* (a generator's yields, a Sequence's returns) shows, with the
    per-sample shape of the first array where its first dimension is that batch; None where they
    show none or differ."""
    batches = {_yield_batch(value) for value in values}
    batch = batches.pop() if len(batches) == 1 else None
    if batch is None:
        return None
    first = values[0].items[0] if type(values[0]) is Seq and values[0].items else values[0]
    shape = shape_of(first)
    return batch, tuple(shape[1:]) if shape and shape[0] == batch else None


def _yield_batch(value: Any) -> int | None:
    """The batch one `yield` gives: the first dimension its arrays share, looked for in the inputs,
    the targets and the lists of a multi-input model alike (`yield [b0, b1, *y_true], np.zeros(n)`:
    Keras needs every array of a batch to have its rows); arrays of unknown shape say nothing, nor do
    empty ones (`outputs = []`: no targets, for a model whose losses are layers of its own), and two
    known first dimensions that differ make it unknown (None)."""
    todo, rows = [value], set()
    while todo:
        item = todo.pop()
        if type(item) is Seq:
            todo.extend(item.items)
            continue
        count = rows_of(item)  # from its shape, or the rows of a list filled by `append` (`np.array(images)`)
        if count:
            rows.add(count)
    first = rows.pop() if len(rows) == 1 else None
    return first if type(first) is int else None


def _drawn_generator(drawn: list[Data]) -> Inst:
    """A generator whose yields show no batch but that yields once per batch it draws from Keras
    image iterators of one known batch size (`for img, mask in zip(images, masks): yield ...`)."""
    batches = {data.batch for data in drawn}
    if len(batches) != 1:
        return Inst(PY_GENERATOR, "factory")
    first = drawn[0]
    note = "a Python generator: how many batches it yields is not known"
    data = Data(None, None, first.batch, note=note,  # what it yields of each batch is its own
                batch_note=f"the generator yields one batch per batch drawn from {first.batch_note}")
    return Inst(PY_GENERATOR, "factory", {"data": data})


# -- data sets -------------------------------------------------------------------------------
def keyed(items: dict[str, Any]) -> Inst:
    return Inst(KEYED, "factory", {"items": items})


def key(owner: Inst, index: Any) -> Any:
    """`owner["train"]` of a KEYED value; None for a key not known."""
    return owner.meta["items"].get(index.value) if type(index) is Const and isinstance(index.value, str) else None


def keras_dataset(api: str) -> Any:
    """`keras.datasets.<name>.load_data()`: ((x_train, y_train), (x_test, y_test)) from the table."""
    name = api.split(".")[-2]
    parts = []
    for split in ("train", "test"):
        found = worktables.keras_split(name, split)
        if found is None:
            return None
        note = f"keras.datasets.{name} {split}: {found.source}"
        sample = found.shape if found.shape is not None else (None,)
        x = array((found.samples, *sample), "table", note)
        y = array((found.samples,), "table", note)
        parts.append(Seq((x, y)))
    return Seq(tuple(parts))


def train_test_split(args: list, keywords: list) -> Seq | None:
    """`train_test_split(*arrays, test_size=..., train_size=...)`: (a_train, a_test, b_train, ...),
    sized as scikit-learn sizes them (test: ceil(fraction x n), train: the rest; default test 0.25)."""
    arrays_ = [value for starred, value in args if not starred]
    if not arrays_ or len(arrays_) != len(args):
        return None
    named = {name: value for name, value in keywords if name is not None}
    shapes = [shape_of(a) for a in arrays_]
    n = next((s[0] for s in shapes if s and s[0] is not None), None)
    test, train = _split_size(named.get("test_size"), n, math.ceil), _split_size(named.get("train_size"), n, math.floor)
    if "test_size" not in named and "train_size" not in named:
        test = _split_size(Const(0.25), n, math.ceil)
    if test is None and train is not None and n is not None and "test_size" not in named:
        test = n - train
    if train is None and test is not None and n is not None and "train_size" not in named:
        train = n - test
    parts = []
    for value, shape in zip(arrays_, shapes):
        source = shape_source(value)[1]
        note = f"train_test_split of {n} samples" + (f" ({source})" if source else "")
        for size in (train, test):
            known = shape is not None and len(shape) > 0 and size is not None
            parts.append(array((size, *shape[1:]), "inferred", note) if known else Inst(ARRAY, "operator"))
    return Seq(tuple(parts))


def _split_size(value: Any, n: int | None, rounding) -> int | None:
    """A `test_size` / `train_size`: a count, or a fraction of *n* samples."""
    if type(value) is not Const or value.value is None or isinstance(value.value, bool):
        return None
    if type(value.value) is int:
        return value.value
    if type(value.value) is float and 0 < value.value < 1 and n is not None:
        return int(rounding(value.value * n))
    return None


_SPLIT = re.compile(r"^(\w+)(?:\[(-?\d*)(%?):(-?\d*)(%?)\])?$")


def tfds_load(args: list, keywords: list) -> Any:
    """`tfds.load(name, split=...)`: a dataset (or a tuple of them) of the table's size, marked batched
    (`BATCHED`) where it is loaded in batches (`batch_size=`, their size not followed)."""
    positional = [value for starred, value in args if not starred]
    named = {name: value for name, value in keywords if name is not None}
    name = positional[0] if positional else named.get("name")
    split = named.get("split", positional[1] if len(positional) > 1 else None)
    if type(name) is not Const or not isinstance(name.value, str):
        return None
    batched = named.get("batch_size", Const(None)) != Const(None)
    base = name.value.partition(":")[0]
    found: Any
    if split is None and "split" not in named and len(positional) < 2:  # every split, by name
        splits = worktables.tfds_splits(base)
        found = keyed({s: _tfds_split(base, s, batched) for s in splits}) if splits else None
    elif type(split) is Const and isinstance(split.value, (list, tuple)):
        found = Seq(tuple(_tfds_split(base, s, batched) for s in split.value))
    elif type(split) is Const and isinstance(split.value, str):
        found = _tfds_split(base, split.value, batched)
    else:
        return None
    with_info = named.get("with_info")
    if type(with_info) is Const and with_info.value is True:
        return Seq((found, None))
    return found


def tfds_as_dataset(owner: Inst, args: list, keywords: list) -> Any:
    """A `tfds.builder(name)`'s `as_dataset(split, ...)`: what `tfds.load(name, split)` gives, where the
    table knows it; else, for one split (not a list of them, nor every split: no `split`), a dataset
    of unknown size."""
    found = tfds_load([(False, owner.meta.get("name")), *args], keywords)
    positional = [value for starred, value in args if not starred]
    split = dict(keywords).get("split", positional[0] if positional else None)
    one = split is not None and not (type(split) is Const and isinstance(split.value, (list, tuple)))
    return found if found is not None or not one else Inst(DATASET, "factory")


def tfds_split_samples(name: str, split: Any) -> tuple[int, worktables.Split] | None:
    """How many examples a TFDS split gives (sliced too: `train[:70%]`, `train[1000:]`), with the
    table's row of the whole split; None for a split not tabled."""
    match = _SPLIT.match(split) if isinstance(split, str) else None
    if match is None:
        return None
    table = worktables.tfds_split(name, match.group(1))
    if table is None:
        return None
    samples = table.samples
    if match.group(2) is not None and match.group(2) != "" or match.group(4):
        lo, hi = match.group(2), match.group(4)
        percent = bool(match.group(3) or match.group(5))
        scale = (lambda v: samples * int(v) // 100) if percent else int
        start = scale(lo) if lo else 0
        stop = scale(hi) if hi else samples
        samples = len(range(samples)[start:stop])
    return samples, table


def _tfds_split(name: str, split: Any, batched: bool = False) -> Inst | None:
    found = tfds_split_samples(name, split)
    if found is None:
        return None
    samples, table = found
    note = f"tfds {name} {split}: {table.source}"
    data = Data(samples, table.shape, prov="table", note=note)
    return Inst(DATASET, "factory", {"data": data, BATCHED: True} if batched else {"data": data})


#: Datasets read from files: their batching and image size are literal, their size is not.
FROM_DIRECTORY = frozenset({
    "tensorflow.keras.utils.image_dataset_from_directory",
    "tensorflow.keras.utils.text_dataset_from_directory",
    "tensorflow.keras.utils.audio_dataset_from_directory",
})  # fmt: skip
_CHANNELS = {"rgb": 3, "grayscale": 1, "rgba": 4}


#: Where a pipeline's size is not known statically: its `.batch(n)` and `.take(n)` still are.
_UNSIZED = Data(None, None, note="a dataset read or generated at run time: its size is not known statically")


def is_dataset_source(api: str) -> bool:
    """A call that starts a tf.data pipeline: a `Dataset.*` factory, a reader class, `*_dataset*`."""
    leaf = api.rpartition(".")[2]
    return api in FROM_DIRECTORY or api.startswith(DATASET + ".") or (
        api.startswith("tensorflow.data.") and (leaf.endswith("Dataset") or leaf.startswith("make_")))


def dataset_source(api: str, named: dict, positional: list = ()) -> Data | None:
    """A pipeline's start: `from_tensor_slices`, `from_tensors`, `range` of literals (its
    `positional` arguments), `*_dataset_from_directory`, and readers or generators of unknown size
    (`_UNSIZED`)."""
    if api in FROM_DIRECTORY:
        batch = named.get("batch_size", Const(32))
        size = _int(batch) if type(batch) is Const and batch.value is not None else None
        shape = pixels = None
        if api.endswith("image_dataset_from_directory"):
            image = _dims(named.get("image_size", Const((256, 256))))
            mode = named.get("color_mode", Const("rgb"))
            channels = _CHANNELS.get(mode.value) if type(mode) is Const else None
            shape = (*image, channels) if image is not None and len(image) == 2 and channels else None
            pixels = shape[0] * shape[1] if shape is not None else None  # decoded and resized to image_size, each pass
        note = "files read at run time: the number of samples is not known statically"
        return Data(None, shape, batch=size, prov="inferred", note=note, decoded=pixels)
    leaf = api.rpartition(".")[2]
    if leaf == "from_tensor_slices":
        source = named.get("tensors")
        whole = type(source) is not Seq
        parts = None
        if type(source) is Seq and source.items:
            parts = tuple(tuple(part[1:]) if part else None for part in map(shape_of, source.items))
            source = source.items[0]  # (x, y): x's first axis
        shape = shape_of(source)
        if not shape or shape[0] is None:
            return replace(_UNSIZED, shape=tuple(shape[1:]) if shape else None, parts=parts)
        prov, note = shape_source(source)
        return Data(shape[0], tuple(shape[1:]), prov=prov, note=note, whole=whole, parts=parts)
    if leaf == "from_tensors":  # one element, whatever its shape
        return Data(1, shape_of(named.get("tensors")), prov="literal")
    if leaf == "range":
        bounds = [_int(v) for v in positional]
        if not 1 <= len(bounds) <= 3 or None in bounds or bounds[2:] == [0] or named:
            return None
        return Data(len(range(*bounds)), (), prov="literal")
    if leaf in ("from_generator", "list_files", "interleave", "load") or leaf.startswith("make_") or leaf.endswith("Dataset"):
        return _UNSIZED
    return None


def elements(data: Data | None) -> int | None:
    """Elements a pipeline yields per pass (batches once batched); None when unknown or endless."""
    if data is None or data.samples is None or data.forever:
        return None
    return -(-data.samples // data.batch) if data.batch else data.samples


def dataset_step(name: str, data: Data, named: dict) -> Data | None:
    """What a Dataset method does to the pipeline's size; None where it becomes unknown."""
    if name == "cache":  # decoded in the first pass only: not counted per pass
        return replace(data, decoded=None)
    if name in ("shuffle", "prefetch", "with_options", "apply", "ignore_errors"):
        return data
    if name in ("map", "flat_map"):
        return replace(data, shape=None, parts=None) if name == "map" else None
    if name == "filter":
        return replace(data, upper=True)
    if name in ("batch", "padded_batch"):
        size = _int(named.get("batch_size"))
        if data.batch is not None or size is None or size <= 0:
            return None
        drop = named.get("drop_remainder")  # the last, smaller batch left out: whole batches only
        if type(drop) is Const and drop.value is True and data.samples is not None:
            data = replace(data, samples=data.samples // size * size)
        return replace(data, batch=size) if name == "batch" else replace(data, batch=size, parts=None)  # (padded)
    if name == "unbatch":
        return replace(data, batch=None) if data.batch is not None else None
    if name in ("take", "skip"):
        count = _int(named.get("count"))
        if count is None:
            return None
        per = data.batch or 1
        if name == "take":
            if count < 0:
                return data
            samples = count * per if data.samples is None else min(data.samples, count * per)
            return replace(data, samples=samples, forever=False)
        if data.samples is None:
            return data  # unknown less some: still unknown, the batch kept
        return replace(data, samples=max(0, data.samples - count * per))
    if name == "repeat":
        count = named.get("count")
        n = _int(count) if count is not None else -1
        if n is None:
            return None
        if n < 0:
            return replace(data, forever=True)
        return replace(data, samples=None if data.samples is None else data.samples * n)
    return None
