"""Find the files to check: `*.py`, `*.pyi`, `*.ipynb`, minus excludes and `.gitignore`d paths."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from greenlint.check.config import INCLUDE_SUFFIXES, Config, ConfigError


def discover(paths: Iterable[Path | str], config: Config) -> list[Path]:
    """Files to check under `paths`, sorted, each once.

    Files named explicitly are included whatever their suffix, and despite `exclude` unless
    `force_exclude` is set (pre-commit passes every staged file by name).

    Raises ConfigError for a path that does not exist.
    """
    import pathspec

    exclude = pathspec.GitIgnoreSpec.from_lines([*config.exclude, *config.extend_exclude])
    found: dict[Path, None] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            if not (config.force_exclude and _excluded(path, False, config.root, exclude)):
                found[path] = None
        elif path.is_dir():
            found.update(dict.fromkeys(_walk(path, config, exclude)))
        else:
            raise ConfigError(f"{raw}: no such file or directory")
    return sorted(found)


def _excluded(path: Path, is_dir: bool, root: Path, spec) -> bool:
    try:
        rel = path.resolve().relative_to(root).as_posix()
    except ValueError:
        rel = path.name
    return spec.match_file(rel + "/" if is_dir else rel) or spec.match_file(path.name + ("/" if is_dir else ""))


def _walk(top: Path, config: Config, exclude) -> Iterator[Path]:
    inherited = {top: _parent_gitignores(top) if config.respect_gitignore else []}
    for dirpath, dirnames, filenames in os.walk(top):
        here = Path(dirpath)
        ignores = inherited.pop(here, [])
        if config.respect_gitignore and ".gitignore" in filenames:
            ignores = [*ignores, _gitignore(here)]
        kept = []
        for d in sorted(dirnames):
            sub = here / d
            if not (_excluded(sub, True, config.root, exclude) or _ignored(sub, True, ignores)):
                kept.append(d)
                inherited[sub] = ignores
        dirnames[:] = kept
        for name in sorted(filenames):
            f = here / name
            if name.endswith(INCLUDE_SUFFIXES) and not (
                _excluded(f, False, config.root, exclude) or _ignored(f, False, ignores)
            ):
                yield f


def _gitignore(directory: Path):
    import pathspec

    try:
        lines = (directory / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    return directory.resolve(), pathspec.GitIgnoreSpec.from_lines(lines)


def _parent_gitignores(top: Path) -> list:
    """`.gitignore` files above `top`, up to the root of its git work tree (if it is in one)."""
    top = top.resolve()
    chain = []
    for directory in top.parents:
        if (directory / ".gitignore").is_file():
            chain.append(_gitignore(directory))
        if (directory / ".git").exists():
            return chain[::-1]
    return []  # not in a git work tree: no parent .gitignore applies


def _ignored(path: Path, is_dir: bool, ignores: list) -> bool:
    resolved = path.resolve()
    for base, spec in ignores:
        try:
            rel = resolved.relative_to(base).as_posix()
        except ValueError:
            continue
        if spec.match_file(rel + "/" if is_dir else rel):
            return True
    return False
