"""One name, one concept (issue 30): within a package no two modules define a public class of
the same name, so that a module importing from two siblings never meets two meanings of one name."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "greenlint"


def test_no_two_modules_of_one_package_define_a_class_of_one_name():
    defined: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in PACKAGE.rglob("*.py"):
        package = path.relative_to(PACKAGE).parts[0] if path.parent != PACKAGE else ""
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                defined[package, node.name].append(path.relative_to(PACKAGE).as_posix())
    assert len(defined) > 100
    assert {key: paths for key, paths in defined.items() if len(paths) > 1} == {}
