"""Reading pyproject.toml files: the nearest one with a `[tool.greenlint]` table, and the line
length of the formatter configured there. Light on purpose (no Config): a fully cached run
(greenlint.check.warm) finds out with it that a project has no greenlint settings."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: The line length without a formatter's (black's default).
DEFAULT_LINE_LENGTH = 88
#: The most parts a TOML key may have (`a.b.c` has 3): tomllib's work and memory grow with the
#: square of a key's parts (8,000 parts: 5 s and 270 MB), and no configuration nests this deep.
MAX_KEY_PARTS = 100
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_DEEP_KEY = re.compile(rf"(?<![A-Za-z0-9_\-'\"])(?:{_KEY_PART}[ \t]*\.[ \t]*){{{MAX_KEY_PARTS}}}{_KEY_PART}")


class ConfigError(Exception):
    """Greenlint cannot run with this configuration (exit code 2)."""


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a `[tool.greenlint]` table."""
    start = start.resolve()
    for directory in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and "greenlint" in tool_table(read_toml(candidate)):
            return candidate
    return None


def tool_table(document: dict[str, Any]) -> dict[str, Any]:
    """The document's `[tool]` table; {} where `tool` is something else (`tool = 5`)."""
    tool = document.get("tool")
    return tool if isinstance(tool, dict) else {}


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML document at *path*; ConfigError naming it when it cannot be read or parsed (only a
    regular file under the sources' size limit is read: never a FIFO, a device or a huge file)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    from greenlint.analysis.sources import MAX_BYTES, read_bytes

    data, error = read_bytes(path, MAX_BYTES)
    if data is None:
        detail = error.reason if error else "unreadable"
        raise ConfigError(f"{path}: cannot read configuration: {detail}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot read configuration: not valid UTF-8 (byte {exc.start})") from exc
    if text.startswith("\ufeff"):  # an editor's byte-order mark: invisible, and tomllib names only "line 1"
        raise ConfigError(f"{path}: cannot read configuration: it starts with a UTF-8 byte-order mark, which TOML"
                          " does not allow (tomllib, as pip reads it, refuses it too): save it without one")
    deep = _DEEP_KEY.search(text)
    if deep:
        line = text.count("\n", 0, deep.start()) + 1
        raise ConfigError(f"{path}: cannot read configuration: line {line} has a key of more than {MAX_KEY_PARTS} dotted parts")
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}") from exc


def tool_line_length(tool: Mapping[str, Any]) -> int | None:
    """`line-length` of a pyproject's `[tool.ruff]`, else of its `[tool.black]`."""
    for name in ("ruff", "black"):
        table = tool.get(name)
        value = table.get("line-length") if isinstance(table, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def formatter_line_length(start: Path) -> int:
    """The line length of the formatter configured in the nearest pyproject.toml at or above
    `start` (ruff, then black), else 88."""
    start = start.resolve()
    for directory in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                return tool_line_length(tool_table(read_toml(candidate))) or DEFAULT_LINE_LENGTH
            except ConfigError:
                return DEFAULT_LINE_LENGTH
    return DEFAULT_LINE_LENGTH
