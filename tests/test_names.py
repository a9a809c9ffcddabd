"""One name, one concept (issue 30): no two modules of greenlint define a public class of the same
name, so that a reader (or a module importing from both) never meets two meanings of one name."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "greenlint"


def test_no_two_modules_define_a_class_of_one_name():
    defined: dict[str, list[str]] = defaultdict(list)
    for path in PACKAGE.rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                defined[node.name].append(path.relative_to(PACKAGE).as_posix())
    assert len(defined) > 100
    assert {name: paths for name, paths in defined.items() if len(paths) > 1} == {}
