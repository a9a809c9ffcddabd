"""Generate the TF/Keras API catalog by introspecting the installed tensorflow and keras.

    python -m tools.catalog.generate [--out data/catalog/catalog.json.gz]

Walks the public API modules (``tensorflow`` incl. ``tf.keras`` and ``tf.compat.v1``, and
``keras`` named as ``tensorflow.keras``), groups every path reaching the same object, picks the
canonical one (shortest; Keras objects under ``tensorflow.keras``), and records kind, aliases,
public bases (MRO), methods with where they come from, parameter names and known return classes.
Only this module imports TensorFlow; the result loads without it (`greenlint.catalog.catalog`).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import gzip
import importlib
import importlib.metadata
import inspect
import io
import json
import os
import re
import sys
import textwrap
import types
from collections import deque
from pathlib import Path

from greenlint.atomic import atomic_write_bytes
from greenlint.catalog.catalog import CATALOG_FILE
from tools import DATA_DIR

FORMAT = 1
#: Mirrors and internals not walked (compat.v2 repeats the v2 API).
SKIP_MODULES = ("tensorflow.compat.v2", "tensorflow.compat.v1.compat", "tensorflow.compat.v1.keras")
SKIP_NAMES = {"core", "python", "tools", "include", "src", "api"}

MODEL = "tensorflow.keras.Model"
DATASET = "tensorflow.data.Dataset"
TENSOR = "tensorflow.Tensor"
OPERATION = "tensorflow.Operation"
SESSION = "tensorflow.compat.v1.Session"
#: Factory return classes that docstrings do not state clearly (the resolver relies on them).
RETURNS = {
    "tensorflow.keras.models.load_model": MODEL,
    "tensorflow.keras.models.clone_model": MODEL,
    "tensorflow.keras.models.model_from_json": MODEL,
    "tensorflow.keras.saving.load_model": MODEL,
    "tensorflow.keras.utils.image_dataset_from_directory": DATASET,
    "tensorflow.keras.utils.text_dataset_from_directory": DATASET,
    "tensorflow.keras.utils.audio_dataset_from_directory": DATASET,
    "tensorflow.keras.utils.timeseries_dataset_from_array": DATASET,
    "tensorflow.data.experimental.make_csv_dataset": DATASET,
    "tensorflow.data.experimental.make_batched_features_dataset": DATASET,
    "tensorflow.data.Dataset.range": DATASET,
    "tensorflow.data.Dataset.sample_from_datasets": DATASET,
    "tensorflow.image.total_variation": TENSOR,
    "tensorflow.keras.Input": "tensorflow.keras.KerasTensor",
    "tensorflow.constant": TENSOR,
    "tensorflow.convert_to_tensor": TENSOR,
    "tensorflow.ragged.constant": "tensorflow.RaggedTensor",
    "tensorflow.keras.layers.Layer.__call__": TENSOR,
    "tensorflow.keras.losses.Loss.__call__": TENSOR,
    "tensorflow.keras.metrics.Metric.__call__": TENSOR,
    "tensorflow.keras.metrics.Metric.result": TENSOR,
    "tensorflow.keras.Model.fit": "tensorflow.keras.callbacks.History",
    "tensorflow.distribute.get_strategy": "tensorflow.distribute.Strategy",
    "tensorflow.summary.create_file_writer": "tensorflow.summary.SummaryWriter",
    "tensorflow.io.TFRecordWriter": "tensorflow.io.TFRecordWriter",
    "tensorflow.io.TFRecordWriter.__enter__": "tensorflow.io.TFRecordWriter",  # pybind: no source to read
    "tensorflow.keras.optimizers.get": "tensorflow.keras.optimizers.Optimizer",
    "tensorflow.keras.losses.get": "tensorflow.keras.losses.Loss",
    "tensorflow.keras.metrics.get": "tensorflow.keras.metrics.Metric",
    "tensorflow.keras.layers.deserialize": "tensorflow.keras.layers.Layer",
    # "A new TensorArray object ... Use this object for all subsequent operations" (docstrings):
    # `ta = ta.write(i, x)` in a loop stays a TensorArray.
    "tensorflow.TensorArray.write": "tensorflow.TensorArray",
    "tensorflow.TensorArray.scatter": "tensorflow.TensorArray",
    "tensorflow.TensorArray.unstack": "tensorflow.TensorArray",
    "tensorflow.TensorArray.split": "tensorflow.TensorArray",
    # TF1 graphs: "An Op that initializes ...", "An Operation that updates the variables" (docstrings),
    # so that `init.run()` / `training_op.run(feed_dict=...)` in a session resolve (`Operation.run`).
    "tensorflow.compat.v1.global_variables_initializer": OPERATION,
    "tensorflow.compat.v1.local_variables_initializer": OPERATION,
    "tensorflow.compat.v1.variables_initializer": OPERATION,
    "tensorflow.compat.v1.tables_initializer": OPERATION,
    "tensorflow.group": OPERATION,
    "tensorflow.compat.v1.train.Optimizer.minimize": OPERATION,
    "tensorflow.compat.v1.train.Optimizer.apply_gradients": OPERATION,
    "tensorflow.compat.v1.get_variable": "tensorflow.Variable",
    "tensorflow.compat.v1.get_default_session": SESSION,
    "tensorflow.compat.v1.train.MonitoredTrainingSession": "tensorflow.compat.v1.train.MonitoredSession",
}
#: Names in a docstring's Returns section that identify a public class.
DOC_RETURNS = {
    "Tensor": TENSOR,
    "tf.Tensor": TENSOR,
    "Dataset": DATASET,
    "tf.data.Dataset": DATASET,
    "RaggedTensor": "tensorflow.RaggedTensor",
    "tf.RaggedTensor": "tensorflow.RaggedTensor",
    "SparseTensor": "tensorflow.sparse.SparseTensor",
    "tf.SparseTensor": "tensorflow.sparse.SparseTensor",
    "tf.sparse.SparseTensor": "tensorflow.sparse.SparseTensor",
    "Model": MODEL,
    "keras.Model": MODEL,
    "tf.keras.Model": MODEL,
}
_RETURNS_SECTION = re.compile(r"\n\s*Returns?:\s*\n(.*?)(?:\n\s*\n\s*[A-Z][A-Za-z ]*:\s*\n|\Z)", re.S)
_BACKTICKED = re.compile(r"`([A-Za-z_][\w.]*)`")


def _walk(roots: list[tuple[str, types.ModuleType]]) -> dict[int, tuple[object, list[str]]]:
    """Every public object reachable from the roots: id -> (object, paths), breadth first.

    A module reached by several paths (``tf.optimizers`` is ``tf.keras.optimizers``) is listed
    under each, so that its members get every path too; a module is not entered again below
    itself (import cycles)."""
    found: dict[int, tuple[object, list[str]]] = {}
    queue = deque((path, module, frozenset()) for path, module in roots)
    while queue:
        path, module, ancestors = queue.popleft()
        found.setdefault(id(module), (module, []))[1].append(path)
        if id(module) in ancestors or path.startswith(SKIP_MODULES):
            continue
        inside = ancestors | {id(module)}
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            try:
                obj = getattr(module, name)
            except Exception:  # lazy loaders raise for symbols gone in Keras 3
                continue
            child = f"{path}.{name}"
            if isinstance(obj, types.ModuleType):
                if _is_api_module(obj) and name not in SKIP_NAMES:
                    queue.append((child, obj, inside))
            elif inspect.isclass(obj) or callable(obj):
                found.setdefault(id(obj), (obj, []))[1].append(child)
    return found


def _is_api_module(module: types.ModuleType) -> bool:
    name = getattr(module, "__name__", "") or ""
    return name.startswith(("tensorflow.", "keras.", "tf_keras.")) and ".src" not in name and ".python" not in name


def _is_keras(obj: object) -> bool:
    attr = "__name__" if isinstance(obj, types.ModuleType) else "__module__"
    return str(getattr(obj, attr, "") or "").startswith("keras")


def _name_groups(obj: object, paths: list[str]) -> list[list[str]]:
    """The paths of one object, split by their last name when the object is a shared stand-in
    whose own name is none of them (Keras 3 binds `tf.keras.optimizers.legacy.Adam`, `SGD`,
    `RMSprop`... to one placeholder class): each public name then keeps its own symbol. Real
    aliases (`Conv2D` and `Convolution2D`, whose class is named `Conv2D`) stay together, and so do
    functions and lower-case names (`tf.math.mod` is `floormod`, `zeros_initializer` is `zeros`)."""
    leaves: dict[str, list[str]] = {}
    for path in paths:
        leaves.setdefault(path.rpartition(".")[2], []).append(path)
    own = getattr(obj, "__name__", None)
    class_names = inspect.isclass(obj) and all(leaf[:1].isupper() for leaf in leaves)
    if len(leaves) < 2 or own in leaves or not class_names:
        return [paths]
    return [leaves[leaf] for leaf in sorted(leaves)]


def _canonical_path(obj: object, paths: list[str]) -> str:
    """Shortest path (Keras objects under tensorflow.keras); ties go to lower-case function
    names (``losses.mae`` over ``losses.MAE``), then to the shorter, then alphabetical."""
    keras_obj = _is_keras(obj)
    function = inspect.isfunction(obj)

    def key(path: str) -> tuple:
        segments = path.split(".")
        return (
            keras_obj and not path.startswith("tensorflow.keras."),
            len(segments),
            function and segments[-1][:1].isupper(),
            len(path),
            path,
        )

    return min(paths, key=key)


def _encode_params(sig: inspect.Signature, drop_first: bool) -> list[str]:
    params = list(sig.parameters.values())
    if drop_first and params and params[0].kind in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD):
        params = params[1:]
    out: list[str] = []
    star = False
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            out.append("*" + p.name)
            star = True
        elif p.kind is p.VAR_KEYWORD:
            out.append("**" + p.name)
        else:
            if p.kind is p.KEYWORD_ONLY and not star:
                out.append("*")
                star = True
            out.append(p.name)
    return out


def _params(obj: object, drop_first: bool = False) -> list[str]:
    try:
        return _encode_params(inspect.signature(obj), drop_first)
    except (TypeError, ValueError):
        return []


def _constructor_params(cls: type) -> list[str]:
    """Constructor parameters; Keras classes hide `__init__` behind a varargs `__new__`."""
    params = _params(cls)
    if params == ["*args", "**kwargs"] and "__init__" in dir(cls):
        params = _params(cls.__init__, drop_first=True)
    if params == ["*args", "**kwargs"] and getattr(cls, "__module__", "") == "keras.src.models.model":
        from keras.src.models.functional import Functional  # Model(inputs, outputs) builds one

        params = _params(Functional.__init__, drop_first=True)
    return params


def _method_params(raw: object) -> list[str] | None:
    """Parameter names of a class attribute as seen on an instance; None if not callable."""
    if isinstance(raw, staticmethod):
        return _params(raw.__func__)
    if isinstance(raw, classmethod):
        return _params(raw.__func__, drop_first=True)
    if isinstance(raw, (property, types.MemberDescriptorType, types.GetSetDescriptorType)):
        return None
    if inspect.isfunction(raw):
        return _params(raw, drop_first=True)
    if inspect.ismethoddescriptor(raw) or inspect.isbuiltin(raw):
        return _params(raw, drop_first=True)
    if callable(raw) and not inspect.isclass(raw):
        return _params(raw, drop_first=hasattr(raw, "__get__"))
    return None


def _doc_returns(obj: object, own: dict[str, str]) -> str | None:
    doc = inspect.getdoc(obj) if not isinstance(obj, (staticmethod, classmethod)) else inspect.getdoc(obj.__func__)
    match = _RETURNS_SECTION.search("\n" + (doc or ""))
    if match is None:
        return None
    section = match.group(1)
    for name in _BACKTICKED.findall(section):
        if name in own:
            return own[name]
        if name in DOC_RETURNS:
            return DOC_RETURNS[name]
    if re.search(r"\b(tensor|Tensor)\b", section.split(".")[0]):
        return TENSOR
    return None


def _enters_self(raw: object, own: dict[str, str]) -> str | None:
    """The class itself if its `__enter__` returns only `self` or is annotated so (read from its
    source), else None: `with tf.GradientTape() as tape` binds the tape, `with tf.name_scope(...)
    as s` a string."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(raw)))
    except (OSError, TypeError, SyntaxError):
        return None
    func = tree.body[0] if tree.body and isinstance(tree.body[0], ast.FunctionDef) else None
    if func is None or not func.args.args:
        return None
    cls_name = next(iter(own))
    annotation = func.returns
    if isinstance(annotation, ast.Constant) and annotation.value == cls_name:
        return own[cls_name]
    if isinstance(annotation, ast.Name) and annotation.id == cls_name:
        return own[cls_name]
    first = func.args.args[0].arg
    nested = {id(n) for d in ast.walk(func) if d is not func and isinstance(d, (ast.FunctionDef, ast.Lambda))
              for n in ast.walk(d)}
    returns = [n for n in ast.walk(func) if isinstance(n, ast.Return) and id(n) not in nested]
    if returns and all(isinstance(r.value, ast.Name) and r.value.id == first for r in returns):
        return own[cls_name]
    return None


