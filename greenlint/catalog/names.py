"""Name rules that need no catalog: raw-signature stripping and rule-based alias collapsing.

Raw signatures come from FECoM/CodeGreen patching, which prints the measured call with the
object a method is called on replaced by the call or class that produced it, keeping the
arguments of every call but the last:

- ``tensorflow.keras.Sequential.fit()`` is ``fit`` called on a Sequential model;
- ``tensorflow.data.Dataset.from_tensor_slices((x, y)).batch()`` is ``batch`` on the dataset
  that ``from_tensor_slices`` returned;
- ``tensorflow.keras.layers.Dense(128, 'relu')()`` calls the layer object a Dense constructor
  made (``<class>.__call__``).

`strip_call_parens` turns such text into a dotted chain, syntactically; turning the chain into
an API (``...from_tensor_slices.batch`` is ``tensorflow.data.Dataset.batch``) needs the factory
return types in the catalog and is done by `Catalog.canonical`.
"""

from __future__ import annotations

import re

#: TF1's namespace in TF2: where a TF1 program's `tf.X` is found (`tf.compat.v1.X`).
TF1_PREFIX = "tensorflow.compat.v1."
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*")
_CLOSE = {"(": ")", "[": "]", "{": "}"}


def _skip_group(text: str, start: int) -> int:
    """Index just past the bracket group opening at *start* (quotes respected)."""
    stack = [_CLOSE[text[start]]]
    i = start + 1
    quote = ""
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in _CLOSE:
            stack.append(_CLOSE[ch])
        elif ch in ")]}":
            if ch != stack.pop():
                raise ValueError(f"mismatched {ch!r} at {i} in signature {text!r}")
            if not stack:
                return i + 1
        i += 1
    raise ValueError(f"unbalanced brackets in signature {text!r}")


def strip_call_parens(signature: str) -> str:
    """The dotted call chain of a raw measured signature, with call arguments removed.

    Rules (each bracket group is skipped as a whole, quotes respected):

    - call arguments are dropped: ``a.b(1, (2, 3)).c()`` -> ``a.b.c``;
    - a call directly after a call or a subscript calls the object it produced:
      ``tensorflow.keras.layers.Dense(1)()`` -> ``tensorflow.keras.layers.Dense.__call__``;
    - subscripts are dropped: ``m.layers[0].adapt()`` -> ``m.layers.adapt``;
    - a leading parenthesised expression stands for the object its first dotted name makes:
      ``(tensorflow.constant ** 2).numpy()`` -> ``tensorflow.constant.numpy``.

    Raises ValueError for text that is not a call chain (unbalanced brackets, operators outside
    brackets, no name at all, e.g. ``project-level``).
    """
    text = signature.strip()
    parts: list[str] = []
    i = 0
    after_group = False  # the previous token was a call or subscript
    if text.startswith("("):
        end = _skip_group(text, 0)
        inner = _DOTTED.search(text, 1, end - 1)
        if inner is None:
            raise ValueError(f"no name in leading expression of signature {signature!r}")
        parts.extend(re.sub(r"\s+", "", inner.group()).split("."))
        i = end
        after_group = True
    expect_name = not parts
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif expect_name:
            match = _IDENT.match(text, i)
            if match is None:
                raise ValueError(f"expected a name at {i} in signature {signature!r}")
            parts.append(match.group())
            i = match.end()
            expect_name = False
            after_group = False
        elif ch == ".":
            expect_name = True
            i += 1
        elif ch == "(":
            if after_group:
                parts.append("__call__")
            i = _skip_group(text, i)
            after_group = True
        elif ch == "[":
            i = _skip_group(text, i)
            after_group = True
        else:
            raise ValueError(f"unexpected {ch!r} at {i} in signature {signature!r}")
    if expect_name:
        raise ValueError(f"signature {signature!r} ends without a name")
    return ".".join(parts)


