"""The work a call site implies, inferred statically: `CallSite.work` (docs/calls-json.md).

Each quantity is a `Quantity` (value, provenance, note) with provenance `literal` (written in the
call), `inferred` (followed through the code, or a Keras default), `table` (data/work/) or
`unknown` (it matters to this call but could not be known: value null). Sites that get work:
  - `fit`/`evaluate`/`predict`/`__call__`/`*_on_batch` of Keras models: epochs (with
    `"bound": "upper"` under an EarlyStopping callback and `"least"`, the fewest its patience
    allows; `wall_s` under a TimeStopping callback), batch_size (literal, the dataset's
    `.batch(n)`, else Keras's default 32), samples, validation_samples, steps_per_epoch, steps
    (`"bound": "upper"` on data a `.filter` or a literal slice bounds: `x[:64]`, arrays.sliced),
    and the model's params, flops_per_sample, input_shape, model (arrays.py for the data);
  - calling a layer: params, flops (per call; flops_per_sample on symbolic tensors), input_shape;
  - tensor ops with literal shapes: elements and flops (`matmul`, `conv`, reductions, random,
    elementwise, constructors);
  - a model's `save`/`save_weights`/`load_weights` and `keras.models.save_model(model)`: its params;
  - what a model's `predict`/`predict_on_batch` or eager call returns: (the data's rows, its output per
    sample), an array whose shape the calls on it read (`output_array`).
Models: Sequential lists and `add()` calls, functional graphs from `keras.Input(shape=...)`
(arrays.Sym), subclassed models (their layers applied in the order `__init__` creates them),
Keras Applications by name (data/work/keras_applications.csv), a model cut at a layer of one built here
or of a Keras Application whose layers are tabled (`layer_cut`). Per-layer rules: layers.py.
Where some layers are unknown, `params` and `flops_per_sample` are the known part with
`"bound": "lower"`.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from greenlint.analysis import kerasext, layers, slots, trainable, untyped, worktables
from greenlint.analysis.arrays import (
    BATCHED,
    DATASET,
    FLOW_ITERATOR,
    HOST_BATCH,
    PY_GENERATOR,
    Data,
    Sym,
    array,
    is_sym,
    most_rows,
    rows_of,
    shape_of,
    shape_source,
)
from greenlint.analysis.callsite import UNTYPED_BATCH, Quantity, Work, estimator_method
from greenlint.analysis.ops import op_work
from greenlint.analysis.values import (
    SAVED,
    TRACKED,
    Const,
    Inst,
    Seq,
    UserInst,
    is_sequence,
    items_of,
    options_of,
    set_as,
)
from greenlint.catalog.kinds import EXECUTE_IN_GRAPH_MODE, GRAPH_RUNS

LITERAL, INFERRED, TABLE, UNKNOWN = "literal", "inferred", "table", "unknown"
KERAS_BATCH = 32
MODEL_CLASSES = frozenset({"Model", "Sequential", "Functional"})
SEQUENTIAL = "tensorflow.keras.Sequential"
#: The generator methods of old Keras and the method whose work they do (their data: `generator`).
GENERATOR_METHODS = {"fit_generator": "fit", "evaluate_generator": "evaluate", "predict_generator": "predict"}
MODEL_METHODS = frozenset(
    {"fit", "evaluate", "predict", "__call__", "train_on_batch", "test_on_batch", "predict_on_batch",
     *GENERATOR_METHODS}
)
#: A model's methods that write or read its weights, and the function that saves a model it is given:
#: their work is the model's parameters (`weights_work`).
WEIGHT_FILE_METHODS = frozenset({"save", "save_weights", "load_weights"})
SAVE_MODEL = "tensorflow.keras.models.save_model"
#: TF2's checkpoints: a `Checkpoint` of the objects given to it, and a `CheckpointManager` of one.
CHECKPOINT = "tensorflow.train.Checkpoint"
CHECKPOINTS = frozenset({CHECKPOINT, "tensorflow.train.CheckpointManager"})
#: Their methods that write every variable they track.
CHECKPOINT_WRITES = frozenset({"save", "write"})
#: The methods that run one batch given to them (their `samples` are that batch's).
ONE_BATCH = frozenset({"train_on_batch", "test_on_batch", "predict_on_batch"})
#: A preprocessing layer's pass over its data (the predictor's `DATA_PASS_METHODS`).
ADAPT = "adapt"
LAYERS = "tensorflow.keras.layers."
#: The arguments that stop an Estimator's `train` (`steps`, `max_steps`); without them it runs until the data
#: its `input_fn` builds ends.
ESTIMATOR_STOPS = ("steps", "max_steps")
#: What makes an Estimator that runs a Keras model (its `keras_model`) in its `model_fn`, and that
#: Estimator's class (the catalog gives the factory no return class: the KB names its measured calls
#: `model_to_estimator.train`, as FECoM records them).
MODEL_TO_ESTIMATOR = "tensorflow.keras.estimator.model_to_estimator"
ESTIMATOR = "tensorflow.estimator.Estimator"
EARLY_STOPPING = "tensorflow.keras.callbacks.EarlyStopping"
_WRAPPERS = frozenset({"Bidirectional", "TimeDistributed"})


def q(value: Any, provenance: str, note: str | None = None, **extra: Any) -> Quantity:
    if value is None:
        provenance = UNKNOWN
    return Quantity(value, provenance, note, **extra)


def add_options(work: Work, named: dict[str, Any], owner: Any = None) -> None:
    """Give a call's *work* its `options` entry: the command-line options whose defaults its arguments
    (*named*) or its receiver hold or were built from (`values.options_of`: `fit(batch_size=
    args.batch_size)`, a model of `Dense(FLAGS.width)`), sizes the command line can change; `arguments`
    maps each parameter given an option's default itself to that option."""
    used = options_of([*named.values(), owner])
    if not used:
        return
    listed = ", ".join(f"`{set_as(o)}`" for o in used)
    direct = {name: v.option for name, v in named.items() if type(v) is Const and v.option}
    work["options"] = q(list(used), INFERRED, f"with the default of {listed}: the command line can change it",
                        **({"arguments": direct} if direct else {}))


def is_model(value: Any) -> bool:
    return type(value) is Inst and value.cls.rpartition(".")[2] in MODEL_CLASSES and value.cls.startswith("tensorflow.keras")


#: A model's attributes whose assignment rewires its network (`vgg.outputs = [vgg.layers[9].output]`).
GRAPH_ATTRIBUTES = frozenset({"inputs", "outputs", "input", "output", "layers"})
#: A model's meta key: (name, layer index) of the tabled Keras Application it is a cut of (`rewired`).
CUT_OF = "cut_of"
#: What a model value knows of its network (`model_net`).
_NETWORK_META = ("model_name", "graph", "layers", "sub_layers", "n_layers", CUT_OF)


def rewired(model: Inst, attr: str, value: Any) -> None:
    """*model*'s inputs, outputs or layers are assigned: its network is no longer the one it was built
    with. Its outputs set to one layer's of its own tabled Keras Application (`vgg.outputs =
    [vgg.layers[9].output]`, a VGG19 cut to its first blocks for a perceptual loss): that cut from here on;
    otherwise its size is unknown, not the whole network's."""
    graph = functional_model({"outputs": value}) if attr in ("outputs", "output") else None
    keys = list(graph.flops) if graph is not None and not graph.unknown else []
    own = len(keys) == 1 and type(keys[0]) is tuple and keys[0][0] == CUT_OF and keys[0][3] == id(model.meta)
    for key in _NETWORK_META:
        model.meta.pop(key, None)
    if own:
        model.meta[CUT_OF] = keys[0][1:3]
    else:
        model.meta["rewired"] = True  # (a receiver's feature in the calls JSON: why its size is unknown)


def unpriced(value: Any, partly: bool = True) -> bool:
    """A model built here (not loaded) whose FLOPs are not known, or only in part (*partly*), e.g. its
    input shape or a layer's width a parameter of the function building it: a call passing that
    function its own arguments may tell them."""
    if not is_model(value) or value.how != "constructor":
        return False
    net = model_net(value, None, None)
    return net is None or net.flops is None or partly and net.partial_flops


def is_layer(value: Any) -> bool:
    return type(value) is Inst and value.cls.startswith(LAYERS)


# -- models ----------------------------------------------------------------------------------
class Net:
    """What is known of a model: parameters, FLOPs per sample, input shape, name; `partial`
    and `partial_flops` when some layers' parameters / FLOPs are unknown (lower bounds);
    `output_shape` (per sample) where every layer's is known (a list of layers walked); `passes`
    (id of each layer's meta, or None for an op of no layer, and its FLOPs per sample, in forward
    order) and `weights` (id of each layer's meta and its parameters), what `trainable` prices;
    `base`: (name, the other layers' count) of a model built around a Keras Application (`wrapped_base`);
    `most_flops` where the FLOPs are an upper bound (a free input dimension the data's slice bounds);
    `activations`: the elements of every layer's output per sample, summed (what a step writes and reads
    back besides the weights), where each is known (a list of layers walked, none of them a model nor
    recurrent: `layers.RECURRENT`)."""

    __slots__ = ("params", "flops", "input_shape", "name", "prov", "note", "partial", "partial_flops", "output_shape",
                 "passes", "weights", "base", "most_flops", "activations")

    def __init__(self, params, flops, input_shape, name=None, prov=INFERRED, note=None, partial=False,
                 partial_flops=None, output_shape=None, passes=(), weights=(), base=None, most_flops=False,
                 activations=None):
        self.params, self.flops, self.input_shape = params, flops, input_shape
        self.name, self.prov, self.note, self.partial = name, prov, note, partial
        self.partial_flops = partial if partial_flops is None else partial_flops
        self.output_shape = output_shape
        self.passes, self.weights = list(passes), list(weights)
        self.base = base
        self.most_flops = most_flops  # FLOPs at most: a free input dimension bounded by the data's slice
        self.activations = activations


