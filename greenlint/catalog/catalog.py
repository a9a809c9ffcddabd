"""The TF/Keras API catalog, loaded from `data/catalog/` without TensorFlow.

The shipped file (`python -m tools.catalog.generate` writes it) maps canonical names to
compact entries::

    {"k": "module|class|function",   # kind
     "a": [alias, ...],              # other public paths reaching the same object
     "b": [base, ...],               # public base classes, canonical, MRO order (classes)
     "p": [param, ...],              # parameter names in order, no self; "*args", "**kw", "*"
     "r": "tensorflow.data.Dataset", # return class, where known
     "m": {method: [param, ...]},    # methods the class defines (or inherits from private bases)
     "mr": {method: return class}}   # their return classes, where known

A method is `<class>.<name>` and belongs to the nearest class in the MRO listing it.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from greenlint.catalog import kinds
from greenlint.catalog.names import TF1_PREFIX, _collapse_prefix, is_tf_name, normalise_name, strip_call_parens
from greenlint.paths import DATA_DIR

CATALOG_FILE = "catalog.json.gz"
_TF = "tensorflow."
#: Namespaces TF1 names are never looked up again from: already versioned, or Keras (its own API).
_NOT_TF1 = ("compat.", "keras.")
#: Module names of APIs gone from the catalog's TensorFlow (estimator, compat.v1.layers): a `family` goes on through them.
_MODULE_NAMES = frozenset({"estimator", "layers", "inputs", "export", "experimental", "feature_column", "contrib"})
#: TF1 contrib namespaces gone from TensorFlow, each with where its names moved, in the order looked up:
#: `tf.contrib.data`'s transformations went to `tf.data.experimental` (TF 1.13: `map_and_batch`,
#: `shuffle_and_repeat`, `prefetch_to_device`), its datasets to `tf.data` (TF 1.4: `TFRecordDataset`).
_MOVED = (("tensorflow.contrib.data.", ("tensorflow.data.experimental.", "tensorflow.data.")),)


class CatalogError(Exception):
    """The catalog file is missing or malformed."""


@dataclass(frozen=True)
class Symbol:
    """One public TF/Keras symbol; for a method, `defined_in` is the class that provides it."""

    name: str
    kind: str  # module | class | function | method
    aliases: tuple[str, ...] = ()
    bases: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    returns: str | None = None
    defined_in: str | None = None


class Catalog:
    """Canonical names, signatures, bases and factory return types of the TF/Keras API."""

    def __init__(self, payload: dict, digest: str = ""):
        self.versions: dict[str, str] = payload.get("versions", {})
        self.digest = digest  # of the file it was read from: what an answer derived from it is kept under
        self._symbols: dict[str, dict] = payload["symbols"]
        self._canonical_memo: dict[str, str | None] = {}
        self._kind_memo: dict[str, str] = {}  # kinds.kind_of reads only the symbols, which never change

    @functools.cached_property
    def _aliases(self) -> dict[str, str]:
        index = {name: name for name in self._symbols}
        for name, entry in self._symbols.items():
            for alias in entry.get("a", ()):
                index.setdefault(alias, name)
        return index

    def __contains__(self, name: str) -> bool:
        return name in self._symbols

    def __len__(self) -> int:
        return len(self._symbols)

    # -- names -----------------------------------------------------------------------------
    def canonical(self, name: str) -> str | None:
        """The canonical API name of a dotted name or raw signature; None if not TF/Keras.

        Call chains follow factory return types (``tensorflow.data.Dataset.from_tensor_slices
        .batch`` -> ``tensorflow.data.Dataset.batch``). A TF/Keras name the catalog cannot
        resolve gets the rule-based `normalise_name` form. Memoised.
        """
        if name in self._canonical_memo:
            return self._canonical_memo[name]
        try:
            dotted = _collapse_prefix((strip_call_parens(name) if "(" in name or "[" in name else name.strip()).replace(" ", ""))
        except ValueError:  # not a name
            dotted = ""
        found = None
        if is_tf_name(dotted):
            found = self._walk(dotted) or self._walk_tf1(dotted) or self._walk_moved(dotted)
            if found is None:
                ruled = normalise_name(dotted)
                found = self._walk(ruled) or ruled
        self._canonical_memo[name] = found
        return found

    def _walk(self, dotted: str) -> str | None:
        """Resolve the longest known prefix, then each further segment as a member."""
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            current = self._aliases.get(".".join(parts[:i]))
            if current is not None:
                break
        else:
            return None
        for segment in parts[i:]:
            current = self._member(current, segment)
            if current is None:
                return None
        return current

    def _walk_tf1(self, dotted: str) -> str | None:
        """A TensorFlow 1 name gone from TF2's namespace (`tf.Session`, `tf.placeholder`,
        `tf.train.GradientDescentOptimizer`) as `tf.compat.v1` keeps it; only reached when the
        TF2 name does not resolve, so TF2's own symbols always win."""
        rest = dotted[len(_TF) :] if dotted.startswith(_TF) else None
        if not rest or rest.startswith(_NOT_TF1):
            return None
        return self._walk(TF1_PREFIX + rest)

    def _walk_moved(self, dotted: str) -> str | None:
        """A name of a contrib namespace TensorFlow dropped (`_MOVED`) as the namespace its names moved
        to keeps it (`tf.contrib.data.map_and_batch`: `tf.data.experimental.map_and_batch`)."""
        for old, new in _MOVED:
            if dotted.startswith(old):
                rest = dotted[len(old) :]
                return next(filter(None, (self._walk(place + rest) for place in new)), None)
        return None

    def _member(self, owner: str, segment: str) -> str | None:
        entry = self._symbols.get(owner)
        if entry is None:  # a method: continue on what it returns
            cls = self.returns(owner)
            return self.resolve_method(cls, segment) if cls else None
        kind = entry["k"]
        if kind == "class":
            found = self.resolve_method(owner, segment)
            if found is None:
                # FECoM writes an instance by its class: `Sequential(x).numpy` calls the model.
                produced = self.returns(f"{owner}.__call__")
                found = self.resolve_method(produced, segment) if produced else None
            return found
        if kind == "function" and entry.get("r"):
            return self.resolve_method(entry["r"], segment)
        return None

    # -- lookups ---------------------------------------------------------------------------
    def symbol(self, name: str) -> Symbol | None:
        """The symbol for a canonical (or alias) name, methods included; None if unknown."""
        canonical = self._aliases.get(name) or self.canonical(name)
        if canonical is None:
            return None
        entry = self._symbols.get(canonical)
        if entry is not None:
            return Symbol(
                name=canonical,
                kind=entry["k"],
                aliases=tuple(entry.get("a", ())),
                bases=tuple(entry.get("b", ())),
                methods=self._method_names(canonical) if entry["k"] == "class" else (),
                params=tuple(entry.get("p", ())),
                returns=entry.get("r"),
            )
        owner, _, method = canonical.rpartition(".")
        found = self._method(owner, method)
        if found is None:
            return None
        provider, params, returns = found
        return Symbol(
            name=canonical, kind="method", params=params, returns=returns, defined_in=provider
        )

    def _method(self, cls: str, method: str) -> tuple[str, tuple[str, ...], str | None] | None:
        """(providing class, params, return class) of a method of a canonical class."""
        provider = self._provider(cls, method)
        if provider is None:
            return None
        provided = self._symbols[provider]
        params = provided["m"][method]
        if method == "__call__" and params == ["*args", "**kwargs"]:
            forwarded = self._provider(cls, "call")  # Keras: __call__ forwards to call()
            params = self._symbols[forwarded]["m"]["call"] if forwarded else params
        returns = provided.get("mr", {}).get(method)
        if returns is None and method == "__call__":
            returns = self._inherited_return(cls, method)
        return provider, tuple(params), returns

    def _inherited_return(self, cls: str, method: str) -> str | None:
        """The return class of *method* as the first base of *cls* that states one has it: Keras'
        preprocessing layers (`Rescaling`, `RandomFlip`) override `__call__` to run inside tf.data
        without restating that it gives what `Layer.__call__` gives, a tensor."""
        for klass in self._symbols[cls].get("b", ()):
            returned = self._symbols.get(klass, {}).get("mr", {}).get(method)
            if returned is not None:
                return returned
        return None

    def _method_names(self, cls: str) -> tuple[str, ...]:
        names: set[str] = set()
        for klass in (cls, *self._symbols[cls].get("b", ())):
            names.update(self._symbols.get(klass, {}).get("m", ()))
        return tuple(sorted(names))

    def _provider(self, cls: str, method: str) -> str | None:
        """The class in *cls*'s MRO (itself first) that provides *method*."""
        entry = self._symbols.get(cls)
        if entry is None or entry["k"] != "class":
            return None
        for klass in (cls, *entry.get("b", ())):
            if method in self._symbols.get(klass, {}).get("m", ()):
                return klass
        return None

    def resolve_method(self, cls: str, method: str) -> str | None:
        """``<cls>.<method>`` if the class defines or inherits *method*, else None."""
        cls = self._aliases.get(cls, cls)
        return f"{cls}.{method}" if self._provider(cls, method) else None

    def params(self, name: str) -> list[str]:
        """Parameter names in order (no self; ``*args``/``**kwargs``/``*`` markers kept)."""
        sym = self.symbol(name)
        return list(sym.params) if sym else []

    def returns(self, name: str) -> str | None:
        """The canonical class a function, method or constructor call returns, if known."""
        name = self._aliases.get(name, name)
        entry = self._symbols.get(name)
        if entry is not None:
            return name if entry["k"] == "class" else entry.get("r")
        found = self._method(*name.rpartition(".")[::2])
        return found[2] if found else None

    def is_subclass(self, cls: str, base: str) -> bool:
        entry = self._symbols.get(cls)
        return cls == base or (entry is not None and base in entry.get("b", ()))

    # -- grouping for the predictor ----------------------------------------------------------
    def kind(self, api: str) -> str:
        """Coarse behaviour group of a canonical API (see `greenlint.catalog.kinds`), memoised: the
        resolver asks it of every call it records."""
        kind = self._kind_memo.get(api)
        if kind is None:
            kind = self._kind_memo[api] = kinds.kind_of(self, api)
        return kind

    def family(self, api: str) -> str:
        """Module-level group of a canonical API, e.g. ``tensorflow.keras.layers``: the longest module
        prefix the catalog knows, extended by the lower-case segments that follow it and that the
        catalog does not know (``tensorflow.compat.v1.estimator``: gone from TF 2.16+)."""
        parts = api.split(".")
        known = 0
        for i in range(len(parts) - 1, 0, -1):
            entry = self._symbols.get(self._aliases.get(".".join(parts[:i]), ""))
            if entry is not None and entry["k"] == "module":
                known = i
                break
        end = known
        while end < len(parts) - 1 and parts[end] in _MODULE_NAMES and ".".join(parts[: end + 1]) not in self._aliases:
            end += 1
        return ".".join(parts[:end]) or api


def read_catalog(path: Path) -> Catalog:
    """Read one catalog file; CatalogError names the file and the problem."""
    try:
        raw = path.read_bytes()
        payload = json.loads(gzip.decompress(raw).decode("utf-8"))
    except FileNotFoundError as exc:
        raise CatalogError(f"{path}: catalog file missing (run python -m tools.catalog.generate)") from exc
    except (OSError, EOFError, ValueError) as exc:
        raise CatalogError(f"{path}: not a readable gzip JSON catalog: {exc}") from exc
    if not isinstance(payload, dict) or not isinstance(payload.get("symbols"), dict):
        raise CatalogError(f"{path}: catalog has no 'symbols' mapping")
    return Catalog(payload, hashlib.sha256(raw).hexdigest()[:16])


@functools.lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """The bundled catalog (`data/catalog/catalog.json.gz`), read once per process."""
    return read_catalog(DATA_DIR / "catalog" / CATALOG_FILE)
