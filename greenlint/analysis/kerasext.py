"""What the sources of libraries built on Keras do not say (never imported, a small table).

Which of their classes are Keras models, layers, callbacks, data sets or modules is read from their
source (libraries.py, or the generated table where they are not installed). This table keeps what
that reading cannot tell: a classmethod that builds an instance of its class
(`keras_hub.models.BertClassifier.from_preset("...")`, `TFBertModel.from_pretrained(...)`:
`CONSTRUCTORS`, whose bodies are not followed); that keras-hub's and keras-cv's tokenizers,
preprocessors, converters and samplers, Keras layers by derivation, are no model (nor taken for one by
their method names: untyped.py); and which libraries hold pretrained architectures (`PRETRAINED`:
their models are named in the findings, rules/large_step.py). (`tfds.load` is a data source: arrays.tfds_load.)
TensorFlow Addons' `TimeStopping(seconds=...)`: a Keras callback that caps a `fit`'s wall time (`CALLBACKS`).
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis.values import FOREIGN, Inst

#: Libraries built on Keras alone (an import of theirs makes a module a Keras one).
ROOTS = frozenset({"keras_cv", "keras_hub", "keras_nlp", "tensorflow_hub"})
#: Libraries of pretrained architectures: their models are named in the findings.
PRETRAINED = ROOTS | {"transformers"}
#: Classmethods that build an instance of their class (the class's Keras base, from its source).
CONSTRUCTORS = frozenset({"from_preset", "from_pretrained", "from_config"})
_NOT_MODELS = ("Tokenizer", "Preprocessor", "Converter", "StableDiffusion", "Sampler")
#: The library whose callbacks `CALLBACKS` names (nothing else of it is valued).
ADDONS = "tensorflow_addons"
TIME_STOPPING = "tensorflow_addons.callbacks.TimeStopping"
#: Callbacks of libraries built on Keras, by path: their parameters in order and their defaults.
CALLBACKS = {TIME_STOPPING: (("seconds", "verbose"), {"seconds": 86400})}


def addons_ref(path: str) -> bool:
    """Whether `import path` of TensorFlow Addons leads to a callback of `CALLBACKS` (the module or the
    callback itself); the rest of the library is not valued."""
    return any(name == path or name.startswith(path + ".") for name in CALLBACKS)


def library_call(path: str, base: str | None) -> Any:
    """What calling the library class at *path* gives, *base* its Keras base read from its source:
    a foreign value for a tokenizer or preprocessor of `ROOTS` (never taken for a model), else an
    instance of *base* (named where a library of `PRETRAINED` holds it), or None when *base* is unknown."""
    root = path.partition(".")[0]
    if root in ROOTS and any(word in path.rpartition(".")[2] for word in _NOT_MODELS):
        return FOREIGN
    if base is None:
        return None
    return Inst(base, "library", {"library": path} if root in PRETRAINED else {})
