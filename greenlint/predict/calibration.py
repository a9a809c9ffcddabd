"""This machine's calibration overlay (`greenlint calibrate`) and what it does to a prediction.

The overlay is a KB of this machine's own measurements of the bundled workloads: one record per
repeat, already per execution, with the workload's work in its features. Applied to a prediction:

* an API measured here (`calibrated here`) is centred on the joules per call measured here, moved
  by the ratio of the reference model's figures for this call's work and the workload's (exactly
  the measured value where the call states no other work); its 80 % interval comes from the spread
  of the repeats, of earlier calibrations of this machine, and of that scaling, never narrower
  than the run-to-run noise `NOISE_SD`, and spans every stored calibration's figure;
* any other API is rescaled by this machine's execution-time ratio (`calibrated here, rescaled`):
  the median over the workloads of the time measured here over the reference machine's for the
  same work (its work model's time where it has one, else the API's median measured time);
* the CPU/GPU/DRAM split keeps only the components this machine's counters measured.

Earlier calibrations of the machine are kept in `calibration.json`'s `history` by the calibrator,
per workload (the same work in every run); their disagreement (`disagreement`) is shown by
`greenlint calibrate` and in the notes here.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from greenlint.predict.prediction import Basis, Evidence, Prediction
from greenlint.units import TIMES

#: The file the calibrator writes beside the overlay KB: the run's summary and earlier runs.
CALIBRATION_JSON = "calibration.json"
#: Least log10 spread a calibrated figure keeps: the run-to-run noise of repeated measurements
#: (about 12 %), which one run's repeats, taken minutes apart, do not show.
NOISE_SD = 0.05
#: Extra log10 spread per decade the reference model moves a measured figure to another call's work.
SCALE_SD_PER_DECADE = 0.1
#: Two-sided 80 % normal quantile.
Z80 = statistics.NormalDist().inv_cdf(0.9)
#: Features the meter adds to a calibration record that say nothing about the call's work.
_META_FEATURES = frozenset({"estimated", "workload", "executions", "first_call_s", "first_call_j"})
COMPONENTS = ("cpu", "gpu", "ram")


@dataclass(frozen=True)
class Measured:
    """One calibration workload of an API: joules per execution of each repeat, its work, its split."""

    workload: str
    per_repeat_j: tuple[float, ...]
    features: dict
    shares: dict[str, float]
    estimated: bool

    @property
    def per_call_j(self) -> float:
        return statistics.median(self.per_repeat_j)

    @property
    def sd(self) -> float:
        """log10 sd of the repeats (0 with one)."""
        logs = [math.log10(j) for j in self.per_repeat_j]
        return statistics.stdev(logs) if len(logs) >= 2 else 0.0


@dataclass(frozen=True)
class Overlay:
    """This machine's calibration, as `read_overlay` found it."""

    hardware_id: str
    measured: dict[str, tuple[Measured, ...]]  # API -> its workloads with a net energy measured here
    times: dict[str, float]  # median seconds per execution by API, energy measured or not
    timed: dict[str, tuple[tuple[str, dict, float], ...]]  # API -> (workload, its work, median seconds) each
    time_ratio: float | None  # this machine's execution time / the reference machine's (`time_ratio`)
    n_ratio: int
    components: tuple[str, ...]  # what this machine's counters measured (cpu, gpu, ram)
    runs: tuple[dict, ...]  # each calibration's workloads ({name: {api, per_execution_j/_s}}), oldest first, this one last
    fingerprint: str
    first_s: dict[str, float] = field(default_factory=dict)  # workload -> seconds of its first (tracing) call
    first_j: dict[str, float] = field(default_factory=dict)  # workload -> net joules of that call, where metered
    local: dict | None = None  # this machine's own work model (`local_work`), once the predictor fits it
    load: dict = field(default_factory=dict)  # the machine's load while measuring (calibration.json's `load`)
    startup: dict = field(default_factory=dict)  # a program's start-up measured here (calibration.json's `startup`)

    def pooled(self, name: Callable[[str], str], model: dict,
               work_time: Callable[[str, dict], float | None] | None = None) -> Overlay:
        """The overlay under the names the predictor looks APIs up by (`Hierarchy.pooled`: a
        `Sequential.fit` measured here is `Model.fit`'s), its time ratio against *model* again
        (with *work_time*, at the workloads' own work where the reference model times it)."""
        measured: dict[str, list[Measured]] = defaultdict(list)
        for api, ms in self.measured.items():
            measured[name(api)].extend(ms)
        times: dict[str, list[float]] = defaultdict(list)
        for api, t in self.times.items():
            times[name(api)].append(t)
        timed: dict[str, list[tuple[str, dict, float]]] = defaultdict(list)
        for api, ws in self.timed.items():
            timed[name(api)].extend(ws)
        runs = tuple({w: {**s, "api": name(s["api"])} for w, s in run.items()} for run in self.runs)
        ratio, n = time_ratio(timed, model, work_time)
        return replace(self, measured={api: tuple(ms) for api, ms in measured.items()},
                       times={api: statistics.median(ts) for api, ts in times.items()},
                       timed={api: tuple(ws) for api, ws in timed.items()}, time_ratio=ratio, n_ratio=n, runs=runs)


