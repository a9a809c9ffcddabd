"""`greenlint check PATH...`: lint TF/Keras code for energy (also plain `greenlint PATH...`)."""

from __future__ import annotations

import dataclasses
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

HELP = "check files and directories for energy findings (exit 0 clean, 1 findings, 2 error)"
JOBS_HELP = "worker processes, or auto (the default): one per idle CPU, none for a few files"

def _codes(text: str) -> list[str]:
    """`GL1,GL201` as codes; none at all (`""`, `","`) is a usage error, not a selection of nothing."""
    codes = [c.strip().upper() for c in text.split(",") if c.strip()]
    if not codes:
        import argparse

        raise argparse.ArgumentTypeError(f"expected rule codes or prefixes (e.g. GL1,GL201), got {text!r}")
    return codes


def path_arg(text: str) -> str:
    """A FILE or DIR option's value; an empty one (`--config "$CFG"` with CFG unset) is a usage
    error, never taken for the option's absence (the configuration found, the user cache)."""
    if not text:
        import argparse

        raise argparse.ArgumentTypeError("expected a path, got an empty one (an unset variable?)")
    return text


def jobs_arg(text: str) -> int | str:
    """`-j N` (worker processes) or `-j auto`."""
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        import argparse

        raise argparse.ArgumentTypeError(f"expected a positive integer or auto, got {text!r}") from None


#: What `register`'s parser gives `greenlint check` with no option (tests/check/test_warm_path.py
#: holds them equal): an option away from its default sends the run through the pipeline.
DEFAULTS = {
    "paths": ["."], "select": None, "extend_select": [], "ignore": [], "per_file_ignores": [], "exclude": None,
    "extend_exclude": [], "force_exclude": False, "no_respect_gitignore": False, "format": None,
    "statistics": False, "exit_zero": False, "fix": False, "unsafe_fixes": False, "diff": False,
    "show_fixes": False, "config": None, "isolated": False, "no_cache": False, "cache_dir": None, "jobs": None,
    "no_calibration": False, "device": None, "hotspot_threshold_j": None,
}
#: The arguments a fully cached run reads (greenlint.check.warm); any other must have its default.
WARM_READS = frozenset({"paths", "exit_zero", "statistics", "no_calibration", "format"})


def from_cache(args) -> tuple[str, list, dict | None] | None:
    """(output format, diagnostics, calibration overlay applied) from the lint cache alone, when
    the run reads no more than WARM_READS and every file is cached; else None."""
    if any(getattr(args, k) != v for k, v in DEFAULTS.items() if k not in WARM_READS):
        return None
    from greenlint.check.warm import cached_run

    output_format = args.format or "concise"  # no [tool.greenlint] table on that path
    found = cached_run(args.paths, output_format, _wants_fixes(args, output_format), calibration=not args.no_calibration)
    return None if found is None else (output_format, *found)


def register(parser: argparse.ArgumentParser) -> None:
    from greenlint.report import FORMATS

    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or directories (default: .)")
    sel = parser.add_argument_group("rule selection")
    sel.add_argument(
        "--select", type=_codes, metavar="CODES", help="only these rule codes or prefixes (e.g. GL1,GL201)"
    )
    sel.add_argument("--extend-select", type=_codes, default=[], metavar="CODES", help="enable these as well")
    sel.add_argument("--ignore", type=_codes, default=[], metavar="CODES", help="disable these codes or prefixes")
    sel.add_argument(
        "--per-file-ignores",
        action="append",
        default=[],
        metavar="PATTERN:CODES",
        help="disable CODES in files matching PATTERN (repeatable)",
    )
    files = parser.add_argument_group("files")
    files.add_argument("--exclude", action="append", metavar="PATTERN", help="replace the exclude patterns")
    files.add_argument("--extend-exclude", action="append", default=[], metavar="PATTERN", help="exclude these too")
    files.add_argument(
        "--force-exclude", action="store_true", help="apply excludes to files named on the command line too"
    )
    files.add_argument("--no-respect-gitignore", action="store_true", help="also check files .gitignore excludes")
    out = parser.add_argument_group("output")
    out.add_argument(
        "--format", "--output-format", dest="format", choices=FORMATS, help="output format (default: concise)"
    )
    out.add_argument("--statistics", action="store_true", help="count findings per rule instead of listing them")
    out.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    fix = parser.add_argument_group("fixes")
    fix.add_argument("--fix", action="store_true", help="apply the safe fixes to the files (written atomically)")
    fix.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, apply the unsafe fixes too")
    fix.add_argument(
        "--diff",
        action="store_true",
        help="print the fixes as a unified diff of the source; write nothing (the energy of a change between"
        " git revisions is `greenlint diff`)",
    )
    fix.add_argument("--show-fixes", action="store_true", help="list the fixes applied (or, without --fix, available)")
    run = add_run_options(parser)
    run.add_argument("--hotspot-threshold-j", type=float, metavar="J", help="GL101 threshold in joules")


