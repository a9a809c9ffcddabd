"""TF/Keras API catalog: canonical names, aliases, signatures, bases and factory return types.

Loaded from `data/catalog/` without importing TensorFlow; regenerate it with
``python -m tools.catalog.generate`` where TensorFlow is installed.
"""

from greenlint.catalog.catalog import Catalog, CatalogError, Symbol, load_catalog, read_catalog
from greenlint.catalog.names import normalise_name, strip_call_parens

__all__ = [
    "Catalog",
    "CatalogError",
    "Symbol",
    "load_catalog",
    "normalise_name",
    "read_catalog",
    "strip_call_parens",
]
