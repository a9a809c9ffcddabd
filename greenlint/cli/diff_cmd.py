"""`greenlint diff [BASE] [HEAD]`: what a change does to each call site's joules per program run.

BASE defaults to the merge-base of HEAD with the default branch, HEAD to the working tree;
`--staged` compares HEAD with the index (the pre-commit hook). Both sides go through the pipeline
of `greenlint calls` (greenlint/review). Exit 0 within the budget, 1 over it, 2 error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELP = (
    "energy of a change: call sites whose joules changed between two git revisions, with ratio and why"
    " (the source diff of the fixes is `greenlint check --diff`)"
)


def _ratio(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):  # as `fail-above` in [tool.greenlint.budget]
        raise argparse.ArgumentTypeError(f"expected a finite ratio above 0, got {text!r}")
    return value


def _joules(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected joules (>= 0), got {text!r}")
    return value


def register(parser: argparse.ArgumentParser) -> None:
    from greenlint.cli.check_cmd import add_run_options
    from greenlint.review.formats import FORMATS

    parser.add_argument(
        "revisions",
        nargs="*",
        metavar="BASE [HEAD] [--] [PATH]",
        help="base revision (default: the merge-base with the default branch), head revision (default: the working"
        " tree), then the files or folders to compare (default: the working directory); as in git, the first"
        " arguments that name commits are revisions",
    )
    parser.set_defaults(paths=None)  # the words after `--` (greenlint.cli.PATHS_AFTER_DASHES)
    parser.add_argument(
        "--staged", action="store_true", help="compare HEAD (or BASE) with the index: what `git commit` would record"
    )
    parser.add_argument(
        "--format", choices=FORMATS, default="text", help="output format (default: text; json: docs/diff-json.md)"
    )
    budget = parser.add_argument_group("budget (also [tool.greenlint.budget]; exit 1 when over)")
    budget.add_argument("--fail-above", type=_ratio, metavar="RATIO", help="a changed file may grow at most RATIO times")
    budget.add_argument("--max-file-j", type=_joules, metavar="J", help="a changed file may not grow above J joules per program run")
    budget.add_argument("--max-program-j", type=_joules, metavar="J", help="a script's run (with the modules it imports) may not grow above J joules")
    budget.add_argument("--max-added-j", type=_joules, metavar="J", help="the change may add at most J joules per program run")
    add_run_options(parser)


def _sides(repo: Path, args: argparse.Namespace):
    """(base, head, paths) from the positional arguments: leading commits, then paths; with a
    `--`, the words before it are all revisions and those after it all paths (as in git)."""
    from greenlint.review import gitfs

    revisions: list = []
    rest = list(args.revisions)
    most = 1 if args.staged else 2
    while rest and len(revisions) < most:
        try:
            revisions.append(gitfs.commit_side(repo, rest[0]))
        except gitfs.GitError:
            if args.paths is not None or not os.path.exists(rest[0]):
                raise
            break
        rest.pop(0)
    if args.paths is not None:
        if rest:
            raise ValueError(f"{rest[0]}: at most {most} revision{'s' * (most > 1)} before `--`")
        rest = list(args.paths)
    if args.staged:
        return revisions[0] if revisions else _staged_base(repo), gitfs.INDEX, rest
    base = revisions[0] if revisions else gitfs.default_base(repo)
    head = revisions[1] if len(revisions) > 1 else gitfs.WORKTREE
    return base, head, rest


def _staged_base(repo: Path):
    """HEAD; before the first commit (HEAD names a branch without one), git's empty tree, so that
    the first commit is compared with nothing rather than refused."""
    from greenlint.review import gitfs

    try:
        return gitfs.commit_side(repo, "HEAD")
    except gitfs.GitError:
        try:
            branch = gitfs.git(repo, "symbolic-ref", "--quiet", "HEAD").decode().strip()
        except gitfs.GitError:
            raise gitfs.GitError("HEAD: not a revision of this repository") from None
        empty = gitfs.git(repo, "hash-object", "-t", "tree", "--stdin", data=b"").decode().strip()
        return gitfs.Side("commit", f"{branch.removeprefix('refs/heads/')} (no commit yet)", empty)


def _paths(repo: Path, raw: list[str]) -> list[str]:
    """PATH arguments relative to the repository root (`[""]`: all of it, or the working directory's part)."""
    chosen = raw or ["."]
    out = []
    for p in chosen:
        rel = os.path.relpath(os.path.abspath(p), repo)
        if rel == os.pardir or rel.startswith(os.pardir + os.sep):
            raise ValueError(f"{p}: outside the repository {repo}")
        out.append("" if rel == "." else Path(rel).as_posix())
    return out


def _configure(args: argparse.Namespace, paths: list[str]):
    """The nearest [tool.greenlint] of the first path (else the working directory), with the flags on top."""
    from greenlint.check import load_config

    config = load_config([Path(p) for p in paths[:1]], Path(args.config) if args.config else None, args.isolated)
    from greenlint.cli.check_cmd import run_changes

    return config.replace(**run_changes(args))


def run(args: argparse.Namespace) -> int:
    from greenlint.check import ConfigError
    from greenlint.report.escape import visible
    from greenlint.review import gitfs
    from greenlint.review.budget import Budget, check
    from greenlint.review.diff import diff_revisions
    from greenlint.review.formats import render

    try:
        repo = gitfs.toplevel(Path.cwd())
        base, head, paths = _sides(repo, args)
        config = _configure(args, paths)
        budget = Budget.from_config(config.budget, fail_above=args.fail_above, max_file_j=args.max_file_j,
                                    max_added_j=args.max_added_j, max_program_j=args.max_program_j)
        diff = diff_revisions(repo, base, head, _paths(repo, paths), config)
    except (gitfs.GitError, ConfigError, ValueError) as exc:
        print(visible(f"greenlint diff: error: {exc}"), file=sys.stderr)
        return 2
    from greenlint.report.concise import line

    for error in diff.errors:
        print(line(error), file=sys.stderr)
    violations = check(diff, budget)
    sys.stdout.write(render(args.format, diff, violations, budget))
    return 1 if violations else 0