def layer_input_shape(layer: Inst) -> tuple | None:
    """The per-sample input shape a layer declares (`input_shape=`, `input_dim=`, `InputLayer`); a
    dimension it leaves free is None (`input_shape=[None, 1]`: sequences of any length)."""
    init = layer.meta.get("init") or {}
    for key in ("input_shape", "shape"):
        shape = init.get(key)
        if isinstance(shape, list) and shape and all(type(d) is int or d is None for d in shape):
            return tuple(shape)
    batch_shape = init.get("batch_input_shape") or init.get("batch_shape")
    if isinstance(batch_shape, list) and len(batch_shape) > 1 and all(type(d) is int for d in batch_shape[1:]):
        return tuple(batch_shape[1:])
    if type(init.get("input_dim")) is int and layer.cls.rpartition(".")[2] != "Embedding":
        return (init["input_dim"],)
    return None


def apply_layer(layer: Inst, shapes: list[tuple]) -> layers.LayerWork | None:
    """A layer value's work on per-sample input shapes (wrappers included)."""
    name = layer.cls.rpartition(".")[2]
    init = layer.meta.get("init") or {}
    unread = layer.meta.get("unread")
    if unread:  # an option given as a value not known (layers.unread)
        return layers.unread_work(name, init, shapes, unread)
    if name in _WRAPPERS:
        inner = layer.meta.get("wrapped")
        if not is_layer(inner) or len(shapes) != 1 or not shapes[0]:
            return None
        if name == "TimeDistributed":
            found = apply_layer(inner, [shapes[0][1:]])
            if found is None:
                return None
            steps = shapes[0][0]
            flops = None if steps is None or found.flops is None else steps * found.flops
            return layers.LayerWork((steps, *found.shape), found.params, flops)
        found = apply_layer(inner, shapes)
        if found is None:
            return None
        mode = init.get("merge_mode", "concat")
        channels = found.shape[-1]
        if mode == "concat" and channels is None:
            return None
        shape = (*found.shape[:-1], 2 * channels) if mode == "concat" and channels is not None else found.shape
        return layers.LayerWork(shape, 2 * found.params, None if found.flops is None else 2 * found.flops)
    return layers.apply(name, init, shapes)


def declared_input(items: list) -> tuple | None:
    """The per-sample input shape a list of layers declares (a Sequential's): a `keras.Input` first, its
    first layer's `input_shape=` (`layer_input_shape`), a Keras Application's declared input or, for a
    Sequential built here placed first, what its own layers declare; None where none."""
    if not items:
        return None
    first = items[0]
    if type(first) is Inst and isinstance(first.meta.get("layers"), list):
        return declared_input(first.meta["layers"])
    if is_sym(first):
        return first.meta["sym"].shape
    if is_layer(first):
        return layer_input_shape(first)
    if type(first) is Inst and "model_name" in first.meta:
        declared = (first.meta.get("init") or {}).get("input_shape")
        if isinstance(declared, list) and declared and all(type(d) is int for d in declared):
            return tuple(declared)
    return None


def sequential_net(items: list, hint: tuple | None, hint_note: str | None, name: str = "Sequential",
                   most: tuple | None = None) -> Net:
    """Walk a list of layers (a Sequential, a subclass's layers) from the declared input shape,
    or *hint* (the data's per-sample shape) when none is declared. A dimension the declared shape
    leaves free is the hint's, else the most the data's slice allows (*most*, the per-sample axes'
    bounds: `x[:7000, :50]` on `input_shape=[None, 1]`), the FLOPs then an upper bound where every
    layer's are known that way."""
    shape = declared_input(items)
    note = None
    free = bool(items) and is_layer(items[0]) and items[0].cls.rpartition(".")[2] in layers.SHAPE_FREE
    upper = False
    if shape is not None and None in shape and hint is not None and len(hint) == len(shape):
        shape, note = tuple(h if d is None else d for d, h in zip(shape, hint)), hint_note or "input shape from the data passed"
    elif shape is not None and None in shape and most:
        filled = tuple(most[i] if d is None and i < len(most) else d for i, d in enumerate(shape))
        if filled != shape:
            shape, upper = filled, True
            note = f"FLOPs at most: input at most {filled} per sample (a literal slice of the data)"
    if shape is None and hint is not None:
        shape, note = hint, hint_note or "input shape from the data passed"
    if shape is None and not free:
        return Net(None, None, None, prov=UNKNOWN, note=f"{name}: no input shape declared and the data's is unknown")
    input_shape, params, flops, unknown, no_flops, unweighed = shape, 0, 0, [], [], []
    passes: list[tuple[int | None, int | None]] = []
    weights: list[tuple[int, int]] = []
    placed: list[tuple[Inst, int | None]] = []  # the Keras Applications among the items, their FLOPs as placed
    shape = shape if shape is not None else ()
    activations: int | None = 0
    for item in items:
        if is_sym(item):
            continue  # keras.Input(...) as the first item
        if not is_layer(item):
            activations = None
            label = item.meta.get("model_name") if type(item) is Inst else None
            sub = model_net(item, shape, None) if type(item) is Inst else None
            if type(item) is Inst:
                passes.append((id(item.meta), sub.flops if sub is not None else None))
                if sub is not None and _application_name(item.meta):
                    placed.append((item, sub.flops))
                if sub is not None and sub.params is not None:
                    weights.append((id(item.meta), sub.params))
            if sub is not None and sub.params is not None:
                params += sub.params
                flops += sub.flops or 0
                if not sub.partial_flops and sub.output_shape is not None:  # a whole model as a layer
                    shape = sub.output_shape
                    continue
            elif sub is not None and sub.flops is not None:  # a Keras Application without its top: its
                flops += sub.flops  # FLOPs (scaled to its input), its parameters not tabled: a lower bound
                if not sub.partial_flops and sub.output_shape is not None:  # its output known: the walk goes on
                    unweighed.append(label or "?")
                    shape = sub.output_shape
                    continue
            unknown.append(label or _class_name(item))
            shape = None
            continue
        leaf = item.cls.rpartition(".")[2]
        if leaf == "InputLayer":
            continue
        found = apply_layer(item, [shape]) if shape is not None else None
        passes.append((id(item.meta), found.flops if found is not None else None))
        if found is None or shape is None:
            unknown.append(leaf)
            shape = None
            continue
        _place(item, shape, found)
        weights.append((id(item.meta), found.params))
        params += found.params
        if found.flops is None:
            no_flops.append(leaf)
        else:
            flops += found.flops
        shape = found.shape
        out = layers.product(shape)
        activations = None if activations is None or out is None or recurrent(item) else activations + out
    if upper and (unknown or no_flops):  # bounds on a part of the model's FLOPs bound nothing: the free dimension kept
        return sequential_net(items, hint, hint_note, name)
    if unknown:
        note = "; ".join(filter(None, [note, f"unknown: {', '.join(unknown)} (params and FLOPs are a lower bound)"]))
    if no_flops:
        note = "; ".join(filter(None, [note, f"FLOPs unknown (a dimension not known statically): {', '.join(no_flops)}"]))
    if unweighed:
        note = "; ".join(filter(None, [note, f"parameters unknown: {', '.join(unweighed)} (params are a lower bound)"]))
    return Net(params, flops, input_shape, prov=INFERRED, note=note, partial=bool(unknown or unweighed),
               partial_flops=bool(unknown or no_flops), output_shape=None if unknown else shape, passes=passes,
               weights=weights, base=stack_base(items, placed, input_shape), most_flops=upper,
               activations=None if unknown or upper else activations)


def _class_name(value: Any) -> str:
    """The class of a value a model holds, for its note: a Keras class's last name, a project class's name."""
    if type(value) is Inst:
        return value.cls.rpartition(".")[2]
    return value.info.name if type(value) is UserInst else "?"


def recurrent(layer: Inst) -> bool:
    """A recurrent layer (`layers.RECURRENT`), or a wrapper of one (`Bidirectional(LSTM(...))`)."""
    inner = layer.meta.get("wrapped") if layer.cls.rpartition(".")[2] in _WRAPPERS else None
    return layer.cls.rpartition(".")[2] in layers.RECURRENT or type(inner) is Inst and inner.cls.rpartition(".")[2] in layers.RECURRENT


def _place(layer: Inst, shape: tuple, found: layers.LayerWork) -> None:
    """Give a layer's constructor site its work, the first time a model places the layer with its FLOPs
    known, else the first time at all (on a free side: `input_shape=[None, 1]`, the data's length later)."""
    site = layer.meta.get("site_work")
    if site is not None and (not site.keys() - {"options"} or found.flops is not None and (site.get("flops_per_sample") is None or site["flops_per_sample"].value is None)):
        site["input_shape"] = q(list(shape), INFERRED, "per sample, as the model places the layer")
        site["params"] = q(found.params, INFERRED)
        site["flops_per_sample"] = q(found.flops, INFERRED)


