"""libcst's QualifiedNameProvider as an oracle for calls made directly on imported names.

The oracle (70-118x slower than the resolver's pass, so only used here) names a call's
function by its imports; mapped to canonical names with the catalog, those names must agree
with the resolver's for every call it names unambiguously. Calls on objects (method calls,
`__call__`) need the resolver's value tracking, which the oracle does not have.
"""

from __future__ import annotations

import libcst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider, QualifiedNameProvider, QualifiedNameSource

from greenlint.analysis.analyse import analyse_file
from greenlint.catalog.catalog import load_catalog
from tests.analysis.expectations import fixture_files

TF_ROOTS = ("tensorflow", "keras", "tf_keras")
#: Where the resolver knows more than the oracle, and why.
ORACLE_BLIND = {
    "star_import.py": "the oracle does not resolve names from `import *`",
}


class _CallNames(libcst.CSTVisitor):
    METADATA_DEPENDENCIES = (QualifiedNameProvider, PositionProvider)

    def __init__(self):
        super().__init__()
        self.calls: list[tuple[int, set]] = []

    def visit_Call(self, node: libcst.Call) -> None:
        line = self.get_metadata(PositionProvider, node).start.line
        self.calls.append((line, set(self.get_metadata(QualifiedNameProvider, node.func, set()))))


def oracle_calls(path) -> tuple[set[tuple[int, str]], set[int]]:
    """(line, canonical api) of calls on unambiguously imported TF names; and ambiguous lines."""
    catalog = load_catalog()
    wrapper = MetadataWrapper(libcst.parse_module(path.read_text(encoding="utf-8")), unsafe_skip_copy=True)
    visitor = _CallNames()
    wrapper.visit(visitor)
    found, ambiguous = set(), set()
    for line, qualified in visitor.calls:
        imported = {q.name for q in qualified if q.source == QualifiedNameSource.IMPORT}
        if not imported:
            continue
        if len(qualified) > len(imported):  # also bound locally somewhere in the scope
            ambiguous.add(line)
            continue
        apis = set()
        for name in imported:
            if name.split(".")[0] not in TF_ROOTS:
                continue
            canonical = catalog.canonical(name)
            symbol = catalog.symbol(canonical) if canonical else None
            if symbol is not None and symbol.kind != "module":
                apis.add(symbol.name)
        if len(apis) == 1:
            found.add((line, apis.pop()))
        elif apis:
            ambiguous.add(line)
    return found, ambiguous


#: Direct calls the resolver names and the oracle cannot, and why.
RESOLVER_ONLY = {
    ("subclasses.py", "tensorflow.keras.Model.from_config"): "a class method reached through a user subclass",
}


@pytest.mark.parametrize("fixture", [p for p in fixture_files() if p.name not in ORACLE_BLIND], ids=lambda p: p.name)
def test_resolver_agrees_with_qualified_name_provider(fixture):
    expected, ambiguous = oracle_calls(fixture)
    expected = {(line, api) for line, api in expected if line not in ambiguous}
    result = analyse_file(fixture)
    found = {(site.span.line, site.api) for site in result.callsites if site.span.line not in ambiguous}
    # everything the oracle names (imported names, and call chains through catalog return types)
    assert expected - found == set()
    # every call the resolver makes on an imported name, the oracle names too
    direct = {
        (line, api)
        for site in result.callsites
        if "receiver" not in site.features
        for line, api in [(site.span.line, site.api)]
        if line not in ambiguous and (fixture.name, api) not in RESOLVER_ONLY
    }
    assert direct - expected == set()
    assert len(expected) >= 1 or fixture.name == "negatives.py"
