"""TF1 input queues and iterators: the batch a graph built on `tf.train.batch` / `get_next()` reads each run.

`tf.train.batch([image, label], batch_size=32)` dequeues *batch_size* elements of the tensors it is
given each time the graph built on it runs (a `sess.run(train_op)` fed nothing): each tensor it returns
is symbolic (arrays.Sym) of the element's static shape per sample (what the code states: a tensor of
known shape, `image.set_shape([64, 64, 3])`, the `shapes` argument; a size it does not state None, a
shape it does not state unknown, so that the graph after it is a floor) and of that batch
(`Sym.batch`, which graphrun.py reads as the run's samples). An element's static shape follows it through
the ops between its decoding and the batch, as TF infers it (`static_result`, `static_part`, `static_scaled`):
ops that keep it (`tf.identity`, `cast`, a random flip, arithmetic with a number, a slice), and those that
give it literal sides (`resize_images` to a literal size, `crop_to_bounding_box`, `random_crop`, `reshape`). What the queue runners do before the
batch (reading and decoding files) runs on their own threads and is not priced here. A helper that
decodes and crops the element to sizes it is given (`read_images(queue, (321, 321))`, under
`if input_size is not None:`) is walked again for each call giving literal sizes (`static_given`), so
the element has that call's static shape. A queue's
`dequeue_many(n)` is such a batch of n elements of the shapes the queue was made with (`shapes=`). A TF1 iterator's
`get_next()` over a tf.data pipeline whose elements are one tensor of known per-sample shape
(`from_tensor_slices(x)`, batched) is such a tensor too, of the pipeline's batch; over one whose elements
are tuples of known parts (`from_tensor_slices((x, y))`), a tuple of such tensors; over one mapped by a
function of the file every `return` of which is a literal tuple (`map(parse)`, or
`apply(map_and_batch(parse, n))`, a map then a batch: mapped.py), a tuple of that many tensors of the
batch, their shapes unknown; over one mapped by a project function (or an instance's method) that, walked
on one element, returns one tensor of known static shape (a file decoded to stated channels, resized or
cropped to literal sides: `Resolver.mapped_static`), a tensor of that shape. `tf.shape(image)` of a tensor
whose static shape is known whole is that shape, as TF's shape inference folds it (`known_shape`).
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis import symops
from greenlint.analysis.arrays import TF_TENSORS, Data, Sym, is_sym, shape_of, subscript
from greenlint.analysis.values import OPAQUE, Const, Inst, Seq

#: The batching ops of TF1's input queues and the argument holding the tensors of one element.
BATCHES = {
    "tensorflow.compat.v1.train.batch": "tensors", "tensorflow.compat.v1.train.shuffle_batch": "tensors",
    "tensorflow.compat.v1.train.maybe_batch": "tensors", "tensorflow.compat.v1.train.maybe_shuffle_batch": "tensors",
    "tensorflow.compat.v1.train.batch_join": "tensors_list",
    "tensorflow.compat.v1.train.shuffle_batch_join": "tensors_list",
}  # fmt: skip
#: What a TF1 iterator over a tf.data pipeline is (meta "data": the pipeline's `arrays.Data`), and what
#: makes one: a function given the dataset, or the dataset's method of the same name.
ITERATOR = "tensorflow.compat.v1.data.Iterator"
ITERATOR_MAKERS = frozenset({"make_one_shot_iterator", "make_initializable_iterator"})
ITERATOR_FUNCTIONS = frozenset(f"tensorflow.compat.v1.data.{name}" for name in ITERATOR_MAKERS)
#: TF's queues (`tf.FIFOQueue(capacity, dtypes, shapes=[(None, 1)])`) and their methods dequeuing a batch.
QUEUES = frozenset({"tensorflow.queue.FIFOQueue", "tensorflow.queue.PaddingFIFOQueue", "tensorflow.queue.RandomShuffleQueue"})
DEQUEUES_MANY = frozenset({"dequeue_many", "dequeue_up_to"})
#: Where `set_shape` keeps a tensor's static shape, a size it leaves open None (read by `element_shape`).
STATIC_SHAPE = "static_shape"
#: Ops whose result has their input's static shape (the input's key), and those giving it a literal size.
_SHAPE_KEPT = {
    "identity": "input", "cast": "x", "to_float": "x", "convert_image_dtype": "image",
    "random_flip_left_right": "image", "random_flip_up_down": "image", "flip_left_right": "image",
    "flip_up_down": "image", "per_image_standardization": "image", "random_brightness": "image",
    "random_contrast": "image", "adjust_brightness": "image", "adjust_contrast": "image",
}  # fmt: skip
_RESIZES = frozenset({"resize", "resize_images", "resize_bilinear", "resize_nearest_neighbor", "resize_area",
                      "resize_bicubic"})
_CROPS = frozenset({"crop_to_bounding_box", "resize_image_with_crop_or_pad", "resize_with_crop_or_pad"})
#: Image decoders whose result is `[height, width, channels]`, its sides read from the file (None) and its
#: channels the literal `channels` given (0, the default, means the file's: not known).
_DECODERS = frozenset({"decode_jpeg", "decode_png"})


def set_shape(tensor: Inst, shape: Any) -> None:
    """`tensor.set_shape(shape)`: a symbolic tensor's per-sample sizes and batch where it had none, any
    other tensor's static shape kept for the queue it may be batched by (a size left open None)."""
    dims = symops.dims(shape)
    if not dims or -1 in dims:
        return
    if is_sym(tensor):
        sym = tensor.meta["sym"]
        sample = tuple(dims[1:])
        if sym.shape is not None and (len(sym.shape) != len(sample) or any(
                a is not None and b is not None and a != b for a, b in zip(sym.shape, sample))):
            return  # (TF raises on a clash)
        shape = sample if sym.shape is None else tuple(a if a is not None else b for a, b in zip(sym.shape, sample))
        tensor.meta["sym"] = Sym(shape, sym.input_shape, sym.params, sym.flops, sym.unknown, sym.owners, sym.layers,
                                 sym.sized, sym.outputs, sym.batch if sym.batch is not None else dims[0])
    else:
        tensor.meta[STATIC_SHAPE] = tuple(dims)


