"""`greenlint kb build [DIR...] [--out DIR]`: measurement files -> a KB directory (written atomically)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HELP = "build a KB from measurement files (default: the public datasets in ../shared) into --out"


def register(parser) -> None:
    parser.add_argument(
        "dirs", nargs="*", type=Path, metavar="DIR",
        help="folders (or files) of FECoM/CodeGreen measurement files (.json, .json.xz, .json.gz); "
        "default: ../shared/greenlight/raw and ../shared/fecom/raw",
    )
    parser.add_argument("--out", type=Path, help="KB directory to write (required; `make data` rebuilds data/kb)")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--dataset", default="local", help="dataset name for files outside the public layouts")
    parser.add_argument(
        "--hardware-id", default="unknown",
        help="hardware id for records outside the public layouts that carry no `hardware` block "
        "(records written by `greenlint measure` carry their machine's id)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="do not list each skipped file")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="summary format")


def run(args) -> int:
    from greenlint.catalog.catalog import CatalogError
    from greenlint.kb.build import build_kb
    from greenlint.kb.measurement_files import default_dirs

    if args.out is None:  # never a default inside the installed package (its bundled KB)
        print("greenlint kb build: name the KB directory to write with --out (the bundled KB is rebuilt in a "
              "checkout by `make data`)", file=sys.stderr)
        return 2
    dirs = list(args.dirs) or default_dirs()
    if not dirs:
        print("greenlint kb build: no DIR named and ../shared is absent; nothing to read", file=sys.stderr)
        return 2
    out = args.out

    def on_problem(p) -> None:
        if not args.quiet:
            print(f"greenlint kb build: skipped {p}", file=sys.stderr)

    try:
        summary = build_kb(
            dirs, out, jobs=args.jobs, dataset=args.dataset,
            hardware_id=args.hardware_id, on_problem=on_problem,
        )
    except CatalogError as exc:
        print(f"greenlint kb build: needs the API catalog for canonical names: {exc}", file=sys.stderr)
        return 2
    meta = summary.meta
    if args.format == "json":
        keys = ("records", "apis", "files", "skipped_files", "skipped_records", "skipped_reasons", "datasets")
        print(json.dumps({"out": str(out), "written": summary.written, "seconds": round(summary.seconds, 2),
                          **{k: meta[k] for k in keys}}, indent=1))
    else:
        print(f"Read {meta['files'] - meta['skipped_files']} of {meta['files']} files: "
              f"{summary.records} records, {summary.apis} APIs in {summary.seconds:.1f} s.")
        for name, d in meta["datasets"].items():
            print(f"  {name}: {d['files']} files ({d['skipped_files']} skipped), {d['records']} records")
        whole = Counter(p.reason for p in summary.problems if p.index is None)
        records = sum(p.index is not None for p in summary.problems)
        if whole or records:
            print("Skipped:")
            for reason, n in sorted(whole.items()):
                print(f"  {n} file(s): {reason}")
            if records:
                print(f"  {records} malformed record(s) in readable files")
        print(f"KB written to {out}" if summary.written else f"No records read; {out} left unchanged.")
    return 0 if summary.written else 2
