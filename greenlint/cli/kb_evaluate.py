"""`greenlint kb evaluate`: cross-validate the predictors and write docs/accuracy.md."""

from __future__ import annotations

import sys
from pathlib import Path

HELP = "leave-one-tutorial-out evaluation of the energy predictors; writes docs/accuracy.md"


def register(parser) -> None:
    parser.add_argument("--kb", type=Path, default=None, help="KB directory (default: the bundled data/kb)")
    parser.add_argument("--out", type=Path, default=None, help="Markdown file (default: docs/accuracy.md)")
    parser.add_argument("--shared", type=Path, default=None, help="shared datasets (default: ../shared)")
    parser.add_argument("--folds", type=int, default=None,
                        help="inner tutorial folds calibrating the intervals (default 5)")
    parser.add_argument("--no-training", action="store_true", help="skip the training-run section")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def run(args) -> int:
    from greenlint.atomic import atomic_write_text
    from greenlint.kb import KBError, load_kb
    from greenlint.paths import REPO_DIR, shared_dir
    from greenlint.predict.accuracy import render, training_section
    from tools.kb.static_features import SCRIPTS_TABLE, load_scripts
    from greenlint.kb.store import default_kb_dir
    from greenlint.predict.evaluate import cross_validate, report_inputs, script_totals, size_scaling_check
    from greenlint.predict.sites import build_sites

    try:
        records = load_kb(args.kb)
    except KBError as exc:
        print(f"greenlint kb evaluate: {exc}", file=sys.stderr)
        return 2

    def progress(msg: str) -> None:
        if not args.quiet:
            print(f"\r\033[K{msg}", end="", file=sys.stderr, flush=True)

    folds: dict = {}
    held = cross_validate(records, **({"folds": args.folds} if args.folds else {}), progress=progress, keep=folds)
    progress("")
    if not args.quiet:
        print(file=sys.stderr)
    kb_dir = args.kb or default_kb_dir()
    try:
        scripts = load_scripts(kb_dir / SCRIPTS_TABLE)
    except ValueError as exc:
        print(f"greenlint kb evaluate: {exc}", file=sys.stderr)
        return 2
    info = {
        **report_inputs(records),
        "records": len(records),
        "tutorials": len({s.tutorial for s in build_sites(records)}),
    }
    if args.no_training:
        training = "## Training runs\n\nNot evaluated in this run (`--no-training`).\n"
    else:
        shared = args.shared if args.shared else shared_dir()
        if shared is not None and not Path(shared).is_dir():
            print(f"greenlint kb evaluate: {shared}: no such directory", file=sys.stderr)
            return 2
        training = training_section(shared)
    out = args.out or REPO_DIR / "docs" / "accuracy.md"
    atomic_write_text(out, render(held, info, training, size_scaling_check(records),
                                  script_totals(records, scripts, folds)))
    print(f"wrote {out}")
    return 0
