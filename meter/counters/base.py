"""The one interface every energy source implements, its reading type and its four errors.

A source reads a *cumulative* joule count per component ("cpu" = CPU package, "ram" = DRAM,
"gpu" = all visible GPUs together). Sources that only see power (NVML without the energy
counter) integrate it themselves, so everything downstream subtracts two readings. A component
a source cannot see is absent from its readings: absent means "not measured", never 0 J.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

COMPONENTS = ("cpu", "ram", "gpu")

# Capability flags a source may carry.
CUMULATIVE_COUNTER = "cumulative-counter"  # reads a hardware energy counter
POWER_SAMPLES = "power-samples"  # integrates instantaneous power samples
ESTIMATED = "estimated"  # a model, not a measurement: everything it yields is labelled estimated
TEMPERATURE = "temperature"  # can report its component's temperature
PER_DEVICE = "per-device"  # sums several devices (packages, GPUs) it lists in `zones`


class SourceError(Exception):
    """Base of the four ways a source can fail; `source` names it, the message says what to do."""

    def __init__(self, source: str, message: str):
        super().__init__(f"{source}: {message}")
        self.source = source
        self.detail = message


class SourceUnavailable(SourceError):
    """The counter is not there (no powercap tree, no GPU, no driver, no library)."""


class SourcePermissionError(SourceError):
    """The counter exists but this user may not read it; the message names the privilege and the fix."""


class SourceUnsupported(SourceError):
    """The hardware or driver has the device but not this counter (e.g. a pre-Volta GPU's energy counter)."""


class SourceReadError(SourceError):
    """A read failed or returned garbage after the source was built."""


@dataclass(frozen=True)
class Availability:
    """Result of a cheap probe: whether a source can be built here, and if not, exactly why."""

    ok: bool
    reason: str = ""
    error: type[SourceError] | None = None  # the error `build` would raise

    @classmethod
    def yes(cls, reason: str = "") -> Availability:
        return cls(True, reason)

    @classmethod
    def no(cls, error: type[SourceError], reason: str) -> Availability:
        return cls(False, reason, error)


@dataclass(frozen=True)
class Reading:
    """Cumulative joules per component at one moment (`time_s`: time.monotonic, `epoch_ns`: wall clock)."""

    time_s: float
    epoch_ns: int
    energy_j: dict[str, float]
    temperature_c: dict[str, float] = field(default_factory=dict)


def now() -> tuple[float, int]:
    """(monotonic seconds, epoch ns) taken together, the two clocks every reading carries."""
    return time.monotonic(), time.time_ns()


class EnergySource(ABC):
    """One counter. Subclasses set the class attributes and implement `probe`, `_read` and `close`."""

    name: str = ""  # "rapl", "perf", "nvml", "replay", "estimated"
    measures: tuple[str, ...] = ()  # components this source can report
    capabilities: frozenset[str] = frozenset()
    resolution_j: float = 0.0  # smallest energy step the counter can show
    update_period_s: float = 0.0  # how often the underlying counter changes

    @classmethod
    @abstractmethod
    def probe(cls, **options) -> Availability:
        """Cheap check that never raises: can `cls(**options)` be built here, and if not, why."""

    def read(self) -> Reading:
        """A typed reading; raises SourceReadError (never returns zeros for a failed read)."""
        try:
            return self._read()
        except SourceError:
            raise
        except (OSError, ValueError) as exc:
            raise SourceReadError(self.name, f"read failed: {exc}") from exc

    @abstractmethod
    def _read(self) -> Reading: ...

    def close(self) -> None:  # noqa: B027 - optional hook, most sources hold nothing
        """Release what the source holds (a subprocess, a library handle)."""

    @property
    def estimated(self) -> bool:
        return ESTIMATED in self.capabilities

    @property
    def zones(self) -> tuple[str, ...]:
        """The devices or zones summed into the components (for the measurement file)."""
        return ()

    def describe(self) -> dict:
        """What the source measures, for the measurement file's `meter` block."""
        return {
            "source": self.name,
            "measures": list(self.measures),
            "basis": "estimated" if self.estimated else "measured",
            "capabilities": sorted(self.capabilities),
            "resolution_j": self.resolution_j,
            "update_period_s": self.update_period_s,
            "zones": list(self.zones),
        }
