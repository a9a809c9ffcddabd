"""`greenlint kb stats`: what the KB covers (datasets, files read and skipped, records, APIs, families)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HELP = "coverage of the KB: datasets, files read/skipped, records, APIs, energy by API family"


def register(parser) -> None:
    parser.add_argument("--kb", type=Path, default=None, help="KB directory (default: the bundled data/kb)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--families", type=int, default=15, help="API families to list in text output")


def _j(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.2g}" if x else "0"


def _col(header: str, name_column: str) -> dict:
    """Numbers never wrap or shrink below their header; the name column gives way."""
    if header == name_column:
        return {"no_wrap": True, "overflow": "ellipsis", "ratio": 1}
    return {"justify": "right", "no_wrap": True, "min_width": len(header)}


def run(args) -> int:
    from greenlint.kb import KBError, load_kb, load_meta
    from greenlint.kb.summary import stats

    try:
        meta = load_meta(args.kb)
        data = stats(load_kb(args.kb), meta)
    except KBError as exc:
        print(f"greenlint kb stats: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(data, indent=1))
        return 0
    from rich import box
    from rich.table import Table

    from greenlint.cli.console import make_console

    console = make_console()
    t = Table(title="Knowledge base: datasets", box=box.SIMPLE_HEAD)
    for col in ("dataset", "files", "read", "skipped", "records", "APIs", "signatures", "scripts", "below res."):
        t.add_column(col, **_col(col, "dataset"))
    for name, d in data["datasets"].items():
        t.add_row(name, str(d["files"]), str(d["files_read"]), str(d["skipped_files"]), f"{d['records']:,}",
                  str(d["apis"]), str(d["raw_signatures"]), str(d["scripts"]), f"{d['below_resolution_share']:.0%}")
    t.add_row("all", str(data["files"]), str(data["files"] - data["skipped_files"]), str(data["skipped_files"]),
              f"{data['records']:,}", str(data["apis"]), str(data["raw_signatures"]), "",
              f"{data['below_resolution_share']:.0%}", style="bold")
    console.print(t)
    for reason, n in data["skipped_reasons"].items():
        console.print(f"skipped {n} file(s): {reason}")
    console.print(f"{data['series_cut_short']} records have a CPU series that ends before the call ends (flagged).")
    f = Table(title="Net energy by API family (per call; project-level runs excluded)", box=box.SIMPLE_HEAD)
    for col in ("family", "APIs", "records", "median J", "resolved J", "total J", "below res."):
        f.add_column(col, **_col(col, "family"))
    for fam in data["families"][: args.families]:
        f.add_row(fam["family"], str(fam["apis"]), f"{fam['records']:,}", _j(fam["median_net_j"]), _j(fam["median_resolved_net_j"]),
                  _j(fam["total_net_j"]), f"{fam['below_resolution_share']:.0%}")
    console.print(f)
    if len(data["families"]) > args.families:
        console.print(f"... {len(data['families']) - args.families} more families (--families N, --format json)")
    return 0
