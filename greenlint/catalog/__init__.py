"""TF/Keras API catalog: canonical names, aliases, signatures, bases and factory return types.

Loaded from `data/catalog/` without importing TensorFlow; regenerate it with
``python -m tools.catalog.generate`` where TensorFlow is installed.

The package's names are imported from their modules on first use: a module reading
`greenlint.catalog.names` alone (a rule's `TF1_PREFIX`, in a warm run) loads no catalog loader.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from greenlint.catalog.catalog import Catalog, CatalogError, Symbol, load_catalog, read_catalog
    from greenlint.catalog.names import normalise_name, strip_call_parens

#: Each name of the package -> its module.
_MODULES = {
    "Catalog": "catalog",
    "CatalogError": "catalog",
    "Symbol": "catalog",
    "load_catalog": "catalog",
    "read_catalog": "catalog",
    "normalise_name": "names",
    "strip_call_parens": "names",
}

__all__ = [
    "Catalog",
    "CatalogError",
    "Symbol",
    "load_catalog",
    "normalise_name",
    "read_catalog",
    "strip_call_parens",
]


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)
