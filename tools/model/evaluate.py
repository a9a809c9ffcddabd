"""Cross-validate the predictors and write docs/accuracy.md (`make data`).

`python -m tools.model.evaluate [--kb DIR] [--out FILE] [--shared DIR] [--folds N] [--no-training] [-q]`
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools import REPO_DIR

PROG = "python -m tools.model.evaluate"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("--kb", type=Path, default=None, help="KB directory (default: the bundled data/kb)")
    ap.add_argument("--out", type=Path, default=REPO_DIR / "docs" / "accuracy.md", help="Markdown file")
    ap.add_argument("--shared", type=Path, default=None, help="shared datasets (default: ../shared)")
    ap.add_argument("--folds", type=int, default=None, help="inner tutorial folds calibrating the intervals (default 5)")
    ap.add_argument("--no-training", action="store_true", help="skip the training-run section")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    return ap


def main(argv: list[str] | None = None) -> int:
    from greenlint.atomic import atomic_write_text
    from greenlint.kb import KBError, load_kb
    from greenlint.kb.store import default_kb_dir
    from greenlint.paths import shared_dir
    from tools.kb.static_features import SCRIPTS_TABLE, load_scripts
    from tools.model.accuracy import render, training_section
    from tools.model.cross_validation import cross_validate, report_inputs, script_totals, size_scaling_check
    from tools.model.sites import build_sites
    from tools.model.timed_suite import rendered as timed_rendered

    args = parser().parse_args(argv)
    if args.folds is not None and args.folds < 2:
        print(f"{PROG}: --folds must be at least 2", file=sys.stderr)
        return 2
    try:
        records = load_kb(args.kb)
    except KBError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2

    def progress(msg: str) -> None:
        if not args.quiet:
            print(f"\r\033[K{msg}", end="", file=sys.stderr, flush=True)

    try:
        scripts = load_scripts((args.kb or default_kb_dir()) / SCRIPTS_TABLE)
    except ValueError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    folds: dict = {}
    held = cross_validate(records, **({"folds": args.folds} if args.folds else {}), progress=progress, keep=folds,
                          scripts=scripts)
    progress("")
    if not args.quiet:
        print(file=sys.stderr)
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
            print(f"{PROG}: {shared}: no such directory", file=sys.stderr)
            return 2
        training = training_section(shared)
    from greenlint.paths import DATA_DIR
    from tools.model.device_eval import device_report

    device = device_report(DATA_DIR / "training" / "runs.csv")
    training = training.rstrip("\n") + "\n\n" + device.text
    atomic_write_text(args.out, render(held, info, training, size_scaling_check(records),
                                       script_totals(records, scripts, folds), timed_rendered(), device))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
