"""The energy budget of a change: `--fail-above RATIO`, `--max-file-j J`, `--max-added-j J` and
`--max-program-j J` and `[tool.greenlint.budget]` (check/config.py BUDGET_KEYS); what exceeds it
makes `greenlint diff` exit 1.

A file is judged on its joules per program run after the change, with its intended changes
(a call carrying `# noqa: GLD100`) counted at their figure before: a ratio against
`fail-above` (or the `allow` ratio of the first glob matching it), its joules against
`max-file-j` (only when they grew). A program run (greenlint/review/programs.py) is judged against
`max-program-j` the same way. `max-added-j` bounds the joules the whole change adds.
A new file has no ratio: only the joules budgets judge it.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from greenlint.review.compare import Diff, FileDiff
from greenlint.units import TIMES, fmt_j


@dataclass(frozen=True)
class Budget:
    fail_above: float | None = None
    max_file_j: float | None = None
    max_added_j: float | None = None
    max_program_j: float | None = None
    allow: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def from_config(cls, table: Mapping[str, Any], **flags: float | None) -> Budget:
        """The `[tool.greenlint.budget]` table, with the command line's flags (not None) on top."""
        values = {
            "fail_above": table.get("fail-above"),
            "max_file_j": table.get("max-file-j"),
            "max_added_j": table.get("max-added-j"),
            "max_program_j": table.get("max-program-j"),
            "allow": dict(table.get("allow", {})),
        }
        values.update({k: v for k, v in flags.items() if v is not None})
        return cls(**values)

    def limit(self, path: str) -> tuple[float | None, str]:
        """The ratio *path* may grow by, and where that limit comes from."""
        for glob, ratio in self.allow.items():
            if fnmatch.fnmatch(path, glob):
                return ratio, f"allow `{glob}`"
        return self.fail_above, "fail-above"


@dataclass(frozen=True)
class Violation:
    path: str | None  # None: the change as a whole
    message: str


def _over_ratio(f: FileDiff, budget: Budget) -> Violation | None:
    limit, source = budget.limit(f.path)
    if limit is None or not f.before_j:
        return None
    ratio = f.budget_after_j / f.before_j
    if ratio <= limit:
        return None
    return Violation(f.path, f"{TIMES}{ratio:.3g} per program run, above the budget {TIMES}{limit:g} ({source})")


def check(diff: Diff, budget: Budget) -> list[Violation]:
    """What exceeds *budget*, per changed file then for the whole change."""
    if budget == Budget():  # no limit: nothing to exceed, no file's joules to weigh
        return []
    found: list[Violation] = []
    for f in diff.changed_files:
        over = _over_ratio(f, budget)
        if over:
            found.append(over)
        after = f.budget_after_j
        if budget.max_file_j is not None and after > f.before_j and after > budget.max_file_j:
            message = f"{fmt_j(after)} per program run, above the budget {fmt_j(budget.max_file_j)} (max-file-j)"
            found.append(Violation(f.path, message))
    for p in diff.programs:
        after = p.budget_after_j
        if budget.max_program_j is not None and after > p.before_j and after > budget.max_program_j:
            message = f"{fmt_j(after)} per program run, above the budget {fmt_j(budget.max_program_j)} (max-program-j)"
            found.append(Violation(p.path, message))
    added = sum(f.budget_after_j - f.before_j for f in diff.changed_files)
    if budget.max_added_j is not None and added > budget.max_added_j:
        message = f"the change adds {fmt_j(added)} per program run, above the budget {fmt_j(budget.max_added_j)}"
        found.append(Violation(None, message + " (max-added-j)"))
    return found
