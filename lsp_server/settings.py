"""Editor settings (the client's `greenlint` section, per workspace folder) and how they combine
with `pyproject.toml` (`configurationPreference`, as ruff's). docs/editor.md has the table."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from greenlint.check.config import Config, ConfigError, parse_table
from greenlint.lsp_server.analysis import ConfigLookup, file_config

PREFERENCES = ("editorFirst", "filesystemFirst", "editorOnly")
UNITS = ("auto", "J", "Wh")
HOTSPOT_KEY = "hotspot-threshold-j"


@dataclass(frozen=True)
class EditorSettings:
    """One folder's `greenlint.*` settings; None: not set in the editor."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    hotspot_threshold_j: float | None = None
    preference: str = "editorFirst"
    inlay_hints: bool = True
    min_joules: float = 0.0
    show_negligible: bool = False
    unit: str = "auto"
    since_base: bool = False  # code lenses "×9.6 since main" (`greenlint diff` of the file)
    base_revision: str = ""  # the base of those lenses; "": the merge-base with the default branch

    @classmethod
    def parse(cls, raw: Any) -> tuple[EditorSettings, list[str]]:
        """Settings from the client's JSON, and a message per value left out because it cannot be used."""
        if not isinstance(raw, Mapping):
            return cls(), [] if raw is None else [f"greenlint settings: expected an object, got {raw!r}"]
        values: dict[str, Any] = {}
        errors: list[str] = []

        def take(name: str, attr: str, ok, convert=lambda v: v, expected: str = "") -> None:
            value = _get(raw, name)
            if value is None:
                return
            if ok(value):
                values[attr] = convert(value)
            else:
                errors.append(f"greenlint.{name}: expected {expected}, got {value!r} (left out)")

        codes = lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v)  # noqa: E731
        number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)  # noqa: E731
        take("select", "select", codes, tuple, "a list of rule codes")
        take("ignore", "ignore", codes, tuple, "a list of rule codes")
        take("hotspotThresholdJ", "hotspot_threshold_j", lambda v: number(v) and v >= 0, float, "joules (>= 0)")
        take("configurationPreference", "preference", PREFERENCES.__contains__, str, " or ".join(PREFERENCES))
        take("inlayHints.enabled", "inlay_hints", lambda v: isinstance(v, bool), bool, "true or false")
        take("inlayHints.minJoules", "min_joules", lambda v: number(v) and v >= 0, float, "joules (>= 0)")
        take("inlayHints.showNegligible", "show_negligible", lambda v: isinstance(v, bool), bool, "true or false")
        take("unit", "unit", UNITS.__contains__, str, " or ".join(UNITS))
        take("sinceBase.enabled", "since_base", lambda v: isinstance(v, bool), bool, "true or false")
        take("sinceBase.revision", "base_revision", lambda v: isinstance(v, str), str, "a git revision")
        return cls(**values), errors


def _known(codes: tuple[str, ...], setting: str, unknown: list[str]) -> list[str]:
    """The editor's codes that name rules; the others are reported (in *unknown*) and left out."""
    from greenlint.rules.codes import table

    rules = table()
    kept = []
    for code in codes:
        if code.strip().upper() == "ALL" or (code.strip() and any(r.startswith(code.strip().upper()) for r in rules)):
            kept.append(code)
        else:
            unknown.append(f"greenlint.{setting}: `{code}` matches no greenlint rule code (left out)")
    return kept


def _get(raw: Mapping, dotted: str) -> Any:
    """`inlayHints.enabled` from `{"inlayHints": {"enabled": ...}}` (or a flat `"inlayHints.enabled"` key)."""
    if dotted in raw:
        return raw[dotted]
    value: Any = raw
    for part in dotted.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


@dataclass
class Configurations:
    """The configuration of each document: the command line's choice of file (`ConfigLookup`), the
    editor's settings of the folder holding it, and the preference between them."""

    lookup: ConfigLookup = field(default_factory=ConfigLookup)
    default: EditorSettings = field(default_factory=EditorSettings)
    folders: dict[Path, EditorSettings] = field(default_factory=dict)

    def editor(self, path: Path) -> EditorSettings:
        """The settings of the innermost workspace folder holding `path` (else the default ones)."""
        holding = [folder for folder in self.folders if path.is_relative_to(folder)]
        return self.folders[max(holding, key=lambda f: len(f.parts))] if holding else self.default

    def config_for(self, path: Path) -> tuple[Config, str | None]:
        """The Config checking `path`, and why it falls back to defaults (or leaves a setting out), if it does."""
        editor = self.editor(path)
        if editor.preference == "editorOnly":
            base, error = Config(root=path.parent if path.is_absolute() else Path.cwd()), None
        else:
            base, error = file_config(path, self.lookup)
        file_wins = editor.preference == "filesystemFirst"
        table: dict[str, Any] = {}
        unknown: list[str] = []
        if editor.select is not None and not (file_wins and base.select is not None):
            select = _known(editor.select, "select", unknown)
            if select or not editor.select:  # none of them known: the default selection, not none
                table["select"] = select
        if editor.ignore is not None and not (file_wins and base.ignore):
            table["ignore"] = _known(editor.ignore, "ignore", unknown)
        if unknown:
            error = error or f"editor settings: {'; '.join(unknown)}"
        if editor.hotspot_threshold_j is not None and not (file_wins and HOTSPOT_KEY in base.options):
            table[HOTSPOT_KEY] = editor.hotspot_threshold_j
        if not table:
            return base, error
        try:
            fields = parse_table(table, None)
        except ConfigError as exc:
            return base, error or f"editor settings: {exc}"
        options = {**base.options, **fields.pop("options")}
        return dataclasses.replace(base, **fields, options=options), error
