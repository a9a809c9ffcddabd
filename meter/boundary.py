"""Each call's energy from the counters read right before and after it, net of the idle baseline,
aggregated per call site with the counters' resolution handled.

Zeus reads cumulative energy counters (RAPL `energy_uj`, NVML total energy) at a window's two ends;
FECoM subtracts a stable idle baseline per second of call time. Both here: the difference of two
readings (wrap-around is the sources' business) minus `baseline power x seconds`, per component.
Back-to-back executions of one site share a window (`Collector`, `MERGE_GAP`).

A counter changes every `update_period_s` by what accumulated since its last change, so a reading
lags by half a period on average: `lag_factor` removes that bias. What remains is rounding: each
reading is off by up to one *step* (`max(update period x power, resolution_j)`), a window by
step/√6 (standard deviation over random phases). Over W windows that adds up as √W while the energy
adds up as W, so a site is *resolved* once its windows together cover at least `MIN_UPDATES`
counter updates, `MIN_RESOLUTIONS` x the resolution, and the summed rounding is at most
`MAX_REL_ERROR` of the net (`rule`). Its figure per execution is the median over windows each
resolved alone, or over consecutive groups of windows that are (with the IQR and 10th-90th
percentile as spread); an unresolved site says how many executions it would need and gives no
figure: never "≤ 0 J".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from greenlint.meter.counters.base import CUMULATIVE_COUNTER, Reading

MIN_UPDATES = 20  # counter updates the counted energy spans
MIN_RESOLUTIONS = 100  # x the counter's smallest step
MAX_REL_ERROR = 0.005  # std of the boundary error / net: 4 std = 2 %
NEED_MARGIN = 1.2  # executions asked for beyond the estimate, which rests on noisy readings


@dataclass(frozen=True)
class Counter:
    """What one component's counter can resolve."""

    update_period_s: float
    resolution_j: float
    detected: bool = False  # the period was seen in the readings, not taken from the source's documentation


@dataclass(frozen=True)
class Window:
    """Counter readings around `count` back-to-back executions of one call: seconds and gross J."""

    seconds: float  # from the first reading's start to the second's: the baseline's span
    gross_j: dict[str, float]
    count: int = 1
    call_s: float | None = None  # the calls' own time (without the readings), for time per execution
    read_s: float = 0.0  # how long the closing reading took (many GPUs: milliseconds each), see lag_factor


def window(before: Reading, after: Reading, start_ns: int, end_ns: int, count: int = 1,
           call_s: float | None = None, read_s: float = 0.0) -> Window:
    gross = {c: after.energy_j[c] - before.energy_j[c] for c in before.energy_j if c in after.energy_j}
    return Window((end_ns - start_ns) / 1e9, gross, count, call_s, read_s)


def baseline_power(samples: Sequence[Reading], window: tuple[int, int]) -> dict[str, float]:
    """Mean power per component over the accepted stable window `[lo, hi)` of readings."""
    lo, hi = window
    if hi - lo < 2:
        return {}
    first, last = samples[lo], samples[hi - 1]
    dt = last.time_s - first.time_s
    if dt <= 0:
        return {}
    return {c: (last.energy_j[c] - first.energy_j[c]) / dt for c in first.energy_j if c in last.energy_j}


def detect_update_period(samples: Sequence[Reading], comp: str, declared_s: float) -> float:
    """The counter's update period as seen in *samples*: the median time between changes of its
    value when that is clearly longer than the sampling interval, else the declared period."""
    times = [s.time_s for s in samples if comp in s.energy_j]
    values = [s.energy_j[comp] for s in samples if comp in s.energy_j]
    if len(times) < 3:
        return declared_s
    changes = [times[i] for i in range(1, len(values)) if values[i] != values[i - 1]]
    sampling = float(np.median(np.diff(times)))
    if len(changes) < 3:  # barely moved while idle: at least as slow as the whole span
        return max(declared_s, times[-1] - times[0]) if len(changes) < 2 else max(declared_s, changes[-1] - changes[0])
    gap = float(np.median(np.diff(changes)))
    return gap if gap > 1.5 * sampling else min(declared_s, sampling) if declared_s else sampling


def counters(samples: Sequence[Reading], sources_covering: dict) -> dict[str, Counter]:
    """Each measured component's counter, the update period of a hardware counter detected from
    *samples* (an estimate's CPU-time clock has no period to detect: its declared one stands)."""
    out = {}
    for c, src in sources_covering.items():
        hardware = CUMULATIVE_COUNTER in src.capabilities
        period = detect_update_period(samples, c, src.update_period_s) if hardware else src.update_period_s
        out[c] = Counter(period, src.resolution_j, hardware)
    return out


@dataclass(frozen=True)
class Check:
    """Whether some windows together resolve one component, and how many executions would."""

    resolved: bool
    needed: int  # executions needed at this mean duration and energy (0: none will do)
    rel_error: float | None  # std of the summed boundary error / |net|