def sym_net(sym: Sym) -> Net:
    partial = bool(sym.unknown)
    note = f"unknown: {', '.join(sym.unknown)} (params and FLOPs are a lower bound)" if partial else None
    note = "; ".join(filter(None, [sym.sized, note])) or None
    no_flops = None in sym.flops.values()
    if no_flops:
        note = "; ".join(filter(None, [note, "FLOPs of some layers unknown (a dimension not known statically)"]))
    flops = sum(f for f in sym.flops.values() if f is not None)
    outs = [sym.outputs.get(k) for k in sym.flops]
    known = not partial and bool(outs) and all(type(o) is int for o in outs)
    return Net(sum(p for p, _ in sym.params.values()), flops, sym.input_shape, note=note, partial=partial,
               partial_flops=partial or no_flops, passes=[(sym.owners.get(k), f) for k, f in sym.flops.items()],
               weights=[(key, p) for key, (p, _) in sym.params.items()], base=graph_base(sym),
               activations=sum(outs) if known else None)


def _application_name(value: Any) -> str | None:
    """The name of a Keras Application value the work tables know, else None."""
    name = value.get("model_name") if isinstance(value, dict) else None
    return name if isinstance(name, str) and worktables.application(name) is not None else None


def _at_input(meta: dict, input_shape: tuple | None, flops: int | None) -> bool:
    """Whether a Keras Application placed with *flops* runs at the model's *input_shape*."""
    at_input = application_net(meta["model_name"], meta, input_shape) if input_shape is not None else None
    return at_input is not None and at_input.flops == flops


def stack_base(items: list, placed: list[tuple[Inst, int | None]], input_shape: tuple | None) -> tuple[str, int] | None:
    """(name, the other layers' count) of a list of layers holding one Keras Application (*placed*: each
    with its FLOPs as placed) at the list's input size, the base the others are built on
    (`Sequential([base, GlobalAveragePooling2D(), Dense(n)])`, a `Rescaling` before it); None otherwise,
    or where the others' count is unknown."""
    if len(placed) != 1 or not _at_input(placed[0][0].meta, input_shape, placed[0][1]):
        return None
    head = stack_layers([i for i in items if i is not placed[0][0]])
    return None if head is None else (placed[0][0].meta["model_name"], head)


def graph_base(graph: Sym) -> tuple[str, int] | None:
    """(name, the other layer calls' count) of a functional graph that calls one Keras Application once,
    sized at the graph's input (`x = base(inputs)`, `Model(base.input, head(base.output))`; not after a
    `Resizing`); None otherwise, or where another call's count is unknown."""
    apps = [key for key, (_, meta) in graph.params.items() if _application_name(meta)]
    calls = [call for call, owner in graph.owners.items() if apps == [owner]]
    if len(calls) != 1:
        return None
    meta = graph.params[apps[0]][1]
    others = [n for call, n in graph.layers.items() if call != calls[0]]
    shape = tuple(graph.input_shape) if graph.input_shape is not None else None
    if None in others or not _at_input(meta, shape, graph.flops.get(calls[0])):
        return None
    return meta["model_name"], sum(others)


def application_net(name: str, meta: dict, hint: tuple | None = None, hint_note: str | None = None) -> Net | None:
    """A Keras Application's work from the table, at its declared `input_shape`; without one and its top
    (`include_top=False`: any image size), at *hint*, the per-sample shape it is called on or fitted with."""
    app = worktables.application(name)
    if app is None:
        return None
    init = meta.get("init") or {}
    note = app.source
    shape = init.get("input_shape")
    if shape is None and init.get("include_top") is False and hint is not None and len(hint) == 3:
        shape = list(hint)
        note += f"; input {hint}: {hint_note or 'the shape of the data it is given'}"
    flops, prov = app.flops_per_sample, TABLE
    params: int | None = app.params
    other = (tuple(shape) if isinstance(shape, list) and len(shape) == 3 and all(type(d) is int for d in shape)
             and tuple(shape) != tuple(app.input_shape) else None)  # an input the table was not made at
    if init.get("include_top") is False:
        params = None
        note += "; include_top=False: parameters without the top not tabled"
    elif other is not None:  # with its top at another input (weights=None)
        params = None
        note += f"; parameters at {other} not tabled (a top on flattened features grows with the input)"
    if other is not None:
        flops = round(flops * other[0] * other[1] / (app.input_shape[0] * app.input_shape[1]))
        prov = INFERRED
        note += f"; FLOPs scaled from {app.input_shape} to {other} by pixels"
    input_shape = tuple(shape) if isinstance(shape, list) and all(type(d) is int for d in shape) else app.input_shape
    at = tuple(shape) if isinstance(shape, list) else None
    return Net(params, flops, input_shape, name=name, prov=prov, note=note,
               output_shape=_application_output(app, init, meta.get("unread", ()), at))


#: The arguments of a Keras Application that decide its input and what it returns.
APPLICATION_OPTIONS = frozenset({"include_top", "pooling", "classes", "input_shape"})


def _application_output(app: worktables.Application, init: dict, unread: tuple, at: tuple | None) -> tuple | None:
    """What a Keras Application returns per sample: with its top, its `classes` scores; without it
    (`include_top=False`), its last feature map (keras_applications.csv) pooled to its channels by
    `pooling="avg"` or `"max"`, else the map itself, whose sides are the table's at the table's input
    (*at*, the input it is given) and not known at another. None where an option it reads is given a value
    not known (*unread*), or the map is not tabled."""
    if unread:
        return None
    top, pooling, classes = init.get("include_top", True), init.get("pooling"), init.get("classes", 1000)
    if top is True:
        return (classes,) if type(classes) is int else None
    features = app.feature_shape
    if top is not False or features is None or len(features) != 3:
        return None
    if pooling in ("avg", "max"):
        return features[-1:]
    if pooling is not None:
        return None
    return features if at == app.input_shape else (None, None, features[-1])


def model_net(model: Inst, hint: tuple | None, hint_note: str | None, most: tuple | None = None) -> Net | None:
    """What is known of a model value, or None if nothing (e.g. a loaded model); *most*: the
    data's per-sample axes at most (`sequential_net`)."""
    meta = model.meta
    if "either" in meta:
        return _either_net(model, hint, hint_note, most)
    if "model_name" in meta:
        net = application_net(meta["model_name"], meta, hint, hint_note)
        if net is not None:
            net.passes = [(id(meta), net.flops)]
            net.weights = [(id(meta), net.params)] if net.params is not None else []
        return net
    if "graph" in meta:
        return sym_net(meta["graph"])
    if CUT_OF in meta:  # at the shape it is called on: the cut's convolutions run at any image size
        name, index = meta[CUT_OF]
        cut = _application_cut({**meta, "model_name": name}, index, None, hint)
        if cut is None:
            return None
        net = sym_net(cut)  # (no `model` name: a part of the application, not the one its name prices)
        layer = next(iter(cut.params.values()))[1]
        net.prov, net.note = layer["prov"], layer["note"]
        return net
    if meta.get("layers") is not None:
        return sequential_net(meta["layers"], hint, hint_note, most=most)
    if meta.get("sub_layers"):
        net = sequential_net(meta["sub_layers"], hint, hint_note, "subclassed model", most)
        if net.params is not None:
            net.note = f"{IN_CREATION_ORDER}; {net.note}" if net.note else IN_CREATION_ORDER
        return net
    return None


def _either_net(model: Inst, hint: tuple | None, hint_note: str | None, most: tuple | None) -> Net | None:
    """A model built one way or another on alternative paths (`if tiny: model = create_tiny_model() else:
    model = create_model()`), or given by different callers: the smallest's FLOPs and parameters, lower
    bounds (any may run)."""
    found = [model_net(Inst(model.cls, model.how, meta), hint, hint_note, most) for meta in model.meta["either"]]
    nets = [net for net in found if net is not None and net.flops is not None]
    if len(nets) < len(found):
        return None
    least = min(nets, key=lambda net: net.flops or 0)
    params = [net.params for net in nets]
    note = f"one of {len(nets)} models (built on alternative paths, or given by different callers): the smallest's figures, lower bounds"
    note = "; ".join(filter(None, [note, least.note]))
    return Net(None if None in params else min(params), least.flops, None, note=note, partial=True, partial_flops=True)


def model_tensor(model: Any, attr: str) -> Sym | None:
    """`model.input` / `model.output` of a model whose network is known (a Keras Application, a
    functional model): the symbolic tensor a bigger model is built on (`keras.Model(backbone.input,
    head(backbone.output))`), the output carrying the model's parameters and FLOPs; None otherwise."""
    if type(model) is Inst and "cut" in model.meta and attr == "output":  # `m.get_layer("code").output`
        return model.meta["cut"]
    if not is_model(model) or attr not in ("input", "output"):
        return None
    graph = model.meta.get("graph")
    if graph is not None:
        return Sym(graph.input_shape, graph.input_shape, sized=graph.sized) if attr == "input" else graph
    net = model_net(model, None, None)
    if net is None or net.input_shape is None:
        return None
    start = Sym(tuple(net.input_shape), tuple(net.input_shape))
    return start if attr == "input" else model_on_sym(model, start, ("output", id(model.meta)))


