"""`greenlint calibrate`: remeasure the bundled workloads on this machine and write its overlay.

For each workload the call is warmed up (its first call, which traces, timed apart as the
records' `first_call_s`: a program's first call pays it), then repeated back to back until the window lasts
`min_window_s` and at least 40 updates of the slowest counter (its update period detected at the
start, `meter.boundary`), so it holds many sampler intervals and counter steps however short the
call, `repeats` times, each after a stable state. The workloads of one sweep (`blocks`: those one of
the predictor's models is fitted on together) are measured together with their repeats interleaved
(A B C A B C, `run_block`), so a change of the machine's load falls on every one of them alike; the
load over each window (`greenlint.meter.load`: other processes' busy cores, the load average) is
kept with it. A window's net energy (greenlint.window, as the KB computes it) divided by the executions in
it is the energy per execution; the spread across repeats is IQR / median.

Layout under `greenlint.paths.calibration_dir()`:

* `<hardware_id>/` - the overlay the predictor loads: a KB (records.csv, meta.json,
  PROVENANCE.md, built by `greenlint.kb.build.build_kb`, one record per window, scaled by the
  builder to one execution), `measurements/<workload>/experiment-1.json` (FECoM format) and `calibration.json`
  (this run's summary, the `history` of the machine's earlier calibrations and their `disagreement`,
  the machine's `load` while measuring and the `time_model` the predictor fits on it: constants,
  residuals, spread).
  It is a symbolic link to a versioned folder `.<hardware_id>.v<ns>/`, assembled aside and switched
  in one atomic rename, so it is never half-written or missing. A run of some workloads (`--only`)
  keeps the installed overlay's other workloads.
* `.<hardware_id>.<mode>.partial/` - a run in progress: finished workloads' files and
  `progress.json`. An interrupted run resumes from here; it is removed once the overlay is in place.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from greenlint.atomic import atomic_write_text
from greenlint.meter.boundary import MIN_UPDATES, counters
from greenlint.meter.counters import SourceSet
from greenlint.meter.load import LoadProbe
from greenlint.meter.runtime import sync_devices
from greenlint.meter.session import MACHINE, Clock, MeterConfig, MeterSession
from greenlint.meter.sizes import input_sizes
from greenlint.meter.workloads import Call, Workload
from greenlint.predict.calibration import CALIBRATION_JSON, disagreement
from greenlint.stats import median
from greenlint.window import measured_net_j

SPREAD_GOAL = 0.10
WINDOW_UPDATES = 2 * MIN_UPDATES  # counter updates one calibration window spans at least
#: Earlier calibrations of the machine kept in `calibration.json`'s `history`.
HISTORY = 10


@dataclass(frozen=True)
class Plan:
    mode: str  # "quick" or "full"
    repeats: int
    min_window_s: float

    @classmethod
    def for_mode(cls, quick: bool) -> Plan:
        """`--quick`: 3 repeats of windows of at least 0.5 s (the counters' resolution is kept by
        `window_seconds`), so its sweep of longer `fit`s stays within the quick suite's minutes; full:
        5 repeats of at least 3 s."""
        return cls("quick", 3, 0.5) if quick else cls("full", 5, 3.0)


def root_dir() -> Path:
    from greenlint.paths import calibration_dir

    return calibration_dir()


def overlay_dir(hw_id: str) -> Path:
    return root_dir() / hw_id


def partial_dir(hw_id: str, mode: str) -> Path:
    return root_dir() / f".{hw_id}.{mode}.partial"


def spread(values: list[float]) -> float | None:
    """IQR / median (None when the median is 0 or there are fewer than 2 values)."""
    import numpy as np

    if len(values) < 2:
        return None
    q1, med, q3 = np.percentile(values, [25, 50, 75])
    return float((q3 - q1) / med) if med > 0 else None


def window_seconds(plan: Plan, counter_of: dict) -> float:
    """How long each window must last: the plan's minimum, and at least `WINDOW_UPDATES` updates of
    the slowest counter, so the two readings' rounding stays small (2 steps in 40: at most 5 %)."""
    slowest = max((c.update_period_s for c in counter_of.values()), default=0.0)
    return max(plan.min_window_s, WINDOW_UPDATES * slowest)


@dataclass
class _Running:
    """One workload under measurement: its call, input sizes, first call and windows so far."""

    wl: Workload
    call: Call
    sizes: dict
    first_s: float
    first_window: tuple[int, int]
    windows: list = field(default_factory=list)  # (start ns, end ns, stable state, executions, load)


