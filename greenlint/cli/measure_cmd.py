"""`greenlint measure [OPTIONS] SCRIPT [ARGS...]`: run a script with every TF call metered (needs the meter extra)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELP = "run a script (or notebook) with its TF/Keras calls metered; write measurement files"


def add_meter_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by `measure` and `calibrate` (defaults from GREENLINT_METER_* variables)."""
    env = os.environ.get
    g = parser.add_argument_group("meter")
    g.add_argument("--interval-ms", type=float, default=float(env("GREENLINT_METER_INTERVAL_MS", 20)),
                   help="counter sampling interval (default 20 ms)")
    g.add_argument("--max-wait", type=float, default=float(env("GREENLINT_METER_MAX_WAIT_S", 120)),
                   help="longest wait for a stable state, s (default 120, as FECoM)")
    g.add_argument("--stable-points", type=int, default=int(env("GREENLINT_METER_STABLE_POINTS", 20)),
                   help="bins in the stability/baseline window (default 20, as FECoM)")
    bin_ms = env("GREENLINT_METER_STABLE_BIN_MS")
    g.add_argument("--stable-bin-ms", type=float, default=float(bin_ms) if bin_ms else None,
                   help="length of one stability bin (default 100 ms, 50 ms for calibrate --quick; FECoM: 500)")
    g.add_argument("--after", type=float, default=float(env("GREENLINT_METER_AFTER_S", 0.5)),
                   help="seconds of samples kept after each call (default 0.5)")
    g.add_argument("--source", action="append", choices=["rapl", "perf", "nvml", "estimated"],
                   help="energy sources to try (repeatable; default all, in that order)")
    g.add_argument("--no-estimate", action="store_true", help="never fall back to the estimated CPU source")
    g.add_argument("--cpu-tdp-w", type=float, default=None, help="CPU TDP for the estimated source (W)")


def meter_config(args, default_bin_ms: float = 100.0):
    from greenlint.meter.counters import ORDER
    from greenlint.meter.session import MeterConfig
    from greenlint.meter.stability import StabilitySettings

    bin_ms = args.stable_bin_ms if args.stable_bin_ms is not None else default_bin_ms
    stab = StabilitySettings(check_last_n_points=args.stable_points, check_bin_s=bin_ms / 1000,
                             max_wait_s=args.max_wait,
                             check_interval_s=min(0.5, max(args.max_wait, 0.01)))
    return MeterConfig(
        interval_s=args.interval_ms / 1000,
        stability=stab,
        after_s=args.after,
        sources=tuple(args.source or ORDER),
        allow_estimate=not args.no_estimate,
        tdp_w=args.cpu_tdp_w,
    )


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", type=Path, help="Python script or Jupyter notebook to run")
    parser.add_argument("args", nargs=argparse.REMAINDER,
                        help="arguments for the script; greenlint options go before SCRIPT")
    parser.add_argument("--out", type=Path, default=None,
                        help="output directory (default: <cache>/measurements/<hardware id>)")
    parser.add_argument("--level", choices=["method", "project", "both"], default="method",
                        help="per call (method), whole script (project), or both runs")
    parser.add_argument("--wait-each-call", action="store_true",
                        help="wait for a stable state before every call, as FECoM does (slow)")
    parser.add_argument("--max-records-per-site", type=int, default=20,
                        help="record at most this many executions of each call site (default 20)")
    add_meter_options(parser)


def print_meter(meter: dict, stable: dict | None, console) -> None:
    """Which counter measured each component; for each one missing, every source's reason and fix;
    the power model an estimate assumes; whether the state was stable, not checked, or loaded."""
    tried = meter.get("tried", {})
    for comp, d in meter.get("components", {}).items():
        if d.get("measured_by") and d.get("basis") == "measured":
            console.print(f"  {comp}: measured by {d['measured_by']} ({', '.join(d.get('zones') or []) or 'counter'})",
                          highlight=False)
            continue
        if d.get("measured_by"):
            console.print(f"  {comp}: [bold]estimated[/] by {d['measured_by']}: {d.get('power_model', 'a power model')}",
                          highlight=False)
        else:
            console.print(f"  {comp}: [bold]not measured[/]", highlight=False)
        sources = {"cpu": ("rapl", "perf"), "ram": ("rapl", "perf"), "gpu": ("nvml",)}[comp]
        for name in sources:
            if name in tried and not tried[name].startswith("in use"):
                console.print(f"    no {name}: {tried[name]}", markup=False, highlight=False)
    if stable:
        load = stable.get("load") or {}
        if not stable.get("checked", True):
            console.print("  stability: [yellow]not checked[/] (no power counter or temperature sensor to check)")
        elif not stable["stable"]:
            console.print(f"  [yellow]not stable before the run[/]: {'; '.join(stable['reasons'])}", highlight=False)
        if load.get("loaded"):
            console.print(f"  [yellow]the machine was busy[/]: {'; '.join(load['reasons'])}; figures may be high "
                          "and spread wide", highlight=False)