def model_on_sym(model: Inst, inputs: Any, call_key: Hashable) -> Sym | None:
    """Calling a model (as a layer) on symbolic tensor(s), or taking its `output`: the output's Sym,
    with the model's parameters and FLOPs per sample where known (its name among the unknown
    otherwise); the output's shape where known: a functional model's, or a list of layers walked
    whole from the shape of the one tensor it is called on (a `Sequential` feature extractor,
    `features = model(img)`), which also sizes a Sequential that declares no input."""
    items = items_of(inputs)
    found = [v.meta.get("sym") if type(v) is Inst else v for v in items]
    syms = [sym for sym in found if type(sym) is Sym]
    if len(syms) != len(found):
        return None
    given = syms[0].shape if len(syms) == 1 and syms[0].shape is not None else None
    net = model_net(model, given, "per sample, the shape of the tensor the model is called on")
    graph = model.meta.get("graph")
    shape = graph.shape if graph is not None else None
    if net is not None and given is not None and not net.partial_flops and net.input_shape == given:
        shape = shape if shape is not None else net.output_shape
    merged = merge_syms(syms, shape)
    label = (net.name if net is not None else None) or model.cls.rpartition(".")[2]
    merged.layers[call_key] = model_layers(model)
    if net is None or net.flops is None:
        return Sym(None, merged.input_shape, merged.params, merged.flops, (*merged.unknown, label), merged.owners,
                   merged.layers, merged.sized, batch=merged.batch)
    merged.params[id(model.meta)] = (net.params or 0, model.meta)
    merged.flops[call_key] = net.flops
    merged.outputs[call_key] = net.activations
    merged.owners[call_key] = id(model.meta)
    if net.params is None or net.partial:
        return Sym(merged.shape, merged.input_shape, merged.params, merged.flops, (*merged.unknown, f"{label} (part)"),
                   merged.owners, merged.layers, merged.sized, batch=merged.batch)
    return merged


def model_layers(model: Any) -> int | None:
    """The layers a model value dispatches per forward pass (`n_layers`), None where not known."""
    return model.meta.get("n_layers") if is_model(model) else None


def stack_layers(items: list) -> int | None:
    """The layers a Sequential's items dispatch: a layer one, an input none, a nested model its own
    count (None, unknown, where its count is), any other item (a layer greenlint does not resolve) one."""
    total = 0
    for item in items:
        if _is_input(item):
            continue
        count = model_layers(item) if is_model(item) else 1
        if count is None:
            return None
        total += count
    return total


def _is_input(item: Any) -> bool:
    """A Sequential's input item, which dispatches no layer and is not among its `layers`:
    `keras.Input(...)` (a symbolic tensor) or an `InputLayer`."""
    return is_sym(item) or type(item) is Inst and item.cls.rpartition(".")[2] == "InputLayer"


def graph_layers(graph: Sym) -> int | None:
    """The layers a functional graph applies: one per layer call (a layer called twice counts twice), a
    nested model's own count; None where any call's is unknown."""
    counts = list(graph.layers.values())
    return None if None in counts else sum(counts)


def model_work(model: Inst) -> Work:
    """params, FLOPs per sample and input shape of a model built here (for its constructor)."""
    if model.meta.get("layers") == []:
        return {}
    net = model_net(model, None, None)
    return _net_work(net) if net is not None and net.params is not None else {}


def functional_model(named: dict) -> Sym | None:
    """`keras.Model(inputs, outputs)`: the graph reaching the outputs (`output=`: Keras 1's keyword,
    which Keras 2 still accepted)."""
    syms = syms_of(named.get("outputs", named.get("output")))
    return merge_syms(syms, syms[0].shape if len(syms) == 1 else None) if syms is not None else None


def merge_syms(syms: list[Sym], shape: tuple | None) -> Sym:
    params: dict = {}
    flops: dict = {}
    owners: dict = {}
    counts: dict = {}
    outputs: dict = {}
    unknown: list = []
    for sym in syms:
        params.update(sym.params)
        flops.update(sym.flops)
        outputs.update(sym.outputs)
        owners.update(sym.owners)
        counts.update(sym.layers)
        unknown.extend(u for u in sym.unknown if u not in unknown)
    unknown.extend(_overlapping_cuts(params, flops, owners, counts))
    sized = next((sym.sized for sym in syms if sym.sized), None)
    batches = {sym.batch for sym in syms if sym.batch is not None}
    batch = batches.pop() if len(batches) == 1 else None  # inputs of other batches: not known which a run reads
    return Sym(shape, syms[0].input_shape, params, flops, tuple(unknown), owners, counts, sized, outputs, batch)


def _overlapping_cuts(params: dict, flops: dict, owners: dict, counts: dict) -> list[str]:
    """Cuts of one Keras Application at several layers in one graph (a style loss reading five of VGG's
    layers) share the layers before them, which the table does not tell apart: the deepest is kept, a
    lower bound (the names of the applications so cut, as unknown)."""
    cuts: dict[int, list] = {}
    for key in flops:
        if type(key) is tuple and key[0] == CUT_OF:
            cuts.setdefault(key[3], []).append(key)
    named = []
    for keys in cuts.values():
        if len({key[2] for key in keys}) > 1:
            for key in sorted(keys, key=lambda k: k[2])[:-1]:
                params.pop(owners.pop(key), None)
                flops.pop(key)
                counts.pop(key, None)
            named.append(f"{keys[0][1]} (layers shared by its cuts)")
    return named


def layer_call_inputs(layer: Any, first: Any, named: dict) -> Any:
    """What a call of *layer* takes as its input(s): the first positional argument (or `inputs=`);
    for a layer of several (MultiHeadAttention: query, value, key) a Seq of those given."""
    params = layers.CALL_INPUTS.get(layer.cls.rpartition(".")[2]) if type(layer) is Inst else None
    if params is None:
        return first if first is not None else named.get("inputs")
    items = []
    for param in params:
        value = named.get(param)
        if value is None or (type(value) is Const and value.value is None):
            break
        items.append(value)
    return Seq(tuple(items))


def sym_elementwise(left: Any, right: Any, call_key: Hashable) -> Sym | None:
    """`a + b` (or another elementwise operator) on Keras symbolic tensors of one shape, or on a
    symbolic tensor and a number: the result's Sym, one FLOP per output element."""
    syms = [v.meta["sym"] for v in (left, right) if is_sym(v)]
    others = [v for v in (left, right) if not is_sym(v)]
    if not syms or any(not (type(v) is Const and type(v.value) in (int, float)) for v in others):
        return None
    shape = syms[0].shape
    if any(s.shape != shape for s in syms):
        shape = None
    merged = merge_syms(syms, shape)
    merged.flops[call_key] = None if shape is None or None in shape else math.prod(shape)
    merged.outputs[call_key] = merged.flops[call_key]  # one output element per FLOP
    merged.layers[call_key] = 1  # an op node of the graph (Keras 2: a TFOpLambda layer)
    return merged


def syms_of(value: Any) -> list[Sym] | None:
    """The Syms of a symbolic tensor or a list of them (a call's inputs, a model's outputs), None
    unless every one is a symbolic tensor."""
    items = items_of(value)
    syms = [v.meta["sym"] for v in items if is_sym(v)]
    return syms if syms and len(syms) == len(items) else None


def unknown_on_sym(syms: list[Sym], label: str, call_key: Hashable, layers: int | None = None) -> Sym:
    """Calling something whose work is unknown (a layer of another library: `InstanceNormalization()(x)`)
    on symbolic tensor(s), *syms* (`syms_of`): an output of unknown shape, *label* among the
    unknown, so that the model built on it keeps the known layers' parameters and FLOPs as a lower
    bound; *layers*: the layers the call dispatches (1 for a Keras layer; None, unknown, for any
    other callee)."""
    merged = merge_syms(syms, None)
    return Sym(None, merged.input_shape, merged.params, merged.flops, (*merged.unknown, label), merged.owners,
               {**merged.layers, call_key: layers}, merged.sized, batch=merged.batch)


def normalisation_on_sym(syms: list[Sym], init: dict, label: str, call_key: Hashable) -> Sym:
    """Calling another library's normalisation layer (`layers.normalisation`) on one symbolic tensor:
    its input's shape with its work added; `unknown_on_sym` where that is not known."""
    found = layers.normalisation(init, syms[0].shape) if len(syms) == 1 and syms[0].shape is not None else None
    if found is None:
        return unknown_on_sym(syms, label, call_key, 1)
    meta = {"init": init}
    merged = merge_syms(syms, found.shape)
    merged.params[id(meta)] = (found.params, meta)  # the meta kept alive: its id stays its own
    merged.flops[call_key] = found.flops
    merged.outputs[call_key] = layers.product(found.shape)
    merged.owners[call_key] = id(meta)
    merged.layers[call_key] = 1
    return merged


def layer_on_sym(layer: Inst, inputs: Any, call_key: Hashable) -> Sym | None:
    """Calling a layer on symbolic tensor(s): the output's Sym."""
    syms = syms_of(inputs)
    if syms is None:
        return None
    shapes = [s.shape for s in syms if s.shape is not None]
    found = apply_layer(layer, shapes) if len(shapes) == len(syms) else None
    if found is None:
        return unknown_on_sym(syms, layer.cls.rpartition(".")[2], call_key, 1)
    merged = merge_syms(syms, found.shape)
    merged.params[id(layer.meta)] = (found.params, layer.meta)  # the meta kept alive: its id stays its own
    merged.flops[call_key] = found.flops
    merged.outputs[call_key] = None if recurrent(layer) else layers.product(found.shape)
    merged.owners[call_key] = id(layer.meta)
    merged.layers[call_key] = 1
    # its `output` (`layer_cut`): a layer called once has one; called again, Keras asks which (none here)
    layer.meta[CALL_OUTPUT] = merged if CALL_OUTPUT not in layer.meta else None
    return merged


# -- a model cut at one of its layers ----------------------------------------------------------
#: A layer's meta key: the symbolic output of its one call (None once called again).
CALL_OUTPUT = "call_output"
#: The class of `model.layers[k]`, a layer whose output is a cut (`layer_cut`): none of the catalog's, so
#: that its other uses record no call site, as before it had a value.
CUT_LAYER = "keras.layers.Layer.cut"