def _prepare(wl: Workload, clock: Clock) -> _Running:
    """Set *wl* up, time its first call (it traces/compiles: timed and metered apart, `first_call_s`,
    `first_call_j`) and warm it up."""
    call = wl.setup()
    sizes = input_sizes(call.func, call.args, call.kwargs)
    first_ns, began = clock.epoch_ns(), clock.seconds()
    call()
    sync_devices()
    first_s = clock.seconds() - began
    first_window = (first_ns, clock.epoch_ns())
    call()
    sync_devices()
    return _Running(wl, call, sizes, first_s, first_window)


def _window(session: MeterSession, running: _Running, min_window_s: float, clock: Clock) -> None:
    """One repeat of *running*: after a stable state, its call back to back until the window lasts
    *min_window_s*, however long one call takes; the machine's load over the window (`LoadProbe`:
    other processes' busy cores, the load average) kept with it."""
    gc.collect()  # every window starts from the same heap, so no repeat inherits another's garbage
    stable = session.wait_stable()
    sync_devices()
    probe = LoadProbe()
    start, deadline, n = clock.epoch_ns(), clock.seconds() + min_window_s, 0
    while True:
        running.call()
        n += 1
        if clock.seconds() >= deadline:
            break
    sync_devices()
    running.windows.append((start, clock.epoch_ns(), stable, n, probe.result()))


def run_block(session: MeterSession, block: list[Workload], plan: Plan, on_start: Callable[[Workload], None],
              on_repeat: Callable[[], None], counter_of: dict | None = None,
              clock: Clock = MACHINE) -> list[tuple[list, dict]]:
    """Measure *block*'s workloads with their repeats interleaved (A B C A B C, not A A A B B B), so a
    change of the machine's load falls on every workload of the block alike, not on one; (records,
    summary) of each, in order. *clock*: the session's."""
    min_window_s = window_seconds(plan, counter_of or {})
    running = []
    for wl in block:
        on_start(wl)
        running.append(_prepare(wl, clock))
        on_repeat()
    for _ in range(plan.repeats):
        for r in running:
            _window(session, r, min_window_s, clock)
            on_repeat()
    clock.sleep(max(session.config.after_s, 3 * session.config.interval_s))
    return [_summarize(session, r) for r in running]


def run_workload(session: MeterSession, wl: Workload, plan: Plan, on_repeat: Callable[[], None],
                 counter_of: dict | None = None) -> tuple[list, dict]:
    """Measure one workload; (records, summary)."""
    return run_block(session, [wl], plan, lambda wl: None, on_repeat, counter_of)[0]


def blocks(workloads: list[Workload]) -> list[list[Workload]]:
    """The workloads measured together, their repeats interleaved (`run_block`): those of one sweep
    (`Workload.sweep`: fitted together by one of this machine's models), else those of one API, in the
    order of each block's first workload."""
    by_key: dict[str, list[Workload]] = {}
    for wl in workloads:
        by_key.setdefault(f"sweep {wl.sweep}" if wl.sweep else wl.api, []).append(wl)
    return list(by_key.values())


def _summarize(session: MeterSession, running: _Running) -> tuple[list, dict]:
    """The records and summary of a measured workload: net joules and seconds per execution of each
    window, their medians and spreads, the first call's, and the load over the windows."""
    wl, windows = running.wl, running.windows
    first_j = None
    if windows:
        start, end, stable, *_ = windows[0]
        session.stable = stable
        warm = session.energy(session.record(f"{wl.api}()", start, end, api=wl.api, workload=wl.name))
        first_j = _first_call_j(session, wl, running.first_window, (start, end), warm)
    meta = {"first_call_s": running.first_s, **({"first_call_j": first_j} if first_j is not None else {})}
    records, per_j, per_s, below = [], [], [], 0
    for start, end, stable, n, _ in windows:
        session.stable = stable
        rec = session.record(
            f"{wl.api}()", start, end, input_sizes=running.sizes, api=wl.api, executions=n,
            features={**wl.features, "estimated": session.estimated, "workload": wl.name, **meta},
            workload=wl.name,
        )
        records.append(rec)
        energy = session.energy(rec)
        below += energy.below_resolution
        net = measured_net_j(energy)
        if net is not None:
            per_j.append(net / n)
        per_s.append((end - start) / 1e9 / n)
    executions = [w[3] for w in windows]
    summary = {
        "api": wl.api,
        "executions": int(median(executions)),
        "executions_per_repeat": executions,
        "repeats": len(windows),
        "per_execution_j": median(per_j),
        "per_execution_s": median(per_s),
        "spread_j": spread(per_j),
        "spread_s": spread(per_s),
        "below_resolution": below,
        "stable": all(w[2].stable for w in windows),
        "basis": "calibrated-estimated" if session.estimated else "calibrated",
        "per_repeat_j": per_j,
        "per_repeat_s": per_s,
        "load_per_repeat": [w[4] for w in windows],
        **meta,
    }
    return records, summary


