"""`greenlint kb show API`: what the KB knows about one API (any alias or raw signature)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HELP = "show the measurements of one API: records, median net J per component (IQR), time, sources"


def register(parser) -> None:
    parser.add_argument("api", help="API name in any alias form, e.g. keras.models.Sequential.fit or tf.keras.Sequential.fit()")
    parser.add_argument("--kb", type=Path, default=None, help="KB directory (default: the bundled data/kb)")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _q(q: dict | None, unit: str = "J") -> tuple[str, str, str]:
    if q is None:
        return "-", "-", "0"
    return f"{q['median']:,.3g} {unit}", f"{q['q1']:,.3g} .. {q['q3']:,.3g}", str(q["n"])


def run(args) -> int:
    from greenlint.kb import KBError, load_kb
    from greenlint.kb.summary import show

    try:
        data = show(load_kb(args.kb), args.api)
    except KBError as exc:
        print(f"greenlint kb show: {exc}", file=sys.stderr)
        return 2
    if args.kb is not None:
        data["calibrations"] = _calibrations(args.kb, data["apis"])
    if args.format == "json":
        print(json.dumps(data, indent=1))
        return 0 if data["records"] else 1
    from rich.table import Table

    from greenlint.cli.console import make_console

    console = make_console()
    if not data["records"]:
        console.print(f"No measurements of [bold]{args.api}[/] in the KB.")
        return 1
    console.print(f"[bold]{', '.join(data['apis'])}[/]: {data['records']} records, "
                  f"{data['below_resolution_share']:.0%} below resolution, hardware {', '.join(data['hardware_ids'])}")
    t = Table(title="Net energy per call (J above idle)")
    for col in ("component", "median (all)", "IQR (all)", "n", "median (resolved)", "IQR (resolved)", "n resolved"):
        t.add_column(col, justify="left" if col == "component" else "right", overflow="fold")
    for comp in ("cpu", "ram", "gpu", "total"):
        t.add_row(comp, *_q(data["net_j"][comp]), *_q(data["net_j_resolved"][comp]))
    console.print(t)
    et = data["execution_time_s"]
    console.print(f"execution time: median {et['median']:.3g} s (IQR {et['q1']:.3g} .. {et['q3']:.3g} s)")
    ub = data["upper_bound_j_below_resolution"]
    if ub:
        console.print(f"below-resolution records: their net is at most a median {ub['median']:.3g} J "
                      f"(IQR {ub['q1']:.3g} .. {ub['q3']:.3g} J) by the window's upper bound")
    if data["unbounded"]:
        console.print(f"{data['unbounded']} records have series that do not cover the whole call (no upper bound)")
    if data["series_cut_short"]:
        console.print(f"{data['series_cut_short']} records have a CPU series cut short (net underestimated)")
    s = Table(title="Sources")
    s.add_column("dataset", overflow="fold")
    s.add_column("project/script", overflow="fold")
    s.add_column("records", justify="right")
    for ds, projects in data["sources"].items():
        for proj, n in projects.items():
            s.add_row(ds, proj, str(n))
    console.print(s)
    console.print("raw signatures: " + "; ".join(data["raw_signatures"]))
    for api, seen in (data.get("calibrations") or {}).items():
        console.print(f"{api}: {seen['runs']} calibrations of this machine stored, joules per call "
                      f"{seen['ratio']:.3g}× apart (largest / smallest)")
    return 0


def _calibrations(kb: Path, apis: list[str]) -> dict:
    """For a calibration overlay (`greenlint calibrate`'s KB): how far its stored calibrations of these APIs disagree."""
    from greenlint.predict.calibration import CALIBRATION_JSON

    try:
        saved = json.loads((kb / CALIBRATION_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found = saved.get("disagreement") if isinstance(saved, dict) else None
    return {api: found[api] for api in apis if isinstance(found, dict) and api in found}