def read_overlay(directory: Path, model: dict) -> Overlay | None:
    """The overlay in *directory* (a KB written by the calibrator, `calibration.json` optional),
    None when it holds no timed record. Raises what `load_kb` raises for a broken KB."""
    from greenlint.kb import load_kb

    records = load_kb(directory)
    times = per_api_times(records)
    if not times:
        return None
    measured = _measured(records)
    timed = _timed(records)
    components = tuple(c for c in COMPONENTS if any(getattr(r, f"{c}_gross_j") is not None for r in records))
    runs = _runs(directory, measured, timed)
    ratio, n = time_ratio(timed, model)
    digest = hashlib.sha256(json.dumps([sorted(times.items()), repr(sorted(measured.items())), runs],
                                       sort_keys=True, default=str).encode()).hexdigest()[:16]
    return Overlay(directory.name, measured, times, timed, ratio, n, components, runs, digest, _first_calls(records),
                   _first_calls(records, "first_call_j"), load=_recorded(directory, "load"),
                   startup=_recorded_startup(directory))


def _recorded(directory: Path, key: str) -> dict:
    """`calibration.json`'s object at *key* (the machine's load while the calibration measured, its
    start-up), {} where not recorded."""
    try:
        value = json.loads((directory / CALIBRATION_JSON).read_text(encoding="utf-8")).get(key)
    except (OSError, ValueError, AttributeError):
        return {}
    return value if isinstance(value, dict) else {}


def _recorded_startup(directory: Path) -> dict:
    """The start-up the calibration measured (`meter.startup`), {} where absent or malformed."""
    s = _recorded(directory, "startup")
    interval = s.get("interval_j")
    numbers = [s.get("energy_j"), s.get("cpu_s"), *(interval if isinstance(interval, list) else [None])]
    if len(numbers) != 4 or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0 for x in numbers):
        return {}
    return s


def load_note(load: dict) -> str:
    """What a calibrated figure's note says of a calibration whose windows ran on a busy machine (its
    load, `meter.calibrate.load_summary`); "" where none did or the load was not recorded."""
    if not load.get("loaded_windows"):
        return ""
    others = (load.get("others_busy_cores") or {}).get("median")
    busy = f"other processes kept {others:.2f} of {load.get('cores')} cores busy, " if others is not None else ""
    return (f"; measured on a busy machine ({busy}{load['loaded_windows']} of {load.get('windows')} windows loaded): "
            "the constants may follow the load")


