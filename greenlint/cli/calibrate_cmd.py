"""`greenlint calibrate`: measure the bundled TF workloads on this machine (needs the meter extra)."""

from __future__ import annotations

import argparse
import sys

HELP = "measure the bundled TF workloads on this machine and write its calibration overlay"


def register(parser: argparse.ArgumentParser) -> None:
    from greenlint.cli.measure_cmd import add_meter_options

    parser.add_argument("--quick", action="store_true", help="the short suite (under 5 minutes on 2 CPU cores)")
    parser.add_argument("--list", action="store_true", help="show what would run, and exit")
    parser.add_argument("--status", action="store_true", help="show this machine's calibration, and exit")
    parser.add_argument("--only", action="append", metavar="WORKLOAD", help="run only these workloads (repeatable)")
    parser.add_argument("--restart", action="store_true", help="discard an interrupted run instead of resuming it")
    add_meter_options(parser)


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _status(console) -> int:
    from greenlint.hardware import hardware_id
    from greenlint.meter.calibrate import SPREAD_GOAL, overlay_dir, status

    hw = hardware_id()
    st = status(hw)
    console.print(f"hardware id: [bold]{hw}[/]")
    ov = st["overlay"]
    if ov is None:
        console.print("no calibration overlay yet: run `greenlint calibrate --quick`")
    else:
        ws = ov["workloads"]
        ok = sum(1 for w in ws.values() if w["spread_j"] is not None and w["spread_j"] <= SPREAD_GOAL)
        console.print(f"overlay: {overlay_dir(hw)} ({ov['mode']}, finished {ov['finished_at']}, basis {ov['basis']})")
        console.print(f"  {len(ws)} workloads, {len(ov['apis'])} APIs, {ov['kb']['records']} KB records; "
                      f"{ok} of {len(ws)} within the {SPREAD_GOAL:.0%} spread goal")
        _startup(ov, console)
        _load(ov, console)
        _disagreement(ov, console)
        _local_models(console)
    for mode, names in st["in_progress"].items():
        console.print(f"interrupted {mode} run: {len(names)} workloads done; rerun to resume")
    return 0


def _startup(overlay: dict, console) -> None:
    """The program's start-up the calibration measured (`meter.startup`), where it holds one."""
    start = overlay.get("startup")
    if start:
        kept = f", kept from {start['kept_from']}" if start.get("kept_from") else ""
        console.print(f"a program's start-up (`{start['statement']}` in a fresh interpreter, {start['runs']} runs): "
                      f"{start['cpu_s']:.3g} CPU s, {start['energy_j']:.3g} J estimated{kept}", markup=False,
                      highlight=False)


def _load(overlay: dict, console) -> None:
    """The machine's load over the calibration's windows (`meter.calibrate.load_summary`), where recorded."""
    load = overlay.get("load")
    if not load or not load.get("windows"):
        return
    others, average = load["others_busy_cores"], load["loadavg_1m"]
    said = (f"load while measuring: other processes kept {_cores(others['median'])} of {load['cores']} cores busy "
            f"(most {_cores(others['max'])}), load average {_cores(average['median'])} (most {_cores(average['max'])})")
    if load["loaded_windows"]:
        console.print(f"[yellow]{said}; {load['loaded_windows']} of {load['windows']} windows on a busy machine[/]: "
                      "the fitted constants may follow the load, not the machine")
    else:
        console.print(said)


def _cores(x) -> str:
    return "-" if x is None else f"{x:.2f}"


