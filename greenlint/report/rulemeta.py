"""What the reporters need to know about a rule beyond one diagnostic (SARIF rule descriptors)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleMeta:
    name: str  # kebab-case rule name
    short: str  # one-line description
    full: str | None = None  # longer description (the rule doc's "What it does")
    help_uri: str | None = None


def from_registry() -> dict[str, RuleMeta]:
    """Rule metadata from greenlint's rules registry; empty while no registry is available."""
    return {}
