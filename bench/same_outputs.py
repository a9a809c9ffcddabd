"""A refactoring changes no output (issue 30, "Done when"): `greenlint calls --format json` and
`check --format json` (default rules, and every rule with its fixes) on every benchmark corpus.

    python bench/same_outputs.py write DIR [--source CHECKOUT]
    python bench/same_outputs.py compare BEFORE AFTER

`write` runs the three commands on each corpus of bench/realworld (as `python -m bench.realworld
run` runs them: isolated, no lint cache, vendored corpora from a copy outside this repository) and
writes their JSON to DIR/<corpus>.<command>.json. `--source` runs the greenlint of another
checkout (a folder holding its `greenlint/` and `data/`, e.g. `git archive` of the commit before
a change) instead of this one. `compare` lists every output that differs and exits 1 if one does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.realworld.corpora import CORPORA, ensure
from bench.realworld.score import CALLS, CHECK, greenlint

COMMANDS = {"calls": CALLS, "check": CHECK, "check-all": (*CHECK, "--select", "GL")}


def write(out: Path, source: Path | None) -> None:
    if source is not None:  # `python -m greenlint` in the children imports this checkout's
        os.environ["PYTHONPATH"] = str(source.resolve())
        os.environ["GREENLINT_DATA_DIR"] = str(source.resolve() / "data")
    out.mkdir(parents=True, exist_ok=True)
    for corpus in CORPORA:
        folder = ensure(corpus)
        for name, args in COMMANDS.items():
            with tempfile.TemporaryDirectory(prefix="greenlint-same-") as cache:
                result = greenlint(args, folder, Path(cache))
            (out / f"{corpus.name}.{name}.json").write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
            print(f"{corpus.name} {name}: {len(_records(result))} records", flush=True)


def _records(output) -> list:
    """An output's records: `check`'s findings; `calls`' call sites, then each of its other fields
    (schema version, start-up, held device) as one record."""
    if isinstance(output, dict):
        return output.get("call_sites", []) + [{k: v} for k, v in sorted(output.items()) if k != "call_sites"]
    return output


def compare(before: Path, after: Path) -> int:
    names = sorted({p.name for p in before.glob("*.json")} | {p.name for p in after.glob("*.json")})
    differ = 0
    for name in names:
        a, b = before / name, after / name
        if not (a.exists() and b.exists()):
            print(f"{name}: only in {'after' if b.exists() else 'before'}")
            differ += 1
            continue
        old, new = _records(json.loads(a.read_text())), _records(json.loads(b.read_text()))
        if old != new:
            differ += 1
            print(f"{name}: differs ({len(old)} records before, {len(new)} after)")
            for record in [r for r in old if r not in new][:3]:
                print("  before only:", json.dumps(record)[:300])
            for record in [r for r in new if r not in old][:3]:
                print("  after only: ", json.dumps(record)[:300])
    print(f"{len(names)} outputs compared, {differ} differ")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="write each corpus's outputs to DIR")
    w.add_argument("dir", type=Path)
    w.add_argument("--source", type=Path, help="the checkout whose greenlint runs (default: this one)")
    c = sub.add_parser("compare", help="list the outputs that differ")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "write":
        write(args.dir, args.source)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
