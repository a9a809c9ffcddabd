"""The installed package predicts, analyses, lints and serves: what trains and evaluates the
predictor (tools/, `make data`) is neither installed nor imported by it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from greenlint.cli import main
from tools.installed_layout import package_dirs, pyproject

REPO = Path(__file__).resolve().parents[1]
#: The fitting and evaluation stack, and the data frames `make data` builds with: the runtime reads
#: the tables these fit, never fits them, and reads the KB without pandas (tools/ has what needs it).
FITTING_STACK = {"scipy", "sklearn", "statsmodels", "pandas", "pyarrow"}


def _runtime_modules() -> dict[str, Path]:
    """Every module the installed package holds (meter and lsp_server included, through package-dir),
    by their path in the installed package."""
    folders = {"": REPO / "greenlint"}
    folders |= {name.removeprefix("greenlint."): REPO / folder for name, folder in package_dirs().items()}
    return {str(Path(prefix) / path.relative_to(root)): path for prefix, root in folders.items() for path in root.rglob("*.py")}


def _imported(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):  # function-level imports too
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return names


def test_the_runtime_never_imports_tools_nor_fits():
    modules = _runtime_modules()
    assert "predict/predictor.py" in modules and "meter/callback.py" in modules  # the walk sees the package
    wrong = {path: sorted(n for n in _imported(ast.parse(file.read_bytes(), str(file)))
                          if n.partition(".")[0] in {"tools"} | FITTING_STACK)
             for path, file in modules.items()}
    assert not {p: n for p, n in wrong.items() if n}


def test_the_runtime_holds_no_training_or_evaluation_module():
    """No module of tools/model's kind: the names of its modules appear nowhere in the package."""
    kinds = {p.stem for p in (REPO / "tools" / "model").glob("*.py") if p.stem != "__init__"}
    assert {"train", "evaluate", "cross_validation", "intervals"} <= kinds
    installed = {Path(p).stem for p in _runtime_modules()}
    assert not kinds & installed


def test_the_wheel_packages_no_tools():
    packages = pyproject()["tool"]["setuptools"]["packages"]
    assert "greenlint" in packages and not [p for p in packages if p == "tools" or p.startswith("tools.")]


@pytest.mark.parametrize("command", ["train", "evaluate"])
def test_kb_has_no_training_or_evaluation_command(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["kb", command])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err
