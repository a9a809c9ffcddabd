"""Measure each rule's before/after pair and write bench/rules/results.json.

    python bench/rules/run.py [CODE ...] [--repeats N]

Each program of bench/rules/<CODE>/{before,after}.py runs in a fresh interpreter
(bench/rules/measure.py): one warm-up, then N timed runs read from greenlint's meter. The saving
is 1 - median(after) / median(before), with its spread from the extremes (worst and best pairing
of the runs). The predictor's figure for the same `run()` is computed when the docs are generated
(tools/pair_prediction.py), so that it follows the shipped predictor. Rules
without a pair are listed with the reason from bench/rules/not_measurable.json.
The docs (docs/rules/README.md and each rule's "Energy evidence") are regenerated from the
results by `python -m tools.gendocs`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RESULTS = HERE / "results.json"


def measure(program: Path, repeats: int) -> dict:
    proc = subprocess.run(
        [sys.executable, str(HERE / "measure.py"), str(program), str(repeats)],
        capture_output=True, text=True, cwd=str(REPO), timeout=600,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"{program}: exit {proc.returncode}: {proc.stderr[-2000:]}")
    return json.loads(lines[-1][len("RESULT "):])


def summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def saving(before: list[float], after: list[float]) -> dict:
    med = 1 - statistics.median(after) / statistics.median(before)
    return {"median": med, "low": 1 - max(after) / min(before), "high": 1 - min(after) / max(before)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("codes", nargs="*")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    from greenlint.hardware import hardware_id

    results = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {"pairs": {}}
    codes = args.codes or sorted(p.name for p in HERE.iterdir() if (p / "before.py").is_file())
    for code in codes:
        pair = HERE / code
        started = time.time()
        runs = {side: measure(pair / f"{side}.py", args.repeats) for side in ("before", "after")}
        results["pairs"][code] = {
            "hardware": hardware_id(),
            "basis": runs["before"]["basis"],
            "components": runs["before"]["components"],
            "repeats": args.repeats,
            "time_s": {side: summary(r["time_s"]) for side, r in runs.items()},
            "energy_j": {side: summary(r["energy_j"]) for side, r in runs.items()},
            "time_saving": saving(runs["before"]["time_s"], runs["after"]["time_s"]),
            "energy_saving": saving(runs["before"]["energy_j"], runs["after"]["energy_j"]),
            "command": f"python bench/rules/run.py {code} --repeats {args.repeats}",
        }
        e = results["pairs"][code]["energy_saving"]
        print(f"{code}: energy saving {e['median']:+.0%} ({e['low']:+.0%} .. {e['high']:+.0%}) "
              f"in {time.time() - started:.0f} s", flush=True)
        RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
