"""The Prediction contract: what greenlint says one call site costs, and why."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from greenlint.units import TIMES, interval_ratio

#: Issue 17's goals for the figures on real code: the median 80 % interval at most this wide, and
#: under this share of the point figures wider than 1000×.
WIDTH_GOAL = 30.0
WIDE_SHARE_GOAL = 0.05


class Basis(str, Enum):
    """Where a figure comes from: the `basis` field of the calls JSON (docs/calls-json.md) and,
    through `label`, the one vocabulary the CLI, hovers, hints and lenses show (docs/design.md)."""

    PROFILED = "profiled"  # this call site, run on this machine (`greenlint measure`, energy counters)
    PROFILED_ESTIMATED = "profiled-estimated"  # this call site on this machine, no counter: time x power
    FROM_DATA = "from-data"  # this API measured in other programs (public data), scaled to this site's work
    BOUNDED = "bounded"  # every measurement of this API was below resolution (an upper bound), or most (the mean)
    NEGLIGIBLE = "negligible"  # a call that does no tensor work: under the bound measured on such calls
    SYMBOLIC = "symbolic"  # builds a graph at its line: 0 J here, its work counted where the graph runs
    CALIBRATED = "calibrated"  # this API measured on this machine by `greenlint calibrate`
    CALIBRATED_ESTIMATED = "calibrated-estimated"  # calibrated, but only time was measurable
    CALIBRATED_RESCALED = "calibrated-rescaled"  # reference figure rescaled by this machine's calibration
    PREDICTED = "predicted"  # generalised from related APIs / work features
    ESTIMATED = "estimated"  # no energy counter: time x power model
    UNKNOWN = "unknown"  # nothing to go on

    @property
    def label(self) -> str:
        """Short words for people: never "measured" for a figure this line did not produce."""
        return _LABELS[self]


_LABELS = {
    Basis.PROFILED: "measured here",
    Basis.PROFILED_ESTIMATED: "measured here, estimated",
    Basis.FROM_DATA: "from data",
    Basis.BOUNDED: "bounded",
    Basis.NEGLIGIBLE: "negligible",
    Basis.SYMBOLIC: "counted where it runs",
    Basis.CALIBRATED: "calibrated here",
    Basis.CALIBRATED_ESTIMATED: "calibrated here, estimated",
    Basis.CALIBRATED_RESCALED: "calibrated here, rescaled",
    Basis.PREDICTED: "predicted",
    Basis.ESTIMATED: "estimated",
    Basis.UNKNOWN: "unknown",
}


@dataclass(frozen=True)
class Evidence:
    """How many measurements a prediction rests on, and where they came from."""

    records: int = 0
    api: str | None = None  # the API (or fallback level, e.g. family) whose data was used
    level: str | None = None  # "api", "class", "module", "family", "kind", "global"
    sources: tuple[str, ...] = ()  # datasets / hardware ids
    note: str | None = None


@dataclass(frozen=True)
class Prediction:
    """Median net joules per execution of one call site, with an 80% interval and a split."""

    energy_j: float | None
    interval_j: tuple[float, float] | None
    cpu_j: float | None
    gpu_j: float | None
    ram_j: float | None
    basis: Basis
    evidence: Evidence = field(default_factory=Evidence)
    multiplier: float = 1.0  # e.g. enclosing literal loop bound, already folded into energy_j
    #: With a profiled basis: the static forecast for the same site, shown beside the profile.
    forecast: Prediction | None = None
    #: This site's own measurement on this machine (docs/calls-json.md `profile`); `stale` when the
    #: statement changed since, in which case the figure is the forecast's.
    profile: dict | None = None
    #: The data size is unknown: `energy_j` is the least the code allows (one batch per epoch) and the
    #: interval's top a stated most, not a statistical 80 % interval (docs/calls-json.md `floor`).
    floor: bool = False

    @property
    def interval_ratio(self) -> float | None:
        """high / low of the 80 % interval: how much the figure is worth."""
        return interval_ratio(self.interval_j)

    @property
    def label(self) -> str:
        """What people read for the basis: `Basis.label`, and `profile stale` when this site's own
        profile is out of date (the figure is then the forecast's)."""
        stale = bool(self.profile and self.profile.get("stale"))
        return self.basis.label + (", profile stale" if stale else "")

    @classmethod
    def symbolic(cls, note: str) -> Prediction:
        """0 J at a call that only builds a graph (docs/calls-json.md `symbolic`); *note* says where its work is counted."""
        return cls(0.0, (0.0, 0.0), 0.0, 0.0, 0.0, Basis.SYMBOLIC, Evidence(note=note))

    @classmethod
    def unknown(cls, note: str | None = None) -> Prediction:
        return cls(None, None, None, None, None, Basis.UNKNOWN, Evidence(note=note))

    def to_json(self) -> dict:
        """Its fields in order, then `interval_ratio`, built field by field: `asdict` would deep-copy
        every nested value, the forecast's too, and the lint cache writes one per call site."""
        evidence = self.evidence
        return {
            "energy_j": self.energy_j,
            "interval_j": list(self.interval_j) if self.interval_j else None,
            "cpu_j": self.cpu_j,
            "gpu_j": self.gpu_j,
            "ram_j": self.ram_j,
            "basis": self.basis.value,
            "evidence": {"records": evidence.records, "api": evidence.api, "level": evidence.level,
                         "sources": list(evidence.sources), "note": evidence.note},
            "multiplier": self.multiplier,
            "forecast": self.forecast.to_json() if self.forecast else None,
            "profile": copy.deepcopy(self.profile),
            "floor": self.floor,
            "interval_ratio": self.interval_ratio,
        }

    @classmethod
    def from_json(cls, obj: object) -> Prediction:
        """The Prediction `to_json` wrote (`interval_ratio` is derived, not read); ValueError for
        anything else: a field missing or of another type (it is read from untrusted files)."""
        if type(obj) is not dict:
            raise ValueError(f"a prediction is a JSON object, not {type(obj).__name__}")
        evidence = obj.get("evidence")
        if type(evidence) is not dict:
            raise ValueError("a prediction's evidence is a JSON object")
        interval, sources = obj.get("interval_j"), evidence.get("sources")
        if interval is not None and not (type(interval) is list and len(interval) == 2):
            raise ValueError("interval_j is two numbers or null")
        if type(sources) is not list or not all(type(s) is str for s in sources):
            raise ValueError("evidence.sources is a list of strings")
        profile, forecast = obj.get("profile"), obj.get("forecast")
        if profile is not None and type(profile) is not dict:
            raise ValueError("profile is a JSON object or null")
        return cls(
            _number(obj.get("energy_j"), "energy_j"),
            None if interval is None else (_figure(interval[0], "interval_j"), _figure(interval[1], "interval_j")),
            _number(obj.get("cpu_j"), "cpu_j"),
            _number(obj.get("gpu_j"), "gpu_j"),
            _number(obj.get("ram_j"), "ram_j"),
            Basis(obj.get("basis")),
            Evidence(
                _typed(evidence.get("records"), int, "evidence.records"),
                _typed(evidence.get("api"), str | None, "evidence.api"),
                _typed(evidence.get("level"), str | None, "evidence.level"),
                tuple(sources),
                _typed(evidence.get("note"), str | None, "evidence.note"),
            ),
            _figure(obj.get("multiplier"), "multiplier"),
            None if forecast is None else cls.from_json(forecast),
            profile,
            _typed(obj.get("floor"), bool, "floor"),
        )


def split_energy(energy: float, shares: Mapping[str, float]) -> dict[str, float | None]:
    """*energy* split by its CPU/GPU/DRAM *shares* (`cpu`, `gpu`, `ram`); None for a part without one."""
    return {c: (energy * shares[c] if c in shares else None) for c in ("cpu", "gpu", "ram")}


def _typed(value: object, kind, name: str):
    """*value* when it is of *kind* (exactly: `True` is not an int here); else ValueError."""
    if type(value) not in getattr(kind, "__args__", (kind,)):
        raise ValueError(f"{name} is {type(value).__name__}")
    return value


def _number(value: object, name: str) -> float | None:
    """A figure read back, or None."""
    return None if value is None else _figure(value, name)


def _figure(value: object, name: str) -> float:
    """A figure read back: a float (an int as written for a whole number of joules)."""
    if type(value) is not int and type(value) is not float:
        raise ValueError(f"{name} is {type(value).__name__}")
    return value  # type: ignore[return-value]


def width_summary(predictions: Iterable[Prediction | None]) -> str | None:
    """How much the figures are worth: `20 points, their 80% interval 59.6× wide at the median,
    10% wider than 100×, 0% wider than 1000× (goals ≤ 30×, under 5%); 28 upper bounds; 3 floors;
    40 symbolic`. Bounds and floors (data size or FLOPs unknown) are counted apart: they state a limit, not a
    point; symbolic calls too: they only build a graph, their work is counted where it runs, so their
    0 J is no figure of work (neither a point nor a bound). None without any figure."""
    figures = [p for p in predictions if p is not None and p.energy_j is not None]
    symbolic = sum(1 for p in figures if p.basis is Basis.SYMBOLIC)
    figures = [p for p in figures if p.basis is not Basis.SYMBOLIC]
    floors = sum(1 for p in figures if p.floor)
    ratios = [r for r in (p.interval_ratio for p in figures if not p.floor) if r is not None]
    bounds = sum(1 for p in figures if p.interval_j is not None and p.interval_j[0] <= 0)
    if not figures and not symbolic:
        return None
    parts = []
    if ratios:
        import statistics  # decimal, fractions, random: not for every run that loads this module

        share = lambda w: f"{sum(r > w for r in ratios) / len(ratios):.1%}"  # noqa: E731
        parts.append(f"{len(ratios)} point{'s' if len(ratios) != 1 else ''}, their 80% interval "
                     f"{statistics.median(ratios):.3g}{TIMES} wide at the median, {share(100)} wider than 100{TIMES}, "
                     f"{share(1000)} wider than 1000{TIMES} (goals ≤ {WIDTH_GOAL:g}{TIMES}, under {WIDE_SHARE_GOAL:.0%})")
    if bounds:
        parts.append(f"{bounds} upper bound{'s' if bounds != 1 else ''} (bounded, negligible)")
    if floors:
        parts.append(f"{floors} floor{'s' if floors != 1 else ''} (data size or FLOPs unknown: at least the figure)")
    if symbolic:
        parts.append(f"{symbolic} symbolic (0 J at their line: their work is counted where the graph runs)")
    return "; ".join(parts) + "." if parts else None
