"""Train the predictor: the lookup tables, the work model and the interval calibration, as JSON.

Intervals are mean +- k_level x sd, with k_level calibrated on held-out tutorials (inner
cross-validation, `intervals.py`), so a level's 80% interval covers about 80% of call sites
predicted at that level.

`python -m tools.model.train [--kb DIR] [--out FILE] [--folds N]` writes data/model/predictor.json.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from greenlint.predict.hierarchy import LEVELS, Hierarchy
from greenlint.predict.tables import MODEL_VERSION, dumps
from greenlint.stats import median
from tools.model.censored import Z80
from tools.model.intervals import CALIBRATION_FOLDS, calibrate, quantile
from tools.model.scripts import fit_held
from tools.model.sites import FRACTION, WHOLE_RUN_DATASETS, Site, build_sites, is_sweep
from tools.model.table_fit import fit_tables, round_sig
from tools.model.work_fit import fit_work

#: Fewest above-resolution points a data-size sweep needs to give an exponent: a sweep whose small
#: fractions fall below the resolution keeps only its large ones, and that truncation steepens
#: the fitted slope (FECoM's evaluate sweeps would give 2.7 where the fit sweeps give 1.0).
MIN_SWEEP_POINTS = 8


def call_sites(records: Iterable, hierarchy: Hierarchy) -> list[Site]:
    """The KB's call sites, each under the API whose measurements it shares (`Hierarchy.pooled`)."""
    sites = build_sites(records)
    for s in sites:
        s.api = hierarchy.pooled(s.api)
    return sites

def fit_negligible(sites: Sequence[Site], hierarchy: Hierarchy) -> dict | None:
    """The bound the KB's measurements put on calls that do no tensor work (`NO_WORK_KINDS`).

    Their call sites measured below the resolution say only "under about X J" each: the median
    of those bounds is what one such call is known to stay under. None without such sites.
    """
    from greenlint.catalog.kinds import NO_WORK_KINDS

    no_work = [s for s in sites if hierarchy.kind(s.api) in NO_WORK_KINDS]
    bounds = [10**s.y for s in no_work if s.censored]
    if not bounds:
        return None
    return {
        "bound_j": round_sig(statistics.median(bounds)),
        "n_sites": len(bounds),
        "n_measurable": sum(not s.censored for s in no_work),
        "n_apis": len({s.api for s in no_work if s.censored}),
        "records": sum(s.n_records for s in no_work if s.censored),
        "time_s": round_sig(median([s.time_s for s in no_work if s.censored])),
        "sources": sorted({src for s in no_work if s.censored for src in s.sources}),
    }

def fit_size_exponents(records: Iterable) -> dict:
    """Slopes of log10 J on log10 input size within FECoM's data-size sweeps, per API and per method name."""
    sweep_sites = build_sites([r for r in records if is_sweep(r)], sweeps=True)
    runs: dict[tuple, list[Site]] = defaultdict(list)
    for s in sweep_sites:
        runs[(s.tutorial, s.key[2], s.api)].append(s)
    slopes: dict[str, list[float]] = defaultdict(list)
    for (_, _, api), ss in runs.items():
        pts = [
            (math.log10(s.features[FRACTION]), s.y)
            for s in ss
            if not s.censored and s.features.get(FRACTION)
        ]
        if len(pts) >= MIN_SWEEP_POINTS:
            mx = statistics.fmean(p[0] for p in pts)
            sxx = sum((p[0] - mx) ** 2 for p in pts)
            if sxx > 0:
                my = statistics.fmean(p[1] for p in pts)
                slopes[api].append(sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx)
    per_api = {api: round(statistics.median(v), 4) for api, v in sorted(slopes.items())}
    by_method: dict[str, list[float]] = defaultdict(list)
    for api, b in per_api.items():
        by_method[api.rpartition(".")[2]].append(b)
    return {
        "per_api": per_api,
        "per_method": {m: round(statistics.median(v), 4) for m, v in sorted(by_method.items())},
    }