def missed_tail_s(period_s: float, read_s: float = 0.0) -> float:
    """The seconds at a window's end its closing reading misses on average: half a period for an
    instant reading. A reading of several devices reads each a moment δ later, when its counter,
    last updated U ago (uniform over the period P), misses only max(0, U - δ) of the window:
    (P - δ)²/(2P) on average. With δ spread evenly over the reading's *read_s* that averages to
    (P³ - (P - m)³) / (6 P read_s), m = min(read_s, P)."""
    if read_s <= 0:
        return period_s / 2
    m = min(read_s, period_s)
    return (period_s**3 - (period_s - m) ** 3) / (6 * period_s * read_s)


def lag_factor(seconds: float, period_s: float, read_s: float = 0.0) -> float:
    """The share of a window's net energy its two readings catch, on average over the counter's phase.

    A reading holds the energy up to the counter's last update, on average half a period back, so
    the readings cover `[start - P/2, end - P/2]` in expectation: the window's last half period is
    missed and idle time before it counted instead. With the power outside the window at the
    baseline and constant inside, a window of d >= P keeps 1 - P/(2d) of its net and a shorter one
    d/(2P) (it sees an update with probability d/P). Dividing by this factor removes the bias. A
    closing reading that takes *read_s* misses less than half a period (`missed_tail_s`)."""
    if period_s <= 0:
        return 1.0
    return 1 - missed_tail_s(period_s, read_s) / seconds if seconds >= period_s else seconds / (2 * period_s)


def rule(windows: int, executions: int, seconds: float, gross_j: float, net_j: float, inv_f2: float,
         counter: Counter) -> Check:
    """The resolution rule for *windows* reading pairs around *executions* taking *seconds* and
    *gross_j* in all, *net_j* above the baseline (lag-corrected), *inv_f2* the sum of the windows'
    1 / lag_factor^2 (see the module docstring)."""
    if windows == 0 or seconds <= 0:
        return Check(False, 1, None)
    step = max(counter.update_period_s * gross_j / seconds, counter.resolution_j)
    rel = step * math.sqrt(inv_f2 / 6) / abs(net_j) if net_j else math.inf
    per_window_net = abs(net_j) / windows
    coarse = max(  # a counter that did not move yet: its updates first
        MIN_UPDATES * counter.update_period_s / (seconds / windows),
        MIN_RESOLUTIONS * counter.resolution_j / (gross_j / windows) if gross_j > 0 else 0.0,
    )
    if coarse > windows:  # too few updates to estimate the net yet: ask for the updates first
        needs_windows = coarse
    elif per_window_net > 0:
        needs_windows = (step * math.sqrt(inv_f2 / windows) / (math.sqrt(6) * MAX_REL_ERROR * per_window_net)) ** 2
    else:
        needs_windows = math.inf
    needed = math.ceil(NEED_MARGIN * needs_windows * executions / windows) if math.isfinite(needs_windows) else 0
    ok = (seconds >= MIN_UPDATES * counter.update_period_s and gross_j >= MIN_RESOLUTIONS * counter.resolution_j
          and rel <= MAX_REL_ERROR)
    return Check(ok, needed, rel)


@dataclass(frozen=True)
class SiteEnergy:
    """One call site's executions, per execution (the profile's measurement)."""

    executions: int
    time_s: float  # median seconds per execution
    median_j: float | None  # None: not measured, or not resolved
    iqr_j: tuple[float, float] | None
    interval_j: tuple[float, float] | None  # 10th-90th percentile
    components_j: dict[str, float | None] = field(default_factory=dict)  # median per component
    resolved: bool = False
    needed_executions: int | None = None
    upper_bound_j: float | None = None
    note: str | None = None


class _Sums:
    """Running totals of a group of windows, for the rule."""

    def __init__(self, base: dict[str, float], counter_of: dict[str, Counter]):
        self.base, self.counter_of = base, counter_of
        self.windows = self.executions = 0
        self.seconds = 0.0
        self.gross = dict.fromkeys(counter_of, 0.0)
        self.net = dict.fromkeys(counter_of, 0.0)  # lag-corrected
        self.inv_f2 = dict.fromkeys(counter_of, 0.0)
        self.members: list[Window] = []

    def add(self, w: Window) -> _Sums:
        self.windows += 1
        self.executions += w.count
        self.seconds += w.seconds
        for c, counter in self.counter_of.items():
            f = lag_factor(w.seconds, counter.update_period_s, w.read_s)
            self.gross[c] += w.gross_j[c]
            self.net[c] += (w.gross_j[c] - self.base.get(c, 0.0) * w.seconds) / f
            self.inv_f2[c] += 1 / f**2
        self.members.append(w)
        return self

    def check(self) -> tuple[bool, int]:
        checks = [rule(self.windows, self.executions, self.seconds, self.gross[c], self.net[c], self.inv_f2[c], k)
                  for c, k in self.counter_of.items()]
        return all(ch.resolved for ch in checks), max(ch.needed for ch in checks)


