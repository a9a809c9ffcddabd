"""Which rules run on which file: select / extend-select / ignore / per-file-ignores."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from greenlint.rules import codes

if TYPE_CHECKING:  # imported where used: a fully cached run (greenlint.check.warm) has no Config
    from greenlint.check.config import Config


def _best(code: str, prefixes: Iterable[str]) -> int:
    """Length of the longest prefix matching `code` (`ALL` matches everything), or -1."""
    return max((0 if p == "ALL" else len(p) for p in prefixes if p == "ALL" or code.startswith(p)), default=-1)


def enabled_codes(config: Config, extra_ignore: Iterable[str] = ()) -> frozenset[str]:
    """Codes enabled by the config; the most specific of select and ignore wins, ignore on a tie."""
    defaults = {code: entry["enabled"] for code, entry in codes.table().items()}
    ignore = (*config.ignore, *extra_ignore)
    enabled = set()
    for code, default in defaults.items():
        if config.select is None:
            selected = 0 if default else -1
        else:
            selected = _best(code, config.select)
        selected = max(selected, _best(code, config.extend_select))
        if selected >= 0 and selected > _best(code, ignore):
            enabled.add(code)
    return frozenset(enabled)


def validate(config: Config) -> None:
    """Raise ConfigError where `Selector(config)` would (a code that matches no rule, a per-file
    pattern); the rules' codes are read only when the configuration names one (a run that enables
    no rule: `greenlint diff`)."""
    if config.select or config.extend_select or config.ignore or config.per_file_ignores:
        Selector(config)


class Selector:
    """Enabled codes per file, with per-file-ignores matched relative to the config root."""

    def __init__(self, config: Config):
        """ConfigError for a code the configuration names that matches no rule."""
        patterns = [*(config.select or ()), *config.extend_select, *config.ignore]
        patterns += [c for named in config.per_file_ignores.values() for c in named]
        for p in patterns:
            if p != "ALL" and not any(code.startswith(p) for code in codes.table()):
                from greenlint.check.config import ConfigError

                raise ConfigError(f"{config.source or 'command line'}: `{p}` matches no greenlint rule code")
        self.config = config
        self.base = enabled_codes(config)
        self._specs = []
        if config.per_file_ignores:
            import pathspec

            self._specs = [
                (pathspec.GitIgnoreSpec.from_lines([_below_root(pattern, config.root)]), codes)
                for pattern, codes in config.per_file_ignores.items()
            ]
        self.for_file = functools.lru_cache(maxsize=None)(self._for_file)

    def _for_file(self, path: str) -> frozenset[str]:
        extra = [c for spec, codes in self._specs if spec.match_file(_relative(path, self.config.root)) for c in codes]
        return enabled_codes(self.config, extra) if extra else self.base


def _below_root(pattern: str, root: Path) -> str:
    """*pattern* anchored at the config root: an absolute path inside the root (`/home/u/proj/tests/*`)
    becomes `/tests/*`; any other pattern is gitignore-style already (`/a.py` is root-anchored)."""
    for base in dict.fromkeys((root.as_posix(), root.resolve().as_posix())):
        if base != "/" and pattern.startswith(base.rstrip("/") + "/"):
            return pattern[len(base.rstrip("/")):]
    return pattern


def _relative(path: str, root: Path) -> str:
    p = Path(path).resolve()
    try:
        return p.relative_to(root).as_posix()
    except ValueError:
        return p.as_posix()
