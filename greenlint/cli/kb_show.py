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


#: A net figure under 0 J: the component drew no more than at idle, within its counter's noise.
BELOW = "below resolution"


def _q(q: dict | None) -> tuple[str, str, str]:
    """Median, IQR and count of net joules; a negative figure is said as below the resolution."""
    from greenlint.units import fmt_j

    if q is None:
        return "-", "-", "0"
    median = BELOW if q["median"] < 0 else fmt_j(q["median"])
    ends = ["< 0 J" if v < 0 else fmt_j(v) for v in (q["q1"], q["q3"])]
    return median, f"{ends[0]} .. {ends[1]}", str(q["n"])


def _pooled(records: list, apis: list[str]) -> dict:
    """How `kb predict` reads each of *apis*: the API whose call sites it pools them under, the
    KB's APIs pooled there, their records, and how many its figure rests on (the predictor's
    table: data-size sweeps fit the size exponent instead, records that say nothing are left out)."""
    from functools import lru_cache

    from greenlint.predict import model_path
    from greenlint.predict.hierarchy import Hierarchy
    from greenlint.predict.tables import read_model

    model, _ = read_model(model_path())
    pooled = lru_cache(maxsize=None)(Hierarchy().pooled)
    out = {}
    for api in apis:
        key = pooled(api)
        entry = model["apis"].get(key)
        if entry is None:
            continue
        members = sorted({r.api for r in records if pooled(r.api) == key})
        out[api] = {"api": key, "apis": members, "records": entry["records"],
                    "kb_records": sum(1 for r in records if r.api in members)}
    return out


def run(args) -> int:
    from greenlint.kb import KBError, load_kb
    from greenlint.kb.summary import show

    try:
        records = load_kb(args.kb)
        data = show(records, args.api)
    except KBError as exc:
        print(f"greenlint kb show: {exc}", file=sys.stderr)
        return 2
    if args.kb is not None:
        data["calibrations"] = _calibrations(args.kb, data["apis"])
    else:  # the bundled KB: what the shipped predictor made of it
        data["predictor"] = _pooled(records, data["apis"])
    if args.format == "json":
        print(json.dumps(data, indent=1))
        return 0 if data["records"] else 1
    from rich.table import Table

    from greenlint.cli.console import make_console

    console = make_console()
    if not data["records"]:  # the name as typed: neither rich markup (`[/]` raised) nor a terminal escape
        from rich.markup import escape as markup

        from greenlint.report.escape import visible

        console.print(f"No measurements of [bold]{markup(visible(args.api))}[/] in the KB.")
        return 1
    console.print(f"[bold]{', '.join(data['apis'])}[/]: {data['records']} records, "
                  f"{data['below_resolution_share']:.0%} below resolution, hardware {', '.join(data['hardware_ids'])}")
    t = Table(title="Net energy per call (J above idle)")
    for col in ("component", "median (all)", "IQR (all)", "n", "median (resolved)", "IQR (resolved)", "n resolved"):
        t.add_column(col, justify="left" if col == "component" else "right", overflow="fold")
    for comp in ("cpu", "ram", "gpu", "total"):
        t.add_row(comp, *_q(data["net_j"][comp]), *_q(data["net_j_resolved"][comp]))
    console.print(t)
    quartiles = [q for key in ("net_j", "net_j_resolved") for q in data[key].values() if q]
    if any(q["q1"] < 0 for q in quartiles):
        console.print(f"{BELOW}, < 0 J: net energy under 0 J, the component drew no more than at idle (within its "
                      "counter's noise)")
    for api, seen in (data.get("predictor") or {}).items():
        pooled = seen["apis"] != [api]
        named = f" as {seen['api']}" if seen["api"] != api else ""
        head = (f"kb predict prices {api}{named}, pooling the call sites of {', '.join(seen['apis'])}: "
                if pooled else f"kb predict prices {api}{named} from ")
        rest = (" (data-size sweeps fit the size exponent instead; records that say nothing are left out)"
                if seen["records"] < seen["kb_records"] else "")
        console.print(f"{head}{seen['records']} of {'their' if pooled else 'these'} {seen['kb_records']} records{rest}",
                      highlight=False)
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
