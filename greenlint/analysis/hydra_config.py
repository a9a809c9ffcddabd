"""Hydra configurations: the YAML file that `@hydra.main(config_path=..., config_name=...)` composes
and hands the decorated function as its first parameter, read (never run) as an options object
(`values.Options`) whose attributes are the file's values: `cfg.train.epochs` is the default the
program runs with, which its command line may override (`train.epochs=10`), as an argparse option's.

Read: Hydra 1's `config_path` folder with `config_name` (".yaml" added), or Hydra 0.11's
`config_path` naming the file itself, relative to the script; the defaults list's `group: option`
entries (`group/option.yaml` under `group`, the primary file's own keys winning). Left unknown: a
value with an interpolation (`${...}`) or Hydra's `???`, a list, any other defaults entry, a
`pkg://` path, a file over `MAX_BYTES` or not plain YAML."""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path

from greenlint.analysis import trees
from greenlint.analysis.options import argument
from greenlint.analysis.values import HYDRA_KEY, Const, Options

#: The largest configuration file read, in bytes.
MAX_BYTES = 256 * 1024
SUFFIXES = (".yaml", ".yml")


def options(decorators: list[ast.expr], tree: ast.Module | None, file: str | None) -> Options | None:
    """The configuration a `hydra.main` decorator among *decorators* hands its function (*file*'s,
    whose *tree* imports hydra); None where there is none or it cannot be read."""
    files = config_files(decorators, tree, file)
    if not files:
        return None
    composed = _composed(files[0], files[1:])
    return _options(composed, "") if composed else None


def config_files(decorators: list[ast.expr], tree: ast.Module | None, file: str | None) -> list[Path]:
    """The primary configuration file of a `hydra.main` decorator, then its defaults list's group
    files that exist; [] where no decorator is `hydra.main` or its file is not found."""
    if tree is None or file is None:
        return []
    call = next((d for d in decorators if type(d) is ast.Call and _is_main(d.func, tree)), None)
    path, name = _text(argument(call, "config_path", 0)), _text(argument(call, "config_name", 1))
    if path is None or path.startswith("pkg://"):
        return []
    folder = Path(os.path.dirname(os.path.abspath(file)), path)
    if name is not None:
        primary = folder / (name if name.endswith(SUFFIXES) else name + ".yaml")
    elif path.endswith(SUFFIXES):
        primary, folder = folder, folder.parent
    else:
        return []
    read = _read(str(primary))
    if read is None:
        return []
    groups = [folder / group / (option + ".yaml") for group, option in _groups(read)]
    return [primary, *(g for g in groups if g.is_file())]


def stamp(path: str, content: bytes) -> str:
    """What of Hydra's configuration files the analysis of the file at *path* reads (their paths,
    sizes and modification times), for the lint cache's key; "" for a file naming no `hydra.main`."""
    try:
        tree = ast.parse(content)
    except (SyntaxError, ValueError):
        return ""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for config in config_files(node.decorator_list, tree, path):
                status = config.stat()
                found.append(f"{config}\0{status.st_size}\0{status.st_mtime_ns}")
    return "hydra " + "\0".join(found) if found else ""


def _is_main(func: ast.expr, tree: ast.Module) -> bool:
    """Whether *func* names `hydra.main` as *tree* imports it (`import hydra`, `from hydra import main`)."""
    names = trees.dotted(func)
    for node in tree.body:
        if isinstance(node, ast.Import):
            if any(a.name == "hydra" and names == [a.asname or "hydra", "main"] for a in node.names):
                return True
        elif isinstance(node, ast.ImportFrom) and node.module == "hydra" and node.level == 0:
            if any(a.name == "main" and names == [a.asname or "main"] for a in node.names):
                return True
    return False


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _groups(config: dict) -> list[tuple[str, str]]:
    """The `group: option` entries of a configuration's defaults list (plain group names only)."""
    entries = config.get("defaults")
    if not isinstance(entries, list):
        return []
    return [(group, option) for entry in entries if isinstance(entry, dict) and len(entry) == 1
            for group, option in entry.items()
            if isinstance(group, str) and group.isidentifier() and isinstance(option, str) and "/" not in option]


def _composed(primary: Path, groups: list[Path]) -> dict:
    """The primary file's mapping over its group files' (each under its group's name)."""
    composed: dict = {}
    for group in groups:
        read = _read(str(group))
        if read is not None:
            composed[group.parent.name] = {k: v for k, v in read.items() if k != "defaults"}
    for key, value in (_read(str(primary)) or {}).items():
        if key == "defaults":
            continue
        if isinstance(value, dict) and isinstance(composed.get(key), dict):
            composed[key] = {**composed[key], **value}
        else:
            composed[key] = value
    return composed


def _options(mapping: dict, prefix: str) -> Options | None:
    """A mapping as an options object: nested mappings as nested ones, each scalar a `Const`
    naming its dotted key, as its override is written (`HYDRA_KEY`), as the option; what `_scalar` refuses left out (unknown)."""
    known: dict[str, Const | Options] = {}
    for key, value in mapping.items():
        if not isinstance(key, str) or not key.isidentifier():
            continue
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            nested = _options(value, name + ".")
            if nested is not None:
                known[key] = nested
        elif _scalar(value):
            known[key] = Const(value, name + HYDRA_KEY)
    return Options(known) if known else None


def _scalar(value: object) -> bool:
    if isinstance(value, str):
        return "${" not in value and value != "???"
    return value is None or isinstance(value, (bool, int, float))


@functools.lru_cache(maxsize=64)
def _read_stamped(path: str, size: int, mtime_ns: int) -> dict | None:
    import yaml  # here: a program with no Hydra configuration never loads the YAML parser (50 ms)

    try:
        with open(path, encoding="utf-8") as handle:
            found = yaml.safe_load(handle)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    return found if isinstance(found, dict) else None


def _read(path: str) -> dict | None:
    """The mapping a YAML file holds; None when absent, too large, unreadable or not a mapping."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    if status.st_size > MAX_BYTES:
        return None
    return _read_stamped(path, status.st_size, status.st_mtime_ns)