class _Builder:
    def __init__(self, found: dict[int, tuple[object, list[str]]]):
        self.found = found
        self.canon: dict[int, str] = {oid: _canonical_path(obj, paths) for oid, (obj, paths) in found.items()}
        self.symbols: dict[str, dict] = {}

    def public(self, cls: type) -> str | None:
        return self.canon.get(id(cls)) if id(cls) in self.found and inspect.isclass(cls) else None

    def build(self) -> dict[str, dict]:
        for oid, (obj, all_paths) in self.found.items():
            groups = _name_groups(obj, all_paths)
            for paths in groups:
                self._entry(obj, paths, self.canon[oid] if len(groups) == 1 else _canonical_path(obj, paths))
        self._fold_concrete_types()
        self._apply_returns()
        return {k: self.symbols[k] for k in sorted(self.symbols)}

    def _entry(self, obj: object, paths: list[str], name: str) -> None:
        entry: dict = {"k": self._kind(obj)}
        aliases = sorted(set(paths) - {name})
        if aliases:
            entry["a"] = aliases
        if entry["k"] == "class":
            self._class(obj, name, entry)
        elif entry["k"] == "function":
            entry["p"] = _params(obj)
            returned = _doc_returns(obj, {})
            if returned:
                entry["r"] = returned
        self.symbols[name] = entry

    @staticmethod
    def _kind(obj: object) -> str:
        if isinstance(obj, types.ModuleType):
            return "module"
        return "class" if inspect.isclass(obj) else "function"

    def _class(self, cls: type, name: str, entry: dict) -> None:
        mro = cls.__mro__
        bases = [self.public(k) for k in mro[1:] if k is not object]
        entry["b"] = [b for b in bases if b]
        entry["p"] = _constructor_params(cls)
        own = {name.rpartition(".")[2]: name}
        methods, returns = self._own_methods(cls, mro, own)
        if methods:
            entry["m"] = methods
        if returns:
            entry["mr"] = returns

    def _own_methods(self, cls: type, mro: tuple, own: dict[str, str], start: int = 0):
        """Methods *cls* provides: defined in it or in private classes before its next public base."""
        methods: dict[str, list[str]] = {}
        returns: dict[str, str] = {}
        for attr in sorted(dir(cls)):
            if attr.startswith("_") and attr not in ("__call__", "__enter__"):
                continue
            definer = next((k for k in mro if attr in vars(k)), None)
            if definer is None or definer is object:
                continue
            index = mro.index(definer)
            if index < start or any(self.public(k) for k in mro[start + 1 : index + 1]):
                continue
            raw = vars(definer)[attr]
            params = _method_params(raw)
            if params is None:
                continue
            methods[attr] = params
            returned = _enters_self(raw, own) if attr == "__enter__" else _doc_returns(raw, own)
            if returned is None and attr.startswith("from_") and isinstance(raw, (staticmethod, classmethod)):
                returned = next(iter(own.values()))
            if returned:
                returns[attr] = returned
        return methods, returns

    def _fold_concrete_types(self) -> None:
        """What users hold are eager tensors and resource variables: add their private methods."""
        import tensorflow as tf

        for public, concrete in ((TENSOR, type(tf.constant(0))), ("tensorflow.Variable", type(tf.Variable(0)))):
            entry = self.symbols.get(public)
            if entry is None:
                continue
            mro = concrete.__mro__
            stop = next(i for i, k in enumerate(mro) if self.public(k) == public)
            extra, extra_returns = self._own_methods(concrete, mro[: stop + 1], {public.rpartition(".")[2]: public})
            for attr, params in extra.items():
                entry.setdefault("m", {}).setdefault(attr, params)
            for attr, returned in extra_returns.items():
                entry.setdefault("mr", {}).setdefault(attr, returned)

    def _apply_returns(self) -> None:
        aliases = {a: n for n, e in self.symbols.items() for a in [n, *e.get("a", ())]}
        for api, returned in RETURNS.items():
            target = aliases.get(returned, returned)
            if target not in self.symbols:
                print(f"warning: return class {returned} of {api} not in this TensorFlow", file=sys.stderr)
                continue
            owner, _, attr = api.rpartition(".")
            if api in aliases:
                self.symbols[aliases[api]]["r"] = target
            elif attr in self.symbols.get(aliases.get(owner, owner), {}).get("m", {}):
                self.symbols[aliases[owner]].setdefault("mr", {})[attr] = target
            else:
                print(f"warning: factory {api} not in this TensorFlow", file=sys.stderr)
        for name, entry in self.symbols.items():  # keras.applications constructors build models
            if name.startswith("tensorflow.keras.applications.") and entry["k"] == "function":
                if name.rpartition(".")[2][:1].isupper():
                    entry["r"] = MODEL
        for entry in self.symbols.values():  # methods named after their class
            if entry["k"] == "class":
                entry["mr"] = dict(sorted(entry.get("mr", {}).items()))
                if not entry["mr"]:
                    del entry["mr"]


