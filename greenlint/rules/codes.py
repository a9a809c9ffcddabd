"""The rules by code, as `codes.json` beside this module lists them (written from the registry by
`python -m tools.rule_codes`): what a run knows of the rules without importing them, and the
module to import for the one it runs."""

from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a run that reads the table alone (a fully cached check) imports no rule
    from greenlint.rules.base import Rule

CODES = Path(__file__).with_name("codes.json")


@functools.cache
def table() -> dict[str, dict]:
    """Each code, sorted, with its rule's `module` (of this package) and `cls`, `name`, `enabled`
    (by default), `siteless`, `checks` (false: the pipeline reports its findings), `calls` (its
    `CALLS`, sorted), `mentions` (its `MENTIONS`, sorted) and `options` (key -> default)."""
    return json.loads(CODES.read_text(encoding="utf-8"))


def rule_class(code: str) -> type[Rule]:
    """The rule of a listed *code*, its module alone imported."""
    entry = table()[code]
    return getattr(importlib.import_module(f"{__package__}.{entry['module']}"), entry["cls"])


def get_rule(code_or_name: str) -> type[Rule] | None:
    """A rule by code (`GL101`, any case) or kebab-case name (`energy-hotspot`)."""
    key = code_or_name.strip()
    listed = table()
    named = (c for c, e in listed.items() if e["name"] == key.lower())
    code = key.upper() if key.upper() in listed else next(named, None)
    return None if code is None else rule_class(code)


def may_report(code: str, called: frozenset[str] | None, text: str) -> bool:
    """Whether the rule *code* can report on a file whose call sites call the methods *called*
    (None: a file the analysis parsed, without call sites) and whose text is *text*."""
    entry = table()[code]
    if not entry["checks"] or (called is None and not entry["siteless"]):
        return False
    if entry["mentions"] and not any(word in text for word in entry["mentions"]):
        return False
    return not entry["calls"] or called is not None and not called.isdisjoint(entry["calls"])


def default_codes() -> frozenset[str]:
    """The codes enabled with no select, extend-select or ignore."""
    return frozenset(code for code, entry in table().items() if entry["enabled"])


def option_defaults() -> dict[str, object]:
    """Every rule option key with its default."""
    return {key: default for entry in table().values() for key, default in entry["options"].items()}
