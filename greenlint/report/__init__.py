"""Reporters: diagnostics rendered in the formats of `greenlint check --format`, and the
call-site JSON of `greenlint calls`.

`render(fmt, diagnostics, sources=..., statistics=...)` returns the whole output as one string.
Diagnostics are sorted first (`Diagnostic.sort_key`: path, cell, line, column, code, message), so every format is
deterministic. The human formats (concise, full, grouped) end with a one-line summary.
`sources` maps each path to its text, or, for a notebook, to the list of its code-cell texts
(indexed by `Span.cell - 1`); `full` uses it for context lines and shows none where it is absent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from greenlint.report.rulemeta import RuleMeta

FORMATS = ("concise", "full", "json", "json-lines", "sarif", "github", "grouped")
#: The formats that write each finding's fix (the others name the rule's fix title at most).
FIX_FORMATS = frozenset({"json", "json-lines", "sarif"})

__all__ = ["FORMATS", "FIX_FORMATS", "render", "calibration_note"]


def calibration_note(calibration: dict | None) -> str | None:
    """The one line saying which calibration overlay the figures applied (`path`, `hardware_id`;
    None without one): `check` prints it on stderr, `calls` after its table, and README.md quotes it."""
    if calibration is None:
        return None
    return (f"figures calibrated here by {calibration['path']} (hardware {calibration['hardware_id']}); "
            "--no-calibration for the reference figures")


def render(
    fmt: str,
    diagnostics: Iterable,
    *,
    sources: Mapping[str, str | Sequence[str]] | None = None,
    statistics: bool = False,
    rules: Mapping[str, RuleMeta] | None = None,
    calibration: dict | None = None,
) -> str:
    """Render `diagnostics` (greenlint.rules.diagnostic.Diagnostic) in format `fmt`.

    With `statistics`, the output is a count per rule instead (JSON for json/json-lines).
    `rules` maps code -> RuleMeta (SARIF's rule descriptors, `full`'s help lines); by default it
    comes from the rules registry; a code it lacks is described by the diagnostic's rule name.
    `calibration`: the overlay the figures applied (`path`, `hardware_id`), a field of every JSON
    object and of SARIF's run properties (the human formats leave the note to the command).
    """
    from greenlint.rules.diagnostic import Diagnostic  # on first use: a command's parser imports this package

    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r}; choose one of {', '.join(FORMATS)}")
    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if statistics:
        import greenlint.report.stats as stats

        return stats.render(ordered, as_json=fmt in ("json", "json-lines"))
    if fmt == "concise":
        import greenlint.report.concise as concise

        return concise.render(ordered)
    if fmt == "full":
        import greenlint.report.full as full
        from greenlint.report.rulemeta import from_registry

        return full.render(ordered, sources or {}, from_registry() if rules is None else rules)
    if fmt == "grouped":
        import greenlint.report.grouped as grouped

        return grouped.render(ordered)
    if fmt == "github":
        import greenlint.report.github as github

        return github.render(ordered)
    if fmt == "sarif":
        import greenlint.report.sarif as sarif
        from greenlint.report.rulemeta import from_registry

        return sarif.render(ordered, from_registry() if rules is None else rules, calibration)
    import greenlint.report.jsonfmt as jsonfmt

    return jsonfmt.render(ordered, lines=fmt == "json-lines", calibration=calibration)
