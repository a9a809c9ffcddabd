"""The canonical API name of a raw measured signature, through the catalog (never a second normaliser)."""

from __future__ import annotations

from collections.abc import Callable


def canonicaliser(require_catalog: bool = True) -> Callable[[str], str]:
    """A function raw signature -> canonical API name, loading the catalog once.

    Signatures that are not call chains (FECoM's ``project-level`` record) keep their raw text.
    Without the catalog file, ``require_catalog=False`` falls back to the catalog package's
    rule-based `normalise_name` (good enough to look names up; the KB build insists on the catalog).
    """
    from greenlint.catalog.catalog import CatalogError, load_catalog
    from greenlint.catalog.names import normalise_name, strip_call_parens

    try:
        lookup = load_catalog().canonical
    except CatalogError:
        if require_catalog:
            raise
        lookup = lambda chain: None  # noqa: E731

    def canonical(raw: str) -> str:
        try:
            chain = strip_call_parens(raw)
        except ValueError:
            return raw
        return lookup(chain) or normalise_name(chain)

    return canonical