def _print_summary(res, console) -> None:
    from rich.table import Table

    s = res.summary or {}
    meter = s.get("meter", {})
    basis = meter.get("basis", "?")
    if res.summary is None:
        from greenlint.meter.measure import why_nothing_written

        console.print(f"[bold]{res.level}-level[/]: no file written: {why_nothing_written(res.status)}", highlight=False)
        return
    console.print(f"[bold]{res.level}-level[/]: {res.out_file or 'no file written'} "
                  f"({s.get('records', 0)} records, basis: {basis})")
    print_meter(meter, s.get("stable"), console)
    from greenlint.units import fmt_j, fmt_s

    for comp, c in (s.get("counters") or {}).items():
        how = "detected at the start" if c.get("detected") else "as documented"
        console.print(f"  {comp} counter: updates every {fmt_s(c['update_period_s'])} ({how}), "
                      f"resolution {fmt_j(c['resolution_j'])}", highlight=False)
    rows = s.get("sites", [])
    if rows:
        table = Table("call", "line", "executions", "J / exec (median)", "IQR", "s / exec", "note")
        for r in rows[:50]:
            site = r["site"]
            where = f"{site['cell']}:{site['line']}" if site.get("cell") else str(site["line"])
            j = "not measured" if r["median_j"] is None else fmt_j(r["median_j"])
            if r["median_j"] is None and r.get("upper_bound_j") is not None:
                j = f"unresolved (< {fmt_j(r['upper_bound_j'])})"
            iqr = f"{fmt_j(r['iqr_j'][0])} – {fmt_j(r['iqr_j'][1])}" if r.get("iqr_j") else ""
            table.add_row(site["api"], where, str(r["executions"]), j, iqr, f"{r['time_s']:.3g}", r.get("note") or "")
        console.print(table)
        if basis == "estimated":
            console.print("  joules are [bold]estimated[/] (no readable energy counter), not measured")
        elif basis == "not-measured":
            console.print("  no energy was measured (no readable counter, estimates disabled): times only")
    if res.profile_file:
        console.print(f"  profiles: {res.profile_file} (`greenlint check` and the editor show them; "
                      "`greenlint profile clear` removes them)")
    if s.get("traceback"):
        console.print("[red]the script failed[/]:")
        console.print(s["traceback"], markup=False, highlight=False)


def require_tensorflow() -> None:
    """Raise what `greenlint.cli.main` turns into the `meter` extra's hint when TensorFlow is not
    installed: said at once, before waiting for a stable machine or drawing a progress bar."""
    import importlib.util

    if importlib.util.find_spec("tensorflow") is None:
        raise ModuleNotFoundError("No module named 'tensorflow'", name="tensorflow")


def run(args) -> int:
    require_tensorflow()
    from greenlint.cli.console import make_console
    from greenlint.hardware import hardware_id
    from greenlint.meter.measure import MeasureError, measure
    from greenlint.paths import cache_dir

    console = make_console(stderr=True)
    argv = args.args[1:] if args.args[:1] == ["--"] else list(args.args)
    out = args.out or cache_dir() / "measurements" / hardware_id()
    levels = ("method", "project") if args.level == "both" else (args.level,)
    try:
        results = measure(args.script, argv, out, levels=levels, config=meter_config(args),
                          wait_each_call=args.wait_each_call, max_records_per_site=args.max_records_per_site)
    except MeasureError as exc:
        print(f"greenlint measure: {exc}", file=sys.stderr)
        return 2
    for res in results:
        _print_summary(res, console)
    print(out)
    return 0 if all(r.status == 0 and r.out_file for r in results) else 1