def layer_cut(model: Any, index: Any = None, name: Any = None) -> Sym | None:
    """The `output` of `model.layers[index]` or `model.get_layer(name)` of a model built here (the layer's
    meta `cut`): the part of the network that reaches that layer, so that a functional model cut there carries the
    FLOPs and parameters of what feeds that layer, not the whole model's (`keras.Model(m.input,
    m.get_layer("encoded").output)`, `m.layers[-2].output`). None where the cut cannot be told: a Keras
    Application whose layers are not tabled (`_application_cut`), a layer called twice, an index into a graph whose
    layers Keras orders otherwise than it was built (anything but a chain of layers), a name or index not a literal."""
    if not is_model(model) or (index is None) == (name is None):
        return None
    wanted = index.value if type(index) is Const else None
    wanted_name = name.value if type(name) is Const and isinstance(name.value, str) else None
    if index is not None and (type(wanted) is not int or type(wanted) is bool) or name is not None and wanted_name is None:
        return None
    items = model.meta.get("layers")
    graph = model.meta.get("graph")
    if "model_name" in model.meta:
        cut = _application_cut(model.meta, wanted, wanted_name)
    elif items is not None:
        cut = _stack_cut(model, items, wanted, wanted_name)
    elif graph is not None:
        cut = _graph_cut(graph, wanted, wanted_name)
    else:
        cut = None
    return cut


def _application_cut(meta: dict, index: int | None, name: str | None, hint: tuple | None = None) -> Sym | None:
    """The output of one layer of a Keras Application whose layers are tabled (keras_application_layers.csv):
    the network up to it, with its parameters and FLOPs. The table is made with the top at the default
    input; at another input (a declared `input_shape`, or *hint*, the shape the model is called on), only a
    layer before the top (an image per sample) named or counted from the input: the same convolutions, their
    FLOPs scaled by pixels as `application_net` scales the whole network's."""
    rows = worktables.application_layers(meta["model_name"])
    found = [r for r in rows if r.name == name] if name is not None else \
        [rows[index]] if index is not None and -len(rows) <= index < len(rows) else []
    init = meta.get("init") or {}
    declared = init.get("input_shape")
    at = tuple(hint) if hint is not None and len(hint) == 3 and all(type(d) is int for d in hint) else \
        tuple(declared) if isinstance(declared, list) and all(type(d) is int for d in declared) else None
    if len(found) != 1 or at is None and init.get("include_top") is False:
        return None  # (without its top nor an input_shape, the model takes images of any size)
    row, default = found[0], rows[0].output_shape
    out, flops = row.output_shape, row.flops_per_sample
    shape: tuple | None = out
    note, prov = f"{meta['model_name']} up to layers[{row.layer_index}] ({row.name}): {row.source}", TABLE
    if at is not None and at != default or init.get("include_top") is False:
        if len(out) != 3 or name is None and index is not None and index < 0 or at is None or len(at) != 3:
            return None
        flops = round(flops * at[0] * at[1] / (default[0] * default[1]))
        sides = [d * given / base for d, given, base in zip(out[:2], at[:2], default[:2], strict=True)]
        shape = (*(int(d) for d in sides), out[2]) if all(d == int(d) for d in sides) else None
        note, prov = f"{note}; FLOPs scaled from {default} to {at} by pixels", INFERRED
    key = (CUT_OF, meta["model_name"], row.layer_index, id(meta))
    layer = {CUT_OF: (meta["model_name"], row.layer_index), "note": note, "prov": prov}
    return Sym(shape, at or default, {id(layer): (row.params, layer)}, {key: flops}, (), {key: id(layer)},
               {key: row.layer_index})


def _stack_cut(model: Inst, items: list, index: int | None, name: str | None) -> Sym | None:
    """The output of one layer of a Sequential's list (its `layers` leave out an `Input`): the list up to it."""
    shown = [i for i, item in enumerate(items) if not _is_input(item)]
    if name is not None:
        found = [i for i in shown if type(items[i]) is Inst and (items[i].meta.get("init") or {}).get("name") == name]
        at = found[0] if len(found) == 1 else None
    else:
        at = shown[index] if index is not None and -len(shown) <= index < len(shown) else None
    if at is None:
        return None
    prefix = Inst(model.cls, "constructor", {"layers": items[:at + 1]})
    net = model_net(prefix, None, None)
    if net is None or net.input_shape is None:
        return None
    return model_tensor(prefix, "output")


def _graph_cut(graph: Sym, index: int | None, name: str | None) -> Sym | None:
    """The output of one layer of a functional graph: by name, the layer's one call's output (what feeds
    it); by index, only in a chain (each layer fed by all before it, no op between: Keras' order is then
    the build order, `layers[0]` the input)."""
    metas = [meta for _, meta in graph.params.values()]
    if name is not None:
        found = [m for m in metas if (m.get("init") or {}).get("name") == name]
        return found[0].get(CALL_OUTPUT) if len(found) == 1 else None
    outputs = [m.get(CALL_OUTPUT) for m in metas]
    chain = (not graph.unknown and len(graph.flops) == len(metas) and all(o is not None for o in outputs)
             and all(len(o.params) == i + 1 and len(o.flops) == i + 1 for i, o in enumerate(outputs)))
    if not chain or graph.input_shape is None or index is None:
        return None
    shown = [Sym(tuple(graph.input_shape), tuple(graph.input_shape), sized=graph.sized), *outputs]
    return shown[index] if -len(shown) <= index < len(shown) else None


# -- call sites ------------------------------------------------------------------------------
def merge_layer(api: str, features: dict) -> Inst | None:
    """The merge layer that a functional helper (`concatenate([a, b], axis=3)`, `add([x, y])`) builds
    and calls at once, with the call's literal arguments; None for any other API."""
    if not api.startswith(LAYERS):  # (asked of every call site: the cheap test first)
        return None
    module, _, leaf = api.rpartition(".")
    if module != LAYERS.rstrip(".") or leaf not in layers.MERGE_FUNCTIONS:
        return None
    init = {"axis": features["axis"]} if "axis" in features else {}
    return Inst(f"{module}.{layers.MERGE_FUNCTIONS[leaf]}", "constructor", {"init": init})


def site_work(api: str, named: dict, features: dict, owner: Any, first: Any, merge: Inst | None) -> Work:
    """The `work` object of one call site (empty when no quantity applies); *first* is the
    first positional argument's value, *merge* the call's `merge_layer`."""
    leaf = api.rpartition(".")[2]
    if merge is not None:
        return _layer_call(merge, named.get("inputs", first))
    if owner is not None and is_model(owner) and leaf in MODEL_METHODS:
        if leaf == "__call__" and "x" not in named:
            named = {**named, "x": first}
        return _model_call(leaf, named, features, owner)
    if leaf == "__call__" and is_layer(owner):
        return _layer_call(owner, layer_call_inputs(owner, first, named))
    if leaf == ADAPT and is_layer(owner):
        return adapt_work(named, features, first)
    if estimator_method(api):
        return estimator_work(leaf, named, owner)
    model = owner if leaf in WEIGHT_FILE_METHODS else named.get("model", first) if api == SAVE_MODEL else None
    if isinstance(model, Inst) and is_model(model):
        weights = weights_work(model)
        whole = weights and (leaf == "save" or api == SAVE_MODEL)
        return {**weights, **optimizer_work(model, named)} if whole else weights
    if leaf in CHECKPOINT_WRITES and type(owner) is Inst and owner.cls in CHECKPOINTS and owner.meta.get(SAVED):
        return checkpoint_work(owner.meta[SAVED], owner.meta.get(TRACKED, []))
    return op_work(api, named, features)


def checkpointed(api: str, named: dict) -> list[Inst] | None:
    """The Keras models a `tf.train.Checkpoint` tracks (each argument that is one: `Checkpoint(model=m,
    optimizer=opt)`; what else it tracks only adds to what a save writes), or a `CheckpointManager`'s
    checkpoint's; None where there is none."""
    if api != CHECKPOINT:
        held = named.get("checkpoint")
        return held.meta.get(SAVED) if type(held) is Inst and held.cls == CHECKPOINT else None
    return [v for v in named.values() if is_model(v)] or None


def tracked(api: str, named: dict) -> list:
    """Every value a `tf.train.Checkpoint` tracks (its arguments), or a `CheckpointManager`'s checkpoint's."""
    if api != CHECKPOINT:
        held = named.get("checkpoint")
        return held.meta.get(TRACKED, []) if type(held) is Inst and held.cls == CHECKPOINT else []
    return list(named.values())


def checkpoint_work(models: list[Inst], values: list) -> Work:
    """The work of a checkpoint's write: the params of the models it tracks, a lower bound (what else
    it tracks besides), where each model's are known, and the slots per weight of the one Keras
    optimizer among *values* (all it tracks) that trains one of them, none of its layers frozen
    (`optimizer_slots`, with that model's weights as `trainable_params`: slots.py); {} otherwise."""
    works = [weights_work(m) for m in models]
    if not all(works):
        return {}
    params = sum(w["params"].value for w in works)
    work = {"params": q(params, "inferred", "the weights of the models the checkpoint tracks", bound="lower")}
    found = slots.checkpoint_slots(models, values)
    if found is not None:
        count, model = found
        note = "the slot variables per weight that the optimizer the checkpoint tracks keeps for the model it trains"
        work["optimizer_slots"] = q(count, INFERRED, f"{note}, which the checkpoint writes too")
        work["trainable_params"] = weights_work(model)["params"]
    return work


