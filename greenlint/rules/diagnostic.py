"""The Diagnostic contract: one finding of one rule at one call site (or file)."""

from __future__ import annotations

from dataclasses import dataclass, field

from greenlint.analysis.callsite import Span


@dataclass(frozen=True)
class Edit:
    """Replace the text between two 1-based (line, column) positions with `content`."""

    span: Span
    content: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    safe: bool = False


@dataclass(frozen=True)
class Diagnostic:
    path: str
    span: Span
    code: str  # "GL101"; file-level errors use "GL001" (parse error) etc.
    name: str  # kebab-case rule name, e.g. "energy-hotspot"
    message: str
    severity: str = "warning"  # "error" | "warning" | "info"
    fix: Fix | None = None
    energy_j: float | None = None  # predicted joules at this site, when the rule is about energy
    data: dict = field(default_factory=dict)

    def sort_key(self) -> tuple:
        """The order findings are listed in, deterministic: path, cell, line, column, code, message."""
        span = self.span
        return (self.path, span.cell or 0, span.line, span.column, self.code, self.message)
