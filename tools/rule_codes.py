"""Write greenlint/rules/codes.json, the rules by code that a run reads instead of importing every
rule (greenlint.rules.codes): `python -m tools.rule_codes` (`python -m tools.generate_all` runs it)."""

from __future__ import annotations

import json

from greenlint.atomic import atomic_write_text
from greenlint.rules.base import Rule
from greenlint.rules.codes import CODES
from greenlint.rules.registry import all_rules

NAME = "greenlint/rules/codes.json"


def entry(rule: type[Rule]) -> dict:
    """What codes.json holds of one rule."""
    return {
        "module": rule.__module__.rpartition(".")[2],
        "cls": rule.__name__,
        "name": rule.name,
        "enabled": rule.DEFAULT_ENABLED,
        "siteless": rule.SITELESS,
        "checks": rule.check is not Rule.check,  # else the pipeline reports its findings (GL001-GL003)
        "calls": sorted(rule.CALLS),
        "mentions": sorted(rule.MENTIONS),
        "options": {o.key: o.default for o in rule.OPTIONS},
    }


def build(rules: dict[str, type[Rule]] | None = None) -> dict[str, dict]:
    """The table of *rules* (every rule by default), by code."""
    return {code: entry(rule) for code, rule in (all_rules() if rules is None else rules).items()}


def render(listed: dict[str, dict]) -> str:
    return "{\n" + ",\n".join(f" {json.dumps(code)}: {json.dumps(e)}" for code, e in listed.items()) + "\n}\n"


def stale() -> list[str]:
    """[NAME] when codes.json is not what `write` would write, else []."""
    have = CODES.read_text(encoding="utf-8") if CODES.exists() else None
    return [] if have == render(build()) else [NAME]


def write() -> None:
    if stale():
        atomic_write_text(CODES, render(build()))


if __name__ == "__main__":
    write()