def adapt_work(named: dict, features: dict, first: Any) -> Work:
    """The work of a preprocessing layer's `adapt(data, batch_size, steps)`: one pass over its data in
    batches, no model FLOPs: its samples where the data's rows are known, else unknown (never a
    typical data set's size). A tf.data pipeline never batched yields one sample per element, and adapt
    takes each element as a batch: one step per sample."""
    x = named.get("data", first)
    data, pipeline = _data(x)
    if (pipeline and data is not None and data.samples is not None and data.batch is None and type(x) is Inst
            and x.cls == DATASET and not x.meta.get(BATCHED)):
        data = replace(data, batch=1, batch_note="a tf.data pipeline with no .batch: adapt takes each element, one "
                                                 "sample, as a batch")
    return _loop_work(ADAPT, {**named, "x": x}, features, data, pipeline)


def estimator_work(method: str, named: dict, owner: Any = None) -> Work:
    """The work of an Estimator's `train`, `evaluate` or `predict` (`tf.estimator.*`,
    `model_to_estimator(...)`): the Keras model's params and FLOPs per sample where the Estimator runs
    one known here (*owner*'s `estimator_model`: `model_to_estimator(keras_model=model)`; its
    `estimator_work`: the one Keras model its `model_fn` calls, resolver.model_fn_work); with them, where a
    literal stop is given (`steps`, a train's `max_steps`: the call's own features), nothing more; else
    its size (and a train's epochs) unknown, the least they allow, never another program's measured
    size: with no stop the call runs until the data its `input_fn` builds ends (`predict` always
    does), and a stop not stated in the code (`max_steps=num_train_steps`) is not known."""
    meta = owner.meta if type(owner) is Inst else {}
    model = meta.get("estimator_model")
    base = model_work(model) if isinstance(model, Inst) and is_model(model) else meta.get("estimator_work", {})
    names = ESTIMATOR_STOPS if method == "train" else ("steps",) if method == "evaluate" else ()
    stops = [named[k] for k in names if k in named and not _none(named[k])]
    if any(type(v) is Const for v in stops):
        return base
    if stops:  # an unknown value is given too (held as None)
        why = f"an Estimator's {method} of {' or '.join(names)} not known from the code"
    else:
        why = (f"an Estimator's {method}" + (f" without {' or '.join(names)}" if names else "")
               + " runs until its input_fn's data ends; input_fn is not followed")
    unknown = {**base, "samples": q(None, UNKNOWN, why)}
    return {**unknown, "epochs": q(None, UNKNOWN, why)} if method == "train" else unknown


def _none(value: Any) -> bool:
    """A literal None (an argument given as no value)."""
    return type(value) is Const and value.value is None


def weights_work(model: Inst) -> Work:
    """The work of a call that writes or reads *model*'s weights (`WEIGHT_FILE_METHODS`, `SAVE_MODEL`):
    its params, where they are known (a lower bound where some layers are not); {} otherwise."""
    net = model_net(model, None, None)
    if net is None or net.params is None:
        return {}
    return {"params": q(net.params, net.prov, net.note, **({"bound": "lower"} if net.partial else {}))}


def optimizer_work(model: Inst, named: dict) -> Work:
    """What a save of the whole *model* writes of its optimizer's state besides the weights: the slots
    per weight of its last compile's optimizer (`optimizer_slots`, slots.py) where it has trained since
    (its training call made them: what that compile trains known, trainable.py), with
    `trainable_params` where the compile left some layers out (they have no slots); {} where it is
    given `include_optimizer` other than a literal True, or any of that is not known."""
    found = model.meta.get(slots.COMPILED)
    states = model.meta.get(trainable.COMPILED)
    given = named.get("include_optimizer", Const(True))
    if found is None or not states or None in states.values() or type(given) is not Const or given.value is not True:
        return {}
    note = "the slot variables per weight that the optimizer of the model's last compile keeps for the weights it trains"
    work = {"optimizer_slots": q(found, INFERRED, f"{note}, which a save of the whole model writes too")}
    net = model_net(model, None, None) if trainable.freezes(states) else None
    if net is not None and net.params is not None:
        trained = trainable.trainable_params(net.weights, states)
        work["trainable_params"] = q(trained, INFERRED, "the parameters the last compile trains",
                                     **({"bound": "lower"} if net.partial else {}))
    elif trainable.freezes(states):
        return {}
    return work


def _data(value: Any) -> tuple[Data | None, bool]:
    """(what is known of the data passed, whether it is a tf.data pipeline)."""
    if type(value) is Inst and value.cls in (DATASET, PY_GENERATOR, FLOW_ITERATOR):  # each batches itself
        return value.meta.get("data"), True
    if is_sequence(value):  # a `keras.utils.Sequence` too: its batches, where its `__getitem__` shows them
        return (value.meta.get("data") if type(value) is Inst else None), True
    if type(value) is Inst and value.cls == HOST_BATCH:  # `x = next(gen)`: one batch of the generator's
        data = value.meta.get("data")
        if data is not None and data.batch is not None:
            return Data(data.batch, data.shape, note=data.batch_note), False
        return Data(None, None, note=f"a batch drawn from a Python generator that decodes with {value.meta['host']}: "
                                     "its size is not known statically"), False
    if type(value) is Seq and value.items:  # validation_data=(x, y): x's rows, else y's (Keras requires them equal)
        inputs, _ = _data(value.items[0])
        if (inputs is None or inputs.samples is None) and len(value.items) > 1:
            return _with_targets(inputs, value.items[1]), False
        return inputs, False
    shape = shape_of(value)
    if shape and shape[0] is not None:
        prov, note = shape_source(value)
        return Data(shape[0], tuple(shape[1:]), prov=prov, note=note), False
    most = most_rows(value)
    if most is not None:  # `x[:64]` of data of unknown size: at most 64 rows
        return Data(most, tuple(shape[1:]) if shape else None, prov=INFERRED, note=shape_source(value)[1], upper=True,
                    most_shape=None if shape else value.meta.get("most_sample")), False
    if shape:  # rows unknown (`x[a:b]`), each row's shape known: the model's input
        return Data(None, tuple(shape[1:]), note="the number of rows is not known statically"), False
    rows = rows_of(value)
    if rows is not None:  # `np.expand_dims(image, 0)`: one row, its shape unknown
        prov, note = shape_source(value)
        return Data(rows, None, prov=prov, note=note), False
    return None, False


def _with_targets(inputs: Data | None, y: Any) -> Data | None:
    """*inputs* of unknown rows given the rows of their targets *y* where those are known: Keras
    requires a model's inputs and targets to have the same rows (`fit`, `evaluate`, `train_on_batch`,
    `validation_data=(x, y)`); the inputs' own sample shape is kept."""
    targets, _ = _data(y)
    if targets is None or targets.samples is None:
        return inputs
    return Data(targets.samples, inputs.shape if inputs is not None else None, prov=targets.prov,
                note=f"the targets' rows{': ' + targets.note if targets.note else ''}", upper=targets.upper)


def _literal_or_default(features: dict, named: dict, key: str, default: Any, why: str) -> Quantity:
    if key in features and type(features[key]) is int:
        return q(features[key], LITERAL)
    if key in named and not (type(named[key]) is Const and named[key].value is None):
        return q(None, UNKNOWN, f"{key} is not a literal")
    return q(default, INFERRED, why)


def given_shape(value: Any) -> tuple | None:
    """The per-sample shape of what a model is given (`fit(x)`, `model(x)`): its data's (`_data`), or the
    symbolic tensor's it is called on; None where not known."""
    if is_sym(value):
        return value.meta["sym"].shape
    data, _ = _data(value)
    return data.shape if data is not None else None


def _model_call(method: str, named: dict, features: dict, owner: Inst | None,
                unbuilt: str = "the model is not built statically here") -> Work:
    """*owner* None: a receiver not typed (untyped_work), *unbuilt* the note saying so."""
    work: Work = {}
    if method in GENERATOR_METHODS:  # `fit_generator(gen, ...)`: the generator batches itself
        method = GENERATOR_METHODS[method]
        named = {**named, "x": named.get("generator")}
    x = named.get("x")
    data, pipeline = _data(x)
    if not pipeline and (data is None or data.samples is None) and "y" in named:
        data = _with_targets(data, named["y"])
    pipeline = pipeline or "generator" in named
    sym = x.meta.get("sym") if method == "__call__" and type(x) is Inst else None
    sample_shape = data.shape if data is not None else sym.shape if type(sym) is Sym else None
    note = data.note if data else "per sample, the shape of the tensor the model is called on" if sample_shape else None
    net = model_net(owner, sample_shape, note, data.most_shape if data else None) if owner is not None else None
    if sym is not None:
        work["symbolic"] = functional_symbolic()
    if method in ("fit", "evaluate", "predict"):
        work.update(_loop_work(method, named, features, data, pipeline))
        if data is not None and data.decoded:
            work["decoded_pixels_per_sample"] = q(data.decoded, INFERRED, "each sample's file decoded and resized to "
                                                  "image_size in every pass (the files' own size is not known)")
    elif data is not None and data.samples is not None:
        work["samples"] = q(data.samples, data.prov, data.note, **_at_most(data.upper))
    elif method in ONE_BATCH or method == "__call__" and "symbolic" not in work:
        # the batch it runs on is its data: unknown, and the note says why (a floor, not a class's figure)
        work["samples"] = q(None, UNKNOWN, data.note if data is not None and data.note else "the batch's size is not known statically")
    if net is not None:
        work.update(_net_work(net))
        if method in ("fit", "train_on_batch") and owner is not None:
            trained = _trained_work(net, owner.meta.get(trainable.COMPILED))
            if owner.meta.get(trainable.EAGERLY):  # its tape differentiates the frozen layers too (trainable.py)
                trained.pop("backward_flops_per_sample", None)
            work.update(trained)
    elif method != "__call__":
        if owner is not None and owner.how == "subclass":  # `Distiller(student, teacher)`: models it is given
            unbuilt = "a subclassed model none of whose layers is known here (the models or layers it is given, or builds)"
        work["flops_per_sample"] = q(None, UNKNOWN, unbuilt)
    return work


