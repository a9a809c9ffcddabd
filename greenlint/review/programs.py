"""Totals per program run: a script (a file with calls at module level that no other file imports,
or one with an `if __name__ == "__main__":` block) runs its own calls and those of the project
modules it imports, directly or not. A program is listed when a listed change reaches one of its
files; each side's files are that side's imports (a module the change starts importing counts after)."""

from __future__ import annotations

from greenlint.review.compare import Diff, ProgramDiff, totals
from greenlint.review.sides import SideAnalysis


def program_diffs(diff: Diff, before: SideAnalysis, after: SideAnalysis, renames: dict[str, str]) -> list[ProgramDiff]:
    olds = {renames.get(p, p): p for p in before.scripts}
    changes = diff.changes  # flattened and sorted on each read: once here
    out = []
    for name in sorted(set(olds) | set(after.scripts)):
        closure_before = before.closure(olds[name]) if name in olds else ()
        files_before = set(closure_before)
        files_after = after.closure(name) if name in after.scripts else ()
        reached = [
            c for c in changes
            if (c.status != "removed" and c.site.path in files_after) or (c.old or c.site).path in files_before
        ]
        if not reached:
            continue
        t = totals(diff.compared, lambda s, files=files_before: s.path in files,
                   lambda s, files=files_after: s.path in files)
        intended = sum(c.added_j for c in reached if c.intended)
        files = files_after or closure_before
        out.append(ProgramDiff(name, files, t.before_j, t.after_j, t.ratio_interval, t.unknown, intended))
    return out