def add_run_options(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """The `run` group that check, calls and diff share: configuration, cache and worker processes."""
    run = parser.add_argument_group("run")
    run.add_argument("--config", type=path_arg, metavar="FILE", help="read [tool.greenlint] from this pyproject.toml")
    run.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    run.add_argument("--no-cache", action="store_true", help="neither read nor write the lint cache")
    run.add_argument("--cache-dir", type=path_arg, metavar="DIR", help="lint cache directory (the calibration overlay applied: DIR/calibration)")
    run.add_argument("-j", "--jobs", type=jobs_arg, metavar="N", help=JOBS_HELP)
    run.add_argument("--no-calibration", action="store_true",
                     help="ignore this machine's calibration overlay: the reference figures")
    run.add_argument("--device", metavar="GPU",
                     help="price calls of known work on this GPU (e.g. \"RTX 3090\", A100-SXM4, T4; docs/accuracy.md)")
    return run


def run_changes(args: argparse.Namespace) -> dict:
    """The Config changes the `run` group's flags ask for (cache and worker processes)."""
    from pathlib import Path

    from greenlint.check.config import ConfigError

    changes: dict = {}
    if args.no_cache:
        changes["no_cache"] = True
    if args.cache_dir:
        changes["cache_dir"] = Path(args.cache_dir).resolve()
    if args.no_calibration:
        changes["calibration"] = False
    if args.device is not None:
        from greenlint.check.config import device_arg

        changes["device"] = device_arg(args.device, "--device")
    if args.jobs == "auto":
        changes["jobs"] = None
    elif args.jobs is not None:
        if args.jobs < 1:
            raise ConfigError("--jobs: expected a positive integer or auto")
        changes["jobs"] = args.jobs
    return changes


def _wants_fixes(args: argparse.Namespace, output_format: str) -> bool:
    """Whether the run computes fixes (a LibCST parse per file with findings): to apply, print or
    show them, or for an output format that writes them."""
    from greenlint.report import FIX_FORMATS

    return args.fix or args.diff or args.show_fixes or output_format in FIX_FORMATS


def configure(args: argparse.Namespace):
    """The Config of this run: the nearest [tool.greenlint], then the flags on top."""
    from pathlib import Path

    from greenlint.check.config import ConfigError, check_file_pattern, coerce_option, load_config

    flags = run_changes(args)  # the flags first: a bad one is reported before the configuration is read
    config = load_config([Path(p) for p in args.paths], Path(args.config) if args.config else None, args.isolated)
    changes: dict = {}
    if args.select is not None:
        changes["select"] = tuple(args.select)
    if args.extend_select:
        changes["extend_select"] = (*config.extend_select, *args.extend_select)
    if args.ignore:
        changes["ignore"] = (*config.ignore, *args.ignore)
    if args.per_file_ignores:
        pfi = dict(config.per_file_ignores)
        for item in args.per_file_ignores:
            pattern, sep, codes = item.rpartition(":")
            if not sep or not pattern or not any(c.strip() for c in codes.split(",")):
                raise ConfigError(f"--per-file-ignores {item!r}: expected PATTERN:CODES")
            check_file_pattern(pattern, f"--per-file-ignores {item!r}")
            pfi[pattern] = (*pfi.get(pattern, ()), *_codes(codes))
        changes["per_file_ignores"] = pfi
    if args.exclude:
        changes["exclude"] = tuple(args.exclude)
    if args.extend_exclude:
        changes["extend_exclude"] = (*config.extend_exclude, *args.extend_exclude)
    if args.force_exclude:
        changes["force_exclude"] = True
    if args.no_respect_gitignore:
        changes["respect_gitignore"] = False
    if args.format:
        changes["output_format"] = args.format
    if args.hotspot_threshold_j is not None:
        value = coerce_option(float, args.hotspot_threshold_j, "--hotspot-threshold-j")
        changes["options"] = {**config.options, "hotspot-threshold-j": value}
    return dataclasses.replace(config, **changes, **flags)


def run(args: argparse.Namespace) -> int:
    warm = from_cache(args)  # every file unchanged: answered without the rest of the pipeline
    if warm is not None:
        return _report(args, *warm)
    from greenlint.check.config import ConfigError
    from greenlint.check.pipeline import run_check
    from greenlint.report.escape import visible

    try:
        config = configure(args)
        result = run_check(args.paths, config, fixes=_wants_fixes(args, config.output_format))
    except ConfigError as exc:
        print(visible(f"greenlint: error: {exc}"), file=sys.stderr)
        return 2
    if not result.files:
        print(visible(f"greenlint: warning: no Python files or notebooks found under {', '.join(args.paths)}"),
              file=sys.stderr)
    if args.diff or args.fix:
        from greenlint.check import fixes as files

        fixes = files.fix_checked(result.results, config, unsafe=args.unsafe_fixes)
        for f in fixes:
            if f.skipped:
                print(visible(f"greenlint: {f.path}: not fixed: {f.skipped}"), file=sys.stderr)
        if args.diff:
            from greenlint.fix.engine import unified_diff

            terminal = sys.stdout.isatty()  # a patch kept for `git apply` keeps its lines' bytes; a terminal sees them escaped
            for f in fixes:
                if f.changed:
                    patch = unified_diff(f.path, f.before, f.after)
                    sys.stdout.write(visible(patch, lines=True) if terminal else patch)
            count = sum(len(f.fixed) for f in fixes)
            print(f"Would fix {count} finding{'s' * (count != 1)}.", file=sys.stderr)
            _show_fixes(args, fixes, result)
            return 1 if any(f.changed for f in fixes) and not args.exit_zero else 0
        for f in files.write(fixes, config.root):
            print(visible(f"greenlint: {f.path}: not fixed: {f.skipped}"), file=sys.stderr)
        if any(f.changed for f in fixes):
            result = run_check(args.paths, config, fixes=True)
        count = sum(len(f.fixed) for f in fixes if f.changed)
        print(f"Fixed {count} finding{'s' * (count != 1)}.", file=sys.stderr)
        _show_fixes(args, fixes, result)
    elif args.show_fixes:
        _show_fixes(args, None, result)
    return _report(args, config.output_format, result.diagnostics, result.calibration, result.sources)


def _report(args: argparse.Namespace, output_format: str, diagnostics: list, calibration: dict | None,
            sources: dict | None = None) -> int:
    """Print the findings (and the calibration note, the unsafe fixes left); the exit code."""
    from greenlint.report import calibration_note, render

    note = calibration_note(calibration)
    if note:
        print(f"greenlint: {note}", file=sys.stderr)
    sys.stdout.write(render(output_format, diagnostics, sources=sources, statistics=args.statistics,
                            calibration=calibration))
    unsafe = sum(1 for d in diagnostics if d.fix is not None and not d.fix.safe)  # known where computed
    if unsafe and not args.unsafe_fixes:
        print(f"{unsafe} unsafe fix{'es' * (unsafe != 1)} available with `--fix --unsafe-fixes`.", file=sys.stderr)
    return 1 if diagnostics and not args.exit_zero else 0


def _show_fixes(args: argparse.Namespace, fixes, result) -> None:
    """`--show-fixes`: each fix applied (with --fix/--diff) or available, as `path:line:col: CODE title`."""
    if not args.show_fixes:
        return
    from greenlint.report.escape import leading_path, visible

    if fixes is None:
        rows = [(d, "available") for d in result.diagnostics if d.fix is not None]
    else:
        rows = [(d, "fixed" if not args.diff else "would fix") for f in fixes for d in f.fixed]
    for d, state in rows:
        where = f"{leading_path(d.path)}:" + (f"cell {d.span.cell}:" if d.span.cell else "") + f"{d.span.line}:{d.span.column}"
        safety = "safe" if d.fix.safe else "unsafe"
        print(visible(f"{where}: {d.code} [{state}, {safety}] {d.fix.title}"), file=sys.stderr)