def _first_calls(records, key: str = "first_call_s") -> dict[str, float]:
    """Per workload, the median of its first call's *key* (the meter's `first_call_s` seconds or
    `first_call_j` net joules: tracing included)."""
    seen: dict[str, list[float]] = defaultdict(list)
    for r in records:
        first = r.features.get(key)
        if isinstance(first, (int, float)) and not isinstance(first, bool) and first > 0:
            seen[str(r.features.get("workload") or r.script)].append(float(first))
    return {w: statistics.median(v) for w, v in sorted(seen.items())}


def _by_workload(records, keep: Callable) -> list[tuple[str, str, list]]:
    """(API, workload, its records) for the records *keep* accepts, in a stable order."""
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for r in records:
        if keep(r):
            groups[(r.api, str(r.features.get("workload") or r.script))].append(r)
    return [(api, workload, rs) for (api, workload), rs in sorted(groups.items())]


def _work(record) -> dict:
    """A calibration record's work: its features less what the meter adds."""
    return {k: v for k, v in record.features.items() if k not in _META_FEATURES}


def _timed(records) -> dict[str, tuple[tuple[str, dict, float], ...]]:
    """Per API, each workload's name, work and median seconds per execution (energy measured or not)."""
    out: dict[str, list[tuple[str, dict, float]]] = defaultdict(list)
    for api, workload, rs in _by_workload(records, lambda r: r.execution_time_s and r.execution_time_s > 0):
        out[api].append((workload, _work(rs[0]), statistics.median(r.execution_time_s for r in rs)))
    return {api: tuple(ws) for api, ws in out.items()}


def _measured(records) -> dict[str, tuple[Measured, ...]]:
    out: dict[str, list[Measured]] = defaultdict(list)
    for api, workload, rs in _by_workload(records, lambda r: r.net_j is not None and r.net_j > 0 and not r.below_resolution):
        totals = {c: sum(getattr(r, f"{c}_net_j") or 0.0 for r in rs) for c in COMPONENTS}
        whole = sum(totals.values())
        out[api].append(Measured(workload, tuple(r.net_j for r in rs), _work(rs[0]),
                                 {c: v / whole for c, v in totals.items() if whole > 0},
                                 all(bool(r.features.get("estimated")) for r in rs)))
    return {api: tuple(ms) for api, ms in out.items()}


def _runs(directory: Path, measured: dict, timed: dict) -> tuple[dict, ...]:
    """Earlier calibrations (`calibration.json`'s history) and this one, each as its workloads'
    `{name: {api, per_execution_j, per_execution_s}}`: a workload is the same work in every run."""
    current: dict[str, dict] = {}
    for api, workloads in timed.items():
        for workload, _, seconds in workloads:
            current[workload] = {"api": api, "per_execution_s": seconds}
    for api, ms in measured.items():
        for m in ms:
            current.setdefault(m.workload, {"api": api})["per_execution_j"] = m.per_call_j
    try:
        saved = json.loads((directory / CALIBRATION_JSON).read_text(encoding="utf-8"))
        history = [h["workloads"] for h in saved.get("history", []) if isinstance(h.get("workloads"), dict)]
    except (OSError, ValueError, TypeError, AttributeError):
        history = []
    return (*history, current)


def per_api_times(records) -> dict[str, float]:
    """Median execution time per API over records that have one (energy measured or not)."""
    by_api: dict[str, list[float]] = defaultdict(list)
    for r in records:
        if r.execution_time_s and r.execution_time_s > 0:
            by_api[r.api].append(r.execution_time_s)
    return {api: statistics.median(ts) for api, ts in sorted(by_api.items())}


def time_ratio(timed: Mapping[str, Iterable[tuple[str, dict, float]]], model: dict,
               work_time: Callable[[str, dict], float | None] | None = None) -> tuple[float | None, int]:
    """(median, count) over the workloads timed here of this machine's seconds / the reference
    machine's for the same call: the reference model's time for the workload's work where
    *work_time* gives one (`fit`, `evaluate`, `predict`), else the API's median measured time."""
    ratios = []
    for api, workloads in timed.items():
        for _, features, seconds in workloads:
            ref = work_time(api, features) if work_time is not None else None
            ref = ref or (model["apis"].get(api) or {}).get("time_s")
            if seconds and ref:
                ratios.append(seconds / ref)
    return (statistics.median(ratios) if ratios else None), len(ratios)


