"""The API hierarchy the predictor falls back through: class -> module -> family -> kind -> global.

For a method `C.m` the class level is first the same method on C's relatives (`B.m` for each base
B of C, which also reaches C's other subclasses), then C's and its bases' other methods; for a
constructor `C` it is the constructors of C's relatives. The module level tries the same method
on the module's other classes before the whole module (the catalog knows no bases for classes it
lacks, such as the estimators); module and family groups hold only APIs of the call's own kind
(a layer constructor generalises from constructors, not from `adapt`). Family and kind come from
the catalog. An accessor (`summary`,
`get_vocabulary`, ...) falls back only to the same accessor on relatives and to the accessor kind:
never to its class's other methods, which may be heavy (`adapt`, `fit`).

`pooled` names one API for the Keras model methods whose cost is set by the work, not the class:
`Sequential.fit`, `MobileNetV2(...).fit` and a subclass's `fit` are all `Model.fit`.
"""

from __future__ import annotations

from functools import lru_cache, partial

LEVELS = ("api", "class", "module", "family", "kind", "global")
KERAS_MODEL = "tensorflow.keras.Model"
#: Model methods pooled under `tensorflow.keras.Model`: their cost is the work they are given.
POOLED_METHODS = frozenset({"fit", "evaluate", "predict", "train_on_batch", "test_on_batch", "predict_on_batch",
                            "fit_generator", "evaluate_generator", "predict_generator"})


class Hierarchy:
    """Fallback keys for canonical API names; `catalog=None` uses the name structure only."""

    def __init__(self, catalog=None, *, use_default: bool = True):
        self._catalog = catalog
        self._load_default = catalog is None and use_default
        self.chain = lru_cache(maxsize=None)(self._chain)
        self.kind = lru_cache(maxsize=None)(partial(self._call, "kind"))  # asked several times per prediction
        self.family = partial(self._call, "family")  # the catalog's module group (asked once per API: `chain`)

    @property
    def catalog(self):
        if self._load_default:  # loaded on first need: measured APIs never need it
            self._load_default = False
            try:
                from greenlint.catalog.catalog import load_catalog

                self._catalog = load_catalog()
            except Exception:  # catalog not built or not importable: fall back to name structure
                self._catalog = None
        return self._catalog

    def _call(self, name: str, api: str):
        fn = getattr(self.catalog, name, None)
        try:
            return fn(api) if fn else None
        except Exception:  # a catalog that cannot answer for one name must not stop predictions
            return None

    def pooled(self, api: str) -> str:
        """The API whose measurements this one shares: `Model.<m>` for any Keras model's work method."""
        cls, method, _ = self._split(api)
        if cls is None or method not in POOLED_METHODS or cls == KERAS_MODEL:
            return api
        is_model = cls == "tensorflow.keras.Sequential" or (
            cls.startswith("tensorflow.keras.applications.") and cls.rpartition(".")[2][:1].isupper()
        )
        if not is_model:
            fn = getattr(self.catalog, "is_subclass", None)
            try:
                is_model = bool(fn and fn(cls, KERAS_MODEL))
            except Exception:  # a catalog that cannot answer keeps the name
                is_model = False
        return f"{KERAS_MODEL}.{method}" if is_model else api

    def _split(self, api: str) -> tuple[str | None, str | None, str]:
        """(class, method, kind) of an API name: ("C", "m", "method"), ("C", None, "class") or (None, None, ...)."""
        sym = self._call("symbol", api)
        kind = getattr(sym, "kind", None)
        head, _, last = api.rpartition(".")
        if kind == "method" or (kind is None and head and head.rpartition(".")[2][:1].isupper() and not last[:1].isupper()):
            return head, last, "method"
        if kind == "class" or (kind is None and last[:1].isupper()):
            return api, None, "class"
        return None, None, kind or "function"

    def _bases(self, cls: str) -> list[str]:
        sym = self._call("symbol", cls)
        return [b for b in (getattr(sym, "bases", None) or ()) if b != cls]

    def _chain(self, api: str) -> tuple[tuple[str, str], ...]:
        """(level, key) pairs from nearest to farthest, excluding the API itself."""
        keys: list[tuple[str, str]] = []
        cls, method, _ = self._split(api)
        kind = self.kind(api)
        if kind == "accessor":
            related = [cls, *self._bases(cls)] if cls is not None else []
            keys += [("class", f"{k}.{method}") for k in related if method is not None]
            return (*dict.fromkeys(keys), ("kind", "accessor"), ("global", "*"))
        if cls is not None:
            related = [cls, *self._bases(cls)]
            if method is not None:
                keys += [("class", f"{k}.{method}") for k in related]
                keys += [("class", f"{k}.*") for k in related]
            else:
                keys += [("class", f"{k}()") for k in related]
        owner = cls if method is not None else api
        module = owner.rpartition(".")[0]
        if module:
            if method is not None:  # the same method on any class of the module (Linear*.train for DNN*.train)
                keys.append(("module", f"{module}.*.{method}"))
            keys.append(("module", f"{module} ({kind})" if kind else module))
        family = self.family(api)
        if family:  # a module's and a family's calls of the same kind only: a constructor is no `adapt`
            keys.append(("family", f"{family} ({kind})" if kind else str(family)))
        if kind:
            keys.append(("kind", str(kind)))
        keys.append(("global", "*"))
        return tuple(dict.fromkeys(keys))