def _disagreement(overlay: dict, console) -> None:
    """How far this machine's stored calibrations disagree: per API, and on the time ratio that rescales the rest."""
    from greenlint.meter.calibrate import runs_of

    apis = overlay.get("disagreement") or {}
    runs = runs_of(overlay)
    if len(runs) < 2:
        return
    from greenlint.predict import load_predictor
    from greenlint.predict.calibration import ratio_disagreement

    worst = sorted(apis.items(), key=lambda kv: -kv[1]["ratio"])
    shown = ", ".join(f"{api} ×{d['ratio']:.3g}" for api, d in worst[:5]) + (f" and {len(worst) - 5} more" if len(worst) > 5 else "")
    console.print(f"{len(runs)} calibrations of this machine stored; joules per call, largest / smallest: {shown or '-'}")
    ratio = ratio_disagreement(runs, load_predictor(overlay=False).model)
    if ratio:
        console.print(f"  the execution-time ratio that rescales the other APIs: ×{ratio[1]:.3g} apart over {ratio[0]} calibrations")


def _local_models(console) -> None:
    """This machine's own time and op models, as the predictor fits them from the installed overlay."""
    from greenlint.predict import load_predictor
    from greenlint.predict.local_work import describe

    overlay = load_predictor().overlay
    lines = describe(overlay.local if overlay is not None else None)
    if lines:
        console.print("this machine's own models (the figures of fit/evaluate/predict and of tensor ops follow them):")
        for line in lines:
            console.print(f"  {line}")


def _table(result, console) -> None:
    from rich.table import Table

    from greenlint.meter.calibrate import SPREAD_GOAL

    table = Table("workload", "api", "execs", "J / exec", "s / exec", "spread J", "spread s", "below res.")
    for name, s in result["workloads"].items():
        j = "-" if s["per_execution_j"] is None else f"{s['per_execution_j']:.4g}"
        sj = _pct(s["spread_j"])
        if s["spread_j"] is not None and s["spread_j"] > SPREAD_GOAL:
            sj = f"[yellow]{sj}[/]"
        table.add_row(name, s["api"], str(s["executions"]), j, f"{s['per_execution_s']:.4g}", sj,
                      _pct(s["spread_s"]), f"{s['below_resolution']}/{s['repeats']}")
    console.print(table)


def run(args) -> int:
    from greenlint.cli.console import make_console

    console = make_console(stderr=True)
    if args.status:
        return _status(console)
    from greenlint.meter.calibrate import Calibrator, Plan, overlay_dir
    from greenlint.meter.workloads import select

    try:
        workloads = select(args.quick, args.only)
    except KeyError as exc:
        print(f"greenlint calibrate: {exc.args[0]}", file=sys.stderr)
        return 2
    plan = Plan.for_mode(args.quick)
    if args.list:
        for w in workloads:
            print(f"{w.name:28} {w.api}")
        print(f"{len(workloads)} workloads, {plan.repeats} repeats each, windows >= {plan.min_window_s:g} s ({plan.mode})")
        return 0
    from greenlint.cli.measure_cmd import meter_config, require_tensorflow

    require_tensorflow()
    config = meter_config(args, default_bin_ms=50.0 if args.quick else 100.0)
    from greenlint.meter.startup import measure_startup

    startup = None if args.only else (lambda: measure_startup(plan.repeats, tdp_w=config.tdp_w))
    cal = Calibrator(plan, workloads, config, startup=startup)
    if args.restart:
        import shutil

        shutil.rmtree(cal.partial, ignore_errors=True)
    pending = cal.pending()
    if len(pending) < len(workloads):
        console.print(f"resuming: {len(workloads) - len(pending)} of {len(workloads)} workloads already done")
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("{task.description:28}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("starting (stable state)", total=len(pending) * (plan.repeats + 1))
        result = cal.run(lambda wl: progress.update(task, description=wl.name), lambda: progress.advance(task))
    _table(result, console)
    from greenlint.cli.measure_cmd import print_meter

    print_meter(result["meter"], result.get("stable"), console)
    console.print(f"overlay written: {overlay_dir(cal.hw_id)} (basis {result['basis']})")
    _startup(result, console)
    _load(result, console)
    _disagreement(result, console)
    _local_models(console)
    if result["kb"]["problems"]:
        console.print(f"[yellow]{len(result['kb']['problems'])} problems building the overlay KB[/], first: "
                      f"{result['kb']['problems'][0]}")
    return 0
