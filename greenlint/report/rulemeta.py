"""What the reporters need to know about a rule beyond one diagnostic (SARIF rule descriptors)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleMeta:
    name: str  # kebab-case rule name
    short: str  # one-line description
    full: str | None = None  # the rule doc's "What it does"
    help_markdown: str | None = None  # the whole rule doc
    level: str | None = None  # default severity: "error" | "warning" | "info"
    fix_title: str | None = None  # what to do about a finding (shown as help when it has no Fix)


def from_registry() -> dict[str, RuleMeta]:
    """RuleMeta for every rule in greenlint's registry, by code."""
    from greenlint.rules.registry import all_rules

    return {
        code: RuleMeta(
            name=rule.name,
            short=rule.summary() or rule.name,
            full=rule.sections().get("What it does") or None,
            help_markdown=rule.doc() or None,
            level=rule.SEVERITY,
            fix_title=getattr(rule, "FIX_TITLE", None) or None,
        )
        for code, rule in all_rules().items()
    }
