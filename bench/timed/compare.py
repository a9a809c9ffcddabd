"""Predicted against measured: greenlint's `calls --format json` summed per script, beside the CPU time.

A script's prediction is the sum over its call sites of `energy_j` x the times the site runs
(`runs.count`, or the literal-loop factor `features.loop_multiplier` where the count is unknown, as
the GL101 rule does); its interval the sum of the sites' interval ends likewise (a wider interval than
the true 80 % one of a sum, so "inside" is generous). A site with no figure adds nothing and is
counted as unpriced. The ratio is predicted / measured; "factor off" is max(ratio, 1 / ratio).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from tools.model.timed_suite import GOALS


def site_runs(site: dict) -> tuple[float, bool]:
    """(times the site runs per program run, whether that count is known)."""
    count = (site.get("runs") or {}).get("count")
    if count is not None:
        return float(count), True
    return float((site.get("features") or {}).get("loop_multiplier") or 1), False


def script_prediction(sites: list[dict]) -> dict:
    """One script's predicted joules and interval: its call sites' figures x runs, summed."""
    energy = low = high = 0.0
    unpriced = runs_unknown = 0
    bases: dict[str, int] = {}
    for site in sites:
        runs, known = site_runs(site)
        runs_unknown += not known
        if site.get("energy_j") is None:
            unpriced += 1
            continue
        energy += site["energy_j"] * runs
        lo, hi = site.get("interval_j") or (site["energy_j"], site["energy_j"])
        low += lo * runs
        high += hi * runs
        bases[site["basis"]] = bases.get(site["basis"], 0) + 1
    return {"predicted_j": energy, "interval_j": [low, high], "sites": len(sites), "unpriced": unpriced,
            "runs_unknown": runs_unknown, "bases": dict(sorted(bases.items()))}


def factor(ratio: float | None) -> float | None:
    if ratio is None or ratio <= 0:
        return None
    return max(ratio, 1 / ratio)


def _finite(x: float) -> float | None:
    """None for a factor no finite number states (a script predicted at 0 J)."""
    return None if x == float("inf") else x


def compare(predictions: dict[str, dict], measured_j: dict[str, float]) -> dict:
    """Per script predicted / measured, inside the interval or not, and the summary against GOALS."""
    rows = {}
    for name, measured in sorted(measured_j.items()):
        p = predictions.get(name) or script_prediction([])
        ratio = p["predicted_j"] / measured if measured > 0 and p["predicted_j"] > 0 else None
        low, high = p["interval_j"]
        rows[name] = {**p, "measured_j": measured, "ratio": ratio, "factor": factor(ratio),
                      "inside": low <= measured <= high}
    factors = [r["factor"] if r["factor"] is not None else float("inf") for r in rows.values()]
    ratios = [r["ratio"] for r in rows.values() if r["ratio"] is not None]
    n = len(rows)
    summary = {
        "scripts": n,
        "median_ratio": statistics.median(ratios) if ratios else None,
        "median_factor": _finite(statistics.median(factors)) if factors else None,
        "worst_factor": _finite(max(factors)) if factors else None,
        "inside": sum(r["inside"] for r in rows.values()) / n if n else None,
        "within_3x": sum(f <= GOALS["worst_factor"] for f in factors),
    }
    return {"scripts": rows, "summary": summary}


def rounded(result: dict, digits: int = 4) -> dict:
    """The same result with floats to *digits* significant digits (the committed file stays readable)."""
    def r(v):
        if isinstance(v, float):
            return v if v == 0.0 else float(f"{v:.{digits}g}")
        if isinstance(v, dict):
            return {k: r(x) for k, x in v.items()}
        if isinstance(v, list):
            return [r(x) for x in v]
        return v

    return r(result)


def fresh_env(cache: Path) -> dict:
    return {**os.environ, "GREENLINT_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(cache)}


def calls(paths: list[Path], cache: Path) -> dict[str, list[dict]]:
    """`greenlint calls --format json` on *paths* with the cache folder *cache*, grouped by script stem."""
    proc = subprocess.run([sys.executable, "-m", "greenlint", "calls", "--format", "json", *map(str, paths)],
                          env=fresh_env(cache), capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"greenlint calls exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    grouped: dict[str, list[dict]] = {p.stem: [] for p in paths}
    for site in json.loads(proc.stdout)["call_sites"]:
        grouped.setdefault(Path(site["path"]).stem, []).append(site)
    return grouped


def calibrate(cache: Path) -> None:
    """`greenlint calibrate --quick` into *cache* (the estimated source where no counter is readable)."""
    proc = subprocess.run([sys.executable, "-m", "greenlint", "calibrate", "--quick"], env=fresh_env(cache),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"greenlint calibrate --quick exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")


def overlay_summary(cache: Path) -> dict:
    """The calibration the calibrated figures applied: its hardware id, mode, basis, end and the load it
    was measured under (`load`: the median 1-minute load average and cores other processes kept busy
    over its windows, where the overlay recorded them)."""
    found = sorted((cache / "calibration").glob("*/calibration.json"))
    if not found:
        raise RuntimeError(f"{cache}: no calibration overlay (run `greenlint calibrate --quick` with it as the cache)")
    cal = json.loads(found[0].read_text(encoding="utf-8"))
    out = {k: cal.get(k) for k in ("hardware_id", "mode", "basis", "finished_at")}
    load = cal.get("load") or {}
    medians = {key: (load.get(key) or {}).get("median") for key in ("loadavg_1m", "others_busy_cores")}
    medians = {key: None if v is None else round(v, 2) for key, v in medians.items()}
    if any(v is not None for v in medians.values()):
        out["load"] = {**medians, "cores": load.get("cores")}
    return out


def retime(cache: Path, repeats: int, progress=print, measure=None, run_calibrate=calibrate) -> dict:
    """The suite timed *repeats* times with `greenlint calibrate --quick` into *cache* run between the
    first and the second half of the passes, so the measurements and the calibration compared with
    them are made in one run, under one load (each timing's load average kept beside it, the
    calibration's in the results' "between"). *measure* and *run_calibrate*: stubs in the tests."""
    from .timing import load_average, measure_pass, run_suite

    def between() -> dict:
        before = load_average()
        progress(f"greenlint calibrate --quick into {cache} (load average {before}) ...")
        run_calibrate(cache)
        return {"calibrate": "greenlint calibrate --quick", "load": [before, load_average()]}

    return run_suite(None, repeats, progress, between=between, measure=measure or measure_pass)


def predict(paths: list[Path], progress=print) -> dict:
    """greenlint's predictions for *paths* before they are timed: uncalibrated (a fresh cache) and after
    `greenlint calibrate --quick` (into a fresh folder), each script's entry keyed on its text's stamp,
    so a later timing can be checked against the prediction made for the same text."""
    from greenlint import __version__

    from .suite import stamp

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                            text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="greenlint-timed-cache-") as fresh:
        uncalibrated = calls(paths, Path(fresh))
    with tempfile.TemporaryDirectory(prefix="greenlint-timed-calibration-") as cache:
        progress(f"greenlint calibrate --quick into {cache} ...")
        calibrate(Path(cache))
        calibration = overlay_summary(Path(cache))
        calibrated = calls(paths, Path(cache))
    return {"greenlint": __version__, "commit": commit or "unknown", "calibration": calibration,
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "scripts": {p.stem: {"stamp": stamp(p),
                                 "uncalibrated": rounded(script_prediction(uncalibrated[p.stem])),
                                 "calibrated": rounded(script_prediction(calibrated[p.stem]))} for p in paths}}


def run_compare(paths: list[Path], measured_j: dict[str, float], calibrated_cache: Path | None = None,
                progress=print, same_run: bool = False) -> dict:
    """Both comparisons: with a fresh cache (no calibration), and after `calibrate --quick` (into a fresh
    folder, unless *calibrated_cache* names one a previous calibrate run filled). *same_run*: the
    measurements were timed around that calibration (`retime`), not in another run."""
    from greenlint import __version__

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                            text=True).stdout.strip()
    out = {"greenlint": __version__, "commit": commit or "unknown", "same_run": same_run,
           "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    with tempfile.TemporaryDirectory(prefix="greenlint-timed-cache-") as fresh:
        sites = calls(paths, Path(fresh))
    out["uncalibrated"] = rounded(compare({k: script_prediction(v) for k, v in sites.items()}, measured_j))
    given = calibrated_cache is not None and not same_run
    if calibrated_cache is None:
        calibrated_cache = Path(tempfile.mkdtemp(prefix="greenlint-timed-calibration-"))
        progress(f"greenlint calibrate --quick into {calibrated_cache} ...")
        calibrate(calibrated_cache)
    out["calibration"] = {**overlay_summary(calibrated_cache), "cache_given": given}
    sites = calls(paths, calibrated_cache)
    out["calibrated"] = rounded(compare({k: script_prediction(v) for k, v in sites.items()}, measured_j))
    return out
