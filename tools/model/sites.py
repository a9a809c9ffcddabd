"""Group KB records into call sites, the unit the predictor is trained and evaluated on.

A call site is one call in one script (FECoM and Greenlight re-run each script up to 10 and 5
times; FECoM's calls of one signature are told apart by the line the static table matched them to,
else by their order in a run, `occurrences`): its value is the median net joules over its runs, or,
when most runs fall below the measurement resolution, a censored "below this bound".
"""

from __future__ import annotations

import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from greenlint.kb.static_table import occurrences
from greenlint.stats import median

#: Joules below which a logarithm is meaningless; no measurement resolves less.
FLOOR_J = 1e-3
COMPONENTS = ("cpu", "gpu", "ram")
#: Datasets whose records are whole script runs, not API calls.
WHOLE_RUN_DATASETS = frozenset({"fecom-project-level"})
#: KB feature of FECoM data-size sweep records: the fraction of the input data used.
FRACTION = "data_size_fraction"
# FECoM's data-size folders are named after the tutorial plus the swept call ("images/cnn_fit").
_SWEEP_SUFFIX = re.compile(r"_(fit|evaluate|predict|adapt|train)$")


def log10j(joules: float) -> float:
    return math.log10(max(joules, FLOOR_J))


def tutorial_of(project: str | None, script: str | None, sweep: bool = False) -> str:
    """The tutorial a record comes from: the same tutorial in FECoM and Greenlight gets one name.

    Both datasets measured largely the same TensorFlow tutorials, so cross-validation must hold
    out by tutorial or one copy of a tutorial predicts the other (see ../shared READMEs).
    """
    path = (script or project or "").replace("\\", "/").rstrip("/")
    name = path.rsplit("/", 1)[-1]
    name = re.sub(r"\.(py|ipynb)$", "", name)
    if sweep:
        name = _SWEEP_SUFFIX.sub("", name)
    return name.lower()


def usable(record) -> bool:
    """A record says something: a censored bound, or a defined net energy.

    A record whose CPU series ends before the call did saw only part of the call: its net is a
    lower bound of unknown slack, so it is left out rather than taken as exact.
    """
    if record.series_cut_short:
        return False
    return record.below_resolution or record.net_j is not None


@dataclass
class Site:
    """One call site's aggregated measurements."""

    api: str
    tutorial: str
    key: tuple
    censored: bool
    y: float  # log10 J: median net energy, or the log10 upper bound when censored
    components: dict[str, float]  # median net J per component (clipped at 0), above-resolution runs
    n_records: int
    sources: tuple[str, ...]
    features: dict = field(default_factory=dict)
    sizes: dict = field(default_factory=dict)  # runtime input sizes (bytes); not static features
    time_s: float | None = None  # runtime execution time; never a predictor input


def is_sweep(record) -> bool:
    return FRACTION in (record.features or {}) or "data-size" in (record.dataset or "")


def build_sites(records: Iterable, *, sweeps: bool = False) -> list[Site]:
    """Aggregate records into call sites.

    Data-size sweep records (FECoM's data-size experiments) are left out unless `sweeps`; they
    serve to fit the size exponent (see model.py) and would otherwise add ten near-copies of the
    same call that no static feature tells apart.
    """
    records = list(records)
    groups: dict[tuple, list] = defaultdict(list)
    for r, occurrence in zip(records, occurrences(records)):
        if r.dataset in WHOLE_RUN_DATASETS:
            continue
        sweep = is_sweep(r)
        if sweep and not sweeps:
            continue
        # a line where the record names it; else its signature, and its place among the run's calls of
        # it where that tells calls apart (FECoM's method level)
        where = r.line if r.line is not None else (r.raw_signature, occurrence) if occurrence else r.raw_signature
        fraction = (r.features or {}).get(FRACTION)
        key = (r.dataset, r.project, r.script, where, r.api, r.hardware_id, fraction)
        groups[key].append(r)
    sites = (_site(key, recs) for key, recs in groups.items() if any(usable(r) for r in recs))
    return [s for s in sites if s is not None]


def _site(key: tuple, recs: list) -> Site | None:
    """The call site, or None when it says nothing (censored with no finite bound)."""
    recs = [r for r in recs if usable(r)]
    r0 = recs[0]
    above = [r for r in recs if not r.below_resolution and r.net_j > FLOOR_J]
    censored = len(above) * 2 < len(recs)
    if censored:
        bound = median([r.upper_bound_j for r in recs if r.upper_bound_j is not None and math.isfinite(r.upper_bound_j)])
        if bound is None:
            return None
        y = log10j(bound)
    else:
        y = log10j(statistics.median(r.net_j for r in above))
    comps = {
        c: max(0.0, median([getattr(r, f"{c}_net_j", None) for r in above]) or 0.0) for c in COMPONENTS
    }
    features = dict(r0.features or {})
    sizes = {
        s: median([getattr(r, s, None) for r in recs]) for s in ("args_size", "kwargs_size", "object_size")
    }
    return Site(
        api=r0.api,
        tutorial=tutorial_of(r0.project, r0.script, is_sweep(r0)),
        key=key,
        censored=censored,
        y=y,
        components=comps,
        n_records=len(recs),
        sources=tuple(sorted({r.dataset for r in recs if r.dataset} | {r.hardware_id for r in recs if r.hardware_id})),
        features=features,
        sizes=sizes,
        time_s=median([r.execution_time_s for r in recs]),
    )
