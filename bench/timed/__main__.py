"""The CPU-timed suite: `python -m bench.timed COMMAND` from the repository root.

  run      time every script (CPU seconds of its process after the imports, `--repeats` times each)
           and write bench/timed/results.json (its comparison is dropped: run compare); `--stale`
           times only the scripts changed since, and updates their entries
  compare  run `greenlint calls --format json` on the scripts (a fresh cache), then after
           `greenlint calibrate --quick` (a fresh cache, or `--calibrated-cache DIR` that a calibrate
           run filled), compare with the results file's measurements, store the comparison in it and
           rewrite the suite's section of docs/accuracy.md; `--retime` times the suite again in the
           same run, its passes before and after the calibration (one load for both), and replaces
           the results file's measurements with those
  predict  record greenlint's figures for scripts (`--script`, repeatable; default the ones with no
           timing for their current text) before they are timed, uncalibrated and after
           `greenlint calibrate --quick`, in bench/timed/predictions.json (those of other scripts kept)
  doc      rewrite that section from the results file alone
  steps    time a `fit` step of the calibration's MLP and of variants (the suite's MLP, its loss, its
           input dtype, more layers) in fresh interpreters, write bench/timed/steps.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from .suite import RESULTS, scripts, stamp

DOC = Path(__file__).resolve().parents[2] / "docs" / "accuracy.md"


def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _load(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"{path}: cannot read the results ({exc}): run `python -m bench.timed run`") from None


def _write(path: Path, results: dict) -> None:
    path.write_text(json.dumps(results, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def write_doc(results: dict, doc: Path = DOC) -> None:
    from greenlint.atomic import atomic_write_text
    from tools.model.timed_suite import replace_section

    atomic_write_text(doc, replace_section(doc.read_text(encoding="utf-8"), results))


def stale_scripts(results: dict) -> list[str]:
    """The suite's scripts with no result for their current text."""
    return [p.stem for p in scripts() if results["scripts"].get(p.stem, {}).get("stamp") != stamp(p)]


def cmd_run(args) -> int:
    from .timing import merge, run_suite

    if args.stale:
        old = _load(args.out)
        names = stale_scripts(old)
        if not names:
            print(f"{args.out}: every script has a result for its current text")
            return 0
        results = merge(old, run_suite(names, repeats=old["repeats"], progress=_progress), [p.stem for p in scripts()])
    else:
        if args.script and args.out == RESULTS:
            raise SystemExit("--script times part of the suite: name its results file with --out (or use --stale)")
        results = run_suite(args.script or None, repeats=args.repeats, progress=_progress)
    _write(args.out, results)
    print(f"wrote {args.out}")
    return 0


def cmd_compare(args) -> int:
    from .compare import run_compare

    if args.retime:
        from .compare import retime

        if args.calibrated_cache is not None:
            raise SystemExit("--retime calibrates between its timing passes: drop --calibrated-cache")
        cache = Path(tempfile.mkdtemp(prefix="greenlint-timed-calibration-"))
        results = retime(cache, args.repeats, progress=_progress)
    else:
        results, cache = _load(args.results), args.calibrated_cache
        stale = stale_scripts(results)
        if stale:
            raise SystemExit(f"{args.results}: no result for the current text of {', '.join(stale)}: "
                             "run `python -m bench.timed run` (or `compare --retime`)")
    measured = {name: s["measured_j"] for name, s in results["scripts"].items()}
    results["compare"] = run_compare(scripts(), measured, cache, progress=_progress, same_run=args.retime)
    _write(args.results, results)
    if args.results == RESULTS:
        write_doc(results)
    from tools.model.timed_suite import section

    print("\n".join(section(results)))
    return 0


def cmd_predict(args) -> int:
    from .compare import predict
    from .suite import PREDICTIONS

    chosen = args.script or stale_scripts(_load(RESULTS))
    paths = [p for p in scripts() if p.stem in chosen]
    missing = set(chosen) - {p.stem for p in paths}
    if missing or not paths:
        raise SystemExit(f"no such script in the suite: {', '.join(sorted(missing))}" if missing
                         else "every script has a timing for its current text: name scripts with --script")
    made = predict(paths, progress=_progress)
    old = json.loads(PREDICTIONS.read_text(encoding="utf-8")) if PREDICTIONS.exists() else {"runs": []}
    for run in old["runs"]:  # a script predicted again: its earlier prediction was for another text
        run["scripts"] = {k: v for k, v in run["scripts"].items() if k not in made["scripts"]}
    old["runs"] = [run for run in old["runs"] if run["scripts"]] + [made]
    _write(PREDICTIONS, old)
    for name, row in made["scripts"].items():
        print(f"{name}: {row['uncalibrated']['predicted_j']:.4g} J uncalibrated, "
              f"{row['calibrated']['predicted_j']:.4g} J calibrated")
    print(f"wrote {PREDICTIONS}")
    return 0


def cmd_doc(args) -> int:
    write_doc(_load(args.results))
    print(f"wrote {DOC}")
    return 0


def cmd_steps(args) -> int:
    from .steps import STEPS_RESULTS, run_steps

    summary = run_steps(args.repeats, progress=_progress)["summary"]
    for name, row in summary.items():
        print(f"{name}: {row['median_ms']:.3g} ms per step ({row['vs_reference']:.3g} of the calibration's), "
              f"spread {row['spread']:.0%}, load {row['load']}")
    print(f"wrote {STEPS_RESULTS}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.timed", description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="time the scripts and write the results file")
    run.add_argument("--repeats", type=int, default=2, help="runs of each script (default 2)")
    run.add_argument("--script", action="append", help="only this script (its stem; repeatable)")
    run.add_argument("--stale", action="store_true",
                     help="time only the scripts whose text changed since the results file's run, and update it")
    run.add_argument("--out", type=Path, default=RESULTS, help="results file (default bench/timed/results.json)")
    run.set_defaults(func=cmd_run)
    cmp = sub.add_parser("compare", help="compare greenlint's figures with the results file's")
    cmp.add_argument("--results", type=Path, default=RESULTS)
    cmp.add_argument("--calibrated-cache", type=Path, default=None,
                     help="a cache folder `greenlint calibrate --quick` already filled (default: calibrate afresh)")
    cmp.add_argument("--retime", action="store_true",
                     help="time the suite again around the calibration, in this run (one load for both)")
    cmp.add_argument("--repeats", type=int, default=2, help="with --retime: timing passes (default 2)")
    cmp.set_defaults(func=cmd_compare)
    pre = sub.add_parser("predict", help="record greenlint's figures for scripts before they are timed")
    pre.add_argument("--script", action="append", help="this script (its stem; repeatable)")
    pre.set_defaults(func=cmd_predict)
    doc = sub.add_parser("doc", help="rewrite the suite's section of docs/accuracy.md from the results file")
    doc.add_argument("--results", type=Path, default=RESULTS)
    doc.set_defaults(func=cmd_doc)
    steps = sub.add_parser("steps", help="time a fit step by what it dispatches (layers, loss, input dtype)")
    steps.add_argument("--repeats", type=int, default=2, help="runs of each variant (default 2)")
    steps.set_defaults(func=cmd_steps)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