def image_op(api: str) -> bool:
    """Whether *api* is an op whose result's static shape `static_result` follows (`convert_image_dtype`,
    `resize_images`, `crop_to_bounding_box`): it returns one tensor, even where the catalog does not say so."""
    leaf = api.rpartition(".")[2]
    return api.startswith("tensorflow.") and (leaf in _SHAPE_KEPT or leaf in _RESIZES or leaf in _CROPS
                                              or leaf in _DECODERS or leaf == "random_crop")


def static_result(api: str, named: dict) -> tuple | None:
    """The static shape of what the TF op *api* returns given a tensor of static shape, where TF infers it
    from the input's and the literal sizes the call states: images resized or cropped (their channels the
    input's, a side the call does not state None), `random_crop` or `reshape` to a literal shape,
    an op that keeps its input's shape, an image decoded to a literal number of channels (its sides None);
    None where not known (`set_shape` is then the code's only word)."""
    if not api.startswith("tensorflow."):
        return None
    leaf = api.rpartition(".")[2]
    if leaf in _DECODERS:
        channels = named.get("channels")
        if type(channels) is Const and type(channels.value) is int and channels.value > 0:
            return None, None, channels.value
        return None
    if leaf in _SHAPE_KEPT:
        return _static(named.get(_SHAPE_KEPT[leaf]))
    if leaf == "random_crop" or leaf == "reshape":
        dims = symops.dims(named.get("size" if leaf == "random_crop" else "shape"))
        return tuple(dims) if dims and None not in dims and all(d > 0 for d in dims) else None
    if leaf in _RESIZES:
        sides = symops.dims(named.get("size"))
    elif leaf in _CROPS:
        sides = symops.dims(Seq((named.get("target_height", OPAQUE), named.get("target_width", OPAQUE))))
    else:
        return None
    shape = _static(named.get("images", named.get("image")))
    if sides is None or len(sides) != 2 or any(side is not None and side <= 0 for side in sides) \
            or shape is None or len(shape) not in (3, 4):
        return None
    return (*shape[:-3], *sides, shape[-1])


def static_part(owner: Any, parts: list, found: Any) -> Any:
    """`x[:, :w // 2, :]` of a tensor of static shape (*found*: the value the index gives otherwise): that
    value with the static shape of the part taken (arrays.subscript's axes, a size not known None)."""
    shape = owner.meta.get(STATIC_SHAPE) if type(owner) is Inst else None
    if shape is None or type(found) is not Inst or shape_of(found) is not None:
        return found
    part = shape_of(subscript(Inst(owner.cls, "operator", {"shape": shape}), parts))
    return Inst(found.cls, found.how, {**found.meta, STATIC_SHAPE: part}) if part is not None else found


def static_scaled(found: Any, left: Any, right: Any) -> Any:
    """`image * 2 - 1` of a tensor of static shape and a number (*found*: the value the operator gives
    otherwise): that value with the tensor's static shape."""
    tensor, number = (left, right) if type(right) is Const else (right, left)
    shape = tensor.meta.get(STATIC_SHAPE) if type(tensor) is Inst and type(number) is Const else None
    if shape is None or type(found) is not Inst or not isinstance(number.value, (int, float)):
        return found
    return Inst(found.cls, found.how, {**found.meta, STATIC_SHAPE: shape})


def static_given(value: Any, given: list) -> bool:
    """Whether a helper returning *value* for all its calls (None: not known) returns no tensor of static
    shape, and is given one among *given*, or returns an element's tensors (not a graph's: not symbolic)
    and is given literal sizes (`read_images(queue, (321, 321))`, which crops to them): walked again for
    this call, it may return one (resolver's `instantiated`)."""
    if static(value, whole=True):
        return False
    return any(map(static, given)) or _element_tensors(value) and any(map(_sizes, given))


def static(value: Any, whole: bool = False) -> bool:
    """Whether *value* is a tensor of static shape, or a tuple holding one (`return image, label`);
    *whole*: one whose every size is known (not `(None, None, 3)` of sides its parameters give)."""
    if type(value) is Seq:
        return any(static(item, whole) for item in value.items)
    shape = value.meta.get(STATIC_SHAPE) if type(value) is Inst else None
    return shape is not None and (not whole or None not in shape)


