"""Which Keras a checked file trains with, for rules whose advice exists only in some Keras versions.

Two Keras share the `keras.Model` API the resolver maps to `tensorflow.keras`:

- **tf.keras** (`tensorflow.keras`, `from tensorflow import keras`, the `tf_keras` package), and
  the standalone `keras` package from 2.4 on (2.4 to 2.15 are tf.keras under another name, Keras
  3 runs on TensorFlow with its own `keras.mixed_precision`);
- **multi-backend Keras 2.0-2.3**, the standalone `keras` package of 2017-2019 that ran on
  TensorFlow 1.x (or Theano, CNTK) through `keras.backend`. It has no dtype policy
  (`keras.mixed_precision` appeared with tf.keras 2.1's experimental API), and TensorFlow's
  graph rewrite (`enable_mixed_precision_graph_rewrite`, TF 1.14 to 2.x) accepts only a
  `tf.train` or `tf.keras` optimizer, not a multi-backend `keras.optimizers` one.

A project is read as multi-backend Keras when the file, and the project modules it imports
directly (a `from model import *` brings the model's imports), import the standalone `keras`
and never `tensorflow.keras` (bert4keras's backend imports either, on an environment variable:
not multi-backend only), and one of these says the Keras is 2.3 or older: the file calls
`fit_generator`, `predict_generator` or `evaluate_generator` (the only way to train from a
generator before tf.keras 2.1 merged them into `fit`; standalone Keras 2.4+ users call `fit`, and
Keras 3 has none of them), or passes Keras 1's `nb_epoch=` to `fit` (tf.keras's `fit` takes no
`**kwargs` from TensorFlow 2.2, the oldest standalone Keras 2.4 runs on: it rejects the name), the file imports `keras_contrib` (keras-contrib extends multi-backend
Keras alone, through its `keras.engine` and `keras.backend` internals; its README sends tf.keras
users to TensorFlow Addons), or the project pins a TensorFlow older than 2.2 (1.x, 2.0, 2.1: Keras
2.4, the first that is tf.keras, requires 2.2; greenlint/rules/tf_target.py reads the pin), or, in a
notebook, the saved output of a cell reading `keras.__version__` is a version of 2.3 or older (the
Keras that notebook ran with: `tf_target.recorded`; 2.4 or later there says tf.keras). It is read as
tf.keras where the file, or a project module it imports directly, gives `fit`, `evaluate` or `predict` a
Python generator (multi-backend Keras takes only arrays there: a generator goes to `fit_generator`). A project module the file imports directly,
or a module beside it, that calls one of those methods or imports `keras_contrib` says the same
of the file (a demo script beside the training script it shares the project's Keras with, a
sample script importing the package whose module trains with `fit_generator`). A program that
imports the standalone `keras` alone, with none of these signs, may run on any of them: its Keras
is unknown (`Flavour.unknown`).
"""

from __future__ import annotations

import ast
import os
import re
from typing import NamedTuple

from greenlint.analysis.project import direct_imports, import_statements
from greenlint.rules.base import FileFacts, last_name
from greenlint.rules.beside import KERAS_2_SIGNS, beside_mentions
from greenlint.rules.callbacks import parsed, read_text
from greenlint.rules.syntax import cell_units, own_yields
from greenlint.rules.tf_target import TargetVersion, recorded, target

#: Model methods that only multi-backend Keras (and tf.keras before 2.1) used for generator data.
GENERATOR_METHODS = frozenset({"fit_generator", "predict_generator", "evaluate_generator"})
#: Keras 1's name of `fit`'s epochs, which multi-backend Keras 2 still reads and tf.keras rejects from
#: TensorFlow 2.2 (its `fit` takes no `**kwargs`), the oldest standalone Keras 2.4 runs on.
FORMER_EPOCHS = "nb_epoch"
FIT_METHODS = frozenset({"fit", "fit_generator"})
#: Model methods that take a Python generator in tf.keras (2.1 on) and Keras 3, never in multi-backend Keras.
_GENERATOR_FED = ("fit", "evaluate", "predict")
#: Extensions of multi-backend Keras alone: their import says the Keras is 2.3 or older.
MULTI_BACKEND_EXTENSIONS = ("keras_contrib",)
#: The oldest TensorFlow standalone Keras 2.4 (the first that is tf.keras) runs on: its `__init__`
#: raises "Keras requires TensorFlow 2.2 or higher"; on an older pin the `keras` is 2.3 or older.
TF_KERAS_FROM = (2, 2)
#: The first standalone Keras that is tf.keras under another name (multi-backend Keras ends at 2.3).
KERAS_TF_FROM = (2, 4)
#: Modules (and their submodules) whose import means tf.keras; `tf_keras` is Keras 2 for TF 2.16+.
_TF_KERAS = ("tensorflow.keras", "tensorflow.python.keras", "tf_keras")
_SPLIT = re.compile(r"\W+")


