"""Rules do not import each other (CONTRIBUTING.md, "Adding a rule"): what two rules share lives in a
module of greenlint/rules/ named for what it holds, never in one of their modules. A rule module is one
that greenlint/rules/codes.json names, so a new rule is held to it with no list to edit."""

from __future__ import annotations

import json
from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parents[1]


def _rule_modules() -> set[str]:
    codes = json.loads((REPO / "greenlint" / "rules" / "codes.json").read_text(encoding="utf-8"))
    return {f"greenlint.rules.{entry['module']}" for entry in codes.values()}


def rule_imports(graph: grimp.ImportGraph, rules: set[str]) -> dict[tuple[str, str], tuple[str, ...]]:
    """Each (rule, other rule) where the first imports the second, directly or through other modules
    (function-level and type-only imports included), with the shortest chain between them."""
    found = {}
    for rule in sorted(rules):
        for other in sorted(graph.find_upstream_modules(rule) & rules):
            found[(rule, other)] = tuple(graph.find_shortest_chain(importer=rule, imported=other))
    return found


def test_no_rule_module_imports_another():
    graph = grimp.build_graph("greenlint", cache_dir=None)
    rules = _rule_modules()
    assert len(rules) > 50 and rules <= graph.modules
    found = rule_imports(graph, rules)
    chains = "\n".join(" -> ".join(chain) for chain in found.values())
    assert not chains, f"move what these rules share into a shared module of greenlint/rules/:\n{chains}"


def test_a_rule_reaching_another_through_a_shared_module_is_found():
    """The check is not vacuous: a direct import and one through a shared module are both found,
    and two rules reading the same shared module are not."""
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.shared", "pkg.helper"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a", imported="pkg.shared", line_number=3, line_contents="from pkg import shared")
    graph.add_import(importer="pkg.c", imported="pkg.shared", line_number=3, line_contents="from pkg import shared")
    graph.add_import(importer="pkg.shared", imported="pkg.helper", line_number=1, line_contents="from pkg import helper")
    assert rule_imports(graph, {"pkg.a", "pkg.b", "pkg.c"}) == {}
    graph.add_import(importer="pkg.helper", imported="pkg.b", line_number=5, line_contents="from pkg.b import x")
    graph.add_import(importer="pkg.c", imported="pkg.a", line_number=4, line_contents="from pkg.a import y")
    assert rule_imports(graph, {"pkg.a", "pkg.b", "pkg.c"}) == {
        ("pkg.a", "pkg.b"): ("pkg.a", "pkg.shared", "pkg.helper", "pkg.b"),
        ("pkg.c", "pkg.a"): ("pkg.c", "pkg.a"),
        ("pkg.c", "pkg.b"): ("pkg.c", "pkg.shared", "pkg.helper", "pkg.b"),
    }