def _first_call_j(session: MeterSession, wl: Workload, first: tuple[int, int], window: tuple[int, int],
                  warm) -> float | None:
    """The net joules of the workload's first call (its tracing included): its gross joules over its
    own window less the baseline the first repeat's window (*window*, its energy *warm*) subtracted,
    at the same rate per second; None where either was not measured. Tracing runs Python on one core
    while the warmed-up calls may keep several busy: its energy, not its wall time at the warmed-up
    calls' power, is what a program's first call costs."""
    record = session.record(f"{wl.api}()", *first, api=wl.api, executions=1, workload=wl.name)
    gross = session.energy(record).components
    span, warm_span = (first[1] - first[0]) / 1e9, (window[1] - window[0]) / 1e9
    net = 0.0
    for component, c in warm.components.items():
        if c.net_j is None or component not in gross or warm_span <= 0:
            return None
        net += gross[component].gross_j - (c.gross_j - c.net_j) * span / warm_span
    return net if net > 0 else None


def build_overlay_kb(measurements: Path, out: Path, hw_id: str) -> dict:
    """Build the overlay KB at *out* with the KB builder (which scales looped windows to one
    execution and keeps each record's features and basis); returns what happened."""
    from greenlint.kb.build import build_kb

    summary = build_kb([measurements], out, jobs=1, dataset="calibration", hardware_id=hw_id)
    return {"records": summary.records if summary.written else 0, "problems": [str(p) for p in summary.problems]}


def _install(staging: Path, target: Path) -> None:
    """Make *staging* the overlay *target* in one atomic step.

    `<hw>` is a symbolic link to a versioned folder `.<hw>.v<time>`; a new link is made beside it
    and renamed over it (rename is atomic), so a reader sees the old overlay or the new one, never
    none. The folders it no longer points to are removed afterwards. An overlay of the old layout
    (a plain folder) is moved aside first, once; where symbolic links cannot be made, the two
    renames are the fallback."""
    root = target.parent
    version = root / f".{target.name}.v{time.time_ns()}"
    os.replace(staging, version)
    link = root / f".{target.name}.link-{os.getpid()}"
    try:
        link.unlink(missing_ok=True)
        os.symlink(version.name, link, target_is_directory=True)
    except OSError:  # no symbolic links here: the two-rename swap
        if target.exists():
            aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=root))
            os.replace(target, aside / target.name)
            shutil.rmtree(aside, ignore_errors=True)
        os.replace(version, target)
        return
    if target.exists() and not target.is_symlink():  # the old layout: a plain folder
        aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=root))
        os.replace(target, aside / target.name)
        shutil.rmtree(aside, ignore_errors=True)
    os.replace(link, target)
    for old in root.glob(f".{target.name}.v*"):
        if old != version:
            shutil.rmtree(old, ignore_errors=True)


def merge_previous(target: Path, done: dict, measurements: Path) -> dict:
    """The installed overlay's workloads that this run did not measure (`--only`), kept: their
    summaries are returned with *done*'s and their measurement files copied into *measurements*."""
    try:
        previous = json.loads((target / CALIBRATION_JSON).read_text())
    except (OSError, ValueError):
        return dict(done)
    merged = {}
    for name, summary in previous.get("workloads", {}).items():
        src = target / "measurements" / name
        if name in done or not src.is_dir():
            continue
        shutil.copytree(src, measurements / name)
        merged[name] = {**summary, "kept_from": previous.get("finished_at")}
    return {**merged, **done}