class Flavour(NamedTuple):
    """*multi_backend*: the program runs on standalone Keras 2.0-2.3; *basis* says why ("" when not);
    *unknown*: it imports the standalone `keras` alone and nothing says which (multi-backend 2.0-2.3,
    tf.keras 2.4-2.15 under another name, or Keras 3)."""

    multi_backend: bool
    basis: str
    unknown: bool = False


def _kerases(text: str) -> tuple[bool, bool]:
    """(imports the standalone `keras`, uses tf.keras) in a module's text."""
    standalone, tf_keras = False, "tf.keras" in text
    for dots, dotted, names, plain in import_statements(text):
        if dots:
            continue
        if plain is not None:
            modules = [item.split()[0] for item in plain.split(",") if item.split()]
        else:
            modules = [dotted]
            if dotted == "tensorflow" and "keras" in _SPLIT.split(names):
                tf_keras = True
        for module in modules:
            if module == "keras" or module.startswith("keras."):
                standalone = True
            elif module.split(".")[0] in _TF_KERAS or module.startswith(_TF_KERAS):
                tf_keras = True
    return standalone, tf_keras


def standalone_only(facts: FileFacts) -> bool:
    """The file imports the standalone `keras` package and never tf.keras: which Keras runs it
    (multi-backend 2.0-2.3, tf.keras 2.4-2.15 under another name, or Keras 3) the code alone does
    not say."""
    standalone, tf_keras = _kerases(facts.text)
    return standalone and not tf_keras


def _extension(text: str) -> str | None:
    """The first extension of multi-backend Keras alone the module imports (`keras_contrib`), if any."""
    for dots, dotted, _, plain in import_statements(text):
        modules = [item.split()[0] for item in plain.split(",") if item.split()] if plain is not None else [dotted]
        for module in modules if not dots else ():
            if module.split(".")[0] in MULTI_BACKEND_EXTENSIONS:
                return module.split(".")[0]
    return None


def _generator_methods(facts: FileFacts) -> str | None:
    """The first Keras 2 generator method the file calls (`fit_generator()`), or Keras 1's
    `nb_epoch=` given to a `fit`, if any."""
    for cell in facts.cells:
        for node in facts.nodes(cell, ast.Call):
            if not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr in GENERATOR_METHODS:
                return f"`{node.func.attr}()`"
            if node.func.attr in FIT_METHODS and any(k.arg == FORMER_EPOCHS for k in node.keywords):
                return f"`{node.func.attr}({FORMER_EPOCHS}=...)`"
    return None


def keras_flavour(facts: FileFacts, tf: TargetVersion | None = None) -> Flavour:
    """Whether the file's program runs on multi-backend Keras (see the module's docstring).
    *tf*: the TensorFlow the project targets, when the caller has it."""
    text = facts.text
    standalone, tf_keras = _kerases(text)
    imported_signs = False
    modules = _Modules(facts)
    for path in modules.imports(modules.path) if not tf_keras else ():
        imported = modules.text(path)
        if imported is None:
            continue
        more = _kerases(imported)
        standalone, tf_keras = standalone or more[0], tf_keras or more[1]
        imported_signs = imported_signs or KERAS_2_SIGNS.search(imported) is not None
    if not standalone or tf_keras:
        return Flavour(False, "")
    method = _generator_methods(facts)
    if method is not None:
        return Flavour(True, f"standalone `keras` with {method}")
    if extension := _extension(text):
        return Flavour(True, f"standalone `keras` with `{extension}`")
    if imported_signs:
        return Flavour(
            True, "standalone `keras`, and a Keras 2 generator method, `nb_epoch=` or `keras_contrib` in a module it imports"
        )
    if beside_mentions(facts.path, KERAS_2_SIGNS):
        return Flavour(
            True, "standalone `keras`, and a Keras 2 generator method, `nb_epoch=` or `keras_contrib` in a module beside it"
        )
    tf = tf if tf is not None else target(facts.path)
    if tf.basis.startswith("pinned") and tf.older_than(*TF_KERAS_FROM):
        return Flavour(True, f"standalone `keras` on {tf.shown()}")
    shown = recorded(facts.path, "keras")
    if shown is not None:
        (major, minor), cell = shown
        basis = f"standalone `keras` {major}.{minor} (the notebook's saved output of `keras.__version__`, cell {cell})"
        if (major, minor) < KERAS_TF_FROM:
            return Flavour(True, basis)
        return Flavour(False, f"{basis}: Keras 2.4 or later")
    fed = _fed_a_generator(modules)
    if fed is not None:
        return Flavour(False, f"standalone `keras` whose {fed}: Keras 2.4 or later")
    return Flavour(False, "", unknown=True)


