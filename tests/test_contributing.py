"""CONTRIBUTING.md's walk-through of the three paths names functions that exist: each `file.py:name`
it cites (a path under the repository or under `greenlint/`) is defined there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: `cli/check_cmd.py:run`, `fix/engine.py:_Unit.around`, `rules/base.py:Site` (in backticks).
CITED = re.compile(r"`((?:[\w/]+/)?\w+\.py):([\w.]+)")


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else None]


def _defined(path: Path) -> set[str]:
    """The qualified names of a module's functions and classes (`Class.method` too), and of the
    names it assigns at its top level."""
    names: set[str] = set()

    def visit(body, prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(prefix + node.name)
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and not prefix:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))

    visit(ast.parse(path.read_text(encoding="utf-8")).body, "")
    return names


def test_the_three_paths_cite_functions_that_exist():
    section = _section((REPO / "CONTRIBUTING.md").read_text(encoding="utf-8"), "Three paths through the code")
    cited = CITED.findall(section)
    assert len(cited) > 20  # the walk-through cites the code it walks through
    missing = []
    for file, name in cited:
        path = next((p for p in (REPO / file, REPO / "greenlint" / file) if p.is_file()), None)
        if path is None or name not in _defined(path):
            missing.append(f"{file}:{name}")
    assert not missing, f"CONTRIBUTING.md cites what the code does not define: {missing}"
