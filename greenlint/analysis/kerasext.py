"""Libraries built on Keras whose models and layers are Keras's (never imported, a small table).

`keras_cv.models.RetinaNet(...)`, `keras_hub.models.ImageClassifier.from_preset("...")`: a
`keras.Model` (its `fit`/`predict` are Keras's; its size is not known statically);
`tensorflow_hub.KerasLayer(url)`: a Keras layer. Their tokenizers, preprocessors and converters
are not models (nor taken for one by their method names: untyped.py). (`tfds.load` is a data source: arrays.tfds_load.)
TensorFlow Addons' `TimeStopping(seconds=...)`: a Keras callback that caps a `fit`'s wall time (`CALLBACKS`).
"""

from __future__ import annotations

from typing import Any

from greenlint.analysis.values import FOREIGN, Inst

ROOTS = frozenset({"keras_cv", "keras_hub", "keras_nlp", "tensorflow_hub"})
MODEL = "tensorflow.keras.Model"
LAYER = "tensorflow.keras.Layer"
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


def library_call(path: str) -> Any:
    """What calling *path* (a dotted name under `ROOTS`) gives: a Keras model or layer, a foreign
    value for their tokenizers and preprocessors (never taken for a model), else None."""
    parts = path.split(".")
    if parts[0] == "tensorflow_hub":
        return Inst(LAYER, "library", {"library": path}) if parts[1:] == ["KerasLayer"] else None
    if "models" not in parts[1:-1] and not (len(parts) > 2 and parts[-1] == "from_preset" and "models" in parts):
        return None
    name = parts[-2] if parts[-1] == "from_preset" else parts[-1]
    if any(word in name for word in _NOT_MODELS):
        return FOREIGN
    if not name[:1].isupper():
        return None
    return Inst(MODEL, "library", {"library": ".".join(parts[:-1]) if parts[-1] == "from_preset" else path})