#: A model's methods that return, as arrays, what it computes on the data they are given.
PREDICTS = frozenset({"predict", "predict_on_batch"})


def model_output(model: Inst, hint: tuple | None, hint_note: str | None) -> tuple | None:
    """A model's output per sample on inputs of per-sample shape *hint*: a Keras Application's, a Sequential's
    layers walked whole, a functional graph's one output; None where it is not known (a loaded model, a
    subclassed one, a layer not known, several outputs)."""
    meta = model.meta
    if "graph" in meta:
        return meta["graph"].shape
    if "model_name" not in meta and meta.get("layers") is None:
        return None
    net = model_net(model, hint, hint_note)
    return net.output_shape if net is not None else None


def output_array(model: Inst, x: Any, line: int, method: str | None = None, steps: Any = None) -> Inst | None:
    """The array a model returns on data *x* (`model.predict(x)`, `predict_on_batch`: its *method*; an
    eager `model(x)`: None) at *line*: (x's rows, *the model's output per sample*), its rows unknown where
    x's are or `predict` is given its *steps* (batches drawn, not the data's rows); None where the output
    per sample is not known (`model_output`). Its note says where it was computed."""
    label = model.meta.get("model_name") or model.cls.rpartition(".")[2]
    how = f"the output of {label}.{method} at line {line}" if method else f"the output of {label} called at line {line}"
    data, _ = _data(x)
    out = model_output(model, data.shape if data is not None else None, data.note if data is not None else None)
    if out is None:
        return None
    rows = None
    if data is not None and not data.upper and not data.forever and (steps is None or _none(steps)):
        rows = data.samples
    return array((rows, *out), INFERRED, how)


GRADIENT_TAPE = "tensorflow.GradientTape"
STEP_NOTES = {
    "training": "a forward pass under a GradientTape: one training step of the model on this batch",
    "inference": "an eager forward pass: one batch of len(x) samples",
}
#: `step` "inference" of a model call in a helper whose taped calls are all traced into a tf.function.
UNTAPED_EAGER = ("an eager forward pass: one batch; its calls under a GradientTape are traced into a "
                 "tf.function and counted in its training step")
#: `step` "inference" of a model called in a tf.function's body on inputs the code does not show.
TRACED_INFERENCE = "a forward pass in a tf.function's body, on the tensors it is given: one batch"


def step_kind(owner: Any, first: Any, named: dict, taped: bool, traced: bool = False) -> str | None:
    """What calling a model does (`work["step"]`): "training" under a `tf.GradientTape` (unless
    `training=False`), "inference" for an eager call on data, or in a tf.function's body (*traced*:
    its inputs are tensors, whatever they are); None for a layer, or a model called on Keras
    symbolic tensors (a functional graph being built) or, outside a traced body, on unknown inputs."""
    if not is_model(owner):
        return None
    training = named.get("training")
    if taped and not (type(training) is Const and training.value is False):
        return "training"
    x = first if first is not None else named.get("inputs")
    if is_sym(x) or type(x) is Inst and x.cls == "tensorflow.keras.KerasTensor":
        return None
    return "inference" if (x is not None or traced) and not (type(training) is Const and training.value is True) else None


def untyped_work(api: str, named: dict, features: dict) -> Work:
    """The work of a Keras method called on a receiver the walk cannot type (analysis/untyped.py):
    what its arguments show (epochs, batch_size, steps_per_epoch, the data's size), the model's
    size unknown with the note saying why; {} for a session's `run` or a tensor's `eval` (the
    graph they run is not followed)."""
    method = api.rpartition(".")[2]
    if method not in MODEL_METHODS:
        return {}
    return _model_call(method, named, features, None, untyped.NOTE)


def _net_work(net: Net) -> Work:
    """The work quantities of what is known of a model; a count of which no part is known (a lower bound
    of 0: every layer unknown) is unknown, not 0."""
    work: Work = {}
    lower = {"bound": "lower"}
    if net.name:
        work["model"] = q(net.name, TABLE, None)
    params = None if net.partial and not net.params else net.params
    work["params"] = q(params, net.prov, net.note, **(lower if net.partial and params is not None else {}))
    flops = None if net.partial_flops and not net.flops else net.flops
    bound = lower if net.partial_flops else {"bound": "upper"} if net.most_flops else {}
    work["flops_per_sample"] = q(flops, net.prov, net.note, **(bound if flops is not None else {}))
    if net.input_shape is not None:
        work["input_shape"] = q(list(net.input_shape), net.prov if net.name else INFERRED, None)
    if net.activations is not None:
        work["activations_per_sample"] = q(net.activations, INFERRED, "every layer's output elements per sample, summed")
    if net.base is not None:
        work["base"] = q(net.base[0], TABLE, "the Keras Application the model is built around")
        work["head_layers"] = q(net.base[1], INFERRED, "the layers the model adds to its base, a nested model its own count")
    return work


def _trained_work(net: Net, states: dict | None, trains: str = "the last compile trains") -> Work:
    """`backward_flops_per_sample` and `trainable_params` of a training call whose model's last
    `compile` (or what else *trains*) left some layers out of training (trainable.py); {} where it
    trains them all or what it trains is not known statically (the whole model's backward pass is
    priced then)."""
    if not states or not trainable.freezes(states):
        return {}
    backward = trainable.backward_flops(net.passes, states, frozenset(key for key, params in net.weights if params == 0))
    if backward is None:
        return {}
    note = f"the layers {trains}: their input gradients from the loss down to the lowest, their weight gradients"
    lower = {"bound": "lower"} if net.partial_flops else {}
    work = {"backward_flops_per_sample": q(round(backward), INFERRED, note, **lower)}
    if net.params is not None:
        trained = trainable.trainable_params(net.weights, states)
        work["trainable_params"] = q(trained, INFERRED, f"the parameters {trains}",
                                     **({"bound": "lower"} if net.partial else {}))
    return work


#: What a custom training step trains (trainable.py `taped`), as a note says it.
TAPE_TRAINS = "whose trainable weights the step's GradientTape differentiates"


def taped_work(model: Inst, x: Any, states: dict) -> Work:
    """`_trained_work` of *model* called on *x* for a training step under a tape that trains
    *states* (trainable.py `taped`)."""
    data, _ = _data(x)
    net = model_net(model, given_shape(x), None, data.most_shape if data else None)
    return _trained_work(net, states, TAPE_TRAINS) if net is not None else {}


def _loop_work(method: str, named: dict, features: dict, data: Data | None, pipeline: bool) -> Work:
    work: Work = {}
    if pipeline:
        given = named.get("x", named.get("generator"))
        if data is not None and data.batch is not None:
            batch = q(data.batch, INFERRED, data.batch_note or "the dataset's .batch(n)")
        elif is_sequence(given):
            batch = q(None, UNKNOWN, "the Sequence's batch size is not known statically")
        elif "generator" in named or (type(given) is Inst and given.cls != DATASET):
            batch = q(None, UNKNOWN, "the generator's batch size is not known statically")
        else:
            batch = q(None, UNKNOWN, "a tf.data pipeline without a literal .batch(n)")
    else:
        why = "Keras default" if data is not None else UNTYPED_BATCH
        batch = _literal_or_default(features, named, "batch_size", KERAS_BATCH, why)
    samples = q(data.samples if data else None, data.prov if data else UNKNOWN,
                (data.note if data else None) or (None if data else "the data's size is not known statically"))
    upper = _at_most(data is not None and data.upper and samples.value is not None)
    samples = samples._replace(**upper)
    train = samples.value
    if method == "fit":
        split = features.get("validation_split")
        if isinstance(split, (int, float)) and 0 < split < 1 and train is not None and not pipeline:
            train = int(train * (1 - split))
            work["validation_samples"] = q(samples.value - train, INFERRED, f"validation_split={split}", **upper)
            samples = q(train, INFERRED, f"{samples.value} less validation_split={split}", **upper)
        elif "validation_data" in named and named["validation_data"] != Const(None):  # None: it validates nothing
            vdata, _ = _data(named["validation_data"])
            work["validation_samples"] = q(vdata.samples if vdata else None, vdata.prov if vdata else UNKNOWN,
                                           vdata.note if vdata else "validation_data's size is not known",
                                           **_at_most(vdata is not None and vdata.upper and vdata.samples is not None))
        epochs = _literal_or_default(features, named, "epochs", 1, "Keras default")
        start = features.get("initial_epoch")
        if type(start) is int and start > 0:  # epochs as written: the epochs run are those less initial_epoch
            work["initial_epoch"] = q(start, LITERAL, "training resumes there: epochs run = epochs − initial_epoch")
        elif "initial_epoch" in named and type(start) is not int:
            work["initial_epoch"] = q(None, UNKNOWN, "initial_epoch is not a literal")
        least, why = _early_stopping(named.get("callbacks"))
        if least is not None:
            epochs = epochs._replace(bound="upper", note=f"{why} may end training sooner",
                             least=None if epochs.value is None else min(least, epochs.value))
        if "initial_epoch" in work and work["initial_epoch"].provenance == UNKNOWN and epochs.value is not None:
            # it resumes at an epoch not known: one at least, all at most
            epochs = epochs._replace(bound="upper", least=1,
                             note="; ".join(filter(None, (epochs.note, "resumes from an initial_epoch not known here"))))
        cap = _wall_cap(named.get("callbacks"))
        if cap is not None:  # the epochs it ends after follow from their time (the predictor's `call_time`)
            work["wall_s"] = cap
        work["epochs"] = epochs
    work["samples"] = samples
    work["batch_size"] = batch
    steps_key = "steps_per_epoch" if method == "fit" else "steps"
    literal = features.get(steps_key)
    if type(literal) is int:
        steps = q(literal, LITERAL)
    elif data is not None and data.forever:
        steps = q(None, UNKNOWN, "the dataset repeats forever")
    elif train is not None and batch.value:
        steps = q(math.ceil(train / batch.value), INFERRED, f"ceil({train} / {batch.value})", **upper)
    else:
        steps = q(None, UNKNOWN, None)
    work[steps_key] = steps
    if method == "fit":
        validation = features.get("validation_steps")
        if type(validation) is int:
            work["validation_steps"] = q(validation, LITERAL)
        epochs = work["epochs"]
        start = work["initial_epoch"].value if "initial_epoch" in work else 0  # None: not a literal
        run = max(0, epochs.value - start) if epochs.value is not None and start is not None else None
        total = run * steps.value if run is not None and steps.value is not None else None
        extra = _at_most(total is not None and "upper" in (epochs.bound, steps.bound))
        how = "(epochs − initial_epoch) × steps_per_epoch" if start else "epochs × steps_per_epoch"
        work["steps"] = q(total, INFERRED, how, **extra)
    return work


