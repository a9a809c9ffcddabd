"""The coarse group of an API for the predictor's fallback chain: its kind (what the call does;
the catalog's `family` is the other group, its module).

Kinds: layer-constructor, layer-call, model-construction, model-training, model-evaluation,
model-inference, compile, data-pipeline, tensor-op, io, optimizer, loss-metric, config, accessor,
negligible, other. An accessor (`get_vocabulary`, `summary`, `count_params`, ...) reads what an
object already holds: it is its own kind so that it never inherits a heavy sibling's cost (`adapt`,
`fit`). A `negligible` call does no tensor work by what it is (`is_negligible`): a constructor of an
object that is not a model or a tensor (layers, optimizers, losses, constraints, initializers,
callbacks, options, name scopes), a function that takes no argument (a getter such as
`keras.config.epsilon()`), a call into a module of helpers (`tf.io.gfile`, `tf.test`, the config
modules), a layer's bookkeeping methods (`add_weight`, `build`), and the definition of an input
pipeline (a `Dataset` method returning a `Dataset`, `ImageDataGenerator.flow*`): the work happens
where the pipeline is iterated (`fit`, a `TFRecordWriter.write` of the dataset), not where it is described.
Rules use the catalog's class hierarchy where the name is known and name patterns otherwise;
the estimator API (gone from TensorFlow 2.16+, common in the measurements) is covered by names.
"""

from __future__ import annotations

import re
from typing import Protocol

from greenlint.catalog.names import TF1_PREFIX


class CatalogLookups(Protocol):
    """What the grouping reads of a `greenlint.catalog.catalog.Catalog`, which imports this module
    (its `kind`): the symbol table and the lookups, never the class itself."""

    @property
    def _symbols(self) -> dict[str, dict]: ...

    def __contains__(self, name: str) -> bool: ...

    def is_subclass(self, cls: str, base: str) -> bool: ...

    def returns(self, name: str) -> str | None: ...

    def params(self, name: str) -> list[str]: ...


KINDS = (
    "layer-constructor",
    "layer-call",
    "model-construction",
    "model-training",
    "model-evaluation",
    "model-inference",
    "compile",
    "data-pipeline",
    "tensor-op",
    "io",
    "optimizer",
    "loss-metric",
    "config",
    "accessor",
    "negligible",
    "other",
)
#: Kinds whose calls do no tensor work: the predictor gives them the bound measured on such calls.
NO_WORK_KINDS = frozenset({"accessor", "negligible"})

MODEL = "tensorflow.keras.Model"
LAYER = "tensorflow.keras.Layer"
DATASET = "tensorflow.data.Dataset"

_TRAIN = {"fit", "fit_generator", "train", "train_on_batch", "train_step", "train_and_evaluate"}
_EVALUATE = {"evaluate", "evaluate_generator", "test_on_batch", "test_step"}
_INFER = {"predict", "predict_generator", "predict_on_batch", "predict_step", "__call__", "call", "serve"}
_SAVE_LOAD = {
    "save", "save_weights", "load_weights", "export", "export_saved_model", "export_savedmodel",
    "restore", "write", "read", "to_json", "save_own_variables", "load_own_variables", "convert",
}  # fmt: skip
#: Methods and properties that read state an object already holds (no pass over data or weights).
ACCESSORS = frozenset({
    "get_vocabulary", "vocabulary_size", "get_config", "from_config", "summary", "count_params",
    "metrics_names", "get_weights", "set_weights", "get_layer", "get_build_config", "get_compile_config",
    "compute_output_shape", "compute_output_signature", "output_shape", "input_shape", "trainable_weights",
    "non_trainable_weights", "weights", "variables", "trainable_variables", "layers", "name", "dtype",
    "get_shape", "shape", "get_vocab_size", "vocab_size", "get_slot_names", "get_slot", "get_params",
})  # fmt: skip
_ESTIMATOR_CLASS = re.compile(r"(Estimator|Classifier|Regressor|BoostedTrees\w*)$")
_OPTIMIZER_CLASS = re.compile(r"Optimizer$|^(SGD|Adam\w*|Adagrad|Adadelta|Adamax|Nadam|RMSprop|Ftrl|Lion|Lamb)$")
_LOSS_METRIC_MODULES = ("losses", "metrics")
_IO_MODULES = ("tensorflow.io", "tensorflow.saved_model", "tensorflow.train", "tensorflow.keras.datasets",
               "tensorflow.lite", "tensorflow.compat.v1.saved_model", "tensorflow.compat.v1.lite",
               "tensorflow.compat.v1.train.Saver", "tensorflow.keras.models.load_model",
               "tensorflow.keras.models.save_model", "tensorflow.keras.saving", "tensorflow.keras.utils.get_file",
               "tensorflow.keras.utils.load_img", "tensorflow.audio", "tensorflow.summary")  # fmt: skip
