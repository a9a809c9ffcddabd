"""The Prediction contract: what greenlint says one call site costs, and why."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum


class Basis(str, Enum):
    """How a number was obtained; shown to users as-is in the `basis` field."""

    MEASURED = "measured"  # looked up from measurements of this API on the reference machine
    PREDICTED = "predicted"  # generalised from related APIs / features
    CALIBRATED = "calibrated"  # measured on this machine by `greenlint calibrate`
    CALIBRATED_ESTIMATED = "calibrated-estimated"  # calibrated, but only time was measurable
    ESTIMATED = "estimated"  # no energy counter: time x power model
    UNKNOWN = "unknown"  # nothing to go on


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

    @classmethod
    def unknown(cls, note: str | None = None) -> Prediction:
        return cls(None, None, None, None, None, Basis.UNKNOWN, Evidence(note=note))

    def to_json(self) -> dict:
        d = asdict(self)
        d["basis"] = self.basis.value
        d["interval_j"] = list(self.interval_j) if self.interval_j else None
        d["evidence"]["sources"] = list(self.evidence.sources)
        return d