def aggregate(windows: Sequence[Window], base: dict[str, float], counter_of: dict[str, Counter]) -> SiteEnergy:
    """Per-execution energy of one site's windows (see the module docstring)."""
    n = sum(w.count for w in windows)
    per_exec_s = [(w.seconds if w.call_s is None else w.call_s) / w.count for w in windows]
    time_s = float(np.median(per_exec_s)) if windows else 0.0
    comps = [c for c in counter_of if windows and all(c in w.gross_j for w in windows)]
    if not comps:
        return SiteEnergy(n, time_s, None, None, None, note="not measured: no readable energy counter (times only)")
    counter_of = {c: counter_of[c] for c in comps}
    whole = _Sums(base, counter_of)
    for w in windows:
        whole.add(w)
    resolved, needed = whole.check()
    if not resolved:
        step = sum(max(counter_of[c].update_period_s * max(whole.gross[c] / whole.seconds, base.get(c, 0.0)),
                       counter_of[c].resolution_j) for c in comps)
        bound = (max(sum(whole.net.values()), 0.0) + 2 * step * whole.windows) / n
        how = f"it needs about {needed} executions" if needed else "no number of executions resolves it (no net energy)"
        return SiteEnergy(n, time_s, None, None, None, dict.fromkeys(comps), False, needed or None, bound,
                          f"below the counter's resolution over {n} executions: {how}")
    groups: list[_Sums] = []
    cur = _Sums(base, counter_of)
    for w in windows:  # consecutive windows grouped so that each group is resolved on its own
        if cur.add(w).check()[0]:
            groups.append(cur)
            cur = _Sums(base, counter_of)
    for w in cur.members:  # the remainder joins the last group
        groups[-1].add(w)
    per = [{c: v / g.executions for c, v in g.net.items()} for g in groups]
    totals = np.array([sum(p.values()) for p in per])
    q10, q25, q50, q75, q90 = (float(x) for x in np.percentile(totals, [10, 25, 50, 75, 90]))
    spread = len(groups) > 1
    if len(windows) == 1:
        where = "one counter window"
    else:
        alone = len(groups) == len(windows)
        where = f"{len(windows)} counter windows, {'each resolved alone' if alone else f'in {len(groups)} resolved groups'}"
    return SiteEnergy(
        n, time_s, q50, (q25, q75) if spread else None, (q10, q90) if spread else None,
        {c: float(np.median([p[c] for p in per])) for c in comps}, True, None, None,
        f"{n} execution{'s' if n > 1 else ''} in {where}",
    )


#: Updates of the slowest counter a window of back-to-back executions spans before the next one
#: opens: enough that its rounding (step/√6) is about 0.2 % of it, so each window stands alone.
WINDOW_SPAN_UPDATES = 200


def min_span_s(counter_of: dict[str, Counter]) -> float:
    """The span a window of back-to-back executions grows to (`WINDOW_SPAN_UPDATES`)."""
    return WINDOW_SPAN_UPDATES * max((c.update_period_s for c in counter_of.values()), default=0.0)


def window_net(w: Window, base: dict[str, float], counter_of: dict[str, Counter]) -> float | None:
    """One window's net joules (lag-corrected, summed over components); None when nothing was measured."""
    comps = [c for c in counter_of if c in w.gross_j]
    if not comps:
        return None
    sums = _Sums(base, {c: counter_of[c] for c in comps}).add(w)
    return sum(sums.net.values())


#: Back-to-back executions of one site share a window while the time between them stays under
#: this fraction of the time they ran: two readings (two boundary errors) for the whole run of
#: them, as calibrate's loops do. The gaps' energy above the baseline (the loop's own code) counts
#: towards the call; it is at most this fraction of its time.
MERGE_GAP = 0.01


class Collector:
    """Collects the counter readings around each execution into windows per site. A window takes
    in back-to-back executions until it spans *min_span_s* (enough counter updates to resolve it:
    later executions open new windows, which give the spread)."""

    def __init__(self, merge_gap: float = MERGE_GAP, min_span_s: float = math.inf):
        self.merge_gap, self.min_span_ns = merge_gap, min_span_s * 1e9
        self.windows: dict[int, list[Window]] = {}
        self._open: list | None = None  # [site, before, start_ns, after, end_ns, count, busy_ns, read_s]

    def add(self, site: int, before: Reading, after: Reading, start_ns: int, end_ns: int,
            call_ns: int | None = None, read_s: float = 0.0) -> None:
        """One execution between readings begun at *start_ns* and *end_ns*; *call_ns*: the call's own
        time; *read_s*: how long the closing reading took."""
        o = self._open
        busy = end_ns - start_ns if call_ns is None else call_ns
        if (o is not None and o[0] == site and start_ns - o[4] <= self.merge_gap * (o[6] + busy)
                and o[4] - o[2] < self.min_span_ns):
            o[3], o[4], o[5], o[6], o[7] = after, end_ns, o[5] + 1, o[6] + busy, read_s
            return
        self.close()
        self._open = [site, before, start_ns, after, end_ns, 1, busy, read_s]

    def close(self) -> None:
        if self._open is not None:
            site, before, start_ns, after, end_ns, count, busy, read_s = self._open
            self.windows.setdefault(site, []).append(window(before, after, start_ns, end_ns, count, busy / 1e9,
                                                            read_s))
            self._open = None