def run_values(runs: Iterable[dict], workload: str, key: str = "per_execution_j") -> list[float]:
    """One workload's `key` in each calibration that measured it, oldest first."""
    return [r[workload][key] for r in runs if isinstance(r.get(workload), dict) and (r[workload].get(key) or 0) > 0]


def disagreement(runs: Iterable[dict], api: str) -> tuple[int, float] | None:
    """(calibrations, largest / smallest joules per call) of the API's workload whose calibrations
    disagree most, each workload compared with itself; None where none was measured twice."""
    runs = list(runs)
    workloads = {w for r in runs for w, s in r.items() if isinstance(s, dict) and s.get("api") == api}
    seen = [(len(vs), max(vs) / min(vs)) for w in sorted(workloads) if len(vs := run_values(runs, w)) >= 2]
    return max(seen, key=lambda x: x[1]) if seen else None


def ratio_disagreement(runs: Iterable[dict], model: dict) -> tuple[int, float] | None:
    """(calibrations, largest / smallest) of the execution-time ratio each calibration gives
    (each workload against its API's median time in the reference data: the reference cancels
    between calibrations)."""
    ratios = []
    for run in runs:
        timed: dict[str, list[tuple[str, dict, float]]] = defaultdict(list)
        for w, s in run.items():
            if isinstance(s, dict) and s.get("per_execution_s") and s.get("api"):
                timed[s["api"]].append((w, {}, s["per_execution_s"]))
        ratio, _ = time_ratio(timed, model)
        if ratio:
            ratios.append(ratio)
    return (len(ratios), max(ratios) / min(ratios)) if len(ratios) >= 2 else None


def _runs_sd(runs: tuple[dict, ...], workloads: Iterable[str]) -> float:
    """The largest log10 sd of one of these workloads' joules per call across the calibrations."""
    sds = [statistics.stdev(math.log10(v) for v in vs) for w in workloads if len(vs := run_values(runs, w)) >= 2]
    return max(sds, default=0.0)


def measured_here(overlay: Overlay, api: str, features: dict,
                  reference: Callable[[str, dict], Prediction]) -> Prediction | None:
    """The figure of an API measured on this machine: its joules per call here, moved to this call's
    work by the reference model's ratio (`reference(api, features)`, the prediction without the
    overlay), the interval from the measured spread. None for an API not measured here."""
    workloads = overlay.measured.get(api)
    if not workloads:
        return None
    scales = [_work_scale(m, api, features, reference) for m in workloads]
    nearest = min(abs(math.log10(s)) for s in scales)
    chosen = [(m, s) for m, s in zip(workloads, scales) if abs(math.log10(s)) <= nearest + 1e-9]
    values = [m.per_call_j * s for m, s in chosen]
    energy = statistics.median(values)
    sd = max(math.sqrt(max(m.sd for m, _ in chosen) ** 2 + _runs_sd(overlay.runs, [m.workload for m, _ in chosen]) ** 2
                       + (SCALE_SD_PER_DECADE * nearest) ** 2), NOISE_SD)
    half = 10 ** (Z80 * sd)
    estimated = all(m.estimated for m, _ in chosen)
    notes = []
    for m, s in chosen:
        spread = 10 ** (2 * Z80 * m.sd)
        note = (f"measured on this machine ({overlay.hardware_id}) by `greenlint calibrate`: {m.workload} "
                f"{m.per_call_j:.3g} J per call over {len(m.per_repeat_j)} repeats "
                f"(repeats {spread:.3g}{TIMES} apart at 80 %)")
        if f"{s:.3g}" != "1":  # a move too small to print is not worth a note
            note += f", {TIMES}{s:.3g} for this call's work against the workload's (reference model)"
        notes.append(note)
    if len(chosen) > 1:
        notes.append(f"{len(chosen)} workloads of this API and the call's work not stated: their median, the interval spans them")
    seen = disagreement(overlay.runs, api)
    if seen:
        notes.append(f"{seen[0]} calibrations of this machine differ by {TIMES}{seen[1]:.3g} (widens the interval)")
    shares = _mean_shares([m.shares for m, _ in chosen])
    split = {c: (energy * shares[c] if c in overlay.components and c in shares else None) for c in COMPONENTS}
    records = sum(len(m.per_repeat_j) for m, _ in chosen)
    evidence = Evidence(records=records, api=api, level="api", sources=(overlay.hardware_id,), note="; ".join(notes))
    # the interval also spans every stored calibration's figure, moved to this call's work
    runs = [v * s for m, s in chosen for v in run_values(overlay.runs, m.workload)]
    low, high = min([min(values) / half, *runs]), max([max(values) * half, *runs])
    return Prediction(energy, (low, high), split["cpu"], split["gpu"], split["ram"],
                      Basis.CALIBRATED_ESTIMATED if estimated else Basis.CALIBRATED, evidence)