_CONFIG_MODULES = ("tensorflow.config", "tensorflow.distribute", "tensorflow.debugging", "tensorflow.profiler",
                   "tensorflow.random.set_seed", "tensorflow.keras.mixed_precision", "tensorflow.keras.backend",
                   "tensorflow.compat.v1.logging", "tensorflow.get_logger", "tensorflow.compat.v1.disable",
                   "tensorflow.compat.v1.enable", "tensorflow.compat.v1.ConfigProto", "tensorflow.compat.v1.distribute")  # fmt: skip
_DATA_MODULES = ("tensorflow.data", "tensorflow.compat.v1.data", "tensorflow.feature_column",
                 "tensorflow.compat.v1.feature_column", "tensorflow.keras.preprocessing",
                 "tensorflow.compat.v1.estimator.inputs", "tensorflow.estimator.inputs")  # fmt: skip
#: Modules of helpers that do no tensor work (files, test harness, settings, logging).
_NO_WORK_MODULES = ("tensorflow.io.gfile", "tensorflow.compat.v1.gfile", "tensorflow.test", "tensorflow.config",
                    "tensorflow.keras.config", "tensorflow.keras.mixed_precision", "tensorflow.compat.v1.logging",
                    "tensorflow.get_logger", "tensorflow.random.set_seed", "tensorflow.keras.utils.set_random_seed",
                    "tensorflow.compat.v1.flags", "tensorflow.compat.v1.app")  # fmt: skip
#: Test-case methods that run the tensors they are given (graph mode): not helpers.
_TEST_RUNS = frozenset({"evaluate", "run"})
#: Dataset constructors that copy their (in-memory) data into the pipeline: work grows with the data.
_COPIES_DATA = frozenset({"from_tensor_slices", "from_tensors"})
#: tf.data methods that iterate the whole dataset they are given (`TFRecordWriter.write`): the pipeline runs there.
_DRAINS_DATA = frozenset({"write"})
#: TensorFlow's context managers that are functions: they set where and how later ops run.
_CONTEXTS = frozenset({"device", "control_dependencies", "init_scope"})
_TENSOR_CLASSES = ("tensorflow.Tensor", "tensorflow.Variable", "tensorflow.RaggedTensor", "tensorflow.SparseTensor",
                   "tensorflow.sparse.SparseTensor", "tensorflow.TensorArray", "tensorflow.experimental.numpy.ndarray",
                   "tensorflow.random.Generator")  # fmt: skip


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") or name.startswith(p + "_") for p in prefixes)


def _split(cat: CatalogLookups, api: str) -> tuple[str | None, str]:
    """(receiver class, member) if *api* is a method of a class, else (None, api)."""
    owner, _, member = api.rpartition(".")
    entry = cat._symbols.get(owner)
    if entry is not None and entry["k"] == "class":
        return owner, member
    if not owner or api in cat:
        return None, api
    last = owner.rpartition(".")[2]
    return (owner, member) if last[:1].isupper() else (None, api)


def _class_kind(cat: CatalogLookups, cls: str) -> str | None:
    """The role of a class: model, layer, estimator, optimizer, loss-metric, dataset, tensor."""
    if cat.is_subclass(cls, MODEL) or cls in ("tensorflow.keras.Sequential", "tensorflow.keras.Model"):
        return "model"
    if ".estimator." in cls and _ESTIMATOR_CLASS.search(cls.rpartition(".")[2]):
        return "model"
    if cat.is_subclass(cls, LAYER) or _under(cls, ("tensorflow.keras.layers", "tensorflow.compat.v1.layers")):
        return "layer"
    if cat.is_subclass(cls, DATASET) or _under(cls, ("tensorflow.data",)):
        return "dataset"
    last = cls.rpartition(".")[2]
    if _under(cls, ("tensorflow.keras.optimizers", "tensorflow.optimizers")) or (
        _under(cls, ("tensorflow.compat.v1.train",)) and _OPTIMIZER_CLASS.search(last)
    ):
        return "optimizer"
    if any(f".{m}." in cls for m in _LOSS_METRIC_MODULES):
        return "loss-metric"
    if cls in _TENSOR_CLASSES or any(cat.is_subclass(cls, t) for t in _TENSOR_CLASSES):
        return "tensor"
    return None


