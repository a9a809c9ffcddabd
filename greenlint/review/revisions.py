"""The words of `greenlint diff [BASE] [HEAD] [--] [PATH]...` read as git reads them: the two sides
compared, then the paths, relative to the repository root."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from greenlint.check.discovery import refuse_empty
from greenlint.review import gitfs


def resolve(
    repo: Path, words: Sequence[str], after_dashes: Sequence[str] | None, staged: bool
) -> tuple[gitfs.Side, gitfs.Side, list[str]]:
    """(base, head, paths) from the positional *words*: leading commits, then paths; with a `--`,
    the words before it are all revisions and those after it (*after_dashes*) all paths (as in
    git). Without `--`, a word that is both a revision and a path is an error, as in git. A
    first word `A..B` or `A...B` names both sides (`revision_range`). *staged* compares HEAD (or
    BASE) with the index."""
    commits: list = []
    rest = list(words)
    most = 1 if staged else 2
    while rest and len(commits) < most:
        try:
            commits.append(gitfs.commit_side(repo, rest[0]))
        except gitfs.GitError:
            sides = None if commits or staged or os.path.lexists(rest[0]) else revision_range(repo, rest[0])
            if sides is not None:
                commits += sides
                rest.pop(0)
                break
            if after_dashes is not None or not os.path.exists(rest[0]):
                raise
            break
        if after_dashes is None and os.path.lexists(rest[0]):  # git refuses to guess too
            raise ValueError(f"{rest[0]}: both a revision and a path; put `--` after the revisions"
                             f" (`greenlint diff {rest[0]} --` compares it as a revision, `-- {rest[0]}` as a path)")
        rest.pop(0)
    if after_dashes is not None:
        if rest:
            raise ValueError(f"{rest[0]}: at most {most} revision{'s' * (most > 1)} before `--`")
        rest = list(after_dashes)
    if staged:
        return commits[0] if commits else staged_base(repo), gitfs.INDEX, rest
    base = commits[0] if commits else gitfs.default_base(repo)
    head = commits[1] if len(commits) > 1 else gitfs.WORKTREE
    return base, head, rest


def revision_range(repo: Path, word: str) -> list[gitfs.Side] | None:
    """The two sides `git diff A..B` compares (A and B) or `git diff A...B` (their merge-base and
    B), an empty end being HEAD; None when *word* is no range. GitError naming an end that is not
    a revision."""
    for dots in ("...", ".."):
        left, found, right = word.partition(dots)
        if found:
            base, head = gitfs.commit_side(repo, left or "HEAD"), gitfs.commit_side(repo, right or "HEAD")
            if dots == "...":
                sha = gitfs.merge_base(repo, base.label, head.label)  # the words commit_side verified
                base = gitfs.Side("commit", f"merge-base of {base.label} and {head.label}", sha)
            return [base, head]
    return None


def staged_base(repo: Path) -> gitfs.Side:
    """HEAD; before the first commit (HEAD names a branch without one), git's empty tree, so that
    the first commit is compared with nothing rather than refused."""
    try:
        return gitfs.commit_side(repo, "HEAD")
    except gitfs.GitError:
        try:
            branch = gitfs.git(repo, "symbolic-ref", "--quiet", "HEAD").decode().strip()
        except gitfs.GitError:
            raise gitfs.GitError("HEAD: not a revision of this repository") from None
        empty = gitfs.git(repo, "hash-object", "-t", "tree", "--stdin", data=b"").decode().strip()
        return gitfs.Side("commit", f"{branch.removeprefix('refs/heads/')} (no commit yet)", empty)


def repo_paths(repo: Path, raw: Sequence[str]) -> list[str]:
    """PATH arguments relative to the repository root (`[""]`: all of it, or the working directory's part)."""
    chosen = raw or ["."]
    out = []
    for p in chosen:
        refuse_empty(p)  # `os.path.abspath("")` is the working directory: all of it, without a word
        rel = os.path.relpath(os.path.abspath(p), repo)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep):
            raise ValueError(f"{p}: outside the repository {repo}")
        out.append("" if rel == "." else Path(rel).as_posix())
    return out