#: Leading segments that denote the same namespace, longest first.
_PREFIXES: tuple[tuple[str, str], ...] = (
    ("tensorflow.compat.v1.compat.v1", "tensorflow.compat.v1"),  # `import tensorflow.compat.v1 as tf; tf.compat.v1.X`
    ("tensorflow.compat.v1.compat.v2", "tensorflow"),
    ("tensorflow.python.keras", "tensorflow.keras"),
    ("tensorflow.compat.v1.keras", "tensorflow.keras"),
    ("tensorflow.compat.v2.keras", "tensorflow.keras"),
    ("tensorflow.compat.v2", "tensorflow"),
    ("tensorflow.keras.src", "tensorflow.keras"),
    ("tensorflow.keras.api", "tensorflow.keras"),
    ("tensorflow._api.v2", "tensorflow"),
    ("keras._tf_keras.keras", "tensorflow.keras"),
    ("keras.src", "tensorflow.keras"),
    ("keras.api", "tensorflow.keras"),
    ("tf_keras", "tensorflow.keras"),
    ("keras", "tensorflow.keras"),
    ("tf", "tensorflow"),
)
#: Keras classes whose shortest public path is the top of `tensorflow.keras`.
_KERAS_TOP = frozenset({"Model", "Sequential", "Input"})
#: Keras 2 private module trees holding the model classes.
_KERAS_MODEL_MODULES = frozenset({"models", "engine"})


def _collapse_prefix(name: str) -> str:
    """The name with its leading namespace collapsed, repeatedly (`compat.v1.compat.v1.keras`)."""
    while True:
        for old, new in _PREFIXES:
            if name == old or name.startswith(old + "."):
                name = new + name[len(old) :]
                break
        else:
            return name


def _collapse_keras(parts: list[str]) -> list[str]:
    """Collapse private Keras module paths to the public ones (parts start tensorflow.keras)."""
    rest = parts[2:]
    if not rest:
        return parts
    first_class = next((i for i, p in enumerate(rest) if p[:1].isupper()), None)
    if first_class is None:
        return parts
    if rest[0] in _KERAS_MODEL_MODULES and rest[first_class] in _KERAS_TOP:
        # tensorflow.keras.models.Sequential, tensorflow.keras.engine.training.Model
        return parts[:2] + rest[first_class:]
    if rest[0] == "layers" and rest[first_class] == "Input":
        return parts[:2] + rest[first_class:]
    if rest[0] == "layers" and first_class > 1:
        # tensorflow.keras.layers.core.Dense, ...layers.experimental.preprocessing.Normalization
        return parts[:3] + rest[first_class:]
    return parts


def normalise_name(name: str) -> str:
    """Rule-based canonical form of a TF/Keras name the catalog does not know.

    Raw signatures are stripped first. ``tf.`` -> ``tensorflow.``; ``keras.``, ``tf_keras.``,
    ``keras.src.``, ``tensorflow.python.keras.``, ``tensorflow.compat.v1.keras.`` ->
    ``tensorflow.keras.``; ``tensorflow.compat.v2.X`` -> ``tensorflow.X``;
    ``tensorflow.keras.models.Sequential`` / ``...engine.training.Model`` ->
    ``tensorflow.keras.Sequential`` / ``tensorflow.keras.Model``; private layer modules are
    dropped (``tensorflow.keras.layers.core.Dense`` -> ``tensorflow.keras.layers.Dense``).
    Names outside TF/Keras are returned stripped but otherwise unchanged.
    """
    name = name.strip()
    if "(" in name or "[" in name:
        name = strip_call_parens(name)
    name = re.sub(r"\s+", "", name)
    name = _collapse_prefix(name)
    parts = name.split(".")
    if parts[:2] == ["tensorflow", "keras"]:
        parts = _collapse_keras(parts)
    return ".".join(parts)


def is_tf_name(name: str) -> bool:
    """Whether a (normalised) dotted name lies in the TensorFlow/Keras namespace."""
    return name == "tensorflow" or name.startswith("tensorflow.")
