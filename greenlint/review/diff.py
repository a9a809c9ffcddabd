"""`diff_revisions`: analyse two sides of a git repository and compare their call sites."""

from __future__ import annotations

import tempfile
from contextlib import ExitStack
from pathlib import Path

from greenlint.check.config import Config
from greenlint.check.file_result import FileResult
from greenlint.review import gitfs
from greenlint.review.compare import Diff, FileDiff, compare
from greenlint.review.matching import match
from greenlint.review.programs import program_diffs
from greenlint.review.sides import analyse, side_sites


def snapshot_cache(config: Config, stack: ExitStack) -> Path:
    """Where snapshots of revisions are kept: beside the lint cache (a temporary folder with --no-cache)."""
    if config.no_cache:
        return Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="greenlint-diff-")))
    from greenlint.paths import cache_dir

    return (config.cache_dir or cache_dir()) / "snapshots"


def diff_revisions(repo: Path, base: gitfs.Side, head: gitfs.Side, paths: list[str], config: Config) -> Diff:
    """The energy diff of *paths* (relative to the repository root; `[""]`: all) from *base* to *head*.

    Raises GitError (a revision or git itself) and ConfigError."""
    with ExitStack() as stack:
        cache = snapshot_cache(config, stack)
        before = analyse(repo, base, paths, config, cache)
        after = analyse(repo, head, paths, config, cache)
        renames = gitfs.renames(repo, base, head)
    if head.kind == "worktree":  # outside a sparse checkout: unchanged as git reads them, not compared
        before = before.without(gitfs.outside_sparse_checkout(repo))
    missing = [p for p in paths if p not in before.present | after.present]
    if missing:  # a mistyped path would otherwise read as "nothing changed" and pass every budget
        raise gitfs.GitError(f"{missing[0]}: on neither side ({base.label}, {head.label}): no such file or folder,"
                             " or none that greenlint compares (Python files, notebooks, outside submodules)")
    # a file that cannot be analysed on a side is not compared: its calls would read as removed or new
    # (a notebook with a cell that does not parse is: its other cells are analysed)
    broken = {e.path for e in (*before.errors, *after.errors) if e.span.cell is None}
    broken |= {renames[p] for p in broken if p in renames} | {o for o, n in renames.items() if n in broken}
    olds = [s for s in before.sites if s.path not in broken]
    news = [s for s in after.sites if s.path not in broken]
    diff = compare(base, head, match(olds, news, renames), renames, before.files, after.files)
    diff.errors = [*before.errors, *after.errors]
    diff.programs = program_diffs(diff, before, after, renames)
    return diff


def diff_file(repo: Path, base: gitfs.Side, path: str, result: FileResult, config: Config, memo: dict | None = None) -> FileDiff:
    """The energy diff of one file of the working tree, as an editor holds it (its analysis,
    *result*), against *base*; *path* is relative to the repository root.
    *memo* keeps the base side's analysis of each file between calls (a commit does not change)."""
    renames = gitfs.renames(repo, base, gitfs.WORKTREE)
    old = next((o for o, n in renames.items() if n == path), path)
    key = (str(repo), base.commit, old, repr(config))
    before = (memo or {}).get(key)
    if before is None:
        with ExitStack() as stack:
            before = analyse(repo, base, [old], config, snapshot_cache(config, stack))
        if memo is not None:
            if len(memo) >= 64:
                memo.clear()
            memo[key] = before
    after = side_sites(path, result)
    diff = compare(base, gitfs.WORKTREE, match(before.sites, after, renames), renames, before.files, [path])
    return next((f for f in diff.files if f.path == path), FileDiff(path, None, "modified"))
