"""What a change does to each matched call site and file: joules per program run before and
after, the ratio, why it changed, and the interval of the ratio where the uncertainty does not cancel.

A site doing the same work on both sides costs the same per execution: only its runs can change
its joules. A site whose work changed is compared like for like, forecast against forecast (same
API and hardware: the ratio of work is what matters, so the figures' common uncertainty cancels and
the ratio is a point); where one side was measured here (`greenlint measure`), the other side's
figure is that measurement scaled by the forecasts' ratio. A new or removed site, or two figures
from different evidence, carry their own intervals: a file's ratio then has an interval, the
extremes of (after / before) over every figure's 80 % interval (sites whose ratio cancels move
with their before figure).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from greenlint.analysis.callsite import UNSAID
from greenlint.predict.prediction import Basis, Prediction
from greenlint.review.gitfs import Side
from greenlint.review.matching import PLACE_FEATURES, Pair
from greenlint.review.sides import SideSite
from greenlint.units import TIMES

PROFILED = (Basis.PROFILED, Basis.PROFILED_ESTIMATED)
#: Work quantities in the order reasons name them (docs/calls-json.md `work`); others follow by name.
WORK_ORDER = ("epochs", "batch_size", "samples", "validation_samples", "steps_per_epoch", "steps",
              "model", "params", "flops_per_sample", "flops", "elements", "input_shape")
#: Derived quantities named only when what they derive from did not change.
DERIVED = {"steps_per_epoch": ("batch_size", "samples"), "steps": ("epochs", "batch_size", "samples", "steps_per_epoch"),
           "flops": ("flops_per_sample", "input_shape", "elements")}
SAME = 1e-9  # relative difference below which two figures are the same


@dataclass(frozen=True)
class Figure:
    """One side of a site: joules per program run (per execution × runs), its interval, its basis."""

    joules: float | None
    interval: tuple[float, float] | None
    runs: int
    runs_bound: str
    label: str


@dataclass(frozen=True)
class Reason:
    """One quantity that changed: `work` (a work quantity), `argument`, `runs`, `site` or `figure`."""

    kind: str
    quantity: str
    before: object
    after: object
    text: str


@dataclass(frozen=True)
class Change:
    """A call site whose joules changed (or that is new or removed)."""

    status: str  # changed, new or removed
    path: str  # its file now (before, for a removed site of a deleted file)
    site: SideSite  # the after site, or the before site when removed
    before: Figure | None
    after: Figure | None
    ratio: float | None
    ratio_interval: tuple[float, float] | None
    reasons: tuple[Reason, ...]
    old: SideSite | None = None

    @property
    def intended(self) -> bool:
        return self.site.intended

    @property
    def added_j(self) -> float:
        return (self.after.joules or 0.0 if self.after else 0.0) - (self.before.joules or 0.0 if self.before else 0.0)


@dataclass
class FileDiff:
    path: str
    old_path: str | None  # its path before when renamed; None when unchanged or new
    status: str  # modified, added, deleted or renamed
    before_j: float = 0.0
    after_j: float = 0.0
    ratio_interval: tuple[float, float] | None = None
    changes: list[Change] = field(default_factory=list)
    unknown: int = 0  # sites without a figure on a side (not in the totals)

    @property
    def ratio(self) -> float | None:
        return _ratio(self.after_j, self.before_j)

    @property
    def budget_after_j(self) -> float:
        """`after_j` with the intended changes (`# noqa: GLD100`) counted at their before figure."""
        return self.after_j - sum(c.added_j for c in self.changes if c.intended)


@dataclass
class ProgramDiff:
    """One run of a script: its own call sites and those of the project modules it imports."""

    path: str  # the script now (before, when it was deleted)
    files: tuple[str, ...]  # the files one run of it reads: itself, then the modules it imports
    before_j: float = 0.0
    after_j: float = 0.0
    ratio_interval: tuple[float, float] | None = None
    unknown: int = 0
    intended_j: float = 0.0  # joules its intended changes (a `noqa: GLD100` comment) add

    @property
    def ratio(self) -> float | None:
        return _ratio(self.after_j, self.before_j)

    @property
    def budget_after_j(self) -> float:
        return self.after_j - self.intended_j


@dataclass
class Diff:
    base: Side
    head: Side
    files: list[FileDiff]
    errors: list = field(default_factory=list)
    ratio_interval: tuple[float, float] | None = None
    programs: list[ProgramDiff] = field(default_factory=list)  # those a listed change reaches
    compared: list = field(default_factory=list, repr=False)  # every pair's figures (Compared)

    @property
    def before_j(self) -> float:
        return sum(f.before_j for f in self.files)

    @property
    def after_j(self) -> float:
        return sum(f.after_j for f in self.files)

    @property
    def ratio(self) -> float | None:
        return _ratio(self.after_j, self.before_j)

    @property
    def changed_files(self) -> list[FileDiff]:
        return [f for f in self.files if f.changes]

    @property
    def changes(self) -> list[Change]:
        """Every listed change, largest first (by joules added or removed, then by ratio)."""
        found = [c for f in self.files for c in f.changes]
        return sorted(found, key=lambda c: (-abs(c.added_j), -abs(math.log(c.ratio)) if c.ratio else 0.0, c.path))


def _ratio(after: float | None, before: float | None) -> float | None:
    return after / before if after is not None and before else None


def _profiled(p: Prediction) -> bool:
    return p.basis in PROFILED and p.energy_j is not None


def _forecast(p: Prediction) -> Prediction:
    return p.forecast if _profiled(p) and p.forecast is not None else p


def _inputs(site: SideSite) -> tuple:
    features = {k: v for k, v in site.callsite.features.items() if k not in PLACE_FEATURES}
    work = {k: e.value for k, e in site.callsite.work.items()}
    return (site.api, sorted(features.items(), key=str), sorted(work.items(), key=str))


def _figure(site: SideSite, energy: float | None, interval, label: str) -> Figure:
    runs, bound = site.program_runs, site.runs_bound
    joules = None if energy is None else energy * runs
    scaled = None if interval is None or energy is None else (interval[0] * runs, interval[1] * runs)
    return Figure(joules, scaled, runs, bound, label)


def _scaled(p: Prediction, factor: float) -> tuple[float, float] | None:
    return None if p.interval_j is None else (p.interval_j[0] * factor, p.interval_j[1] * factor)


def compare_pair(old: SideSite, new: SideSite) -> tuple[Figure, Figure, float | None, bool]:
    """Both sides' figures, the ratio (after / before per program run; None when unknown, e.g. a
    call moved into a loop of unknown length), and whether its uncertainty cancels."""
    before, after, ratio, cancels = _figures(old, new)
    if ratio is not None and old.callsite.counted != new.callsite.counted:
        ratio = None
    return before, after, ratio, cancels


def _figures(old: SideSite, new: SideSite) -> tuple[Figure, Figure, float | None, bool]:
    pb, pa = old.prediction, new.prediction
    runs_ratio = new.program_runs / old.program_runs
    if _inputs(old) == _inputs(new):  # the same work: the same joules per execution
        p = pb if _profiled(pb) or not _profiled(pa) else pa
        before, after = _figure(old, p.energy_j, p.interval_j, p.label), _figure(new, p.energy_j, p.interval_j, p.label)
        return before, after, runs_ratio, True
    fb, fa = _forecast(pb), _forecast(pa)
    if fb.energy_j and fa.energy_j is not None:
        r = fa.energy_j / fb.energy_j
        cancels = fb.basis == fa.basis and fb.evidence.level == fa.evidence.level
        if _profiled(pb):
            anchor = f"{pb.label} {TIMES} forecast ratio"
            before = _figure(old, pb.energy_j, pb.interval_j, pb.label)
            after = _figure(new, pb.energy_j * r, _scaled(pb, r), anchor)
        elif _profiled(pa):
            anchor = f"{pa.label} ÷ forecast ratio"
            before = _figure(old, pa.energy_j / r, _scaled(pa, 1 / r), anchor) if r else _figure(old, None, None, anchor)
            after = _figure(new, pa.energy_j, pa.interval_j, pa.label)
        else:
            before, after = _figure(old, fb.energy_j, fb.interval_j, fb.label), _figure(new, fa.energy_j, fa.interval_j, fa.label)
        return before, after, r * runs_ratio, cancels
    before = _figure(old, pb.energy_j, pb.interval_j, pb.label)
    after = _figure(new, pa.energy_j, pa.interval_j, pa.label)
    return before, after, None, False


def _value(v: object) -> str:
    if v is None:
        return "unknown"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    if isinstance(v, float):
        return f"{v:.3g}"
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(_value(x) for x in v) + ")"
    return str(v)


def _runs_reason(old: SideSite, new: SideSite) -> Reason | None:
    rb, ra = old.program_runs, new.program_runs
    runs_b, runs_a = old.callsite.runs, new.callsite.runs
    if old.callsite.counted != new.callsite.counted:
        b, a = (rb if old.callsite.counted else "unknown"), (ra if new.callsite.counted else "unknown")
        why = f": {runs_a.note}" if not new.callsite.counted and runs_a.note else ""
        return Reason("runs", "runs", b if b != "unknown" else None, a if a != "unknown" else None, f"runs {b} → {a}{why}")
    if rb == ra:
        return None
    loop_b = old.callsite.features.get("loop_multiplier") if runs_b.loop is UNSAID else runs_b.loop
    loop_a = new.callsite.features.get("loop_multiplier") if runs_a.loop is UNSAID else runs_a.loop
    upper = "≤" if runs_a.bound == "upper" else ""
    text = f"runs {rb} → {upper}{ra}"
    if loop_b != loop_a and isinstance(loop_a, int) and loop_a > 1 and loop_b in (1, None, 0):
        text += f": now inside a {loop_a}-trip loop"
    elif loop_b != loop_a and loop_a == 1 and isinstance(loop_b, int) and loop_b > 1:
        text += ": no longer inside a loop"
    elif loop_b != loop_a and isinstance(loop_a, int) and isinstance(loop_b, int):
        text += f": its loop now makes {loop_a} trips"
    elif runs_b.callers != runs_a.callers and isinstance(runs_a.callers, int):
        text += f": its function is now called from {runs_a.callers} places"
    return Reason("runs", "runs", rb, ra, text)


def _work_reasons(old: SideSite, new: SideSite) -> list[Reason]:
    wb = {k: e.value for k, e in old.callsite.work.items()}
    wa = {k: e.value for k, e in new.callsite.work.items()}
    changed = [k for k in (*WORK_ORDER, *sorted(set(wb) | set(wa))) if k in (wb.keys() | wa.keys()) and wb.get(k) != wa.get(k)]
    changed = list(dict.fromkeys(changed))
    shown = [k for k in changed if not set(DERIVED.get(k, ())) & set(changed)]
    reasons = [Reason("work", k, wb.get(k), wa.get(k), f"{k} {_value(wb.get(k))} → {_value(wa.get(k))}") for k in shown]
    fb = {k: v for k, v in old.callsite.features.items() if k not in PLACE_FEATURES and k not in wb and k not in wa}
    fa = {k: v for k, v in new.callsite.features.items() if k not in PLACE_FEATURES and k not in wb and k not in wa}
    for k in sorted(set(fb) | set(fa)):
        if fb.get(k) != fa.get(k):
            before, after = fb.get(k, "unset"), fa.get(k, "unset")
            reasons.append(Reason("argument", k, fb.get(k), fa.get(k), f"{k} {_value(before)} → {_value(after)}"))
    return reasons


def explain(old: SideSite, new: SideSite) -> tuple[Reason, ...]:
    reasons = _work_reasons(old, new)
    runs = _runs_reason(old, new)
    return tuple([*reasons, runs] if runs else reasons)


def _interval(terms: list[tuple[float, float, float, float]]) -> tuple[float, float] | None:
    """Extremes of Σ a·v / Σ b·v with each v in [lo, hi] (Dinkelbach's iteration; None when the
    denominator can reach 0, or the extremes coincide: the uncertainty cancels)."""
    if not terms or sum(b * lo for lo, _, _, b in terms) <= 0:
        return None

    def extreme(sign: int) -> float:
        lam = sum(a * (lo + hi) / 2 for lo, hi, a, _ in terms) / sum(b * (lo + hi) / 2 for lo, hi, _, b in terms)
        for _ in range(100):
            vs = [(hi if sign * (a - lam * b) > 0 else lo) for lo, hi, a, b in terms]
            new = sum(a * v for v, (_, _, a, _) in zip(vs, terms)) / sum(b * v for v, (_, _, _, b) in zip(vs, terms))
            if abs(new - lam) <= SAME * abs(lam):
                return new
            lam = new
        return lam

    low, high = extreme(-1), extreme(1)
    return None if high - low <= 1e-6 * max(abs(high), 1e-300) else (low, high)


def _bounds(f: Figure) -> tuple[float, float]:
    return f.interval if f.interval else (f.joules, f.joules)


@dataclass(frozen=True)
class Compared:
    """One pair of sites (either may be None) with both figures, before the totals are made."""

    old: SideSite | None
    new: SideSite | None
    before: Figure | None
    after: Figure | None
    cancels: bool = False


@dataclass
class Totals:
    """Joules per program run of a set of sites on both sides, and the interval of their ratio."""

    before_j: float = 0.0
    after_j: float = 0.0
    unknown: int = 0
    ratio_interval: tuple[float, float] | None = None

    @property
    def ratio(self) -> float | None:
        return _ratio(self.after_j, self.before_j)


def totals(items: list[Compared], in_before, in_after) -> Totals:
    """The sums over *items* of the before figures of sites `in_before(site)` and the after figures
    of sites `in_after(site)`; a pair with both sides in whose ratio cancels moves as one."""
    out, terms = Totals(), []
    for c in items:
        b = c.before if c.old is not None and in_before(c.old) else None
        a = c.after if c.new is not None and in_after(c.new) else None
        if (b is not None and b.joules is None) or (a is not None and a.joules is None):
            out.unknown += 1
            continue
        out.before_j += b.joules if b else 0.0
        out.after_j += a.joules if a else 0.0
        if a and b and c.cancels:
            terms.append((*_bounds(b), a.joules / b.joules if b.joules else 0.0, 1.0))
            continue
        terms += [(*_bounds(a), 1.0, 0.0)] if a else []
        terms += [(*_bounds(b), 0.0, 1.0)] if b else []
    out.ratio_interval = _interval(terms)
    return out


def _change(old: SideSite | None, new: SideSite | None, where: str) -> tuple[Compared, Change | None]:
    """The figures of a pair, and its Change when it is listed."""
    if old and new:
        before, after, ratio, cancels = compare_pair(old, new)
        reasons = explain(old, new)
        changed = (ratio is None and bool(reasons)) or (ratio is not None and abs(ratio - 1) > SAME)
        if not changed:
            return Compared(old, new, before, after, cancels), None
        if not reasons:
            text = f"its figure changed ({before.label} → {after.label})"
            reasons = (Reason("figure", "basis", before.label, after.label, text),)
        apart = [(*_bounds(after), 1.0, 0.0), (*_bounds(before), 0.0, 1.0)]
        both = before.joules is not None and after.joules is not None
        interval = _interval(apart) if both and not cancels and ratio is not None else None
        change = Change("changed", where, new, before, after, ratio, interval, reasons, old)
        return Compared(old, new, before, after, cancels), change
    site = new or old
    p = site.prediction
    figure = _figure(site, p.energy_j, p.interval_j, p.label)
    status = "new" if new else "removed"
    text = f"new call site ({figure.runs} run{'s' if figure.runs != 1 else ''})" if new else "call site removed"
    reasons = (Reason("site", status, None, None, text),)
    before, after = (None, figure) if new else (figure, None)
    return Compared(old, new, before, after), Change(status, where, site, before, after, None, None, reasons, None)


def compare(
    base: Side, head: Side, pairs: list[Pair], renames: dict[str, str], old_files: list[str], new_files: list[str]
) -> Diff:
    """The Diff of matched sites: per site, per file (sites count in the file they are in now)."""
    renamed_to = {old: new for old, new in renames.items() if new in new_files}
    renamed_from = {new: old for old, new in renamed_to.items()}
    by_file: dict[str, list[Compared]] = {}
    changes: dict[str, list[Change]] = {}
    compared = []
    for old, new in pairs:
        where = new.path if new else renamed_to.get(old.path, old.path)
        item, change = _change(old, new, where)
        compared.append(item)
        by_file.setdefault(where, []).append(item)
        if change is not None:
            changes.setdefault(where, []).append(change)
    files = []
    for path in sorted(by_file):
        old = renamed_from.get(path)
        if old:
            status = "renamed"
        elif path in new_files:
            status = "modified" if path in old_files else "added"
        else:
            status = "deleted"
        t = totals(by_file[path], lambda s: True, lambda s: True)
        listed = sorted(changes.get(path, []), key=lambda c: c.site.position)
        files.append(FileDiff(path, old, status, t.before_j, t.after_j, t.ratio_interval, listed, t.unknown))
    diff = Diff(base, head, files, compared=compared)
    diff.ratio_interval = totals(compared, lambda s: True, lambda s: True).ratio_interval
    return diff
