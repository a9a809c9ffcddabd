"""The layer contract: README's Layout list is `.importlinter`'s, and `lint-imports` keeps it."""

from __future__ import annotations

import configparser
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import greenlint
from tools.installed_layout import link_installed_layout

REPO = Path(__file__).resolve().parents[1]
#: greenlint modules outside the layers: the package itself, its `python -m` entry point and the
#: lazy re-export of the meter (it imports nothing until used).
UNLAYERED = {"__main__"}


def _config() -> configparser.ConfigParser:
    parser = configparser.ConfigParser()
    parser.read(REPO / ".importlinter", encoding="utf-8")
    return parser


def _contract() -> configparser.SectionProxy:
    return _config()["importlinter:contract:layers"]


def _contract_layers() -> list[str]:
    return [line.strip() for line in _contract()["layers"].strip().splitlines()]


def _readme_layers() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^## Layout\n.*?^```\n(.*?)^```", text, re.S | re.M)
    assert block, "README.md's Layout section has no fenced layer list"
    # Each line is a layer, then its description after two or more spaces.
    return [re.split(r"\s{2,}", line.strip())[0] for line in block.group(1).splitlines() if line.strip()]


def test_readme_lists_the_contracts_layers():
    assert _readme_layers() == _contract_layers()


def test_every_greenlint_module_is_in_a_layer():
    layered = {name for line in _contract_layers() for name in line.split(" | ")}
    tops = {f"greenlint.{m.name}" for m in pkgutil.iter_modules(greenlint.__path__) if m.name not in UNLAYERED}
    assert tops - layered == set(), "add the new module to a layer in .importlinter and README.md's Layout"


def _lint_imports(config: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on greenlint as installed (greenlint.meter, greenlint.lsp_server inside it)."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    cmd = [str(lint_imports), str(config), "--no-cache", "--no-logo"]
    layout = link_installed_layout(tmp_path / "layout")  # the working folder comes first on sys.path
    env = {**os.environ, "PYTHONPATH": str(layout)}
    return subprocess.run(cmd, cwd=layout, env=env, capture_output=True, text=True, timeout=120)


def test_lint_imports_keeps_every_contract(tmp_path):
    contracts = [s for s in _config().sections() if s.startswith("importlinter:contract:")]
    proc = _lint_imports(REPO / ".importlinter", tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"Contracts: {len(contracts)} kept, 0 broken." in proc.stdout, proc.stdout


def test_a_back_edge_breaks_the_contract(tmp_path):
    """Swapping two layers that import each other one way must fail: the check is not vacuous."""
    text = (REPO / ".importlinter").read_text(encoding="utf-8")
    swapped = text.replace("    greenlint.check\n    greenlint.fix\n", "    greenlint.fix\n    greenlint.check\n")
    assert swapped != text
    config = tmp_path / "swapped.ini"
    config.write_text(swapped, encoding="utf-8")
    proc = _lint_imports(config, tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "greenlint.check is not allowed to import greenlint.fix" in proc.stdout, proc.stdout


def test_a_cycle_hidden_in_a_function_breaks_the_acyclic_contract(tmp_path):
    """The acyclic contract sees imports made inside functions: a package whose two modules import
    each other that way breaks it."""
    package = tmp_path / "layout" / "cyclic"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from cyclic import b\n")
    (package / "b.py").write_text("def later():\n    from cyclic import a\n\n    return a\n")
    contract = _config()["importlinter:contract:acyclic"]
    config = tmp_path / "acyclic.ini"
    config.write_text(
        f"[importlinter]\nroot_packages =\n    cyclic\n\n[importlinter:contract:acyclic]\n"
        f"name = {contract['name']}\ntype = {contract['type']}\nancestors =\n    cyclic\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), str(config), "--no-cache", "--no-logo"],
        cwd=tmp_path / "layout", env={**os.environ, "PYTHONPATH": str(tmp_path / "layout")},
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "No cycles are allowed in cyclic" in proc.stdout, proc.stdout