def kept_startup(target: Path) -> dict | None:
    """The installed overlay's start-up (`meter.startup`), marked as kept; None where it has none."""
    try:
        previous = json.loads((target / CALIBRATION_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    startup = previous.get("startup")
    return {**startup, "kept_from": startup.get("kept_from") or previous.get("finished_at")} if startup else None


def workloads_summary(done: dict) -> dict:
    """A calibration's workloads as its history keeps them: `{name: {api, per_execution_j, per_execution_s}}`."""
    return {name: {k: w.get(k) for k in ("api", "per_execution_j", "per_execution_s")} for name, w in done.items()}


def history(target: Path) -> list[dict]:
    """The machine's earlier calibrations, oldest first (at most `HISTORY`): the installed overlay's
    own history and its summary, each as `{finished_at, mode, workloads: workloads_summary}`."""
    try:
        previous = json.loads((target / CALIBRATION_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    last = {"finished_at": previous.get("finished_at"), "mode": previous.get("mode"),
            "workloads": workloads_summary(previous.get("workloads", {}))}
    return [*previous.get("history", []), last][-HISTORY:]


def runs_of(result: dict) -> list[dict]:
    """A calibration's stored runs, oldest first, itself last, each as `workloads_summary`."""
    earlier = [h["workloads"] for h in result.get("history", []) if isinstance(h.get("workloads"), dict)]
    return [*earlier, workloads_summary(result.get("workloads", {}))]


def disagreements(runs: list[dict]) -> dict:
    """Per API with a workload measured in two calibrations or more: how many, and the largest
    ratio of one workload's joules per call between them."""
    apis = sorted({s["api"] for run in runs for s in run.values() if s.get("api")})
    return {api: {"runs": seen[0], "ratio": round(seen[1], 4)} for api in apis if (seen := disagreement(runs, api))}


def load_summary(done: dict) -> dict:
    """The machine's load over a run's windows (`meter.load`, kept with each repeat): other processes'
    busy cores and the 1-minute load average (median and most), and how many windows ran loaded."""
    loads = [load for s in done.values() for load in s.get("load_per_repeat", ())]
    others = [x["others_busy_cores"] for x in loads if x.get("others_busy_cores") is not None]
    averages = [x["loadavg_1m"] for x in loads if x.get("loadavg_1m") is not None]
    return {"windows": len(loads), "cores": loads[0]["cores"] if loads else os.cpu_count(),
            "others_busy_cores": {"median": median(others), "max": max(others, default=None)},
            "loadavg_1m": {"median": median(averages), "max": max(averages, default=None)},
            "loaded_windows": sum(1 for x in loads if x.get("loaded"))}


def fitted_models(overlay: Path) -> dict | None:
    """This machine's time and op models as the predictor fits them on the overlay KB in *overlay*
    (greenlint.predict.local_work): their constants, residuals and spread, or the groups refused and
    why; None where the overlay fits none. Where the predictor's model cannot be loaded, `{"error":
    its message}` (naming the file): the measurements are kept all the same."""
    from greenlint.predict import load_predictor
    from greenlint.predict.loading import find_overlay
    from greenlint.predict.predictor import Predictor
    from greenlint.predict.tables import ModelError

    try:
        shipped = load_predictor(overlay=False)
    except ModelError as exc:
        return {"error": str(exc)}
    found = find_overlay(shipped.model, overlay)
    if found is None:
        return None
    fitted = Predictor(shipped.model, overlay=found, hierarchy=shipped.hierarchy).overlay
    return fitted.local if fitted is not None else None


def apis_summary(done: dict) -> dict:
    by_api: dict[str, list[dict]] = {}
    for name, s in done.items():
        by_api.setdefault(s["api"], []).append({"workload": name, **s})
    return {
        api: {
            "per_execution_j": median([s["per_execution_j"] for s in ss if s["per_execution_j"] is not None]),
            "per_execution_s": median([s["per_execution_s"] for s in ss]),
            "basis": ss[0]["basis"],
            "workloads": [s["workload"] for s in ss],
        }
        for api, ss in sorted(by_api.items())
    }


class Calibrator:
    def __init__(self, plan: Plan, workloads: list[Workload], config: MeterConfig = MeterConfig(),
                 sources: SourceSet | None = None, startup: Callable[[], dict] | None = None,
                 clock: Clock = MACHINE):
        """*sources*: the counters to read (default: those `config` names, probed here); *startup*:
        measures the program's start-up here (`meter.startup.measure_startup`) once the workloads
        are done; without it the installed overlay's is kept (`--only`); *clock*: the machine's
        (a simulated machine's in tests)."""
        from greenlint.hardware import hardware_id

        self.plan, self.workloads, self.config, self.sources = plan, workloads, config, sources
        self.startup, self.clock = startup, clock
        self.hw_id = hardware_id()
        self.partial = partial_dir(self.hw_id, plan.mode)
        self.progress_file = self.partial / "progress.json"

    def _fingerprint(self) -> dict:
        return json.loads(json.dumps({"plan": asdict(self.plan), "meter": self.config.to_json()}))

    def load_progress(self) -> dict:
        try:
            progress = json.loads(self.progress_file.read_text())
        except (OSError, ValueError):
            return {}
        return progress.get("done", {}) if progress.get("fingerprint") == self._fingerprint() else {}

    def pending(self) -> list[Workload]:
        done = self.load_progress()
        return [w for w in self.workloads if w.name not in done]

    def run(self, on_start: Callable[[Workload], None], on_repeat: Callable[[], None]) -> dict:
        done = self.load_progress()
        clock = self.clock
        session = MeterSession(self.config, self.sources, clock=clock)
        stable = session.start(thread=clock.drive is None)
        counter_of = counters(session.sampler.samples[stable.window[0]:stable.window[1]], session.sources.covers)
        try:
            for block in blocks([wl for wl in self.workloads if wl.name not in done]):
                measured = run_block(session, block, self.plan, on_start, on_repeat, counter_of, clock)
                for wl, (records, summary) in zip(block, measured):
                    atomic_write_text(self.partial / "measurements" / wl.name / "experiment-1.json",
                                      json.dumps(records))
                    done[wl.name] = summary
                atomic_write_text(self.progress_file, json.dumps({"fingerprint": self._fingerprint(), "done": done}))
            startup = self.startup() if self.startup is not None else None
        finally:
            session.stop()
        return self.finish(session, done, startup)

    def finish(self, session: MeterSession, done: dict, startup: dict | None = None) -> dict:
        root = root_dir()
        root.mkdir(parents=True, exist_ok=True)
        staging_parent = Path(tempfile.mkdtemp(prefix=f".{self.hw_id}.new-", dir=root))
        try:
            staging = staging_parent / self.hw_id
            measurements = staging_parent / "measurements"
            shutil.copytree(self.partial / "measurements", measurements)
            earlier = history(overlay_dir(self.hw_id))
            startup = startup or kept_startup(overlay_dir(self.hw_id))
            load = load_summary(done)  # this run's windows, not those kept from an earlier run
            done = merge_previous(overlay_dir(self.hw_id), done, measurements)
            kb = build_overlay_kb(measurements, staging, self.hw_id)
            staging.mkdir(exist_ok=True)
            os.replace(measurements, staging / "measurements")
            result = {
                "hardware_id": self.hw_id,
                "hardware": session.hardware,
                "mode": self.plan.mode,
                "plan": asdict(self.plan),
                "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "basis": "calibrated-estimated" if session.estimated else "calibrated",
                "meter": session.meter_block(),
                "stable": session.stable.to_json() if session.stable else None,
                "spread_goal": SPREAD_GOAL,
                "kb": kb,
                "workloads": done,
                "apis": apis_summary(done),
                "history": earlier,
                "load": load,
                "time_model": fitted_models(staging),
                "startup": startup,
            }
            result["disagreement"] = disagreements(runs_of(result))
            (staging / CALIBRATION_JSON).write_text(json.dumps(result, indent=1), encoding="utf-8")
            _install(staging, overlay_dir(self.hw_id))
        finally:
            shutil.rmtree(staging_parent, ignore_errors=True)
        shutil.rmtree(self.partial, ignore_errors=True)
        return result


def status(hw_id: str) -> dict:
    """What this machine has: the installed overlay's summary and any run in progress."""
    out: dict = {"hardware_id": hw_id, "overlay": None, "in_progress": {}}
    try:
        out["overlay"] = json.loads((overlay_dir(hw_id) / CALIBRATION_JSON).read_text())
    except (OSError, ValueError):
        pass
    for mode in ("quick", "full"):
        try:
            prog = json.loads((partial_dir(hw_id, mode) / "progress.json").read_text())
            out["in_progress"][mode] = sorted(prog.get("done", {}))
        except (OSError, ValueError):
            continue
    return out