def kind_of(cat: CatalogLookups, api: str) -> str:
    """The coarse kind of a canonical API name (one of KINDS)."""
    cls, member = _split(cat, api)
    if cls is not None and member in ACCESSORS:
        return "accessor"
    if is_negligible(cat, api, cls, member):
        return "negligible"
    if cls is not None and _under(cls, ("tensorflow.keras.applications",)) and cls.rpartition(".")[2][:1].isupper():
        return _method_kind(member)  # MobileNetV2(...).predict: a Keras Application is a model
    if cls is not None:
        role = _class_kind(cat, cls)
        if role == "model":
            return _method_kind(member)
        if role == "layer":
            if member == "__call__":
                return "layer-call"
            return "data-pipeline" if member == "adapt" else "other"
        if role == "dataset":
            return "data-pipeline"
        if role == "optimizer":
            return "optimizer"
        if role == "loss-metric":
            return "loss-metric"
        if role == "tensor":
            return "tensor-op"
        if member in _SAVE_LOAD or _under(cls, _IO_MODULES):
            return "io"
        if member in _TRAIN:
            return "model-training"
        return "config" if _under(cls, _CONFIG_MODULES) else "other"
    return _callable_kind(cat, api)


def is_negligible(cat: CatalogLookups, api: str, cls: str | None, member: str) -> bool:
    """The call does no tensor work by what it is (the module docstring's list)."""
    if _under(api, _NO_WORK_MODULES):
        return not (cls is not None and member in _TEST_RUNS)
    if cls is not None:  # a method
        role = _class_kind(cat, cls)
        if role == "layer":
            return member not in ("__call__", "call", "adapt")
        if role == "dataset":
            return (member not in _COPIES_DATA | _DRAINS_DATA
                    and _class_kind(cat, cat.returns(api) or "") == "dataset")
        return member.startswith("flow") and _under(cls, _DATA_MODULES)  # ImageDataGenerator.flow*: an iterator
    last = api.rpartition(".")[2]
    if last.endswith("_scope") or (last in _CONTEXTS and _is_op_module(api)):
        return True
    if api not in cat:
        return False
    if cat._symbols[api]["k"] == "class":  # a constructor: builds an object, no tensor work unless a model's or a tensor's
        return _class_kind(cat, api) not in ("model", "tensor") and not _under(api, _IO_MODULES)
    return not cat.params(api) and not _under(api, ("tensorflow.keras.applications",))  # a getter: nothing to work on


def _method_kind(member: str) -> str:
    """Kind of a method called on a model (Keras model or estimator)."""
    if member in _TRAIN:
        return "model-training"
    if member in _EVALUATE:
        return "model-evaluation"
    if member in _INFER:
        return "model-inference"
    if member == "compile":
        return "compile"
    if member in _SAVE_LOAD:
        return "io"
    return "model-construction" if member in ("add", "build", "pop") else "other"


