"""`diff_revisions`: analyse two sides of a git repository and compare their call sites."""

from __future__ import annotations

import tempfile
from contextlib import ExitStack
from pathlib import Path

from greenlint.check import Config
from greenlint.review import gitfs
from greenlint.review.compare import Diff, compare
from greenlint.review.matching import match
from greenlint.review.sides import analyse


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
    diff = compare(base, head, match(before.sites, after.sites, renames), renames, before.files, after.files)
    diff.errors = [*before.errors, *after.errors]
    return diff