def _all_methods(symbols: dict[str, dict], cls: str) -> set[str]:
    """Methods a catalog class has, its own and its bases' (so Keras 2 adds only what is missing)."""
    entry = symbols.get(cls, {})
    names = set(entry.get("m", {}))
    for base in entry.get("b", ()):
        names |= set(symbols.get(base, {}).get("m", {}))
    return names


def _legacy_tf_layers():
    """tf-keras' v1 API module that `tf.compat.v1.layers` loads (TF1's `Dense`, `dense`, `conv2d`...), or None."""
    try:
        return importlib.import_module("tf_keras.api._v1.keras.__internal__.legacy.layers")
    except ImportError:
        return None


def _add_keras2(symbols: dict[str, dict]) -> str | None:
    """Add the Keras 2 API (the `tf-keras` package, what `tf.keras` was up to TensorFlow 2.15) where
    Keras 3 lacks it: whole symbols marked `"v": "keras2"`, and methods of shared classes listed
    under `"m2"` (`Metric.reset_states`). Returns tf-keras' version, None when it is not installed."""
    try:
        import tf_keras
    except ImportError:
        return None
    with contextlib.redirect_stderr(io.StringIO()):  # Keras 3 factories it does not have are expected
        roots = [("tensorflow.keras", tf_keras)]
        legacy = _legacy_tf_layers()
        if legacy is not None:  # tf.compat.v1.layers: TF1's layers, kept by tf-keras
            roots.append(("tensorflow.compat.v1.layers", legacy))
        older = _Builder(_walk(roots)).build()
    known = {a: n for n, e in symbols.items() for a in e.get("a", ())} | {n: n for n in symbols}
    for name, entry in older.items():
        same = next((known[n] for n in (name, *entry.get("a", ())) if n in known), None)
        if same is None:
            entry = dict(entry, v="keras2")
            aliases = [a for a in entry.get("a", ()) if a not in known]
            entry.pop("a", None)
            if aliases:
                entry["a"] = aliases
            symbols[name] = entry
        elif symbols[same]["k"] == "class" and entry["k"] == "class":
            current = symbols[same]
            inherited = _all_methods(symbols, same)
            extra = {m: p for m, p in entry.get("m", {}).items() if m not in inherited}
            if extra:
                current["m"] = dict(sorted({**current.get("m", {}), **extra}.items()))
                current["m2"] = sorted(extra)
    return tf_keras.__version__