def _callable_kind(cat: CatalogLookups, api: str) -> str:
    """Kind of a module-level function or a class constructor."""
    last = api.rpartition(".")[2]
    is_class = cat._symbols[api]["k"] == "class" if api in cat else last[:1].isupper()
    if api in _SPECIAL:
        return _SPECIAL[api]
    if ".estimator." in api and last in _TRAIN | _EVALUATE | _INFER:
        return _method_kind(last)  # chained estimator calls: model_to_estimator(...).train
    if is_class:
        role = _class_kind(cat, api)
        if role == "model":
            return "model-construction"
        if role == "layer":
            return "layer-constructor"
        if role in ("optimizer", "loss-metric"):
            return role
        if role == "dataset":
            return "data-pipeline"
        if role == "tensor":
            return "tensor-op"
        if _under(api, _CONFIG_MODULES):
            return "config"
        if _under(api, _IO_MODULES):
            return "io"
        return "data-pipeline" if _under(api, _DATA_MODULES) else "other"
    returned = cat.returns(api)
    if returned and returned != api and _class_kind(cat, returned) == "model":
        return "model-construction"  # load_model, applications, model_to_estimator
    if _under(api, ("tensorflow.keras.applications",)) and last[:1].isupper():
        return "model-construction"
    if last in ("model_to_estimator",):
        return "model-construction"
    if last in _TRAIN:
        return "model-training"
    if _under(api, _CONFIG_MODULES):
        return "config"
    if _under(api, _IO_MODULES) or last.startswith(("save", "load", "read_", "write_", "decode_", "parse_")):
        return "io"
    if _under(api, _DATA_MODULES) or last.endswith("_dataset_from_directory") or last.endswith("_dataset"):
        return "data-pipeline"
    if any(f".{m}." in api for m in _LOSS_METRIC_MODULES) or "cross_entropy" in last:
        return "loss-metric"
    if _under(api, ("tensorflow.keras.optimizers", "tensorflow.compat.v1.train")):
        return "optimizer"
    if returned and _class_kind(cat, returned) == "tensor":
        return "tensor-op"
    if _is_op_module(api):
        return "tensor-op"
    return "other"


#: The API of calling a `tf.function`: its PolymorphicFunction's `__call__`. It runs the graph traced
#: from the function's body (a step of compiled work, like a `fit` step), not op by op.
TRACED_CALL = "tensorflow.types.experimental.PolymorphicFunction.__call__"
#: TF1 calls that run a graph they are handed (the fetched ops, the tensor, the operation): they
#: cost what that graph's work costs, so a figure measured on one program's graph says nothing of
#: another's (`sess.run(init)` and `sess.run(train_op)` on a GAN are the same API).
GRAPH_RUNS = frozenset({
    "tensorflow.compat.v1.Session.run", "tensorflow.compat.v1.Session.partial_run",
    "tensorflow.compat.v1.InteractiveSession.run", "tensorflow.compat.v1.InteractiveSession.partial_run",
    "tensorflow.compat.v1.train.MonitoredSession.run", "tensorflow.compat.v1.train.SingularMonitoredSession.run",
    "tensorflow.Operation.run", "tensorflow.Tensor.eval", "tensorflow.Variable.eval",
})  # fmt: skip
#: Calls only a TF1 graph program makes: a module making one builds a graph, and its other TF
#: calls add nodes to it (their work runs in `Session.run`), as inside a tf.function.
TF1_GRAPH = GRAPH_RUNS | {
    "tensorflow.compat.v1.Session", "tensorflow.compat.v1.InteractiveSession",
    "tensorflow.compat.v1.train.MonitoredTrainingSession", "tensorflow.compat.v1.placeholder",
    "tensorflow.compat.v1.sparse_placeholder", "tensorflow.compat.v1.disable_eager_execution",
    "tensorflow.compat.v1.disable_v2_behavior",
}  # fmt: skip
#: Kinds whose calls do their work when called even while a TF1 graph is built (files, Keras and
#: estimator runs): the others only add graph nodes.
EXECUTE_IN_GRAPH_MODE = frozenset({"io", "model-training", "model-evaluation", "model-inference"})

_SPECIAL = {
    "tensorflow.keras.Input": "model-construction",
    "tensorflow.function": "other",
    "tensorflow.compat.v1.Session.run": "other",
    "tensorflow.keras.utils.clear_session": "config",
}
_OP_MODULES = ("math", "nn", "linalg", "image", "random", "strings", "sparse", "ragged", "signal", "bitwise",
               "experimental.numpy", "keras.ops", "keras.random", "keras.activations")  # fmt: skip


def _is_op_module(api: str) -> bool:
    module = api.rpartition(".")[0]
    for prefix in (TF1_PREFIX, "tensorflow."):
        if module + "." == prefix:
            return True  # top-level tf.* functions are ops
        if module.startswith(prefix) and any(
            module[len(prefix) :] == m or module[len(prefix) :].startswith(m + ".") for m in _OP_MODULES
        ):
            return True
    return False