def fit_startup(records: Iterable) -> dict | None:
    """A program's start-up (greenlint/predict/startup.py) from the whole-program runs' `startup_j` and
    `startup_s` (the KB's, greenlint/kb/energy.py `startup`): their medians, the joules' 10th-90th
    percentiles, and how many runs of how many programs; None where no run has one."""
    runs = [(r.project, r.features["startup_j"], r.features["startup_s"]) for r in records
            if r.dataset in WHOLE_RUN_DATASETS and isinstance(r.features.get("startup_j"), (int, float))
            and isinstance(r.features.get("startup_s"), (int, float))]
    if not runs:
        return None
    joules = [j for _, j, _ in runs]
    return {"energy_j": round_sig(statistics.median(joules)),
            "interval_j": [round_sig(quantile(joules, 0.1)), round_sig(quantile(joules, 0.9))],
            "seconds": round_sig(statistics.median(s for *_, s in runs)),
            "runs": len(runs), "programs": len({p for p, *_ in runs})}


def train(records: Sequence, hierarchy: Hierarchy | None = None, *, calibrated: bool = True, folds: int = CALIBRATION_FOLDS,
          censored: bool = True, scripts: dict | None = None) -> dict:
    """The whole model (a JSON-able dict) from KB records.

    `censored=False` drops below-resolution call sites instead of using them as bounds (an
    ablation for the evaluation, not what ships). *scripts* (the whole-script table,
    tools/kb/static_features.py `load_scripts`) fits the held-device term (`fit_held`); without it
    the model has none.
    """
    hierarchy = hierarchy or Hierarchy()
    records = list(records)
    sites = [s for s in call_sites(records, hierarchy) if censored or not s.censored]
    model = {
        "version": MODEL_VERSION,
        "kb": kb_digest(records),
        "catalog": catalog_digest(),
        "n_records": len(records),
        "n_sites": len(sites),
        "n_sites_censored": sum(s.censored for s in sites),
        **fit_tables(sites, hierarchy),
        "negligible": fit_negligible(sites, hierarchy),
        "size_exponents": (exponents := fit_size_exponents(records)),
        "work": fit_work(sites, hierarchy),
        "startup": fit_startup(records),
        "calibration": calibrate(sites, hierarchy, folds, exponents)
        if calibrated
        else {"k": dict.fromkeys(LEVELS, Z80), "n": dict.fromkeys(LEVELS, 0), "folds": 0, "work_half": None,
              "n_work": 0},
    }
    model["held"] = fit_held(records, scripts, model, hierarchy) if scripts else None
    return model

def kb_digest(records: Sequence) -> str:
    """A short hash of the records a model was trained on (their identity and energies)."""
    h = hashlib.sha256()
    for r in sorted(records, key=lambda r: (r.dataset, r.project, r.script, r.experiment or 0, r.index)):
        h.update(repr((r.api, r.dataset, r.project, r.script, r.experiment, r.index, r.net_j, r.below_resolution)).encode())
    return h.hexdigest()[:16]

def catalog_digest() -> str | None:
    """A short hash of the bundled catalog files (the fallback chain's groups depend on them)."""
    from greenlint.paths import DATA_DIR

    files = sorted((DATA_DIR / "catalog").glob("*.json*"))
    if not files:
        return None
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    """Train on the KB and write the model file (atomically)."""
    from greenlint.atomic import atomic_write_text
    from greenlint.kb import KBError, load_kb
    from greenlint.kb.store import default_kb_dir
    from greenlint.predict import model_path
    from tools.kb.static_features import SCRIPTS_TABLE, load_scripts

    prog = "python -m tools.model.train"
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("--kb", type=Path, default=None, help="KB directory (default: the bundled data/kb)")
    ap.add_argument("--out", type=Path, default=None, help="model file (default: data/model/predictor.json)")
    ap.add_argument("--folds", type=int, default=CALIBRATION_FOLDS,
                    help=f"tutorial folds calibrating the intervals (default {CALIBRATION_FOLDS})")
    args = ap.parse_args(argv)
    if args.folds < 2:
        print(f"{prog}: --folds must be at least 2", file=sys.stderr)
        return 2
    try:
        records = load_kb(args.kb)
        scripts = load_scripts((args.kb or default_kb_dir()) / SCRIPTS_TABLE)
    except (KBError, ValueError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    model = train(records, folds=args.folds, scripts=scripts)
    out = args.out or model_path()
    text = dumps(model)
    atomic_write_text(out, text)
    cal = model["calibration"]["k"]
    print(
        f"trained on {model['n_records']:,} records ({model['n_sites']:,} call sites, "
        f"{model['n_sites_censored']:,} below resolution, {len(model['apis'])} APIs) in "
        f"{time.perf_counter() - t0:.1f} s; interval factors "
        + ", ".join(f"{lvl} {k:.2f}" for lvl, k in cal.items())
        + f"; wrote {out} ({len(text.encode()) / 1024:.0f} KiB)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
