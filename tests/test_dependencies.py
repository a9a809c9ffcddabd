"""pyproject.toml's dependencies match the imports: each third-party import is declared in the
install that needs it, and nothing is declared that no code imports."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import sys
from collections import defaultdict
from pathlib import Path

import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from greenlint.cli import EXTRA_MODULES

REPO = Path(__file__).resolve().parents[1]
#: Source folder -> its package (pyproject.toml's package-dir; tools/ is never installed).
PACKAGES = {"greenlint": "greenlint", "meter": "greenlint.meter", "lsp_server": "greenlint.lsp_server", "tools": "tools"}
#: Modules that may import an extra's dependencies (longest prefix wins); all others only the base's.
EXTRAS_OF = {
    "greenlint.lsp_server": {"lsp"},
    "greenlint.meter": {"meter"},
    "greenlint.hardware": {"meter"},  # NVML, optional: no library means no GPU
    "tools": {"meter", "data", "dev"},  # `make data` (never installed): TensorFlow's API, the data stack
}
#: Declared distributions that no module imports by name, and why they are declared anyway.
NOT_IMPORTED = {
    "playwright": "drives Chromium in the real-editor test (vscode-extension/test/editor, `make test-editor`)",
    "pyarrow": "the engine of pandas.read_parquet (tools/model/training_data.py)",
}
#: Distributions of import names that may not be installed here (tomli: Python < 3.11 only).
UNINSTALLED = {"tomli": "tomli", "tf_keras": "tf-keras"}


def _declared() -> dict[str, set[str]]:
    """Distribution names (canonical) of the base ("") and of each extra, extras expanded."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    groups = {"": project["dependencies"], **project["optional-dependencies"]}
    out: dict[str, set[str]] = {}
    for name, reqs in groups.items():
        out[name] = set()
        for req in map(Requirement, reqs):
            out[name] |= {canonicalize_name(req.name)} if req.name != project["name"] else set()
    for name, reqs in groups.items():
        for req in map(Requirement, reqs):
            if req.name == project["name"]:
                out[name] |= set().union(*(out[e] for e in req.extras))
    return out


def _module_name(path: Path) -> str:
    folder, *parts = path.relative_to(REPO).with_suffix("").parts
    parts = [PACKAGES[folder], *parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache  # two tests read it: the packages are parsed once
def _imports() -> dict[str, set[str]]:
    """Top-level third-party import names -> the modules importing them (anywhere in the module)."""
    own, stdlib = {"greenlint", "tools", "tests"}, set(sys.stdlib_module_names) | {"__future__"}
    found: dict[str, set[str]] = defaultdict(set)
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    names = [node.module]
                else:
                    continue
                for top in {n.partition(".")[0] for n in names} - own - stdlib:
                    found[top].add(_module_name(path))
    return found


def _allowed_extras(module: str) -> set[str]:
    prefixes = [p for p in EXTRAS_OF if module == p or module.startswith(p + ".")]
    return {""} | (EXTRAS_OF[max(prefixes, key=len)] if prefixes else set())


@functools.cache
def _installed() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def _distributions(import_name: str) -> set[str]:
    """The distributions installing *import_name* (tensorflow: tensorflow-cpu, or tensorflow too
    where tf-keras pulled it in beside it)."""
    dists = _installed().get(import_name) or [UNINSTALLED.get(import_name, "?")]
    return {canonicalize_name(d.replace("_", "-")) for d in dists}


def test_every_import_is_declared_where_its_module_runs():
    declared = _declared()
    wrong = []
    for name, modules in sorted(_imports().items()):
        dists = _distributions(name)
        for module in sorted(modules):
            if not any(dists & declared[extra] for extra in _allowed_extras(module)):
                where = sorted(e or "base" for e, ds in declared.items() if dists & ds) or ["nowhere"]
                wrong.append(f"{module} imports {name} ({', '.join(sorted(dists))}), declared in {', '.join(where)}")
    assert not wrong, "\n".join(wrong)


def test_every_declared_dependency_is_imported():
    declared = _declared()
    imported = set().union(*(_distributions(name) for name in _imports()))
    runtime = set().union(*(dists for extra, dists in declared.items() if extra != "dev"))
    assert runtime - imported == set(NOT_IMPORTED)


def test_the_base_install_has_no_tensorflow_and_no_data_stack():
    assert not {"tensorflow-cpu", "tensorflow", "keras", "pandas", "scipy", "scikit-learn"} & _declared()[""]


def test_the_missing_extra_message_names_the_right_extra():
    declared = _declared()
    for name, extra in EXTRA_MODULES.items():
        assert _distributions(name) & (declared[extra] - declared[""]), name


def test_a_command_missing_its_extra_says_which_to_install(monkeypatch, capsys):
    from greenlint.cli import kb_cmd, main

    def needs_scipy(args):
        raise ModuleNotFoundError("No module named 'scipy'", name="scipy")

    monkeypatch.setattr(kb_cmd, "run", needs_scipy)
    assert main(["kb", "stats"]) == 2
    err = capsys.readouterr().err
    assert "greenlint kb: needs the `data` extra" in err and "pip install 'greenlint[data]'" in err
    assert "from a checkout: pip install -e '.[data]'" in err  # `greenlint[data]` would fetch another greenlint