def _alias_reexports(symbols: dict[str, dict], found: dict[int, tuple[object, list[str]]],
                     reexports: dict[str, str]) -> None:
    """Each public name tensorflow-estimator re-exports from TensorFlow (`tf.estimator.StopAtStepHook`)
    as an alias of TensorFlow's own entry (`tf.compat.v1.train.StopAtStepHook`), where both exist."""
    known = {a for e in symbols.values() for a in e.get("a", ())}
    for public, source in reexports.items():
        if public in symbols or public in known:
            continue
        module, _, attr = source.rpartition(".")
        try:
            obj = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError):
            continue
        canonical = next((p for p in found.get(id(obj), (None, []))[1] if p in symbols), None)
        if canonical is not None:
            symbols[canonical]["a"] = sorted({*symbols[canonical].get("a", ()), public})


def _installed(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def generate() -> dict:
    """The catalog payload for the installed TensorFlow and Keras."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf

    found = _walk([("tensorflow", tf), ("tensorflow.keras", keras)])
    symbols = _Builder(found).build()
    versions: dict[str, str] = {"tensorflow": tf.__version__, "keras": keras.__version__}
    keras2 = _add_keras2(symbols)
    if keras2:
        versions["tf_keras"] = keras2
    from tools.catalog.estimator_source import estimator_symbols

    estimator, reexports, estimator_version = estimator_symbols()
    if estimator_version:
        versions["tensorflow_estimator"] = estimator_version
        symbols.update((k, v) for k, v in estimator.items() if k not in symbols)
        _alias_reexports(symbols, found, reexports)
    sklearn_version = _installed("scikit-learn")
    if sklearn_version:  # keras.wrappers.SKLearn* inherit its estimators' methods only when it imports
        versions["scikit_learn"] = sklearn_version
    symbols = {k: symbols[k] for k in sorted(symbols)}
    return {
        "format": FORMAT,
        "versions": versions,
        "generator": "python -m tools.catalog.generate",
        "symbols": symbols,
    }


def encode(payload: dict) -> bytes:
    """Deterministic gzip JSON (no timestamp in the gzip header)."""
    text = json.dumps(payload, separators=(",", ":"), sort_keys=False, ensure_ascii=False)
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA_DIR / "catalog" / CATALOG_FILE)
    args = parser.parse_args(argv)
    payload = generate()
    atomic_write_bytes(args.out, encode(payload))
    counts: dict[str, int] = {}
    for entry in payload["symbols"].values():
        counts[entry["k"]] = counts.get(entry["k"], 0) + 1
    print(f"wrote {args.out}: {len(payload['symbols'])} symbols {counts}, {payload['versions']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