def known_shape(tensor: Any) -> Const | None:
    """`tf.shape(image)` of a tensor whose static shape is known whole, as TF's shape inference folds it (a
    constant: `random_crop(image, tf.shape(original))` keeps the original's sides); None otherwise."""
    return Const(tensor.meta[STATIC_SHAPE]) if type(tensor) is Inst and static(tensor, whole=True) else None


def _element_tensors(value: Any) -> bool:
    if type(value) is Seq:
        return any(map(_element_tensors, value.items))
    return type(value) is Inst and value.cls in TF_TENSORS and not is_sym(value)


def _sizes(value: Any) -> bool:
    """A literal size (a positive int) or a tuple of them (`input_size = (h, w)`)."""
    if type(value) is Seq:
        return bool(value.items) and all(map(_sizes, value.items))
    if type(value) is not Const or value is OPAQUE:
        return False
    items = value.value if isinstance(value.value, (tuple, list)) else [value.value]
    return bool(items) and all(type(item) is int and item > 0 for item in items)


def _static(tensor: Any) -> tuple | None:
    return element_shape(tensor, False) if type(tensor) is Inst and not is_sym(tensor) else None


def element_shape(tensor: Any, many: bool) -> tuple | None:
    """The static shape of one element of *tensor* (its first axis dropped where it enqueues many:
    `enqueue_many=True`); None where not known."""
    shape = shape_of(tensor) if type(tensor) is Inst else None
    if shape is None and type(tensor) is Inst:
        shape = tensor.meta.get(STATIC_SHAPE)
    if shape is None or many and not shape:
        return None
    return tuple(shape[1:]) if many else tuple(shape)


def batched(api: str, named: dict, returns: str) -> Any:
    """What a batching op returns: one symbolic tensor per tensor of the element (the tensor itself where
    the element is a list of one, as TF's dequeue gives), each of the element's shape and of the batch
    dequeued where *batch_size* is an int; None where the element is not a list or tuple of tensors."""
    element = named.get(BATCHES[api])
    if api.endswith("_join"):  # a list of elements read by several threads: the first's shapes
        element = element.items[0] if type(element) is Seq and element.items else None
    if type(element) is not Seq or not element.items:
        return None
    size = named.get("batch_size")
    batch = size.value if type(size) is Const and type(size.value) is int and size.value > 0 else None
    many = type(named.get("enqueue_many")) is Const and named["enqueue_many"].value is True
    given = named.get("shapes")
    stated = [symops.dims(item) for item in given.items] if type(given) is Seq and len(given.items) == len(element.items) \
        else [None] * len(element.items)
    tensors = []
    for tensor, dims in zip(element.items, stated):
        shape = tuple(dims) if dims is not None and -1 not in dims else element_shape(tensor, many)
        tensors.append(Inst(returns, "factory", {"sym": Sym(shape, shape, batch=batch)}))
    return tensors[0] if len(tensors) == 1 else Seq(tuple(tensors))


def iterator(dataset: Any) -> Inst:
    """The TF1 iterator `make_one_shot_iterator` / `make_initializable_iterator` makes over *dataset*."""
    data = dataset.meta.get("data") if type(dataset) is Inst else None
    return Inst(ITERATOR, "factory", {"data": data} if type(data) is Data else {})


def next_element(it: Inst, returns: str) -> Inst | Seq | None:
    """`iterator.get_next()`: a symbolic tensor of the pipeline's per-sample shape and batch where each element
    is one tensor; a tuple of them, each of its part's shape, where each element is a tuple the pipeline
    states the parts of (`from_tensor_slices((x, y))`: `images, labels = it.get_next()`; a part's shape
    unknown after a `map` whose function returns a literal tuple); None otherwise."""
    data = it.meta.get("data")
    if type(data) is not Data or not data.whole and data.parts is None:
        return None
    if data.parts is not None:
        return Seq(tuple(Inst(returns, "factory", {"sym": Sym(part, part, batch=data.batch)}) for part in data.parts))
    return Inst(returns, "factory", {"sym": Sym(data.shape, data.shape, batch=data.batch)})


def dequeued(queue: Inst, n: Any, returns: str) -> Any:
    """`queue.dequeue_many(n)` of a queue made with literal `shapes`: one symbolic tensor per component (the
    tensor itself for one), each of its shape and of the batch n where n is an int; None where the shapes
    are not stated."""
    shapes = queue.meta.get("init", {}).get("shapes")
    if not isinstance(shapes, list) or not shapes:
        return None
    batch = n.value if type(n) is Const and type(n.value) is int and n.value > 0 else None
    tensors = []
    for shape in shapes:
        dims = symops.dims(Const(shape))
        sample = tuple(dims) if dims is not None and -1 not in dims else None
        tensors.append(Inst(returns, "factory", {"sym": Sym(sample, sample, batch=batch)}))
    return tensors[0] if len(tensors) == 1 else Seq(tuple(tensors))