def _work_scale(m: Measured, api: str, features: dict, reference: Callable[[str, dict], Prediction]) -> float:
    """The reference model's figure for the workload's work with this call's stated work on top,
    over its figure for the workload's own: 1 where the call states nothing new or the model has
    no figure for either."""
    work = {**m.features, **features}
    if work == m.features:
        return 1.0
    mine, theirs = reference(api, work).energy_j, reference(api, m.features).energy_j
    return mine / theirs if mine and theirs and mine > 0 and theirs > 0 else 1.0


def _mean_shares(shares: list[dict[str, float]]) -> dict[str, float]:
    present = [s for s in shares if s]
    return {c: statistics.fmean(s.get(c, 0.0) for s in present) for c in COMPONENTS} if present else {}


def on_this_machine(overlay: Overlay, pred: Prediction) -> Prediction:
    """A reference figure moved to this machine: its split restricted to the components measured here
    (no GPU share without a GPU counter)."""
    if pred.energy_j is None or pred.basis not in (Basis.CALIBRATED_RESCALED, Basis.CALIBRATED_ESTIMATED):
        return pred
    parts = {c: getattr(pred, f"{c}_j") for c in COMPONENTS}
    kept = {c: v for c, v in parts.items() if v is not None and c in overlay.components}
    whole = sum(kept.values())
    # where the reference split names none of the counters here, the split is not known
    split = {c: pred.energy_j * kept[c] / whole if c in kept and whole > 0 else None for c in COMPONENTS}
    if split == parts:
        return pred
    dropped = [c.upper() for c, v in parts.items() if v and c not in overlay.components]
    note = pred.evidence.note or ""
    if dropped:
        over = ", ".join(c.upper() for c in overlay.components) or "nothing: split not known"
        note = "; ".join(filter(None, [note, f"no {'/'.join(dropped)} counter on this machine: split over {over}"]))
    return replace(pred, cpu_j=split["cpu"], gpu_j=split["gpu"], ram_j=split["ram"],
                   evidence=replace(pred.evidence, note=note or None))


def rescale_note(overlay: Overlay, model: dict) -> str:
    """Why a reference figure was rescaled, and how far this machine's calibrations disagree on it."""
    note = (f"calibrated here ({overlay.hardware_id}): rescaled {TIMES}{overlay.time_ratio:.3g} by this machine's "
            f"execution-time ratio ({overlay.n_ratio} calibrated workloads, at their own work)")
    seen = ratio_disagreement(overlay.runs, model)
    if seen:
        note += f"; {seen[0]} calibrations of this machine give ratios {TIMES}{seen[1]:.3g} apart"
    return note
