"""`greenlint diff [BASE] [HEAD]`: what a change does to each call site's joules per program run.

BASE defaults to the merge-base of HEAD with the default branch, HEAD to the working tree;
`--staged` compares HEAD with the index (the pre-commit hook). Both sides go through the pipeline
of `greenlint calls` (greenlint/review). Exit 0 within the budget, 1 over it, 2 error.
"""

from __future__ import annotations

import argparse
import dataclasses
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
    from greenlint.review import FORMATS

    parser.add_argument(
        "revisions",
        nargs="*",
        metavar="BASE [HEAD] [--] [PATH]",
        help="base revision (default: the merge-base with the default branch), head revision (default: the working"
        " tree), then the files or folders to compare (default: the working directory); as in git, the first"
        " arguments that name commits are revisions, and BASE..HEAD (BASE...HEAD: from their merge-base) names both",
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


def _configure(args: argparse.Namespace, paths: list[str]):
    """The nearest [tool.greenlint] of the first path (else the working directory), with the flags on top."""
    from greenlint.check.config import load_config
    from greenlint.cli.check_cmd import run_changes

    changes = run_changes(args)  # the flags first, as `check` reads them
    config = load_config([Path(p) for p in paths[:1]], Path(args.config) if args.config else None, args.isolated)
    return dataclasses.replace(config, **changes)


def run(args: argparse.Namespace) -> int:
    from greenlint.check.config import ConfigError
    from greenlint.report.escape import visible
    from greenlint.review import gitfs, revisions
    from greenlint.review.budget import Budget, check
    from greenlint.review.diff import diff_revisions
    from greenlint.review.formats import render

    try:
        repo = gitfs.toplevel(Path.cwd())
        base, head, paths = revisions.resolve(repo, args.revisions, args.paths, args.staged)
        config = _configure(args, paths)
        budget = Budget.from_config(config.budget, fail_above=args.fail_above, max_file_j=args.max_file_j,
                                    max_added_j=args.max_added_j, max_program_j=args.max_program_j)
        diff = diff_revisions(repo, base, head, revisions.repo_paths(repo, paths), config)
    except (gitfs.GitError, ConfigError, ValueError) as exc:
        print(visible(f"greenlint diff: error: {exc}"), file=sys.stderr)
        return 2
    from greenlint.report.concise import line

    for error in diff.errors:
        print(line(error), file=sys.stderr)
    violations = check(diff, budget)
    sys.stdout.write(render(args.format, diff, violations, budget))
    return 1 if violations else 0
