"""`greenlint calls PATH...`: every resolved TF/Keras call site with its predicted energy.

`--format json` prints the versioned CallSite JSON contract (docs/calls-json.md); `--format text`
a table for people; `--format html` a standalone energy report (greenlint/report/html.py). Files that cannot be analysed are named on stderr and make the exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "list every TF/Keras call site with its predicted energy (JSON contract: docs/calls-json.md)"


def register(parser: argparse.ArgumentParser) -> None:
    from greenlint.cli.check_cmd import add_run_options

    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or directories (default: .)")
    parser.add_argument("--format", choices=("text", "json", "html"), default="text", help="output format (default: text)")
    files = parser.add_argument_group("files")
    files.add_argument("--exclude", action="append", metavar="PATTERN", help="replace the exclude patterns")
    files.add_argument("--extend-exclude", action="append", default=[], metavar="PATTERN", help="exclude these too")
    files.add_argument("--no-respect-gitignore", action="store_true", help="also list files .gitignore excludes")
    add_run_options(parser)
    parser.add_argument(
        "--include-test-asserts",
        action="store_true",
        help="also list tf.test.TestCase assert* calls (test helpers, left out by default)",
    )


def collect(args: argparse.Namespace, backend=None):
    """The CheckResult for `args` (config as `greenlint check` builds it, and judged as it judges
    it): the call sites with their figures and the file errors; no rule runs (calls reports no
    finding). Raises ConfigError."""
    from greenlint.check.pipeline import analyse_paths
    from greenlint.check.selection import validate
    from greenlint.cli import check_cmd

    check_parser = argparse.ArgumentParser()
    check_cmd.register(check_parser)
    defaults = vars(check_parser.parse_args([]))  # check's other flags (rule selection...) keep their defaults
    shared = {k: v for k, v in vars(args).items() if k in defaults and k != "format"}
    config = check_cmd.configure(argparse.Namespace(**{**defaults, **shared}))
    validate(config)
    return analyse_paths(args.paths, config, backend)


def write(result, fmt: str, out=None, include_test_asserts: bool = False) -> None:
    """Print the call sites of `result` in `fmt` (json, text or html) to `out` (stdout); test-case
    assertions only with `include_test_asserts`."""
    from greenlint.predict.prediction import width_summary
    from greenlint.report.calls import calls_document, calls_table, held_line, startup_line
    from greenlint.rules.site import is_test_assertion

    out = out or sys.stdout
    calibration = result.calibration
    pairs = [(s, p) for s, p in result.callsites_with_predictions if include_test_asserts or not is_test_assertion(s.api)]
    startup, held = program_figures(result, pairs)
    if fmt == "json":
        out.write(json.dumps(calls_document(pairs, calibration, startup, held), indent=2, default=str) + "\n")
        return
    if fmt == "html":
        from greenlint.report.html import calls_html

        out.write(calls_html(pairs, calibration=calibration, startup=startup, held=held))
        return
    from greenlint.cli.console import make_console

    console = make_console(out)
    if pairs:
        console.print(calls_table(pairs))
    known = sum(1 for _, p in pairs if _figure(p))
    files = len({site.path for site, _ in pairs})
    console.print(f"{len(pairs)} call site{'s' if len(pairs) != 1 else ''} in {files} of {len(result.files)} "
                  f"files; {known} with an energy figure.")
    widths = width_summary(p for _, p in pairs)
    if widths:
        console.print(f"Figures: {widths}")
    device = getattr(getattr(result, "config", None), "device", None)
    if device:
        console.print(f"Calls of known work priced on the {device} (told: --device or `device`); the others at the "
                      "reference machine's figures.", markup=False, highlight=False)
    if known:
        console.print(startup_line(startup), markup=False, highlight=False)
        console.print(held_line(held, len(pairs)), markup=False, highlight=False)
    if calibration:
        from greenlint.report import calibration_note

        console.print(calibration_note(calibration), markup=False, highlight=False)


def _figure(prediction) -> bool:
    """A figure of work at the call's line: known, and not a symbolic call's 0 J (its work is
    counted where the graph runs)."""
    from greenlint.predict.prediction import Basis

    return prediction is not None and prediction.energy_j is not None and prediction.basis is not Basis.SYMBOLIC


def program_figures(result, pairs: list) -> tuple:
    """(start-up, held device) of a program of these call sites (`Predictor.startup`, this
    machine's where its calibration measured it, and `Predictor.held`, the reference machine's);
    (None, None) where no call site has a figure."""
    from greenlint.predict import load_predictor

    if not any(_figure(p) for _, p in pairs):
        return None, None
    config = getattr(result, "config", None)
    overlay = config.overlay if config is not None else False
    return load_predictor(overlay=overlay).startup(), load_predictor(overlay=False).held(len(pairs))


def run(args: argparse.Namespace) -> int:
    from greenlint.check.config import ConfigError
    from greenlint.report.concise import line
    from greenlint.report.escape import visible

    try:
        result = collect(args)
    except ConfigError as exc:
        print(visible(f"greenlint: error: {exc}"), file=sys.stderr)
        return 2
    for error in result.errors:
        print(line(error), file=sys.stderr)
    write(result, args.format, include_test_asserts=args.include_test_asserts)
    return 2 if result.errors else 0
