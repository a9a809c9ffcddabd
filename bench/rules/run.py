"""Measure each rule's before/after pair and write bench/rules/results.json.

    python bench/rules/run.py [CODE ...] [--rounds R] [--repeats N]

Each program of bench/rules/<CODE>/{before,after}.py runs in a fresh interpreter
(bench/rules/measure.py): one warm-up, then N timed runs read from greenlint's meter. The two
sides run side by side in R rounds, alternating which goes first, so that a machine's drift
(load, frequency, temperature) falls on both. The saving is 1 - median(after) / median(before)
over every run; its spread is the lowest and highest of the rounds' own savings (each round's
sides compared with each other, never with another round's). The predictor's figure for the
same `run()` is computed when the docs are generated (tools/pair_prediction.py), so that it
follows the shipped predictor. Rules without a pair are listed with the reason from
bench/rules/not_measurable.json; a pair kept for a device this machine lacks (its rule is listed
there too) runs only when named. The docs (docs/rules/README.md and each rule's "Energy
evidence") are regenerated from the results by `python -m tools.gendocs`.
"""

from __future__ import annotations

import argparse
import fcntl
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


def saving(rounds: list[tuple[list[float], list[float]]]) -> dict:
    """The saving over every run of *rounds* ((before, after) values of each round), and the lowest
    and highest of the rounds' own savings."""
    before = [v for b, _ in rounds for v in b]
    after = [v for _, a in rounds for v in a]
    each = [1 - statistics.median(a) / statistics.median(b) for b, a in rounds]
    return {"median": 1 - statistics.median(after) / statistics.median(before), "low": min(each), "high": max(each)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("codes", nargs="*")
    parser.add_argument("--rounds", type=int, default=4, help="side-by-side rounds, alternating which side goes first")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each side per round")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    from greenlint.hardware import hardware_id

    elsewhere = json.loads((HERE / "not_measurable.json").read_text())  # pairs kept for another device
    codes = args.codes or sorted(p.name for p in HERE.iterdir() if (p / "before.py").is_file() and p.name not in elsewhere)
    for code in codes:
        pair = HERE / code
        started = time.time()
        rounds = []
        for r in range(args.rounds):
            order = ("before", "after") if r % 2 == 0 else ("after", "before")
            rounds.append({side: measure(pair / f"{side}.py", args.repeats) for side in order})
        every = {side: {k: [v for rnd in rounds for v in rnd[side][k]] for k in ("time_s", "energy_j")}
                 for side in ("before", "after")}
        entry = {
            "hardware": hardware_id(),
            "basis": rounds[0]["before"]["basis"],
            "components": rounds[0]["before"]["components"],
            "rounds": args.rounds,
            "repeats": args.repeats,
            "time_s": {side: summary(r["time_s"]) for side, r in every.items()},
            "energy_j": {side: summary(r["energy_j"]) for side, r in every.items()},
            "time_saving": saving([(rnd["before"]["time_s"], rnd["after"]["time_s"]) for rnd in rounds]),
            "energy_saving": saving([(rnd["before"]["energy_j"], rnd["after"]["energy_j"]) for rnd in rounds]),
            "command": f"python bench/rules/run.py {code} --rounds {args.rounds} --repeats {args.repeats}",
        }
        e = entry["energy_saving"]
        print(f"{code}: energy saving {e['median']:+.0%} ({e['low']:+.0%} .. {e['high']:+.0%}) "
              f"in {time.time() - started:.0f} s", flush=True)
        record(code, entry)
    return 0


def record(code: str, entry: dict) -> None:
    """Put one pair's entry into RESULTS: read, changed and replaced under a lock, so that runs of
    other pairs at the same time keep theirs."""
    from greenlint.atomic import atomic_write_text

    with open(RESULTS.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        results = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {"pairs": {}}
        results["pairs"][code] = entry
        atomic_write_text(RESULTS, json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    sys.exit(main())