class _Modules:
    """The file and the project modules around it that `keras_flavour` reads, each read and parsed
    once: the file's text and trees are its analysis' (a notebook's cells)."""

    def __init__(self, facts: FileFacts) -> None:
        self.path = os.path.abspath(facts.path)
        self._facts = facts
        self._texts: dict[str, str | None] = {self.path: facts.text}
        self._units: dict[str, list[tuple[int | None, ast.Module]]] = {}
        self._imports: dict[str, list[str]] = {}

    def text(self, path: str) -> str | None:
        """The module's text (`callbacks.read_text`), None if unreadable."""
        if path not in self._texts:
            self._texts[path] = read_text(path)
        return self._texts[path]

    def units(self, path: str) -> list[tuple[int | None, ast.Module]]:
        """The module's trees with their cells (none where it cannot be read or parsed)."""
        if path == self.path:
            return cell_units(self._facts)
        if path not in self._units:
            text = self.text(path)
            tree = parsed(path, text) if text is not None else None
            self._units[path] = [(None, tree)] if tree is not None else []
        return self._units[path]

    def imports(self, path: str) -> list[str]:
        """The files of the project modules the module imports directly (`direct_imports`)."""
        if path not in self._imports:
            text = self.text(path)
            self._imports[path] = direct_imports(path, text) if text is not None else []
        return self._imports[path]


def _fed_a_generator(modules: _Modules) -> str | None:
    """The first `fit`/`evaluate`/`predict` call, in the file or a project module it imports
    directly, given a Python generator: a name bound to a call of a function defined with
    `yield` there or in a project module that module imports (`train_gen = image_segmentation_generator(...)`,
    then `model.fit(train_gen, steps_per_epoch=512)`). Multi-backend Keras 2.0-2.3 take only arrays
    there (a generator goes to `fit_generator`): only tf.keras (standalone 2.4 on) or Keras 3 run it."""
    for module in (modules.path, *modules.imports(modules.path)):
        text = modules.text(module)
        if text is None or not any(f".{m}(" in text for m in _GENERATOR_FED):
            continue
        units = modules.units(module)
        bound = {t.id: n.value for _, tree in units for n in ast.walk(tree)
                 if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                 for t in n.targets if isinstance(t, ast.Name)}
        generators: set[str] | None = None
        for cell, tree in units:
            for call in ast.walk(tree):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr in _GENERATOR_FED):
                    continue
                given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "x"), None)
                made = bound.get(given.id) if isinstance(given, ast.Name) else given
                name = last_name(made.func) if isinstance(made, ast.Call) else ""
                if not name:
                    continue
                generators = _generator_functions(modules, module) if generators is None else generators
                if name in generators:
                    where = f"{os.path.basename(module)}" + (f" cell {cell}" if cell is not None else "")
                    return f"`{call.func.attr}()` is given the generator `{name}()` ({where} line {call.lineno})"
    return None


def _generator_functions(modules: _Modules, path: str) -> set[str]:
    """The names of the functions defined with `yield` in the module at *path*, or in a project
    module it imports directly."""
    found: set[str] = set()
    for module in (path, *modules.imports(path)):
        if "yield" in (modules.text(module) or ""):
            found |= {f.name for _, tree in modules.units(module) for f in ast.walk(tree)
                      if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(own_yields(f))}
    return found