def _at_most(upper: bool) -> dict:
    """The `bound` a work quantity carries where its value is an upper bound (`.filter`, a literal
    slice of data of unknown size, early stopping), else nothing."""
    return {"bound": "upper"} if upper else {}


def _early_stopping(callbacks: Any) -> tuple[int | None, str]:
    """The fewest epochs `fit`'s callbacks let it run and which callback may stop it; (None, "") where
    none may. An EarlyStopping callback stops once `patience` epochs (at least 1) pass without improving
    on the best, which the first epoch sets, and never before `start_from_epoch`; 1 where its arguments
    are not literals. A callback of the file's own classes whose methods set `stop_training`
    (`self.model.stop_training = True`: a time limit, a target reached) may stop it in its first epoch: 1."""
    items = callbacks.items if type(callbacks) is Seq else ()
    least = []
    for item in items:
        if type(item) is Inst and item.cls == EARLY_STOPPING:
            init = item.meta.get("init") or {}
            patience, start = init.get("patience", 0), init.get("start_from_epoch", 0)
            literal = type(patience) is int and type(start) is int and patience >= 0 and start >= 0
            least.append((start + max(patience, 1) + 1 if literal else 1, "EarlyStopping"))
        elif type(item) is UserInst and _sets_stop_training(item):
            least.append((1, f"{item.info.name}, which sets stop_training,"))
    return min(least, key=lambda found: found[0]) if least else (None, "")


def _sets_stop_training(inst: UserInst) -> bool:
    """Whether a method of the instance's class (or of its own bases) assigns an attribute `stop_training`
    anything but a literal False."""
    for klass in inst.info.mro():
        for func in klass.methods.values():
            for node in ast.walk(func.node):
                if not isinstance(node, (ast.Assign, ast.AnnAssign)):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Attribute) and t.attr == "stop_training" for t in targets) and not (
                        isinstance(node.value, ast.Constant) and node.value.value is False):
                    return True
    return False


def _wall_cap(callbacks: Any) -> Quantity | None:
    """The wall time a `TimeStopping` callback allows a `fit` (`"bound": "upper"`; unknown where its
    `seconds` is not a literal), None without one: it stops training at the end of the first epoch that
    ends past it, so the fit lasts at most that time and one epoch (Keras' own callbacks cap epochs or
    steps, never time)."""
    items = callbacks.items if type(callbacks) is Seq else ()
    found = [item for item in items if type(item) is Inst and item.cls == kerasext.TIME_STOPPING]
    if not found:
        return None
    given = [(item.meta.get("init") or {}).get("seconds") for item in found]
    seconds = [s for s in given if isinstance(s, (int, float)) and not isinstance(s, bool) and s >= 0]
    if len(seconds) != len(given):
        return q(None, UNKNOWN, "TimeStopping's seconds is not a literal")
    least = min(seconds)
    return q(least, LITERAL, f"TimeStopping(seconds={least}) ends training at the first epoch's end past it",
             bound="upper")


def _layer_call(layer: Inst, inputs: Any) -> Work:
    work: Work = {}
    syms = syms_of(inputs)
    if syms is not None:
        work["symbolic"] = functional_symbolic()
        given = [shape for sym in syms if (shape := sym.shape) is not None]
        known = len(given) == len(syms)
        found = apply_layer(layer, given) if known else None
        if known:
            work["input_shape"] = q(list(given[0]) if len(given) == 1 else [list(s) for s in given],
                                    INFERRED, "per sample" if len(given) == 1 else "per sample, of each input")
        work["params"] = q(found.params if found else None, INFERRED)
        flops = found.flops if found else None
        work["flops_per_sample"] = q(flops, INFERRED, None if flops is not None else
                                     f"{layer.cls.rpartition('.')[2]}: no shape rule, or an input dimension unknown")
        return work
    items = items_of(inputs)
    shapes: list[Any] = [shape_of(v) for v in items]  # each known (None not in rows) past the test below
    rows = {s[0] if s else None for s in shapes}
    if not shapes or None in rows or len(rows) != 1:  # (inputs of several sizes: not one batch)
        return {"flops": q(None, UNKNOWN, "the input's shape is not known statically")}
    shape = shapes[0]
    prov, note = shape_source(items[0])
    found = apply_layer(layer, [tuple(s[1:]) for s in shapes])
    work["input_shape"] = q(list(shape) if len(shapes) == 1 else [list(s) for s in shapes], prov, note)
    work["params"] = q(found.params if found else None, INFERRED)
    known = found is not None and found.flops is not None
    work["flops"] = q(found.flops * shape[0] if known else None, INFERRED,
                      f"{shape[0]} samples × {found.flops} FLOPs" if known else "no shape rule for this layer")
    elements = layers.product(found.shape) if found else None
    if elements is not None:
        work["elements"] = q(shape[0] * elements, INFERRED, "output elements")
    return work


#: How a subclassed model's layers are taken to run (`sub_layers`): its `call` is not followed.
IN_CREATION_ORDER = "layers assumed applied in the order __init__ creates them"


def sub_layers(info: Any) -> list:
    """A subclassed model's layers, in the order its methods created them (`self.x = Dense(...)`), the
    project's own among them (`self.block = ConvBlock(64)`, `own_layer`)."""
    found = []
    for klass in reversed(info.mro()):
        for value in klass.attrs.values():
            if is_layer(value) or own_layer(value):
                found.append(value)
    return found


def own_layer(value: Any) -> bool:
    """An instance of a Keras layer or model class of the project (`class ConvBlock(layers.Layer)`)."""
    if type(value) is not UserInst:
        return False
    base = next((klass.tf_base for klass in value.info.mro() if klass.tf_base), None)
    return base is not None and base.startswith("tensorflow.keras") and (
        base.startswith(LAYERS) or base.rpartition(".")[2] in (*MODEL_CLASSES, "Layer"))


# -- symbolic calls: a graph built at the line, its work counted where the graph runs -------------
#: Kinds whose calls inside a traced `tf.function` body only add to its graph.
TRACED_KINDS = frozenset({"tensor-op", "layer-call", "loss-metric", "optimizer"})


def functional_symbolic() -> Quantity:
    """`work.symbolic` of a layer or model called on Keras symbolic tensors (the functional API)."""
    return q(True, INFERRED, "called on Keras symbolic tensors (functional API): builds the model's graph; "
                             "its work is counted where the model runs (fit, predict, a call on data)")


def mark_symbolic(api: str, kind: str, features: dict, work: Work, tensor: bool = False) -> Work:
    """*work* with `symbolic` added for a call that only builds a graph at its line, decided once the
    resolver has set `graph_mode` and `in_tf_function` (docs/calls-json.md `symbolic`): a TF1 graph op
    outside `Session.run` (a file read or decode too where it returns a tensor, *tensor*: `tf.io.read_file`
    runs on each step of the graph), an op, layer call, loss or optimizer update inside a `tf.function`
    body or a Keras model's `call`/`train_step`."""
    if "symbolic" in work:
        return work
    executes = kind in EXECUTE_IN_GRAPH_MODE and not (kind == "io" and tensor)
    if features.get("graph_mode") and api not in GRAPH_RUNS and not executes:
        note = "adds a node to a TF1 graph: its work is counted where Session.run runs the graph"
    elif features.get("in_tf_function") and kind in TRACED_KINDS:
        note = ("traced into a tf.function's graph: its work runs each time the function is called, "
                "counted at the function's call with the model calls its body runs")
    elif features.get("in_keras_step") and kind in TRACED_KINDS:
        note = ("inside a Keras model's call or train_step (traced by fit and predict): its work is counted "
                "where the model runs, in the model's FLOPs per sample")
    else:
        return work
    return {**work, "symbolic": q(True, INFERRED, note)}
